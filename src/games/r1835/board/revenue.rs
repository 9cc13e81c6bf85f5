//! Exact optimal revenue (FACTS §10): one route per train, no two trains of the company sharing
//! a track path, the total maximised. Each kind of train's best route and a greedy legal set
//! give every train the least value a route of an optimum must have (RULINGS K25); only routes
//! worth that much are enumerated (`route::enumerate_pruned`, the walk cut by the hop bound of
//! `graph::Hops`); then a branch and bound picks one route (or none) per train: routes sorted by
//! value, the bound being the sum of the best routes left for the remaining trains. Exact and
//! never time-limited (RULINGS K19).

use super::graph::Graph;
use super::graph::Hops;
use super::route::{Bits, Prune, Route, RouteTable, enumerate_pruned};
use crate::games::r1835::data::TrainType;

/// The best runs of a company: the total and, per train, its route (None = the train does not
/// run).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Optimum {
    pub revenue: i64,
    pub routes: Vec<Option<Route>>,
}

/// The maximum revenue of a company's trains on a graph, and routes that earn it.
///
/// First each kind of train's best route, and a legal set found greedily, by searches that cut
/// every walk that cannot beat the best found so far; these give each train the least value a
/// route of an optimum must have (RULINGS K25). Then only the routes worth that much are
/// enumerated, again cutting the walks that cannot reach it, and the branch and bound picks
/// among them.
pub fn optimal(g: &Graph, company: &str, trains: &[TrainType]) -> Optimum {
    let hops = Hops::new(g, company);
    // Identical trains share their best route and their table: `kind[i]` is the first train
    // like train i.
    let kind: Vec<usize> =
        trains.iter().enumerate().map(|(i, t)| trains.iter().position(|u| u == t).unwrap_or(i)).collect();
    let best: Vec<Option<Route>> = trains
        .iter()
        .enumerate()
        .map(|(i, t)| if kind[i] == i { best_route(g, company, t, &hops, None) } else { None })
        .collect();
    let best_value = |i: usize| best[kind[i]].as_ref().map_or(0, |r| r.value.max(0));
    if trains.len() == 1 {
        // One train: its best route is the optimum.
        return Optimum { revenue: best_value(0), routes: vec![best[0].clone().filter(|r| r.value > 0)] };
    }
    let lower = greedy_lower(g, company, trains, &hops, &best, &kind);
    let total: i64 = (0..trains.len()).map(best_value).sum();
    // RULINGS K25: a route of train t in an optimum is worth at least the legal set's total
    // minus the best routes of the other trains.
    let tables: Vec<Option<RouteTable>> = trains
        .iter()
        .enumerate()
        .map(|(i, t)| {
            let floor = (lower - (total - best_value(i))).max(1);
            let prune = Prune { hops: Some(&hops), floor, raise: false, forbidden: None };
            (kind[i] == i).then(|| enumerate_pruned(g, company, std::slice::from_ref(t), prune))
        })
        .collect();
    // Candidate id n is route `ids[n].1` of the table of train kind `ids[n].0`.
    let mut ids: Vec<(usize, usize)> = Vec::new();
    let cands: Vec<Vec<(i64, &[u64], usize)>> = kind
        .iter()
        .map(|&k| {
            let Some(table) = &tables[k] else { return Vec::new() };
            (0..table.len())
                .map(|j| {
                    ids.push((k, j));
                    (table.value(j), table.track(j), ids.len() - 1)
                })
                .collect()
        })
        .collect();
    let same: Vec<bool> = (0..trains.len()).map(|i| i > 0 && trains[i - 1] == trains[i]).collect();
    let (revenue, picks) = best_disjoint(cands, &same, g.paths.len());
    let route = |n: usize| ids.get(n).and_then(|&(k, j)| tables[k].as_ref().map(|t| t.route(j)));
    Optimum { revenue, routes: picks.into_iter().map(|p| p.and_then(route)).collect() }
}

