//! What players see: the JSON view, the plain-text description and the final standings. 1835
//! has no hidden information (cash and holdings are public), so every viewer sees the same,
//! open Prussian questions included: who is asked what, now and next (FACTS §9, HR 10) — but
//! for the price of an offer for another player's train, which its two directors and the GM
//! alone see (RULING K75).

use super::R1835;
use super::holdings::value;
use super::state::Ask;
use super::state::{Loc, Round, State};
use crate::engine::counted;
use crate::engine::{Rules, Scoring, Seat, Standing, View, Viewer};
use serde_json::{Value, json};

impl R1835 {
    /// A player's worth for the final score: cash plus certificates at the market price
    /// (5 % papers at half; a company without a price marker at its par price; RULING K12).
    /// Company treasuries, privates and minors do not count (FACTS §13).
    pub(crate) fn worth(&self, s: &State, p: u8) -> i64 {
        let shares: i64 = s
            .majors
            .iter()
            .enumerate()
            .flat_map(|(co, c)| {
                let price = self.data.market.price(c.price.unwrap_or(self.data.majors[co].start_space));
                c.certs.iter().filter(move |x| x.at == Loc::Player(p)).map(move |x| value(price, x.percent))
            })
            .sum();
        s.players[usize::from(p)].cash + shares
    }
}

impl Scoring for R1835 {
    /// Places by worth once the game is over; tied players share a place.
    fn standings(&self, s: &State) -> Option<Vec<Standing>> {
        if s.round != Round::Over {
            return None;
        }
        let mut rows: Vec<(u8, i64)> = (0..s.n()).map(|p| (p, self.worth(s, p))).collect();
        rows.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
        let mut out: Vec<Standing> = Vec::new();
        for (i, (p, w)) in rows.iter().enumerate() {
            let place = match out.last() {
                Some(prev) if i > 0 && rows[i - 1].1 == *w => prev.place,
                _ => u8::try_from(i + 1).unwrap_or(u8::MAX),
            };
            out.push(Standing { seat: Seat::from_index(usize::from(*p)), place, score: format!("{w} M") });
        }
        Some(out)
    }
}

impl R1835 {
    fn holdings_json(&self, s: &State, p: u8) -> Value {
        let owned = |o: Option<u8>| o == Some(p);
        let shares: serde_json::Map<String, Value> = (0..s.majors.len())
            .filter_map(|co| {
                let pc = self.percent_of(s, co, p);
                (pc > 0).then(|| (s.majors[co].id.clone(), json!(pc)))
            })
            .collect();
        json!({
            "seat": p + 1,
            "cash": s.players[usize::from(p)].cash,
            "certificates": self.cert_count(s, p),
            "limit": self.cert_limit(s, p),
            "worth": self.worth(s, p),
            "privates": s.privates.iter().filter(|x| owned(x.owner) && !x.closed).map(|x| x.id.clone()).collect::<Vec<_>>(),
            "minors": s.minors.iter().filter(|x| owned(x.owner) && !x.closed).map(|x| x.id.clone()).collect::<Vec<_>>(),
            "shares": shares,
        })
    }
}

impl View for R1835 {
    fn view(&self, s: &State, viewer: Viewer) -> Value {
        let companies: Vec<Value> = s
            .majors
            .iter()
            .enumerate()
            .map(|(co, c)| {
                let at = |l: Loc| c.certs.iter().filter(|x| x.at == l).map(|x| x.percent).collect::<Vec<_>>();
                json!({
                    "id": c.id,
                    "price": c.price.map(|sp| self.data.market.price(sp)),
                    "space": c.price.map(|sp| sp.to_string()),
                    "par": self.data.majors[co].par,
                    "president": self.president(s, co).map(|p| p + 1),
                    "floated": c.floated,
                    "operated": c.operated,
                    "cash": c.cash,
                    "ipo": at(Loc::Ipo),
                    "pool": at(Loc::Pool),
                    "reserved": at(Loc::Reserved),
                    "ipo_open": self.ipo_open(s, co).is_ok(),
                })
            })
            .collect();
        let available = self.available_items(s);
        json!({
            "round": s.round.name(),
            "phase": self.data.phases.get(usize::from(s.phase)).map(|p| p.id.clone()),
            "bank": s.bank,
            "priority": s.priority + 1,
            "to_act": self.acting(s).map(|p| p + 1),
            "options": s.options,
            "players": (0..s.n()).map(|p| self.holdings_json(s, p)).collect::<Vec<_>>(),
            "companies": companies,
            "minors": s.minors.iter().map(|m| json!({"id": m.id, "owner": m.owner.map(|p| p + 1), "cash": m.cash})).collect::<Vec<_>>(),
            "privates": s.privates.iter().map(|x| json!({"id": x.id, "owner": x.owner.map(|p| p + 1), "closed": x.closed})).collect::<Vec<_>>(),
            "start_packet": self.data.packet.iter().enumerate().map(|(i, it)| json!({
                "item": it.id, "price": it.price, "sold": s.packet_sold[i], "on_sale": available.contains(&i),
            })).collect::<Vec<_>>(),
            "board": s.board,
            "operating": self.operating_view(s, viewer),
            "prussian": self.prussian_view(s),
        })
    }

