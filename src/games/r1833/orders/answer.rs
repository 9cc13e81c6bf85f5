//! Answering decisions from a seat's order sheet: turn orders in sheet order (conditions read
//! the hand as it is when the line is reached), standing pick-up orders for other players'
//! discards, set-up selections; and advice at submission. The engine's `Orders` role is
//! implemented here (the language itself is `orders::parse`).

use super::super::R1833;
use super::super::data::{CardId, Deck, Kind};
use super::super::routes;
use super::super::state::{Action, Phase, Player, Route, State, TakeRule};
use super::{Cmd, Count, Order, Want, parse};
use crate::engine::{
    Answer, Decision, LineNote, Numbered, OrderError, OrderSheet, Orders, Seat, executed_lines,
};
use std::collections::BTreeSet;

/// The new cards and new links a layout names.
type Laid = (Vec<CardId>, Vec<(CardId, CardId)>);

fn note(line: usize, executed: bool, text: impl Into<String>) -> LineNote {
    LineNote { line, executed, note: text.into() }
}

/// The kind a name refers to in this deck, or a reason.
fn kind(deck: &Deck, n: &str) -> Result<Kind, String> {
    deck.lookup(n).ok_or_else(|| format!("there is no card '{n}' in this game's deck"))
}

/// A card of this kind among `cards`.
fn find(deck: &Deck, cards: &[CardId], k: Kind) -> Option<CardId> {
    cards.iter().copied().find(|c| deck.kind(*c) == k)
}

/// Turns the names of a `TAKE DISCARD` list into rules for this deck.
pub fn take_rules(deck: &Deck, wants: &[Want]) -> Result<Vec<TakeRule>, String> {
    wants
        .iter()
        .map(|w| {
            Ok(match w {
                Want::Name(n) => TakeRule::Kind(kind(deck, n)?),
                Want::AnyLevel(l) => TakeRule::Kind(Kind::Loco(*l)),
                Want::AnyCity => TakeRule::AnyCity,
                Want::AnyPrivate => TakeRule::AnyPrivate,
                Want::AnyCorp => TakeRule::AnyCorp,
                Want::AnyLoco => TakeRule::AnyLoco,
                Want::Any => TakeRule::Any,
            })
        })
        .collect()
}

/// Whether a standing rule asks for a card of kind `k`.
pub fn wants(rule: TakeRule, k: Kind) -> bool {
    match rule {
        TakeRule::Kind(x) => x == k,
        TakeRule::AnyCity => matches!(k, Kind::City(_)),
        TakeRule::AnyPrivate => matches!(k, Kind::Private(_)),
        TakeRule::AnyCorp => matches!(k, Kind::Corp(_)),
        TakeRule::AnyLoco => matches!(k, Kind::Loco(_)),
        TakeRule::Any => true,
    }
}

impl R1833 {
    fn answer_turn(
        &self,
        s: &State,
        sheet: &mut OrderSheet<Order>,
        mut notes: Vec<LineNote>,
    ) -> Answer<Action> {
        let deck = self.deck_of(s);
        let Some(p) = s.player(s.active) else { return Answer { action: None, notes } };
        let mut any_turn_order = false;
        for i in 0..sheet.orders.len() {
            let Some(o) = sheet.orders.get(i) else { continue };
            if matches!(o.order.cmd, Cmd::Take(_) | Cmd::Select(_)) {
                continue;
            }
            any_turn_order = true;
            if sheet.used.get(i).copied().unwrap_or(true) {
                continue;
            }
            let line = o.line;
            let missing: Vec<&String> = o
                .order
                .cond
                .iter()
                .filter(|n| deck.lookup(n).is_none_or(|k| find(deck, &p.hand, k).is_none()))
                .collect();
            let tried = if missing.is_empty() {
                self.resolve(s, p, &o.order.cmd).and_then(|a| self.check(s, &a).map(|_| a).map_err(|e| e.0))
            } else {
                let names: Vec<&str> = missing.iter().map(|x| x.as_str()).collect();
                Err(format!("skipped: your hand has no {}", names.join(" and ")))
            };
            let mut keep = false;
            let result = match tried {
                Ok(a) => {
                    if let Some(o) = sheet.orders.get_mut(i) {
                        keep = match &mut o.order.cmd {
                            Cmd::DrawDeck(Count::N(n)) if *n > 1 => {
                                *n -= 1;
                                true
                            }
                            Cmd::DrawDeck(Count::ToLimit) => p.hand.len() + 1 < usize::from(p.limit),
                            _ => false,
                        };
                    }
                    notes.push(note(line, true, self.action_text(s, &a)));
                    Some(a)
                }
                Err(e) => {
                    notes.push(note(line, false, e));
                    None
                }
            };
            if !keep && let Some(u) = sheet.used.get_mut(i) {
                *u = true;
            }
            if result.is_some() {
                return Answer { action: result, notes };
            }
        }
        // RULING C19: orders carried out (or none usable after an action): the turn ends.
        if any_turn_order && s.turn.actions >= 1 {
            return Answer { action: Some(Action::EndTurn), notes };
        }
        Answer { action: None, notes }
    }

