//! Trains (issue 14): buying, discarding, phases and their events, the compulsory train.
use super::R1835;
use super::actions::{Action, Hook, Refusal};
use super::state::{Entity, State};
use crate::engine::Event;
impl R1835 {
    /// Buys a train for the operating entity in its trains step.
    pub(crate) fn buy_train(
        &self,
        _s: &mut State,
        _e: Entity,
        _train: &str,
        _from: &str,
        _price: i64,
        _ev: &mut Vec<Event>,
    ) -> Result<(), Refusal> {
        Err(Refusal::NotYetSupported(Hook::BuyTrain))
    }
    /// Discards a train of the operating entity to the pool.
    pub(crate) fn discard_train(
        &self,
        _s: &mut State,
        _e: Entity,
        _train: &str,
        _ev: &mut Vec<Event>,
    ) -> Result<(), Refusal> {
        Err(Refusal::NotYetSupported(Hook::DiscardTrain))
    }
    /// Whether the entity may end its turn as far as trains go (FACTS §7.6 compulsory train).
    pub(crate) fn check_trains_done(&self, s: &State, e: Entity) -> Result<(), Refusal> {
        match e {
            Entity::Major(c) if s.majors.get(usize::from(c)).is_some_and(|m| m.trains.is_empty()) => {
                Err(Refusal::NotYetSupported(Hook::CompulsoryTrain))
            }
            _ => Ok(()),
        }
    }
    /// The legal train actions of the entity in its trains step.
    pub(crate) fn legal_trains(&self, _s: &State, _e: Entity, _out: &mut Vec<Action>) {}
    /// What a seat that sent no orders does in the trains step (None: end the turn).
    pub(crate) fn default_trains(&self, _s: &State, _e: Entity) -> Option<Action> {
        None
    }
}