    fn describe(&self, s: &State, viewer: Viewer) -> String {
        let mut out = vec![format!(
            "{} — {}; bank {} M; priority deal: seat {}",
            self.data.title,
            s.round.name(),
            s.bank,
            s.priority + 1
        )];
        for p in 0..s.n() {
            let shares = self.holdings_in_words(s, p, |id, pc| format!("{id}* {pc} %"));
            out.push(format!(
                "seat {}: {} M, {} of {} certificates: {}",
                p + 1,
                s.players[usize::from(p)].cash,
                self.cert_count(s, p),
                self.cert_limit(s, p),
                if shares.is_empty() { "nothing".to_string() } else { shares.join(", ") }
            ));
        }
        for (co, c) in s.majors.iter().enumerate().filter(|(_, c)| c.price.is_some()) {
            let price =
                c.price.map(|sp| format!("{} ({sp})", self.data.market.price(sp))).unwrap_or_default();
            let state = if c.floated { format!("floated, {} M", c.cash) } else { "not floated".to_string() };
            out.push(format!("{} at {price}, {state}, pool {} %", c.id, self.pool_percent(s, co)));
        }
        for m in s.minors.iter().filter(|m| m.owner.is_some() && !m.closed) {
            out.push(format!("{}: {} M", m.id, m.cash));
        }
        if s.packet_open() {
            let items: Vec<String> = self
                .available_items(s)
                .iter()
                .map(|i| format!("{} {} M", self.data.packet[*i].id, self.data.packet[*i].price))
                .collect();
            out.push(format!("Start packet on sale: {}", items.join(", ")));
        }
        out.extend(self.prussian_lines(s));
        if let Some(d) = self.next_decision(s) {
            out.push(format!("To act: {}, {}", d.seat, d.prompt));
        }
        if self.sees_offer_price(s, viewer) {
            out.extend(self.offer_words(s, true).map(|w| format!("The offer (to its two directors): {w}")));
        }
        out.join("\n")
    }
}

impl R1835 {
    /// What seat `p` holds in words: each share company's percentage (`director` words the
    /// director's), then its open privates and minors.
    pub(crate) fn holdings_in_words(
        &self,
        s: &State,
        p: u8,
        director: impl Fn(&str, u32) -> String,
    ) -> Vec<String> {
        (0..s.majors.len())
            .filter_map(|co| {
                let pc = self.percent_of(s, co, p);
                let id = s.majors[co].id.as_str();
                (pc > 0).then(|| {
                    if self.president(s, co) == Some(p) { director(id, pc) } else { format!("{id} {pc} %") }
                })
            })
            .chain(s.privates.iter().filter(|x| x.owner == Some(p) && !x.closed).map(|x| x.id.clone()))
            .chain(s.minors.iter().filter(|x| x.owner == Some(p) && !x.closed).map(|x| x.id.clone()))
            .collect()
    }

