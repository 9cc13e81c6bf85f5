//! Carrying out a legal action: moving cards, drawing, passing the turn, ending the game, and
//! the events players read. `apply` checks first and works on a copy, so a refused action
//! leaves the state untouched.

use super::Railroaded;
use super::cards::{Card, Dir, Face, Suit, faces_text};
use super::state::{Action, Phase, Placed, State, StationMark};
use crate::engine::{Apply, Event, GameRng, Illegal, Seat};

fn broken<T>(what: &str) -> Result<T, Illegal> {
    Err(Illegal(format!("the game state is inconsistent: {what}")))
}

/// "a card" / "two cards".
fn count_text(n: usize) -> String {
    match n {
        1 => "a card".to_string(),
        2 => "two cards".to_string(),
        n => format!("{n} cards"),
    }
}

impl Railroaded {
    /// Places a beginning card, records the claim and passes to the next chooser; after the
    /// last claim the fourth chooser leads (RULING R4). Claiming draws nothing.
    fn finish_claim(&self, s: &mut State, seat: Seat, card: Card, dir: Dir) {
        s.chains[dir.idx()] = Some(super::state::Chain { owner: seat, cards: vec![Placed::plain(card)] });
        if let Some(me) = s.seats.get_mut(seat.index()) {
            me.suit = Some(card.face.suit());
        }
        s.turns_done += 1;
        if s.seats.iter().all(|x| x.suit.is_some()) {
            s.phase = Phase::Play;
            s.leader = Some(seat);
            s.to_move = seat;
        } else {
            s.to_move = s.seat_after(seat, 1);
        }
    }

    /// The turn's play (everything but the draw); its public event.
    fn play(&self, s: &mut State, seat: Seat, action: &Action) -> Result<Event, Illegal> {
        Ok(match *action {
            Action::Play { card, dir } => {
                let card = take(s, seat, card)?;
                push(s, dir, Placed::plain(card))?;
                Event::public(format!("{seat} played {} on the {} chain", card.face, dir.name()))
            }
            // Linking Up: the card, then the Station turned lengthwise on the end.
            Action::Link { card, dir } => {
                let card = take(s, seat, card)?;
                let Some(station) = s.stations[dir.idx()].take() else {
                    return broken("no Station to link");
                };
                push(s, dir, Placed::plain(card))?;
                push(
                    s,
                    dir,
                    Placed { card: station, station: Some(StationMark { from: dir, linked: true }) },
                )?;
                Event::public(format!(
                    "{seat} played {} on the {} chain and linked up with the {} Station ({})",
                    card.face,
                    dir.name(),
                    dir.name(),
                    station.face
                ))
            }
            // Moving a linked Station (RULING R8): it leaves its old chain.
            Action::MoveStation { from, to } => {
                let Some(placed) = s.chains[from.idx()].as_mut().and_then(|c| c.cards.pop()) else {
                    return broken("no Station to move");
                };
                let Some(mark) = placed.station else {
                    return broken("the moved card is not a Station");
                };
                push(
                    s,
                    to,
                    Placed {
                        card: placed.card,
                        station: Some(StationMark { from: mark.from, linked: false }),
                    },
                )?;
                Event::public(format!(
                    "{seat} moved the {} Station ({}) from the {} chain to the {} chain",
                    mark.from.name(),
                    placed.card.face,
                    from.name(),
                    to.name()
                ))
            }
            Action::Jump { ace, dir } => self.jump(s, seat, ace, dir)?,
            Action::DrawTwo => Event::public(format!("{seat} could not play a card")),
            Action::Claim { .. } | Action::Reveal { .. } => return broken("a claim during play"),
        })
    }

    // Jumping Trains (RULING R10): swap the beginning cards of the two chains (control follows),
    // then swap the seat's old beginning card, now at the target, with the Ace from hand.
    fn jump(&self, s: &mut State, seat: Seat, ace: Face, dir: Dir) -> Result<Event, Illegal> {
        let Some(own) = s.chain_of(seat) else {
            return broken("the jumper has no chain");
        };
        let ace = take(s, seat, ace)?;
        let (Some(mine), Some(theirs)) = (s.chains[own.idx()].take(), s.chains[dir.idx()].take()) else {
            return broken("a jump between missing chains");
        };
        let (Some(my_first), Some(their_first)) =
            (mine.cards.first().copied(), theirs.cards.first().copied())
        else {
            return broken("a chain without a beginning card");
        };
        let other = theirs.owner;
        let mut mine = mine;
        let mut theirs = theirs;
        mine.cards[0] = their_first;
        mine.owner = other;
        theirs.cards[0] = Placed::plain(ace);
        theirs.owner = seat;
        s.chains[own.idx()] = Some(mine);
        s.chains[dir.idx()] = Some(theirs);
        give(s, seat, my_first.card);
        Ok(Event::public(format!(
            "{seat} jumped trains with {}: the {} chain now begins with {} and belongs to {other}; \
             the {} chain now begins with {} and belongs to {seat}; {} went back to {seat}'s hand",
            ace.face,
            own.name(),
            their_first.card.face,
            dir.name(),
            ace.face,
            my_first.card.face
        )))
    }

