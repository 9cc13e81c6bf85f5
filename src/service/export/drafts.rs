//! Drafts in an import document (RULING O19): a turn's draft — the public and private event
//! texts its reports tell and the notes on each order line — is played again from what made it,
//! as the close made it (`service::turn::close`): the turn's start state, the game's seed, each
//! seat's last order version, the standing orders in force when the audit log says the turn was
//! adjudicated, the NMR policy, the referrals setting of that moment and the GM's answers. The
//! engines are deterministic, so the replay gives the draft back; a changed event, a link added
//! to a note, or orders that do not play the log's actions are refused, naming the turn and what
//! differs. An import that re-renders reports (`--rerender-reports`, RULING O20) takes this
//! server's words instead: the replay must still play the same actions to the same state with
//! the same NMRs, defaults and standings, and its events and notes replace the document's, for a
//! drafted turn (what the GM reviews) as for a published one (what its reports are made from).

use super::history::{Entry, History};
use super::{GameDocument, ImportRefused, refuse_row, table, typed};
use crate::domain::{Fallback, NmrPolicy};
use crate::engine::{Event, LineNote, Seat};
use crate::orders::Intentions;
use crate::registry::{Adjudication, DynGame, GmTurn, TurnOutcome};
use crate::service::turn::{SheetsAtClose, fold_intentions, settle_standing, sheets_at_close};
use crate::store::export::Table;
use serde::Deserialize;
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};

#[derive(Deserialize)]
struct Settings {
    nmr_policy: NmrPolicy,
    gm_referrals: Option<bool>,
}

#[derive(Deserialize)]
struct DraftTurn {
    number: i32,
    status: String,
    acting_seats: Vec<Seat>,
    start_state: Value,
    first_seq: i64,
    draft: Option<TurnOutcome>,
    #[serde(default)]
    gm_answers: Vec<Value>,
}

#[derive(Deserialize)]
struct Version {
    turn: i32,
    seat: Seat,
    version: i32,
    body: String,
}

/// A standing orders row (the document holds them in the order they were set).
#[derive(Deserialize)]
pub(super) struct Standing {
    pub seat: Seat,
    pub body: String,
}

/// Whose words a draft keeps.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Words {
    /// The document's, which must be the replay's.
    Checked,
    /// This server's: the replay's events and notes replace the document's.
    Ours,
}

/// The drafts played again: per turn number, the replay's outcome (to store, with [`Words::Ours`]).
pub(super) type Replayed = BTreeMap<i32, TurnOutcome>;

