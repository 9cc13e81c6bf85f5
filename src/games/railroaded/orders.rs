//! The order language: parsing and printing order lines, turning an order into an action in the
//! current position, answering a decision from a seat's sheet (lines in order, ELSE alternatives
//! within a line), and advice at submission.
//!
//! ```text
//! CLAIM <card|SUIT> [<dir>]      PLAY <card> <dir>      LINK <card> <dir>
//! MOVE STATION [<from> TO] <dir>  JUMP <ace> <dir>       DRAW
//! <order> ELSE <order> ELSE …
//! ```

use super::Railroaded;
use super::cards::{CARD_HELP, Dir, Face, Suit};
use super::state::{Action, Phase, State};
use crate::engine::{
    Answer, Choices, Decision, LineNote, NoFit, OrderError, OrderSheet, Orders, Seat, executed_lines,
};
use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

/// What a CLAIM names: a card from hand, or a suit to reveal from the Terminal.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ClaimWhat {
    Card(Face),
    Suit(Suit),
}

/// One alternative of an order line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Alt {
    /// `CLAIM 7H NORTH`, `CLAIM HEARTS EAST`; the compass point may be left out when only one
    /// is free.
    Claim { what: ClaimWhat, dir: Option<Dir> },
    /// `PLAY 7H NORTH`.
    Play { card: Face, dir: Dir },
    /// `LINK 9S NORTH`.
    Link { card: Face, dir: Dir },
    /// `MOVE STATION EAST`, `MOVE STATION NORTH TO EAST`.
    Move { from: Option<Dir>, to: Dir },
    /// `JUMP AH SOUTH`.
    Jump { ace: Face, dir: Dir },
    /// `DRAW`: draw two.
    Draw,
}

/// One order line: alternatives tried left to right (`… ELSE …`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Order {
    pub alts: Vec<Alt>,
}

impl fmt::Display for Alt {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Alt::Claim { what, dir } => {
                match what {
                    ClaimWhat::Card(c) => write!(f, "CLAIM {c}")?,
                    ClaimWhat::Suit(s) => write!(f, "CLAIM {}", s.upper())?,
                }
                match dir {
                    Some(d) => write!(f, " {d}"),
                    None => Ok(()),
                }
            }
            Alt::Play { card, dir } => write!(f, "PLAY {card} {dir}"),
            Alt::Link { card, dir } => write!(f, "LINK {card} {dir}"),
            Alt::Move { from: Some(from), to } => write!(f, "MOVE STATION {from} TO {to}"),
            Alt::Move { from: None, to } => write!(f, "MOVE STATION {to}"),
            Alt::Jump { ace, dir } => write!(f, "JUMP {ace} {dir}"),
            Alt::Draw => write!(f, "DRAW"),
        }
    }
}

impl fmt::Display for Order {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let parts: Vec<String> = self.alts.iter().map(|a| a.to_string()).collect();
        f.write_str(&parts.join(" ELSE "))
    }
}

const ORDERS_HELP: &str = "orders are CLAIM, PLAY, LINK, MOVE STATION, JUMP and DRAW";

fn dir(word: Option<&&str>, what: &str) -> Result<Dir, String> {
    match word {
        Some(w) => Dir::parse(w).ok_or_else(|| {
            format!("unknown compass point '{w}' after {what}: use NORTH, EAST, SOUTH, WEST or N, E, S, W")
        }),
        None => Err(format!("{what} needs a compass point (NORTH, EAST, SOUTH or WEST)")),
    }
}

fn card(word: Option<&&str>, what: &str) -> Result<Face, String> {
    match word {
        Some(w) => Face::parse(w),
        None => Err(format!("{what} needs a card ({CARD_HELP})")),
    }
}

fn no_more(words: &[&str], used: usize, example: &str) -> Result<(), String> {
    match words.get(used) {
        Some(extra) => Err(format!("unexpected '{extra}' (write it like {example})")),
        None => Ok(()),
    }
}

