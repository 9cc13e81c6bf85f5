//! Declared routes and revenues: a player's routes checked against the rules of FACTS §10, with
//! a typed error naming the route and the rule broken, and the claim of a revenue against the
//! maximum (RULINGS K21).

use super::graph::{End, Graph, StopKind};
use super::revenue::{Optimum, best_disjoint, optimal};
use super::route::{Bits, fits, route_value};
use crate::games::r1835::data::TrainType;
use std::str::FromStr;

/// A stop named by a player: the hex, and the number of the stop where the hex has several
/// (`E19.2`, counted from 1 in the tile's order).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StopRef {
    pub hex: String,
    pub n: Option<u8>,
}

impl FromStr for StopRef {
    type Err = String;
    fn from_str(s: &str) -> Result<StopRef, String> {
        let s = s.trim().to_ascii_uppercase();
        let (hex, n) = match s.split_once('.') {
            Some((h, n)) => {
                (h.to_string(), Some(n.parse::<u8>().map_err(|_| format!("\"{s}\" is not a stop"))?))
            }
            None => (s.clone(), None),
        };
        Ok(StopRef { hex, n })
    }
}

/// Why declared routes or a claimed revenue are refused. Routes are numbered from 1 in the
/// order given, each run by the train of the same place.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RouteError {
    #[error("{routes} routes for {trains} trains")]
    TooManyRoutes { routes: usize, trains: usize },
    #[error(
        "route {route}: there is no stop \"{stop}\" (name a hex, and E19.1 or E19.2 where a hex has several)"
    )]
    UnknownStop { route: usize, stop: String },
    #[error("route {route}: a route needs at least two stops")]
    TooShort { route: usize },
    #[error("route {route}: {stop} is visited twice")]
    Twice { route: usize, stop: String },
    #[error(
        "route {route}: {a} and {b} may not both be in one route (one city of Berlin, one hex of an off-board area)"
    )]
    Exclusive { route: usize, a: String, b: String },
    #[error("route {route}: {stop} is worth nothing in this phase and cannot be reached")]
    Closed { route: usize, stop: String },
    #[error("route {route}: a {train} train cannot count {large} large stops and {small} towns")]
    TooLong { route: usize, train: String, large: u8, small: u8 },
    #[error(
        "route {route}: {stop} may only be an end of a route (an off-board, or a city full of other companies' stations)"
    )]
    Blocked { route: usize, stop: String },
    #[error("route {route}: it has no station of {company}")]
    NoStation { route: usize, company: String },
    #[error("route {route}: no track leads from {a} to {b} without passing another stop")]
    NotConnected { route: usize, a: String, b: String },
    #[error("route {route}: it would use a piece of track twice")]
    TrackTwice { route: usize },
    #[error("the routes share track; trains of one company may not")]
    Shared,
    #[error("{declared} is more than the {max} the trains can earn")]
    AboveMaximum { declared: i64, max: i64 },
    #[error(
        "{declared} is less than the {max} the trains can earn, and the company must run for the maximum"
    )]
    BelowMaximum { declared: i64, max: i64 },
}

/// Checks declared routes (route i run by `trains[i]`) and returns their revenue: the best the
/// track allows where the same stops can be joined in several ways (HR 3's ferry toll may
/// depend on the track taken; RULINGS K24).
pub fn check_routes(
    g: &Graph,
    company: &str,
    trains: &[TrainType],
    routes: &[Vec<StopRef>],
) -> Result<i64, RouteError> {
    if routes.len() > trains.len() {
        return Err(RouteError::TooManyRoutes { routes: routes.len(), trains: trains.len() });
    }
    // A bonus per route makes every route run in the search; it is taken off afterwards.
    const RUNS: i64 = 1 << 40;
    let mut found: Vec<Vec<(i64, Bits)>> = Vec::new();
    for (i, (declared, train)) in routes.iter().zip(trains).enumerate() {
        let stops = check_stops(g, company, train, i + 1, declared)?;
        let ways = realise(g, &stops);
        if ways.is_empty() {
            // Which leg fails on its own, if any; else the legs only fail together.
            for w in stops.windows(2) {
                if realise(g, w).is_empty() {
                    let (a, b) = (g.stop_label(w[0]), g.stop_label(w[1]));
                    return Err(RouteError::NotConnected { route: i + 1, a, b });
                }
            }
            return Err(RouteError::TrackTwice { route: i + 1 });
        }
        found.push(
            ways.into_iter()
                .map(|(paths, at)| {
                    let visits: Vec<(u16, usize)> = stops.iter().copied().zip(at).collect();
                    let mut track = Bits::new(g.paths.len());
                    paths.iter().for_each(|p| track.set(*p as usize, true));
                    (route_value(g, company, &visits, &paths) + RUNS, track)
                })
                .collect(),
        );
    }
    let cands = found
        .iter()
        .map(|ways| ways.iter().enumerate().map(|(k, (v, t))| (*v, t.words(), k)).collect())
        .collect();
    let (total, picks) = best_disjoint(cands, &vec![false; found.len()], g.paths.len());
    if picks.iter().any(Option::is_none) {
        return Err(RouteError::Shared);
    }
    Ok(total - RUNS * i64::try_from(found.len()).unwrap_or(0))
}

