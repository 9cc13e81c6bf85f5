//! The echo of an 1833 sheet at submission (issue 36): each line judged after the lines before
//! it — a line for another phase than the turn's (`SELECT` in play, a turn's orders in the set-up
//! selection), a card name the deck does not know (with the nearest it does), a card the seat
//! does not hold, a pool card not in the pool, a route it does not have. Only what the seat may
//! know is read: its own hand and routes, the pool, the display, the discard pile and the deck's
//! names — never another seat's hand, so the echo is the same whoever holds a card the seat
//! does not.

use super::super::R1833;
use super::super::data::{CardId, Deck, Kind};
use super::super::state::{Phase, Player, State};
use super::{Cmd, Order, Want};
use crate::engine::{Numbered, Seat};

/// What the echo knows of the position as the seat's lines go on: its own hand (card kinds),
/// the pool, the discard pile, its number of routes, and whether an earlier line draws a card it
/// cannot know (from the deck, or a pool a Re-Shuffle replaced).
struct Known {
    hand: Vec<Kind>,
    pool: Option<Vec<Kind>>,
    discard: Vec<Kind>,
    routes: usize,
    blind: bool,
}

impl Known {
    fn holds(&self, k: Kind) -> bool {
        self.hand.contains(&k)
    }
    fn take(&mut self, k: Kind) {
        if let Some(i) = self.hand.iter().position(|h| *h == k) {
            self.hand.remove(i);
        }
    }
}

/// Why a command is for another phase than `phase`, or `None`.
fn other_phase(phase: &Phase, cmd: &Cmd) -> Option<String> {
    match (phase, cmd) {
        (_, Cmd::Take(_)) | (Phase::Over, _) => None,
        (Phase::Select { .. }, Cmd::Select(_)) => None,
        (Phase::Select { .. }, other) => Some(format!(
            "not played this turn: this turn is the set-up selection, which takes SELECT (and standing TAKE DISCARD orders); {} is for your turns of play",
            other.to_string().split(':').next().unwrap_or_default()
        )),
        (_, Cmd::Select(_)) => {
            Some("not played this turn: SELECT is for the set-up selection, which is over".into())
        }
        _ => None,
    }
}

/// The card names a command names (a `TAKE DISCARD` list's own names included).
fn names(cmd: &Cmd) -> Vec<&String> {
    match cmd {
        Cmd::Select(n) => n.iter().collect(),
        Cmd::DrawPool(n) | Cmd::Discard(n) => vec![n],
        Cmd::Create { paths, .. } | Cmd::Extend { paths, .. } => paths.iter().flatten().collect(),
        Cmd::Take(w) => w
            .iter()
            .filter_map(|x| match x {
                Want::Name(n) => Some(n),
                _ => None,
            })
            .collect(),
        _ => Vec::new(),
    }
}

/// "there is no card 'X' in this game's deck (did you mean Y?)".
fn unknown(deck: &Deck, n: &str) -> String {
    let hint = deck.nearest(n).map(|m| format!(" (did you mean {m}?)")).unwrap_or_default();
    format!("there is no card '{n}' in this game's deck{hint}")
}

impl R1833 {
    /// The echo of each line of a seat's sheet (see the module comment; RULING C22).
    pub(super) fn echo_lines(
        &self,
        s: &State,
        seat: Seat,
        orders: &[Numbered<Order>],
    ) -> Vec<Option<String>> {
        let deck = self.deck_of(s);
        let me = u8::try_from(seat.index()).ok().and_then(|p| s.player(p));
        let mut known = Known {
            hand: me.map(|p| kinds_of(deck, &p.hand)).unwrap_or_default(),
            pool: Some(kinds_of(deck, &s.pool)),
            discard: kinds_of(deck, &s.discard),
            routes: me.map_or(0, |p| p.routes.len()),
            blind: false,
        };
        orders
            .iter()
            .map(|o| {
                let mut warn: Vec<String> = names(&o.order.cmd)
                    .into_iter()
                    .chain(&o.order.cond)
                    .filter(|n| deck.lookup(n).is_none())
                    .map(|n| unknown(deck, n))
                    .collect();
                match other_phase(&s.phase, &o.order.cmd) {
                    Some(w) => warn.insert(0, w),
                    None => self.judge(s, me, o, &mut known, &mut warn),
                }
                warn.dedup();
                (!warn.is_empty()).then(|| warn.join("; "))
            })
            .collect()
    }