    /// Where everything stands, in one line, for the report at each round's end (issue 15: the
    /// stock market, treasuries and trains, players' cash and certificates after every round).
    pub(crate) fn round_summary(&self, s: &State) -> String {
        let seats: Vec<String> = (0..s.n())
            .map(|p| {
                format!(
                    "seat {} {} M, {}",
                    p + 1,
                    s.players[usize::from(p)].cash,
                    counted(self.cert_count(s, p) as usize, "certificate")
                )
            })
            .collect();
        let companies: Vec<String> = s
            .majors
            .iter()
            .filter(|c| c.floated)
            .map(|c| {
                let price =
                    c.price.map(|sp| self.data.market.price(sp).to_string()).unwrap_or_else(|| "—".into());
                let trains = train_list(&c.trains);
                format!("{} at {price}, {} M, {trains}", c.id, c.cash)
            })
            .chain(s.minors.iter().filter(|m| m.owner.is_some() && !m.closed).map(|m| {
                let trains = train_list(&m.trains);
                format!("{} {} M, {trains}", m.id, m.cash)
            }))
            .collect();
        let mut out = format!("{}; bank {} M", seats.join("; "), s.bank);
        if !companies.is_empty() {
            out.push_str(&format!(" — {}", companies.join("; ")));
        }
        out
    }

    /// Whether `viewer` may see the price of the offer waiting: its two directors and the GM
    /// (RULING K75).
    fn sees_offer_price(&self, s: &State, viewer: Viewer) -> bool {
        match viewer {
            Viewer::Gm => true,
            Viewer::Seat(seat) => self.party_to_offer(s, seat),
            Viewer::Public => false,
        }
    }

    /// The company operating now and its turn: step, lays, station, revenue and routes run, and
    /// an offer for another player's train waiting (its price for its two directors alone).
    fn operating_view(&self, s: &State, viewer: Viewer) -> Value {
        let Some(e) = self.operating_entity(s).filter(|_| matches!(s.round, Round::Operating { .. })) else {
            return Value::Null;
        };
        let t = &s.or.turn;
        json!({
            "company": self.entity_id(s, e),
            "step": t.step,
            "lays": t.lays,
            "lays_allowed": self.lays_allowed(s, e),
            "token_placed": t.token,
            "revenue": t.revenue,
            "routes": t.routes,
            "offer": t.offer.as_ref().map(|o| json!({
                "seller": self.entity_id(s, o.seller),
                "train": o.train,
                "price": self.sees_offer_price(s, viewer).then_some(o.price),
            })),
        })
    }

    /// The Prussian and its open questions (FACTS §9, HR 10). 1835 is open information: every
    /// viewer sees who is asked what, the seat answering now first (`asking`), then the seats
    /// asked after it in order (`waiting`).
    fn prussian_view(&self, s: &State) -> Value {
        let pr = self.data.majors.iter().position(|m| m.prussian);
        let formed = pr.and_then(|i| s.majors.get(i)).is_some_and(|c| c.floated);
        let now = self.asks_now(s);
        let ask = |a: &Ask| json!({"seat": a.seat + 1, "paper": a.paper, "question": self.ask_text(s, a)});
        let asking = (!now.is_empty()).then(|| {
            json!({
                "seat": now[0].seat + 1,
                "asks": now.iter().map(ask).collect::<Vec<_>>(),
                "prompt": self.prussian_prompt(s),
            })
        });
        json!({
            "formed": formed,
            "may_form": s.prussian.may_form,
            "president": pr.filter(|_| formed).and_then(|i| self.president(s, i)).map(|p| p + 1),
            "sits_out_this_round": s.prussian.sits_out,
            "asking": asking,
            "waiting": s.prussian.asks.iter().skip(now.len()).map(ask).collect::<Vec<_>>(),
        })
    }

    /// The description's lines about open Prussian questions: who answers now, who after.
    fn prussian_lines(&self, s: &State) -> Vec<String> {
        let mut out = Vec::new();
        let mut rest = s.prussian.asks.as_slice();
        while let Some(first) = rest.first() {
            let k = rest.iter().take_while(|a| a.seat == first.seat).count();
            let (group, tail) = rest.split_at(k);
            let what: Vec<String> = group.iter().map(|a| self.ask_text(s, a)).collect();
            let when = if out.is_empty() { "asked now" } else { "asked next" };
            out.push(format!(
                "Prussian question (FACTS §9), seat {} {when}: {}",
                first.seat + 1,
                what.join("; ")
            ));
            rest = tail;
        }
        out
    }
}

/// A company's trains for the round summary: `trains [2, 2+2]` (a `+` is part of a train's name,
/// so the list is bracketed and comma-separated), or `no trains`.
fn train_list(trains: &[String]) -> String {
    if trains.is_empty() { "no trains".to_string() } else { format!("trains [{}]", trains.join(", ")) }
}
