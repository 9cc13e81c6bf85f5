//! Metrics (issue 19): the server's counters, gauges and histograms in the Prometheus text format,
//! through the `metrics` facade and its Prometheus exporter. The names live here, with the small
//! recording calls the rest of the server makes (one line at each place: web middleware, order
//! submission, mail processing, outbox delivery, adjudication, the scheduler pass), and the gauges
//! that describe the database (outbox, due turns, pool), set at each scrape. The listener that
//! answers `GET /metrics` on an address of its own (`--metrics-addr`), never on the public router,
//! is `crate::web::serve_metrics`, with the other listeners.
//!
//! Nothing is recorded until [`install`] is called (the facade's default recorder does nothing),
//! so a server without `--metrics-addr` pays nothing. Labels only ever carry words from closed
//! sets — route templates, methods, status codes, engine slugs, order channels, mail outcomes —
//! never a game id, address, token or path (RULING O6).

use crate::registry::{Adjudication, EngineError};
use ::metrics::{Unit, counter, describe_counter, describe_gauge, describe_histogram, gauge, histogram};
use axum::extract::{MatchedPath, Request};
use axum::middleware::Next;
use axum::response::Response;
use metrics_exporter_prometheus::{Matcher, PrometheusBuilder, PrometheusHandle};
use std::sync::OnceLock;
use std::time::Instant;

/// Requests answered, by route template, method and status.
pub const HTTP_REQUESTS: &str = "stationmaster_http_requests_total";
/// Time to answer a request, by route template, method and status.
pub const HTTP_DURATION: &str = "stationmaster_http_request_duration_seconds";
/// Order versions stored, by channel (web, api, mail, console, gm, gm_as_seat).
pub const ORDERS_STORED: &str = "stationmaster_orders_stored_total";
/// Statements the intake's short path ran (RULING W60).
pub const INTAKE_STATEMENTS: &str = "stationmaster_intake_statements_total";
/// The appends those statements carried: over [`INTAKE_STATEMENTS`], the mean batch size.
pub const INTAKE_APPENDS: &str = "stationmaster_intake_appends_total";
/// Inbound mails processed, by outcome (accepted, rejected, duplicate, ignored, dropped).
pub const MAILS_INGESTED: &str = "stationmaster_mails_ingested_total";
/// Outbox delivery attempts, by result (sent, retrying, given_up).
pub const OUTBOX_ATTEMPTS: &str = "stationmaster_outbox_attempts_total";
/// Mails waiting in the outbox (not sent, not given up), read at each scrape.
pub const OUTBOX_DEPTH: &str = "stationmaster_outbox_depth";
/// Mails whose delivery was given up and that were not sent, read at each scrape.
pub const OUTBOX_GIVEN_UP: &str = "stationmaster_outbox_given_up";
/// Age of the oldest mail waiting in the outbox (0 when none waits), read at each scrape.
pub const OUTBOX_OLDEST_AGE: &str = "stationmaster_outbox_oldest_undelivered_age_seconds";
/// Turns adjudicated, by engine and result (done, asked_gm, failed).
pub const TURNS_ADJUDICATED: &str = "stationmaster_turns_adjudicated_total";
/// Time the engine took to adjudicate a turn, by engine.
pub const ADJUDICATION_DURATION: &str = "stationmaster_adjudication_duration_seconds";
/// CPU time (of its thread) the engine took to adjudicate a turn, by engine (issue 38: under
/// load the duration counts the waits for a core too).
pub const ADJUDICATION_CPU: &str = "stationmaster_adjudication_cpu_seconds";
/// Histogram: how long rendering one kept drawing to PNG took (issue 38).
pub const DRAWING_RENDER: &str = "stationmaster_drawing_render_duration_seconds";
/// CPU time (of its thread) rendering one kept drawing to PNG took (issue 38).
pub const DRAWING_RENDER_CPU: &str = "stationmaster_drawing_render_cpu_seconds";
/// Gauge: the elements of drawings painted over their printed layer since the start, from a kept
/// raster (`from="kept"`) or rendered (`from="rendered"`) (issue 38, RULING O34).
pub const DRAWING_PIECES: &str = "stationmaster_drawing_pieces";
/// Time one scheduler pass took.
pub const SCHEDULER_PASS: &str = "stationmaster_scheduler_pass_duration_seconds";
/// How long the turn due longest has been due without being closed (0 when none), read at each
/// scrape.
pub const SCHEDULER_LAG: &str = "stationmaster_scheduler_lag_seconds";
/// Turns due now and not closed yet, read at each scrape.
pub const TURNS_DUE: &str = "stationmaster_turns_due";
/// Database connections of this process, by state (idle, in_use), read at each scrape.
pub const DB_CONNECTIONS: &str = "stationmaster_db_pool_connections";
/// The most database connections this process opens.
pub const DB_MAX_CONNECTIONS: &str = "stationmaster_db_pool_max_connections";

