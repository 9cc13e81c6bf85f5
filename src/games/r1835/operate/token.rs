//! The token step (FACTS §7.5): one normal station per turn, 20 M per hex from home, paid from
//! the treasury, no more stations than the company has; the privates' free stations (NF on L14,
//! PfB on L6) for their owner acting as president, only in the token step (HR 6, option
//! `nf_pfb_token_step_only`), closing the private (NF: power used; PfB: HR 5). Home stations:
//! share companies when they float, the Badische in its first operating round (HR 8), minors at
//! the start of the first operating round after their purchase (RULING K26).

use super::refuse;
use crate::engine::Event;
use crate::games::r1835::R1835;
use crate::games::r1835::actions::{Action, Refusal, illegal};
use crate::games::r1835::board::stations::home_of;
use crate::games::r1835::board::{TokenLay, Via, check_token, check_token_city, city_number, legal_tokens};
use crate::games::r1835::holdings::{Holder, pay};
use crate::games::r1835::state::{Entity, State, Step};

impl R1835 {
    /// Station tokens an entity has in all (data).
    fn tokens_owned(&self, e: Entity) -> usize {
        match e {
            Entity::Minor(m) => self.data.minors.get(usize::from(m)).map_or(0, |x| usize::from(x.tokens)),
            Entity::Major(c) => self.data.majors.get(usize::from(c)).map_or(0, |x| usize::from(x.tokens)),
        }
    }

    /// Station tokens of a company on the board.
    fn tokens_on_board(s: &State, id: &str) -> usize {
        s.board.tokens.values().flatten().filter(|t| t.company == id).count()
    }

    /// Puts an entity's home station on the board (free, no connection; FACTS §7.5). A home
    /// that cannot be placed (its city full: impossible with the circles kept, K30) is reported.
    pub(crate) fn place_home(&self, s: &mut State, e: Entity, ev: &mut Vec<Event>) {
        let id = self.entity_id(s, e);
        let Some((hex, stop, _)) = home_of(&self.data, &id) else { return };
        if Self::tokens_on_board(s, &id) > 0 {
            return;
        }
        let Ok(phase) = self.phase_now(s) else { return };
        let placed = check_token(&self.data, &s.board, phase, &id, &hex, stop, Via::Home)
            .map_err(refuse)
            .and_then(|_| s.board.place_token(&self.data, &hex, stop, &id, 0).map_err(refuse));
        match placed {
            Ok(()) => {
                if let Entity::Major(c) = e
                    && let Some(m) = s.majors.get_mut(usize::from(c))
                {
                    m.home_placed = true;
                }
                ev.push(Event::public(format!("{id} places its home station in {hex}")));
            }
            Err(why) => ev.push(Event::public(format!("{id} cannot place its home station in {hex}: {why}"))),
        }
    }

    /// Home stations due at the start of an operating round: minors bought since the last one
    /// (RULING K26), and share companies floated in a game saved before the board existed.
    pub(crate) fn place_due_homes(&self, s: &mut State, ev: &mut Vec<Event>) {
        for m in 0..s.minors.len() {
            if s.minors[m].owner.is_some() && !s.minors[m].closed {
                self.place_home(s, Entity::Minor(u8::try_from(m).unwrap_or(u8::MAX)), ev);
            }
        }
        for c in 0..s.majors.len() {
            let due = s.majors[c].floated && s.majors[c].home_placed && !self.data.majors[c].prussian;
            if due {
                self.place_home(s, Entity::Major(u8::try_from(c).unwrap_or(u8::MAX)), ev);
            }
        }
    }

    /// The private whose free station a token in a hex would be: owned by the president of
    /// the operating share company, open, with a station power for this hex.
    fn private_token(&self, s: &State, e: Entity, hex: &str) -> Option<usize> {
        let Entity::Major(c) = e else { return None };
        let president = self.president(s, usize::from(c))?;
        (0..self.data.privates.len()).find(|i| {
            let Some(power) = self.data.privates[*i].power.as_ref() else { return false };
            s.privates[*i].owner == Some(president)
                && !s.privates[*i].closed
                && ["free_token", "tile_and_token"].contains(&power.kind.as_str())
                && power.hexes.iter().any(|h| h.eq_ignore_ascii_case(hex))
        })
    }

    /// The step a private's station may be placed in: the token step under HR 6, else also
    /// during the track step.
    fn private_token_step(&self, s: &State) -> Step {
        if s.options.nf_pfb_token_step_only { Step::Token } else { Step::Track }
    }

