//! Whether an action is legal for the seat that must decide, with a reason a player can read
//! when it is not. `apply` runs these checks first and only then changes the state.

use super::R1833;
use super::data::{CardId, Deck, Kind};
use super::routes;
use super::state::{Action, Phase, Player, State};
use crate::engine::Illegal;

fn no<T>(msg: impl Into<String>) -> Result<T, Illegal> {
    Err(Illegal(msg.into()))
}

/// Whether a player has room for one more card (Hand Limit ¶1).
pub fn has_room(p: &Player) -> bool {
    p.hand.len() < usize::from(p.limit)
}

impl R1833 {
    /// The deck a game is played with.
    pub fn deck_of<'a>(&'a self, s: &'a State) -> &'a Deck {
        s.custom_deck.as_deref().unwrap_or(&self.deck)
    }

    /// The active player.
    pub(crate) fn active<'a>(&self, s: &'a State) -> Result<&'a Player, Illegal> {
        s.player(s.active).ok_or_else(|| Illegal("the game state has no active player".into()))
    }

    /// Checks `action` for the seat that must decide now.
    pub(crate) fn check(&self, s: &State, action: &Action) -> Result<(), Illegal> {
        if let Action::SetStanding(_) = action {
            return if s.phase == Phase::Over { no("the game is over") } else { Ok(()) };
        }
        match &s.phase {
            Phase::Over => no("the game is over"),
            Phase::Select { .. } => match action {
                Action::Select(c) if s.display.contains(c) => Ok(()),
                Action::Select(c) => no(format!("{} is not in the display", self.deck_of(s).name(*c))),
                _ => no("set-up: select one card from the display first"),
            },
            Phase::Offer { card, queue } => match action {
                Action::Take => {
                    let p = queue.first().and_then(|i| s.player(*i));
                    if p.is_some_and(has_room) && s.discard.last() == Some(card) {
                        Ok(())
                    } else {
                        no("you cannot take the discarded card: your hand is at its limit")
                    }
                }
                Action::Decline => Ok(()),
                _ => no(format!(
                    "first answer the offer of the discarded {}: TAKE or DECLINE",
                    self.deck_of(s).name(*card)
                )),
            },
            Phase::Play => self.check_play(s, action),
        }
    }

    fn check_play(&self, s: &State, action: &Action) -> Result<(), Illegal> {
        let deck = self.deck_of(s);
        let p = self.active(s)?;
        let t = &s.turn;
        let full = || no(format!("your hand is at its limit of {}", p.limit));
        match action {
            Action::DrawDeck if !has_room(p) => full(),
            Action::DrawDeck if s.draw.is_empty() => no("the draw deck is empty"),
            Action::DrawDeck => Ok(()),
            Action::DrawPool(c) => {
                if !s.pool.contains(c) {
                    no(format!("{} is not in the selection pool", deck.name(*c)))
                } else if !has_room(p) {
                    full()
                } else if s.ending.is_some() && t.pool_after_end >= 1 {
                    // Ending the Game ¶2; RULING C16.
                    no("after the deck ran out, only one card may be taken from the pool per turn")
                } else {
                    Ok(())
                }
            }
            Action::DrawDiscard => self.check_discard_draw(s, p),
            Action::Discard(c) => {
                if !p.hand.contains(c) {
                    no(format!("{} is not in your hand", deck.name(*c)))
                } else if deck.kind(*c) == Kind::Reshuffle {
                    no("a Re-Shuffle card may never be discarded")
                } else if t.discards_closed {
                    no("nobody picked up your last discard: no further discards this turn")
                } else {
                    Ok(())
                }
            }
            Action::Create { loco, cards, links } => {
                // RULING C18: one route action per turn.
                if t.route_done {
                    return no("you have already created or extended a route this turn");
                }
                routes::check_create(deck, s, p, *loco, cards, links)
            }
            Action::Extend { route, loco, cards, links } => {
                if t.route_done {
                    return no("you have already created or extended a route this turn");
                }
                let r = p.routes.get(usize::from(*route)).ok_or_else(|| {
                    Illegal(format!(
                        "you have no route {} (you have {})",
                        u16::from(*route) + 1,
                        p.routes.len()
                    ))
                })?;
                routes::check_extend(deck, s, p, r, *loco, cards, links)
            }
            Action::PlayReshuffle(c) => self.check_reshuffle(s, p, *c),
            Action::EndTurn => {
                if t.actions >= 1 || !self.can_act(s, p) {
                    Ok(())
                } else {
                    no("you must take at least one action before ending your turn")
                }
            }
            // RULING C20: the default draw is legal only when it draws (as `legal` lists it).
            Action::DrawToLimitAndEnd => self.check_play(s, &Action::DrawDeck),
            _ => no("it is your turn: draw, discard, build a route, play a Re-Shuffle or END"),
        }
    }

    fn check_discard_draw(&self, s: &State, p: &Player) -> Result<(), Illegal> {
        let Some(top) = s.discard.last() else {
            return no("the discard pile is empty");
        };
        if s.turn.took_discard {
            no("only one card may be taken from the discard pile per turn")
        } else if s.turn.discarded.contains(top) {
            no("you may not take back a card you discarded this turn")
        } else if !has_room(p) {
            no(format!("your hand is at its limit of {}", p.limit))
        } else {
            Ok(())
        }
    }

    fn check_reshuffle(&self, s: &State, p: &Player, c: CardId) -> Result<(), Illegal> {
        if !p.hand.contains(&c) || self.deck_of(s).kind(c) != Kind::Reshuffle {
            return no("you hold no such Re-Shuffle card");
        }
        if s.turn.played_reshuffle {
            return no("only one Re-Shuffle card may be played per turn");
        }
        if s.ending.is_some() || s.draw.is_empty() {
            return no("no Re-Shuffle may be played after the last deck card was drawn");
        }
        if s.players.iter().any(|x| !x.had_turn) {
            // RULING C7.
            return no("not every player has had a turn since the last Re-Shuffle");
        }
        Ok(())
    }

    /// Whether the active player could take any action at all (RULING C8: otherwise they may
    /// end the turn without one). Routes need a non-Re-Shuffle card, which could be discarded.
    pub(crate) fn can_act(&self, s: &State, p: &Player) -> bool {
        let deck = self.deck_of(s);
        let room = has_room(p);
        let pool_spent = s.ending.is_some() && s.turn.pool_after_end >= 1;
        let pool_ok = !s.pool.is_empty() && !pool_spent;
        let draw = room && (!s.draw.is_empty() || pool_ok || self.check_discard_draw(s, p).is_ok());
        let discard = !s.turn.discards_closed && p.hand.iter().any(|c| deck.kind(*c) != Kind::Reshuffle);
        let reshuffle =
            p.hand.iter().any(|c| deck.kind(*c) == Kind::Reshuffle && self.check_reshuffle(s, p, *c).is_ok());
        draw || discard || reshuffle
    }
}
