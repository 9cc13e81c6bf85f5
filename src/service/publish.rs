//! Publishing a turn: one transaction that appends the action log, stores the new state, counts
//! NMRs, opens the next turn and queues every seat's report mail in the outbox.

use super::audit::{self, Actor};
use super::deadlines;
use super::policy::NmrPolicy;
use super::turn::lock_draft;
use super::{Ctx, ServiceError, engine_of, notices, reports};
use crate::domain::GameId;
use crate::engine::{Seat, TurnOutcome};
use crate::store;
use crate::store::games::{ActionRow, GameRow};
use crate::store::turns::TurnRow;
use serde_json::json;
use sqlx::PgConnection;

/// Publishes the draft of a game's current turn (the GM's "publish"), logged as the act of `gm`
/// (the GM's address; the console acts as "console").
pub async fn publish_turn(ctx: &Ctx, game: GameId, gm: &str) -> Result<i32, ServiceError> {
    let mut tx = ctx.pool.begin().await?;
    let (g, turn, outcome) = lock_draft(&mut tx, game).await?;
    publish_as(ctx, &mut tx, &g, &turn, &outcome, Actor::Gm(gm)).await?;
    tx.commit().await?;
    ctx.mail_wake.notify_one();
    Ok(turn.number)
}

/// Publishes an adjudicated turn inside the caller's transaction (turn row locked), by the
/// server's own decision (review=auto, auto-release).
pub(crate) async fn publish_locked(
    ctx: &Ctx,
    conn: &mut PgConnection,
    game: &GameRow,
    turn: &TurnRow,
    outcome: &TurnOutcome,
) -> Result<(), ServiceError> {
    publish_as(ctx, conn, game, turn, outcome, Actor::Server).await
}

/// Publishes an adjudicated turn inside the caller's transaction, logged as `by`'s act.
async fn publish_as(
    ctx: &Ctx,
    conn: &mut PgConnection,
    game: &GameRow,
    turn: &TurnRow,
    outcome: &TurnOutcome,
    by: Actor<'_>,
) -> Result<(), ServiceError> {
    let now = ctx.now();
    let engine = engine_of(game)?;
    for a in &outcome.actions {
        let row = ActionRow {
            seq: i64::try_from(a.seq).unwrap_or(i64::MAX),
            turn: turn.number,
            seat: a.seat,
            action: a.action.clone(),
            by_default: a.by_default,
        };
        store::games::append_action(conn, game.id, turn.number, &row).await?;
    }
    let policy = NmrPolicy::of_game(game)?;
    let mut flagged = Vec::new();
    for seat in &outcome.nmr {
        let count = store::games::add_nmr(conn, game.id, *seat).await?;
        // HR 13: the Nth NMR (the 2nd by default) flags the seat for replacement.
        if policy.flags_at(u32::try_from(count).unwrap_or(0)) {
            store::lifecycle::flag_seat(conn, game.id, *seat, now).await?;
            flagged.push((*seat, count));
        }
    }
    let next_seq = turn.first_seq + i64::try_from(outcome.actions.len()).unwrap_or(0);
    let next_deadline = if outcome.game_over {
        None
    } else {
        let acting = engine.acting_seats(&outcome.state)?;
        Some(deadlines::open_turn(conn, game, turn.number + 1, &outcome.state, next_seq, &acting, now).await?)
    };
    let current = if outcome.game_over { turn.number } else { turn.number + 1 };
    store::games::update_after_publish(conn, game.id, &outcome.state, next_seq, current, outcome.game_over)
        .await?;
    store::turns::set_published(conn, game.id, turn.number, now).await?;

    let orders = store::orders::latest_of_turn(conn, game.id, turn.number).await?;
    let seats = store::games::seats(conn, game.id).await?;
    for seat in &seats {
        let s = seat.seat;
        let link = ctx.seat_link(&ctx.seat_token(game.id, s, seat.token_generation));
        let reply_to = ctx.reply_address(game.id, s, seat.token_generation);
        let ctx_r = reports::ReportContext {
            game,
            engine,
            turn: turn.number,
            outcome,
            orders: &orders,
            seats: &seats,
            next_deadline,
            link,
            reply_to,
            reopened: turn.reopened,
        };
        let mut mail = reports::seat_report(&ctx_r, seat)?;
        // The next deadline goes into the player's calendar.
        mail.calendar = next_deadline.map(|d| deadlines::calendar(ctx, game, turn.number + 1, d, 0));
        store::games::insert_report(
            conn,
            game.id,
            &store::games::ReportRow {
                turn: turn.number,
                seat: seat.seat,
                subject: mail.subject.clone(),
                body_text: mail.text.clone(),
                body_html: mail.html.clone(),
            },
        )
        .await?;
        notices::queue(conn, &ctx.settings, &mail).await?;
    }
    let nmr: Vec<u8> = outcome.nmr.iter().map(|s| s.0).collect();
    let detail = json!({"turn": turn.number, "actions": outcome.actions.len(), "nmr": nmr,
        "game_over": outcome.game_over, "next_deadline": next_deadline});
    audit::record(conn, now, game.id, by, "turn published", detail).await?;
    for (seat, count) in flagged {
        announce_flag(ctx, conn, game, seat, count).await?;
    }
    tracing::info!(game.id = %game.id, turn.number = turn.number, game_over = outcome.game_over, "turn published");
    Ok(())
}

/// HR 13: tells the GM and the other players that a seat is flagged for replacement; the game
/// goes on with the NMR policy's play for the seat until a replacement takes over.
async fn announce_flag(
    ctx: &Ctx,
    conn: &mut PgConnection,
    game: &GameRow,
    seat: Seat,
    count: i32,
) -> Result<(), ServiceError> {
    let id = game.id;
    audit::record(
        conn,
        ctx.now(),
        id,
        Actor::Server,
        "seat flagged for replacement",
        json!({"seat": seat.0, "nmr": count}),
    )
    .await?;
    let what = format!("seat {} flagged for replacement after NMR no. {count}", seat.0);
    let alert = notices::GmAlert {
        game: &game.name,
        turn: game.current_turn,
        what: &what,
        link: format!("{}/gm/games/{}", ctx.settings.base(), id),
    };
    let key = format!("gm-flag:{}:{}:{count}", game.id, seat.0);
    notices::queue(conn, &ctx.settings, &notices::gm_alert(key, &game.gm_email, id, &alert)?).await?;
    let news = format!(
        "seat {} has missed {count} turns, so under this game's rules the GM is looking for a replacement \
         player. Until one takes over, the seat is played by the game's rules for missing orders.",
        seat.0
    );
    deadlines::tell_table(
        ctx,
        conn,
        game,
        &format!("flag-{}-{count}", seat.0),
        &format!("Seat {} needs a replacement", seat.0),
        &[news],
    )
    .await
}
