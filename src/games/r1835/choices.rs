//! The order builder of 1835 (issue 36): what a seat can order now, as lines of the order
//! language (`orders`). The seat whose decision it is gets that decision's legal actions, each
//! written as the line that orders it and kept only when its own sheet of that one line carries
//! it out now (an offer for another director's train at 1 M and at its list price); tile lays are
//! capped per hex and in all, so the list stays readable. A seat whose
//! move comes later in the turn gets its own stock turn as if it began now, or, in an operating
//! round, the lines every company it directs can give at its turn. 1835 is a game of open
//! information: nothing here is hidden from the seat.

use super::R1835;
use super::actions::{Action, DividendKind};
use super::orders::{Asking, Cmd, Kind, Order, Plan, Seller, Timing};
use super::state::{Entity, Round, State, Turn};
use crate::engine::{Choices, Decision, Game, Rules, Seat, carries_out_alone};

/// At most this many tile lays are listed for a hex, and this many in all.
const LAYS_PER_HEX: usize = 2;
const LAYS_SHOWN: usize = 12;

impl R1835 {
    // RULING K98: the lines listed, capped and checked.
    /// What `seat` can order now (see [`crate::engine::Orders::choices`]).
    pub(crate) fn choices_of(&self, s: &State, seat: Seat) -> Vec<Choices> {
        let Some(d) = self.next_decision(s) else { return Vec::new() };
        if d.seat == seat {
            let lines = self.checked_lines(s, &d, self.legal_actions(s));
            return Choices::group(capitalised(&d.prompt), lines);
        }
        if !self.acting_seats(s).contains(&seat) {
            return Vec::new();
        }
        let Ok(p) = u8::try_from(seat.index()) else { return Vec::new() };
        match s.round {
            Round::Stock { n } if self.prussian_pending(s).is_none() => {
                let mut as_if = s.clone();
                as_if.sr.current = p;
                as_if.sr.turn = Turn::default();
                let Some(d) = self.next_decision(&as_if).filter(|d| d.seat == seat) else {
                    return Vec::new();
                };
                let lines = self.checked_lines(&as_if, &d, self.legal_actions(&as_if));
                Choices::group(format!("Stock round {n}, your turn when it comes (at today's prices)"), lines)
            }
            Round::Operating { .. } => self.later_company_lines(s, p),
            _ => Vec::new(),
        }
    }

    /// The lines of each company `p` directs that operates later in this round: the steps every
    /// company can order for its turn (the optimal run, its dividend).
    fn later_company_lines(&self, s: &State, p: u8) -> Vec<Choices> {
        let mut out = Vec::new();
        for e in s.or.queue.iter().skip(1) {
            if self.controller(s, *e) != Some(p) {
                continue;
            }
            let id = self.entity_id(s, *e);
            let mut cmds = vec![Cmd::Lay { tile: None, hex: None, rotation: None, toward: None }];
            cmds.push(Cmd::Run { routes: Vec::new() });
            match e {
                Entity::Minor(_) => cmds.push(Cmd::Dividend(DividendKind::Split)),
                Entity::Major(_) => {
                    cmds.push(Cmd::Dividend(DividendKind::Payout));
                    cmds.push(Cmd::Dividend(DividendKind::Withhold));
                }
            }
            let lines = cmds.into_iter().map(|c| line(Some(&id), c)).collect();
            out.extend(Choices::group(format!("{id}'s turn later in this operating round"), lines));
        }
        out
    }

    /// Each action written as its order line, kept when a sheet of that one line carries it out
    /// at `d` (so every line listed is legal now); lays capped per hex and in all.
    fn checked_lines(&self, s: &State, d: &Decision, actions: Vec<Action>) -> Vec<String> {
        let mut lines: Vec<String> = Vec::new();
        let mut lays: Vec<String> = Vec::new();
        for a in actions {
            if let Action::LayTile { hex, .. } = &a {
                if lays.len() >= LAYS_SHOWN || lays.iter().filter(|h| *h == hex).count() >= LAYS_PER_HEX {
                    continue;
                }
                lays.push(hex.clone());
            }
            let Some(text) = self.line_of(s, &a) else { continue };
            if lines.contains(&text) || !carries_out_alone(self, s, d, &text) {
                continue;
            }
            lines.push(text);
        }
        lines
    }

