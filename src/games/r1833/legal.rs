//! Decisions and legal actions: who must decide next, every action the rules allow there, and
//! the search for route layouts from a hand (each set of cards is listed once, with the fullest
//! layout that is legal; other layouts of the same cards are legal too when ordered).

use super::R1833;
use super::check::has_room;
use super::data::{CardId, Deck, Kind};
use super::routes;
use super::state::{Action, Phase, Player, State};
use crate::engine::{Decision, Rules, Seat};

impl R1833 {
    /// The legal draws, discards and Re-Shuffles of the active player `p` in `legal`'s order
    /// (everything but routes and the end of the turn). Candidates the checks would refuse
    /// anyway are skipped before checking: pool cards with a full hand, discarding a
    /// Re-Shuffle, playing a card that is not one.
    pub(crate) fn turn_actions(&self, s: &State, p: &Player, v: &mut Vec<Action>) {
        let deck = self.deck_of(s);
        if self.check(s, &Action::DrawDeck).is_ok() {
            v.push(Action::DrawDeck);
            v.push(Action::DrawToLimitAndEnd);
        }
        if has_room(p) {
            v.extend(s.pool.iter().map(|c| Action::DrawPool(*c)).filter(|a| self.check(s, a).is_ok()));
        }
        if self.check(s, &Action::DrawDiscard).is_ok() {
            v.push(Action::DrawDiscard);
        }
        for c in distinct(deck, &p.hand, |_| true) {
            let a =
                if deck.kind(c) == Kind::Reshuffle { Action::PlayReshuffle(c) } else { Action::Discard(c) };
            if self.check(s, &a).is_ok() {
                v.push(a);
            }
        }
    }

    /// Whether the active player `p` could create or extend any route now.
    pub(crate) fn any_route(&self, s: &State, p: &Player) -> bool {
        let mut v = Vec::new();
        !s.turn.route_done && {
            self.route_actions(s, p, &mut v, true);
            !v.is_empty()
        }
    }

    /// Every route that could be created or extended from the active player's hand. Sets of
    /// cards that cannot form one connected piece are skipped with bit masks before any check.
    /// With `first_only`, the search stops at the first route found.
    pub(crate) fn route_actions(&self, s: &State, p: &Player, out: &mut Vec<Action>, first_only: bool) {
        let deck = self.deck_of(s);
        let pieces = distinct(deck, &p.hand, |k| matches!(k, Kind::City(_) | Kind::Private(_)));
        let locos = distinct(deck, &p.hand, |k| matches!(k, Kind::Loco(_)));
        let k = pieces.len();
        if !(1..=12).contains(&k) || (locos.is_empty() && p.routes.is_empty()) {
            return;
        }
        let kinds: Vec<Kind> = pieces.iter().map(|c| deck.kind(*c)).collect();
        let adj: Vec<u32> = kinds
            .iter()
            .map(|a| {
                kinds
                    .iter()
                    .enumerate()
                    .filter(|(_, b)| linkable(deck, *a, **b))
                    .fold(0, |m, (j, _)| m | (1 << j))
            })
            .collect();
        let cities: u32 = kinds
            .iter()
            .enumerate()
            .filter(|(_, x)| matches!(x, Kind::City(_)))
            .fold(0, |m, (i, _)| m | (1 << i));
        let max_loco = locos.iter().filter_map(|l| routes::level_of(deck, *l)).max().unwrap_or(0);
        let routes_info: Vec<(u32, u32, usize)> = p
            .routes
            .iter()
            .map(|r| {
                let rk: Vec<Kind> = r.cards.iter().map(|c| deck.kind(*c)).collect();
                let excluded = kinds
                    .iter()
                    .enumerate()
                    .filter(|(_, x)| rk.contains(x))
                    .fold(0, |m, (i, _)| m | (1 << i));
                let touch = kinds
                    .iter()
                    .enumerate()
                    .filter(|(_, x)| rk.iter().any(|y| linkable(deck, **x, *y)))
                    .fold(0, |m, (i, _)| m | (1 << i));
                (excluded, touch, rk.iter().filter(|x| matches!(x, Kind::City(_))).count())
            })
            .collect();
        for mask in 1u32..(1 << k) {
            let n_cities = (mask & cities).count_ones() as usize;
            let chosen = || -> Vec<CardId> {
                pieces.iter().enumerate().filter(|(i, _)| mask & (1 << i) != 0).map(|(_, c)| *c).collect()
            };
            let lowest = mask & mask.wrapping_neg();
            if n_cities >= 2 && n_cities <= routes::city_limit(max_loco) && reach(lowest, mask, &adj) == mask
            {
                let chosen = chosen();
                let cand = candidate_links(deck, &chosen, &chosen);
                for &loco in &locos {
                    let level = routes::level_of(deck, loco).unwrap_or(1);
                    if n_cities > routes::city_limit(level) {
                        continue;
                    }
                    if let Some(links) =
                        first_layout(&cand, |l| routes::create_ok(deck, s, p, loco, &chosen, l))
                    {
                        out.push(Action::Create { loco, cards: chosen.clone(), links });
                        if first_only {
                            return;
                        }
                    }
                }
            }
            for ((ri, r), (excluded, touch, in_route)) in p.routes.iter().enumerate().zip(&routes_info) {
                let fits = n_cities >= 1 && n_cities + in_route <= routes::city_limit(3);
                if !fits || mask & excluded != 0 || reach(mask & touch, mask, &adj) != mask {
                    continue;
                }
                let Ok(route) = u8::try_from(ri) else { continue };
                let chosen = chosen();
                let mut all = r.cards.clone();
                all.extend_from_slice(&chosen);
                let cand = candidate_links(deck, &chosen, &all);
                for loco in std::iter::once(None).chain(locos.iter().map(|l| Some(*l))) {
                    let ok = |l: &[(CardId, CardId)]| routes::extend_ok(deck, s, p, r, loco, &chosen, l);
                    if let Some(links) = first_layout(&cand, ok) {
                        out.push(Action::Extend { route, loco, cards: chosen.clone(), links });
                        if first_only {
                            return;
                        }
                    }
                }
            }
        }
    }