    /// Draws after the play (compulsory, RULING R2), passes the turn, and ends the game at the
    /// end of the turn in which the last Terminal card is drawn (RULING R12).
    fn end_turn(&self, s: &mut State, seat: Seat, n: usize) -> Vec<Event> {
        let mut drawn = Vec::new();
        for _ in 0..n {
            if let Some(c) = s.terminal.pop() {
                drawn.push(c);
            }
        }
        for c in &drawn {
            give(s, seat, *c);
        }
        let mut events = vec![Event::with_secret(
            format!("{seat} drew {}", count_text(drawn.len())),
            seat,
            format!("you drew {}", faces_text(&drawn)),
        )];
        s.turns_done += 1;
        if s.terminal.is_empty() {
            s.phase = Phase::Over;
            let winners = self.winners(s);
            let names: Vec<String> = winners.iter().map(|w| w.to_string()).collect();
            let best = s.chains.iter().flatten().map(|c| c.len()).max().unwrap_or(0);
            events.push(Event::public(format!(
                "The Terminal is empty: the game is over. {} {} with a chain of {best} cards.",
                names.join(" and "),
                if winners.len() > 1 { "share the win" } else { "wins" }
            )));
        } else {
            s.to_move = s.seat_after(seat, 1);
        }
        events
    }
}

impl Apply for Railroaded {
    /// Applies `action` for the seat to move, atomically.
    fn apply(&self, state: &mut State, action: &Action, rng: &mut GameRng) -> Result<Vec<Event>, Illegal> {
        let seat = state.to_move;
        self.check(state, seat, action)?;
        let mut next = state.clone();
        let mut events = Vec::new();
        match *action {
            Action::Claim { card, dir } => {
                let card = take(&mut next, seat, card)?;
                events.push(Event::public(format!(
                    "{seat} claimed {} with {} at {}",
                    card.face.suit().name(),
                    card.face,
                    dir.upper()
                )));
                self.finish_claim(&mut next, seat, card, dir);
            }
            Action::Reveal { suit, dir } => {
                let (card, text) = reveal(&mut next, seat, suit, rng)?;
                events.push(Event::public(format!(
                    "{seat} held no card of an unclaimed suit and announced {} at {}: {text}",
                    suit.name(),
                    dir.upper()
                )));
                self.finish_claim(&mut next, seat, card, dir);
            }
            _ => {
                events.push(self.play(&mut next, seat, action)?);
                let drawn = if *action == Action::DrawTwo { 2 } else { 1 };
                events.extend(self.end_turn(&mut next, seat, drawn));
            }
        }
        *state = next;
        Ok(events)
    }
}

/// Takes the lowest copy of `face` from a seat's hand.
fn take(s: &mut State, seat: Seat, face: Face) -> Result<Card, Illegal> {
    let Some(hand) = s.seats.get_mut(seat.index()).map(|x| &mut x.hand) else {
        return broken("no such seat");
    };
    match hand.iter().position(|c| c.face == face) {
        Some(i) => Ok(hand.remove(i)),
        None => Err(Illegal(format!("you do not hold {face}"))),
    }
}

/// Puts a card into a seat's hand, keeping it sorted.
fn give(s: &mut State, seat: Seat, card: Card) {
    if let Some(me) = s.seats.get_mut(seat.index()) {
        let at = me.hand.partition_point(|c| *c < card);
        me.hand.insert(at, card);
    }
}

fn push(s: &mut State, dir: Dir, placed: Placed) -> Result<(), Illegal> {
    match s.chains[dir.idx()].as_mut() {
        Some(chain) => {
            chain.cards.push(placed);
            Ok(())
        }
        None => broken("no chain there"),
    }
}

/// The reveal of RULING R1 with the fallback of RULING R3: reveal from the top of the Terminal
/// until a card of `suit` shows; shuffle the other revealed cards back into the Terminal. If the
/// Terminal holds none, take the first Station of that suit (North first; the top Terminal card
/// replaces it); failing that, the first card of that suit in the nearest other hand to the left
/// (its holder draws a replacement). Returns the beginning card and what happened, in words.
fn reveal(s: &mut State, seat: Seat, suit: Suit, rng: &mut GameRng) -> Result<(Card, String), Illegal> {
    let mut others = Vec::new();
    let mut found = None;
    while let Some(c) = s.terminal.pop() {
        if c.face.suit() == suit {
            found = Some(c);
            break;
        }
        others.push(c);
    }
    let mut text = if others.is_empty() {
        String::from("revealed")
    } else {
        format!("revealed {} then", faces_text(&others))
    };
    // RULING R16: the others go back and the whole Terminal is shuffled.
    if !others.is_empty() {
        s.terminal.extend(others.iter().copied());
        rng.shuffle(&mut s.terminal);
    }
    if let Some(c) = found {
        text.push_str(&format!(" {}, which begins the chain", c.face));
        if !others.is_empty() {
            text.push_str(&format!(
                "; the other {} went back into the Terminal, shuffled",
                count_text(others.len())
            ));
        }
        return Ok((c, text));
    }
    let mut text =
        format!("the whole Terminal was revealed without a card of {}, and shuffled again", suit.name());
    if let Some(dir) =
        Dir::ALL.into_iter().find(|d| s.stations[d.idx()].is_some_and(|c| c.face.suit() == suit))
    {
        let Some(card) = s.stations[dir.idx()].take() else {
            return broken("station vanished");
        };
        s.stations[dir.idx()] = s.terminal.pop();
        text.push_str(&format!(
            "; the {} Station {} begins the chain and is replaced from the Terminal",
            dir.name(),
            card.face
        ));
        return Ok((card, text));
    }
    for n in 1..s.seats.len() {
        let other = s.seat_after(seat, n);
        if let Some(card) = s.hand(other).iter().copied().find(|c| c.face.suit() == suit) {
            take(s, other, card.face)?;
            if let Some(replacement) = s.terminal.pop() {
                give(s, other, replacement);
            }
            text.push_str(&format!(
                "; {other} gives up {}, which begins the chain, and draws a replacement",
                card.face
            ));
            return Ok((card, text));
        }
    }
    broken("no card of the announced suit anywhere")
}
