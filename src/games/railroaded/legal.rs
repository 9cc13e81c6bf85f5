//! Legality: when a card fits a chain, whether an action is legal now (with a reason a player
//! can read when it is not), every legal action, and the forced default.
//!
//! `check` is the single source of truth: `legal_for` filters candidates through it and `apply`
//! refuses whatever it refuses.

use super::Railroaded;
use super::cards::{Dir, Face};
use super::state::{Action, Chain, Phase, State};
use crate::engine::{Decision, Illegal, Rules, Seat};

fn illegal<T>(reason: impl Into<String>) -> Result<T, Illegal> {
    Err(Illegal(reason.into()))
}

/// "the North chain (ends in 9C)".
pub(crate) fn chain_text(dir: Dir, chain: &Chain) -> String {
    match chain.end() {
        Some(end) => format!("the {} chain (ends in {})", dir.name(), end.card.face),
        None => format!("the {} chain", dir.name()),
    }
}

impl Railroaded {
    /// Chain legality: same colour and rank one higher or lower, or different colour and same
    /// rank. Ace = 1, J/Q/K = 11/12/13, no wrap between King and Ace (RULING R17). Symmetric,
    /// so it also says whether a Station fits the card played before it.
    pub(crate) fn fits(&self, card: Face, onto: Face) -> bool {
        if self.rules.colour(card.suit()) == self.rules.colour(onto.suit()) {
            card.rank().abs_diff(onto.rank()) == 1
        } else {
            card.rank() == onto.rank()
        }
    }

    /// Whether `seat` may take `action` now; the reason when not.
    pub(crate) fn check(&self, s: &State, seat: Seat, action: &Action) -> Result<(), Illegal> {
        if s.phase == Phase::Over {
            return illegal("the game is over");
        }
        if seat != s.to_move {
            return illegal(format!("it is {}'s turn, not {seat}'s", s.to_move));
        }
        match (s.phase, action) {
            (Phase::Claim, Action::Claim { card, dir }) => {
                self.check_claim(s, seat, card.suit(), *dir)?;
                match s.held(seat, *card) {
                    Some(_) => Ok(()),
                    None => illegal(format!("you do not hold {card}")),
                }
            }
            (Phase::Claim, Action::Reveal { suit, dir }) => {
                self.check_claim(s, seat, *suit, *dir)?;
                // RULING R1: revealing is only for a seat with no card of any unclaimed suit.
                let unclaimed = s.unclaimed_suits();
                match s.hand(seat).iter().find(|c| unclaimed.contains(&c.face.suit())) {
                    Some(c) => illegal(format!(
                        "you hold {} of the unclaimed {}: claim with a card from your hand \
                         (revealing from the Terminal is only for a seat holding no card of any \
                         unclaimed suit)",
                        c.face,
                        c.face.suit().name()
                    )),
                    None => Ok(()),
                }
            }
            (Phase::Claim, _) => illegal("it is the claim round: claim a suit first (e.g. CLAIM 7H NORTH)"),
            (_, Action::Claim { .. } | Action::Reveal { .. }) => illegal("the claim round is over"),
            (_, Action::Play { card, dir }) => self.check_play(s, seat, *card, *dir).map(|_| ()),
            (_, Action::Link { card, dir }) => self.check_link(s, seat, *card, *dir),
            (_, Action::MoveStation { from, to }) => self.check_move(s, *from, *to),
            (_, Action::Jump { ace, dir }) => self.check_jump(s, seat, *ace, *dir),
            (_, Action::DrawTwo) => self.check_draw(s, seat),
        }
    }

    fn check_claim(&self, s: &State, seat: Seat, suit: super::cards::Suit, dir: Dir) -> Result<(), Illegal> {
        if s.suit_of(seat).is_some() {
            return illegal("you have already claimed a suit");
        }
        if let Some(other) = s.claimant(suit) {
            return illegal(format!("{} is already claimed by {other}", suit.name()));
        }
        if let Some(chain) = s.chain(dir) {
            return illegal(format!("{} is already taken by {}'s chain", dir.upper(), chain.owner));
        }
        Ok(())
    }

