//! The seats of an address, for a player's home and the `GAMES` mail (issue 37, RULING W53):
//! a seat belongs to the address it has now, so a replaced seat leaves its old address's list.

use super::games::{SEAT_COLUMNS, SeatRow};
use sqlx::PgConnection;

/// Whether the address has a seat in any game (addresses compared without case).
pub async fn has_seat(conn: &mut PgConnection, email: &str) -> sqlx::Result<bool> {
    sqlx::query_scalar("SELECT EXISTS (SELECT 1 FROM seats WHERE lower(email) = lower($1))")
        .bind(email)
        .fetch_one(conn)
        .await
}

/// Every seat the address has now, the games still played first, then the newest games first.
pub async fn seats_of(conn: &mut PgConnection, email: &str) -> sqlx::Result<Vec<SeatRow>> {
    let columns = SEAT_COLUMNS.split(", ").map(|c| format!("s.{c}")).collect::<Vec<_>>().join(", ");
    sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "SELECT {columns} FROM seats s JOIN games g ON g.id = s.game_id WHERE lower(s.email) = lower($1) \
         ORDER BY g.status = 'finished', g.created_at DESC, g.id, s.seat"
    )))
    .bind(email)
    .fetch_all(conn)
    .await
}
