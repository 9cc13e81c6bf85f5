//! The draft preview mailed to the GM when a turn is adjudicated for review: what happened, how
//! each seat's orders were read (line by line), and what changed on the table as the GM sees it.

use crate::engine::Viewer;
use crate::registry::{DynGame, TurnOutcome};
use crate::service::notices::{self, Notice, NoticeTo, OutgoingMail};
use crate::service::{ServiceError, diff};
use crate::store::games::{GameRow, SeatRow};
use crate::store::turns::TurnRow;

/// The preview's text: events, per-seat interpretation, NMRs, and the changed lines of the table.
pub fn preview_text(
    engine: &dyn DynGame,
    turn: &TurnRow,
    outcome: &TurnOutcome,
    seats: &[SeatRow],
) -> Result<String, ServiceError> {
    let mut out = String::from("What happened:\n");
    for e in &outcome.events {
        out.push_str(&format!("  {}\n", e.text_for(Viewer::Gm)));
    }
    out.push_str("\nHow the orders were read:\n");
    for s in seats {
        let seat = s.seat;
        let nmr = if outcome.nmr.contains(&seat) { " — NMR" } else { "" };
        out.push_str(&format!("  Seat {} ({}){nmr}\n", s.seat.0, s.player_name));
        for n in outcome.notes.get(&seat).into_iter().flatten() {
            let line = if n.line > 0 { format!("line {}", n.line) } else { "—".to_string() };
            let done = if n.executed { "carried out" } else { "NOT carried out" };
            out.push_str(&format!("    {line}: {done}: {}\n", n.note));
        }
    }
    let before = engine.describe(&turn.start_state, Viewer::Gm)?;
    let after = engine.describe(&outcome.state, Viewer::Gm)?;
    out.push_str("\nWhat changed on the table (GM view; - before, + after):\n");
    for l in diff::changes(&before, &after) {
        out.push_str(&format!("  {l}\n"));
    }
    Ok(out)
}

/// The preview mail to the GM (one per adjudication of the turn).
pub fn preview_mail(
    game: &GameRow,
    turn: &TurnRow,
    text: String,
    link: String,
) -> Result<OutgoingMail, ServiceError> {
    let n = Notice {
        game: &game.name,
        greeting: "GM",
        paragraphs: vec![format!(
            "turn {} is adjudicated and waits for your review. Nothing has been sent to the players. \
             Publish it, correct it (enter orders for a seat, roll back), or let it be from the dashboard:",
            turn.number
        )],
        block: Some(text),
        link: Some(link),
    };
    notices::notice(
        NoticeTo {
            key: notices::run_key(format!("gm-draft:{}:{}", game.id, turn.number), turn.reopened),
            kind: "gm-alert",
            game_id: game.id,
            to: &game.gm_email,
            name: None,
            subject: format!("[{}] Turn {}: draft ready for review", game.name, turn.number),
            reply_to: None,
            calendar: None,
        },
        &n,
    )
}