    fn check_play<'s>(&self, s: &'s State, seat: Seat, card: Face, dir: Dir) -> Result<&'s Chain, Illegal> {
        if s.held(seat, card).is_none() {
            return illegal(format!("you do not hold {card}"));
        }
        let Some(chain) = s.chain(dir) else {
            return illegal(format!("there is no {} chain", dir.name()));
        };
        match chain.end() {
            Some(end) if self.fits(card, end.card.face) => Ok(chain),
            _ => illegal(format!("{card} does not fit {}", chain_text(dir, chain))),
        }
    }

    // Linking Up: at least ten cards already (RULING R5), a card fitting both the chain end and
    // the Station in front of it, and that Station not yet linked (RULING R7).
    fn check_link(&self, s: &State, seat: Seat, card: Face, dir: Dir) -> Result<(), Illegal> {
        let chain = self.check_play(s, seat, card, dir)?;
        let Some(station) = s.stations[dir.idx()] else {
            return illegal(format!("the {} Station has already been linked", dir.name()));
        };
        if chain.len() < self.rules.link_threshold {
            return illegal(format!(
                "the {} chain has {} cards; it needs at least {} to link with its Station",
                dir.name(),
                chain.len(),
                self.rules.link_threshold
            ));
        }
        if !self.fits(card, station.face) {
            return illegal(format!(
                "{card} fits the {} chain but not the {} Station ({})",
                dir.name(),
                dir.name(),
                station.face
            ));
        }
        Ok(())
    }

    // Moving a linked Station (RULINGS R8, R9).
    fn check_move(&self, s: &State, from: Dir, to: Dir) -> Result<(), Illegal> {
        if from == to {
            return illegal("a Station can only move to a different chain");
        }
        let Some(source) = s.chain(from) else {
            return illegal(format!("there is no {} chain", from.name()));
        };
        let Some(station) = source.end().filter(|p| p.station.is_some()) else {
            return illegal(format!(
                "{} does not end in a linked Station (a Station can move only while it is the \
                 last card of its chain)",
                chain_text(from, source)
            ));
        };
        let Some(target) = s.chain(to) else {
            return illegal(format!("there is no {} chain", to.name()));
        };
        let Some(end) = target.end() else {
            return illegal(format!("the {} chain is empty", to.name()));
        };
        if end.station.is_some_and(|m| m.linked) {
            return illegal(format!(
                "the {} chain ends in a Station placed by a linking play ({}): it is exempt and \
                 cannot receive a moved Station",
                to.name(),
                end.card.face
            ));
        }
        if !self.fits(station.card.face, end.card.face) {
            return illegal(format!(
                "the Station {} on the {} chain does not fit {}",
                station.card.face,
                from.name(),
                chain_text(to, target)
            ));
        }
        Ok(())
    }

    // Jumping Trains (RULING R10).
    fn check_jump(&self, s: &State, seat: Seat, ace: Face, dir: Dir) -> Result<(), Illegal> {
        let Some(suit) = s.suit_of(seat) else {
            return illegal("you have not claimed a suit");
        };
        if ace != Face::ace(suit) {
            return illegal(format!("jumping trains needs the Ace of your suit ({})", Face::ace(suit)));
        }
        if s.held(seat, ace).is_none() {
            return illegal(format!("you do not hold {ace}"));
        }
        match s.chain_of(seat) {
            None => illegal("you control no chain to jump from"),
            Some(own) if own == dir => illegal(format!("you already control the {} chain", dir.name())),
            Some(_) if s.chain(dir).is_none() => illegal(format!("there is no {} chain", dir.name())),
            Some(_) => Ok(()),
        }
    }

    // "if a player is unable to play on any of the current chains, they draw two" (RULING R11).
    fn check_draw(&self, s: &State, seat: Seat) -> Result<(), Illegal> {
        for face in s.hand_faces(seat) {
            for dir in Dir::ALL {
                if let Some(chain) =
                    s.chain(dir).filter(|c| c.end().is_some_and(|e| self.fits(face, e.card.face)))
                {
                    return illegal(format!(
                        "you can play {face} on {}: you must play if you can, and draw two only \
                         when no card fits",
                        chain_text(dir, chain)
                    ));
                }
            }
        }
        Ok(())
    }

    /// Every legal action for `seat`, in canonical order: claims (hand cards by suit and rank,
    /// then compass points) then reveals; or plays (chains North, East, South, West; hand cards
    /// by suit and rank), links, Station moves, jumps, draw two.
    pub(crate) fn legal_for(&self, s: &State, seat: Seat) -> Vec<Action> {
        let faces = s.hand_faces(seat);
        let mut candidates = Vec::new();
        match s.phase {
            Phase::Over => {}
            Phase::Claim => {
                for card in &faces {
                    candidates.extend(Dir::ALL.map(|dir| Action::Claim { card: *card, dir }));
                }
                for suit in s.unclaimed_suits() {
                    candidates.extend(Dir::ALL.map(|dir| Action::Reveal { suit, dir }));
                }
            }
            Phase::Play => {
                for dir in Dir::ALL {
                    candidates.extend(faces.iter().map(|card| Action::Play { card: *card, dir }));
                }
                for dir in Dir::ALL {
                    candidates.extend(faces.iter().map(|card| Action::Link { card: *card, dir }));
                }
                for from in Dir::ALL {
                    candidates.extend(Dir::ALL.map(|to| Action::MoveStation { from, to }));
                }
                if let Some(suit) = s.suit_of(seat) {
                    candidates.extend(Dir::ALL.map(|dir| Action::Jump { ace: Face::ace(suit), dir }));
                }
                candidates.push(Action::DrawTwo);
            }
        }
        candidates.retain(|a| self.check(s, seat, a).is_ok());
        candidates
    }
}

