//! Decisions and their legal actions: who acts, with a prompt a player can read, and every
//! action `apply` would accept there (the web UI and the order checker list them). The forced
//! default is a pass wherever a pass is legal; in operating rounds see `operate::offer`.

use super::R1835;
use super::actions::{Action, Refusal, Source, illegal};
use super::state::{Loc, Round, State};
use crate::engine::{Decision, Rules, Seat};

const SIZES: [u8; 3] = [5, 10, 20];

impl R1835 {
    /// A player over the certificate limit (through a presidency change caused by another
    /// player) must sell down before ending the turn, where a sale is possible (RULING K8).
    pub(crate) fn check_stock_pass(&self, s: &State, p: u8) -> Result<(), Refusal> {
        if s.packet_open() || self.cert_count(s, p) <= self.cert_limit(s, p) {
            return Ok(());
        }
        let mut sales = Vec::new();
        self.legal_sales(s, p, &mut sales);
        if sales.is_empty() {
            return Ok(());
        }
        illegal(format!(
            "you hold {} certificates, more than your limit of {}, and must sell before ending your turn (RULING K8)",
            self.cert_count(s, p),
            self.cert_limit(s, p)
        ))
    }

    fn legal_sales(&self, s: &State, p: u8, out: &mut Vec<Action>) {
        for co in 0..s.majors.len() {
            let id = &self.data.majors[co].id;
            let held = self.percent_of(s, co, p);
            for percent in SIZES.into_iter().filter(|x| u32::from(*x) <= held) {
                let max = u8::try_from(held / u32::from(percent)).unwrap_or(0);
                for count in 1..=max {
                    if self.sale_plan(s, p, co, count, percent).is_ok() {
                        out.push(Action::Sell { company: id.clone(), count, percent });
                    }
                }
            }
        }
    }

    fn legal_nationalisations(&self, s: &State, p: u8, out: &mut Vec<Action>) {
        for co in 0..s.majors.len() {
            let id = &self.data.majors[co].id;
            for victim in (0..s.n()).filter(|v| *v != p) {
                for percent in SIZES {
                    let holds = s.majors[co]
                        .certs
                        .iter()
                        .any(|c| c.at == Loc::Player(victim) && c.percent == percent);
                    if holds && self.check_nationalise(s, p, co, victim, percent).is_ok() {
                        out.push(Action::Nationalise { company: id.clone(), from_seat: victim + 1, percent });
                    }
                }
            }
        }
    }
}

impl Rules for R1835 {
    type State = State;
    type Action = Action;

    /// The decision now, if the game is not over.
    fn next_decision(&self, s: &State) -> Option<Decision> {
        let p = self.acting(s)?;
        if let Some(prompt) = self.prussian_prompt(s) {
            return Some(Decision { seat: Seat::from_index(usize::from(p)), prompt });
        }
        let prompt = match s.round {
            Round::Stock { n } if s.packet_open() => {
                let items: Vec<String> = self
                    .available_items(s)
                    .iter()
                    .map(|i| format!("{} {} M", self.data.packet[*i].id, self.data.packet[*i].price))
                    .collect();
                format!("stock round {n}: buy a start-packet item ({}) or pass", items.join(", "))
            }
            Round::Stock { n } if s.sr.turn.bought => {
                format!("stock round {n}: sell shares if you wish, then end your turn (pass)")
            }
            Round::Stock { n } => {
                format!("stock round {n}: sell shares and buy one certificate, in any order, or pass")
            }
            Round::Operating { set, n, .. } => format!("operating round {set}.{n}: {}", self.turn_prompt(s)),
            Round::Over => return None,
        };
        Some(Decision { seat: Seat::from_index(usize::from(p)), prompt })
    }

    /// Every legal action for the seat to act.
    fn legal_actions(&self, s: &State) -> Vec<Action> {
        let Some(p) = self.acting(s) else { return Vec::new() };
        let mut out = Vec::new();
        if self.prussian_pending(s).is_some() {
            self.legal_prussian(s, &mut out);
            return out;
        }
        match s.round {
            Round::Over => {}
            Round::Operating { .. } => out = self.legal_turn(s),
            Round::Stock { .. } if s.packet_open() => {
                for i in self.available_items(s) {
                    if self.check_buy_item(s, p, i).is_ok() {
                        out.push(Action::BuyItem { item: self.data.packet[i].id.clone() });
                    }
                }
                out.push(Action::Pass);
            }
            Round::Stock { .. } => {
                for co in 0..s.majors.len() {
                    let id = &self.data.majors[co].id;
                    for from in [Source::Ipo, Source::Pool] {
                        for percent in SIZES {
                            if self.check_buy_share(s, p, co, from, percent).is_ok() {
                                out.push(Action::BuyShare { company: id.clone(), from, percent });
                            }
                        }
                    }
                }
                self.legal_sales(s, p, &mut out);
                self.legal_nationalisations(s, p, &mut out);
                if self.check_stock_pass(s, p).is_ok() {
                    out.push(Action::Pass);
                }
            }
        }
        out
    }

    /// The rules' default: pass; a player who must sell down sells the first legal sale.
    fn default_action(&self, s: &State) -> Option<Action> {
        if self.prussian_pending(s).is_some() {
            return self.default_prussian(s);
        }
        match s.round {
            Round::Stock { .. } => {
                let p = self.acting(s)?;
                if self.check_stock_pass(s, p).is_ok() {
                    return Some(Action::Pass);
                }
                let mut sales = Vec::new();
                self.legal_sales(s, p, &mut sales);
                sales.into_iter().next()
            }
            Round::Operating { .. } => self.default_turn(s),
            Round::Over => None,
        }
    }
}
