//! The mail outbox: rows written in the transaction that caused them, delivered afterwards. A
//! row holds no secret: a seat's link and reply address are placeholders, named by `seat` and
//! `token_generation` and filled when the mail is sent (RULING P8); a sent mail's body is
//! emptied after the retention period (RULING O9).

use crate::domain::GameId;
use crate::engine::Seat;
use chrono::{DateTime, TimeDelta, Utc};
use sqlx::PgConnection;
use uuid::Uuid;

/// A mail to queue.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewMail {
    /// Unique per logical mail, e.g. `report:<game>:<turn>:<seat>`; enqueueing it again is a no-op.
    pub idempotency_key: String,
    pub game_id: Option<GameId>,
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
    /// Where replies should go, if not to the From address: the placeholder of a signed reply
    /// address (`service::mail_secrets`), never the address itself.
    pub reply_to: Option<String>,
    /// The seat whose link and reply address the placeholders stand for (with `token_generation`).
    pub seat: Option<Seat>,
    pub token_generation: Option<i32>,
    /// An iCalendar (text/calendar) attachment, for mails that announce a deadline.
    pub calendar: Option<String>,
}

/// A queued mail as stored.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct OutboxRow {
    pub id: i64,
    pub idempotency_key: String,
    pub game_id: Option<GameId>,
    pub kind: String,
    pub to_addr: String,
    pub to_name: Option<String>,
    pub subject: String,
    pub body_text: String,
    pub body_html: Option<String>,
    pub message_id: String,
    pub in_reply_to: Option<String>,
    pub reply_to: Option<String>,
    /// The seat whose link and reply address the placeholders stand for (RULING P8).
    pub seat: Option<Seat>,
    pub token_generation: Option<i32>,
    pub calendar: Option<String>,
    pub created_at: DateTime<Utc>,
    pub attempts: i32,
    pub next_attempt_at: DateTime<Utc>,
    pub sent_at: Option<DateTime<Utc>>,
    pub last_error: Option<String>,
    /// The first failed attempt since the mail was queued or re-sent (ruling O1).
    pub first_failed_at: Option<DateTime<Utc>>,
    /// When delivery was given up (refused for good, unsendable, or past the horizon).
    pub gave_up_at: Option<DateTime<Utc>>,
    /// When the sent mail's body was emptied (RULING O9).
    pub body_purged_at: Option<DateTime<Utc>>,
}

