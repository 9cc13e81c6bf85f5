//! The Prussian (FACTS §2.3, §9; HR 10): its formation from M2, the exchanges of M1–M6, BB and
//! HB for its reserved certificates, and the questions these put to the players. The moments
//! reached by train purchases (`State::prussian_due`, recorded by `trains::phase`) are carried
//! out here; the round machinery calls [`R1835::prussian_moments`] after every train purchase and
//! at the start of every stock and operating round, and a pending question
//! ([`R1835::prussian_pending`]) takes precedence over every other turn. Files by role: this
//! one (the questions and their answers), `papers` (the formation and exchange themselves, the
//! home tokens, [`papers::take_over_token`]), `income` (HR 10's "no double benefit"). Rulings K46–K50.

mod income;
pub(crate) mod papers;

#[cfg(test)]
mod proptests;
#[cfg(test)]
mod tests;

use super::R1835;
use super::actions::{Action, Refusal, illegal};
use super::state::{Ask, PrussianMoment, Round, State};
use crate::engine::Event;

/// When `prussian_moments` is called.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PrussianAt {
    TrainBought,
    StockRoundStart,
    OperatingRoundStart,
}

impl R1835 {
    /// The seat (index) that must answer a Prussian question now, if any (it takes precedence
    /// over the operating company's turn and over a stock-round turn).
    pub(crate) fn prussian_pending(&self, s: &State) -> Option<u8> {
        s.prussian.asks.first().map(|a| a.seat)
    }

    /// The prompt of that question, for the decision: what is asked, what each answer gives and
    /// what silence does (RULING K50).
    pub(crate) fn prussian_prompt(&self, s: &State) -> Option<String> {
        let first = s.prussian.asks.first()?;
        if self.is_m2(&first.paper) {
            return Some(format!(
                "Seat {}: {} now (FACTS §9)? Order FORM PR to form it or DECLINE PR to wait; sending nothing waits (RULING K50)",
                first.seat + 1,
                self.ask_text(s, first)
            ));
        }
        let asks: Vec<String> = self.asks_now(s).iter().map(|a| self.ask_text(s, a)).collect();
        Some(format!(
            "Seat {}: {} (FACTS §9)? Order EXCHANGE <paper> or KEEP <paper> for each; a paper not answered is kept (RULING K50)",
            first.seat + 1,
            asks.join("; ")
        ))
    }

    /// One question in words: "form the Prussian with M2, receiving PR's 10 % director's
    /// certificate" or "exchange M4 for a 10 % Prussian certificate".
    pub(crate) fn ask_text(&self, s: &State, a: &Ask) -> String {
        let percent = self
            .reserved(s, &a.paper)
            .and_then(|(_, i)| s.majors.get(self.pr())?.certs.get(i).map(|c| c.percent))
            .map(|p| format!("{p} %"))
            .unwrap_or_else(|| "reserved".to_string());
        if self.is_m2(&a.paper) {
            format!("form the Prussian with {}, receiving PR's {percent} director's certificate", a.paper)
        } else {
            format!("exchange {} for a {percent} Prussian certificate", a.paper)
        }
    }

