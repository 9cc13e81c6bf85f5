//! Creating and extending routes (Creating/Extending Routes ¶1-¶7): what makes a route legal,
//! and route values for scoring.

use super::data::{CardId, Deck, Kind};
use super::layout;
use super::state::{Player, Route, State};
use crate::engine::Illegal;

fn no(msg: impl Into<String>) -> Illegal {
    Illegal(msg.into())
}

/// A refusal; when `quiet` (the legal-action search, which only asks whether a route is
/// legal) the reason is not written out.
macro_rules! refuse {
    ($quiet:expr, $($msg:tt)+) => {
        if $quiet { Illegal(String::new()) } else { no($($msg)+) }
    };
}

/// The most city cards a locomotive level allows (¶1: Level 1 = 2, 2 = 3, 3 = 4).
pub fn city_limit(level: u8) -> usize {
    usize::from(level) + 1
}

/// Locomotive level of a card, if it is one.
pub fn level_of(deck: &Deck, card: CardId) -> Option<u8> {
    match deck.kind(card) {
        Kind::Loco(l) => Some(l),
        _ => None,
    }
}

/// The city kind of each city card of a route.
fn cities_of(deck: &Deck, cards: &[CardId]) -> Vec<u8> {
    cards
        .iter()
        .filter_map(|c| match deck.kind(*c) {
            Kind::City(i) => Some(i),
            _ => None,
        })
        .collect()
}

/// The pair of cities a link joins, when both ends are city cards (ordered small first).
pub fn city_pair(deck: &Deck, (a, b): (CardId, CardId)) -> Option<(u8, u8)> {
    match (deck.kind(a), deck.kind(b)) {
        (Kind::City(x), Kind::City(y)) => Some((x.min(y), x.max(y))),
        _ => None,
    }
}

/// Whether a direct connection between two cities is already in play in anyone's route
/// (¶5; connections through private RRs are exempt, ¶6).
pub fn in_play(deck: &Deck, s: &State, pair: (u8, u8)) -> bool {
    s.players.iter().flat_map(|p| &p.routes).flat_map(|r| &r.links).any(|l| city_pair(deck, *l) == Some(pair))
}

/// Checks a whole route (old and new cards) for shape: card kinds, city count for the
/// locomotive, each link a listed connection, every card connected, a legal layout.
pub fn check_shape(
    deck: &Deck,
    level: u8,
    cards: &[CardId],
    links: &[(CardId, CardId)],
) -> Result<(), Illegal> {
    shape(deck, level, cards, links, false)
}

