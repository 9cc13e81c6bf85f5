//! Carrying out a checked action: moving cards between piles, the pick-up offer, Re-Shuffles,
//! the end of a turn and of the game, and the events players read. `apply_action` checks
//! first; the changes after a successful check cannot fail, so a refused action leaves the
//! state untouched.

use super::R1833;
use super::check::has_room;
use super::data::{CardId, Kind};
use super::routes;
use super::setup::MAX_LIMIT;
use super::state::{Action, Ending, Phase, Route, State, TurnLog};
use crate::engine::{Apply, Event, GameRng, Illegal, Seat};

fn seat(i: u8) -> Seat {
    Seat::from_index(usize::from(i))
}

fn take_from(v: &mut Vec<CardId>, c: CardId) -> bool {
    match v.iter().position(|x| *x == c) {
        Some(i) => {
            v.remove(i);
            true
        }
        None => false,
    }
}

impl R1833 {
    /// The seat index that must decide now.
    pub(crate) fn decider(&self, s: &State) -> u8 {
        match &s.phase {
            Phase::Select { order, next } => order.get(usize::from(*next)).copied().unwrap_or(0),
            Phase::Offer { queue, .. } => queue.first().copied().unwrap_or(s.active),
            Phase::Play | Phase::Over => s.active,
        }
    }

    fn select(&self, s: &mut State, c: CardId, rng: &mut GameRng, ev: &mut Vec<Event>) {
        let who = self.decider(s);
        take_from(&mut s.display, c);
        if let Some(p) = s.players.get_mut(usize::from(who)) {
            p.hand.push(c);
        }
        ev.push(Event::public(format!(
            "{} selected {} from the display",
            seat(who),
            self.deck_of(s).name_str(c)
        )));
        let mut done = false;
        if let Phase::Select { order, next } = &mut s.phase {
            *next += 1;
            done = usize::from(*next) >= order.len();
        }
        if done {
            self.finish_setup(s, rng);
            ev.push(Event::public(format!(
                "the selection is over; the pool is {}; seat 1 begins",
                self.names(s, &s.pool)
            )));
        }
    }

    fn answer_offer(&self, s: &mut State, take: bool, ev: &mut Vec<Event>) {
        let Phase::Offer { card, queue } = &s.phase else {
            return;
        };
        let (card, who) = (*card, queue.first().copied().unwrap_or(0));
        let deck = self.deck_arc(s);
        let name = deck.name_str(card);
        if take {
            s.discard.pop();
            if let Some(p) = s.players.get_mut(usize::from(who)) {
                p.hand.push(card);
            }
            s.phase = Phase::Play;
            ev.push(Event::public(format!("{} picked up the discarded {name}", seat(who))));
            return;
        }
        let mut none_left = true;
        if let Phase::Offer { queue, .. } = &mut s.phase {
            if !queue.is_empty() {
                queue.remove(0);
            }
            none_left = queue.is_empty();
        }
        ev.push(Event::public(format!("{} declined the discarded {name}", seat(who))));
        if none_left {
            s.phase = Phase::Play;
            s.turn.discards_closed = true;
            ev.push(Event::public(format!("nobody picked up the {name}: no further discards this turn")));
        }
    }

