//! Game options and set-up (Starting the Game ¶1-¶5).
//!
//! Options (`SetupSpec.options`, all optional):
//! ```json
//! {"turn_size": "player" | "round", "deck": "<deck TOML text>"}
//! ```
//! `turn_size` is the PBEM turn (one player-turn, the default, or a full round). `deck` supplies
//! a whole deck file inline, kept in the game state (RULING C12); the console reads a
//! `deck_file` option into `deck` (the engine itself reads no files). Unknown keys are refused.

use super::R1833;
use super::data::{CardId, Deck, Kind};
use super::state::{Phase, Player, State, TurnLog, TurnSize};
use crate::engine::{GameRng, Setup, SetupError, SetupSpec};
use std::sync::Arc;

/// Hand limit ¶1: every player starts with a limit of five.
pub const START_LIMIT: u8 = 5;
/// Hand limit ¶1: at most eight.
pub const MAX_LIMIT: u8 = 8;

/// The options a game was set up with.
#[derive(Debug, Clone, PartialEq)]
pub struct Options {
    pub turn_size: TurnSize,
    pub deck: Option<Deck>,
}

/// The options of the "New game" form (issue 37): `turn_size`. A GM's own deck (`deck`, a whole
/// TOML file) is given with `game create --options` only.
pub const OPTIONS: &[crate::engine::OptionSpec] = &[crate::engine::OptionSpec {
    name: "turn_size",
    help: "one PBEM turn is one player's turn (player) or a full round (round)",
    kind: crate::engine::OptionKind::Choice(&["player", "round"]),
}];

/// Reads `SetupSpec.options`.
pub fn options(v: &serde_json::Value) -> Result<Options, SetupError> {
    let mut o = Options { turn_size: TurnSize::Player, deck: None };
    let map = match v {
        serde_json::Value::Null => return Ok(o),
        serde_json::Value::Object(m) => m,
        _ => return Err(SetupError("1833 options are a JSON object".into())),
    };
    for (k, val) in map {
        match (k.as_str(), val.as_str()) {
            ("turn_size", Some("player")) => o.turn_size = TurnSize::Player,
            ("turn_size", Some("round")) => o.turn_size = TurnSize::Round,
            ("turn_size", _) => return Err(SetupError("turn_size is \"player\" or \"round\"".into())),
            ("deck", Some(text)) => {
                o.deck = Some(Deck::parse(text, "deck option").map_err(|e| SetupError(e.to_string()))?);
            }
            _ => {
                return Err(SetupError(format!(
                    "unknown 1833 option \"{k}\" (known: turn_size, deck, each a string; the console reads deck_file into deck)"
                )));
            }
        }
    }
    Ok(o)
}

/// Pops a card from the top of `first`, else of `second`.
fn deal_from(first: &mut Vec<CardId>, second: &mut Vec<CardId>) -> Option<CardId> {
    first.pop().or_else(|| second.pop())
}

impl R1833 {
    /// Set-up ¶2-¶5 after the last selection: leftovers shuffled into the bottom deck, the decks
    /// combined (top on top), the selection pool dealt, and play begins with seat 1.
    pub(crate) fn finish_setup(&self, s: &mut State, rng: &mut GameRng) {
        let mut bottom = std::mem::take(&mut s.bottom);
        bottom.append(&mut s.display);
        rng.shuffle(&mut bottom);
        let top = std::mem::take(&mut s.draw);
        bottom.extend(top);
        s.draw = bottom;
        s.phase = Phase::Play;
        s.active = 0;
        s.turn = TurnLog::default();
        self.form_pool(s, rng);
    }
}

impl Setup for R1833 {
    /// Set-up ¶1-¶2: decks built and the deal done; the snake selection is the first phase.
    fn setup(&self, spec: &SetupSpec, rng: &mut GameRng) -> Result<State, SetupError> {
        let opts = options(&spec.options)?;
        let custom = opts.deck.map(Arc::new);
        let deck: &Deck = custom.as_deref().unwrap_or(&self.deck);
        let n = usize::from(spec.seats);
        let ids = |pred: &dyn Fn(Kind) -> bool| -> Vec<CardId> {
            (0..deck.cards.len())
                .filter_map(|i| CardId::try_from(i).ok())
                .filter(|c| pred(deck.kind(*c)))
                .collect()
        };
        // ¶1: locomotives and Re-Shuffles out; the rest shuffled and split into two decks.
        let mut rest = ids(&|k| !matches!(k, Kind::Loco(_) | Kind::Reshuffle));
        rng.shuffle(&mut rest);
        let mut bottom = rest.split_off(rest.len() / 2);
        let mut top = rest;
        // ¶1: one Re-Shuffle out below 6 players, a second below 5, a third below 4.
        let mut reshuffles = ids(&|k| k == Kind::Reshuffle);
        let out = [6, 5, 4].iter().filter(|&&limit| n < limit).count();
        let removed: Vec<CardId> = reshuffles.split_off(reshuffles.len().saturating_sub(out));
        let mut l1 = ids(&|k| k == Kind::Loco(1));
        let mut l2 = ids(&|k| k == Kind::Loco(2));
        let l3 = ids(&|k| k == Kind::Loco(3));
        if l1.len() < n {
            return Err(SetupError(format!("the deck has {} Level 1 locomotives for {n} players", l1.len())));
        }
        let mut players: Vec<Player> = (0..n).map(|_| Player::fresh(START_LIMIT)).collect();
        // ¶1: one Level 1 each; the other Level 1 and half the Level 2 into the top deck; the
        // other Level 2, all Level 3 and the Re-Shuffles in play into the bottom deck.
        for p in &mut players {
            if let Some(c) = l1.pop() {
                p.hand.push(c);
            }
        }
        let half = l2.len() / 2;
        let l2_bottom = l2.split_off(half);
        top.extend(l1);
        top.extend(l2);
        rng.shuffle(&mut top);
        bottom.extend(l2_bottom);
        bottom.extend(l3);
        bottom.extend(reshuffles);
        rng.shuffle(&mut bottom);
        // ¶2: one card each, then three per player face up (from the top deck).
        for p in &mut players {
            let c = deal_from(&mut top, &mut bottom)
                .ok_or_else(|| SetupError("the deck is too small to deal".into()))?;
            p.hand.push(c);
        }
        let mut display = Vec::new();
        for _ in 0..3 * n {
            display.push(
                deal_from(&mut top, &mut bottom)
                    .ok_or_else(|| SetupError("the deck is too small to deal".into()))?,
            );
        }
        if top.len() + bottom.len() < 2 * n {
            return Err(SetupError("the deck is too small for a selection pool and a draw deck".into()));
        }
        // ¶2: snake order from the dealer's left (seat 1) to the dealer (the last seat) and back.
        let seats: Vec<u8> = (0..spec.seats).collect();
        let order: Vec<u8> = seats.iter().copied().chain(seats.iter().rev().copied()).collect();
        Ok(State {
            custom_deck: custom,
            turn_size: opts.turn_size,
            players,
            draw: top,
            bottom,
            display,
            pool: Vec::new(),
            discard: Vec::new(),
            removed,
            phase: Phase::Select { order, next: 0 },
            active: 0,
            clockwise: true,
            turn: TurnLog::default(),
            turns_taken: 0,
            ending: None,
        })
    }
}
