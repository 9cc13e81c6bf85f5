//! Carrying out an action: the acting seat, the dispatch by round, and atomicity (the action
//! works on a copy that replaces the state only when everything succeeded).

use super::R1835;
use super::actions::{Action, Hook, Refusal, illegal};
use super::state::{Round, State, Step};
use crate::engine::{Event, Illegal};

impl R1835 {
    /// The seat (index) that must act now, if any.
    pub(crate) fn acting(&self, s: &State) -> Option<u8> {
        match s.round {
            Round::Stock { .. } => Some(s.sr.current),
            Round::Operating { .. } => self.operator(s),
            Round::Over => None,
        }
    }

    /// Applies `action` for the seat to act, atomically.
    pub(crate) fn apply_action(&self, s: &mut State, action: &Action) -> Result<Vec<Event>, Illegal> {
        let Some(p) = self.acting(s) else {
            return Err(Illegal("the game is over".into()));
        };
        let mut next = s.clone();
        next.closed.clear();
        let mut ev = Vec::new();
        let bank_was_whole = next.end.is_none();
        self.step(&mut next, p, action, &mut ev)?;
        if bank_was_whole && next.end.is_some() {
            ev.push(Event::public(
                "The bank has broken: the game ends after the current operating round (after the next one if it broke in a stock round)",
            ));
        }
        *s = next;
        Ok(ev)
    }

    fn step(&self, s: &mut State, p: u8, action: &Action, ev: &mut Vec<Event>) -> Result<(), Refusal> {
        match (s.round, action) {
            (Round::Over, _) => illegal("the game is over"),
            (Round::Stock { .. }, Action::BuyItem { item }) => {
                if !s.packet_open() {
                    return illegal("the start packet is sold out");
                }
                let Some(i) = self.data.item_index(item) else {
                    return illegal(format!("\"{item}\" is not an item of the start packet"));
                };
                self.check_buy_item(s, p, i)?;
                self.buy_item(s, p, i, ev);
                self.record_purchase(s, p);
                self.end_turn(s, ev);
                Ok(())
            }
            (Round::Stock { .. }, Action::BuyShare { company, from, percent }) => {
                let co = self.company(company)?;
                self.buy_share(s, p, co, *from, *percent, ev)
            }
            (Round::Stock { .. }, Action::Sell { company, count, percent }) => {
                let co = self.company(company)?;
                self.sell(s, p, co, *count, *percent, ev)
            }
            (Round::Stock { .. }, Action::Nationalise { company, from_seat, percent }) => {
                let co = self.company(company)?;
                self.nationalise(s, p, co, from_seat.wrapping_sub(1), *percent, ev)
            }
            (Round::Stock { .. }, Action::Pass) => {
                self.check_stock_pass(s, p)?;
                self.end_turn(s, ev);
                Ok(())
            }
            (Round::Operating { .. }, a) => self.operate(s, a, ev),
            (Round::Stock { .. }, a) if hook_of(a).is_some() => {
                illegal("that is an action of an operating round; a stock round is under way")
            }
            (Round::Stock { .. }, _) => illegal("that action is not possible now"),
        }
    }
}

impl R1835 {
    /// An action of the operating entity's turn (`operate`: the steps of FACTS §7.3).
    fn operate(&self, s: &mut State, action: &Action, ev: &mut Vec<Event>) -> Result<(), Refusal> {
        match action {
            Action::Pass => self.pass_step(s, ev),
            Action::LayTile { company, tile, hex, rotation } => {
                let e = self.operating_named(s, company)?;
                self.lay_tile(s, e, (tile, hex, *rotation), ev)
            }
            Action::PlaceToken { company, hex, city } => {
                let e = self.operating_named(s, company)?;
                self.place_token(s, e, hex, *city, ev)
            }
            Action::Run { company, routes, revenue } => {
                let e = self.operating_named(s, company)?;
                self.run_trains(s, e, routes, *revenue, ev)
            }
            Action::Dividend { company, kind } => {
                let e = self.operating_named(s, company)?;
                self.dividend(s, e, *kind, ev)
            }
            Action::BuyTrain { company, train, from, price } => {
                let e = self.operating_named(s, company)?;
                self.advance_to(s, Step::Trains, ev)?;
                self.buy_train(s, e, train, from, *price, ev)
            }
            // An emergency sale by the president for the compulsory train (FACTS §13, RULING K39).
            Action::Sell { company, count, percent } => {
                let e = self
                    .operating_entity(s)
                    .ok_or_else(|| Refusal::Illegal("no company is operating".into()))?;
                self.advance_to(s, Step::Trains, ev)?;
                self.emergency_sell(s, e, company, *count, *percent, ev)
            }
            Action::DiscardTrain { company, train } => {
                let e = self.operating_named(s, company)?;
                self.advance_to(s, Step::Trains, ev)?;
                self.discard_train(s, e, train, ev)
            }
            a => match hook_of(a) {
                Some(h) => Err(Refusal::NotYetSupported(h)),
                None => illegal("that is an action of a stock round; an operating round is under way"),
            },
        }
    }
}

/// The hook an operating-round action belongs to.
fn hook_of(a: &Action) -> Option<Hook> {
    Some(match a {
        Action::LayTile { .. } => Hook::LayTile,
        Action::PlaceToken { .. } => Hook::PlaceToken,
        Action::Run { .. } => Hook::RunTrains,
        Action::Dividend { .. } => Hook::Dividend,
        Action::BuyTrain { .. } => Hook::BuyTrain,
        Action::DiscardTrain { .. } => Hook::DiscardTrain,
        Action::FormPrussian { .. } => Hook::PrussianFormation,
        Action::ExchangeForPrussian { .. } => Hook::PrussianExchange,
        _ => return None,
    })
}
