//! The table-driven suite of PBEM situations (issue 15): each file of `tests/data/1835/` is a
//! position (a set-up, a JSONL-style prefix of logged actions, a few edits a GM correction could
//! make), every seat's order text, and what must come of it — the first actions of the turn in
//! order, substrings of each seat's line notes, the NMR seats, and an HR 17 B / HR 12 referral.
//! The turn is played through `crate::adjudication::run_turn`; referrals, which the adjudicator
//! asks for only once it calls `Orders::refer`, are looked for by replaying the turn's decisions.

use super::tests::{engine, fresh_stock_round, operated};
use super::*;
use crate::adjudication::run_turn;
use crate::engine::prelude::*;
use crate::engine::{GameRng, OrderSheet, Seat, SetupSpec};
use crate::orders::lasting::{self, lasting_lines};
use crate::orders::{Intentions, parse_sheet, played_sheet};
use serde::Deserialize;
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Situation {
    name: String,
    /// The house rules the situation is about.
    rules: String,
    seats: u8,
    #[serde(default)]
    options: Value,
    /// Logged actions from the set-up: `{"seat": 1, "action": {...}}`.
    #[serde(default)]
    prefix: Vec<Logged>,
    #[serde(default)]
    edits: Vec<Edit>,
    /// Order text per seat ("1", "2", …); a seat left out sends nothing.
    orders: BTreeMap<u8, String>,
    /// Stated intentions per seat in force from earlier turns (HR 12): carried into the seat's
    /// sheet unless it restates them, as the service does; a seat with intentions and no orders
    /// plays them alone (the service's silent seat under the HR 1835 policy).
    #[serde(default)]
    intentions: BTreeMap<u8, Vec<String>>,
    expect: Expect,
}

#[derive(Debug, Deserialize)]
struct Logged {
    seat: u8,
    action: Action,
}

