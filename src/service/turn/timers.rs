//! Durable timers and the outage guard, run by the scheduler:
//! - reminders before a deadline, to the acting seats without final orders only;
//! - auto-release of a draft the GM left alone for the game's configured time;
//! - the outage guard: when the scheduler did not run for longer than the threshold, open
//!   deadlines that fell into the gap move by the measured gap, the table is told, and the move
//!   is logged — a turn is never adjudicated late without notice.
//!
//! Each timer is claimed `FOR UPDATE SKIP LOCKED` inside the transaction that does its work and
//! queues its mail, so a crash or a second server process neither loses nor doubles a reminder.

use super::draft::draft_of;
use super::publish;
use super::state::TurnPhase;
use crate::domain::GameId;
use crate::domain::TimerKind;
use crate::schedule;
use crate::service::audit::{self, Actor};
use crate::service::notices::{self, Notice, SeatMail};
use crate::service::{Ctx, ServiceError, deadlines, load_game, webhooks};
use crate::store;
use chrono::Duration;
use serde_json::json;
use sqlx::PgConnection;

/// Runs up to `max` due timers, one transaction each. Returns how many ran.
pub async fn run_due_timers(ctx: &Ctx, max: usize) -> Result<usize, ServiceError> {
    let mut n = 0;
    while n < max {
        let mut tx = ctx.pool.begin().await?;
        let Some(timer) = store::lifecycle::claim_timers(&mut tx, ctx.now(), 1).await?.into_iter().next()
        else {
            break;
        };
        let (game, number) = (timer.game_id, timer.turn);
        let outcome = match timer.kind {
            TimerKind::Reminder => match timer.offset_secs {
                Some(offset) => remind(ctx, &mut tx, game, number, offset).await?,
                // Bad data is reported in the timer's outcome, not sent as a "0 hours left" mail.
                None => "not sent: the reminder timer has no offset".to_string(),
            },
            TimerKind::AutoRelease => auto_release(ctx, &mut tx, game, number).await?,
        };
        store::lifecycle::finish_timer(&mut tx, timer.id, ctx.now(), &outcome).await?;
        tx.commit().await?;
        n += 1;
    }
    if n > 0 {
        ctx.mail_wake.notify_one();
    }
    Ok(n)
}

/// Sends one reminder to each acting seat of an open turn whose latest orders are not final.
async fn remind(
    ctx: &Ctx,
    conn: &mut PgConnection,
    game: GameId,
    number: i32,
    offset: i64,
) -> Result<String, ServiceError> {
    let g = load_game(conn, game).await?;
    let Some(t) = store::turns::get_turn(conn, game, number).await? else {
        return Ok("the turn no longer exists".into());
    };
    let phase = TurnPhase::of(&t);
    if !phase.is_open() {
        return Ok(format!("turn already {phase}"));
    }
    let orders = store::orders::latest_of_turn(conn, game, number).await?;
    let seats = store::games::seats(conn, game).await?;
    let mut reminded = Vec::new();
    for seat in seats.iter().filter(|s| t.acting_seats.contains(&s.seat)) {
        let on_file = orders.iter().find(|o| o.seat == seat.seat);
        if on_file.is_some_and(|o| o.is_final) {
            continue;
        }
        let when = deadlines::words(&g, seat.time_zone.as_deref(), t.deadline);
        let state = match on_file {
            Some(o) => format!("Your orders (version {}) are on file but not marked final.", o.version),
            None => "You have no orders on file for this turn yet.".to_string(),
        };
        let n = Notice {
            game: &g.name,
            greeting: &seat.player_name,
            paragraphs: vec![
                format!("a reminder: turn {number} of \"{}\" closes on {when}.", g.name),
                state,
                "Reply to this mail with your orders (add a line FINAL when they are final), or use your \
                 private link:"
                    .into(),
            ],
            block: None,
            link: Some(notices::SEAT_LINK.into()),
        };
        let m = SeatMail {
            key: format!("reminder:{}:{number}:{offset}:{}:{}", game, seat.seat.0, t.deadline_version),
            kind: "reminder",
            subject: format!("[{}] Reminder: turn {number} closes {when}", g.name),
            calendar: Some(deadlines::calendar(ctx, &g, number, t.deadline, t.deadline_version)),
        };
        notices::queue_to_seat(ctx, conn, game, seat, m, &n).await?;
        reminded.push(seat.seat);
    }
    let key = format!("reminder:{game}:{number}:{offset}:{}", t.deadline_version);
    webhooks::reminder(ctx, conn, &g, number, &reminded, t.deadline, &key).await?;
    Ok(if reminded.is_empty() {
        "every acting seat was final".into()
    } else {
        let list: Vec<String> = reminded.iter().map(|s| s.0.to_string()).collect();
        format!("reminded seat(s) {}", list.join(", "))
    })
}

