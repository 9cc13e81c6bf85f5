//! Cities as players number them (`PlaceToken.city`, counted from 1): the cities of a hex's tile
//! in the order of its stops, a city across a river counted once per bank — the brown Hamburg
//! (tile 221) is city 1 on the north bank of the Elbe (sides NE, E, NW) and city 2 on the south
//! bank (SE, SW, W). HR 3, RULINGS K22, K42.

use super::state::BoardState;
use super::stations::{TokenError, TokenLay, Via, check_token};
use crate::games::r1835::data::{Data, Phase};

/// The stop and bank of city number `city` (from 1) of a hex, as the board stands.
pub fn city_spot(data: &Data, board: &BoardState, at: &str, city: u8) -> Option<(u8, u8)> {
    let (_, tile, _) = board.tile_at(data, at)?;
    let mut spots = Vec::new();
    for (i, s) in tile.stops.iter().enumerate().filter(|(_, s)| s.kind == "city") {
        let stop = u8::try_from(i).ok()?;
        spots.push((stop, 0));
        if s.ferry.is_some() {
            spots.push((stop, 1));
        }
    }
    spots.get(usize::from(city.checked_sub(1)?)).copied()
}

/// The number players use for a stop and bank of a hex (the inverse of `city_spot`).
pub fn city_number(data: &Data, board: &BoardState, at: &str, stop: u8, bank: u8) -> Option<u8> {
    (1..=12u8).find(|n| city_spot(data, board, at, *n) == Some((stop, bank)))
}

/// Checks a station placed in city number `city` of a hex (`check_token` with the player's
/// numbering): on the brown Hamburg the company chooses the bank, and reaching the city suffices
/// — the ferry joins the banks and the three circles are shared (RULINGS K42).
pub fn check_token_city(
    data: &Data,
    board: &BoardState,
    phase: &Phase,
    company: &str,
    at: &str,
    city: u8,
    via: Via,
) -> Result<TokenLay, TokenError> {
    let (stop, bank) =
        city_spot(data, board, at, city).ok_or_else(|| TokenError::NotACity { hex: at.into(), n: city })?;
    check_token(data, board, phase, company, at, stop, via).map(|t| TokenLay { bank, ..t })
}
