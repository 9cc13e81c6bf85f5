//! Chat webhooks: one registered URL per seat (for the seat's current player) or for the GM of a
//! game, and their outbox — rows queued in the transaction that caused them, delivered after
//! commit by the webhook worker with leases and retries, like the mail outbox.

use crate::domain::GameId;
use crate::engine::Seat;
use chrono::{DateTime, TimeDelta, Utc};
use sqlx::PgConnection;

/// A registered webhook. `url` is its owner's secret: never shown or logged.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct WebhookRow {
    pub id: i64,
    /// `None`: the GM's.
    pub seat: Option<Seat>,
    pub url: String,
}

/// Registers (or replaces) the webhook of a seat's player (`seat` with the player's token
/// generation) or of the GM (`seat` `None`).
pub async fn upsert(
    conn: &mut PgConnection,
    game: GameId,
    seat: Option<(Seat, i32)>,
    url: &str,
    now: DateTime<Utc>,
) -> sqlx::Result<()> {
    sqlx::query(
        "INSERT INTO webhooks (game_id, seat, token_generation, url, created_at) VALUES ($1, $2, $3, $4, $5) \
         ON CONFLICT (game_id, COALESCE(seat, 0)) DO UPDATE \
         SET url = EXCLUDED.url, token_generation = EXCLUDED.token_generation, created_at = EXCLUDED.created_at",
    )
    .bind(game)
    .bind(seat.map(|(s, _)| s))
    .bind(seat.map_or(1, |(_, g)| g))
    .bind(url)
    .bind(now)
    .execute(conn)
    .await?;
    Ok(())
}

/// Removes a seat's (or the GM's) webhook; true when there was one. Its undelivered notices go
/// with it.
pub async fn remove(conn: &mut PgConnection, game: GameId, seat: Option<Seat>) -> sqlx::Result<bool> {
    let r = sqlx::query("DELETE FROM webhooks WHERE game_id = $1 AND COALESCE(seat, 0) = COALESCE($2, 0)")
        .bind(game)
        .bind(seat)
        .execute(conn)
        .await?;
    Ok(r.rows_affected() > 0)
}

/// The webhooks of a game that are in force: the GM's, and each seat's registered by the seat's
/// current player (a replaced player's hook stays silent).
pub async fn in_force(conn: &mut PgConnection, game: GameId) -> sqlx::Result<Vec<WebhookRow>> {
    sqlx::query_as(
        "SELECT w.id, w.seat, w.url FROM webhooks w WHERE w.game_id = $1 AND (w.seat IS NULL OR EXISTS \
         (SELECT 1 FROM seats s WHERE s.game_id = w.game_id AND s.seat = w.seat \
          AND s.token_generation = w.token_generation)) ORDER BY COALESCE(w.seat, 0)",
    )
    .bind(game)
    .fetch_all(conn)
    .await
}

/// Queues a notice to a webhook; false when one with the same key was already queued for it.
pub async fn enqueue(
    conn: &mut PgConnection,
    hook: &WebhookRow,
    game: GameId,
    key: &str,
    text: &str,
    now: DateTime<Utc>,
) -> sqlx::Result<bool> {
    let r = sqlx::query(
        "INSERT INTO webhook_outbox (idempotency_key, webhook_id, game_id, text, created_at, next_attempt_at) \
         VALUES ($1, $2, $3, $4, $5, $5) ON CONFLICT (webhook_id, idempotency_key) DO NOTHING",
    )
    .bind(key)
    .bind(hook.id)
    .bind(game)
    .bind(text)
    .bind(now)
    .execute(conn)
    .await?;
    Ok(r.rows_affected() > 0)
}

/// A queued notice claimed for delivery, with its target.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct DueNotice {
    pub id: i64,
    pub game_id: GameId,
    pub text: String,
    /// Attempts so far, this one included.
    pub attempts: i32,
    pub url: String,
}

/// Claims up to `limit` due notices for `lease` (another worker skips them until it runs out).
pub async fn claim_due(
    conn: &mut PgConnection,
    now: DateTime<Utc>,
    lease: TimeDelta,
    limit: i64,
) -> sqlx::Result<Vec<DueNotice>> {
    sqlx::query_as(
        "WITH c AS (UPDATE webhook_outbox SET leased_until = $2, attempts = attempts + 1 WHERE id IN \
           (SELECT id FROM webhook_outbox WHERE sent_at IS NULL AND gave_up_at IS NULL \
            AND next_attempt_at <= $1 AND (leased_until IS NULL OR leased_until <= $1) \
            ORDER BY id LIMIT $3 FOR UPDATE SKIP LOCKED) \
         RETURNING id, game_id, text, attempts, webhook_id) \
         SELECT c.id, c.game_id, c.text, c.attempts, w.url FROM c JOIN webhooks w ON w.id = c.webhook_id \
         ORDER BY c.id",
    )
    .bind(now)
    .bind(now + lease)
    .bind(limit)
    .fetch_all(conn)
    .await
}

/// What became of one delivery attempt.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Attempt {
    Sent,
    /// Try again at the given time; the error is kept (it never holds the URL).
    Retry(DateTime<Utc>, String),
    GiveUp(String),
}

/// Records an attempt's outcome and releases the lease.
pub async fn record(conn: &mut PgConnection, id: i64, now: DateTime<Utc>, a: &Attempt) -> sqlx::Result<()> {
    let (sent, next, gave_up, error) = match a {
        Attempt::Sent => (Some(now), None, None, None),
        Attempt::Retry(at, e) => (None, Some(*at), None, Some(e.as_str())),
        Attempt::GiveUp(e) => (None, None, Some(now), Some(e.as_str())),
    };
    sqlx::query(
        "UPDATE webhook_outbox SET leased_until = NULL, sent_at = $2, \
         next_attempt_at = COALESCE($3, next_attempt_at), gave_up_at = $4, last_error = COALESCE($5, last_error) \
         WHERE id = $1",
    )
    .bind(id)
    .bind(sent)
    .bind(next)
    .bind(gave_up)
    .bind(error)
    .execute(conn)
    .await?;
    Ok(())
}

/// Releases claimed notices not tried (a worker stopping): they are due again at once, and the
/// claim does not count as an attempt.
pub async fn release(conn: &mut PgConnection, ids: &[i64]) -> sqlx::Result<()> {
    sqlx::query(
        "UPDATE webhook_outbox SET leased_until = NULL, attempts = attempts - 1 \
         WHERE id = ANY($1) AND sent_at IS NULL AND gave_up_at IS NULL AND leased_until IS NOT NULL",
    )
    .bind(ids)
    .execute(conn)
    .await?;
    Ok(())
}

/// A queued notice as stored (for the GM's view and tests).
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct NoticeRow {
    pub id: i64,
    pub idempotency_key: String,
    pub seat: Option<Seat>,
    pub text: String,
    pub attempts: i32,
    pub sent_at: Option<DateTime<Utc>>,
    pub gave_up_at: Option<DateTime<Utc>>,
    pub last_error: Option<String>,
}

/// Every queued notice of a game, oldest first.
pub async fn notices_of_game(conn: &mut PgConnection, game: GameId) -> sqlx::Result<Vec<NoticeRow>> {
    sqlx::query_as(
        "SELECT o.id, o.idempotency_key, w.seat, o.text, o.attempts, o.sent_at, o.gave_up_at, o.last_error \
         FROM webhook_outbox o JOIN webhooks w ON w.id = o.webhook_id WHERE o.game_id = $1 ORDER BY o.id",
    )
    .bind(game)
    .fetch_all(conn)
    .await
}
