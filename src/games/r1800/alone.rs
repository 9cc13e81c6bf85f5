//! A development card's second activation, by admin cards alone (FACTS §4.3 Public Schools (a),
//! Secret Police (b); RULING E79): the data's `alt = { admin_cost, reward }`, when it is legal,
//! carrying it out, and the two choices only it opens: Public Schools' moves of laborers and
//! farmers into cities (RULING E80) and Secret Police's massacre (RULING E81).

use super::R1800;
use super::board;
use super::state::*;
use crate::engine::{Event, GameRng, Illegal};

impl R1800 {
    /// RULING E79: the admin cards go to the discard pile, the card's squares keep what they
    /// hold, and the `alt` reward follows.
    pub(super) fn activate_alone(
        &self,
        s: &mut State,
        seat: usize,
        card: usize,
        (discard, military): (&[u8], &[u8]),
        rng: &mut GameRng,
    ) -> Result<Vec<Event>, Illegal> {
        self.check_activation_paid(s, seat, card, discard, military, true).map_err(Illegal)?;
        let d = self.data();
        let name = self.power_name(s, seat);
        let mut cost = self.discard_admin(s, seat, discard);
        // RULING E83: Police State's military card goes to the face-up discard pile, named.
        cost.push_str(&self.discard_military(s, seat, military));
        let h = &mut s.players[seat].cards[card];
        h.used = true;
        let kind = h.card;
        let mut ev = vec![Event::public(format!("{name} activates {} alone{cost}.", d.dev_name(kind)))];
        let reward = d.dev[usize::from(kind)].alt.as_ref().map(|a| a.reward.clone()).unwrap_or_default();
        for r in reward {
            ev.extend(self.reward(s, seat, r.what, r.n, rng));
        }
        Ok(ev)
    }

    /// RULING E80: a pop of yours that is a laborer (works a factory of its city, RULING E7) or a
    /// farmer (lives in a countryside, RULING E1), into an adjacent city you control.
    pub(super) fn educate_options(&self, s: &State, seat: usize) -> Vec<Action> {
        let d = self.data();
        let me = usize::from(s.players[seat].power);
        self.adjacent_pairs(s, seat)
            .into_iter()
            .filter(|&(from, to)| {
                let worker =
                    !d.provinces[usize::from(from)].is_city() || board::laborers_in(s, d, from, me) > 0;
                worker && d.provinces[usize::from(to)].is_city() && s.controls(seat, to)
            })
            .map(|(from, to)| Action::Educate { from, to })
            .collect()
    }

    /// RULING E81: one pop of another power or a neutral one, in a province you control.
    pub(super) fn massacre_options(&self, s: &State, seat: usize) -> Vec<Action> {
        let me = usize::from(s.players[seat].power);
        (0..s.provinces.len() as u16)
            .filter(|&q| s.controls(seat, q))
            .flat_map(|q| {
                (0..9u8)
                    .filter(move |&o| {
                        usize::from(o) != me && s.provinces[usize::from(q)].pops[usize::from(o)] > 0
                    })
                    .map(move |owner| Action::Massacre { province: q, owner })
            })
            .collect()
    }

    /// Carries out a checked Public Schools move or massacre; the public words.
    pub(super) fn educate_or_massacre(&self, s: &mut State, seat: usize, a: &Action) -> String {
        let d = self.data();
        let name = self.power_name(s, seat);
        match *a {
            Action::Educate { from, to } => {
                self.move_pop(s, seat, from, to);
                format!("{name} schools a pop from {} in {}.", d.province_name(from), d.province_name(to))
            }
            Action::Massacre { province, owner } => {
                s.provinces[usize::from(province)].pops[usize::from(owner)] -= 1;
                // RULING E81: the power that loses the pop is wronged, as by a Cleanse (E72, E76).
                if let Some(v) = s.seat_of(usize::from(owner)) {
                    self.grieve(s, usize::from(v), seat, false);
                }
                let whose = d.powers.get(usize::from(owner)).map(|x| x.name.as_str()).unwrap_or("neutral");
                format!("{name}'s secret police kill a {whose} pop in {}.", d.province_name(province))
            }
            _ => format!("{name} declines."),
        }
    }
}
