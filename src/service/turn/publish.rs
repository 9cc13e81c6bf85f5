//! Publishing a turn: one transaction that appends the action log, stores the new state, counts
//! NMRs, opens the next turn and queues every seat's report mail in the outbox (and the chat
//! notices of the game's webhooks). The reports' drawings are kept as SVG, each distinct one
//! once; none is rendered here (RULING O23).

use super::draft::lock_draft;
use super::state::{Step, TurnPhase, step_from};
use super::{nmr, open, reports};
use crate::domain::GameId;
use crate::draw::DrawingKey;
use crate::engine::Viewer;
use crate::registry::TurnOutcome;
use crate::service::audit::{self, Actor};
use crate::service::{Ctx, ServiceError, deadlines, engine_of, notices, pictures, webhooks};
use crate::store;
use crate::store::games::{ActionRow, GameRow};
use crate::store::turns::TurnRow;
use serde_json::json;
use sqlx::PgConnection;

/// Publishes the draft of a game's current turn (the GM's "publish"), logged as the act of `gm`
/// (the GM's address; the console acts as "console").
pub async fn publish_turn(ctx: &Ctx, game: GameId, gm: &str) -> Result<i32, ServiceError> {
    let mut tx = ctx.pool.begin().await?;
    let (g, turn, outcome) = lock_draft(&mut tx, game, Step::Publish).await?;
    let from = TurnPhase::of(&turn);
    publish_as(ctx, &mut tx, &g, &turn, from, &outcome, Actor::Gm(gm)).await?;
    tx.commit().await?;
    ctx.mail_wake.notify_one();
    Ok(turn.number)
}

/// Publishes an adjudicated turn inside the caller's transaction (turn row locked; `from` is the
/// phase the caller knows it in: a turn drafted in this transaction is a draft although its row
/// was read open), by the server's own decision (review=auto, auto-release).
pub(crate) async fn publish_locked(
    ctx: &Ctx,
    conn: &mut PgConnection,
    game: &GameRow,
    turn: &TurnRow,
    from: TurnPhase,
    outcome: &TurnOutcome,
) -> Result<(), ServiceError> {
    publish_as(ctx, conn, game, turn, from, outcome, Actor::Server).await
}

/// Publishes an adjudicated turn inside the caller's transaction, logged as `by`'s act.
async fn publish_as(
    ctx: &Ctx,
    conn: &mut PgConnection,
    game: &GameRow,
    turn: &TurnRow,
    from: TurnPhase,
    outcome: &TurnOutcome,
    by: Actor<'_>,
) -> Result<(), ServiceError> {
    step_from(turn.number, from, Step::Publish)?;
    let now = ctx.now();
    let engine = engine_of(game)?;
    let rows: Vec<ActionRow> = outcome
        .actions
        .iter()
        .map(|a| ActionRow {
            seq: i64::try_from(a.seq).unwrap_or(i64::MAX),
            turn: turn.number,
            seat: a.seat,
            action: a.action.clone(),
            by_default: a.by_default,
        })
        .collect();
    store::games::append_actions(conn, game.id, turn.number, &rows).await?;
    let flagged = nmr::count_and_flag(ctx, conn, game, outcome).await?;
    let next_seq = turn.first_seq + i64::try_from(outcome.actions.len()).unwrap_or(0);
    let next_deadline = if outcome.game_over {
        None
    } else {
        let acting = engine.acting_seats(&outcome.state)?;
        let deadline =
            open::open_turn(conn, game, turn.number + 1, &outcome.state, next_seq, &acting, now).await?;
        webhooks::orders_due(ctx, conn, game, turn.number + 1, &acting, deadline).await?;
        Some(deadline)
    };
    let current = if outcome.game_over { turn.number } else { turn.number + 1 };
    store::games::update_after_publish(conn, game.id, &outcome.state, next_seq, current, outcome.game_over)
        .await?;
    store::turns::set_published(conn, game.id, turn.number, now).await?;

    let orders = store::orders::latest_of_turn(conn, game.id, turn.number).await?;
    let seats = store::games::seats(conn, game.id).await?;
    let context = |seat: &store::games::SeatRow| reports::ReportContext {
        game,
        engine,
        turn: turn.number,
        outcome,
        orders: &orders,
        seats: &seats,
        next_deadline,
        // RULING P8: the report (mail and stored copy) holds the link's placeholder, filled when
        // the mail is sent and, on the seat page, with the reader's own link.
        reply_to: notices::ReplyTo::Seat { seat: seat.seat, generation: seat.token_generation },
        reopened: turn.reopened,
        first_seq: turn.first_seq,
    };
    // RULING O23: the drawings are drawn here, once per viewer (once for every seat of a game of
    // open information), and kept as SVG; nothing is rendered inside this transaction.
    let shared = match seats.first() {
        Some(first) if engine.open_information() => Some(reports::pictures(&context(first), Viewer::Public)?),
        _ => None,
    };
    let mut drawings: Vec<reports::Drawing> = shared.iter().flat_map(|(_, d)| d.clone()).collect();
    let mut mails = Vec::with_capacity(seats.len());
    for seat in &seats {
        let ctx_r = context(seat);
        let pictures = match &shared {
            Some((pictures, _)) => pictures.clone(),
            None => {
                let (pictures, drawn) = reports::pictures(&ctx_r, Viewer::Seat(seat.seat))?;
                drawings.extend(drawn);
                pictures
            }
        };
        mails.push((seat, reports::seat_report(&ctx_r, seat, &pictures)?));
    }
    drawings.sort_by_key(|(k, _)| *k);
    drawings.dedup_by_key(|(k, _)| *k);
    let kept: Vec<(DrawingKey, &str)> = drawings.iter().map(|(k, svg)| (*k, svg.as_str())).collect();
    pictures::keep(ctx, conn, &kept).await?;
    for (seat, (mut mail, archived_html)) in mails {
        // The next deadline goes into the player's calendar.
        mail.calendar = next_deadline.map(|d| deadlines::calendar(ctx, game, turn.number + 1, d, 0));
        let kept = reports::archived(turn.number, seat.seat, &mail, archived_html);
        store::games::insert_report(conn, game.id, &kept).await?;
        notices::queue(conn, &ctx.settings, &mail).await?;
    }
    let nmr: Vec<u8> = outcome.nmr.iter().map(|s| s.0).collect();
    let detail = json!({"turn": turn.number, "actions": outcome.actions.len(), "nmr": nmr,
        "game_over": outcome.game_over, "next_deadline": next_deadline});
    audit::record(conn, now, game.id, by, "turn published", detail).await?;
    nmr::announce_flags(ctx, conn, game, &flagged).await?;
    webhooks::published(ctx, conn, game, turn.number, outcome.game_over, turn.reopened).await?;
    tracing::info!(game.id = %game.id, turn.number = turn.number, game_over = outcome.game_over, "turn published");
    Ok(())
}
