//! 1835 (Michael Meier-Bachl with Francis Tresham; Hans im Glück 1990): the engine.
//!
//! Components as data (`data/`, from the TOML files in `rules/1835/`), set-up for 3-7 players,
//! the start packet with its variants, stock rounds, private income, floating and capital,
//! nationalisation, the end of the game by the bank breaking or a bankruptcy; operating rounds:
//! a company's turn (`operate`: track, token, run, dividend, trains) on the board (`board`),
//! trains and phases (`trains`), the Prussian's formation and exchanges (`prussian`).
//!
//! Files: `options` (option sets), `state`, `actions`, `setup` (`Setup`), `holdings`
//! (certificates, limits, money, presidency, floating), `packet` (start packet and lap orders),
//! `release` (when IPOs open), `stock` (buy, sell, nationalise), `rounds` (turns and rounds),
//! `apply` (`Apply`), `legal` (`Rules`: decisions, legal actions, defaults), `orders` (`Orders`:
//! the order language), `view` (`View`, `Scoring`), `draw` (`Draw`), `ledger` (replaying a JSONL
//! action log into a cash ledger), `operate` (a company's turn), `trains`, `prussian`; each role
//! file implements its part of the contract (`crate::engine::contract`), and this file the
//! engine's `Game` facts and the shape of its PBEM turns. Rulings: `docs/RULINGS.md`, "1835"
//! (K…); facts: FACTS.md sections cited as `FACTS §n`; house rules as `HR n`.

mod actions;
mod apply;
pub mod board;
mod choices;
pub mod data;
mod draw;
mod dump;
mod holdings;
pub mod ledger;
mod legal;
mod operate;
pub mod options;
pub mod orders;
mod packet;
mod prussian;
mod release;
mod rounds;
mod setup;
pub mod state;
mod stock;
// `bank_left` and `trains_accounted` count the trains for the trains module's own tests.
#[allow(dead_code)]
mod trains;
mod view;

#[cfg(test)]
mod directed;
#[cfg(test)]
mod proptests;
#[cfg(test)]
mod tests;
#[cfg(test)]
mod tests_orders;
#[cfg(test)]
mod tests_orders_or;
#[cfg(test)]
mod tests_packet;
#[cfg(test)]
mod tests_pbem;
#[cfg(test)]
mod tests_rails_options;
#[cfg(test)]
mod tests_rails_replays;
#[cfg(test)]
mod tests_rails_story;
#[cfg(test)]
mod tests_read;
#[cfg(test)]
mod tests_rounds;
#[cfg(test)]
mod tests_stock;
#[cfg(test)]
mod tests_trades;
#[cfg(test)]
mod tests_turns;
#[cfg(test)]
mod tests_whole_game;

pub use actions::{Action, DividendKind, Refusal, Source};
pub use data::{Data, DataError};
pub use orders::Order;
pub use state::State;

use crate::engine::{Game, LedgerRefused, Seat, Shared};
use std::ops::RangeInclusive;

/// The 1835 engine, built from its data files.
#[derive(Debug, Clone, PartialEq)]
pub struct R1835 {
    data: Data,
    /// The map as printed and its key, drawn once (`draw`, RULING O28).
    printed: std::sync::OnceLock<(String, crate::draw::DrawingKey)>,
    /// The market's grid as printed and its key, drawn once (`draw`, RULINGS O28, O34).
    printed_market: std::sync::OnceLock<(String, crate::draw::DrawingKey)>,
}

impl R1835 {
    /// The engine with the standard data files of `rules/1835/`.
    pub fn standard() -> Result<R1835, DataError> {
        Ok(R1835::with_data(Data::standard()?))
    }

    /// The engine with the given (checked) data.
    pub fn with_data(data: Data) -> R1835 {
        R1835 { data, printed: std::sync::OnceLock::new(), printed_market: std::sync::OnceLock::new() }
    }

    /// The loaded component data.
    pub fn data(&self) -> &Data {
        &self.data
    }
}

/// The standard engine, loaded once (shared by the registry and the console).
pub fn shared() -> Result<&'static R1835, DataError> {
    static ENGINE: Shared<R1835, DataError> = Shared::new();
    ENGINE.get(R1835::standard)
}