/// Checks the draft of every drafted or published turn whose adjudication the audit log tells
/// (a game older than its audit log keeps the check of its drafts against the log, RULING O16).
pub(super) fn check(
    engine: &dyn DynGame,
    doc: &GameDocument,
    history: &History,
    words: Words,
) -> Result<Replayed, ImportRefused> {
    let mut replayed = Replayed::new();
    let Some(game) = table(doc, Table::Games).first() else { return Ok(replayed) };
    let settings: Settings = typed("game", game)?;
    let seed = doc.game.seed;
    let mut latest: BTreeMap<(i32, Seat), (i32, String)> = BTreeMap::new();
    for row in table(doc, Table::OrderVersions) {
        let v: Version = typed("order version", row)?;
        let slot = latest.entry((v.turn, v.seat)).or_insert((v.version, v.body.clone()));
        if v.version >= slot.0 {
            *slot = (v.version, v.body);
        }
    }
    let standing: Vec<Standing> = table(doc, Table::StandingOrders)
        .iter()
        .map(|r| typed("standing orders", r))
        .collect::<Result<_, _>>()?;
    for (i, row) in table(doc, Table::Turns).iter().enumerate() {
        let t: DraftTurn = typed("turn", row)?;
        let (Some(draft), true) = (&t.draft, matches!(t.status.as_str(), "published" | "draft")) else {
            continue;
        };
        // RULING O19: without the chain's word on what was in force, the log check (O16) stands alone.
        let Some(at) = history.adjudicated(t.number) else { continue };
        let what = format!("turn {}", t.number);
        let orders: BTreeMap<Seat, String> = latest
            .range((t.number, Seat(0))..=(t.number, Seat(u8::MAX)))
            .map(|((_, seat), (_, body))| (*seat, body.clone()))
            .collect();
        let in_force = standing_at(history, &standing, at);
        // HR 12: the intentions stated on the sheets played before the turn (RULING S24).
        let before = latest.range(..(t.number, Seat(0))).map(|((_, seat), (_, body))| (*seat, body.as_str()));
        let intents = fold_intentions(engine, before);
        let current = settings.gm_referrals.unwrap_or(true);
        let referrals = match referrals_at(history, at, current) {
            Some(r) => vec![r],
            None => vec![true, false],
        };
        // Both settings are tried only when the chain leaves the one in force unknown; a turn
        // adjudicated before stated intentions were carried (RULING S24) is tried without them.
        let none = BTreeMap::new();
        let carry: &[&BTreeMap<Seat, Intentions>] =
            if intents.is_empty() { &[&none] } else { &[&intents, &none] };
        let mut verdict: Result<TurnOutcome, String> = Err(String::new());
        'tries: for r in referrals {
            for intents in carry {
                let inputs = Inputs {
                    policy: &settings.nmr_policy,
                    referrals: r,
                    orders: &orders,
                    standing: &in_force,
                    intents,
                };
                verdict = replay(engine, seed, &t, &inputs)
                    .and_then(|ours| differs(draft, &ours, words).map_or(Ok(ours), Err));
                if verdict.is_ok() {
                    break 'tries;
                }
            }
        }
        let ours = verdict.map_err(|why| refuse_row(Table::Turns, i + 1, what, why))?;
        replayed.insert(t.number, ours);
    }
    Ok(replayed)
}

/// What a turn was adjudicated from, besides the turn row.
struct Inputs<'a> {
    policy: &'a NmrPolicy,
    referrals: bool,
    orders: &'a BTreeMap<Seat, String>,
    standing: &'a BTreeMap<Seat, String>,
    /// The stated intentions in force per seat (HR 12).
    intents: &'a BTreeMap<Seat, Intentions>,
}

/// The standing orders in force at `at`: per seat, the row of its last "standing orders set"
/// entry before `at` (rows and entries go in the same order), unless that withdrew them.
fn standing_at(history: &History, rows: &[Standing], at: &Entry) -> BTreeMap<Seat, String> {
    let mut set: BTreeMap<u8, usize> = BTreeMap::new();
    for e in history.of("standing orders set").filter(|e| e.seq < at.seq) {
        if let Some(seat) = e.actor.strip_prefix("seat:").and_then(|s| s.parse::<u8>().ok()) {
            *set.entry(seat).or_default() += 1;
        }
    }
    set.into_iter()
        .filter_map(|(seat, n)| {
            let body = rows.iter().filter(|r| r.seat.0 == seat).nth(n - 1)?;
            (!body.body.trim().is_empty()).then(|| (Seat(seat), body.body.clone()))
        })
        .collect()
}

/// The referrals setting when `at` was recorded: the last change before it, else — with no
/// change at all — the game's; `None` when only later changes are known (both are tried).
fn referrals_at(history: &History, at: &Entry, current: bool) -> Option<bool> {
    let changes: Vec<&Entry> = history.of("referrals setting changed").collect();
    let ask = |e: &Entry| e.detail.get("ask").and_then(Value::as_bool);
    match changes.iter().rev().find(|e| e.seq < at.seq) {
        Some(e) => ask(e),
        None if changes.is_empty() => Some(current),
        None => None,
    }
}

