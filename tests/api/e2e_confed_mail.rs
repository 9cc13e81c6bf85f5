//! Issue 34's end-to-end test: a four-player Confederate Rails game played by mail through the
//! server for several Player Turns, in which events interrupt other players' turns and standing
//! orders answer them. Every seat's orders arrive as a mail to its signed reply address (ingest,
//! route, commands, echo); each turn closes at its deadline on the scheduler's pass, is
//! adjudicated and published at once (review `auto`); every player's report of every turn goes
//! out over real SMTP (the in-process test server, `support/smtp.rs`) and is read as it arrives.
//!
//! The orders are the players' own lines, written from the last published position and each
//! seat's own hand: in the first Player Turn every seat mails a standing `PLAY <general> WHEN ANY
//! FALLS` for each General it holds (RT 6.0, RULING F22: lasting from turn to turn, HR 12), and
//! never repeats it; the active seat activates two trains, gives up their loads where they stand
//! and undertakes new ones (`ABANDON t AT …`, `AGAIN t`), so chits are drawn: events and
//! war-matériel roll on the War Progress Table, whose results open the Generals' window to every
//! seat. The game is played until a seat's standing line has cancelled (or tried to cancel) the
//! Union's advance in another player's Player Turn.

use crate::db::test_db;
use crate::e2e_1835_mail::{address, close_at_deadline, mail_orders};
use crate::helpers::{create_game_on, spawn_app};
use mail_parser::MessageParser;
use serde_json::Value;
use stationmaster::engine::Seat;
use stationmaster::schedule::GameClock;
use stationmaster::service::Review;

/// The last Player Turn by which a standing General must have answered (about four Rounds).
const LAST_TURN: i32 = 18;

/// The Generals that cancel a War Progress result (RT 6.1, 6.3, 6.5), by counter number.
const GENERALS: [(u64, &str); 3] = [(1, "LEE"), (3, "JACKSON"), (5, "MCCLELLAN")];

/// The seat whose Player Turn a published state is at.
fn active(state: &Value) -> u8 {
    let turn = state["turn"].as_u64().unwrap_or(0) as usize;
    state["order"][turn].as_u64().expect("a seat in the order") as u8
}

/// Seat `seat`'s player in a published state.
fn player(state: &Value, seat: u8) -> &Value {
    &state["players"][usize::from(seat) - 1]
}

/// A station's name as the map spells it.
fn station(i: u64) -> String {
    let d = stationmaster::games::confed::shared().expect("the engine").data();
    d.map.stations[i as usize].name.clone()
}

/// The active seat's lines: up to two of its trains on the map, as its money allows, undertake a
/// new load: a loaded one gives its load up where it stands and undertakes again (RT 5.1.7, RULING
/// F13; `AGAIN`: $100 + $300), an empty one undertakes as its activation begins (RULING F32:
/// $100). Either way a chit is drawn.
fn turn_lines(state: &Value, seat: u8) -> String {
    let p = player(state, seat);
    let mut money = p["money"].as_u64().unwrap_or(0);
    let mut lines = Vec::new();
    let mut ids = Vec::new();
    for t in p["trains"].as_array().cloned().unwrap_or_default() {
        let (Some(at), Some(id)) = (t["at"]["Station"].as_u64(), t["id"].as_u64()) else { continue };
        let loaded = !t["load"].is_null();
        let cost = if loaded { 400 } else { 100 };
        if ids.len() == 2 || money < cost {
            continue;
        }
        money -= cost;
        ids.push(id.to_string());
        if loaded {
            lines.push(format!("ABANDON {id} AT {}", station(at)));
            lines.push(format!("AGAIN {id}"));
        }
    }
    if ids.is_empty() {
        return "PAY FEES".into();
    }
    lines.insert(0, format!("ACTIVATE {}", ids.join(" ")));
    lines.join("\n")
}

/// Each General a seat holds, as a standing order for any station about to fall.
fn standing_generals(state: &Value, seat: u8) -> Vec<String> {
    let hand = player(state, seat)["specials"].as_array().cloned().unwrap_or_default();
    GENERALS
        .iter()
        .filter(|(n, _)| hand.iter().any(|x| x.as_u64() == Some(*n)))
        .map(|(_, word)| format!("PLAY {word} WHEN ANY FALLS"))
        .collect()
}

