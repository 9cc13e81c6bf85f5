//! A directed driver (tests only) that plays a whole 1835 game from the start packet to the final
//! ranking and writes its JSONL action log, the format `ledger.rs` reads. It is how the
//! committed whole-game fixtures under `tests/fixtures/1835/` were made, and regenerating them
//! with the same [`Script`] must give the same bytes (`tests_whole_game.rs`).
//!
//! At every decision it takes one of the legal actions (`legal_actions`), chosen by a policy that
//! steers toward the events a fixture must contain, with a seeded choice among the candidates:
//!
//! - start packet: buy an item while one can be bought;
//! - stock rounds: nationalise when it is legal; otherwise buy a certificate (IPO first), so
//!   players run short of cash and directors need emergency money later;
//! - operating rounds: lay a tile, place a station, run the best routes, withhold four times in five
//!   and buy every train the bank or the pool offers, else take a train over from a company the
//!   same player runs at 1 M (RULING K36), which frees a place for the next purchase (so the
//!   phases come and trains rust before the bank breaks); the companies of one seat ([`Script::starved_seat`]) always pay out and buy
//!   only the compulsory train, so their president must pay for it; where the rules force
//!   something (discard, the compulsory train, emergency sales) do what a silent seat does
//!   (RULING K40);
//! - the Prussian: M2's owner forms it at the first 4 or not ([`Script::form_at_first_4`]);
//!   voluntary exchanges are declined, so the papers wait for the first 5.
//!
//! The driver checks nothing: the tests find the events in what the engine did.

use super::R1835;
use super::actions::{Action, DividendKind, Source};
use super::state::{Entity, Round, State, Step};
use crate::engine::prelude::*;
use crate::engine::{Decision, GameRng, Pick, SetupSpec};
use serde_json::{Value, json};

/// What to play: the table, the seeds and the steering.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Script {
    /// The players' names in seating order (the ledger's and the CLI's `--players`).
    pub players: Vec<String>,
    /// The game's options (the CLI's `--options`).
    pub options: Value,
    /// The game seed (the CLI's `--seed`).
    pub seed: u64,
    /// The seed of the driver's choices.
    pub choices: u64,
    /// M2's owner forms the Prussian when first asked (the first 4).
    pub form_at_first_4: bool,
    /// The share companies this seat (index) presides over are starved: they always pay out
    /// and buy a train only when they must, so their president has to find the money.
    pub starved_seat: u8,
    /// In stock rounds, buy shares of a company the buyer presides over one time in two (so
    /// holdings of 55 % and nationalisations come; FACTS §6).
    pub concentrate: bool,
    /// What the fixture's header says about the game.
    pub title: String,
}

/// A game played by the driver.
#[derive(Debug, Clone)]
pub(super) struct Played {
    /// The JSONL log, a `#` header first, one action a line.
    pub log: String,
    /// The game's state at the end.
    pub state: State,
}

/// Picks one of the legal actions that pass a filter, by the seeded choice.
pub(super) type AnyOf<'a> = dyn Fn(&mut Pick, &dyn Fn(&Action) -> bool) -> Option<Action> + 'a;

/// The most actions a game may take before the driver gives up.
const CAP: usize = 20_000;

/// Plays `script` to the end, or says where it stopped.
pub(super) fn play(g: &R1835, script: &Script) -> Result<Played, String> {
    let seats = u8::try_from(script.players.len()).map_err(|_| "too many players".to_string())?;
    let spec = SetupSpec { seats, options: script.options.clone() };
    let mut s = g.setup(&spec, &mut GameRng::for_setup(script.seed)).map_err(|e| e.0)?;
    let mut pick = Pick(script.choices);
    let mut log = header(script);
    let mut seq = 0u64;
    while let Some(d) = g.next_decision(&s) {
        if seq >= CAP as u64 {
            return Err(format!("not over after {CAP} actions: {}", s.round.name()));
        }
        let legal = g.legal_actions(&s);
        let Some(action) = choose(g, &s, &d, &legal, &mut pick, script) else {
            return Err(format!("nothing to do at \"{}\"", d.prompt));
        };
        g.apply(&mut s, &action, &mut GameRng::for_action(script.seed, seq))
            .map_err(|e| format!("{action:?} refused at \"{}\": {}", d.prompt, e.0))?;
        log.push_str(&json!({"seat": d.seat.0, "action": action}).to_string());
        log.push('\n');
        seq += 1;
    }
    Ok(Played { log, state: s })
}

