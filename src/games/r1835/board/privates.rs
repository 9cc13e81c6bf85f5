//! The private companies' free tiles (FACTS §3; RULINGS K27, K43): OBB's yellow tiles on M15
//! and M17, PfB's tile on L6. They need no connection and cost no terrain, but keep every other
//! rule of a lay: the manifest, the colour of the power, the phase's colours, the upgrade chart
//! and label, old track kept, HR 7. Which operating round may use which hex (OBB: one hex per
//! round) and when the private closes are the caller's business.

use super::state::BoardState;
use super::track::{Lay, LayError, check_rotation, check_tile, lays_on};
use crate::games::r1835::data::{Data, Phase, Power};

/// The tile power of a private (`free_tiles`, `tile_and_token`).
fn tile_power(data: &Data, private: usize) -> Result<(&str, &Power), LayError> {
    let p = data.privates.get(private).ok_or_else(|| LayError::NoTilePower(format!("private {private}")))?;
    let power = p
        .power
        .as_ref()
        .filter(|w| ["free_tiles", "tile_and_token"].contains(&w.kind.as_str()))
        .ok_or_else(|| LayError::NoTilePower(p.name.clone()))?;
    Ok((p.name.as_str(), power))
}

/// Checks a private's free lay and returns it at no cost (RULINGS K43).
pub fn check_private_lay(
    data: &Data,
    board: &BoardState,
    phase: &Phase,
    private: usize,
    (at, tile, rotation): (&str, &str, u8),
) -> Result<Lay, LayError> {
    let (name, power) = tile_power(data, private)?;
    if !power.hexes.iter().any(|h| h == at) {
        return Err(LayError::WrongPrivateHex { private: name.into(), hexes: power.hexes.join(", ") });
    }
    let site = check_tile(data, board, phase, at, tile)?;
    if let Some(colour) = power.colour.as_ref().filter(|c| **c != site.new.colour) {
        return Err(LayError::WrongPrivateColour { private: name.into(), colour: colour.clone() });
    }
    let lay = check_rotation(data, board, &site, rotation)?;
    Ok(Lay { cost: 0, ..lay })
}

/// Every free lay a private allows on the board in a phase, one per different track.
pub fn legal_private_lays(data: &Data, board: &BoardState, phase: &Phase, private: usize) -> Vec<Lay> {
    let Ok((_, power)) = tile_power(data, private) else { return Vec::new() };
    power
        .hexes
        .iter()
        .flat_map(|at| {
            lays_on(data, board, phase, at, |site, _| {
                power.colour.as_ref().is_none_or(|c| *c == site.new.colour)
            })
        })
        .map(|lay| Lay { cost: 0, ..lay })
        .collect()
}