    /// The next step of the default turn (RULING C20).
    fn default_turn_step(&self, s: &State) -> Action {
        let ok = |a: &Action| self.check(s, a).is_ok();
        let Some(p) = s.player(s.active) else { return Action::EndTurn };
        let deck = self.deck_of(s);
        let draws = std::iter::once(Action::DrawToLimitAndEnd)
            .chain(s.pool.iter().map(|c| Action::DrawPool(*c)))
            .chain(std::iter::once(Action::DrawDiscard));
        let mut steps = draws.chain(std::iter::once(Action::EndTurn).filter(|_| s.turn.actions >= 1));
        if let Some(a) = steps.find(ok) {
            return a;
        }
        let reshuffles = p.hand.iter().filter(|c| deck.kind(**c) == Kind::Reshuffle);
        let discards = p.hand.iter().filter(|c| deck.kind(**c) != Kind::Reshuffle);
        reshuffles
            .map(|c| Action::PlayReshuffle(*c))
            .chain(discards.map(|c| Action::Discard(*c)))
            .find(ok)
            .unwrap_or(Action::EndTurn)
    }
}

impl Rules for R1833 {
    type State = State;
    type Action = Action;

    /// Who must decide next and how; `None` when the game is over.
    fn next_decision(&self, s: &State) -> Option<Decision> {
        let who = Seat::from_index(usize::from(self.decider(s)));
        let prompt = match &s.phase {
            Phase::Over => return None,
            Phase::Select { .. } => "set-up: select one card from the display".to_string(),
            Phase::Offer { card, .. } => {
                format!("take the discarded {} or decline", self.deck_of(s).name_str(*card))
            }
            Phase::Play => {
                "your turn: draw, discard, build a route, play a Re-Shuffle, or end the turn".into()
            }
        };
        Some(Decision { seat: who, prompt })
    }

    /// Every legal action now (routes: one layout per set of cards).
    fn legal_actions(&self, s: &State) -> Vec<Action> {
        match &s.phase {
            Phase::Over => Vec::new(),
            Phase::Select { .. } => s.display.iter().map(|c| Action::Select(*c)).collect(),
            Phase::Offer { .. } => {
                let mut v = vec![Action::Decline];
                if self.check(s, &Action::Take).is_ok() {
                    v.insert(0, Action::Take);
                }
                v
            }
            Phase::Play => {
                let Some(p) = s.player(s.active) else { return Vec::new() };
                let mut v = Vec::new();
                self.turn_actions(s, p, &mut v);
                if !s.turn.route_done {
                    self.route_actions(s, p, &mut v, false);
                }
                if self.check(s, &Action::EndTurn).is_ok() {
                    v.push(Action::EndTurn);
                }
                v
            }
        }
    }

