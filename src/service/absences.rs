//! Absences: a seat away on some days, recorded by the GM or asked for by the player (then, when
//! the game says so, waiting for the GM, who approves or declines it and the player is told;
//! RULINGS S9, S16); one in force moves the open deadline past it, within the GM's limit.

use super::audit::{self, Actor};
use super::{Ctx, ServiceError, deadlines, load_game, notices};
use crate::domain::{GameId, TurnStatus};
use crate::engine::Seat;
use crate::schedule;
use crate::store;
use crate::store::games::GameRow;
use crate::store::lifecycle::AbsenceRow;
use chrono::{DateTime, NaiveDate, Utc};
use serde_json::json;
use sqlx::PgConnection;

/// What became of an absence: in force (with the open deadline it moved, if any), or waiting for
/// the GM's approval (RULING S9).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AbsenceOutcome {
    Recorded(Option<DateTime<Utc>>),
    AwaitsApproval,
}

/// Records an absence of a seat (capped by the game's limit). When the GM records it, or the game
/// does not ask for approval, it is in force at once: when it covers the open turn's deadline and
/// the seat must act, that deadline moves past it. A player's own absence in a game that asks for
/// approval waits for the GM (who is told) and moves nothing until approved (RULING S9).
pub async fn add_absence(
    ctx: &Ctx,
    game: GameId,
    actor: Actor<'_>,
    seat: u8,
    first: NaiveDate,
    last: NaiveDate,
) -> Result<AbsenceOutcome, ServiceError> {
    let now = ctx.now();
    let absence =
        schedule::Absence::new(seat, first, last).map_err(|e| ServiceError::BadInput(e.to_string()))?;
    let mut tx = ctx.pool.begin().await?;
    let g = load_game(&mut tx, game).await?;
    super::seat_by_number(&mut tx, game, seat).await?;
    let days = (last - first).num_days() + 1;
    if days > i64::from(g.max_absence_days) {
        return Err(ServiceError::BadInput(format!(
            "an absence may last at most {} days in this game (the GM's limit); this one is {days}",
            g.max_absence_days
        )));
    }
    let waits = matches!(actor, Actor::Seat(_)) && absences_need_approval(&mut tx, game).await?;
    store::lifecycle::add_absence(
        &mut tx,
        game,
        AbsenceRow { seat: Seat(seat), first_day: first, last_day: last },
        !waits,
    )
    .await?;
    let action = if waits { "absence requested" } else { "absence recorded" };
    audit::record(&mut tx, now, game, actor, action, json!({"seat": seat, "from": first, "to": last}))
        .await?;
    let outcome = if waits {
        let what = format!(
            "seat {seat} asks to be away from {first} to {last}; the deadline moves only once you approve \
             (on your dashboard, {base}/gm/games/{game}, or stationmaster seat approve --game {game} --seat {seat})",
            base = ctx.settings.base()
        );
        let alert = notices::GmAlert {
            game: &g.name,
            turn: g.current_turn,
            what: &what,
            link: format!("{}/gm/games/{}", ctx.settings.base(), game),
        };
        let key = format!("gm-absence:{}:{seat}:{first}:{last}", game);
        notices::queue(&mut tx, &ctx.settings, &notices::gm_alert(key, &g.gm_email, game, &alert)?).await?;
        AbsenceOutcome::AwaitsApproval
    } else {
        AbsenceOutcome::Recorded(push_deadline(ctx, &mut tx, &g, seat, &[absence]).await?)
    };
    tx.commit().await?;
    ctx.mail_wake.notify_one();
    Ok(outcome)
}

/// Whether a player's own absence in this game waits for the GM's approval (RULING S9).
pub async fn absences_need_approval(conn: &mut PgConnection, game: GameId) -> Result<bool, ServiceError> {
    Ok(store::lifecycle::absence_approval(conn, game).await?)
}

/// The GM's answer to a seat's absences that wait for approval (RULING S9, S16).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    Approved,
    Declined,
}

/// The GM approves a seat's absences that wait for approval: they are in force from now on, and
/// the open deadline moves past them as if the GM had recorded them. The player is mailed the
/// approval with the deadline that now stands (RULING S16). Errors when none waits.
pub async fn approve_absences(
    ctx: &Ctx,
    game: GameId,
    gm: &str,
    seat: u8,
) -> Result<Option<DateTime<Utc>>, ServiceError> {
    let mut tx = ctx.pool.begin().await?;
    let (g, rows) = answer_requests(ctx, &mut tx, game, gm, seat, Verdict::Approved).await?;
    let absences = rows
        .iter()
        .map(|a| schedule::Absence::new(seat, a.first_day, a.last_day))
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| ServiceError::Internal(e.to_string()))?;
    let moved = push_deadline(ctx, &mut tx, &g, seat, &absences).await?;
    tell_player(ctx, &mut tx, &g, seat, &rows, Verdict::Approved).await?;
    tx.commit().await?;
    ctx.mail_wake.notify_one();
    Ok(moved)
}

