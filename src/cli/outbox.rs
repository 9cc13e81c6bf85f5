//! `stationmaster mail undelivered` and `mail resend`: a game's outgoing mail that did not
//! arrive, and sending it again (the same rows, the same Message-IDs; audit-logged).

use super::lifecycle::{CONSOLE, game_id};
use super::output::{InputError, print};
use super::serve::connect;
use crate::config::Settings;
use crate::domain::FailureKind;
use crate::service::undelivered;
use crate::service::undelivered::Undelivered;

fn lines(rows: &[Undelivered]) -> String {
    rows.iter()
        .map(|r| {
            let state = match (&r.gave_up_at, r.failure) {
                (Some(_), failure) => format!("given up ({})", failure.unwrap_or(FailureKind::Unreachable)),
                (None, _) => format!("retrying, next {}", r.next_attempt_at.format("%Y-%m-%d %H:%M UTC")),
            };
            let since =
                r.first_failed_at.map(|t| t.format("%Y-%m-%d %H:%M UTC").to_string()).unwrap_or_default();
            format!(
                "{:>6} {} \"{}\" attempts {} since {since}: {state}\n       {}",
                r.id,
                r.to_addr,
                r.subject,
                r.attempts,
                r.last_error.as_deref().unwrap_or_default()
            )
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// `mail undelivered --game G`.
pub(super) async fn list(settings: Settings, game: &str, json: bool) -> anyhow::Result<()> {
    let id = game_id(game)?;
    let ctx = connect(settings).await?;
    let mut conn = ctx.pool.acquire().await?;
    crate::service::load_game(&mut conn, id).await?; // an unknown game is an error, not "all sent"
    let rows = undelivered::of_game(&mut conn, id).await?;
    print(&rows, json, |rows| {
        if rows.is_empty() { "Every mail of this game went out.".into() } else { lines(rows) }
    });
    Ok(())
}

/// `mail resend --game G [--mail N | --all]`.
pub(super) async fn resend(
    settings: Settings,
    game: &str,
    mail: Option<i64>,
    all: bool,
    json: bool,
) -> anyhow::Result<()> {
    let id = game_id(game)?;
    if mail.is_some() == all {
        return Err(InputError("say which mail to re-send: --mail N, or --all".into()).into());
    }
    let ctx = connect(settings).await?;
    let rows = undelivered::resend(&ctx, id, CONSOLE, mail).await?;
    print(&rows, json, |rows| {
        format!(
            "Queued again ({} mail(s); a running server sends them within a tick):\n{}",
            rows.len(),
            lines(rows)
        )
    });
    Ok(())
}