/// Histogram buckets of durations, in seconds: from a millisecond (a page) to two minutes (a
/// long 1835 turn, a scheduler pass over a storm of deadlines).
const DURATION_BUCKETS: [f64; 14] =
    [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 10.0, 30.0, 120.0];

static HANDLE: OnceLock<PrometheusHandle> = OnceLock::new();

/// Installs the Prometheus recorder as the process's recorder (once: later calls, and a process
/// where another recorder was installed first, get the same handle or an error) and describes
/// every metric. Returns the handle that renders the text format.
pub fn install() -> anyhow::Result<PrometheusHandle> {
    if let Some(h) = HANDLE.get() {
        return Ok(h.clone());
    }
    let recorder = PrometheusBuilder::new()
        .set_buckets_for_metric(Matcher::Suffix("_seconds".into()), &DURATION_BUCKETS)?
        .build_recorder();
    let handle = recorder.handle();
    // Two threads may race here: the loser's recorder is refused, and it takes the winner's.
    if ::metrics::set_global_recorder(recorder).is_err() {
        return HANDLE.get().cloned().ok_or_else(|| anyhow::anyhow!("another metrics recorder is installed"));
    }
    describe();
    Ok(HANDLE.get_or_init(|| handle).clone())
}

/// Whether [`install`] has run: recording calls that would cost work (labels built from a
/// request) are skipped before it.
pub fn enabled() -> bool {
    HANDLE.get().is_some()
}

fn describe() {
    describe_counter!(HTTP_REQUESTS, "Requests answered, by route template, method and status.");
    describe_histogram!(HTTP_DURATION, Unit::Seconds, "Time to answer a request.");
    describe_counter!(ORDERS_STORED, "Order versions stored, by channel.");
    describe_counter!(INTAKE_STATEMENTS, "Statements the intake's short path ran (each one commit).");
    describe_counter!(INTAKE_APPENDS, "Order versions the intake's short path offered to those statements.");
    describe_counter!(MAILS_INGESTED, "Inbound mails processed, by outcome.");
    describe_counter!(OUTBOX_ATTEMPTS, "Outbox delivery attempts, by result.");
    describe_gauge!(OUTBOX_DEPTH, "Mails waiting in the outbox (not sent, not given up).");
    describe_gauge!(OUTBOX_GIVEN_UP, "Mails whose delivery was given up.");
    describe_gauge!(OUTBOX_OLDEST_AGE, Unit::Seconds, "Age of the oldest mail waiting in the outbox.");
    describe_counter!(TURNS_ADJUDICATED, "Turns adjudicated, by engine and result.");
    describe_histogram!(ADJUDICATION_DURATION, Unit::Seconds, "Time the engine took to adjudicate a turn.");
    describe_histogram!(ADJUDICATION_CPU, Unit::Seconds, "CPU time the engine took to adjudicate a turn.");
    describe_histogram!(SCHEDULER_PASS, Unit::Seconds, "Time one scheduler pass took.");
    describe_histogram!(DRAWING_RENDER, Unit::Seconds, "Time rendering one kept drawing to PNG took.");
    describe_histogram!(
        DRAWING_RENDER_CPU,
        Unit::Seconds,
        "CPU time rendering one kept drawing to PNG took."
    );
    describe_gauge!(
        DRAWING_PIECES,
        "Elements of drawings painted over their printed layer since the start, from a kept raster or rendered."
    );
    describe_gauge!(SCHEDULER_LAG, Unit::Seconds, "How long the turn due longest has waited to be closed.");
    describe_gauge!(TURNS_DUE, "Turns due now and not closed yet.");
    describe_gauge!(DB_CONNECTIONS, "Database connections of this process, by state.");
    describe_gauge!(DB_MAX_CONNECTIONS, "The most database connections this process opens.");
}

