//! Where a company can trace track from its stations (FACTS §7.4–7.5, RR §18.3, §19.5): the
//! stops it reaches and the hex sides it reaches, walking the track graph without turning back
//! inside a hex and without passing a city full of other companies' stations or an off-board.
//! Used by tile-lay legality (`track`) and station legality (`stations`). RULINGS K28.

use super::graph::{End, Graph};
use std::collections::{BTreeSet, VecDeque};

/// What a company reaches from its stations.
#[derive(Debug, Clone, Default)]
pub struct Reach {
    /// Stops reached (the company's own stations included).
    pub stops: BTreeSet<u16>,
    /// Sides reached, with the hex (index in `Graph::hexes`) whose track led there: a side
    /// reached from hex `h` is open to a tile laid on the other hex of that side.
    pub sides: BTreeSet<(u16, u16)>,
}

impl Reach {
    /// Whether the side shared with `hex` (its graph side id) is reached from outside `hex`.
    pub fn side_from_outside(&self, side: u16, hex: u16) -> bool {
        self.sides.range((side, 0)..=(side, u16::MAX)).any(|(_, from)| *from != hex)
    }
}

/// Everything a company reaches from its station tokens.
pub fn reach(g: &Graph, company: &str) -> Reach {
    let mut r = Reach::default();
    let mut queue: VecDeque<(End, Option<u16>)> = VecDeque::new();
    for (i, s) in g.stops.iter().enumerate() {
        if s.has_token(company) {
            let i = u16::try_from(i).unwrap_or(u16::MAX);
            r.stops.insert(i);
            queue.push_back((End::Stop(i), None));
        }
    }
    while let Some((at, via_hex)) = queue.pop_front() {
        let list = match at {
            End::Stop(s) => &g.at_stop[usize::from(s)],
            End::Side(x) => &g.at_side[usize::from(x)],
        };
        for &p in list {
            let path = g.paths[p as usize];
            // A route never turns back inside the hex it has just crossed.
            if matches!(at, End::Side(_)) && via_hex == Some(path.hex) {
                continue;
            }
            match path.other(at) {
                End::Side(x) => {
                    if r.sides.insert((x, path.hex)) {
                        queue.push_back((End::Side(x), Some(path.hex)));
                    }
                }
                End::Stop(t) => {
                    let node = &g.stops[usize::from(t)];
                    if r.stops.insert(t) && node.passable(company) && !node.closed {
                        queue.push_back((End::Stop(t), None));
                    }
                }
            }
        }
    }
    r
}