impl Game for R1835 {
    fn slug(&self) -> &'static str {
        "1835"
    }
    fn title(&self) -> &'static str {
        "1835"
    }
    /// 2 since issue 33: preprinted hex costs (K90), HR 6's step order (K64), HR 17 B's evident
    /// plan (K31, K59, K71) and HR 12's lasting intentions (S24) adjudicate the same sheets
    /// differently (RULING S15).
    /// 3 since K94: in the `rails` preset a sale that passes a presidency moves the certificates
    /// as Rails does, so the same sale leaves other certificates with the seller and the pool.
    fn rules_version(&self) -> u32 {
        3
    }
    fn seat_counts(&self) -> RangeInclusive<u8> {
        3..=7
    }
    fn blurb(&self) -> &'static str {
        "1835: the German 18xx — private companies, minors, the Prussian, stock and operating rounds."
    }
    fn option_specs(&self) -> &'static [crate::engine::OptionSpec] {
        options::SPECS
    }
    /// Every certificate, all cash, the board and the trains are on the table (RULING P2).
    fn open_information(&self) -> bool {
        true
    }
    // The order box's example and the guide it links (issue 16).
    fn order_example(&self) -> &'static str {
        "BUY 1 BY IPO\nSELL 1 SX\nBY: LAY 201 O15 ROTATION 2 ELSE LAY TOWARD E19"
    }
    // Issue 36: while the start packet is on sale, its items are bought by name.
    fn order_example_at(&self, s: &State) -> &'static str {
        if matches!(s.round, state::Round::Stock { .. }) && s.packet_open() {
            "BUY M1 ELSE BUY NF\nBUY LD ELSE PASS"
        } else {
            self.order_example()
        }
    }
    fn order_guide(&self) -> Option<&'static str> {
        Some(include_str!("../../../docs/1835-orders.md"))
    }

    // A PBEM turn of one round (RULING K18): every player sends orders for a stock round; the
    // seats of the operating companies' owners for an operating round. A turn of several rounds
    // (HR 14, RULINGS K66) awaits every player's orders: who acts in its later rounds is not
    // known when it opens.
    fn acting_seats(&self, s: &State) -> Vec<Seat> {
        if s.options.rounds_per_turn > 1 && s.round != state::Round::Over {
            return Seat::all(s.players.len());
        }
        match s.round {
            state::Round::Stock { .. } => Seat::all(s.players.len()),
            state::Round::Operating { .. } => {
                let mut seats: Vec<Seat> = Vec::new();
                for e in &s.or.queue {
                    let owner = match *e {
                        state::Entity::Minor(m) => s.minors.get(usize::from(m)).and_then(|x| x.owner),
                        state::Entity::Major(c) => self.president(s, usize::from(c)),
                    };
                    if let Some(seat) = owner.map(|p| Seat::from_index(usize::from(p)))
                        && !seats.contains(&seat)
                    {
                        seats.push(seat);
                    }
                }
                seats
            }
            state::Round::Over => Vec::new(),
        }
    }

    // HR 14, RULING K65: a turn covers the game's `rounds_per_turn` rounds; the adjudicator may
    // end it earlier (a one-round request, the GM at a checkpoint).
    fn turn_complete(&self, start: &State, now: &State) -> bool {
        self.rounds_since(start, now) >= u32::from(start.options.rounds_per_turn.max(1))
            || now.round == state::Round::Over
    }

    // RULING K67: a round ends when the next begins (`round_seq` counts round starts): a stock
    // round, and each operating round of a set, is one round.
    fn rounds_since(&self, start: &State, now: &State) -> u32 {
        now.round_seq.saturating_sub(start.round_seq)
    }

    // Issue 15: a turn's report lists what happened round by round (RULINGS K73).
    fn round_title(&self, s: &State) -> Option<String> {
        (s.round != state::Round::Over).then(|| format!("— {} —", s.round.name()))
    }

    fn ledger(
        &self,
        players: &[String],
        options: &serde_json::Value,
        seed: u64,
        log: &str,
    ) -> Option<Result<(String, State), LedgerRefused>> {
        Some(
            ledger::replay(self, players, options, seed, log)
                .map(|r| (r.csv(), r.state))
                .map_err(|r| LedgerRefused { csv: r.csv(), error: r.error }),
        )
    }
}
