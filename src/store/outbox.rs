//! The mail outbox: rows written in the transaction that caused them, delivered afterwards.

use chrono::{DateTime, TimeDelta, Utc};
use sqlx::PgConnection;
use uuid::Uuid;

/// A mail to queue.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewMail {
    /// Unique per logical mail, e.g. `report:<game>:<turn>:<seat>`; enqueueing it again is a no-op.
    pub idempotency_key: String,
    pub game_id: Option<Uuid>,
    /// e.g. "report", "welcome", "gm-login".
    pub kind: String,
    pub to_addr: String,
    pub to_name: Option<String>,
    pub subject: String,
    pub body_text: String,
    pub body_html: Option<String>,
    /// Our own Message-ID (without angle brackets), stable for the idempotency key.
    pub message_id: String,
    pub in_reply_to: Option<String>,
    /// Where replies should go (a seat's signed reply address), if not to the From address.
    pub reply_to: Option<String>,
    /// An iCalendar (text/calendar) attachment, for mails that announce a deadline.
    pub calendar: Option<String>,
}

/// A queued mail as stored.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct OutboxRow {
    pub id: i64,
    pub idempotency_key: String,
    pub game_id: Option<Uuid>,
    pub kind: String,
    pub to_addr: String,
    pub to_name: Option<String>,
    pub subject: String,
    pub body_text: String,
    pub body_html: Option<String>,
    pub message_id: String,
    pub in_reply_to: Option<String>,
    pub reply_to: Option<String>,
    pub calendar: Option<String>,
    pub created_at: DateTime<Utc>,
    pub attempts: i32,
    pub next_attempt_at: DateTime<Utc>,
    pub sent_at: Option<DateTime<Utc>>,
    pub last_error: Option<String>,
}

/// Queues a mail; returns false when a mail with the same idempotency key was already queued.
pub async fn enqueue(conn: &mut PgConnection, mail: &NewMail) -> sqlx::Result<bool> {
    let r = sqlx::query(
        "INSERT INTO outbox (idempotency_key, game_id, kind, to_addr, to_name, subject, body_text, \
         body_html, message_id, in_reply_to, reply_to, calendar) VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12) \
         ON CONFLICT (idempotency_key) DO NOTHING",
    )
    .bind(&mail.idempotency_key)
    .bind(mail.game_id)
    .bind(&mail.kind)
    .bind(&mail.to_addr)
    .bind(&mail.to_name)
    .bind(&mail.subject)
    .bind(&mail.body_text)
    .bind(&mail.body_html)
    .bind(&mail.message_id)
    .bind(&mail.in_reply_to)
    .bind(&mail.reply_to)
    .bind(&mail.calendar)
    .execute(conn)
    .await?;
    Ok(r.rows_affected() == 1)
}

/// The columns of [`OutboxRow`], in a form `concat!` accepts (sqlx wants `'static` SQL text).
macro_rules! row_columns {
    () => {
        "id, idempotency_key, game_id, kind, to_addr, to_name, subject, body_text, body_html, \
         message_id, in_reply_to, reply_to, calendar, created_at, attempts, next_attempt_at, sent_at, last_error"
    };
}

/// Claims up to `limit` mails that are due at `now` for one worker: each claimed row gets a lease
/// until `now + lease` and one more attempt counted, in a single statement.
///
/// Rows locked by a concurrent claim are skipped (`FOR UPDATE SKIP LOCKED`) and rows under an
/// unexpired lease are not due, so two workers never get the same row. A worker that dies
/// mid-send leaves its lease behind; once it expires the row is claimed again. Returned in
/// delivery order (`next_attempt_at`, then `id`).
pub async fn claim_due(
    conn: &mut PgConnection,
    now: DateTime<Utc>,
    lease: TimeDelta,
    limit: i64,
) -> sqlx::Result<Vec<OutboxRow>> {
    let mut rows: Vec<OutboxRow> = sqlx::query_as(concat!(
        "UPDATE outbox SET locked_until = $2, attempts = attempts + 1 WHERE id IN (\
           SELECT id FROM outbox WHERE sent_at IS NULL AND next_attempt_at <= $1 \
           AND (locked_until IS NULL OR locked_until < $1) \
           ORDER BY next_attempt_at, id LIMIT $3 FOR UPDATE SKIP LOCKED) \
         RETURNING ",
        row_columns!()
    ))
    .bind(now)
    .bind(now + lease)
    .bind(limit)
    .fetch_all(conn)
    .await?;
    rows.sort_by_key(|r| (r.next_attempt_at, r.id));
    Ok(rows)
}

/// Records that a mail was handed to the SMTP server at `now`; clears the lease and any earlier
/// error. Returns false when the row does not exist or was already marked sent.
pub async fn mark_sent(conn: &mut PgConnection, id: i64, now: DateTime<Utc>) -> sqlx::Result<bool> {
    let r = sqlx::query(
        "UPDATE outbox SET sent_at = $2, locked_until = NULL, last_error = NULL \
         WHERE id = $1 AND sent_at IS NULL",
    )
    .bind(id)
    .bind(now)
    .execute(conn)
    .await?;
    Ok(r.rows_affected() == 1)
}

/// Records a failed attempt at `now`: keeps `error` as `last_error`, clears the lease and makes
/// the mail due again at `next_attempt_at`. Returns false when the row does not exist or was
/// already sent.
pub async fn mark_failed(
    conn: &mut PgConnection,
    id: i64,
    now: DateTime<Utc>,
    error: &str,
    next_attempt_at: DateTime<Utc>,
) -> sqlx::Result<bool> {
    let r = sqlx::query(
        "UPDATE outbox SET last_error = $3, next_attempt_at = GREATEST($4, $2), locked_until = NULL \
         WHERE id = $1 AND sent_at IS NULL",
    )
    .bind(id)
    .bind(now)
    .bind(error)
    .bind(next_attempt_at)
    .execute(conn)
    .await?;
    Ok(r.rows_affected() == 1)
}

/// The newest `limit` mails, sent or not, newest first (for the dev mailbox page).
pub async fn list_recent(conn: &mut PgConnection, limit: i64) -> sqlx::Result<Vec<OutboxRow>> {
    sqlx::query_as(concat!("SELECT ", row_columns!(), " FROM outbox ORDER BY id DESC LIMIT $1"))
        .bind(limit)
        .fetch_all(conn)
        .await
}

/// One mail by id.
pub async fn get(conn: &mut PgConnection, id: i64) -> sqlx::Result<Option<OutboxRow>> {
    sqlx::query_as(concat!("SELECT ", row_columns!(), " FROM outbox WHERE id = $1"))
        .bind(id)
        .fetch_optional(conn)
        .await
}

/// How many mails have not been sent yet, including ones whose delivery was given up.
pub async fn pending_count(conn: &mut PgConnection) -> sqlx::Result<i64> {
    sqlx::query_scalar("SELECT count(*) FROM outbox WHERE sent_at IS NULL").fetch_one(conn).await
}