    /// Places a station token of the operating entity in city `city` (from 1) of a hex.
    pub(crate) fn place_token(
        &self,
        s: &mut State,
        e: Entity,
        hex: &str,
        city: u8,
        ev: &mut Vec<Event>,
    ) -> Result<(), Refusal> {
        let id = self.entity_id(s, e);
        let hex = hex.trim().to_ascii_uppercase();
        if city == 0 {
            return illegal("cities are numbered from 1");
        }
        let private = self.private_token(s, e, &hex);
        match private {
            // HR 6: a private's station only in the token step (the track is over then).
            Some(_) if s.or.turn.step < self.private_token_step(s) => self.advance_to(s, Step::Token, ev)?,
            Some(_) if s.or.turn.step > Step::Token => self.advance_to(s, Step::Token, ev)?,
            Some(_) => {}
            None => self.advance_to(s, Step::Token, ev)?,
        }
        if Self::tokens_on_board(s, &id) >= self.tokens_owned(e) {
            return illegal(format!("all {} station tokens of {id} are on the board", self.tokens_owned(e)));
        }
        let phase = self.phase_now(s)?;
        let lay = match private {
            Some(p) => check_token_city(&self.data, &s.board, phase, &id, &hex, city, Via::Private(p))
                .map_err(refuse)?,
            None => {
                if let Entity::Minor(_) = e {
                    return illegal(format!(
                        "{id} is a minor: minors place no stations besides their home (FACTS §7.5)"
                    ));
                }
                if s.or.turn.token {
                    return illegal(format!("{id} has placed its station for this turn (FACTS §7.5)"));
                }
                // The player's numbering: on the brown Hamburg city 1 is the north bank, city 2
                // the south (HR 3; RULING K42).
                check_token_city(&self.data, &s.board, phase, &id, &hex, city, Via::Normal).map_err(refuse)?
            }
        };
        self.put_token(s, e, &lay, ev)
    }

    /// Pays for a checked station and puts it on the board; a private's closes with it.
    fn put_token(
        &self,
        s: &mut State,
        e: Entity,
        lay: &TokenLay,
        ev: &mut Vec<Event>,
    ) -> Result<(), Refusal> {
        let id = self.entity_id(s, e);
        let cash = self.entity_cash(s, e);
        if lay.cost > cash {
            return illegal(format!(
                "a station in {} costs {} M and {id} has {cash} M in its treasury (FACTS §7.5)",
                lay.hex, lay.cost
            ));
        }
        pay(s, Self::treasury(e), Holder::Bank, lay.cost);
        s.board.place_token(&self.data, &lay.hex, lay.stop, &id, lay.bank).map_err(refuse)?;
        if lay.counts {
            s.or.turn.token = true;
        }
        let city = city_number(&self.data, &s.board, &lay.hex, lay.stop, lay.bank).unwrap_or(lay.stop + 1);
        ev.push(Event::public(format!(
            "{id} places a station in {} city {city} for {} M",
            lay.hex, lay.cost
        )));
        if let Some(closes) = &lay.closes
            && let Some(i) = self.data.private_index(closes)
            && !s.privates[i].closed
        {
            s.privates[i].closed = true;
            ev.push(Event::public(format!(
                "{} closes: its station is placed (FACTS §3; HR 5)",
                self.data.privates[i].name
            )));
        }
        Ok(())
    }

    /// The stations the operating entity may place in `step` (the token step, or the track
    /// step for a private's station where HR 6 is not in force).
    pub(crate) fn legal_token_actions(&self, s: &State, e: Entity, step: Step, out: &mut Vec<Action>) {
        let Ok(phase) = self.phase_now(s) else { return };
        let id = self.entity_id(s, e);
        if Self::tokens_on_board(s, &id) >= self.tokens_owned(e) {
            return;
        }
        let cash = self.entity_cash(s, e);
        let mut lays: Vec<TokenLay> = Vec::new();
        let normal = step == Step::Token && !s.or.turn.token && matches!(e, Entity::Major(_));
        if normal {
            lays.extend(
                legal_tokens(&self.data, &s.board, phase, &id, Via::Normal)
                    .into_iter()
                    .filter(|t| self.private_token(s, e, &t.hex).is_none()),
            );
        }
        if step >= self.private_token_step(s) {
            for (p, private) in self.data.privates.iter().enumerate() {
                let Some(power) = private.power.as_ref() else { continue };
                let Some(hex) = power.hexes.first() else { continue };
                if self.private_token(s, e, hex) == Some(p) {
                    lays.extend(legal_tokens(&self.data, &s.board, phase, &id, Via::Private(p)));
                }
            }
        }
        for lay in lays.into_iter().filter(|t| t.cost <= cash) {
            let city =
                city_number(&self.data, &s.board, &lay.hex, lay.stop, lay.bank).unwrap_or(lay.stop + 1);
            let a = Action::PlaceToken { company: id.clone(), hex: lay.hex.clone(), city };
            if !out.contains(&a) {
                out.push(a);
            }
        }
    }
}
