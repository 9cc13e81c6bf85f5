//! Issue 34: a game of several PBEM turns through the adjudicator in which Special Events
//! interrupt other players' turns and standing orders answer them: a standing Offensive waits,
//! carried from turn to turn (HR 12), until its condition holds in the window before another
//! seat's activation phase; another seat adds its General; an offer made in another's window is
//! accepted when that turn's play is over. Played as the game: 3 players, seed 5.

use super::Confed;
use super::proptests::game;
use super::state::State;
use super::tests::st;
use crate::adjudication::{TurnResult, run_turn};
use crate::engine::prelude::*;
use crate::engine::{Seat, SetupSpec};
use crate::orders::lasting::{self, Intentions, lasting_lines};
use crate::orders::parse_sheet;
use std::collections::BTreeMap;

/// The table: the state, the next log sequence number, each seat's intentions in force.
struct Table {
    s: State,
    seq: u64,
    intents: BTreeMap<Seat, Intentions>,
}

impl Table {
    /// One PBEM turn: each acting seat's text, with its standing lines in force carried in.
    fn turn(&mut self, texts: &[(u8, &str)]) -> TurnResult<Confed> {
        let g = game();
        let mut sheets = BTreeMap::new();
        for seat in g.acting_seats(&self.s) {
            let own = texts.iter().find(|(x, _)| Seat(*x) == seat).map(|(_, t)| *t).unwrap_or("");
            let in_force = self.intents.entry(seat).or_default();
            let mut text = own.to_string();
            for line in lasting::carried(in_force, &lasting_lines(g, own)) {
                text.push('\n');
                text.push_str(&line);
            }
            lasting::apply(in_force, &lasting_lines(g, &text));
            sheets.insert(seat, parse_sheet(g, &text, None).0);
        }
        let r = run_turn(g, &self.s, 5, self.seq, sheets).expect("the turn adjudicates");
        self.seq += r.actions.len() as u64;
        self.s = r.state.clone();
        r
    }
}

fn said(r: &TurnResult<Confed>, words: &str) -> bool {
    r.events.iter().any(|e| format!("{e:?}").contains(words))
}

#[test]
fn standing_orders_answer_special_events_and_offers_in_other_players_turns() {
    let spec = SetupSpec { seats: 3, options: serde_json::Value::Null };
    let s = crate::engine::log::setup(game(), &spec, 5).expect("setup");
    let mut t = Table { s, seq: 0, intents: BTreeMap::new() };
    t.turn(&[(1, "RRC 12"), (2, "RRC 6"), (3, "RRC 18")]);
    // The hands, arranged: the seat first asked in the next window holds the Offensive, the one
    // after it General Jackson.
    let active = t.s.active();
    let order = t.s.seats_from(active);
    let (attacker, backer, payee) = (order[1], order[2], order[0]);
    for p in t.s.players.iter_mut() {
        p.specials.clear();
    }
    t.s.players[attacker.index()].specials = vec![2];
    t.s.players[backer.index()].specials = vec![3];
    let standing = "PLAY OFFENSIVE ON Nashville WHEN Nashville IS OCCUPIED";
    let backing = "PLAY JACKSON FOR OFFENSIVE";
    // Turn 1: Nashville is open, the standing order waits; an offer made in another's window
    // is accepted when that turn's play is over.
    let (a, b, p) = (attacker.0, backer.0, payee.0);
    let pay = format!("PAY 100 TO {b}");
    let accept = format!("ACCEPT 100 FROM {a}");
    let money = |t: &Table, x: Seat| t.s.player(x).map(|p| p.money).unwrap_or(0);
    let (ma, mb) = (money(&t, attacker), money(&t, backer));
    let r = t.turn(&[(a, &format!("{standing}\n{pay}")), (b, &format!("{backing}\n{accept}")), (p, "")]);
    assert!(!said(&r, "Confederate Offensive"), "Nashville is open: {:?}", r.events);
    assert_eq!(t.s.players[attacker.index()].specials, vec![2], "the counter is still held");
    assert_eq!((money(&t, attacker), money(&t, backer)), (ma - 100, mb + 100), "{:?}", r.events);
    // Turn 2: the Union has taken Nashville; nobody writes the standing lines again.
    t.s.occupied.insert(st("Nashville"));
    let r = t.turn(&[]);
    assert!(said(&r, &format!("{attacker} plays Confederate Offensive on Nashville")), "{:?}", r.events);
    assert!(said(&r, &format!("with {backer}'s General Jackson")), "{:?}", r.events);
    assert!(
        t.s.players[attacker.index()].specials.is_empty() && t.s.players[backer.index()].specials.is_empty()
    );
    let executed = |x: Seat| r.notes.get(&x).is_some_and(|n| n.iter().any(|l| l.executed));
    assert!(executed(attacker) && executed(backer), "{:?}", r.notes);
}