/// Publishes a draft the GM has not acted on within the game's auto-release time.
async fn auto_release(
    ctx: &Ctx,
    conn: &mut PgConnection,
    game: GameId,
    number: i32,
) -> Result<String, ServiceError> {
    let g = load_game(conn, game).await?;
    let Some(t) = store::turns::lock_turn(conn, game, number).await? else {
        return Ok("the turn no longer exists".into());
    };
    let phase = TurnPhase::of(&t);
    if phase != TurnPhase::Draft || g.current_turn != number {
        return Ok(format!("nothing to release: turn is {phase}"));
    }
    let outcome = draft_of(&t)?;
    publish::publish_locked(ctx, conn, &g, &t, phase, &outcome).await?;
    audit::record(conn, ctx.now(), game, Actor::Server, "draft auto-released", json!({"turn": number}))
        .await?;
    Ok("published after GM silence".into())
}

/// Records a scheduler pass and, when the previous one is older than the configured threshold,
/// moves the open deadlines that fell into the gap by the gap. Returns the turns moved.
pub async fn guard_outage(ctx: &Ctx) -> Result<Vec<(GameId, i32)>, ServiceError> {
    let now = ctx.now();
    let mut tx = ctx.pool.begin().await?;
    let previous = store::lifecycle::heartbeat(&mut tx, now).await?;
    let threshold = Duration::seconds(i64::try_from(ctx.settings.outage_secs).unwrap_or(i64::MAX));
    let mut moved = Vec::new();
    if let Some(last) = previous.filter(|last| ctx.settings.outage_secs > 0 && now - *last > threshold) {
        for d in store::lifecycle::deadlines_between(&mut tx, last, now).await? {
            let (game, number, deadline) = (d.game_id, d.number, d.deadline);
            let Some(gap) = schedule::outage_extension(deadline, last, now, threshold) else { continue };
            let new_deadline = deadline + gap;
            let version = store::lifecycle::move_deadline(&mut tx, game, number, new_deadline).await?;
            let detail = json!({
                "turn": number, "from": deadline, "to": new_deadline,
                "scheduler_down_from": last, "scheduler_down_until": now, "gap_secs": gap.num_seconds(),
            });
            audit::record(&mut tx, now, game, Actor::Server, "deadline extended after outage", detail)
                .await?;
            let why = format!(
                "the server was not running from {} to {} UTC, so the deadline, which fell in that time, \
                 moves by the same {} minutes.",
                last.format("%Y-%m-%d %H:%M"),
                now.format("%Y-%m-%d %H:%M"),
                gap.num_minutes()
            );
            let g = load_game(&mut tx, game).await?;
            deadlines::announce(ctx, &mut tx, &g, number, new_deadline, version, &why).await?;
            tracing::warn!(game.id = %game, turn.number = number, gap_secs = gap.num_seconds(), "deadline extended after a scheduler outage");
            moved.push((game, number));
        }
    }
    tx.commit().await?;
    if !moved.is_empty() {
        ctx.mail_wake.notify_one();
    }
    Ok(moved)
}
