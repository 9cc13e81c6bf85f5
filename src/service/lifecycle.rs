//! The GM's controls over a running game's clock and seats: pause and resume, moving the
//! deadline, absences, replacing a player, the time zone a player reads deadlines in, and
//! standing orders. Every change is one transaction with its audit entry and its mail.

use super::audit::{self, Actor};
use super::notices::{self, Notice, NoticeTo};
use super::turn::{self, Step, TurnPhase};
use super::{Ctx, ServiceError, deadlines, engine_of, load_game};
use crate::domain::{GameId, GameStatus, Mailbox, TurnStatus};
use crate::engine::Seat;
use crate::orders::Echo;
use crate::orders::OrderText;
use crate::schedule::{self, DeadlineChange};
use crate::store;
use crate::store::games::GameRow;
use crate::store::turns::TurnRow;
use chrono::{DateTime, Utc};
use serde_json::json;
use sqlx::PgConnection;

pub use super::absences::{
    AbsenceOutcome, absences_need_approval, add_absence, approve_absences, decline_absences,
};

/// The game's open turn (held for the GM or not), locked; an error when the game has none.
async fn lock_open_turn(conn: &mut PgConnection, g: &GameRow) -> Result<(TurnRow, TurnPhase), ServiceError> {
    let t = turn::lock_current(conn, g).await?;
    let phase = turn::TurnPhase::of(&t);
    if !phase.is_open() {
        return Err(ServiceError::Conflict(format!(
            "turn {} is not open (it is {phase}); its deadline no longer matters",
            t.number
        )));
    }
    Ok((t, phase))
}

/// Pauses a game: no turn closes, no reminder goes out, until the GM resumes it (RULING D13).
pub async fn pause_game(ctx: &Ctx, game: GameId, gm: &str) -> Result<(), ServiceError> {
    let now = ctx.now();
    let mut tx = ctx.pool.begin().await?;
    let g = store::games::lock_game(&mut tx, game).await?.ok_or(ServiceError::GameNotFound(game))?;
    if g.status == GameStatus::Finished {
        return Err(ServiceError::Conflict("the game is over".into()));
    }
    if g.paused_at.is_some() {
        return Err(ServiceError::Conflict("the game is already paused".into()));
    }
    store::lifecycle::set_paused(&mut tx, game, Some(now)).await?;
    audit::record(&mut tx, now, game, Actor::Gm(gm), "game paused", json!({"turn": g.current_turn})).await?;
    deadlines::tell_table(
        ctx,
        &mut tx,
        &g,
        &format!("paused-{}", now.timestamp()),
        "The game is paused",
        &[format!(
            "the GM has paused \"{}\". No turn closes while the game is paused; you will get \
                 the new deadline when it resumes.",
            g.name
        )],
    )
    .await?;
    tx.commit().await?;
    ctx.mail_wake.notify_one();
    Ok(())
}

/// Resumes a paused game. The open turn's deadline moves later by the time the game was paused
/// (RULING D-resume in docs/RULINGS.md), so nobody loses time to the pause. Returns the new
/// deadline, if a turn is open.
pub async fn resume_game(ctx: &Ctx, game: GameId, gm: &str) -> Result<Option<DateTime<Utc>>, ServiceError> {
    let now = ctx.now();
    let mut tx = ctx.pool.begin().await?;
    let g = store::games::lock_game(&mut tx, game).await?.ok_or(ServiceError::GameNotFound(game))?;
    let Some(paused_at) = g.paused_at else {
        return Err(ServiceError::Conflict("the game is not paused".into()));
    };
    store::lifecycle::set_paused(&mut tx, game, None).await?;
    let pause = now - paused_at;
    let mut new_deadline = None;
    if let Some(t) =
        store::turns::lock_turn(&mut tx, game, g.current_turn).await?.filter(|t| t.status == TurnStatus::Open)
    {
        // A deadline that had already passed when the game was paused keeps its distance too.
        let moved = t.deadline.max(paused_at) + pause;
        let version = store::lifecycle::move_deadline(&mut tx, game, t.number, moved).await?;
        let why =
            format!("the GM has resumed \"{}\" after a pause of {}.", g.name, schedule::format_span(pause));
        deadlines::announce(ctx, &mut tx, &g, t.number, moved, version, &why).await?;
        new_deadline = Some(moved);
    }
    let detail = json!({"paused_at": paused_at, "pause_secs": pause.num_seconds(), "deadline": new_deadline});
    audit::record(&mut tx, now, game, Actor::Gm(gm), "game resumed", detail).await?;
    tx.commit().await?;
    ctx.mail_wake.notify_one();
    ctx.turn_wake.notify_one();
    Ok(new_deadline)
}

