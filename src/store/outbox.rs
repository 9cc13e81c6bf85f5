//! The mail outbox: rows written in the transaction that caused them, delivered afterwards.

use chrono::{DateTime, Utc};
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
         body_html, message_id, in_reply_to) VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10) \
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
    .execute(conn)
    .await?;
    Ok(r.rows_affected() == 1)
}

const ROW_COLUMNS: &str = "id, idempotency_key, game_id, kind, to_addr, to_name, subject, body_text, body_html, \
    message_id, in_reply_to, created_at, attempts, next_attempt_at, sent_at, last_error";

/// The most recent mails, newest first (for the dev mailbox page).
pub async fn list_recent(conn: &mut PgConnection, limit: i64) -> sqlx::Result<Vec<OutboxRow>> {
    sqlx::query_as(sqlx::AssertSqlSafe(format!("SELECT {ROW_COLUMNS} FROM outbox ORDER BY id DESC LIMIT $1")))
        .bind(limit)
        .fetch_all(conn)
        .await
}

/// One mail by id.
pub async fn get(conn: &mut PgConnection, id: i64) -> sqlx::Result<Option<OutboxRow>> {
    sqlx::query_as(sqlx::AssertSqlSafe(format!("SELECT {ROW_COLUMNS} FROM outbox WHERE id = $1")))
        .bind(id)
        .fetch_optional(conn)
        .await
}