/// The routes a company runs for a claimed revenue: the optimal ones. A claim above the maximum
/// is refused with the maximum; below it, only where the game allows it (RULINGS K21).
pub fn claim(
    g: &Graph,
    company: &str,
    trains: &[TrainType],
    declared: Option<i64>,
    allow_lower: bool,
) -> Result<Optimum, RouteError> {
    let best = optimal(g, company, trains);
    match declared {
        Some(d) if d > best.revenue => Err(RouteError::AboveMaximum { declared: d, max: best.revenue }),
        Some(d) if d < best.revenue && !allow_lower => {
            Err(RouteError::BelowMaximum { declared: d, max: best.revenue })
        }
        _ => Ok(best),
    }
}

/// The stops of a declared route, checked except for the track between them.
fn check_stops(
    g: &Graph,
    company: &str,
    train: &TrainType,
    route: usize,
    declared: &[StopRef],
) -> Result<Vec<u16>, RouteError> {
    let mut stops: Vec<u16> = Vec::new();
    for r in declared {
        let s = g.find_stop(&r.hex, r.n).ok_or_else(|| RouteError::UnknownStop {
            route,
            stop: r.n.map_or(r.hex.clone(), |n| format!("{}.{n}", r.hex)),
        })?;
        let label = g.stop_label(s);
        let node = &g.stops[usize::from(s)];
        if stops.contains(&s) {
            return Err(RouteError::Twice { route, stop: label });
        }
        if let Some(o) = stops
            .iter()
            .find(|o| node.exclusive.is_some() && g.stops[usize::from(**o)].exclusive == node.exclusive)
        {
            return Err(RouteError::Exclusive { route, a: g.stop_label(*o), b: label });
        }
        if node.closed {
            return Err(RouteError::Closed { route, stop: label });
        }
        stops.push(s);
    }
    if stops.len() < 2 {
        return Err(RouteError::TooShort { route });
    }
    let large =
        u8::try_from(stops.iter().filter(|s| g.stops[usize::from(**s)].large()).count()).unwrap_or(u8::MAX);
    let small = u8::try_from(stops.len()).unwrap_or(u8::MAX).saturating_sub(large);
    if !fits(train, large, small) {
        return Err(RouteError::TooLong { route, train: train.name.clone(), large, small });
    }
    if let Some(s) = stops[1..stops.len() - 1].iter().find(|s| !g.stops[usize::from(**s)].passable(company)) {
        return Err(RouteError::Blocked { route, stop: g.stop_label(*s) });
    }
    if !stops.iter().any(|s| g.stops[usize::from(*s)].has_token(company)) {
        return Err(RouteError::NoStation { route, company: company.into() });
    }
    debug_assert!(
        stops
            .iter()
            .all(|s| g.stops[usize::from(*s)].kind != StopKind::Offboard || !g.stops[usize::from(*s)].closed)
    );
    Ok(stops)
}

/// Every way of joining the stops in order by track, each path and hex side used once: the
/// paths in travel order and, per stop, the number of paths walked when it is reached.
fn realise(g: &Graph, stops: &[u16]) -> Vec<(Vec<u32>, Vec<usize>)> {
    let mut out = Vec::new();
    let mut w = Walk {
        g,
        stops,
        paths: Vec::new(),
        at: vec![0],
        used: Bits::new(g.paths.len()),
        sides: Bits::new(g.at_side.len()),
    };
    w.leg(End::Stop(stops[0]), None, &mut out);
    out
}

struct Walk<'a> {
    g: &'a Graph,
    stops: &'a [u16],
    paths: Vec<u32>,
    at: Vec<usize>,
    used: Bits,
    sides: Bits,
}

impl Walk<'_> {
    fn leg(&mut self, from: End, via: Option<u32>, out: &mut Vec<(Vec<u32>, Vec<usize>)>) {
        let g = self.g;
        let list = match from {
            End::Stop(s) => &g.at_stop[usize::from(s)],
            End::Side(x) => &g.at_side[usize::from(x)],
        };
        for &p in list {
            let path = g.paths[p as usize];
            let same_hex =
                matches!(from, End::Side(_)) && via.is_some_and(|v| g.paths[v as usize].hex == path.hex);
            if self.used.get(p as usize) || same_hex {
                continue;
            }
            self.used.set(p as usize, true);
            self.paths.push(p);
            match path.other(from) {
                End::Side(x) if !self.sides.get(usize::from(x)) => {
                    self.sides.set(usize::from(x), true);
                    self.leg(End::Side(x), Some(p), out);
                    self.sides.set(usize::from(x), false);
                }
                End::Side(_) => {}
                End::Stop(t) if self.stops.get(self.at.len()) == Some(&t) => {
                    self.at.push(self.paths.len());
                    if self.at.len() == self.stops.len() {
                        out.push((self.paths.clone(), self.at.clone()));
                    } else {
                        self.leg(End::Stop(t), Some(p), out);
                    }
                    self.at.pop();
                }
                End::Stop(_) => {}
            }
            self.paths.pop();
            self.used.set(p as usize, false);
        }
    }
}