impl Rules for Railroaded {
    type State = State;
    type Action = Action;

    fn next_decision(&self, s: &State) -> Option<Decision> {
        let prompt = match s.phase {
            Phase::Over => return None,
            Phase::Claim => {
                let suits: Vec<&str> = s.unclaimed_suits().iter().map(|x| x.name()).collect();
                let dirs: Vec<&str> = s.free_dirs().iter().map(|d| d.upper()).collect();
                format!(
                    "claim a suit ({} unclaimed) at a free compass point ({}): place a card of it \
                     from your hand, or reveal from the Terminal if you hold none",
                    suits.join(", "),
                    dirs.join(", ")
                )
            }
            Phase::Play => format!(
                "play a card on a chain, link up, move a linked Station or jump trains; draw two \
                 only if no card fits ({} cards left in the Terminal)",
                s.terminal.len()
            ),
        };
        Some(Decision { seat: s.to_move, prompt })
    }

    /// The legal actions of the seat to move (every decision is its own; RULING S23).
    fn legal_actions(&self, s: &State) -> Vec<Action> {
        self.legal_for(s, s.to_move)
    }

    /// The forced default (RULING R14): the first legal claim in canonical order; in play, the
    /// first legal card play in canonical order, else draw two. Never links, moves or jumps.
    fn default_action(&self, s: &State) -> Option<Action> {
        let legal = self.legal_for(s, s.to_move);
        match s.phase {
            Phase::Claim => legal.first().copied(),
            Phase::Play => legal
                .iter()
                .find(|a| matches!(a, Action::Play { .. }))
                .or_else(|| legal.iter().find(|a| matches!(a, Action::DrawTwo)))
                .copied(),
            Phase::Over => None,
        }
    }
}