    /// The action an order names in this position, or why it names none.
    fn resolve(&self, s: &State, p: &Player, cmd: &Cmd) -> Result<Action, String> {
        let deck = self.deck_of(s);
        let in_hand = |n: &str| -> Result<CardId, String> {
            let k = kind(deck, n)?;
            find(deck, &p.hand, k).ok_or_else(|| format!("you hold no {n}"))
        };
        Ok(match cmd {
            Cmd::DrawDeck(_) => Action::DrawDeck,
            Cmd::DrawPool(n) => {
                let k = kind(deck, n)?;
                Action::DrawPool(find(deck, &s.pool, k).ok_or_else(|| format!("{n} is not in the pool"))?)
            }
            Cmd::DrawDiscard => Action::DrawDiscard,
            Cmd::Discard(n) => Action::Discard(in_hand(n)?),
            Cmd::Reshuffle => Action::PlayReshuffle(in_hand("Re-Shuffle")?),
            Cmd::End => Action::EndTurn,
            Cmd::Create { level, paths } => {
                let (cards, links) = self.lay(s, p, None, paths)?;
                let cities = cards.iter().filter(|c| matches!(deck.kind(**c), Kind::City(_))).count();
                let loco = pick_loco(deck, p, *level, |l| routes::city_limit(l) >= cities)?;
                Action::Create { loco, cards, links }
            }
            Cmd::Extend { route, level, paths } => {
                let ri = route.saturating_sub(1);
                let r = p.routes.get(usize::from(ri)).ok_or_else(|| format!("you have no route {route}"))?;
                let (cards, links) = self.lay(s, p, Some(r), paths)?;
                let count = routes::route_cities(deck, r).len()
                    + cards.iter().filter(|c| matches!(deck.kind(**c), Kind::City(_))).count();
                let old = routes::level_of(deck, r.loco).unwrap_or(1);
                let loco = match level {
                    Some(_) => Some(pick_loco(deck, p, *level, |_| true)?),
                    None if count > routes::city_limit(old) => {
                        Some(pick_loco(deck, p, None, |l| l > old && routes::city_limit(l) >= count)?)
                    }
                    None => None,
                };
                Action::Extend { route: ri, loco, cards, links }
            }
            Cmd::Select(_) | Cmd::Take(_) => return Err("not an order for your turn".into()),
        })
    }

    /// The new cards (from hand) and new links a layout names; cards already in `route` are
    /// named by their names too.
    fn lay(
        &self,
        s: &State,
        p: &Player,
        route: Option<&Route>,
        paths: &[Vec<String>],
    ) -> Result<Laid, String> {
        let deck = self.deck_of(s);
        let mut new: Vec<CardId> = Vec::new();
        let mut id_of = |n: &str| -> Result<CardId, String> {
            let k = kind(deck, n)?;
            if let Some(c) = route.and_then(|r| find(deck, &r.cards, k)) {
                return Ok(c);
            }
            if let Some(c) = find(deck, &new, k) {
                return Ok(c);
            }
            let free: Vec<CardId> = p.hand.iter().copied().filter(|c| !new.contains(c)).collect();
            let c = find(deck, &free, k).ok_or_else(|| format!("you hold no {n}"))?;
            new.push(c);
            Ok(c)
        };
        let mut links = Vec::new();
        for path in paths {
            let ids = path.iter().map(|n| id_of(n)).collect::<Result<Vec<_>, _>>()?;
            for w in ids.windows(2) {
                let (a, b) = (w[0], w[1]);
                let old = route.is_some_and(|r| r.links.iter().any(|l| *l == (a, b) || *l == (b, a)));
                if !old && !links.iter().any(|l| *l == (a, b) || *l == (b, a)) {
                    links.push((a, b));
                }
            }
        }
        Ok((new, links))
    }
}

impl Orders for R1833 {
    type Order = Order;

    fn parse_order(&self, line: &str) -> Result<Order, OrderError> {
        parse(line)
    }

