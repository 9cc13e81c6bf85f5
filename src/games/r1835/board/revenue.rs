//! Exact optimal revenue (FACTS §10): one route per train, no two trains of the company sharing
//! a track path, the total maximised. Every legal route is enumerated into a compact table
//! (`route::enumerate_table`); routes below a value no optimum can go under are dropped (RULINGS
//! K25); then a branch and bound picks one route (or none) per train: routes sorted by value, the
//! bound being the sum of the best routes left for the remaining trains. Exact and never
//! time-limited (RULINGS K19).

use super::graph::Graph;
use super::route::{Bits, Route, RouteTable, enumerate_table};
use crate::games::r1835::data::TrainType;

/// The best runs of a company: the total and, per train, its route (None = the train does not
/// run).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Optimum {
    pub revenue: i64,
    pub routes: Vec<Option<Route>>,
}

/// The maximum revenue of a company's trains on a graph, and routes that earn it.
pub fn optimal(g: &Graph, company: &str, trains: &[TrainType]) -> Optimum {
    let table = enumerate_table(g, company, trains);
    let need = needed_values(&table, trains);
    let cands: Vec<Vec<(i64, &[u64], usize)>> = trains
        .iter()
        .zip(&need)
        .map(|(t, need)| {
            (0..table.len())
                .filter(|i| table.value(*i) >= *need && table.fits(*i, t))
                .map(|i| (table.value(i), table.track(i), i))
                .collect()
        })
        .collect();
    let same: Vec<bool> = (0..trains.len()).map(|i| i > 0 && trains[i - 1] == trains[i]).collect();
    let (revenue, picks) = best_disjoint(cands, &same, g.paths.len());
    Optimum { revenue, routes: picks.into_iter().map(|p| p.map(|i| table.route(i))).collect() }
}

/// Per train, the least value a route must have to be part of an optimum (RULINGS K25). With
/// `best[u]` the best single route of train u and `lower` the total of some legal set of
/// routes, every optimum earns at least `lower` and at most its route for train t plus the best
/// routes of the others, so that route is worth at least `lower - Σ best[u≠t]`. Only routes
/// below that bound are dropped: the search stays exact (RULINGS K19).
fn needed_values(table: &RouteTable, trains: &[TrainType]) -> Vec<i64> {
    let best: Vec<Option<usize>> = trains
        .iter()
        .map(|t| {
            (0..table.len()).filter(|i| table.fits(*i, t)).max_by_key(|i| (table.value(*i), usize::MAX - i))
        })
        .collect();
    let value = |b: &Option<usize>| b.map_or(0, |i| table.value(i).max(0));
    // A legal set: greedily, trains by their best value, each its best route clear of the
    // track taken so far.
    let mut order: Vec<usize> = (0..trains.len()).collect();
    order.sort_by_key(|t| std::cmp::Reverse(value(&best[*t])));
    let mut used: Option<Bits> = None;
    let mut lower = 0;
    for t in order {
        let clear = |i: &usize| used.as_ref().is_none_or(|u| u.disjoint(table.track(*i)));
        let pick = (0..table.len())
            .filter(|i| table.value(*i) > 0 && table.fits(*i, &trains[t]) && clear(i))
            .max_by_key(|i| table.value(*i));
        if let Some(i) = pick {
            lower += table.value(i);
            let u = used.get_or_insert_with(|| Bits::new(table.track(i).len() * 64));
            u.merge(table.track(i), true);
        }
    }
    let total: i64 = best.iter().map(value).sum();
    best.iter().map(|b| lower - (total - value(b))).collect()
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
