//! Station legality (FACTS §7.5; HR 5, HR 6, HR 8; RULINGS K28, K30): whether a company may
//! place a station token in a city, what it costs, and every legal placement. Pure: "one normal
//! token per turn", the treasury and the token count are the caller's business; `TokenLay`
//! tells it whether the token counts, whether it must wait for the token step (HR 6) and which
//! private closes (HR 5).

use super::graph::Graph;
use super::reach::reach;
use super::state::BoardState;
use crate::games::r1835::data::{Data, Phase, neighbour};
use std::collections::{BTreeMap, VecDeque};

/// How a token is placed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Via {
    /// The company's home station: free, no connection.
    Home,
    /// A normal token: 20 M per hex from home, connected to a station.
    Normal,
    /// A private's free station (NF on L14, PfB on L6): no connection, not counted.
    Private(usize),
}

/// A legal placement.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TokenLay {
    pub hex: String,
    /// Stop index in the hex's tile.
    pub stop: u8,
    /// The bank of a city with a ferry (brown Hamburg: 0 north, 1 south; HR 3, RULINGS K42).
    pub bank: u8,
    pub cost: i64,
    /// Counts as the turn's one normal token (FACTS §7.5).
    pub counts: bool,
    /// A private's token: allowed only in the company's token step (HR 6), when the game's
    /// option `nf_pfb_token_step_only` is on.
    pub token_step_only: bool,
    /// The private this placement closes (its power used: NF; HR 5: PfB's station on L6).
    pub closes: Option<String>,
}

/// Why a token is refused, naming the rule.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TokenError {
    #[error("{0} is not a hex of the map")]
    UnknownHex(String),
    #[error("{hex} has no city number {n}")]
    NotACity { hex: String, n: u8 },
    #[error("{company} already has a station in {hex}")]
    AlreadyThere { company: String, hex: String },
    #[error("the city in {hex} has no free circle{reserved}")]
    Full { hex: String, reserved: String },
    #[error("{hex} takes no station before the Badische's home station (house rule 8)")]
    BadenFirst { hex: String },
    #[error("{hex} city {n} is not the home of {company}")]
    NotHome { company: String, hex: String, n: u8 },
    #[error("{company} cannot reach {hex} from its stations by track not blocked by full cities")]
    NotConnected { company: String, hex: String },
    #[error("the {private} may place a station only in {hexes}")]
    WrongPrivateHex { private: String, hexes: String },
    #[error("the {private} places a station only once the Badische's home station is in L6")]
    PfalzbahnenTooEarly { private: String },
    #[error("{private} has no station power")]
    NoPower { private: String },
}

/// A company's home: hex and stop index (counted from 0).
pub fn home_of(data: &Data, company: &str) -> Option<(String, u8, bool)> {
    let majors = data.majors.iter().map(|m| (&m.id, &m.home, m.station, m.home_on_first_operation));
    let minors = data.minors.iter().map(|m| (&m.id, &m.home, m.station, false));
    majors.chain(minors).find(|m| m.0 == company).map(|m| (m.1.clone(), m.2.saturating_sub(1), m.3))
}

/// Hexes from `from` to `to` stepping across the map only (FACTS §7.5: "as the crow flies, but
/// staying inside the map"; the start hex is not counted).
pub fn map_distance(data: &Data, from: &str, to: &str) -> Option<u32> {
    let mut seen: BTreeMap<String, u32> = BTreeMap::from([(from.to_string(), 0)]);
    let mut queue = VecDeque::from([from.to_string()]);
    while let Some(at) = queue.pop_front() {
        let d = seen[&at];
        if at == to {
            return Some(d);
        }
        for n in (0..6).filter_map(|s| neighbour(&at, s)).filter(|n| data.hex(n).is_some()) {
            if !seen.contains_key(&n) {
                seen.insert(n.clone(), d + 1);
                queue.push_back(n);
            }
        }
    }
    None
}