/// Moves the open turn's deadline: extend, set, or shorten (never earlier than announced unless
/// forced). A turn held for the GM is released by a new deadline. The table is told, with a
/// calendar update.
pub async fn change_deadline(
    ctx: &Ctx,
    game: GameId,
    gm: &str,
    change: DeadlineChange,
) -> Result<DateTime<Utc>, ServiceError> {
    let now = ctx.now();
    let mut tx = ctx.pool.begin().await?;
    let g = load_game(&mut tx, game).await?;
    let (t, phase) = lock_open_turn(&mut tx, &g).await?;
    let new_deadline =
        schedule::apply_change(t.deadline, change, now).map_err(|e| ServiceError::BadInput(e.to_string()))?;
    let version = store::lifecycle::move_deadline(&mut tx, game, t.number, new_deadline).await?;
    if let TurnPhase::Held(_) = phase {
        turn::step_from(t.number, phase, Step::Release)?;
        store::lifecycle::set_hold(&mut tx, game, t.number, None).await?;
    }
    let detail =
        json!({"turn": t.number, "from": t.deadline, "to": new_deadline, "change": format!("{change:?}")});
    audit::record(&mut tx, now, game, Actor::Gm(gm), "deadline changed", detail).await?;
    let why = if new_deadline > t.deadline {
        "the GM has extended the deadline.".to_string()
    } else {
        "the GM has moved the deadline earlier.".to_string()
    };
    deadlines::announce(ctx, &mut tx, &g, t.number, new_deadline, version, &why).await?;
    tx.commit().await?;
    ctx.mail_wake.notify_one();
    ctx.turn_wake.notify_one();
    Ok(new_deadline)
}

/// What replacing a player returns: the only copy of the new secret link.
#[derive(Debug, Clone)]
pub struct Replacement {
    pub seat: u8,
    pub link: String,
    pub generation: i32,
}

/// Hands a seat to a new player: a fresh secret (the old link and reply address stop working at
/// once), the NMR count reset, and a welcome mail with the seat's whole history (every report it
/// received). The table is told who took over.
pub async fn replace_player(
    ctx: &Ctx,
    game: GameId,
    gm: &str,
    seat: u8,
    player: &Mailbox,
) -> Result<Replacement, ServiceError> {
    let mut tx = ctx.pool.begin().await?;
    let r = replace_in(ctx, &mut tx, game, Actor::Gm(gm), seat, player).await?;
    tx.commit().await?;
    ctx.mail_wake.notify_one();
    Ok(r)
}