/// The best route of one train (None if it has no route worth anything), by a search that cuts
/// every walk that cannot beat the best route found so far; `forbidden` paths are taken.
fn best_route(
    g: &Graph,
    company: &str,
    train: &TrainType,
    hops: &Hops,
    forbidden: Option<&Bits>,
) -> Option<Route> {
    let prune = Prune { hops: Some(hops), floor: 1, raise: true, forbidden };
    let table = enumerate_pruned(g, company, std::slice::from_ref(train), prune);
    table.len().checked_sub(1).map(|last| table.route(last))
}

/// The total of a legal set of routes (RULINGS K25): trains by their best value, each its best
/// route clear of the track taken so far.
fn greedy_lower(
    g: &Graph,
    company: &str,
    trains: &[TrainType],
    hops: &Hops,
    best: &[Option<Route>],
    kind: &[usize],
) -> i64 {
    let value = |i: usize| best[kind[i]].as_ref().map_or(0, |r| r.value);
    let mut order: Vec<usize> = (0..trains.len()).collect();
    order.sort_by_key(|t| std::cmp::Reverse(value(*t)));
    let mut used: Option<Bits> = None;
    let mut lower = 0;
    for t in order {
        let pick = match &used {
            None => best[kind[t]].clone(),
            Some(u) => best_route(g, company, &trains[t], hops, Some(u)),
        };
        if let Some(r) = pick.filter(|r| r.value > 0) {
            lower += r.value;
            used.get_or_insert_with(|| Bits::new(g.paths.len())).merge(r.track.words(), true);
        }
    }
    lower
}

/// Picks at most one candidate per list, with pairwise disjoint track, maximising the sum of
/// values. Each candidate is (value, track, id); returns the sum and the id picked per list.
/// `same[i]`: list i equals list i-1 (identical trains), so only one order of the two is tried.
pub fn best_disjoint(
    mut cands: Vec<Vec<(i64, &[u64], usize)>>,
    same: &[bool],
    paths: usize,
) -> (i64, Vec<Option<usize>>) {
    for c in &mut cands {
        c.retain(|x| x.0 > 0);
        c.sort_by(|a, b| b.0.cmp(&a.0).then(a.2.cmp(&b.2)));
    }
    // rest[i] = the sum of the best values of lists i.. (the bound).
    let mut rest = vec![0; cands.len() + 1];
    for i in (0..cands.len()).rev() {
        rest[i] = rest[i + 1] + cands[i].first().map_or(0, |x| x.0);
    }
    let mut b = Bound {
        cands: &cands,
        same,
        rest,
        used: Bits::new(paths),
        pick: vec![None; cands.len()],
        best: 0,
        best_pick: vec![None; cands.len()],
    };
    b.search(0, 0);
    let ids = b.best_pick.iter().enumerate().map(|(i, p)| p.map(|k| cands[i][k].2)).collect();
    (b.best, ids)
}

struct Bound<'a, 'b> {
    cands: &'a [Vec<(i64, &'b [u64], usize)>],
    same: &'a [bool],
    rest: Vec<i64>,
    used: Bits,
    pick: Vec<Option<usize>>,
    best: i64,
    best_pick: Vec<Option<usize>>,
}

impl Bound<'_, '_> {
    fn search(&mut self, i: usize, sum: i64) {
        if sum > self.best {
            self.best = sum;
            self.best_pick.clone_from(&self.pick);
        }
        if i == self.cands.len() || sum + self.rest[i] <= self.best {
            return;
        }
        // Identical trains take their routes in list order: the one before picked k, so this one
        // picks after k (and picks nothing if that one picked nothing).
        let from = match (self.same[i], i.checked_sub(1).map(|j| self.pick[j])) {
            (true, Some(None)) => return self.search(i + 1, sum),
            (true, Some(Some(k))) => k + 1,
            _ => 0,
        };
        let list = &self.cands[i];
        for (k, &(value, track, _)) in list.iter().enumerate().skip(from) {
            if sum + value + self.rest[i + 1] <= self.best {
                break;
            }
            if self.used.disjoint(track) {
                self.used.merge(track, true);
                self.pick[i] = Some(k);
                self.search(i + 1, sum + value);
                self.used.merge(track, false);
            }
        }
        self.pick[i] = None;
        self.search(i + 1, sum);
    }
}
