//! Delivering chat notices (issue 16): the webhook outbox is drained after commit by a background
//! loop, like mail. Each notice is claimed under a lease (so two server processes never post it
//! twice at once), POSTed as Discord/Slack-compatible JSON to an address screened at that moment
//! ([`client`]), and then marked sent, retried later with a growing pause, or given up
//! (RULING W16). A notice is delivered at least once; chat services show a rare duplicate.

pub mod client;

use crate::service::{Ctx, Shutdown};
use crate::store;
use crate::store::webhooks::Attempt;
use anyhow::Context as _;
use chrono::{DateTime, TimeDelta, Utc};
use client::PostError;
use std::time::Duration;

/// Notices claimed per pass.
pub const BATCH: i64 = 20;
/// How long a claimed notice is held before another worker may take it.
pub const LEASE: TimeDelta = TimeDelta::seconds(120);
/// How long one POST may take.
pub const TIMEOUT: Duration = Duration::from_secs(15);
/// Attempts before a notice is given up (RULING W16).
pub const MAX_ATTEMPTS: i32 = 6;

/// What one pass did.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct PassStats {
    pub claimed: usize,
    pub sent: usize,
    pub retrying: usize,
    pub given_up: usize,
}

/// Delivers due notices every `tick` until `shutdown` is set (a POST under way is finished, so
/// no lease is left behind by a clean shutdown).
pub async fn run_worker(ctx: Ctx, tick: Duration, mut shutdown: Shutdown) {
    loop {
        let pause = match deliver_due_until(&ctx, Some(&shutdown)).await {
            Ok(s) if s.claimed as i64 >= BATCH => Duration::ZERO,
            Ok(_) => tick,
            Err(e) => {
                tracing::error!(error = %format!("{e:#}"), "webhook delivery pass failed");
                tick
            }
        };
        tokio::select! {
            biased;
            () = shutdown.wait() => break,
            () = tokio::time::sleep(pause) => {}
        }
    }
    tracing::info!("webhook worker stopped");
}

/// One pass: claims due notices and tries each once.
pub async fn deliver_due(ctx: &Ctx) -> anyhow::Result<PassStats> {
    deliver_due_until(ctx, None).await
}

/// [`deliver_due`], stopping before the next notice once `shutdown` is set: the notices claimed
/// and not tried are released (a clean stop leaves no lease behind).
pub async fn deliver_due_until(ctx: &Ctx, shutdown: Option<&Shutdown>) -> anyhow::Result<PassStats> {
    let mut conn = ctx.pool.acquire().await.context("no database connection")?;
    let due = store::webhooks::claim_due(&mut conn, ctx.now(), LEASE, BATCH)
        .await
        .context("claiming due webhook notices")?;
    let mut stats = PassStats { claimed: due.len(), ..PassStats::default() };
    for (i, n) in due.iter().enumerate() {
        if shutdown.is_some_and(Shutdown::is_set) {
            let rest: Vec<i64> = due[i..].iter().map(|n| n.id).collect();
            store::webhooks::release(&mut conn, &rest).await.context("releasing webhook notices")?;
            break;
        }
        let body = serde_json::to_vec(&payload(&n.text)).unwrap_or_default();
        let result = match url::Url::parse(&n.url) {
            Ok(url) => client::post_json(&url, body, ctx.settings.webhooks_allow_private, TIMEOUT).await,
            Err(_) => Err(PostError::Refused("the stored address is not a URL".into())),
        };
        let attempt = outcome(result, n.attempts, ctx.now());
        match &attempt {
            Attempt::Sent => stats.sent += 1,
            Attempt::Retry(..) => stats.retrying += 1,
            Attempt::GiveUp(why) => {
                stats.given_up += 1;
                tracing::warn!(game.id = %n.game_id, notice = n.id, reason = %why, "webhook notice given up");
            }
        }
        store::webhooks::record(&mut conn, n.id, ctx.now(), &attempt)
            .await
            .context("recording a webhook attempt")?;
    }
    Ok(stats)
}

/// The JSON both Discord (`content`) and Slack (`text`) read; each ignores the other's field.
pub fn payload(text: &str) -> serde_json::Value {
    serde_json::json!({ "content": text, "text": text, "username": "Stationmaster" })
}

/// What a POST's result means for the notice after `attempts` attempts (RULING W16): sent; given
/// up when the target refuses for good or after [`MAX_ATTEMPTS`]; else retried after 1, 5, 30
/// minutes, then 2 and 6 hours.
pub fn outcome(result: Result<(), PostError>, attempts: i32, now: DateTime<Utc>) -> Attempt {
    match result {
        Ok(()) => Attempt::Sent,
        Err(PostError::Refused(why)) => Attempt::GiveUp(why),
        Err(PostError::Failed(why)) if attempts >= MAX_ATTEMPTS => Attempt::GiveUp(why),
        Err(PostError::Failed(why)) => {
            let minutes = match attempts {
                ..=1 => 1,
                2 => 5,
                3 => 30,
                4 => 120,
                _ => 360,
            };
            Attempt::Retry(now + TimeDelta::minutes(minutes), why)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn now() -> DateTime<Utc> {
        DateTime::from_timestamp(1_800_000_000, 0).unwrap_or_default()
    }

    #[test]
    fn a_failed_post_is_retried_with_growing_pauses_then_given_up() {
        let failed = || Err(PostError::Failed("HTTP 503".into()));
        assert_eq!(
            outcome(failed(), 1, now()),
            Attempt::Retry(now() + TimeDelta::minutes(1), "HTTP 503".into())
        );
        assert_eq!(
            outcome(failed(), 3, now()),
            Attempt::Retry(now() + TimeDelta::minutes(30), "HTTP 503".into())
        );
        assert_eq!(outcome(failed(), MAX_ATTEMPTS, now()), Attempt::GiveUp("HTTP 503".into()));
    }

    #[test]
    fn a_refusing_target_is_given_up_at_once() {
        assert_eq!(
            outcome(Err(PostError::Refused("HTTP 404".into())), 1, now()),
            Attempt::GiveUp("HTTP 404".into())
        );
        assert_eq!(outcome(Ok(()), 1, now()), Attempt::Sent);
    }

    #[test]
    fn the_payload_carries_the_text_for_discord_and_slack() {
        let p = payload("turn 3 published");
        assert_eq!(p["content"], "turn 3 published");
        assert_eq!(p["text"], "turn 3 published");
    }
}