    /// Judges one line of this phase against what is known, then plays it on `known` when it
    /// can be carried out there.
    fn judge(
        &self,
        s: &State,
        me: Option<&Player>,
        o: &Numbered<Order>,
        known: &mut Known,
        warn: &mut Vec<String>,
    ) {
        let deck = self.deck_of(s);
        let cond: Vec<Kind> = o.order.cond.iter().filter_map(|n| deck.lookup(n)).collect();
        let needed = Self::from_hand(deck, me, &o.order.cmd);
        let missing: Vec<String> = needed
            .iter()
            .filter(|k| !cond.contains(k) && !known.holds(**k))
            .map(|k| deck.kind_name(*k))
            .collect();
        if !missing.is_empty() {
            let unless = if known.blind { " (unless a card you draw before this line is one)" } else { "" };
            warn.push(format!("you do not hold {} now{unless}", missing.join(", ")));
        }
        match &o.order.cmd {
            Cmd::Select(n) => {
                let shown = kinds_of(deck, &s.display);
                let absent: Vec<&str> = n
                    .iter()
                    .filter(|x| deck.lookup(x).is_some_and(|k| !shown.contains(&k)))
                    .map(String::as_str)
                    .collect();
                if !absent.is_empty() {
                    warn.push(format!("{} not on the display now", absent.join(", ")));
                }
            }
            Cmd::DrawPool(n) => match (deck.lookup(n), &known.pool) {
                (Some(k), Some(pool)) if !pool.contains(&k) => {
                    warn.push(format!("{n} is not in the pool now"))
                }
                _ => {}
            },
            Cmd::Extend { route, .. } if usize::from(*route) > known.routes => {
                let have = known.routes;
                warn.push(format!("you have {have} route(s) now, no route {route}"));
            }
            _ => {}
        }
        // A line that cannot be carried out (a card missing, its condition false) changes nothing.
        if missing.is_empty() && cond.iter().all(|k| known.holds(*k)) {
            play(deck, &o.order.cmd, &needed, known);
        }
    }

    /// The card kinds a command takes from the seat's hand: a discard, a Re-Shuffle played, the
    /// new cards of a layout (not those already in the route it extends) and a locomotive of a
    /// level named.
    fn from_hand(deck: &Deck, me: Option<&Player>, cmd: &Cmd) -> Vec<Kind> {
        let mut v: Vec<Kind> = Vec::new();
        let mut add = |k: Kind| {
            if !v.contains(&k) {
                v.push(k);
            }
        };
        match cmd {
            Cmd::Discard(n) => deck.lookup(n).into_iter().for_each(&mut add),
            Cmd::Reshuffle => add(Kind::Reshuffle),
            Cmd::Create { level, paths } | Cmd::Extend { level, paths, .. } => {
                let laid: Vec<Kind> = match cmd {
                    Cmd::Extend { route, .. } => me
                        .and_then(|p| p.routes.get(usize::from(route.saturating_sub(1))))
                        .map(|r| kinds_of(deck, &r.cards))
                        .unwrap_or_default(),
                    _ => Vec::new(),
                };
                paths
                    .iter()
                    .flatten()
                    .filter_map(|n| deck.lookup(n))
                    .filter(|k| !laid.contains(k))
                    .for_each(&mut add);
                level.map(Kind::Loco).into_iter().for_each(&mut add);
            }
            _ => {}
        }
        v
    }
}

/// The kinds of these cards.
fn kinds_of(deck: &Deck, cards: &[CardId]) -> Vec<Kind> {
    cards.iter().map(|c| deck.kind(*c)).collect()
}

/// Plays a command on what is known: cards drawn from the pool or the discard pile join the
/// hand, cards laid or discarded leave it, a draw from the deck (or from a pool a Re-Shuffle
/// replaced) brings a card the echo cannot know.
fn play(deck: &Deck, cmd: &Cmd, needed: &[Kind], known: &mut Known) {
    match cmd {
        Cmd::DrawDeck(_) => known.blind = true,
        Cmd::DrawPool(n) => match (deck.lookup(n), known.pool.as_mut()) {
            (Some(k), Some(pool)) => {
                if let Some(i) = pool.iter().position(|p| *p == k) {
                    pool.remove(i);
                    known.hand.push(k);
                }
            }
            _ => known.blind = true,
        },
        Cmd::DrawDiscard => match known.discard.pop() {
            Some(k) => known.hand.push(k),
            None => known.blind = true,
        },
        Cmd::Reshuffle => {
            known.take(Kind::Reshuffle);
            known.pool = None;
        }
        Cmd::Discard(_) | Cmd::Create { .. } | Cmd::Extend { .. } => {
            needed.iter().for_each(|k| known.take(*k));
            known.routes += usize::from(matches!(cmd, Cmd::Create { .. }));
        }
        _ => {}
    }
}