fn shape(
    deck: &Deck,
    level: u8,
    cards: &[CardId],
    links: &[(CardId, CardId)],
    quiet: bool,
) -> Result<(), Illegal> {
    if cards.iter().enumerate().any(|(i, c)| cards.get(i + 1..).is_some_and(|rest| rest.contains(c))) {
        return Err(refuse!(quiet, "a card is named twice in the route"));
    }
    for c in cards {
        if !matches!(deck.kind(*c), Kind::City(_) | Kind::Private(_)) {
            return Err(refuse!(quiet, format!("{} is not a city or private RR card", deck.name(*c))));
        }
    }
    // The cities as a bit set (a city index is a u8): the count and whether one repeats.
    let mut seen = [0u64; 4];
    let mut count = 0;
    let mut repeated = false;
    for c in cards {
        if let Kind::City(i) = deck.kind(*c) {
            let (word, bit) = (usize::from(i / 64), 1u64 << (i % 64));
            if let Some(w) = seen.get_mut(word) {
                repeated |= *w & bit != 0;
                *w |= bit;
            }
            count += 1;
        }
    }
    if count < 2 {
        return Err(refuse!(quiet, "a route needs at least two city cards"));
    }
    if count > city_limit(level) {
        return Err(refuse!(
            quiet,
            format!("a Level {level} locomotive carries at most {} cities, not {count}", city_limit(level))
        ));
    }
    if repeated {
        // RULING C3: a city appears once in a route.
        return Err(refuse!(quiet, "a city can appear only once in a route"));
    }
    let index = |c: CardId| cards.iter().position(|x| *x == c);
    let mut edges = Vec::with_capacity(links.len());
    for &(a, b) in links {
        let (Some(ia), Some(ib)) = (index(a), index(b)) else {
            return Err(refuse!(
                quiet,
                format!("the link {}-{} names a card not in the route", deck.name(a), deck.name(b))
            ));
        };
        let (x, y) = (ia.min(ib), ia.max(ib));
        if x == y || edges.contains(&(x, y)) {
            return Err(refuse!(
                quiet,
                format!(
                    "the link {}-{} is shown twice or links a card to itself",
                    deck.name(a),
                    deck.name(b)
                )
            ));
        }
        let ok = match (deck.kind(a), deck.kind(b)) {
            (Kind::City(p), Kind::City(q)) => deck.cities_connect(p, q),
            (Kind::Private(p), Kind::City(q)) | (Kind::City(q), Kind::Private(p)) => {
                deck.private_serves(p, q)
            }
            _ => false,
        };
        if !ok {
            return Err(refuse!(
                quiet,
                format!("{} and {} are not connected on their cards", deck.name(a), deck.name(b))
            ));
        }
        edges.push((x, y));
    }
    for (i, c) in cards.iter().enumerate() {
        let degree = edges.iter().filter(|(x, y)| *x == i || *y == i).count();
        match deck.kind(*c) {
            Kind::Private(_) if degree < 2 => {
                return Err(refuse!(
                    quiet,
                    format!("the private RR {} must link at least two cities", deck.name(*c))
                ));
            }
            Kind::Private(_) if !links_unconnected(deck, cards, &edges, i) => {
                // RULING C21: "a Private RR card used to link 2 otherwise unconnected cities".
                return Err(refuse!(
                    quiet,
                    format!(
                        "the private RR {} must link two otherwise unconnected cities, not only cities connected on their own cards",
                        deck.name(*c)
                    )
                ));
            }
            _ if degree == 0 => {
                return Err(refuse!(quiet, format!("{} connects to nothing in the route", deck.name(*c))));
            }
            _ => {}
        }
    }
    if !layout::connected(cards.len(), &edges) {
        // RULING C1: a route is one connected piece.
        return Err(refuse!(quiet, "the route falls apart into separate pieces"));
    }
    if !layout::embeds(cards.len(), &edges) {
        return Err(refuse!(
            quiet,
            "these links cannot be laid out with exactly the linked cards touching (RULING C2)"
        ));
    }
    Ok(())
}

/// Whether the private RR at `at` links, by the layout's `edges`, two cities whose cards do
/// not list each other (RULING C21).
fn links_unconnected(deck: &Deck, cards: &[CardId], edges: &[(usize, usize)], at: usize) -> bool {
    let linked: Vec<u8> = edges
        .iter()
        .filter_map(|&(x, y)| match (x == at, y == at) {
            (true, _) => cards.get(y),
            (_, true) => cards.get(x),
            _ => None,
        })
        .filter_map(|c| match deck.kind(*c) {
            Kind::City(i) => Some(i),
            _ => None,
        })
        .collect();
    super::data::any_pair(&linked, |a, b| !deck.cities_connect(a, b))
}

/// Checks the new city-to-city links against the connections already in play (¶5).
fn check_new_links(deck: &Deck, s: &State, links: &[(CardId, CardId)], quiet: bool) -> Result<(), Illegal> {
    for l in links {
        if let Some(pair) = city_pair(deck, *l)
            && in_play(deck, s, pair)
        {
            return Err(refuse!(
                quiet,
                format!("the connection {}-{} is already in play", deck.name(l.0), deck.name(l.1))
            ));
        }
    }
    Ok(())
}

fn in_hand(deck: &Deck, p: &Player, cards: &[CardId], quiet: bool) -> Result<(), Illegal> {
    for c in cards {
        if !p.hand.contains(c) {
            return Err(refuse!(quiet, format!("{} is not in your hand", deck.name(*c))));
        }
    }
    Ok(())
}

/// Checks creating a route from hand.
pub fn check_create(
    deck: &Deck,
    s: &State,
    p: &Player,
    loco: CardId,
    cards: &[CardId],
    links: &[(CardId, CardId)],
) -> Result<(), Illegal> {
    create(deck, s, p, loco, cards, links, false)
}

