//! Order versions a page at a time: a seat's own versions (newest first) and a published turn's
//! versions (by seat; disclosed to each reader by `published`). Every list of order versions a player or visitor can ask for is bounded
//! by a page size and a size in bytes (RULING W1), so no answer grows with what a seat piles up.

use super::listings::VersionView;
use super::{SeatAuth, ServiceError, load_game};
use crate::domain::{GameId, TurnStatus};
use crate::engine::Seat;
use crate::store::orders::{OrderVersionRow, PageBound};
use crate::store::{self};
use sqlx::PgConnection;

/// Versions a seat may send for one turn (web, API and mail together). The GM's entries for a
/// seat are not limited (RULING W1).
pub const MAX_VERSIONS_PER_TURN: i64 = 50;
/// Versions on a page (the seat page, the API's lists) unless a smaller page is asked for.
pub const PAGE_SIZE: i64 = 10;
/// Text on a page at most (bodies, canonical forms and echoes; a page always holds one version):
/// a page of long orders holds fewer versions.
pub const PAGE_BYTES: i64 = 512 * 1024;

/// The bound of a page of at most `limit` versions.
pub fn bound(limit: i64) -> PageBound {
    PageBound { limit, bytes: PAGE_BYTES }
}

/// The largest page that may be asked for: [`PAGE_SIZE`].
pub fn page_size(asked: Option<i64>) -> Result<i64, ServiceError> {
    match asked {
        None => Ok(PAGE_SIZE),
        Some(n) if (1..=PAGE_SIZE).contains(&n) => Ok(n),
        Some(n) => Err(ServiceError::BadInput(format!("limit must be between 1 and {PAGE_SIZE}, not {n}"))),
    }
}

/// One page of order versions: as their seat sees them (`VersionView`), or, inside the service,
/// the stored rows of a published turn that only `published::disclose` may show.
#[derive(Debug)]
pub struct VersionPage<V = VersionView> {
    /// The turn the versions belong to.
    pub turn: i32,
    /// The versions on this page.
    pub versions: Vec<V>,
    /// How many versions there are in all.
    pub total: i64,
    /// The query that fetches the next page, if there is one (`?before=V` or `?after=S.V`).
    pub next: Option<String>,
}

/// A seat's versions for the current turn, newest first, older than version `before`.
pub async fn seat_orders(
    conn: &mut PgConnection,
    who: &SeatAuth,
    before: Option<i32>,
    limit: i64,
) -> Result<VersionPage, ServiceError> {
    let game = load_game(conn, who.game).await?;
    let (turn, seat) = (game.current_turn, who.seat);
    let versions = store::orders::page_of_seat(conn, who.game, turn, seat, before, bound(limit)).await?;
    let total = store::orders::count_of_seat(conn, who.game, turn, seat).await?;
    let next = match versions.last() {
        Some(last) if store::orders::count_older(conn, who.game, turn, seat, last.version).await? > 0 => {
            Some(format!("?before={}", last.version))
        }
        _ => None,
    };
    Ok(VersionPage { turn, versions: versions.into_iter().map(VersionView::from).collect(), total, next })
}

/// A page of a published turn's order versions as stored (text and salts: shown only through
/// `published::disclose`, never as they are) — only once the turn is published; before that,
/// sealed orders are nobody's business but their seat's. By seat and version, after `after`.
pub(super) async fn published_rows(
    conn: &mut PgConnection,
    game: GameId,
    turn: i32,
    after: Option<(Seat, i32)>,
    limit: i64,
) -> Result<VersionPage<OrderVersionRow>, ServiceError> {
    let t = store::turns::get_turn(conn, game, turn).await?.ok_or(ServiceError::TurnNotFound(game, turn))?;
    if t.status != TurnStatus::Published {
        return Err(ServiceError::Forbidden(format!(
            "the orders of turn {turn} are sealed until the turn is published"
        )));
    }
    let versions =
        store::orders::page_of_turn(conn, game, turn, after.unwrap_or((Seat(0), 0)), bound(limit)).await?;
    let total = store::orders::count_of_turn(conn, game, turn).await?;
    let next = match versions.last() {
        Some(last) if store::orders::count_later(conn, game, turn, (last.seat, last.version)).await? > 0 => {
            Some(format!("?after={}.{}", last.seat.0, last.version))
        }
        _ => None,
    };
    Ok(VersionPage { turn, versions, total, next })
}

/// Reads an `after` cursor (`S.V`, as [`VersionPage::next`] writes it).
pub fn parse_after(text: &str) -> Result<(Seat, i32), ServiceError> {
    let bad = || ServiceError::BadInput(format!("\"{text}\" is not a page cursor (seat.version)"));
    let (seat, version) = text.split_once('.').ok_or_else(bad)?;
    Ok((Seat(seat.parse().map_err(|_| bad())?), version.parse().map_err(|_| bad())?))
}