    /// The order line for one legal action, `None` for an action no line orders alone (the
    /// refusal of an offer: the seller's line names the lowest price it takes).
    fn line_of(&self, s: &State, a: &Action) -> Option<String> {
        let operating = || self.operating_entity(s).map(|e| self.entity_id(s, e));
        Some(match a.clone() {
            Action::BuyItem { item } => {
                line(None, Cmd::Buy { count: None, name: item, from: None, percent: None })
            }
            Action::BuyShare { company, from, percent } => line(
                None,
                Cmd::Buy { count: Some(1), name: company, from: Some(from), percent: Some(percent) },
            ),
            Action::Sell { company, count, percent } => line(
                None,
                Cmd::Sell {
                    count,
                    company,
                    percent: Some(percent),
                    timing: if s.sr.turn.bought { Timing::After } else { Timing::Alone },
                },
            ),
            Action::Nationalise { company, from_seat, percent } => {
                line(None, Cmd::Nationalise { company, from_seat, percent: Some(percent) })
            }
            Action::Pass if matches!(s.round, Round::Operating { .. }) => {
                line(operating().as_deref(), Cmd::Pass)
            }
            Action::Pass => line(None, Cmd::Pass),
            Action::LayTile { company, tile, hex, rotation } => line(
                Some(&company),
                Cmd::Lay { tile: Some(tile), hex: Some(hex), rotation: Some(rotation), toward: None },
            ),
            Action::PlaceToken { company, hex, city } => {
                line(Some(&company), Cmd::Token { hex: Some(hex), city: Some(city), toward: None })
            }
            Action::Run { company, .. } => line(Some(&company), Cmd::Run { routes: Vec::new() }),
            Action::Dividend { company, kind } => line(Some(&company), Cmd::Dividend(kind)),
            Action::BuyTrain { company, train, from, price } => {
                let (from, price) = match from.as_str() {
                    "bank" => (Seller::Bank, None),
                    "pool" => (Seller::Pool, None),
                    _ => (Seller::Company(from), Some(price)),
                };
                line(Some(&company), Cmd::BuyTrain { train, from: Some(from), price })
            }
            Action::DiscardTrain { company, train } => line(Some(&company), Cmd::Discard { train }),
            Action::AnswerTrainOffer { company, accept: true } => {
                let offer = s.or.turn.offer.as_ref()?;
                let buyer = operating()?;
                let price = Asking::Exactly(offer.price);
                line(Some(&company), Cmd::SellTrain { train: offer.train.clone(), to: buyer, price })
            }
            Action::FormPrussian { form } => line(None, Cmd::Form(form)),
            Action::ExchangeForPrussian { paper, accept } => line(None, Cmd::Exchange { paper, accept }),
            // RULING K98: an offer for another director's train, at the prices the legal actions
            // name (1 M and the train's list price); any other price is the buyer's to write.
            Action::OfferTrain { company, train, from, price } => line(
                Some(&company),
                Cmd::BuyTrain { train, from: Some(Seller::Company(from)), price: Some(price) },
            ),
            Action::AnswerTrainOffer { .. } => return None,
        })
    }
}

/// An order line in its canonical form, for a company (`BY: …`) or the player.
fn line(company: Option<&str>, cmd: Cmd) -> String {
    Order::new(Kind::Plan { company: company.map(str::to_string), plan: Plan::Cmd(cmd) }).to_string()
}

/// A decision's prompt as a heading.
fn capitalised(prompt: &str) -> String {
    let mut c = prompt.chars();
    c.next().map(|f| f.to_uppercase().chain(c).collect()).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::super::actions::Action;
    use super::super::shared;
    use super::super::state::Step;
    use super::super::tests::engine;
    use super::super::trains::tests::{by_at, give, major};
    use crate::engine::conformance::check_choices;
    use crate::engine::prelude::*;
    use crate::engine::{Seat, SetupSpec, answer_alone};

    #[test]
    fn the_start_packet_buyer_is_offered_each_item_it_can_buy_and_the_others_their_turn_to_come() {
        let g = shared().expect("the data loads");
        let s = crate::engine::log::setup(g, &SetupSpec { seats: 4, options: serde_json::Value::Null }, 7)
            .expect("set-up");
        let d = g.next_decision(&s).expect("a decision");
        let now = g.choices(&s, d.seat);
        assert_eq!(now.len(), 1, "{now:?}");
        assert!(now[0].lines.iter().any(|l| l.starts_with("BUY ")), "an item to buy: {:?}", now[0].lines);
        assert!(now[0].lines.iter().all(|l| l.starts_with("BUY ") || l == "PASS"), "{:?}", now[0].lines);
        for seat in Seat::all(4).into_iter().filter(|x| *x != d.seat) {
            let later = g.choices(&s, seat);
            assert!(
                later
                    .first()
                    .is_some_and(|c| c.decision.contains("your turn when it comes") && !c.lines.is_empty()),
                "{seat}: {later:?}"
            );
        }
        check_choices(g, &s, 4, 7, 0).expect("every line read and carried out now");
    }

    #[test]
    fn a_company_may_be_offered_another_directors_train_at_one_mark_and_at_its_list_price() {
        let g = engine();
        let (_, mut s) = by_at(&g, 500, "3", "2");
        give(&mut s, major(&g, "SX"), &["2"]);
        // BY passes its steps up to its trains step.
        while s.or.turn.step != Step::Trains {
            g.apply_action(&mut s, &Action::Pass).expect("BY passes a step");
        }
        let d = g.next_decision(&s).expect("BY's director decides");
        assert_eq!(d.seat, Seat(1));
        let lines: Vec<String> = g.choices(&s, Seat(1)).into_iter().flat_map(|c| c.lines).collect();
        for price in [1, 80] {
            let line = format!("BY: BUY TRAIN 2 FROM SX PRICE {price}");
            assert!(lines.contains(&line), "{line} in {lines:?}");
            let offer =
                Action::OfferTrain { company: "BY".into(), train: "2".into(), from: "SX".into(), price };
            let answer = answer_alone(&g, &s, &d, &line).expect("read");
            assert_eq!(answer.action, Some(offer), "{:?}", answer.notes);
        }
        let sellers: Vec<String> = g.choices(&s, Seat(2)).into_iter().flat_map(|c| c.lines).collect();
        assert!(!sellers.iter().any(|l| l.contains("BUY TRAIN")), "not the seller's to offer: {sellers:?}");
        check_choices(&g, &s, 4, 7, 0).expect("every line read and carried out now");
    }
}
