//! Chat notifications (issue 16): a player or the GM registers a Discord/Slack-compatible webhook
//! URL per game and is told "your orders are due" and "a turn was published" there. Notices are
//! queued in the transaction that caused them and delivered after commit (`crate::webhook`).
//!
//! What a notice says is public: the game's name, the turn, the deadline, the public game page.
//! A chat channel may be read by others, so no notice holds a seat's private link, hand or
//! orders (RULING W15).

use super::audit::{self, Actor};
use super::{Ctx, ServiceError, load_game};
use crate::domain::{GameId, WebhookUrl};
use crate::engine::Seat;
use crate::store;
use crate::store::games::GameRow;
use chrono::{DateTime, Utc};
use serde_json::json;
use sqlx::PgConnection;

/// Whose webhook: a seat's player or the GM.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HookOwner {
    Seat(Seat),
    Gm,
}

impl HookOwner {
    fn seat(self) -> Option<Seat> {
        match self {
            HookOwner::Seat(s) => Some(s),
            HookOwner::Gm => None,
        }
    }
}

/// Registers `raw` as the owner's webhook for the game (replacing one registered before), or
/// removes it when `raw` is blank. Returns the URL as it may be shown back (masked), or `None`
/// when removed. A URL that is not an acceptable webhook is refused with the reason and
/// changes nothing.
pub async fn set_hook(
    ctx: &Ctx,
    game: GameId,
    owner: HookOwner,
    actor: Actor<'_>,
    raw: &str,
) -> Result<Option<String>, ServiceError> {
    let mut tx = ctx.pool.begin().await?;
    load_game(&mut tx, game).await?;
    let now = ctx.now();
    let shown = if raw.trim().is_empty() {
        let removed = store::webhooks::remove(&mut tx, game, owner.seat()).await?;
        if removed {
            audit::record(&mut tx, now, game, actor, "chat webhook removed", json!({"seat": owner.seat()}))
                .await?;
        }
        None
    } else {
        let url = WebhookUrl::parse(raw, ctx.settings.webhooks_allow_private)
            .map_err(|e| ServiceError::BadInput(e.to_string()))?;
        let seat = match owner {
            HookOwner::Seat(s) => {
                let seats = store::games::seats(&mut tx, game).await?;
                let row = seats
                    .iter()
                    .find(|r| r.seat == s)
                    .ok_or_else(|| ServiceError::BadInput(format!("this game has no {s}")))?;
                Some((s, row.token_generation))
            }
            HookOwner::Gm => None,
        };
        store::webhooks::upsert(&mut tx, game, seat, url.expose().as_str(), now).await?;
        let detail = json!({"seat": owner.seat(), "url": url.masked()});
        audit::record(&mut tx, now, game, actor, "chat webhook set", detail).await?;
        Some(url.masked())
    };
    tx.commit().await?;
    Ok(shown)
}

/// The owner's webhook as it may be shown back (masked), if one is registered and in force.
pub async fn shown_hook(
    conn: &mut PgConnection,
    game: GameId,
    owner: HookOwner,
) -> Result<Option<String>, ServiceError> {
    let hooks = store::webhooks::in_force(conn, game).await?;
    // Stored URLs passed the screen when registered; here they are only masked.
    Ok(hooks
        .iter()
        .find(|h| h.seat == owner.seat())
        .and_then(|h| WebhookUrl::parse(&h.url, true).ok())
        .map(|u| u.masked()))
}

/// Queues "turn `number` is open" to the webhooks of the seats that must act in it.
pub(crate) async fn orders_due(
    ctx: &Ctx,
    conn: &mut PgConnection,
    game: &GameRow,
    number: i32,
    acting: &[Seat],
    deadline: DateTime<Utc>,
) -> Result<(), ServiceError> {
    let text = format!(
        "Stationmaster: turn {number} of \"{}\" is open; orders are due by {} UTC. {}",
        game.name,
        deadline.format("%Y-%m-%d %H:%M"),
        game_page(ctx, game.id)
    );
    let key = format!("due:{}:{number}:{}", game.id, deadline.timestamp());
    queue(ctx, conn, game.id, |owner| matches!(owner, Some(s) if acting.contains(&s)), &key, &text).await
}

/// Queues a reminder to the webhooks of `seats` (orders not yet final), keyed like the mail.
pub(crate) async fn reminder(
    ctx: &Ctx,
    conn: &mut PgConnection,
    game: &GameRow,
    number: i32,
    seats: &[Seat],
    deadline: DateTime<Utc>,
    key: &str,
) -> Result<(), ServiceError> {
    let text = format!(
        "Stationmaster: reminder — turn {number} of \"{}\" closes {} UTC and your orders are not final yet. {}",
        game.name,
        deadline.format("%Y-%m-%d %H:%M"),
        game_page(ctx, game.id)
    );
    queue(ctx, conn, game.id, |owner| matches!(owner, Some(s) if seats.contains(&s)), key, &text).await
}

/// Queues "turn `number` was published" to every webhook of the game (players and GM).
pub(crate) async fn published(
    ctx: &Ctx,
    conn: &mut PgConnection,
    game: &GameRow,
    number: i32,
    game_over: bool,
    reopened: i32,
) -> Result<(), ServiceError> {
    let over = if game_over { " The game is over." } else { "" };
    let text = format!(
        "Stationmaster: turn {number} of \"{}\" was published.{over} {}",
        game.name,
        game_page(ctx, game.id)
    );
    let key = format!("published:{}:{number}:{reopened}", game.id);
    queue(ctx, conn, game.id, |_| true, &key, &text).await
}

/// The public page of a game (never a seat's private link: a channel may be public).
fn game_page(ctx: &Ctx, game: GameId) -> String {
    format!("{}/games/{game}", ctx.settings.base())
}

/// Queues `text` to each webhook in force whose owner (`None`: the GM) `to` selects.
async fn queue(
    ctx: &Ctx,
    conn: &mut PgConnection,
    game: GameId,
    to: impl Fn(Option<Seat>) -> bool,
    key: &str,
    text: &str,
) -> Result<(), ServiceError> {
    let now = ctx.now();
    for hook in store::webhooks::in_force(conn, game).await?.iter().filter(|h| to(h.seat)) {
        store::webhooks::enqueue(conn, hook, game, key, text, now).await?;
    }
    Ok(())
}
