//! Atom feeds (issue 16): following a game without mail. The game's feed carries each published
//! turn's public result (the events as everyone reads them, the standings once the game is over)
//! and is public like the game's page; a seat's feed carries that seat's own reports (public
//! result and what only the seat may see) and is reached only through the seat's secret link.

use super::{Ctx, SeatAuth, ServiceError, load_game};
use crate::domain::{GameId, TurnStatus};
use crate::engine::Viewer;
use crate::store;
use chrono::{DateTime, Utc};

/// A feed, newest entry first.
#[derive(Debug, Clone, PartialEq)]
pub struct Feed {
    /// A stable IRI naming the feed (never a secret link).
    pub id: String,
    pub title: String,
    /// The page the feed follows (the public game page, or the seat's page).
    pub link: String,
    pub updated: DateTime<Utc>,
    pub entries: Vec<FeedEntry>,
}

/// One published turn.
#[derive(Debug, Clone, PartialEq)]
pub struct FeedEntry {
    pub id: String,
    pub title: String,
    pub updated: DateTime<Utc>,
    /// Plain text (the template escapes it).
    pub content: String,
}

/// The public feed of a game: one entry per published turn.
pub async fn game_feed(ctx: &Ctx, game: GameId) -> Result<Feed, ServiceError> {
    let mut conn = ctx.pool.acquire().await?;
    let g = load_game(&mut conn, game).await?;
    let base = ctx.settings.base();
    let mut entries = Vec::new();
    for t in store::turns::turns_of_game(&mut conn, game).await? {
        let (Some(at), Some(lines)) = (t.published_at, public_account(&t)) else { continue };
        entries.push(FeedEntry {
            id: format!("{base}/games/{game}/turns/{}", t.number),
            title: format!("{}: turn {} result", g.name, t.number),
            updated: at,
            content: lines.join("\n"),
        });
    }
    Ok(finish(format!("{base}/games/{game}"), format!("{} — turn results", g.name), g.created_at, entries))
}

/// What happened in a published turn, as everyone may read it: its events' public parts, and the
/// final standings when the game ended with it. `None` for a turn not published (a draft is the
/// GM's alone).
pub(crate) fn public_account(t: &store::turns::TurnRow) -> Option<Vec<String>> {
    if t.status != TurnStatus::Published || t.published_at.is_none() {
        return None;
    }
    let outcome = &t.draft.as_ref()?.0;
    let mut lines: Vec<String> = outcome.events.iter().map(|e| e.text_for(Viewer::Public)).collect();
    if let Some(standings) = &outcome.standings {
        lines.push("Final standings:".into());
        lines.extend(standings.iter().map(|s| format!("{}. {} — {}", s.place, s.seat, s.score)));
    }
    Some(lines)
}

/// A seat's private feed: its own reports, as mailed.
pub async fn seat_feed(ctx: &Ctx, who: &SeatAuth, link: String) -> Result<Feed, ServiceError> {
    let mut conn = ctx.pool.acquire().await?;
    let g = load_game(&mut conn, who.game).await?;
    let published: Vec<(i32, DateTime<Utc>)> = store::turns::turns_of_game(&mut conn, who.game)
        .await?
        .into_iter()
        .filter_map(|t| t.published_at.map(|at| (t.number, at)))
        .collect();
    let entries = store::games::reports_of_seat(&mut conn, who.game, who.seat)
        .await?
        .into_iter()
        .filter_map(|r| {
            let at = published.iter().find(|(n, _)| *n == r.turn)?.1;
            Some(FeedEntry {
                id: format!("urn:stationmaster:{}:seat:{}:turn:{}", who.game, who.seat.0, r.turn),
                title: r.subject,
                updated: at,
                // RULING P8: the reader's own link in place of the placeholder.
                content: super::mail_secrets::with_link(&r.body_text, &link),
            })
        })
        .collect();
    let id = format!("urn:stationmaster:{}:seat:{}", who.game, who.seat.0);
    Ok(finish(id, format!("{} — your reports ({})", g.name, who.player_name), g.created_at, entries)
        .linked(link))
}

impl Feed {
    fn linked(mut self, link: String) -> Feed {
        self.link = link;
        self
    }
}

/// Newest first; the feed is as new as its newest entry (or the game).
fn finish(id: String, title: String, created: DateTime<Utc>, mut entries: Vec<FeedEntry>) -> Feed {
    entries.sort_by(|a, b| b.updated.cmp(&a.updated).then_with(|| b.id.cmp(&a.id)));
    let updated = entries.first().map_or(created, |e| e.updated);
    Feed { link: id.clone(), id, title, updated, entries }
}
