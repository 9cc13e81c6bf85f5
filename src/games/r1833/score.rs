//! Scoring (Winning the Game/Scoring ¶1-¶4) and the final standings with both tie breakers.

use super::R1833;
use super::data::{Deck, Kind};
use super::routes;
use super::state::{Phase, Player, State};
use crate::engine::{Scoring, Seat, Standing};

/// Scoring ¶1: each Re-Shuffle card left in hand costs 25 points.
pub const RESHUFFLE_PENALTY: i32 = 25;

/// One player's final score, with its parts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Score {
    /// Route values (cities, -1 per private RR).
    pub routes: i32,
    /// Corp RR bonuses, all Corp RRs together (first tie breaker).
    pub bonus: i32,
    /// The largest bonus from a single Corp RR (second tie breaker, RULING C11).
    pub best_corp: i32,
    /// Re-Shuffle cards in hand.
    pub reshuffles: i32,
    pub total: i32,
}

/// Groups of a player's routes that are connected (sharing a city, directly or through other
/// routes of the same player; Creating/Extending Routes ¶8). Returns a group number per route.
pub fn route_groups(deck: &Deck, p: &Player) -> Vec<usize> {
    let cities: Vec<Vec<u8>> = p.routes.iter().map(|r| routes::route_cities(deck, r)).collect();
    let mut group: Vec<usize> = (0..cities.len()).collect();
    let mut changed = true;
    while changed {
        changed = false;
        for i in 0..cities.len() {
            for j in 0..cities.len() {
                let share = cities[i].iter().any(|c| cities[j].contains(c));
                if share && group[j] < group[i] {
                    group[i] = group[j];
                    changed = true;
                }
            }
        }
    }
    group
}

/// A player's score at the end of the game.
pub fn score(deck: &Deck, p: &Player) -> Score {
    let values: Vec<i32> = p.routes.iter().map(|r| routes::value(deck, r)).collect();
    let groups = route_groups(deck, p);
    let mut s = Score { routes: values.iter().sum(), ..Score::default() };
    for (ci, corp) in deck.corps.iter().enumerate() {
        let held = p.hand.iter().filter(|c| deck.kind(**c) == Kind::Corp(ci as u8)).count() as i32;
        if held == 0 {
            continue;
        }
        // Scoring ¶2: routes connected to the home city, counted once per card held (RULING C17).
        let home_groups: Vec<usize> = p
            .routes
            .iter()
            .enumerate()
            .filter(|(_, r)| routes::route_cities(deck, r).contains(&corp.home))
            .filter_map(|(i, _)| groups.get(i).copied())
            .collect();
        let qualifying: i32 =
            values.iter().zip(&groups).filter(|(_, g)| home_groups.contains(g)).map(|(v, _)| *v).sum();
        let bonus = held * qualifying;
        s.bonus += bonus;
        s.best_corp = s.best_corp.max(bonus);
    }
    s.reshuffles = p.hand.iter().filter(|c| deck.kind(**c) == Kind::Reshuffle).count() as i32;
    s.total = s.routes + s.bonus - RESHUFFLE_PENALTY * s.reshuffles;
    s
}

impl Scoring for R1833 {
    /// Final standings: most points first; ties broken by the Corp RR bonus total, then by the
    /// best single Corp RR bonus; seats still tied share a place.
    fn standings(&self, s: &State) -> Option<Vec<Standing>> {
        if s.phase != Phase::Over {
            return None;
        }
        let deck = self.deck_of(s);
        let mut scored: Vec<(usize, Score)> = s.players.iter().map(|p| score(deck, p)).enumerate().collect();
        let key = |x: &Score| (x.total, x.bonus, x.best_corp);
        scored.sort_by(|a, b| key(&b.1).cmp(&key(&a.1)).then(a.0.cmp(&b.0)));
        let mut out = Vec::new();
        let mut place = 0u8;
        let mut prev = None;
        for (i, (seat, sc)) in scored.iter().enumerate() {
            if prev != Some(key(sc)) {
                place = u8::try_from(i + 1).unwrap_or(u8::MAX);
                prev = Some(key(sc));
            }
            out.push(Standing {
                seat: Seat::from_index(*seat),
                place,
                score: format!(
                    "{} VP (routes {}, Corp RR bonus {}, best Corp RR {}, Re-Shuffles in hand {})",
                    sc.total, sc.routes, sc.bonus, sc.best_corp, sc.reshuffles
                ),
            });
        }
        Some(out)
    }
}