/// [`replace_player`] in the caller's transaction, recorded as done `by` (the GM, or the server
/// when a replacement offer was taken, RULING W61).
pub(crate) async fn replace_in(
    ctx: &Ctx,
    tx: &mut PgConnection,
    game: GameId,
    by: Actor<'_>,
    seat: u8,
    player: &Mailbox,
) -> Result<Replacement, ServiceError> {
    let now = ctx.now();
    let g = store::games::lock_game(tx, game).await?.ok_or(ServiceError::GameNotFound(game))?;
    let old = super::seat_by_number(tx, game, seat).await?;
    let generation = store::lifecycle::replace_seat(
        tx,
        game,
        Seat(seat),
        &player.name,
        player.email.as_str(),
        |generation| ctx.seat_token(game, Seat(seat), generation).hash(),
    )
    .await?;
    let link = ctx.seat_link(&ctx.seat_token(game, Seat(seat), generation));
    let reports = store::games::reports_of_seat(tx, game, Seat(seat)).await?;
    let history = if reports.is_empty() {
        "(no turn has been published yet)".to_string()
    } else {
        reports
            .iter()
            .map(|r| format!("==== {} ====\n{}", r.subject, r.body_text))
            .collect::<Vec<_>>()
            .join("\n\n")
    };
    let engine = engine_of(&g)?;
    let turn = store::turns::get_turn(tx, game, g.current_turn).await?;
    let deadline = turn.as_ref().filter(|t| t.status == TurnStatus::Open).map(|t| t.deadline);
    let mut paragraphs = vec![
        format!(
            "the GM of \"{}\" ({}) has given you seat {seat}, which {} played until now. Everything the seat \
             received so far is below, so you can pick up where it stands.",
            g.name,
            engine.title(),
            old.player_name
        ),
        "Your private order link follows; keep it to yourself. Reply to this mail to send orders by mail."
            .to_string(),
    ];
    if let Some(d) = deadline {
        paragraphs.push(format!("The current turn closes on {}.", deadlines::words(&g, None, d)));
    }
    let n = Notice {
        game: &g.name,
        greeting: &player.name,
        paragraphs,
        block: Some(history),
        // RULING P8: the mail is stored with placeholders, filled for the new generation when sent.
        link: Some(notices::SEAT_LINK.into()),
    };
    let calendar = match &turn {
        Some(t) if t.status == TurnStatus::Open => {
            Some(deadlines::calendar(ctx, &g, t.number, t.deadline, t.deadline_version))
        }
        _ => None,
    };
    let mail = notices::notice(
        NoticeTo {
            key: format!("replacement:{game}:{seat}:{generation}"),
            kind: "welcome",
            game_id: game,
            to: player.email.as_str(),
            name: Some(&player.name),
            subject: format!("[{}] You take over seat {seat} — your private order link", g.name),
            reply_to: Some(notices::ReplyTo::Seat { seat: Seat(seat), generation }),
            calendar,
        },
        &n,
    )?;
    notices::queue(tx, &ctx.settings, &mail).await?;
    let detail =
        json!({"seat": seat, "from": old.email, "to": player.email.as_str(), "generation": generation});
    audit::record(tx, now, game, by, "player replaced", detail).await?;
    let subject = format!("{} takes over seat {seat}", player.name);
    deadlines::tell_table(
        ctx,
        tx,
        &g,
        &format!("replacement-{seat}-{generation}"),
        &subject,
        &[format!("{} has taken over seat {seat} from {}.", player.name, old.player_name)],
    )
    .await?;
    Ok(Replacement { seat, link, generation })
}

/// Sets the time zone a player reads deadlines in (`None`: the game's zone).
pub async fn set_player_zone(
    ctx: &Ctx,
    game: GameId,
    seat: Seat,
    zone: Option<&str>,
) -> Result<(), ServiceError> {
    let zone = match zone.map(str::trim).filter(|z| !z.is_empty()) {
        Some(z) => {
            Some(z.parse::<schedule::TimeZoneName>().map_err(|e| ServiceError::BadInput(e.to_string()))?)
        }
        None => None,
    };
    let mut conn = ctx.pool.acquire().await?;
    super::seat_by_number(&mut conn, game, seat.0).await?; // an unknown game or seat is an error
    store::lifecycle::set_seat_zone(&mut conn, game, seat, zone.map(|z| z.name())).await?;
    Ok(())
}

/// Stores a seat's standing orders (checked like turn orders against the current state; empty
/// text withdraws them). They are used in a turn where the seat sends nothing, when the game's
/// NMR policy allows (HR 12).
pub async fn set_standing_orders(
    ctx: &Ctx,
    game: GameId,
    seat: Seat,
    text: &OrderText,
) -> Result<Echo, ServiceError> {
    let now = ctx.now();
    let mut tx = ctx.pool.begin().await?;
    let g = load_game(&mut tx, game).await?;
    super::seat_by_number(&mut tx, game, seat.0).await?;
    let engine = engine_of(&g)?;
    let echo = engine.check_orders(&g.state, seat, text.as_str())?;
    // HR 16, RULING S1: the unreadable lines are kept as "not understood" unless none is readable.
    super::submit::refuse_unreadable(&echo)?;
    store::lifecycle::add_standing(&mut tx, game, seat, text.as_str()).await?;
    audit::record(
        &mut tx,
        now,
        game,
        Actor::Seat(seat.0),
        "standing orders set",
        json!({"lines": echo.lines.len()}),
    )
    .await?;
    tx.commit().await?;
    Ok(echo)
}