/// Queues a mail; returns false when a mail with the same idempotency key was already queued.
pub async fn enqueue(conn: &mut PgConnection, mail: &NewMail) -> sqlx::Result<bool> {
    let r = sqlx::query(
        "INSERT INTO outbox (idempotency_key, game_id, kind, to_addr, to_name, subject, body_text, \
         body_html, message_id, in_reply_to, reply_to, calendar, seat, token_generation) \
         VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12,$13,$14) ON CONFLICT (idempotency_key) DO NOTHING",
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
    .bind(mail.seat)
    .bind(mail.token_generation)
    .execute(conn)
    .await?;
    Ok(r.rows_affected() == 1)
}

/// The columns of [`OutboxRow`], in a form `concat!` accepts (sqlx wants `'static` SQL text).
macro_rules! row_columns {
    () => {
        "id, idempotency_key, game_id, kind, to_addr, to_name, subject, body_text, body_html, \
         message_id, in_reply_to, reply_to, seat, token_generation, calendar, created_at, attempts, \
         next_attempt_at, sent_at, last_error, first_failed_at, gave_up_at, body_purged_at"
    };
}

/// Claims up to `limit` mails that are due at `now` for the worker `owner`: each claimed row gets
/// a lease until `now + lease` and one more attempt counted, in a single statement.
///
/// Rows locked by a concurrent claim are skipped (`FOR UPDATE SKIP LOCKED`) and rows under an
/// unexpired lease are not due, so two workers never get the same row. A worker that dies
/// mid-send leaves its lease behind; once it expires the row is claimed again. Mail whose
/// delivery was given up is never claimed. Returned in delivery order (`next_attempt_at`, `id`).
pub async fn claim_due(
    conn: &mut PgConnection,
    now: DateTime<Utc>,
    lease: TimeDelta,
    limit: i64,
    owner: Uuid,
) -> sqlx::Result<Vec<OutboxRow>> {
    let mut rows: Vec<OutboxRow> = sqlx::query_as(concat!(
        "UPDATE outbox SET locked_until = $2, claimed_by = $4, attempts = attempts + 1 WHERE id IN (\
           SELECT id FROM outbox WHERE sent_at IS NULL AND gave_up_at IS NULL AND next_attempt_at <= $1 \
           AND (locked_until IS NULL OR locked_until < $1) \
           ORDER BY next_attempt_at, id LIMIT $3 FOR UPDATE SKIP LOCKED) \
         RETURNING ",
        row_columns!()
    ))
    .bind(now)
    .bind(now + lease)
    .bind(limit)
    .bind(owner)
    .fetch_all(conn)
    .await?;
    rows.sort_by_key(|r| (r.next_attempt_at, r.id));
    Ok(rows)
}

/// Extends the lease of those of `ids` that `owner` still holds and has not finished (sent or
/// failed) to `until`; returns how many it extended. A worker calls it while it sends, so its
/// lease can be short: the rows of a worker that died come back soon (ruling O4).
pub async fn renew_lease(
    conn: &mut PgConnection,
    ids: &[i64],
    owner: Uuid,
    until: DateTime<Utc>,
) -> sqlx::Result<u64> {
    let r = sqlx::query(
        "UPDATE outbox SET locked_until = $3 WHERE id = ANY($1) AND claimed_by = $2 \
         AND sent_at IS NULL AND locked_until IS NOT NULL",
    )
    .bind(ids)
    .bind(owner)
    .bind(until)
    .execute(conn)
    .await?;
    Ok(r.rows_affected())
}

/// Records that a mail was handed to the SMTP server at `now`; clears the lease and any earlier
/// error. Returns false when the row does not exist or was already marked sent.
pub async fn mark_sent(conn: &mut PgConnection, id: i64, now: DateTime<Utc>) -> sqlx::Result<bool> {
    let r = sqlx::query(
        "UPDATE outbox SET sent_at = $2, locked_until = NULL, claimed_by = NULL \
         WHERE id = $1 AND sent_at IS NULL",
    )
    .bind(id)
    .bind(now)
    .execute(conn)
    .await?;
    Ok(r.rows_affected() == 1)
}

/// Why an attempt failed (ruling O1): a domain enum, re-exported where delivery code looks.
pub use crate::domain::FailureKind;

/// Records a failed attempt at `now`: keeps `error` as `last_error` and `kind` as `failure`,
/// remembers the first failure, clears the lease, and makes the mail due again at `retry_at`,
/// or gives it up when that is `None`. Returns false when the row does not exist or was already
/// sent.
pub async fn mark_failed(
    conn: &mut PgConnection,
    id: i64,
    now: DateTime<Utc>,
    error: &str,
    kind: FailureKind,
    retry_at: Option<DateTime<Utc>>,
) -> sqlx::Result<bool> {
    let r = sqlx::query(
        "UPDATE outbox SET last_error = $3, failure = $4, first_failed_at = COALESCE(first_failed_at, $2), \
         next_attempt_at = GREATEST(COALESCE($5, $2), $2), gave_up_at = CASE WHEN $5 IS NULL THEN $2 END, \
         locked_until = NULL, claimed_by = NULL WHERE id = $1 AND sent_at IS NULL",
    )
    .bind(id)
    .bind(now)
    .bind(error)
    .bind(kind)
    .bind(retry_at)
    .execute(conn)
    .await?;
    Ok(r.rows_affected() == 1)
}

/// Once the SMTP server has accepted a mail again, mail that waits only because the server could
/// not be reached is due at once rather than at the end of its backoff (ruling O1); deferred mail
/// (greylisting, a full mailbox) keeps its backoff. Returns how many rows moved.
pub async fn hurry_after_outage(conn: &mut PgConnection, now: DateTime<Utc>) -> sqlx::Result<u64> {
    let r = sqlx::query(
        "UPDATE outbox SET next_attempt_at = $1 WHERE sent_at IS NULL AND gave_up_at IS NULL \
         AND failure = 'unreachable' AND next_attempt_at > $1",
    )
    .bind(now)
    .execute(conn)
    .await?;
    Ok(r.rows_affected())
}

/// Empties the body (text, HTML, calendar) of up to `limit` mails sent before `before`, marking
/// them purged at `now`; mail not sent (waiting, retrying or given up) keeps its body for a
/// re-send. Returns how many were emptied (RULING O9).
pub async fn purge_sent_bodies(
    conn: &mut PgConnection,
    before: DateTime<Utc>,
    now: DateTime<Utc>,
    limit: i64,
) -> sqlx::Result<u64> {
    let r = sqlx::query(
        "UPDATE outbox SET body_text = '', body_html = NULL, calendar = NULL, body_purged_at = $2 \
         WHERE id IN (SELECT id FROM outbox WHERE sent_at < $1 AND body_purged_at IS NULL \
         ORDER BY sent_at LIMIT $3 FOR UPDATE SKIP LOCKED)",
    )
    .bind(before)
    .bind(now)
    .bind(limit)
    .execute(conn)
    .await?;
    Ok(r.rows_affected())
}

/// Whether any mail waits only because the SMTP server could not be reached.
pub async fn waits_for_server(conn: &mut PgConnection) -> sqlx::Result<bool> {
    sqlx::query_scalar(
        "SELECT EXISTS (SELECT 1 FROM outbox WHERE sent_at IS NULL AND gave_up_at IS NULL \
         AND failure = 'unreachable')",
    )
    .fetch_one(conn)
    .await
}

/// The newest `limit` mails, sent or not, newest first (for the dev mailbox page).
pub async fn list_recent(conn: &mut PgConnection, limit: i64) -> sqlx::Result<Vec<OutboxRow>> {
    sqlx::query_as(concat!("SELECT ", row_columns!(), " FROM outbox ORDER BY id DESC LIMIT $1"))
        .bind(limit)
        .fetch_all(conn)
        .await
}

/// The mails of one kind not yet sent nor given up (sign-in mails at a key rotation).
pub async fn unsent_of_kind(conn: &mut PgConnection, kind: &str) -> sqlx::Result<Vec<OutboxRow>> {
    sqlx::query_as(concat!(
        "SELECT ",
        row_columns!(),
        " FROM outbox WHERE kind = $1 AND sent_at IS NULL AND gave_up_at IS NULL ORDER BY id"
    ))
    .bind(kind)
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

/// A mail that failed at least once and has not been delivered, as the GM sees it: never the
/// body, which may hold a seat's private hand.
#[derive(Debug, Clone, sqlx::FromRow, serde::Serialize)]
pub struct Undelivered {
    pub id: i64,
    pub game_id: Option<GameId>,
    pub kind: String,
    pub to_addr: String,
    pub subject: String,
    pub attempts: i32,
    pub last_error: Option<String>,
    /// Since when it fails (the first failure since it was queued or re-sent).
    pub first_failed_at: Option<DateTime<Utc>>,
    /// `unreachable`, `deferred`, `refused` or `unsendable`.
    pub failure: Option<FailureKind>,
    pub next_attempt_at: DateTime<Utc>,
    pub gave_up_at: Option<DateTime<Utc>>,
    /// Set when the mail went out after all (only in GM summaries: delivered late).
    pub sent_at: Option<DateTime<Utc>>,
}

macro_rules! undelivered_columns {
    () => {
        "id, game_id, kind, to_addr, subject, attempts, last_error, first_failed_at, failure, \
         next_attempt_at, gave_up_at, sent_at"
    };
}

/// A game's mail that failed and is still undelivered (retrying or given up), oldest first.
pub async fn undelivered_of_game(
    conn: &mut PgConnection,
    game: GameId,
    limit: i64,
) -> sqlx::Result<Vec<Undelivered>> {
    sqlx::query_as(concat!(
        "SELECT ",
        undelivered_columns!(),
        " FROM outbox WHERE game_id = $1 AND sent_at IS NULL AND first_failed_at IS NOT NULL \
         ORDER BY id LIMIT $2"
    ))
    .bind(game)
    .bind(limit)
    .fetch_all(conn)
    .await
}

/// Queues a game's undelivered mail again at `now` — one mail (`only`) or all of it: the give-up
/// is lifted and the horizon starts over; attempts and the last error stay for the record.
/// Mail under a worker's lease is left alone (it is being sent). Returns the rows queued again.
pub async fn resend(
    conn: &mut PgConnection,
    game: GameId,
    only: Option<i64>,
    now: DateTime<Utc>,
) -> sqlx::Result<Vec<Undelivered>> {
    sqlx::query_as(concat!(
        "UPDATE outbox SET next_attempt_at = $3, gave_up_at = NULL, first_failed_at = NULL, failure = NULL, \
         gm_notified_at = NULL WHERE game_id = $1 AND ($2::bigint IS NULL OR id = $2) AND sent_at IS NULL \
         AND first_failed_at IS NOT NULL AND (locked_until IS NULL OR locked_until < $3) RETURNING ",
        undelivered_columns!()
    ))
    .bind(game)
    .bind(only)
    .bind(now)
    .fetch_all(conn)
    .await
}

/// Takes the mail its GM has not been told about yet and should be, marking it told at `now`
/// (ruling O3; mail that went out after a shorter hiccup is marked too, with nothing to tell): mail of a game (not itself a GM summary) that failed and was given up, or has
/// been failing for at least `delay` (delivered late counts, up to its delivery) — and only once
/// the SMTP server has worked after the failure (it refused this mail, or accepted another one
/// since). Rows another worker is taking are skipped. Oldest first.
pub async fn take_untold(
    conn: &mut PgConnection,
    now: DateTime<Utc>,
    delay: TimeDelta,
    summary_kind: &str,
) -> sqlx::Result<Vec<Undelivered>> {
    // Mail that went out after a hiccup shorter than `delay` has nothing to tell: settle it, so
    // the rows still to consider stay few (the partial index `outbox_untold`).
    sqlx::query(
        "UPDATE outbox SET gm_notified_at = $1 WHERE first_failed_at IS NOT NULL AND gm_notified_at IS NULL \
         AND sent_at IS NOT NULL AND sent_at - first_failed_at < $2",
    )
    .bind(now)
    .bind(delay)
    .execute(&mut *conn)
    .await?;
    let mut rows: Vec<Undelivered> = sqlx::query_as(concat!(
        "UPDATE outbox SET gm_notified_at = $1 WHERE id IN (\
           SELECT o.id FROM outbox o WHERE o.first_failed_at IS NOT NULL AND o.gm_notified_at IS NULL \
           AND o.game_id IS NOT NULL AND o.kind <> $3 \
           AND (o.gave_up_at IS NOT NULL OR COALESCE(o.sent_at, $1) - o.first_failed_at >= $2) \
           AND (o.failure = 'refused' OR o.sent_at IS NOT NULL \
                OR (SELECT max(s.sent_at) FROM outbox s) > o.first_failed_at) \
           ORDER BY o.id FOR UPDATE SKIP LOCKED) RETURNING ",
        undelivered_columns!()
    ))
    .bind(now)
    .bind(delay)
    .bind(summary_kind)
    .fetch_all(conn)
    .await?;
    rows.sort_by_key(|r| r.id);
    Ok(rows)
}

/// The mail that has never been sent and is still to be tried (not given up): how many, and
/// when the oldest was queued — what a server about to be given an SMTP server would send.
pub async fn backlog(conn: &mut PgConnection) -> sqlx::Result<(i64, Option<DateTime<Utc>>)> {
    sqlx::query_as(
        "SELECT count(*), min(created_at) FROM outbox WHERE sent_at IS NULL AND gave_up_at IS NULL",
    )
    .fetch_one(conn)
    .await
}

/// Gives up every mail still waiting to be sent, at `now`, with `reason` as its last error — the
/// operator's `mail backlog --drop` before a dev database gets an SMTP server. The GMs are not
/// told (the operator decided it); a game's given-up mail can still be re-sent with
/// `mail resend`. Mail a worker is sending right now (under its lease) is left to it. Returns how
/// many mails each game lost (`None`: mail of no game).
pub async fn drop_backlog(
    conn: &mut PgConnection,
    now: DateTime<Utc>,
    reason: &str,
) -> sqlx::Result<Vec<(Option<GameId>, i64)>> {
    sqlx::query_as(
        "WITH dropped AS (UPDATE outbox SET gave_up_at = $1, failure = 'unsendable', last_error = $2, \
           first_failed_at = COALESCE(first_failed_at, $1), gm_notified_at = $1 \
           WHERE sent_at IS NULL AND gave_up_at IS NULL AND (locked_until IS NULL OR locked_until < $1) \
           RETURNING game_id) \
         SELECT game_id, count(*) FROM dropped GROUP BY game_id ORDER BY game_id NULLS FIRST",
    )
    .bind(now)
    .bind(reason)
    .fetch_all(conn)
    .await
}
