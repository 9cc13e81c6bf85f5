//! The commands of the language (after the optional `CO:`): stock orders, operating orders, the
//! Prussian's answers. Part of the parser in `parse`.

use super::parse::{ParseError, Parser};
use super::types::{Asking, Cmd, Seller, Timing};
use crate::games::r1835::actions::{DividendKind, Source};

/// The words between "I" and the order in "I will buy …" (HR 20's own example).
const WILL: [&str; 4] = ["WILL", "SHALL", "WANT", "WOULD"];

impl Parser<'_> {
    /// One command.
    pub(super) fn cmd(&mut self) -> Result<Cmd, ParseError> {
        // HR 20 in the player's words: "I will buy only the 20% MSE certificate".
        if self.peek_is("I")
            && self.toks.get(self.at + 1).is_some_and(|t| WILL.contains(&t.to_ascii_uppercase().as_str()))
        {
            self.at += 2;
            let _ = self.eat("LIKE");
            let _ = self.eat("TO");
        } else if self.peek().is_some_and(|t| ["I'LL", "I’LL", "WE'LL"].contains(&t.as_str())) {
            self.at += 1;
        }
        let w = self.word("an order")?;
        match w.to_ascii_uppercase().as_str() {
            "PASS" | "DONE" => Ok(Cmd::Pass),
            "BUY" if self.eat("TRAIN") => self.buy_train(),
            "BUY" => self.buy(),
            "SELL" if self.eat("TRAIN") => self.sell_train(),
            "SELL" => self.sell(),
            "NATIONALISE" | "NATIONALIZE" => {
                let company = self.company()?;
                let _ = self.eat("FROM") || self.eat("SEAT");
                let _ = self.eat("SEAT");
                let from_seat = self.number("the seat to buy from, e.g. NATIONALISE BY FROM 3")?;
                Ok(Cmd::Nationalise { company, from_seat, percent: self.percent()? })
            }
            "LAY" => self.lay(),
            "TOKEN" | "STATION" => self.token(),
            "RUN" => self.run(),
            "PAY" | "PAYOUT" => Ok(Cmd::Dividend(DividendKind::Payout)),
            "WITHHOLD" => Ok(Cmd::Dividend(DividendKind::Withhold)),
            "SPLIT" => Ok(Cmd::Dividend(DividendKind::Split)),
            "DIVIDEND" => {
                let k = self.word("PAY, WITHHOLD or SPLIT")?.to_ascii_uppercase();
                match k.as_str() {
                    "PAY" | "PAYOUT" => Ok(Cmd::Dividend(DividendKind::Payout)),
                    "WITHHOLD" => Ok(Cmd::Dividend(DividendKind::Withhold)),
                    "SPLIT" => Ok(Cmd::Dividend(DividendKind::Split)),
                    _ => {
                        Err(ParseError::Expected { what: "PAY, WITHHOLD or SPLIT", found: format!("'{k}'") })
                    }
                }
            }
            "DISCARD" => Ok(Cmd::Discard { train: self.train()? }),
            "FORM" | "DECLINE" => {
                let form = w.eq_ignore_ascii_case("FORM");
                let c = self.company()?;
                if c != "PR" {
                    return Err(ParseError::Misplaced(format!(
                        "only the Prussian is formed, not {c}: FORM PR"
                    )));
                }
                Ok(Cmd::Form(form))
            }
            "EXCHANGE" | "KEEP" => {
                let accept = w.eq_ignore_ascii_case("EXCHANGE");
                let p = self.word("a minor, BB or HB")?;
                let paper = self.name(&p)?;
                if !(paper.starts_with('M') || paper == "BB" || paper == "HB") {
                    return Err(ParseError::Misplaced(format!("{paper} is not exchanged for the Prussian")));
                }
                Ok(Cmd::Exchange { paper, accept })
            }
            other => Err(ParseError::UnknownOrder(other.to_string())),
        }
    }

    fn buy(&mut self) -> Result<Cmd, ParseError> {
        // HR 20: "only the 20% MSE certificate", "one MSE", "a 10% BY share": filler words
        // skipped, number words counted; a size said (`20%`, `20 %`, `20 percent`) is kept.
        let _ = self.eat("ONLY");
        let mut count = self.count_word();
        let _ = self.eat("ONLY") || self.eat("THE");
        let mut percent = self.spelled_percent()?;
        // HR 20: `1Wte`, `2MSE` — a number written against the name.
        let first = self.word("a company or item, e.g. BUY 1 BY IPO or BUY M2")?;
        let split = first.find(|c: char| !c.is_ascii_digit()).unwrap_or(first.len());
        let name_word = if split > 0 && split < first.len() && !first.ends_with('%') && count.is_none() {
            count = first[..split].parse().ok();
            first[split..].to_string()
        } else if first.ends_with('%') && percent.is_none() {
            self.at -= 1;
            percent = self.percent()?;
            self.word("a company, e.g. BUY 20% MS")?
        } else if let (Ok(n), None) = (first.parse::<u8>(), count) {
            count = Some(n);
            let _ = self.eat("THE");
            percent = percent.or(self.spelled_percent()?);
            self.word("a company, e.g. BUY 2 MS")?
        } else {
            first
        };
        let name = self.name(&name_word)?;
        self.certificate_word();
        let from = self.source_after_from();
        if percent.is_none() {
            percent = self.percent()?;
            self.certificate_word();
        }
        if count == Some(0) {
            return Err(ParseError::Misplaced("BUY 0 buys nothing: leave the line out".into()));
        }
        Ok(Cmd::Buy { count, name, from, percent })
    }

    /// A number word or an article for one certificate (`ONE`, `A`, `TWO`…), as a count.
    fn count_word(&mut self) -> Option<u8> {
        let n = match self.peek()?.as_str() {
            "A" | "AN" | "ONE" => 1,
            "TWO" => 2,
            "THREE" => 3,
            "FOUR" => 4,
            _ => return None,
        };
        self.at += 1;
        Some(n)
    }

    /// A size spelled out before the name: `20%`, `20 %`, `20 percent`.
    fn spelled_percent(&mut self) -> Result<Option<u8>, ParseError> {
        if self.peek().is_some_and(|w| w.ends_with('%')) {
            return self.percent();
        }
        let spelled = self.toks.get(self.at + 1).is_some_and(|t| {
            let t = t.to_ascii_uppercase();
            t == "%"
                || t == "PERCENT"
                || t == "PER" && self.toks.get(self.at + 2).is_some_and(|c| c.eq_ignore_ascii_case("CENT"))
        });
        let Some(n) = self.peek().filter(|w| spelled && w.parse::<u8>().is_ok()) else { return Ok(None) };
        self.at += 2;
        let _ = self.eat("CENT");
        match n.parse::<u8>() {
            Ok(p @ (5 | 10 | 20)) => Ok(Some(p)),
            _ => Err(ParseError::BadSize(format!("{n}%"))),
        }
    }

    /// The words players put after a company's name: `certificate(s)`, `share(s)`.
    fn certificate_word(&mut self) {
        let _ =
            ["CERTIFICATE", "CERTIFICATES", "CERT", "CERTS", "SHARE", "SHARES"].iter().any(|w| self.eat(w));
    }

    /// `IPO`, `POOL`, or the same after `FROM [THE]`.
    fn source_after_from(&mut self) -> Option<Source> {
        if self.peek_is("FROM")
            && self
                .toks
                .get(self.at + 1)
                .is_some_and(|t| ["IPO", "POOL", "THE"].contains(&t.to_ascii_uppercase().as_str()))
        {
            self.at += 1;
            let _ = self.eat("THE");
        }
        self.source()
    }

    fn sell(&mut self) -> Result<Cmd, ParseError> {
        let first = self.word("a company, e.g. SELL 2 SX")?;
        let (count, word) = match first.parse::<u8>() {
            Ok(n) => (n, self.word("a company, e.g. SELL 2 SX")?),
            Err(_) => {
                let split = first.find(|c: char| !c.is_ascii_digit()).unwrap_or(0);
                match first[..split].parse::<u8>() {
                    Ok(n) => (n, first[split..].to_string()),
                    Err(_) => (1, first),
                }
            }
        };
        let company = self.name(&word)?;
        if self.g.data.major_index(&company).is_none() {
            return Err(ParseError::Misplaced(format!("only share certificates can be sold, not {company}")));
        }
        if self.peek_is("IPO") || self.peek_is("POOL") {
            return Err(ParseError::Misplaced("sales always go to the pool: leave out IPO/POOL".into()));
        }
        let percent = self.percent()?;
        let timing = if self.eat("ANYWAY") {
            Timing::Anyway
        } else if self.eat("ALONE") {
            Timing::Alone
        } else if self.eat("AFTER") {
            Timing::After
        } else {
            Timing::Paired
        };
        if count == 0 {
            return Err(ParseError::Misplaced("SELL 0 sells nothing: leave the line out".into()));
        }
        Ok(Cmd::Sell { count, company, percent, timing })
    }

    fn buy_train(&mut self) -> Result<Cmd, ParseError> {
        let train = self.train()?;
        let from = if self.eat("FROM") {
            let w = self.word("BANK, POOL or a company")?;
            Some(match w.to_ascii_uppercase().as_str() {
                "BANK" | "IPO" => Seller::Bank,
                "POOL" => Seller::Pool,
                _ => Seller::Company(self.name(&w)?),
            })
        } else {
            None
        };
        let price = if self.eat("PRICE") || self.eat("FOR") { Some(self.number("a price")?) } else { None };
        Ok(Cmd::BuyTrain { train, from, price })
    }

    /// `SELL TRAIN 3 TO BY MIN 200` or `… FOR 250` (RULING K75).
    fn sell_train(&mut self) -> Result<Cmd, ParseError> {
        let train = self.train()?;
        if !self.eat("TO") {
            return Err(ParseError::Expected {
                what: "TO and the buying company, e.g. SELL TRAIN 3 TO BY MIN 200",
                found: self.found(),
            });
        }
        let to = self.company()?;
        let price = if self.eat("MIN") || self.eat("MINIMUM") {
            Asking::Min(self.number("a minimum price")?)
        } else if self.eat("FOR") || self.eat("PRICE") {
            Asking::Exactly(self.number("the price offered")?)
        } else {
            return Err(ParseError::Expected {
                what: "MIN and the lowest price you take, or FOR and the price offered, e.g. SELL TRAIN 3 TO BY MIN 200",
                found: self.found(),
            });
        };
        if matches!(price, Asking::Min(n) | Asking::Exactly(n) if n < 1) {
            return Err(ParseError::Misplaced("a train is sold for at least 1 M (FACTS §7.6)".into()));
        }
        Ok(Cmd::SellTrain { train, to, price })
    }

    fn lay(&mut self) -> Result<Cmd, ParseError> {
        if self.eat("BEST") {
            return Ok(Cmd::Lay { tile: None, hex: None, rotation: None, toward: None });
        }
        if self.peek_is("TOWARD") || self.peek_is("TOWARDS") {
            return Ok(Cmd::Lay { tile: None, hex: None, rotation: None, toward: self.toward()? });
        }
        let tile = self.tile()?;
        let hex = self.hex()?;
        let rotation = if self.eat("ROTATION") || self.eat("ROT") { Some(self.rotation()?) } else { None };
        Ok(Cmd::Lay { tile: Some(tile), hex: Some(hex), rotation, toward: self.toward()? })
    }

    fn token(&mut self) -> Result<Cmd, ParseError> {
        if self.eat("BEST") {
            return Ok(Cmd::Token { hex: None, city: None, toward: None });
        }
        if self.peek_is("TOWARD") || self.peek_is("TOWARDS") {
            return Ok(Cmd::Token { hex: None, city: None, toward: self.toward()? });
        }
        let hex = self.hex()?;
        let city = if self.eat("CITY") { Some(self.number("a city number")?) } else { None };
        Ok(Cmd::Token { hex: Some(hex), city, toward: self.toward()? })
    }

    fn run(&mut self) -> Result<Cmd, ParseError> {
        if self.eat("BEST") {
            return Ok(Cmd::Run { routes: Vec::new() });
        }
        let mut routes = Vec::new();
        loop {
            let w = self.word("a route such as E19-F20-G21, or BEST")?;
            let mut stops = Vec::new();
            for stop in w.split('-') {
                let (hex, city) = stop.split_once('.').map_or((stop, None), |(h, c)| (h, Some(c)));
                let hex = self.g.hex_named(hex).ok_or_else(|| ParseError::UnknownHex(hex.to_string()))?;
                stops.push(match city {
                    Some(c) if c.parse::<u8>().is_ok() => format!("{hex}.{c}"),
                    Some(c) => {
                        return Err(ParseError::Expected {
                            what: "a city number after '.'",
                            found: format!("'{c}'"),
                        });
                    }
                    None => hex,
                });
            }
            if stops.len() < 2 {
                return Err(ParseError::Misplaced(format!("a route visits two stops or more, not '{w}'")));
            }
            routes.push(stops);
            if !self.eat(",") && !self.eat("/") {
                break;
            }
        }
        Ok(Cmd::Run { routes })
    }
}