/// The GM declines a seat's absences that wait for approval: they are removed (the audit log
/// keeps them), no deadline moves, and the player is mailed the refusal with the deadline that
/// stands (RULING S16). Returns how many were declined; errors when none waits.
pub async fn decline_absences(ctx: &Ctx, game: GameId, gm: &str, seat: u8) -> Result<usize, ServiceError> {
    let mut tx = ctx.pool.begin().await?;
    let (g, rows) = answer_requests(ctx, &mut tx, game, gm, seat, Verdict::Declined).await?;
    tell_player(ctx, &mut tx, &g, seat, &rows, Verdict::Declined).await?;
    tx.commit().await?;
    ctx.mail_wake.notify_one();
    Ok(rows.len())
}

/// Approves or declines (removes) every absence of the seat that waits, logging each as the GM's
/// act. Errors when none waits.
async fn answer_requests(
    ctx: &Ctx,
    tx: &mut PgConnection,
    game: GameId,
    gm: &str,
    seat: u8,
    verdict: Verdict,
) -> Result<(GameRow, Vec<store::lifecycle::AbsenceRow>), ServiceError> {
    let g = load_game(tx, game).await?;
    super::seat_by_number(tx, game, seat).await?;
    let (rows, action) = match verdict {
        Verdict::Approved => {
            (store::lifecycle::approve_absences(tx, game, Seat(seat)).await?, "absence approved")
        }
        Verdict::Declined => {
            (store::lifecycle::decline_absences(tx, game, Seat(seat)).await?, "absence declined")
        }
    };
    if rows.is_empty() {
        return Err(ServiceError::BadInput(format!("seat {seat} has no absence waiting for approval")));
    }
    for a in &rows {
        let detail = json!({"seat": seat, "from": a.first_day, "to": a.last_day});
        audit::record(tx, ctx.now(), game, Actor::Gm(gm), action, detail).await?;
    }
    Ok((g, rows))
}

/// Mails the seat's player the GM's answer to their absences, with the open turn's deadline as
/// it now stands (in the player's zone) and its calendar entry (RULING S16).
async fn tell_player(
    ctx: &Ctx,
    tx: &mut PgConnection,
    g: &GameRow,
    seat: u8,
    rows: &[store::lifecycle::AbsenceRow],
    verdict: Verdict,
) -> Result<(), ServiceError> {
    let game = g.id;
    let Some(player) = store::games::seats(tx, g.id).await?.into_iter().find(|s| s.seat == Seat(seat)) else {
        return Ok(());
    };
    let spans: Vec<String> = rows.iter().map(|a| format!("from {} to {}", a.first_day, a.last_day)).collect();
    let spans = spans.join(" and ");
    let (word, mut paragraphs) = match verdict {
        Verdict::Approved => (
            "approved",
            vec![format!(
                "The GM approved your absence {spans}: it is in force, and a deadline of a turn you must \
                 act in that falls on those days moves past them (within the game's limit)."
            )],
        ),
        Verdict::Declined => (
            "declined",
            vec![format!(
                "The GM declined your absence {spans}: it is not in force, and no deadline moves for it. \
                 Send your orders as usual, or ask the GM."
            )],
        ),
    };
    let open = store::turns::open_deadline(tx, g.id, g.current_turn).await?;
    if let Some(d) = &open {
        let deadline = d.deadline;
        let when = deadlines::words(g, player.time_zone.as_deref(), deadline);
        paragraphs.push(format!("Turn {} closes on {when}.", g.current_turn));
    }
    let n = notices::Notice {
        game: &g.name,
        greeting: &player.player_name,
        paragraphs,
        block: None,
        link: Some(notices::SEAT_LINK.into()),
    };
    let m = notices::SeatMail {
        // A request may come again and be answered again: each answer is its own mail.
        key: format!("absence-{word}:{game}:{seat}:{}", ctx.now().timestamp_micros()),
        kind: "notice",
        subject: format!("[{}] Your absence was {word}", g.name),
        calendar: open.map(|d| deadlines::calendar(ctx, g, g.current_turn, d.deadline, d.deadline_version)),
    };
    notices::queue_to_seat(ctx, tx, game, &player, m, &n).await
}

/// Moves the open turn's deadline past a seat's absences now in force, when the seat must act in
/// it; tells the table. Returns the new deadline when it moved.
async fn push_deadline(
    ctx: &Ctx,
    conn: &mut PgConnection,
    g: &GameRow,
    seat: u8,
    absences: &[schedule::Absence],
) -> Result<Option<DateTime<Utc>>, ServiceError> {
    let Some(t) =
        store::turns::lock_turn(conn, g.id, g.current_turn).await?.filter(|t| t.status == TurnStatus::Open)
    else {
        return Ok(None);
    };
    if !t.acting_seats.contains(&Seat(seat)) {
        return Ok(None);
    }
    let rhythm = deadlines::rhythm_of(g);
    let acting: Vec<u8> = t.acting_seats.iter().map(|s| s.0).collect();
    let cap = chrono::Duration::days(i64::from(g.max_absence_days));
    let (pushed, _) = schedule::push_for_absences(t.deadline, &rhythm, absences, &acting, cap);
    if pushed <= t.deadline {
        return Ok(None);
    }
    let version = store::lifecycle::move_deadline(conn, g.id, t.number, pushed).await?;
    let spans: Vec<String> = absences.iter().map(|a| format!("from {} to {}", a.from, a.to)).collect();
    let why = format!("seat {seat} is away {}, so the deadline moves past the absence.", spans.join(" and "));
    deadlines::announce(ctx, conn, g, t.number, pushed, version, &why).await?;
    Ok(Some(pushed))
}