/// Checks one placement (RR §19) and returns it with its cost.
pub fn check_token(
    data: &Data,
    board: &BoardState,
    phase: &Phase,
    company: &str,
    at: &str,
    stop: u8,
    via: Via,
) -> Result<TokenLay, TokenError> {
    let (_, tile, _) = board.tile_at(data, at).ok_or_else(|| TokenError::UnknownHex(at.into()))?;
    let city = tile
        .stops
        .get(usize::from(stop))
        .filter(|s| s.kind == "city")
        .ok_or_else(|| TokenError::NotACity { hex: at.into(), n: stop + 1 })?;
    let tokens = |hex: &str| board.tokens.get(hex).into_iter().flatten();
    if tokens(at).any(|t| t.company == company) {
        return Err(TokenError::AlreadyThere { company: company.into(), hex: at.into() });
    }
    let placed = |c: &str| board.tokens.values().flatten().any(|t| t.company == c);
    // Circles kept for homes not yet placed (RR §19.6); a hex that is the home of a company
    // placing its home in its first operating round takes no other token before it (RR §19.7,
    // HR 8; RULINGS K30).
    // Minors are all placed before the first operating round and the Prussian takes over M2's
    // circle, so only share companies wait.
    let waiting: Vec<(String, u8, bool)> = data
        .majors
        .iter()
        .filter(|m| !m.prussian && m.id != company && !placed(&m.id) && m.home == at)
        .map(|m| (m.id.clone(), m.station.saturating_sub(1), m.home_on_first_operation))
        .collect();
    if waiting.iter().any(|w| w.2) {
        return Err(TokenError::BadenFirst { hex: at.into() });
    }
    let reserved = u8::try_from(waiting.iter().filter(|w| w.1 == stop).count()).unwrap_or(u8::MAX);
    let used = u8::try_from(board.tokens_at(at, stop).count()).unwrap_or(u8::MAX);
    if used.saturating_add(reserved) >= city.slots {
        let reserved = if reserved > 0 {
            format!(" (one is kept for the home of {})", waiting[0].0)
        } else {
            String::new()
        };
        return Err(TokenError::Full { hex: at.into(), reserved });
    }
    let lay = |cost, counts, token_step_only, closes| TokenLay {
        hex: at.into(),
        stop,
        bank: 0,
        cost,
        counts,
        token_step_only,
        closes,
    };
    match via {
        Via::Home => match home_of(data, company) {
            Some((h, s, _)) if h == at && s == stop => Ok(lay(0, false, false, None)),
            _ => Err(TokenError::NotHome { company: company.into(), hex: at.into(), n: stop + 1 }),
        },
        Via::Normal => {
            let g = Graph::build(data, board, phase);
            let target = g.stops.iter().position(|s| s.hex == at && s.index == stop);
            let reached = target
                .and_then(|t| u16::try_from(t).ok())
                .is_some_and(|t| reach(&g, company).stops.contains(&t));
            if !reached {
                return Err(TokenError::NotConnected { company: company.into(), hex: at.into() });
            }
            let home = home_of(data, company).map(|h| h.0).unwrap_or_default();
            let cost = 20 * i64::from(map_distance(data, &home, at).unwrap_or(0));
            Ok(lay(cost, true, false, None))
        }
        Via::Private(p) => private_token(data, board, p, at).map(|closes| lay(0, false, true, closes)),
    }
}

/// A private's free station, and the private it closes: NF (`free_token`) on its hex; PfB (`tile_and_token`) on L6 once
/// BA's home station is there, closing the PfB (HR 5: whoever laid the tile).
fn private_token(data: &Data, board: &BoardState, p: usize, at: &str) -> Result<Option<String>, TokenError> {
    let private =
        data.privates.get(p).ok_or_else(|| TokenError::NoPower { private: format!("private {p}") })?;
    let power = private
        .power
        .as_ref()
        .filter(|w| ["free_token", "tile_and_token"].contains(&w.kind.as_str()))
        .ok_or_else(|| TokenError::NoPower { private: private.name.clone() })?;
    if !power.hexes.iter().any(|h| h == at) {
        return Err(TokenError::WrongPrivateHex {
            private: private.name.clone(),
            hexes: power.hexes.join(", "),
        });
    }
    // The NF's power is this one station: placing it uses the power up and closes the private.
    if power.kind == "free_token" {
        return Ok(Some(private.id.clone()));
    }
    let homes_here: Vec<&str> = data.majors.iter().filter(|m| m.home == at).map(|m| m.id.as_str()).collect();
    let home_there =
        board.tokens.get(at).into_iter().flatten().any(|t| homes_here.contains(&t.company.as_str()));
    if !home_there {
        return Err(TokenError::PfalzbahnenTooEarly { private: private.name.clone() });
    }
    Ok(Some(private.id.clone()))
}

/// Every legal placement of a company in this way.
pub fn legal_tokens(
    data: &Data,
    board: &BoardState,
    phase: &Phase,
    company: &str,
    via: Via,
) -> Vec<TokenLay> {
    let mut out = Vec::new();
    for hex in &data.hexes {
        let Some((_, tile, _)) = board.tile_at(data, &hex.at) else { continue };
        for stop in 0..tile.stops.len() {
            let stop = u8::try_from(stop).unwrap_or(u8::MAX);
            if let Ok(t) = check_token(data, board, phase, company, &hex.at, stop, via) {
                // A city across a river is placed on either bank (HR 3, RULINGS K42).
                let ferry = tile.stops.get(usize::from(stop)).is_some_and(|s| s.ferry.is_some());
                out.push(t.clone());
                if ferry {
                    out.push(TokenLay { bank: 1, ..t });
                }
            }
        }
    }
    out
}