/// Parses one alternative (no ELSE).
fn parse_alt(words: &[&str]) -> Result<Alt, String> {
    let Some(keyword) = words.first() else {
        return Err("an empty alternative: write an order on each side of ELSE".into());
    };
    let alt = match keyword.to_ascii_uppercase().as_str() {
        "CLAIM" => {
            let Some(what) = words.get(1) else {
                return Err("CLAIM needs a card or a suit (e.g. CLAIM 7H NORTH or CLAIM HEARTS NORTH)".into());
            };
            let what = match (Face::parse(what), Suit::from_word(what)) {
                (Ok(c), _) => ClaimWhat::Card(c),
                (Err(_), Some(s)) => ClaimWhat::Suit(s),
                (Err(e), None) => {
                    return Err(format!("{e}; or name a suit: HEARTS, DIAMONDS, CLUBS, SPADES"));
                }
            };
            let d = match words.get(2) {
                Some(_) => Some(dir(words.get(2), "CLAIM")?),
                None => None,
            };
            no_more(words, 3, "CLAIM 7H NORTH")?;
            Alt::Claim { what, dir: d }
        }
        "PLAY" | "LINK" => {
            let kw = keyword.to_ascii_uppercase();
            let c = card(words.get(1), &kw)?;
            let d = dir(words.get(2), &kw)?;
            no_more(words, 3, &format!("{kw} 7H NORTH"))?;
            if kw == "PLAY" { Alt::Play { card: c, dir: d } } else { Alt::Link { card: c, dir: d } }
        }
        "MOVE" => {
            if !words.get(1).is_some_and(|w| w.eq_ignore_ascii_case("STATION")) {
                return Err("write MOVE STATION <to> or MOVE STATION <from> TO <to>".into());
            }
            if words.get(3).is_some_and(|w| w.eq_ignore_ascii_case("TO")) {
                let from = dir(words.get(2), "MOVE STATION")?;
                let to = dir(words.get(4), "TO")?;
                no_more(words, 5, "MOVE STATION NORTH TO EAST")?;
                Alt::Move { from: Some(from), to }
            } else {
                let to = dir(words.get(2), "MOVE STATION")?;
                no_more(words, 3, "MOVE STATION EAST or MOVE STATION NORTH TO EAST")?;
                Alt::Move { from: None, to }
            }
        }
        "JUMP" => {
            let ace = card(words.get(1), "JUMP")?;
            if ace.rank() != 1 {
                return Err(format!("JUMP needs an Ace, not {ace} (e.g. JUMP AH SOUTH)"));
            }
            let d = dir(words.get(2), "JUMP")?;
            no_more(words, 3, "JUMP AH SOUTH")?;
            Alt::Jump { ace, dir: d }
        }
        "DRAW" => {
            no_more(words, 1, "DRAW")?;
            Alt::Draw
        }
        other => return Err(format!("unknown order '{other}': {ORDERS_HELP}")),
    };
    Ok(alt)
}

/// What an action does, in words ("play 7H on the North chain"), for notes.
pub(crate) fn action_text(a: &Action) -> String {
    match a {
        Action::Claim { card, dir } => format!("claim {} with {card} at {dir}", card.suit().name()),
        Action::Reveal { suit, dir } => {
            format!("claim {} at {dir} by revealing from the Terminal", suit.name())
        }
        Action::Play { card, dir } => format!("play {card} on the {} chain", dir.name()),
        Action::Link { card, dir } => {
            format!("play {card} on the {} chain and link up with its Station", dir.name())
        }
        Action::MoveStation { from, to } => {
            format!("move the Station at the end of the {} chain to the {} chain", from.name(), to.name())
        }
        Action::Jump { ace, dir } => format!("jump trains with {ace} to the {} chain", dir.name()),
        Action::DrawTwo => "draw two cards".to_string(),
    }
}

/// The alternative that orders `a`.
fn order_alt(a: &Action) -> Alt {
    match *a {
        Action::Claim { card, dir } => Alt::Claim { what: ClaimWhat::Card(card), dir: Some(dir) },
        Action::Reveal { suit, dir } => Alt::Claim { what: ClaimWhat::Suit(suit), dir: Some(dir) },
        Action::Play { card, dir } => Alt::Play { card, dir },
        Action::Link { card, dir } => Alt::Link { card, dir },
        Action::MoveStation { from, to } => Alt::Move { from: Some(from), to },
        Action::Jump { ace, dir } => Alt::Jump { ace, dir },
        Action::DrawTwo => Alt::Draw,
    }
}