/// Web middleware: counts each request and times it under its route template (`/play/{token}`,
/// never the path, which may hold a seat's secret token), its method and its status.
pub async fn track_requests(req: Request, next: Next) -> Response {
    if !enabled() {
        return next.run(req).await;
    }
    let route = req.extensions().get::<MatchedPath>().map_or("(no route)".to_string(), |m| m.as_str().into());
    let method = method_word(req.method());
    let started = Instant::now();
    let resp = next.run(req).await;
    let labels =
        [("route", route), ("method", method.into()), ("status", resp.status().as_u16().to_string())];
    counter!(HTTP_REQUESTS, &labels).increment(1);
    histogram!(HTTP_DURATION, &labels).record(started.elapsed().as_secs_f64());
    resp
}

/// The method as a label: one of the standard words, or `other` (a client may send any token).
fn method_word(m: &axum::http::Method) -> &'static str {
    match m.as_str() {
        "GET" => "GET",
        "HEAD" => "HEAD",
        "POST" => "POST",
        "PUT" => "PUT",
        "PATCH" => "PATCH",
        "DELETE" => "DELETE",
        "OPTIONS" => "OPTIONS",
        _ => "other",
    }
}

/// An order version was stored through `channel` (its `order_versions.source` word).
pub fn order_stored(channel: &'static str) {
    counter!(ORDERS_STORED, "channel" => channel).increment(1);
}

/// The intake's short path ran one statement carrying `appends` order versions (RULING W60).
pub fn intake_statement(appends: usize) {
    counter!(INTAKE_STATEMENTS).increment(1);
    counter!(INTAKE_APPENDS).increment(appends as u64);
}

/// An inbound mail was processed to `outcome` (its `inbound_messages.status` word, or `dropped`
/// for mail over the flood limits that is not kept at all).
pub fn mail_ingested(outcome: &'static str) {
    counter!(MAILS_INGESTED, "outcome" => outcome).increment(1);
}

/// One outbox delivery pass's attempts: mails sent, to be tried again, given up.
pub fn outbox_attempts(sent: usize, retrying: usize, given_up: usize) {
    for (result, n) in [("sent", sent), ("retrying", retrying), ("given_up", given_up)] {
        if n > 0 {
            counter!(OUTBOX_ATTEMPTS, "result" => result).increment(n as u64);
        }
    }
}

/// Runs an engine's adjudication of a turn, counting it by engine and result and timing it.
pub fn adjudication(
    engine: &str,
    run: impl FnOnce() -> Result<Adjudication, EngineError>,
) -> Result<Adjudication, EngineError> {
    let (started, cpu) = (Instant::now(), thread_cpu());
    let out = run();
    let used = thread_cpu().saturating_sub(cpu);
    let result = match &out {
        Ok(Adjudication::Done(_)) => "done",
        Ok(Adjudication::Ask(_)) => "asked_gm",
        Err(_) => "failed",
    };
    let engine = engine.to_string();
    histogram!(ADJUDICATION_DURATION, "engine" => engine.clone()).record(started.elapsed().as_secs_f64());
    histogram!(ADJUDICATION_CPU, "engine" => engine.clone()).record(used.as_secs_f64());
    counter!(TURNS_ADJUDICATED, "engine" => engine, "result" => result).increment(1);
    out
}