/// The turn adjudicated again as the close does it (`service::turn::close::adjudicate_locked`).
fn replay(engine: &dyn DynGame, seed: u64, t: &DraftTurn, i: &Inputs<'_>) -> Result<TurnOutcome, String> {
    let standing = i.standing.iter().map(|(s, b)| (*s, b.clone()));
    let lasting = |text: &str| engine.lasting_lines(text);
    let SheetsAtClose { orders, carried, from_standing, intentions_only, missing } =
        sheets_at_close(i.policy, &t.acting_seats, i.orders.clone(), standing, i.intents, &lasting);
    let ask_for: BTreeSet<Seat> = match i.policy.fallback {
        Fallback::AskGm => missing.iter().map(|s| Seat(*s)).collect(),
        _ => BTreeSet::new(),
    };
    let gm = GmTurn { ask_for: &ask_for, referrals: i.referrals, answers: &t.gm_answers };
    let first_seq = u64::try_from(t.first_seq).unwrap_or_default();
    match engine.adjudicate_asking(&t.start_state, seed, first_seq, &orders, &carried, gm) {
        Ok(Adjudication::Done(mut outcome)) => {
            settle_standing(i.policy, &mut outcome, &from_standing, &intentions_only);
            Ok(outcome)
        }
        Ok(Adjudication::Ask(q)) => Err(format!(
            "its orders and the GM's answers do not play it to the end (it stops at: {})",
            quote(&q.prompt)
        )),
        Err(e) => Err(format!("its orders do not play again: {e}")),
    }
}

/// Where the stored draft differs from the replayed one, in words; `None` when it does not. With
/// [`Words::Ours`] its events, notes and their places are not compared: the replay's replace them.
fn differs(stored: &TurnOutcome, ours: &TurnOutcome, words: Words) -> Option<String> {
    if stored.actions != ours.actions || stored.state != ours.state {
        return Some("its orders on file do not play the actions the log has for it".into());
    }
    let results = (&stored.nmr, &stored.defaulted, stored.game_over, &stored.standings);
    if results != (&ours.nmr, &ours.defaulted, ours.game_over, &ours.standings) {
        return Some("its NMRs, defaults or standings are not the replay's".into());
    }
    if words == Words::Ours {
        return None;
    }
    if let Some(why) = events_differ(&stored.events, &ours.events) {
        return Some(why);
    }
    let seats: BTreeSet<&Seat> = stored.notes.keys().chain(ours.notes.keys()).collect();
    for seat in seats {
        let (a, b) = (stored.notes.get(seat), ours.notes.get(seat));
        if let Some(why) = notes_differ(*seat, a.map_or(&[], Vec::as_slice), b.map_or(&[], Vec::as_slice)) {
            return Some(why);
        }
    }
    // Outcomes stored before there were anchors have none (TurnOutcome::anchors).
    if !stored.anchors.is_empty() && stored.anchors != ours.anchors {
        return Some("its notes stand elsewhere among its events than the replay puts them".into());
    }
    None
}

fn events_differ(stored: &[Event], ours: &[Event]) -> Option<String> {
    for (n, (a, b)) in stored.iter().zip(ours).enumerate() {
        if a.public != b.public {
            return Some(format!(
                "its event {} reads {}, the replay {}",
                n + 1,
                quote(&a.public),
                quote(&b.public)
            ));
        }
        if a.secret != b.secret {
            let text = |e: &Event| {
                e.secret.as_ref().map_or(String::new(), |s| format!("seat {}: {}", s.seat.0, s.text))
            };
            return Some(format!(
                "its event {}'s private part reads {}, the replay {}",
                n + 1,
                quote(&text(a)),
                quote(&text(b))
            ));
        }
    }
    (stored.len() != ours.len()).then(|| format!("it has {} events, the replay {}", stored.len(), ours.len()))
}

fn notes_differ(seat: Seat, stored: &[LineNote], ours: &[LineNote]) -> Option<String> {
    for (n, (a, b)) in stored.iter().zip(ours).enumerate() {
        if a != b {
            return Some(format!(
                "its note {} for seat {} (line {}) reads {}, the replay {}",
                n + 1,
                seat.0,
                a.line,
                quote(&a.note),
                quote(&b.note)
            ));
        }
    }
    (stored.len() != ours.len())
        .then(|| format!("it has {} notes for seat {}, the replay {}", stored.len(), seat.0, ours.len()))
}

/// A text quoted for a refusal, cut short when long.
fn quote(text: &str) -> String {
    const MAX: usize = 160;
    match text.char_indices().nth(MAX) {
        Some((at, _)) => format!("{:?}…", &text[..at]),
        None => format!("{text:?}"),
    }
}