    // RULING P1: a line carried out is public (what it did is on the table), except standing
    // pick-up orders (the views show them to their seat alone) and conditional lines (the
    // condition names cards in the hand).
    fn public_lines(&self, sheet: &OrderSheet<Order>, notes: &[LineNote]) -> BTreeSet<usize> {
        let executed = executed_lines(notes);
        sheet
            .orders
            .iter()
            .filter(|o| o.order.cond.is_empty() && !matches!(o.order.cmd, Cmd::Take(_)))
            .filter(|o| executed.contains(&o.line))
            .map(|o| o.line)
            .collect()
    }

    /// Answers `decision` from the seat's sheet.
    fn answer(&self, s: &State, d: &Decision, sheet: &mut OrderSheet<Order>) -> Answer<Action> {
        let deck = self.deck_of(s);
        let mut notes = Vec::new();
        let me = s.player(u8::try_from(d.seat.index()).unwrap_or(u8::MAX));
        // Standing pick-up orders in the sheet replace those in force (RULING C10).
        let takes: Vec<(usize, &Vec<Want>)> = sheet
            .orders
            .iter()
            .filter_map(|o| match &o.order.cmd {
                Cmd::Take(w) => Some((o.line, w)),
                _ => None,
            })
            .collect();
        if let Some(&(line, _)) = takes.last() {
            let mut rules = Vec::new();
            for (l, w) in &takes {
                match take_rules(deck, w) {
                    Ok(r) => rules.extend(r),
                    Err(e) => notes.push(note(*l, false, e)),
                }
            }
            if me.is_some_and(|p| p.standing != rules) && s.phase != Phase::Over {
                notes.push(note(line, true, "standing pick-up orders recorded"));
                return Answer { action: Some(Action::SetStanding(rules)), notes };
            }
            notes.clear();
        }
        match &s.phase {
            Phase::Over => Answer { action: None, notes },
            // RULING C10: offers are answered from the standing orders in force.
            Phase::Offer { card, .. } => {
                let k = deck.kind(*card);
                let take = me.is_some_and(|p| p.standing.iter().any(|r| wants(*r, k)));
                let action =
                    if take && self.check(s, &Action::Take).is_ok() { Action::Take } else { Action::Decline };
                Answer { action: Some(action), notes }
            }
            Phase::Select { .. } => {
                for (i, o) in sheet.orders.iter().enumerate() {
                    let Cmd::Select(names) = &o.order.cmd else { continue };
                    if sheet.used.get(i).copied().unwrap_or(true) {
                        continue;
                    }
                    let pick =
                        names.iter().filter_map(|n| deck.lookup(n)).find_map(|k| find(deck, &s.display, k));
                    // A SELECT line is a preference list for every pick of the seat.
                    if let Some(c) = pick {
                        notes.push(note(o.line, true, format!("selected {}", deck.name(c))));
                        return Answer { action: Some(Action::Select(c)), notes };
                    }
                }
                Answer { action: None, notes }
            }
            Phase::Play => self.answer_turn(s, sheet, notes),
        }
    }

    /// The order builder's lines (issue 36), from the seat's own hand and the table (`choices`).
    fn choices(&self, s: &State, seat: Seat) -> Vec<crate::engine::Choices> {
        self.choices_of(s, seat)
    }

    /// The echo of one line: [`Orders::advise_sheet`] on a sheet of that line alone.
    fn advise(&self, s: &State, seat: Seat, o: &Order) -> Option<String> {
        self.echo_lines(s, seat, &[Numbered { line: 1, order: o.clone() }]).pop().flatten()
    }

    /// The echo of a sheet, each line after the lines before it (`echo`, issue 36): another
    /// phase's lines, unknown names with the nearest known, cards not held, a pool card not in
    /// the pool, a route the seat does not have.
    fn advise_sheet(&self, s: &State, seat: Seat, orders: &[Numbered<Order>]) -> Vec<Option<String>> {
        self.echo_lines(s, seat, orders)
    }
}

/// A locomotive from hand: of the level asked, else the lowest that `fits`.
fn pick_loco(
    deck: &Deck,
    p: &Player,
    level: Option<u8>,
    fits: impl Fn(u8) -> bool,
) -> Result<CardId, String> {
    let mut locos: Vec<(u8, CardId)> =
        p.hand.iter().filter_map(|c| routes::level_of(deck, *c).map(|l| (l, *c))).collect();
    locos.sort_unstable();
    match level {
        Some(l) => locos
            .iter()
            .find(|(x, _)| *x == l)
            .map(|(_, c)| *c)
            .ok_or_else(|| format!("you hold no Level {l} locomotive")),
        None => locos
            .iter()
            .find(|(l, _)| fits(*l))
            .map(|(_, c)| *c)
            .ok_or_else(|| "you hold no locomotive that carries these cities".to_string()),
    }
}