    fn play_action(&self, s: &mut State, action: &Action, rng: &mut GameRng, ev: &mut Vec<Event>) {
        let deck = self.deck_arc(s);
        let a = s.active;
        let me = seat(a);
        match action {
            Action::DrawDeck => self.draw_deck(s, rng, ev),
            Action::DrawPool(c) => self.take_pool(s, *c, rng, ev),
            Action::DrawDiscard => {
                if let Some(c) = s.discard.pop() {
                    self.hand_mut(s).push(c);
                    s.turn.took_discard = true;
                    ev.push(Event::public(format!("{me} took {} from the discard pile", deck.name_str(c))));
                }
            }
            Action::Discard(c) => {
                take_from(self.hand_mut(s), *c);
                s.discard.push(*c);
                s.turn.discarded.push(*c);
                ev.push(Event::public(format!("{me} discarded {}", deck.name_str(*c))));
                // Drawing/Discarding ¶1: offered to each other player in turn order; players
                // at their hand limit could not take it and are passed over (RULING C9).
                let queue: Vec<u8> =
                    s.others_in_order(a).into_iter().filter(|i| s.player(*i).is_some_and(has_room)).collect();
                if queue.is_empty() {
                    s.turn.discards_closed = true;
                    ev.push(Event::public("nobody can take it: no further discards this turn"));
                } else {
                    s.phase = Phase::Offer { card: *c, queue };
                }
            }
            Action::Create { loco, cards, links } => {
                let level = routes::level_of(&deck, *loco).unwrap_or(1);
                let hand = self.hand_mut(s);
                take_from(hand, *loco);
                for c in cards {
                    take_from(hand, *c);
                }
                let r = Route { loco: *loco, cards: cards.clone(), links: links.clone() };
                let value = routes::value(&deck, &r);
                if let Some(p) = s.players.get_mut(usize::from(a)) {
                    p.routes.push(r);
                    let idx = usize::from(level.saturating_sub(1)).min(2);
                    // Hand Limit ¶1: +1 for the first route created with each level.
                    if !p.created[idx] {
                        p.created[idx] = true;
                        p.limit = (p.limit + 1).min(MAX_LIMIT);
                    }
                }
                ev.push(Event::public(format!(
                    "{me} created a Level {level} route worth {value}: {}",
                    self.route_text(&deck, cards, links)
                )));
            }
            Action::Extend { route, loco, cards, links } => {
                let hand = self.hand_mut(s);
                for c in cards.iter().chain(loco.iter()) {
                    take_from(hand, *c);
                }
                let mut old_loco = None;
                if let Some(r) =
                    s.players.get_mut(usize::from(a)).and_then(|p| p.routes.get_mut(usize::from(*route)))
                {
                    if let Some(l) = loco {
                        old_loco = Some(std::mem::replace(&mut r.loco, *l));
                    }
                    r.cards.extend_from_slice(cards);
                    r.links.extend_from_slice(links);
                }
                if let Some(old) = old_loco {
                    // ¶7: the replaced locomotive leaves the game.
                    s.removed.push(old);
                }
                let up = loco.map(|l| format!(" with a new {}", deck.name_str(l))).unwrap_or_default();
                ev.push(Event::public(format!(
                    "{me} extended route {}{up}: {}",
                    u16::from(*route) + 1,
                    self.route_text(&deck, cards, links)
                )));
            }
            Action::PlayReshuffle(c) => {
                take_from(self.hand_mut(s), *c);
                s.removed.push(*c);
                s.turn.played_reshuffle = true;
                ev.push(Event::public(format!("{me} played a Re-Shuffle")));
                self.reshuffle(s, rng, ev);
            }
            Action::EndTurn => self.end_turn(s, ev),
            Action::DrawToLimitAndEnd => {
                // The check made sure at least one card can be drawn (RULING C20).
                while s.player(a).is_some_and(has_room) && !s.draw.is_empty() && s.phase == Phase::Play {
                    self.draw_deck(s, rng, ev);
                }
                self.end_turn(s, ev);
                return;
            }
            _ => return,
        }
        if !matches!(action, Action::EndTurn) {
            s.turn.actions += 1;
        }
        if let Action::Create { .. } | Action::Extend { .. } = action {
            s.turn.route_done = true;
        }
    }

