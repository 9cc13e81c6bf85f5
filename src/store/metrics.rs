//! What the metrics read from the database at a scrape (issue 19): the outbox's depth and its
//! oldest waiting mail, and the turns due now that no scheduler has closed yet.

use super::turns::DUE;
use chrono::{DateTime, Utc};
use sqlx::PgConnection;

/// The database's side of a scrape.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Snapshot {
    /// Mails not sent and not given up.
    pub outbox_waiting: i64,
    /// Mails given up and not sent.
    pub outbox_given_up: i64,
    /// How long ago, in seconds, the oldest waiting mail was queued (0 when none waits). Its
    /// `created_at` is stamped by the database's clock, so the age is taken on that clock too.
    pub oldest_waiting_secs: f64,
    /// Open turns due at `now` (never those of paused games or held for the GM).
    pub turns_due: i64,
    /// Since when the turn due longest has been due.
    pub due_since: Option<DateTime<Utc>>,
}

/// When a turn that is [`DUE`] became due: its deadline (or, with a grace period, the moment the
/// last acting seat's first orders came in, at the latest the end of the grace period), or the
/// end of the cooling-off after every seat's orders were final, whichever came first (RULING O7).
const DUE_SINCE: &str = "LEAST( \
    CASE WHEN t.deadline > $1 THEN NULL \
         WHEN t.grace_secs = 0 THEN t.deadline \
         WHEN EXISTS (SELECT 1 FROM unnest(t.acting_seats) AS s(seat) WHERE NOT EXISTS ( \
              SELECT 1 FROM order_versions v WHERE v.game_id = t.game_id AND v.turn = t.number \
              AND v.seat = s.seat)) \
           THEN CASE WHEN t.deadline + make_interval(secs => t.grace_secs) <= $1 \
                THEN t.deadline + make_interval(secs => t.grace_secs) END \
         ELSE LEAST(t.deadline + make_interval(secs => t.grace_secs), GREATEST(t.deadline, ( \
              SELECT max(f.first) FROM (SELECT min(v.submitted_at) AS first FROM order_versions v \
              WHERE v.game_id = t.game_id AND v.turn = t.number AND v.seat = ANY(t.acting_seats) \
              GROUP BY v.seat) f))) END, \
    CASE WHEN t.all_final_at IS NOT NULL \
          AND t.all_final_at + make_interval(secs => g.cooling_off_secs) <= $1 \
         THEN t.all_final_at + make_interval(secs => g.cooling_off_secs) END)";

/// Reads the snapshot at `now`.
pub async fn snapshot(conn: &mut PgConnection, now: DateTime<Utc>) -> sqlx::Result<Snapshot> {
    let (outbox_waiting, outbox_given_up, oldest_waiting_secs): (i64, i64, f64) = sqlx::query_as(
        "SELECT count(*) FILTER (WHERE gave_up_at IS NULL), count(*) FILTER (WHERE gave_up_at IS NOT NULL), \
         COALESCE(EXTRACT(EPOCH FROM now() - min(created_at) FILTER (WHERE gave_up_at IS NULL))::float8, 0) \
         FROM outbox WHERE sent_at IS NULL",
    )
    .fetch_one(&mut *conn)
    .await?;
    let (turns_due, due_since): (i64, Option<DateTime<Utc>>) = sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "SELECT count(*), min({DUE_SINCE}) FROM turns t JOIN games g ON g.id = t.game_id WHERE {DUE}"
    )))
    .bind(now)
    .fetch_one(&mut *conn)
    .await?;
    Ok(Snapshot { outbox_waiting, outbox_given_up, oldest_waiting_secs, turns_due, due_since })
}