// RULING R18: a line for another phase is stored with a warning, never refused.
/// Why an alternative belongs to another phase than `phase` (the turn's: a PBEM turn is the
/// claim round or rounds of play, never both), or `None` when it is one of this phase's orders.
fn other_phase(phase: Phase, alt: &Alt) -> Option<String> {
    let claim = matches!(alt, Alt::Claim { .. });
    match phase {
        Phase::Claim if !claim => Some(format!(
            "{alt} is an order for the rounds of play; this turn is the claim round, which takes CLAIM only"
        )),
        Phase::Play if claim => Some(format!(
            "{alt} is an order for the claim round, which is over; in play write PLAY, LINK, MOVE STATION, JUMP or DRAW"
        )),
        _ => None,
    }
}

impl Railroaded {
    /// The action an alternative asks for in this position, or why it names none.
    fn resolve(&self, s: &State, seat: Seat, alt: &Alt) -> Result<Action, String> {
        Ok(match *alt {
            Alt::Claim { what, dir } => {
                let dir = match (dir, s.free_dirs().as_slice()) {
                    (Some(d), _) => d,
                    (None, [only]) => *only,
                    (None, free) => {
                        let names: Vec<&str> = free.iter().map(|d| d.upper()).collect();
                        return Err(format!("name a compass point: {} are free", names.join(", ")));
                    }
                };
                match what {
                    ClaimWhat::Card(card) => Action::Claim { card, dir },
                    ClaimWhat::Suit(suit) => Action::Reveal { suit, dir },
                }
            }
            Alt::Play { card, dir } => Action::Play { card, dir },
            Alt::Link { card, dir } => Action::Link { card, dir },
            Alt::Jump { ace, dir } => Action::Jump { ace, dir },
            Alt::Draw => Action::DrawTwo,
            Alt::Move { from: Some(from), to } => Action::MoveStation { from, to },
            // Without FROM: the only Station that may move there; ambiguity is not guessed.
            Alt::Move { from: None, to } => {
                let movable: Vec<Dir> = Dir::ALL
                    .into_iter()
                    .filter(|f| self.check(s, seat, &Action::MoveStation { from: *f, to }).is_ok())
                    .collect();
                match movable.as_slice() {
                    [from] => Action::MoveStation { from: *from, to },
                    [] => {
                        let sitting = Dir::ALL.into_iter().find(|f| {
                            *f != to && s.chain(*f).and_then(|c| c.end()).is_some_and(|e| e.station.is_some())
                        });
                        return match sitting {
                            Some(f) => self
                                .check(s, seat, &Action::MoveStation { from: f, to })
                                .map(|_| Action::MoveStation { from: f, to })
                                .map_err(|e| e.0),
                            None => Err("no linked Station sits at the end of a chain".to_string()),
                        };
                    }
                    many => {
                        let names: Vec<&str> = many.iter().map(|d| d.name()).collect();
                        return Err(format!(
                            "ambiguous: the Stations on the {} chains could all move to the {} chain; write MOVE STATION {} TO {}",
                            names.join(" and "),
                            to.name(),
                            many[0].upper(),
                            to.upper()
                        ));
                    }
                }
            }
        })
    }
}

impl Orders for Railroaded {
    type Order = Order;

    /// Parses a whole order line (trimmed, whitespace folded, comments removed).
    fn parse_order(&self, line: &str) -> Result<Order, OrderError> {
        let words: Vec<&str> = line.split_whitespace().collect();
        if words.is_empty() {
            return Err(OrderError(format!("an empty order: {ORDERS_HELP}")));
        }
        let alts = words
            .split(|w| w.eq_ignore_ascii_case("ELSE"))
            .map(parse_alt)
            .collect::<Result<Vec<_>, _>>()
            .map_err(OrderError)?;
        Ok(Order { alts })
    }

    // RULING P1: a line carried out with no other alternative is public (its card is on the
    // table now); a line with ELSE alternatives or never reached names cards the seat may hold.
    fn public_lines(&self, sheet: &OrderSheet<Order>, notes: &[LineNote]) -> BTreeSet<usize> {
        let executed = executed_lines(notes);
        sheet
            .orders
            .iter()
            .filter(|o| o.order.alts.len() == 1 && executed.contains(&o.line))
            .map(|o| o.line)
            .collect()
    }

