//! Carrying out an action: the acting seat, the dispatch by round, and atomicity (the action
//! works on a copy that replaces the state only when everything succeeded).

use super::R1835;
use super::actions::{Action, Refusal, illegal};
use super::prussian::PrussianAt;
use super::state::{CompanyTurn, Entity, Round, State, Step};
use crate::engine::{Apply, Event, GameRng, Illegal};

impl R1835 {
    /// The seat (index) that must act now, if any.
    pub(crate) fn acting(&self, s: &State) -> Option<u8> {
        // A Prussian question comes before every other turn (FACTS §9; RULING K46).
        if s.round != Round::Over
            && let Some(p) = self.prussian_pending(s)
        {
            return Some(p);
        }
        match s.round {
            Round::Stock { .. } => Some(s.sr.current),
            // RULING K75: an offer for a train waits for the selling company's director.
            Round::Operating { .. } if s.or.turn.offer.is_some() => {
                s.or.turn.offer.as_ref().and_then(|o| self.controller(s, o.seller))
            }
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
        if self.prussian_pending(s).is_some() {
            self.prussian_answer(s, p, action, ev)?;
            self.after_prussian(s, ev);
            return Ok(());
        }
        if matches!(action, Action::FormPrussian { .. } | Action::ExchangeForPrussian { .. }) {
            return illegal(
                "no Prussian question is open now (FACTS §9: they are asked at the start of a round and after the first 4)",
            );
        }
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
                self.record_purchase(s, p, &self.data.packet[i].id);
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
            (Round::Stock { .. }, a) if is_operating_action(a) => {
                illegal("that is an action of an operating round; a stock round is under way")
            }
            (Round::Stock { .. }, _) => illegal("that action is not possible now"),
        }
    }
}

/// 1835 draws nothing at random once it is set up, so the contract's stream goes unused: the
/// action is [`R1835::apply_action`], which the engine's own look-ahead (orders, offers, the HR 17
/// ladder) also calls to try actions on copies without a stream.
impl Apply for R1835 {
    fn apply(&self, s: &mut State, action: &Action, _rng: &mut GameRng) -> Result<Vec<Event>, Illegal> {
        self.apply_action(s, action)
    }
}

impl R1835 {
    /// An action of the operating entity's turn (`operate`: the steps of FACTS §7.3).
    fn operate(&self, s: &mut State, action: &Action, ev: &mut Vec<Event>) -> Result<(), Refusal> {
        // RULING K75: an offer waiting for the seller's director is answered before anything else.
        if let Some(offer) = &s.or.turn.offer {
            let Action::AnswerTrainOffer { company, accept } = action else {
                return illegal(format!(
                    "{}'s director must first answer the offer for its {}-train",
                    self.entity_id(s, offer.seller),
                    offer.train
                ));
            };
            let bought = self.answer_train_offer(s, company, *accept, ev)?;
            if bought {
                self.after_train_bought(s, ev);
            }
            return Ok(());
        }
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
                self.buy_train(s, e, train, from, *price, ev)?;
                self.after_train_bought(s, ev);
                Ok(())
            }
            Action::OfferTrain { company, train, from, price } => {
                let e = self.operating_named(s, company)?;
                self.advance_to(s, Step::Trains, ev)?;
                self.offer_train(s, e, train, from, *price, ev)
            }
            Action::AnswerTrainOffer { .. } => illegal("no offer for a train is waiting for an answer"),
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
            _ => illegal("that is an action of a stock round; an operating round is under way"),
        }
    }
}

impl R1835 {
    /// HR 9: each purchase's consequences, the Prussian's moments included, come before the
    /// next purchase. (A purchase that bankrupted its president has ended the game: nothing
    /// follows.)
    fn after_train_bought(&self, s: &mut State, ev: &mut Vec<Event>) {
        if s.round != Round::Over {
            self.prussian_moments(s, PrussianAt::TrainBought, ev);
            self.after_prussian(s, ev);
        }
    }

    /// After a Prussian answer or moment in an operating round, once no question is open: a
    /// minor exchanged during its own turn ends it (FACTS §9); a head of the queue that has not
    /// begun its turn (papers exchanged at the start of the round removed the one before it)
    /// begins it; an emptied queue ends the round.
    fn after_prussian(&self, s: &mut State, ev: &mut Vec<Event>) {
        if !matches!(s.round, Round::Operating { .. }) || self.prussian_pending(s).is_some() {
            return;
        }
        match s.or.queue.first().copied() {
            Some(Entity::Minor(m)) if s.minors.get(usize::from(m)).is_some_and(|x| x.closed) => {
                self.end_company_turn(s, Entity::Minor(m), ev);
            }
            // Beginning a turn not yet begun is idempotent (a fresh turn, BA's home once, HR 8).
            Some(_) if s.or.turn == CompanyTurn::default() => self.begin_turn(s, ev),
            Some(_) => {}
            None => self.finish_operating_round(s, ev),
        }
    }
}

/// Whether an action belongs to an operating round (or to the Prussian's questions).
fn is_operating_action(a: &Action) -> bool {
    matches!(
        a,
        Action::LayTile { .. }
            | Action::PlaceToken { .. }
            | Action::Run { .. }
            | Action::Dividend { .. }
            | Action::BuyTrain { .. }
            | Action::OfferTrain { .. }
            | Action::AnswerTrainOffer { .. }
            | Action::DiscardTrain { .. }
            | Action::FormPrussian { .. }
            | Action::ExchangeForPrussian { .. }
    )
}