    /// The documented default (RULINGS C8, C13, C19, C20). For a turn (missing orders), one
    /// step at a time, never a pass while an action is possible: draw from the deck up to the
    /// hand limit and end the turn; when the deck cannot be drawn from, take the first pool card
    /// that may be taken, then the top of the discard pile; once something was done, end the
    /// turn; with nothing done yet (full hand, nothing to draw), play a Re-Shuffle if one may be
    /// played, else discard the card held longest (then the next step draws back up); when
    /// nothing at all is possible, end the turn. For an offer: decline. In set-up: the first card displayed.
    fn default_action(&self, s: &State) -> Option<Action> {
        match &s.phase {
            Phase::Over => None,
            Phase::Select { .. } => s.display.first().map(|c| Action::Select(*c)),
            Phase::Offer { .. } => Some(Action::Decline),
            Phase::Play => Some(self.default_turn_step(s)),
        }
    }
}

/// One card per kind from `cards` (copies of a card are interchangeable), filtered by kind.
fn distinct(deck: &Deck, cards: &[CardId], keep: impl Fn(Kind) -> bool) -> Vec<CardId> {
    let mut seen: Vec<Kind> = Vec::new();
    let mut out = Vec::new();
    for &c in cards {
        let k = deck.kind(c);
        if keep(k) && !seen.contains(&k) {
            seen.push(k);
            out.push(c);
        }
    }
    out
}

/// Whether two kinds of card may be linked in a route (listed on the cards).
fn linkable(deck: &Deck, a: Kind, b: Kind) -> bool {
    match (a, b) {
        (Kind::City(x), Kind::City(y)) => deck.cities_connect(x, y),
        (Kind::Private(p), Kind::City(c)) | (Kind::City(c), Kind::Private(p)) => deck.private_serves(p, c),
        _ => false,
    }
}

/// The pieces of `within` reachable from `start` through `adj` (bit masks).
fn reach(start: u32, within: u32, adj: &[u32]) -> u32 {
    let mut seen = start & within;
    loop {
        let mut next = seen;
        for (i, a) in adj.iter().enumerate() {
            if seen & (1 << i) != 0 {
                next |= a & within;
            }
        }
        if next == seen {
            return seen;
        }
        seen = next;
    }
}

/// Links the cards could show: pairs with at least one end among `new`, both ends in `all`,
/// listed on the cards.
fn candidate_links(deck: &Deck, new: &[CardId], all: &[CardId]) -> Vec<(CardId, CardId)> {
    let mut v = Vec::new();
    for (i, &a) in all.iter().enumerate() {
        for &b in all.iter().skip(i + 1) {
            if !new.contains(&a) && !new.contains(&b) {
                continue;
            }
            let ok = match (deck.kind(a), deck.kind(b)) {
                (Kind::City(x), Kind::City(y)) => deck.cities_connect(x, y),
                (Kind::Private(p), Kind::City(c)) | (Kind::City(c), Kind::Private(p)) => {
                    deck.private_serves(p, c)
                }
                _ => false,
            };
            if ok {
                v.push((a, b));
            }
        }
    }
    v
}

/// The largest subset of `cand` (by number of links, the fullest first) that `ok` accepts.
fn first_layout(
    cand: &[(CardId, CardId)],
    ok: impl Fn(&[(CardId, CardId)]) -> bool,
) -> Option<Vec<(CardId, CardId)>> {
    if cand.len() > 10 {
        return None;
    }
    if ok(cand) {
        return Some(cand.to_vec());
    }
    if cand.len() > 8 {
        return None;
    }
    // Every smaller subset, the fullest first and, among equally full ones, by ascending mask.
    let n = cand.len();
    (0..n as u32).rev().find_map(|size| {
        (0u32..(1 << n)).filter(|m| m.count_ones() == size).find_map(|m| {
            let l: Vec<(CardId, CardId)> =
                cand.iter().enumerate().filter(|(i, _)| m & (1 << i) != 0).map(|(_, x)| *x).collect();
            ok(&l).then_some(l)
        })
    })
}
