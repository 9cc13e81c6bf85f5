//! The global events (FACTS §6.2) and the policies' own upkeep at the start or end of a turn
//! (Command Economy, Republic). A choice an event or an upkeep leaves to a player is a decision
//! its sheet answers (`owed`; RULINGS E21, E22): the event's are asked at the round's start and
//! answered by the round's sheet or the seat's standing `EVENT` lines.

use super::R1800;
use super::board;
use super::data::{DevType, GlobalEvent};
use super::state::*;
use crate::engine::{Event, GameRng};

impl R1800 {
    /// Carries out the round's global event where it acts at once; Great War and Migration act
    /// later (at the round's end, and in each turn).
    pub(super) fn global_event(&self, s: &mut State, e: GlobalEvent, rng: &mut GameRng) -> Vec<Event> {
        let d = self.data();
        let mut ev = Vec::new();
        let seats = s.players.len();
        match e {
            GlobalEvent::Flooding => {
                for i in 0..seats {
                    let mut lost = 0;
                    for h in s.players[i].cards.iter_mut() {
                        if d.dev[usize::from(h.card)].kind == DevType::Institution && h.res[P] > 0 {
                            h.res[P] -= 1;
                            lost += 1;
                        }
                    }
                    if lost > 0 {
                        ev.push(Event::public(format!(
                            "{} loses {lost} production to the floods.",
                            self.power_name(s, i)
                        )));
                    }
                }
            }
            GlobalEvent::GreatWar => {
                let powers = self.powers(s);
                let out = super::war::great_war(&mut s.war, &powers);
                ev.extend(self.war_events(s, out));
            }
            GlobalEvent::Migration => {
                ev.push(Event::public("Each player may move one pop to an adjacent province this round."));
            }
            GlobalEvent::UnrestOverseas => {
                for i in 0..seats {
                    for r in s.players[i].overseas.clone() {
                        ev.extend(self.toll(s, i, Toll::Route(r), rng));
                    }
                }
            }
            GlobalEvent::UnrestAtHome => {
                for i in 0..seats {
                    if s.players[i].prosperity == 0
                        && let Some(p) = self.sacrifice(s, i)
                    {
                        ev.push(Event::public(format!(
                            "{} is at prosperity 0 and sacrifices a pop in {}.",
                            self.power_name(s, i),
                            d.province_name(p)
                        )));
                    }
                    let me = usize::from(s.players[i].power);
                    for p in 0..s.provinces.len() {
                        let prov = &s.provinces[p];
                        let occupied = prov.regiment.is_some_and(|r| r.owner == Some(me as u8))
                            && prov.pops.iter().enumerate().any(|(o, n)| o != me && *n > 0);
                        if occupied {
                            ev.extend(self.toll(s, i, Toll::Regiment(p as u16), rng));
                        }
                    }
                }
            }
            GlobalEvent::LiberalRevolution | GlobalEvent::RisingFascism => {
                ev.extend(self.revolution(s, e == GlobalEvent::LiberalRevolution, rng));
            }
        }
        ev
    }

    /// Liberal Revolution (Republic, escape: 2 military cards) and Rising Fascism (Police State,
    /// escape: 3 admin cards), FACTS §6.2. RULING E23: "half or less" counts every player.
    fn revolution(&self, s: &mut State, liberal: bool, rng: &mut GameRng) -> Vec<Event> {
        let d = self.data();
        let target = if liberal { "Republic" } else { "Police State" };
        let has = |s: &State, i: usize| {
            board::active_card(s, d, i, DevType::Policy, 0).is_some_and(|c| c.name == target)
        };
        let holders = (0..s.players.len()).filter(|&i| has(s, i)).count();
        if holders * 2 > s.players.len() {
            return vec![Event::public(format!(
                "More than half the players have a {target}: nothing happens."
            ))];
        }
        let mut ev = Vec::new();
        for i in 0..s.players.len() {
            if !has(s, i) {
                // RULING E21: a seat that can pay the escape is asked whether it does.
                ev.extend(self.toll(s, i, Toll::Revolution { liberal }, rng));
            }
        }
        ev
    }

    /// The revolution itself (FACTS §6.2): policies revoked, the admin hand discarded, and the
    /// event's government found and played.
    pub(super) fn revolt(&self, s: &mut State, i: usize, liberal: bool, rng: &mut GameRng) -> Event {
        let d = self.data();
        let target = if liberal { "Republic" } else { "Police State" };
        let name = self.power_name(s, i);
        // RULING E16: revoked policies are discarded; the starting ones show again.
        let revoked: Vec<u16> = s.players[i]
            .cards
            .iter()
            .filter(|h| {
                d.dev[usize::from(h.card)].kind == DevType::Policy && !d.dev[usize::from(h.card)].start
            })
            .map(|h| h.card)
            .collect();
        s.players[i].cards.retain(|h| {
            d.dev[usize::from(h.card)].kind != DevType::Policy || d.dev[usize::from(h.card)].start
        });
        for h in s.players[i].cards.iter_mut() {
            if d.dev[usize::from(h.card)].kind == DevType::Policy {
                h.covered = false;
            }
        }
        s.dev_discard.extend(revoked);
        let hand = std::mem::take(&mut s.players[i].admin);
        let n = hand.len();
        s.admin_discard.extend(hand);
        let wanted = d.dev_named(target);
        let found = wanted.and_then(|w| self.search_dev(s, w, rng));
        let got = match found {
            Some(c) => {
                self.adopt(s, i, c);
                format!(", and plays a {target}")
            }
            None => format!("; no {target} is left to play"),
        };
        Event::public(format!(
            "Revolution in {name}: its policies are revoked, it discards {n} admin cards{got}."
        ))
    }

