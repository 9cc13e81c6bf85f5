//! `stationmaster mail undelivered` and `mail resend`: a game's outgoing mail that did not
//! arrive, and sending it again (the same rows, the same Message-IDs; audit-logged); `mail
//! backlog`: the mail never sent, shown or given up before a server gets an SMTP server.

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

/// `mail backlog [--drop]`.
pub(super) async fn backlog(settings: Settings, drop: bool, json: bool) -> anyhow::Result<()> {
    let ctx = connect(settings).await?;
    if drop {
        let dropped = undelivered::drop_backlog(&ctx, CONSOLE).await?;
        let total: i64 = dropped.iter().map(|(_, n)| n).sum();
        let rows: Vec<_> = dropped
            .iter()
            .map(|(game, n)| serde_json::json!({"game": game.map(|g| g.to_string()), "mails": n}))
            .collect();
        print(&rows, json, |_| {
            format!(
                "Gave up {total} unsent mail{}; nothing of it will be sent (`mail resend --game G --all` queues a game's again).",
                if total == 1 { "" } else { "s" }
            )
        });
        return Ok(());
    }
    let (count, since) = undelivered::backlog(&ctx).await?;
    let row = serde_json::json!({"unsent": count, "oldest": since});
    print(&row, json, |_| match since {
        None => "No mail is waiting to be sent.".to_string(),
        Some(since) => format!(
            "{count} mail{} waiting to be sent, the oldest queued {}. A server with an SMTP server sends \
             them all; `stationmaster mail backlog --drop` gives them up instead.",
            if count == 1 { " is" } else { "s are" },
            since.format("%Y-%m-%d %H:%M UTC")
        ),
    });
    Ok(())
}