    // Issue 36, the order builder: the seat's own legal actions now (its hand, the chains, the
    // unclaimed suits — all its own or public), each as the line that orders it.
    fn choices(&self, s: &State, seat: Seat) -> Vec<Choices> {
        if !crate::engine::Game::acting_seats(self, s).contains(&seat) {
            return Vec::new();
        }
        // A seat that acts later in the turn orders for when its move comes: its choices as if it
        // were to move now (the table as it stands; its ELSE alternatives cover what changes).
        let mut as_if = s.clone();
        as_if.to_move = seat;
        let lines: Vec<String> =
            self.legal_for(&as_if, seat).iter().map(|a| order_alt(a).to_string()).collect();
        let decision = match s.phase {
            Phase::Claim => {
                "Claim a suit (if another seat claims it first, a line's ELSE alternatives are tried)"
            }
            Phase::Play => "Your play",
            Phase::Over => return Vec::new(),
        };
        if lines.is_empty() { Vec::new() } else { vec![Choices { decision: decision.into(), lines }] }
    }

    // Issue 36: a line with ELSE that was carried out publishes what it did — the event says it
    // anyway — while its text, and so the alternatives never played, stays a hash. The note of a
    // carried-out line starts with the action's words; what follows " (not " names the
    // alternatives before it and is never published.
    fn played_parts(&self, sheet: &OrderSheet<Order>, notes: &[LineNote]) -> BTreeMap<usize, String> {
        let with_else: BTreeSet<usize> =
            sheet.orders.iter().filter(|o| o.order.alts.len() > 1).map(|o| o.line).collect();
        notes
            .iter()
            .filter(|n| n.executed && with_else.contains(&n.line))
            .filter_map(|n| Some((n.line, n.note.split(" (not ").next()?.to_string())))
            .collect()
    }

    /// Answers the seat's turn from its sheet: the first unused line with a legal alternative
    /// is carried out and marked used; the lines before it get notes saying why not.
    fn answer(&self, s: &State, decision: &Decision, sheet: &mut OrderSheet<Order>) -> Answer<Action> {
        let seat = decision.seat;
        let tried = sheet.try_lines(
            |o| o.alts.as_slice(),
            |alt| {
                let action = self.resolve(s, seat, alt)?;
                self.check(s, seat, &action).map_err(|e| e.0)?;
                Ok((action, action_text(&action)))
            },
            |_| NoFit::Keep,
        );
        Answer { action: tried.action, notes: tried.notes }
    }

    /// Warnings at submission: alternatives for another phase than the turn's (issue 36), cards
    /// the seat does not hold, a JUMP with another suit's Ace. Only the seat's own hand and the
    /// table are read: the echo never tells what another seat holds.
    fn advise(&self, s: &State, seat: Seat, order: &Order) -> Option<String> {
        let mut warnings = Vec::new();
        let elsewhere: Vec<String> = order.alts.iter().filter_map(|a| other_phase(s.phase, a)).collect();
        if !elsewhere.is_empty() && elsewhere.len() == order.alts.len() {
            warnings.push(format!("not played this turn: {}", elsewhere.join("; ")));
        } else {
            warnings.extend(elsewhere);
        }
        for alt in &order.alts {
            let named = match alt {
                Alt::Claim { what: ClaimWhat::Card(c), .. }
                | Alt::Play { card: c, .. }
                | Alt::Link { card: c, .. } => Some(*c),
                Alt::Jump { ace, .. } => {
                    if let Some(suit) = s.suit_of(seat).filter(|suit| *suit != ace.suit()) {
                        warnings.push(format!("{ace} is not the Ace of your suit ({})", suit.name()));
                    }
                    Some(*ace)
                }
                _ => None,
            };
            if let Some(c) = named.filter(|c| s.held(seat, *c).is_none()) {
                warnings.push(format!("you do not hold {c}"));
            }
        }
        warnings.dedup();
        (!warnings.is_empty()).then(|| warnings.join("; "))
    }
}