    fn hand_mut<'a>(&self, s: &'a mut State) -> &'a mut Vec<CardId> {
        let a = usize::from(s.active);
        match s.players.get_mut(a) {
            Some(p) => &mut p.hand,
            None => &mut s.removed,
        }
    }

    /// Starts the end of the game when the deck has just run out (Ending the Game ¶1).
    fn check_deck_out(&self, s: &mut State, ev: &mut Vec<Event>) {
        if s.draw.is_empty() && s.ending.is_none() && s.phase != Phase::Over {
            s.ending = Some(Ending { trigger: s.active, turns_left: None });
            ev.push(Event::public(format!(
                "the last card of the draw deck is taken: after {}'s turn, every other player has one more turn",
                seat(s.active)
            )));
        }
    }

    fn draw_deck(&self, s: &mut State, rng: &mut GameRng, ev: &mut Vec<Event>) {
        let Some(c) = s.draw.pop() else { return };
        let deck = self.deck_arc(s);
        if deck.kind(c) == Kind::Reshuffle && s.draw.is_empty() {
            // Re-Shuffle ¶2: a Re-Shuffle as the last deck card is played (RULING C14).
            s.removed.push(c);
            ev.push(Event::public("the last deck card was a Re-Shuffle: it is played"));
            self.reshuffle(s, rng, ev);
            return;
        }
        self.hand_mut(s).push(c);
        ev.push(Event::with_secret(
            format!("{} drew from the deck", seat(s.active)),
            seat(s.active),
            format!("drew {}", deck.name_str(c)),
        ));
        self.check_deck_out(s, ev);
    }

    fn take_pool(&self, s: &mut State, c: CardId, rng: &mut GameRng, ev: &mut Vec<Event>) {
        let deck = self.deck_arc(s);
        take_from(&mut s.pool, c);
        self.hand_mut(s).push(c);
        ev.push(Event::public(format!("{} took {} from the pool", seat(s.active), deck.name_str(c))));
        if s.ending.is_some() {
            s.turn.pool_after_end += 1;
            return;
        }
        match s.draw.pop() {
            None => {}
            Some(r) if deck.kind(r) == Kind::Reshuffle => {
                // Re-Shuffle ¶1: a Re-Shuffle coming up in the pool is played regardless (RULING C14).
                s.removed.push(r);
                ev.push(Event::public("a Re-Shuffle came up in the selection pool: it is played"));
                self.reshuffle(s, rng, ev);
            }
            Some(r) => {
                s.pool.push(r);
                self.check_deck_out(s, ev);
            }
        }
    }

    /// Re-Shuffle ¶1: discard pile and pool shuffled into the draw deck, a new pool formed, the
    /// direction of play reversed after this turn; every player must have a turn before the
    /// next Re-Shuffle may be played from hand.
    fn reshuffle(&self, s: &mut State, rng: &mut GameRng, ev: &mut Vec<Event>) {
        let mut all = std::mem::take(&mut s.discard);
        all.append(&mut s.pool);
        all.append(&mut s.draw);
        rng.shuffle(&mut all);
        s.draw = all;
        // RULING C15: every Re-Shuffle reverses; the parity applies when the turn ends.
        s.turn.reversals = s.turn.reversals.wrapping_add(1);
        for p in &mut s.players {
            p.had_turn = false;
        }
        self.form_pool(s, rng);
        ev.push(Event::public(format!(
            "deck, pool and discard pile were reshuffled; new pool: {}; direction reverses after this turn",
            self.names(s, &s.pool)
        )));
        self.check_deck_out(s, ev);
    }

    /// Forms the selection pool of one card per player (Set-up ¶4); a Re-Shuffle that comes up
    /// goes back into the deck and is replaced (Re-Shuffle ¶3; RULING C6 when only Re-Shuffles
    /// are left).
    pub(crate) fn form_pool(&self, s: &mut State, rng: &mut GameRng) {
        let deck = self.deck_arc(s);
        while s.pool.len() < s.players.len() {
            let Some(c) = s.draw.pop() else { break };
            if deck.kind(c) != Kind::Reshuffle {
                s.pool.push(c);
            } else if s.draw.iter().any(|x| deck.kind(*x) != Kind::Reshuffle) {
                let at = rng.below(s.draw.len() as u64 + 1) as usize;
                s.draw.insert(at.min(s.draw.len()), c);
            } else {
                s.removed.push(c);
            }
        }
    }

    /// Ends the active player's turn: the direction reverses after an odd number of
    /// Re-Shuffles, the end of the game counts down, the next player begins.
    fn end_turn(&self, s: &mut State, ev: &mut Vec<Event>) {
        let me = seat(s.active);
        if s.turn.reversals % 2 == 1 {
            s.clockwise = !s.clockwise;
            ev.push(Event::public("the direction of play is reversed"));
        }
        s.turns_taken += 1;
        ev.push(Event::public(format!("{me} ended the turn")));
        if let Some(e) = &mut s.ending {
            let left = match e.turns_left {
                None => s.players.len().saturating_sub(1),
                Some(k) => usize::from(k).saturating_sub(1),
            };
            e.turns_left = Some(u8::try_from(left).unwrap_or(0));
            if left == 0 {
                s.phase = Phase::Over;
                ev.push(Event::public("the game is over"));
                return;
            }
        }
        s.active = s.next_of(s.active);
        s.turn = TurnLog::default();
        if let Some(p) = s.players.get_mut(usize::from(s.active)) {
            p.had_turn = true;
        }
    }
}

impl Apply for R1833 {
    /// Applies `action` for the seat that must decide, atomically.
    fn apply(&self, s: &mut State, action: &Action, rng: &mut GameRng) -> Result<Vec<Event>, Illegal> {
        self.check(s, action)?;
        let mut ev = Vec::new();
        match action {
            Action::SetStanding(rules) => {
                let who = self.decider(s);
                if let Some(p) = s.players.get_mut(usize::from(who)) {
                    p.standing = rules.clone();
                }
                ev.push(Event::with_secret(
                    format!("{} set standing pick-up orders", seat(who)),
                    seat(who),
                    self.standing_text(s, rules),
                ));
            }
            Action::Select(c) => self.select(s, *c, rng, &mut ev),
            Action::Take | Action::Decline => self.answer_offer(s, *action == Action::Take, &mut ev),
            _ => self.play_action(s, action, rng, &mut ev),
        }
        Ok(ev)
    }
}
