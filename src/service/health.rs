//! Readiness (issue 19): whether this process should be sent work — the database answers, every
//! migration the binary carries is applied, and the scheduler's heartbeat is recent. Liveness
//! (`/healthz`) only says the process serves HTTP.

use super::Ctx;
use chrono::TimeDelta;

/// Why the server is not ready, in words an operator reads (no connection strings, no secrets).
pub async fn not_ready(ctx: &Ctx) -> Vec<String> {
    let r = match crate::store::readiness(&ctx.pool).await {
        Ok(r) => r,
        Err(e) => {
            tracing::warn!(error = %e, "readiness: the database does not answer");
            return vec!["the database does not answer".into()];
        }
    };
    let mut why = Vec::new();
    if r.migrations_missing > 0 {
        why.push(format!("{} database migration(s) not applied", r.migrations_missing));
    }
    // A pass every tick; three ticks (at least a minute) without one means the scheduler is
    // stuck or not running (RULING S22).
    let allowed = TimeDelta::seconds(i64::try_from(ctx.settings.tick_secs.max(1) * 3).unwrap_or(60).max(60));
    match r.heartbeat {
        None => why.push("the scheduler has not run yet".into()),
        Some(at) if ctx.now() - at > allowed => {
            why.push(format!("the scheduler's last pass was {} s ago", (ctx.now() - at).num_seconds()));
        }
        Some(_) => {}
    }
    why
}