    /// The questions put to the seat that answers now (several papers of one owner).
    pub(crate) fn asks_now<'a>(&self, s: &'a State) -> &'a [Ask] {
        let Some(first) = s.prussian.asks.first() else { return &[] };
        let k = s.prussian.asks.iter().take_while(|a| a.seat == first.seat).count();
        s.prussian.asks.get(..k).unwrap_or(&[])
    }

    /// Applies `FormPrussian`/`ExchangeForPrussian` by seat `p` (checked; refused otherwise).
    pub(crate) fn prussian_answer(
        &self,
        s: &mut State,
        p: u8,
        action: &Action,
        ev: &mut Vec<Event>,
    ) -> Result<(), Refusal> {
        let Some(first) = s.prussian.asks.first().cloned() else {
            return illegal("no Prussian question is open");
        };
        if first.seat != p {
            return illegal(format!(
                "the Prussian question is put to seat {}, not seat {}",
                first.seat + 1,
                p + 1
            ));
        }
        match action {
            Action::FormPrussian { form } if self.is_m2(&first.paper) => {
                s.prussian.asks.remove(0);
                if *form {
                    self.form_prussian(s, ev);
                    self.ask_round(s, self.pr_president(s));
                } else {
                    ev.push(Event::public(format!("Seat {} does not form the Prussian for now", p + 1)));
                }
                Ok(())
            }
            Action::FormPrussian { .. } => {
                illegal("the open question is an exchange, not the Prussian's formation")
            }
            Action::ExchangeForPrussian { paper, accept } => {
                if self.is_m2(&first.paper) || !self.pr_formed(s) {
                    return illegal("M2's owner first decides whether to form the Prussian (HR 10)");
                }
                let Some(i) = self.asks_now(s).iter().position(|a| a.paper == *paper) else {
                    return illegal(format!("seat {} is not asked about \"{paper}\" now", p + 1));
                };
                s.prussian.asks.remove(i);
                if *accept {
                    self.exchange_paper(s, paper, ev);
                    self.after_exchanges(s, ev);
                } else {
                    ev.push(Event::public(format!("Seat {} keeps {paper} for now", p + 1)));
                }
                Ok(())
            }
            _ => illegal("a Prussian question is open: form_prussian or exchange_for_prussian"),
        }
    }

    /// The legal answers now (must match what prussian_answer accepts).
    pub(crate) fn legal_prussian(&self, s: &State, out: &mut Vec<Action>) {
        let Some(first) = s.prussian.asks.first() else { return };
        if self.is_m2(&first.paper) {
            out.extend([true, false].map(|form| Action::FormPrussian { form }));
            return;
        }
        for a in self.asks_now(s) {
            for accept in [true, false] {
                out.push(Action::ExchangeForPrussian { paper: a.paper.clone(), accept });
            }
        }
    }

    /// The answer of a seat that sent no orders: decline (RULING K50).
    pub(crate) fn default_prussian(&self, s: &State) -> Option<Action> {
        let first = s.prussian.asks.first()?;
        Some(if self.is_m2(&first.paper) {
            Action::FormPrussian { form: false }
        } else {
            Action::ExchangeForPrussian { paper: first.paper.clone(), accept: false }
        })
    }

    /// Carries out what is due and asks what must be asked (FACTS §9, HR 10; RULING K46).
    pub(crate) fn prussian_moments(&self, s: &mut State, at: PrussianAt, ev: &mut Vec<Event>) {
        let pr = &mut s.prussian;
        match at {
            PrussianAt::TrainBought => pr.mid_or = matches!(s.round, Round::Operating { .. }),
            PrussianAt::StockRoundStart | PrussianAt::OperatingRoundStart => {
                pr.mid_or = false;
                pr.sits_out = false;
                pr.withheld.clear();
                pr.paid.clear();
                pr.asks.clear();
            }
        }
        for m in std::mem::take(&mut s.prussian_due) {
            match m {
                PrussianMoment::MayForm => {
                    s.prussian.may_form = true;
                    if at == PrussianAt::TrainBought {
                        self.ask_formation(s);
                    }
                }
                PrussianMoment::MustForm => {
                    s.prussian.may_form = true;
                    if !self.pr_formed(s) {
                        s.prussian.asks.retain(|a| !self.is_m2(&a.paper));
                        self.form_prussian(s, ev);
                        self.ask_round(s, self.pr_president(s));
                    }
                }
                PrussianMoment::ForcedExchange => self.forced_exchange(s, ev),
            }
        }
        let start = match at {
            PrussianAt::TrainBought => return,
            PrussianAt::StockRoundStart => Some(s.priority),
            PrussianAt::OperatingRoundStart => self.pr_president(s),
        };
        if self.pr_formed(s) {
            self.ask_round(s, start);
        } else {
            self.ask_formation(s);
        }
    }

    /// Whether the Prussian operates in the running operating round (RULING K47).
    pub(crate) fn prussian_operates_this_or(&self, s: &State) -> bool {
        self.pr_formed(s) && !s.prussian.sits_out
    }

    /// Asks M2's owner whether to form, if the first 4 has come and the Prussian has not formed.
    fn ask_formation(&self, s: &mut State) {
        if !s.prussian.may_form || self.pr_formed(s) {
            return;
        }
        let Some((m2, owner)) = self.m2(s) else { return };
        let paper = self.data.minors[m2].id.clone();
        if !s.prussian.asks.iter().any(|a| a.paper == paper) {
            s.prussian.asks.insert(0, Ask { seat: owner, paper });
        }
    }

    /// Asks every owner of a paper still to exchange, once around the table from `start`
    /// (FACTS §9 step 4, HR 10).
    fn ask_round(&self, s: &mut State, start: Option<u8>) {
        if !self.pr_formed(s) {
            return;
        }
        let start = start.unwrap_or(s.priority);
        for k in 0..s.n() {
            let q = s.left_of(start, k);
            for paper in self.papers_of(s, q) {
                if !s.prussian.asks.iter().any(|a| a.paper == paper) {
                    s.prussian.asks.push(Ask { seat: q, paper });
                }
            }
        }
    }
}