/// The fixture's `#` lines: what it is and how it was made.
fn header(script: &Script) -> String {
    format!(
        "# {}\n# Players {}, options {}, seed {}: see the .json file beside this one.\n# Made by src/games/r1835/directed.rs (choices seed {}); regenerate, do not edit by hand.\n",
        script.title,
        script.players.join(", "),
        script.options,
        script.seed,
        script.choices
    )
}

/// One of `legal`, by the policy of the module header.
fn choose(
    g: &R1835,
    s: &State,
    d: &Decision,
    legal: &[Action],
    pick: &mut Pick,
    script: &Script,
) -> Option<Action> {
    let any = |pick: &mut Pick, f: &dyn Fn(&Action) -> bool| -> Option<Action> {
        let xs: Vec<&Action> = legal.iter().filter(|a| f(a)).collect();
        xs.get(pick.next(xs.len())).map(|a| (*a).clone())
    };
    let pass = legal.contains(&Action::Pass).then_some(Action::Pass);
    if legal.iter().any(|a| matches!(a, Action::FormPrussian { .. })) {
        return Some(Action::FormPrussian { form: script.form_at_first_4 });
    }
    if let Some(Action::ExchangeForPrussian { paper, .. }) = legal.first() {
        return Some(Action::ExchangeForPrussian { paper: paper.clone(), accept: false });
    }
    match s.round {
        Round::Stock { .. } if s.packet_open() => {
            any(pick, &|a| matches!(a, Action::BuyItem { .. })).or(pass)
        }
        Round::Stock { .. } => {
            let mine = |a: &Action| match a {
                Action::BuyShare { company, .. } => {
                    g.data().major_index(company).is_some_and(|co| g.president(s, co) == Some(d.seat.0 - 1))
                }
                _ => false,
            };
            let nationalise = legal.iter().any(|a| matches!(a, Action::Nationalise { .. }));
            let own =
                if script.concentrate && !nationalise && pick.next(2) == 0 { any(pick, &mine) } else { None };
            own.or_else(|| stock(pick, legal, &any)).or(pass).or_else(|| g.default_action(s))
        }
        Round::Operating { .. } => {
            let starved =
                d.seat.0 == script.starved_seat + 1 && matches!(s.or.queue.first(), Some(Entity::Major(_)));
            operating(g, s, legal, pick, &any, starved)
        }
        Round::Over => None,
    }
}

/// A stock-round turn: nationalise, else buy (IPO three times in four), else sell when forced.
fn stock(pick: &mut Pick, legal: &[Action], any: &AnyOf) -> Option<Action> {
    if let Some(n) = any(pick, &|a| matches!(a, Action::Nationalise { .. })) {
        return Some(n);
    }
    let ipo = pick.next(4) > 0;
    let from = if ipo { Source::Ipo } else { Source::Pool };
    any(pick, &|a| matches!(a, Action::BuyShare { from: f, .. } if *f == from))
        .or_else(|| any(pick, &|a| matches!(a, Action::BuyShare { .. })))
        .or_else(|| {
            (!legal.contains(&Action::Pass)).then(|| any(pick, &|a| matches!(a, Action::Sell { .. })))?
        })
}

/// An operating company's step, by the policy of the module header.
pub(super) fn operating(
    g: &R1835,
    s: &State,
    legal: &[Action],
    pick: &mut Pick,
    any: &AnyOf,
    starved: bool,
) -> Option<Action> {
    let pass = legal.contains(&Action::Pass).then_some(Action::Pass);
    let chosen = match s.or.turn.step {
        Step::Track => any(pick, &|a| matches!(a, Action::LayTile { .. })),
        Step::Token => any(pick, &|a| matches!(a, Action::PlaceToken { .. })),
        Step::Run => any(pick, &|a| matches!(a, Action::Run { .. })),
        Step::Dividend => {
            let kind =
                if !starved && pick.next(5) > 0 { DividendKind::Withhold } else { DividendKind::Payout };
            any(pick, &|a| matches!(a, Action::Dividend { kind: k, .. } if *k == kind))
                .or_else(|| any(pick, &|a| matches!(a, Action::Dividend { .. })))
        }
        Step::Trains => {
            let forced = pass.is_none()
                || legal.iter().any(|a| matches!(a, Action::DiscardTrain { .. } | Action::Sell { .. }));
            if forced {
                g.default_action(s)
            } else if starved {
                None
            } else {
                any(pick, &|a| matches!(a, Action::BuyTrain { from, .. } if from == "bank" || from == "pool"))
                    .or_else(|| any(pick, &|a| matches!(a, Action::BuyTrain { price: 1, .. })))
            }
        }
    };
    chosen.or(pass).or_else(|| g.default_action(s))
}