/// Changes to the position after the prefix (what a GM correction could do).
#[derive(Debug, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
enum Edit {
    /// Every player's cash.
    Cash(i64),
    /// A fresh stock round `n` with seat `priority` first; every floated company has operated.
    StockRound { n: u32, priority: u8 },
    /// Moves all but `keep` of a company's IPO certificates (not the director's) to the pool.
    IpoLeft { company: String, keep: usize },
    /// Gives an entity (company or minor id) a train.
    Train { entity: String, train: String },
    /// Passes until this entity operates.
    PassTo(String),
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Expect {
    /// The turn's first actions: `[seat, action]`.
    #[serde(default)]
    actions: Vec<(u8, Action)>,
    #[serde(default)]
    notes: BTreeMap<u8, Vec<String>>,
    /// Substrings no note of the seat may contain (a line "too late", a wrong rung).
    #[serde(default)]
    absent: BTreeMap<u8, Vec<String>>,
    #[serde(default)]
    nmr: Vec<u8>,
    #[serde(default)]
    referral: Option<ExpectReferral>,
    /// The turn makes no referral at all.
    #[serde(default)]
    no_referral: bool,
    /// The lines of each seat's sheet its echo marks "not understood" (HR 16); none elsewhere.
    #[serde(default)]
    not_understood: BTreeMap<u8, Vec<usize>>,
    /// How many rounds the turn played (HR 14): the rounds begun from its start to its end.
    #[serde(default)]
    rounds: Option<u32>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct ExpectReferral {
    seat: u8,
    prompt: String,
    /// The hex of the first (best) candidate.
    first_hex: String,
    /// The first candidate itself, when the situation is about which tile it is.
    #[serde(default)]
    first: Option<Action>,
}

fn position(g: &R1835, sit: &Situation) -> State {
    let spec = SetupSpec { seats: sit.seats, options: sit.options.clone() };
    let mut s = g.setup(&spec, &mut GameRng::for_setup(0)).expect("setup");
    for (k, l) in sit.prefix.iter().enumerate() {
        let d = g.next_decision(&s).expect("a decision");
        assert_eq!(d.seat, Seat(l.seat), "{}: prefix action {k} is not seat {}'s", sit.name, l.seat);
        g.apply(&mut s, &l.action, &mut GameRng::for_action(0, k as u64)).expect("prefix action");
    }
    for e in &sit.edits {
        match e {
            Edit::Cash(c) => s.players.iter_mut().for_each(|p| p.cash = *c),
            Edit::StockRound { n, priority } => {
                fresh_stock_round(g, &mut s, *n, *priority);
                operated(&mut s);
            }
            Edit::IpoLeft { company, keep } => {
                let co = g.data().major_index(company).expect("company");
                let mut left = *keep;
                for c in s.majors[co].certs.iter_mut().filter(|c| c.at == state::Loc::Ipo && !c.director) {
                    if left > 0 {
                        left -= 1;
                    } else {
                        c.at = state::Loc::Pool;
                    }
                }
            }
            Edit::Train { entity, train } => match g.entity_by_id(entity).expect("entity") {
                state::Entity::Minor(m) => s.minors[usize::from(m)].trains.push(train.clone()),
                state::Entity::Major(c) => s.majors[usize::from(c)].trains.push(train.clone()),
            },
            Edit::PassTo(id) => {
                for _ in 0..300 {
                    if g.operating_entity(&s).map(|e| g.entity_id(&s, e)).as_deref() == Some(id.as_str()) {
                        break;
                    }
                    g.apply(&mut s, &Action::Pass, &mut GameRng::for_action(0, 0)).expect("pass");
                }
            }
        }
    }
    s
}

fn play(g: &R1835, sit: &Situation) {
    let s = position(g, sit);
    let seats: BTreeSet<u8> = sit.orders.keys().chain(sit.intentions.keys()).copied().collect();
    let sheets: BTreeMap<Seat, OrderSheet<Order>> = seats
        .into_iter()
        .map(|seat| {
            let text = sit.orders.get(&seat).map_or("", String::as_str);
            let (_, echo) = parse_sheet(g, text, Some((&s, Seat(seat))));
            let unread: Vec<usize> =
                echo.lines.iter().filter(|l| l.error.is_some()).map(|l| l.line).collect();
            let want = sit.expect.not_understood.get(&seat).cloned().unwrap_or_default();
            assert_eq!(unread, want, "{}: seat {seat}'s lines not understood: {:?}", sit.name, echo.lines);
            let in_force: Intentions = sit
                .intentions
                .get(&seat)
                .into_iter()
                .flatten()
                .flat_map(|l| lasting_lines(g, l))
                .filter_map(|l| Some((l.key, l.line?)))
                .collect();
            let carried = lasting::carried(&in_force, &lasting_lines(g, text));
            (Seat(seat), played_sheet(g, text, &carried))
        })
        .collect();
    let r = run_turn(g, &s, 0, 0, sheets.clone()).unwrap_or_else(|e| panic!("{}: {e}", sit.name));
    let played: Vec<(u8, Action)> = r.actions.iter().map(|(seat, a, _)| (seat.0, a.clone())).collect();
    assert!(
        played.len() >= sit.expect.actions.len()
            && played[..sit.expect.actions.len()] == sit.expect.actions[..],
        "{} ({}): the turn began\n{:#?}",
        sit.name,
        sit.rules,
        &played[..played.len().min(sit.expect.actions.len() + 4)]
    );
    for (seat, wants) in &sit.expect.notes {
        let notes: Vec<&str> = r
            .notes
            .get(&Seat(*seat))
            .map(|v| v.iter().map(|n| n.note.as_str()).collect())
            .unwrap_or_default();
        for w in wants {
            assert!(
                notes.iter().any(|n| n.contains(w.as_str())),
                "{}: seat {seat} has no note with '{w}': {notes:#?}",
                sit.name
            );
        }
    }
    for (seat, unwanted) in &sit.expect.absent {
        for n in r.notes.get(&Seat(*seat)).into_iter().flatten() {
            for w in unwanted {
                assert!(
                    !n.note.contains(w.as_str()),
                    "{}: seat {seat}'s note has '{w}': {}",
                    sit.name,
                    n.note
                );
            }
        }
    }
    if let Some(rounds) = sit.expect.rounds {
        assert_eq!(g.rounds_since(&s, &r.state), rounds, "{}: rounds played", sit.name);
    }
    let nmr: Vec<u8> = r.nmr.iter().map(|s| s.0).collect();
    assert_eq!(nmr, sit.expect.nmr, "{}: NMR seats", sit.name);
    if sit.expect.no_referral {
        let got = first_referral(g, &s, sheets.clone(), &r.actions);
        assert!(got.is_none(), "{}: a referral: {:?}", sit.name, got.map(|(_, r)| r.prompt));
    }
    if let Some(want) = &sit.expect.referral {
        let got =
            first_referral(g, &s, sheets, &r.actions).unwrap_or_else(|| panic!("{}: no referral", sit.name));
        assert_eq!(got.0, Seat(want.seat), "{}", sit.name);
        assert!(got.1.prompt.contains(&want.prompt), "{}: {}", sit.name, got.1.prompt);
        let first = match got.1.candidates.first() {
            Some(Action::LayTile { hex, .. } | Action::PlaceToken { hex, .. }) => hex.clone(),
            other => format!("{other:?}"),
        };
        assert_eq!(first, want.first_hex, "{}: the best candidate", sit.name);
        if let Some(action) = &want.first {
            assert_eq!(got.1.candidates.first(), Some(action), "{}: the best candidate", sit.name);
        }
    }
}

/// Replays the turn's decisions and returns the first referral the engine makes.
fn first_referral(
    g: &R1835,
    start: &State,
    mut sheets: BTreeMap<Seat, OrderSheet<Order>>,
    actions: &[(Seat, Action, bool)],
) -> Option<(Seat, crate::engine::Referral<Action>)> {
    let mut s = start.clone();
    for (seat, action, _) in actions {
        let d = g.next_decision(&s)?;
        let sheet = sheets.entry(*seat).or_insert_with(|| OrderSheet::new(Vec::new()));
        if g.answer(&s, &d, sheet).action.is_none()
            && let Some(r) = g.refer(&s, &d, sheet)
        {
            return Some((*seat, r));
        }
        g.apply(&mut s, action, &mut GameRng::for_action(0, 0)).ok()?;
    }
    None
}

#[test]
fn every_pbem_situation_of_tests_data_1835_plays_as_expected() {
    let g = engine();
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/1835");
    let mut files: Vec<_> =
        std::fs::read_dir(&dir).expect("tests/data/1835").filter_map(Result::ok).map(|e| e.path()).collect();
    files.sort();
    let mut played = 0;
    for f in files.iter().filter(|f| f.extension().is_some_and(|x| x == "json")) {
        let text = std::fs::read_to_string(f).expect("readable");
        let sit: Situation = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", f.display()));
        play(&g, &sit);
        played += 1;
    }
    assert!(played >= 12, "only {played} situations");
}