/// Renders a drawing (`render`), timing it.
pub fn drawing_render<T>(render: impl FnOnce() -> T) -> T {
    let (started, cpu) = (Instant::now(), thread_cpu());
    let out = render();
    histogram!(DRAWING_RENDER).record(started.elapsed().as_secs_f64());
    histogram!(DRAWING_RENDER_CPU).record(thread_cpu().saturating_sub(cpu).as_secs_f64());
    out
}

/// How many elements of drawings were painted from kept rasters and how many rendered so far
/// (RULING O34).
pub fn drawing_pieces(kept: u64, rendered: u64) {
    gauge!(DRAWING_PIECES, "from" => "kept").set(kept as f64);
    gauge!(DRAWING_PIECES, "from" => "rendered").set(rendered as f64);
}

/// The CPU time the calling thread has used so far (zero where the platform does not say).
#[cfg(all(target_os = "linux", target_env = "gnu"))]
pub fn thread_cpu() -> std::time::Duration {
    let mut ts = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: clock_gettime writes the timespec it is given and nothing else; the clock id is
    // one Linux always has.
    let ok = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) } == 0;
    let secs = u64::try_from(ts.tv_sec).unwrap_or(0);
    let nanos = u32::try_from(ts.tv_nsec).unwrap_or(0);
    if ok { std::time::Duration::new(secs, nanos) } else { std::time::Duration::ZERO }
}

/// The CPU time the calling thread has used so far (zero where the platform does not say).
#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
pub fn thread_cpu() -> std::time::Duration {
    std::time::Duration::ZERO
}

/// Times a scheduler pass: records its duration when dropped (also when the pass fails).
#[must_use = "the pass is timed until this is dropped"]
pub struct PassTimer(Instant);

/// Starts timing a scheduler pass.
pub fn scheduler_pass() -> PassTimer {
    PassTimer(Instant::now())
}

impl Drop for PassTimer {
    fn drop(&mut self) {
        histogram!(SCHEDULER_PASS).record(self.0.elapsed().as_secs_f64());
    }
}

/// Sets the gauges read from the database and the pool at a scrape (`web::serve_metrics`).
pub(crate) fn set_gauges(
    db: &crate::store::metrics::Snapshot,
    pool: &sqlx::PgPool,
    now: chrono::DateTime<chrono::Utc>,
) {
    let age = |at: Option<chrono::DateTime<chrono::Utc>>| {
        at.map_or(0.0, |at| (now - at).num_milliseconds().max(0) as f64 / 1000.0)
    };
    gauge!(OUTBOX_DEPTH).set(db.outbox_waiting as f64);
    gauge!(OUTBOX_GIVEN_UP).set(db.outbox_given_up as f64);
    gauge!(OUTBOX_OLDEST_AGE).set(db.oldest_waiting_secs.max(0.0));
    gauge!(TURNS_DUE).set(db.turns_due as f64);
    gauge!(SCHEDULER_LAG).set(age(db.due_since));
    let idle = pool.num_idle() as f64;
    gauge!(DB_CONNECTIONS, "state" => "idle").set(idle);
    gauge!(DB_CONNECTIONS, "state" => "in_use").set((f64::from(pool.size()) - idle).max(0.0));
    gauge!(DB_MAX_CONNECTIONS).set(f64::from(pool.options().get_max_connections()));
}

#[cfg(test)]
mod tests {
    use super::method_word;
    use axum::http::Method;

    #[test]
    fn a_request_method_outside_the_standard_words_is_labelled_other() {
        assert_eq!(method_word(&Method::GET), "GET");
        assert_eq!(method_word(&Method::OPTIONS), "OPTIONS");
        assert_eq!(method_word(&Method::from_bytes(b"SECRETabc123").unwrap()), "other");
    }
}