/// Whether creating this route is legal ([`check_create`] without writing out the reason).
pub(crate) fn create_ok(
    deck: &Deck,
    s: &State,
    p: &Player,
    loco: CardId,
    cards: &[CardId],
    links: &[(CardId, CardId)],
) -> bool {
    create(deck, s, p, loco, cards, links, true).is_ok()
}

fn create(
    deck: &Deck,
    s: &State,
    p: &Player,
    loco: CardId,
    cards: &[CardId],
    links: &[(CardId, CardId)],
    quiet: bool,
) -> Result<(), Illegal> {
    let level = level_of(deck, loco)
        .ok_or_else(|| refuse!(quiet, format!("{} is not a locomotive", deck.name(loco))))?;
    in_hand(deck, p, &[loco], quiet)?;
    in_hand(deck, p, cards, quiet)?;
    shape(deck, level, cards, links, quiet)?;
    check_new_links(deck, s, links, quiet)
}

/// Checks extending route `r` with new cards and links, optionally with a new locomotive.
pub fn check_extend(
    deck: &Deck,
    s: &State,
    p: &Player,
    r: &Route,
    loco: Option<CardId>,
    cards: &[CardId],
    links: &[(CardId, CardId)],
) -> Result<(), Illegal> {
    extend(deck, s, p, r, loco, cards, links, false)
}

/// Whether this extension is legal ([`check_extend`] without writing out the reason).
pub(crate) fn extend_ok(
    deck: &Deck,
    s: &State,
    p: &Player,
    r: &Route,
    loco: Option<CardId>,
    cards: &[CardId],
    links: &[(CardId, CardId)],
) -> bool {
    extend(deck, s, p, r, loco, cards, links, true).is_ok()
}

#[allow(clippy::too_many_arguments)]
fn extend(
    deck: &Deck,
    s: &State,
    p: &Player,
    r: &Route,
    loco: Option<CardId>,
    cards: &[CardId],
    links: &[(CardId, CardId)],
    quiet: bool,
) -> Result<(), Illegal> {
    in_hand(deck, p, cards, quiet)?;
    let is_city = |c: &CardId| matches!(deck.kind(*c), Kind::City(_));
    if !cards.iter().any(is_city) {
        // RULING C4: an extension adds at least one city card.
        return Err(refuse!(quiet, "an extension adds at least one city card"));
    }
    let old = level_of(deck, r.loco).unwrap_or(1);
    let mut all = r.cards.clone();
    all.extend_from_slice(cards);
    let total = all.iter().filter(|c| is_city(c)).count();
    let level = match loco {
        None => old,
        Some(l) => {
            in_hand(deck, p, &[l], quiet)?;
            let new = level_of(deck, l)
                .ok_or_else(|| refuse!(quiet, format!("{} is not a locomotive", deck.name(l))))?;
            if new <= old {
                return Err(refuse!(quiet, format!("the new locomotive must be higher than Level {old}")));
            }
            if total <= city_limit(old) {
                // RULING C4: a locomotive is replaced only when the added cities need it.
                return Err(refuse!(quiet, "the route's locomotive carries these cities already; keep it"));
            }
            new
        }
    };
    if links.iter().any(|(a, b)| !cards.contains(a) && !cards.contains(b)) {
        return Err(refuse!(
            quiet,
            "existing connections cannot be altered: every new link must touch a new card"
        ));
    }
    let mut all_links = r.links.clone();
    all_links.extend_from_slice(links);
    shape(deck, level, &all, &all_links, quiet)?;
    check_new_links(deck, s, links, quiet)
}

/// A route's victory points: its cities' values, -1 per private RR (Scoring ¶1).
pub fn value(deck: &Deck, r: &Route) -> i32 {
    r.cards
        .iter()
        .map(|c| match deck.kind(*c) {
            Kind::City(i) => deck.vp(i),
            Kind::Private(_) => -1,
            _ => 0,
        })
        .sum()
}

/// The cities of a route.
pub fn route_cities(deck: &Deck, r: &Route) -> Vec<u8> {
    cities_of(deck, &r.cards)
}