    /// Takes one copy of a card kind out of the development deck or discard pile.
    pub(super) fn search_dev(&self, s: &mut State, card: u16, _rng: &mut GameRng) -> Option<u16> {
        if let Some(i) = s.dev_deck.iter().position(|c| *c == card) {
            return Some(s.dev_deck.remove(i));
        }
        let i = s.dev_discard.iter().position(|c| *c == card)?;
        Some(s.dev_discard.remove(i))
    }

    /// Command Economy at the start of the turn (FACTS §4.1): discard an admin card or the
    /// policy is revoked. RULING E22: which card is the seat's choice (`owed`); then the card's
    /// optional pop move (`Choice::StartMove`), then the collection.
    pub(super) fn command_economy_upkeep(&self, s: &mut State, seat: usize) -> Vec<Event> {
        let d = self.data();
        let name = self.power_name(s, seat);
        if s.players[seat].admin.is_empty() {
            let Some(at) = board::active(s, d, seat, DevType::Policy, 1) else { return Vec::new() };
            let gone = s.players[seat].cards.remove(at);
            s.dev_discard.push(gone.card);
            uncover_top(s, d, seat, DevType::Policy, 1);
            return vec![Event::public(format!(
                "{name} cannot discard an admin card: its Command Economy is revoked."
            ))];
        }
        s.pending.push(Pending { seat: seat as u8, choice: Choice::Upkeep { republic: false } });
        Vec::new()
    }

    /// Republic at the end of the turn (FACTS §4.1): prosperity up → draw an admin card; down →
    /// discard one (RULING E22: which one is the seat's choice, `owed`).
    pub(super) fn republic_check(&self, s: &mut State, seat: usize, rng: &mut GameRng) -> Vec<Event> {
        let pl = &s.players[seat];
        if pl.prosperity > pl.turn_start_prosperity {
            return self.draw_admin(s, seat, 1, rng);
        }
        if pl.prosperity < pl.turn_start_prosperity && !pl.admin.is_empty() {
            s.pending.push(Pending { seat: seat as u8, choice: Choice::Upkeep { republic: true } });
        }
        Vec::new()
    }

    /// Draws admin cards into a hand (the discard pile reshuffled when the deck is empty).
    pub(super) fn draw_admin(&self, s: &mut State, seat: usize, n: u8, rng: &mut GameRng) -> Vec<Event> {
        let d = self.data();
        let mut got = Vec::new();
        for _ in 0..n {
            if s.admin_deck.is_empty() {
                s.admin_deck = std::mem::take(&mut s.admin_discard);
                rng.shuffle(&mut s.admin_deck);
            }
            if let Some(c) = s.admin_deck.pop() {
                got.push(c);
                s.players[seat].admin.push(c);
            }
        }
        s.players[seat].admin.sort_unstable();
        let names: Vec<&str> = got.iter().map(|c| d.admin[usize::from(*c)].name.as_str()).collect();
        vec![Event::with_secret(
            format!("{} draws {} admin card(s).", self.power_name(s, seat), got.len()),
            crate::engine::Seat::from_index(seat),
            format!("you drew {}", names.join(", ")),
        )]
    }

    /// Draws military cards into a hand.
    pub(super) fn draw_military(&self, s: &mut State, seat: usize, n: u8, rng: &mut GameRng) -> Vec<Event> {
        let d = self.data();
        let mut got = Vec::new();
        for _ in 0..n {
            if s.military_deck.is_empty() {
                s.military_deck = std::mem::take(&mut s.military_discard);
                rng.shuffle(&mut s.military_deck);
            }
            if let Some(c) = s.military_deck.pop() {
                got.push(c);
                s.players[seat].military.push(c);
            }
        }
        s.players[seat].military.sort_unstable();
        let names: Vec<&str> = got.iter().map(|c| d.military[usize::from(*c)].name.as_str()).collect();
        vec![Event::with_secret(
            format!("{} draws {} military card(s).", self.power_name(s, seat), got.len()),
            crate::engine::Seat::from_index(seat),
            format!("you drew {}", names.join(", ")),
        )]
    }

    /// Puts a development card into the seat's tableau (rules, "Development Cards"): a policy or
    /// technology covers the one in force in its slot, whose resources go back to the supply
    /// (RULING E11); a first discovery feeds the Research Institutions (FACTS §4.3).
    pub(super) fn adopt(&self, s: &mut State, seat: usize, card: u16) {
        let d = self.data();
        let c = &d.dev[usize::from(card)];
        if c.kind != DevType::Institution
            && let Some(old) = board::active(s, d, seat, c.kind, c.slot)
        {
            let h = &mut s.players[seat].cards[old];
            h.covered = true;
            h.res = [0; 3];
        }
        if c.kind == DevType::Technology && !s.discovered.contains(&card) {
            for h in s.players[seat].cards.iter_mut() {
                let k = &d.dev[usize::from(h.card)];
                if k.name == "Research Institution" && !h.used && h.res[C] < k.slots[C] {
                    h.res[C] += 1;
                }
            }
        }
        if !s.discovered.contains(&card) {
            s.discovered.push(card);
        }
        s.players[seat].cards.push(Held { card, res: [0; 3], placed: [0; 3], used: false, covered: false });
    }
}

/// Makes the top card of a slot visible again after the one above it went.
fn uncover_top(s: &mut State, d: &super::data::Data, seat: usize, kind: DevType, slot: usize) {
    if let Some(i) = s.players[seat]
        .cards
        .iter()
        .rposition(|h| d.dev[usize::from(h.card)].kind == kind && d.dev[usize::from(h.card)].slot == slot)
    {
        s.players[seat].cards[i].covered = false;
    }
}
