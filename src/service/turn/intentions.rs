//! The stated intentions each seat has in force (HR 12, RULING S24): folded from the sheets it
//! played, turn by turn, so they last until withdrawn or replaced. They are derived, never stored
//! apart: a rollback, which deletes the later turns' orders, takes back what those turns stated.

use crate::domain::GameId;
use crate::engine::Seat;
use crate::orders::{Intentions, lasting};
use crate::registry::DynGame;
use crate::service::ServiceError;
use crate::store;
use sqlx::PgConnection;
use std::collections::BTreeMap;

/// The intentions in force per seat after the played sheets `played`, given in turn order.
pub(crate) fn fold<'a>(
    engine: &dyn DynGame,
    played: impl IntoIterator<Item = (Seat, &'a str)>,
) -> BTreeMap<Seat, Intentions> {
    let mut in_force: BTreeMap<Seat, Intentions> = BTreeMap::new();
    for (seat, body) in played {
        let lines = engine.lasting_lines(body);
        if !lines.is_empty() {
            lasting::apply(in_force.entry(seat).or_default(), &lines);
        }
    }
    in_force.retain(|_, i| !i.is_empty());
    in_force
}

/// The intentions in force per seat at the start of turn `turn`: stated on the sheets played
/// before it.
pub(crate) async fn in_force(
    conn: &mut PgConnection,
    engine: &dyn DynGame,
    game: GameId,
    turn: i32,
) -> Result<BTreeMap<Seat, Intentions>, ServiceError> {
    let played = store::orders::played_before(conn, game, turn).await?;
    Ok(fold(engine, played.iter().map(|p| (p.seat, p.body.as_str()))))
}

/// The intentions of one seat as its orders on file for turn `turn` leave them: those in force,
/// updated by its latest version of the turn (shown on its seat page).
pub(crate) async fn of_seat(
    conn: &mut PgConnection,
    engine: &dyn DynGame,
    game: GameId,
    turn: i32,
    seat: Seat,
) -> Result<Vec<String>, ServiceError> {
    let mut all = in_force(conn, engine, game, turn).await?;
    let mut mine = all.remove(&seat).unwrap_or_default();
    if let Some(latest) = store::orders::latest_of_seat(conn, game, turn, seat).await? {
        lasting::apply(&mut mine, &engine.lasting_lines(&latest.body));
    }
    Ok(mine.into_values().collect())
}
