//! Setting up a game of Railroaded: the seats and options checked, the decks shuffled together and
//! dealt, the four Stations turned up (the engine's `Setup` role).

use super::Railroaded;
use super::cards::{Card, Dir, Face, Suit};
use super::state::{Phase, SeatState, State};
use crate::engine::{GameRng, Seat, Setup, SetupError, SetupSpec};

impl Setup for Railroaded {
    // Setting Up: shuffle the decks together, deal nine each, the rest is the Terminal; then
    // four Stations from the top of the Terminal at North, East, South, West.
    fn setup(&self, spec: &SetupSpec, rng: &mut GameRng) -> Result<State, SetupError> {
        if spec.seats != self.rules.seats {
            return Err(SetupError(format!(
                "Railroaded is played by {} players, not {}",
                self.rules.seats, spec.seats
            )));
        }
        let no_options = spec.options.is_null() || spec.options.as_object().is_some_and(|o| o.is_empty());
        if !no_options {
            return Err(SetupError("Railroaded has no options".to_string()));
        }
        let mut deck: Vec<Card> = Vec::with_capacity(self.rules.total_cards());
        for copy in 1..=self.rules.decks {
            for suit in Suit::ALL {
                deck.extend((1..=13).filter_map(|r| Face::new(r, suit)).map(|face| Card { face, copy }));
            }
        }
        rng.shuffle(&mut deck);
        let mut seats = vec![SeatState { suit: None, hand: Vec::new() }; self.seat_count()];
        for _ in 0..self.rules.hand_size {
            for seat in seats.iter_mut() {
                seat.hand.extend(deck.pop());
            }
        }
        for seat in seats.iter_mut() {
            seat.hand.sort();
        }
        let stations = Dir::ALL.map(|_| deck.pop());
        Ok(State {
            phase: Phase::Claim,
            to_move: Seat(1),
            leader: None,
            turns_done: 0,
            seats,
            terminal: deck,
            stations,
            chains: [None, None, None, None],
        })
    }
}
