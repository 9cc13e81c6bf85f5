//! For the order layer (HR 17): what a candidate tile lay would earn a company this turn, so
//! that lays can be ranked when a player's own lay is impossible.

use super::graph::Graph;
use super::revenue::{Optimum, optimal};
use super::state::{BoardError, BoardState};
use crate::games::r1835::data::{Data, Phase, TrainType};

/// The optimal revenue of a company's trains on the board with one more tile laid (the lay
/// itself is not checked for legality here).
pub fn revenue_with_tile(
    data: &Data,
    board: &BoardState,
    phase: &Phase,
    company: &str,
    trains: &[TrainType],
    lay: (&str, &str, u8),
) -> Result<Optimum, BoardError> {
    let mut after = board.clone();
    after.lay(data, lay.0, lay.1, lay.2)?;
    Ok(optimal(&Graph::build(data, &after, phase), company, trains))
}