/// The seat a "seat N plays General …" event names.
fn playing_seat(text: &str) -> Option<u8> {
    let lower = text.to_ascii_lowercase();
    let i = lower.find("seat ")?;
    let rest = &lower[i + 5..];
    let n: String = rest.chars().take_while(char::is_ascii_digit).collect();
    rest[n.len()..].starts_with(" plays general").then(|| n.parse().ok()).flatten()
}

#[tokio::test]
async fn a_four_player_confederate_rails_game_by_mail_where_standing_generals_answer_other_turns() {
    let (pool, _db) = test_db().await;
    let app = spawn_app(pool).await;
    let (port, mut server) = crate::helpers::smtp_server().await;
    let g =
        create_game_on(&app.ctx, "confederate-rails", Value::Null, Review::Auto, GameClock::default()).await;

    // The set-up turn (RT 3.4-3.7): each seat picks an RRC; the rest of the set-up is the rules'.
    for (seat, rrc) in [(1u8, 12u8), (2, 5), (3, 17), (4, 21)] {
        mail_orders(&app, &g, seat, 1, &format!("RRC {rrc}")).await;
    }
    close_at_deadline(&app, &g, 1).await;
    let mut state = app.turn(g.id, 1).await.draft.unwrap().0.state;
    assert_eq!(state["round"].as_u64(), Some(1), "the set-up is over: Round 1 has begun");

    let mut standing: Vec<(u8, Vec<String>)> = Vec::new();
    let mut answered = None;
    let mut turn = 2;
    while answered.is_none() {
        assert!(turn <= LAST_TURN, "no standing General answered another's turn by turn {LAST_TURN}");
        let now = active(&state);
        for seat in 1..=4u8 {
            let mut text = Vec::new();
            if turn == 2 {
                let mine = standing_generals(&state, seat);
                text.extend(mine.iter().cloned());
                standing.push((seat, mine));
            }
            if seat == now {
                text.push(turn_lines(&state, seat));
            } else {
                text.push("PAY FEES UP TO 400".into()); // a line for its own trains' moves
            }
            mail_orders(&app, &g, seat, turn, &text.join("\n")).await;
        }
        close_at_deadline(&app, &g, turn).await;
        let outcome = app.turn(g.id, turn).await.draft.unwrap().0;
        assert!(!outcome.game_over, "turn {turn}: the game goes on");
        assert!(outcome.nmr.is_empty(), "turn {turn}: every seat sent orders: {:?}", outcome.nmr);
        for e in &outcome.events {
            let Some(seat) = playing_seat(&e.public) else { continue };
            if seat != now && e.public.contains(" to save ") {
                answered = Some((turn, seat, now, e.public.clone(), outcome.notes.clone()));
            }
        }
        state = outcome.state;
        turn += 1;
    }
    let (turn, seat, now, event, notes) = answered.unwrap();
    assert_ne!(seat, now, "{event}: an interrupt in another player's Player Turn");
    let (_, lines) = standing.iter().find(|(x, _)| *x == seat).expect("the seat's turn-2 lines");
    assert!(!lines.is_empty(), "seat {seat} held a General and ordered it in turn 2: {event}");
    let seat_notes = notes.get(&Seat(seat)).cloned().unwrap_or_default();
    assert!(
        seat_notes.iter().any(|n| n.executed && n.note.contains("cancel the Union's advance")),
        "seat {seat}'s standing line was carried out: {seat_notes:?}"
    );

    // Every report went out over SMTP, one a turn to each player; the General's player reads of
    // his play in the report of that turn as it arrived.
    let got = crate::helpers::deliver_over_smtp(&app, port, &mut server).await;
    let parsed: Vec<_> =
        got.iter().filter_map(|raw| MessageParser::default().parse(raw.as_bytes())).collect();
    let report = |to: u8, t: i32| {
        let found: Vec<_> = parsed
            .iter()
            .filter(|m| {
                m.to().and_then(|a| a.first()).and_then(|a| a.address()) == Some(address(to).as_str())
                    && m.subject().is_some_and(|x| x.contains(&format!("Turn {t} result")))
            })
            .collect();
        assert_eq!(found.len(), 1, "seat {to} got its report of turn {t} over SMTP, once");
        found[0].body_text(0).map(|b| b.into_owned()).unwrap_or_default()
    };
    for to in 1..=4u8 {
        for t in 1..=turn {
            report(to, t);
        }
    }
    let text = report(seat, turn);
    assert!(text.contains("to save"), "seat {seat}'s report of turn {turn} as it arrived: {text}");
    server.stop();
}
