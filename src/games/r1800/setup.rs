//! Setting up a game (rules, "Game Setup") and the round's own steps: the start of an era, the
//! global event, dealing the development draft, collection at the start of a turn, and the end
//! of a round (the war, the dealer chip, the end of the game).

use super::R1800;
use super::board;
use super::data::{DevType, GlobalEvent};
use super::state::*;
use crate::engine::{Event, GameRng, Setup, SetupError, SetupSpec};

impl R1800 {
    /// Rules, "Eras" and "Rounds" steps 1–2: a new era shuffles the events and its technologies
    /// into the development deck; the round draws its global event and deals the draft.
    pub(super) fn start_round(&self, s: &mut State, rng: &mut GameRng) -> Vec<Event> {
        let d = self.data();
        let mut ev = Vec::new();
        if s.round.is_multiple_of(ROUNDS_PER_ERA) {
            let era = s.era();
            s.event_deck = deck(d.events.iter().map(|e| e.count));
            rng.shuffle(&mut s.event_deck);
            let (now, later): (Vec<u16>, Vec<u16>) =
                s.later_techs.iter().partition(|c| d.dev[usize::from(**c)].era == era);
            if !now.is_empty() {
                s.dev_deck.extend(now);
                rng.shuffle(&mut s.dev_deck);
            }
            s.later_techs = later;
            ev.push(Event::public(format!("Era {era} begins ({}).", 1800 + 40 * u32::from(era - 1))));
        }
        s.event = s.event_deck.pop();
        if let Some(e) = s.event {
            let card = &d.events[usize::from(e)];
            ev.push(Event::public(format!("Round {}: the global event is {}.", s.round + 1, card.name)));
            ev.extend(self.global_event(s, card.effect, rng));
        }
        // Rounds step 2: one card per player, face up, beside the technologies left over.
        for _ in 0..s.players.len() {
            if let Some(c) = self.draw_dev(s, rng) {
                s.offer.push(c);
            }
        }
        let names: Vec<&str> = s.offer.iter().map(|c| d.dev_name(*c)).collect();
        ev.push(Event::public(format!("The draft offers: {}.", names.join(", "))));
        self.open_draft(s);
        ev
    }

    /// The top development card; RULING E17: an empty deck is made anew from the discard pile.
    pub(super) fn draw_dev(&self, s: &mut State, rng: &mut GameRng) -> Option<u16> {
        if s.dev_deck.is_empty() {
            s.dev_deck = std::mem::take(&mut s.dev_discard);
            rng.shuffle(&mut s.dev_deck);
        }
        s.dev_deck.pop()
    }

    /// After the draft: non-technologies left go to the discard pile (rules, "Rounds" step 2),
    /// and the first turn begins.
    pub(super) fn end_draft(&self, s: &mut State) -> Vec<Event> {
        let d = self.data();
        let (keep, gone): (Vec<u16>, Vec<u16>) =
            s.offer.iter().partition(|c| d.dev[usize::from(**c)].kind == DevType::Technology);
        s.offer = keep;
        s.dev_discard.extend(gone);
        let first = s.turn_order()[0];
        self.begin_turn(s, first)
    }

    /// The start of a seat's turn: Command Economy's upkeep and pop move first (FACTS §4.1
    /// "start:"; RULING E22), then the collection.
    pub(super) fn begin_turn(&self, s: &mut State, seat: u8) -> Vec<Event> {
        let d = self.data();
        let i = usize::from(seat);
        let mut ev = Vec::new();
        s.stage = Stage::Turn {
            seat,
            end_moves: false,
            pop_moved: false,
            regiment_moves: 0,
            migrated: false,
            marched: Vec::new(),
        };
        s.players[i].turn_start_prosperity = s.players[i].prosperity;
        if board::active_card(s, d, i, DevType::Policy, 1).is_some_and(|c| c.command_economy) {
            ev.extend(self.command_economy_upkeep(s, i));
            // Its admin card is the seat's choice; the collection waits for it and the move.
            if s.pending.iter().any(|p| p.choice == Choice::Upkeep { republic: false }) {
                return ev;
            }
        }
        ev.extend(self.collect(s, i));
        ev
    }

    /// Rules, "Player Turns" step 1: collection, with a food deficit settled (RULING E4).
    pub(super) fn collect(&self, s: &mut State, i: usize) -> Vec<Event> {
        let d = self.data();
        let mut ev = Vec::new();
        let name = self.power_name(s, i);
        let y = board::collection(s, d, i);
        let pl = &mut s.players[i];
        pl.supply = [0; 3];
        pl.surplus = y.food_out > y.food_use;
        if y.food_out > y.food_use {
            pl.supply[F] = (y.food_out - y.food_use).min(255) as u8;
        }
        pl.supply[P] = y.production.min(255) as u8;
        pl.supply[C] = y.commerce.min(255) as u8;
        ev.push(Event::public(format!(
            "{name} collects {} food, {} production, {} commerce.",
            pl.supply[F], pl.supply[P], pl.supply[C]
        )));
        if y.food_use > y.food_out {
            ev.extend(self.food_deficit(s, i, y.food_use - y.food_out));
        }
        ev
    }

    /// A food deficit (rules, "Player Turns" step 1; FACTS §7.2): "either sacrifice a pop or
    /// remove food tokens from cards you own equal to the difference" — the seat's choice, asked
    /// of its sheet (RULING E4; `owed`). The food technology costs 1 prosperity when the deficit
    /// reaches its threshold, whichever way it is paid.
    fn food_deficit(&self, s: &mut State, seat: usize, deficit: u32) -> Vec<Event> {
        let d = self.data();
        let name = self.power_name(s, seat);
        let mut ev = vec![Event::public(format!("{name} has a food deficit of {deficit}."))];
        let p = Pending { seat: seat as u8, choice: Choice::Deficit { food: deficit.min(255) as u8 } };
        if self.owed_options(s, p).is_some_and(|v| !v.is_empty()) {
            s.pending.push(p);
        }
        let threshold =
            board::active_card(s, d, seat, DevType::Technology, 0).and_then(|c| c.deficit).unwrap_or(1);
        if deficit >= u32::from(threshold) {
            self.lose_prosperity(s, seat, 1);
            ev.push(Event::public(format!("{name} loses 1 prosperity to the deficit.")));
        }
        ev
    }

    /// Removes one pop of the seat where [`Self::sacrifice_at`] says.
    pub(super) fn sacrifice(&self, s: &mut State, seat: usize) -> Option<u16> {
        let at = self.sacrifice_at(s, seat)?;
        let me = usize::from(s.players[seat].power);
        s.provinces[usize::from(at)].pops[me] -= 1;
        Some(at)
    }

    /// The pop the rules of RULING E4 sacrifice for a seat that does not choose: a bourgeois
    /// first, then a laborer, then a farmer, where the seat has the most pops (the first such
    /// province).
    pub(super) fn sacrifice_at(&self, s: &State, seat: usize) -> Option<u16> {
        let d = self.data();
        let me = usize::from(s.players[seat].power);
        let rank = |s: &State, i: usize| -> (u8, u8) {
            let p = i as u16;
            let n = s.provinces[i].pops[me];
            let kind = if !d.provinces[i].is_city() {
                0
            } else if board::laborers_in(s, d, p, me) < n {
                2
            } else {
                1
            };
            (kind, n)
        };
        (0..s.provinces.len())
            .filter(|&i| s.provinces[i].pops[me] > 0)
            .max_by_key(|&i| (rank(s, i), std::cmp::Reverse(i)))
            .map(|i| i as u16)
    }

    /// Prosperity lost, never below 0 (FACTS §7.2).
    pub(super) fn lose_prosperity(&self, s: &mut State, seat: usize, n: u8) {
        let p = &mut s.players[seat].prosperity;
        *p = p.saturating_sub(n);
    }

    /// Prosperity gained, never above the track.
    pub(super) fn gain_prosperity(&self, s: &mut State, seat: usize, n: u8) {
        let p = &mut s.players[seat].prosperity;
        *p = p.saturating_add(n).min(MAX_PROSPERITY);
    }

    /// The name of a seat's power.
    pub(super) fn power_name(&self, s: &State, seat: usize) -> String {
        s.players
            .get(seat)
            .and_then(|p| self.data().powers.get(usize::from(p.power)))
            .map(|p| p.name.clone())
            .unwrap_or_else(|| format!("seat {}", seat + 1))
    }

    /// The end of a seat's turn: unplaced resources go back (RULING E3), the activation marks
    /// reset, Republic's check; then the next seat's turn or the end of the round.
    pub(super) fn end_turn(&self, s: &mut State, seat: u8, rng: &mut GameRng) -> Vec<Event> {
        let d = self.data();
        let i = usize::from(seat);
        let mut ev = Vec::new();
        let pl = &mut s.players[i];
        pl.supply = [0; 3];
        for h in pl.cards.iter_mut() {
            h.used = false;
            h.placed = [0; 3];
        }
        if board::active_card(s, d, i, DevType::Policy, 0).is_some_and(|c| c.republic) {
            ev.extend(self.republic_check(s, i, rng));
            // Its discard is the seat's choice: the turn passes once it is made (`owed`).
            if s.pending.iter().any(|p| p.choice == Choice::Upkeep { republic: true }) {
                return ev;
            }
        }
        ev.extend(self.pass_turn(s, seat, rng));
        ev
    }

    /// The next seat's turn after `seat`'s, or the end of the round.
    pub(super) fn pass_turn(&self, s: &mut State, seat: u8, rng: &mut GameRng) -> Vec<Event> {
        let mut ev = Vec::new();
        let order = s.turn_order();
        let at = order.iter().position(|x| *x == seat).unwrap_or(order.len());
        match order.get(at + 1) {
            Some(&next) => ev.extend(self.begin_turn(s, next)),
            None => ev.extend(self.end_round(s, rng)),
        }
        ev
    }

    /// After the last turn: the wronged may declare war (RULING E72); then the war phase.
    fn end_round(&self, s: &mut State, rng: &mut GameRng) -> Vec<Event> {
        if self.open_reprisals(s) {
            return vec![Event::public("Powers wronged this round may now declare war on the wrongdoer.")];
        }
        self.to_war(s, rng)
    }

    /// Rounds step 4: the war phase, if any war was declared; then the round ends.
    pub(super) fn to_war(&self, s: &mut State, rng: &mut GameRng) -> Vec<Event> {
        s.grievances.clear();
        let (mut ev, on) = self.war_phase(s);
        if on {
            s.stage = Stage::War;
            return ev;
        }
        ev.extend(self.finish_round(s, rng));
        ev
    }

    /// The passing of the dealer chip; after round 24 the game ends.
    pub(super) fn finish_round(&self, s: &mut State, rng: &mut GameRng) -> Vec<Event> {
        let mut ev = Vec::new();
        s.round += 1;
        s.dealer = (s.dealer + 1) % s.players.len() as u8;
        if s.round >= ROUNDS_PER_ERA * ERAS {
            s.stage = Stage::Over;
            s.event = None;
            ev.push(Event::public("1920: the game is over.".to_string()));
            ev.extend(self.final_scores(s));
            return ev;
        }
        ev.extend(self.start_round(s, rng));
        ev
    }
}

impl Setup for R1800 {
    /// A new game for `spec.seats` players (2–8): the first powers of the seating order, their
    /// start positions, the decks shuffled, one secret ambition each, and round 1 begun.
    fn setup(&self, spec: &SetupSpec, rng: &mut GameRng) -> Result<State, SetupError> {
        let d = self.data();
        let n = usize::from(spec.seats);
        if !(2..=8).contains(&n) {
            return Err(SetupError(format!("1800 is for 2 to 8 players, not {n}")));
        }
        if !(spec.options.is_null() || spec.options.as_object().is_some_and(|o| o.is_empty())) {
            return Err(SetupError("1800 has no options".into()));
        }
        let mut provinces: Vec<Prov> =
            d.provinces.iter().map(|_| Prov { pops: [0; 9], factories: 0, regiment: None }).collect();
        // FACTS §9.3: every province outside the seated powers' starts has one neutral pop.
        for prov in provinces.iter_mut() {
            prov.pops[NEUTRAL] = 1;
        }
        for &q in &d.neutral_regiments {
            provinces[usize::from(q)].regiment = Some(Piece { owner: None, conscripted: None });
        }
        let powers: Vec<usize> = d.seating.iter().copied().take(n).collect();
        for &pw in &powers {
            for &q in &d.powers[pw].pops {
                let prov = &mut provinces[usize::from(q)];
                prov.pops[NEUTRAL] = 0;
                prov.pops[pw] += 1;
            }
            for &q in &d.powers[pw].factories {
                provinces[usize::from(q)].factories += 1;
            }
        }
        // RULING E28: the two reconstructed ambitions join the deck only with 7 or 8 players.
        let mut ambition_deck: Vec<u8> = (0..d.ambitions.len() as u8)
            .filter(|a| n >= 7 || !d.ambitions[usize::from(*a)].reconstructed)
            .collect();
        rng.shuffle(&mut ambition_deck);
        let mut admin_deck = deck(d.admin.iter().map(|c| c.count));
        rng.shuffle(&mut admin_deck);
        let mut military_deck = deck(d.military.iter().map(|c| c.count));
        rng.shuffle(&mut military_deck);
        let mut dev_deck = Vec::new();
        let mut later_techs = Vec::new();
        for (i, c) in d.dev.iter().enumerate() {
            for _ in 0..c.count {
                if c.kind == DevType::Technology && c.era > 1 {
                    later_techs.push(i as u16);
                } else {
                    dev_deck.push(i as u16);
                }
            }
        }
        rng.shuffle(&mut dev_deck);
        let starting: Vec<Held> = d
            .dev
            .iter()
            .enumerate()
            .filter(|(_, c)| c.start)
            .map(|(i, _)| Held { card: i as u16, res: [0; 3], placed: [0; 3], used: false, covered: false })
            .collect();
        let mut players = Vec::new();
        for &pw in &powers {
            let ambition = ambition_deck.pop().ok_or_else(|| SetupError("no ambition left".into()))?;
            players.push(Player {
                power: pw as u8,
                prosperity: d.start_prosperity,
                admin: Vec::new(),
                military: Vec::new(),
                ambition,
                // RULING E9: every player has its own starting cards.
                cards: starting.clone(),
                supply: [0; 3],
                overseas: Vec::new(),
                european: Vec::new(),
                tradition: None,
                revealed: false,
                surplus: false,
                turn_start_prosperity: d.start_prosperity,
            });
        }
        let mut s = State {
            players,
            provinces,
            round: 0,
            // Rules, "Dealer Chip": the first dealer is chosen; RULING E20: the last seat, so
            // that seat 1 picks and plays first.
            dealer: (n - 1) as u8,
            stage: Stage::Over,
            pending: Vec::new(),
            event: None,
            event_deck: Vec::new(),
            dev_deck,
            dev_discard: Vec::new(),
            offer: Vec::new(),
            later_techs,
            admin_deck,
            admin_discard: Vec::new(),
            military_deck,
            military_discard: Vec::new(),
            ambition_deck,
            discovered: Vec::new(),
            war: Default::default(),
            initiative: None,
            grievances: Vec::new(),
        };
        self.start_round(&mut s, rng);
        Ok(s)
    }
}

/// A deck of card kinds from their counts.
pub fn deck<T: TryFrom<usize>>(counts: impl Iterator<Item = u8>) -> Vec<T> {
    counts
        .enumerate()
        .flat_map(|(i, n)| std::iter::repeat_n(i, usize::from(n)))
        .filter_map(|i| T::try_from(i).ok())
        .collect()
}

/// Whether the event of the round is `e`.
pub fn event_is(s: &State, d: &super::data::Data, e: GlobalEvent) -> bool {
    s.event.is_some_and(|x| d.events.get(usize::from(x)).is_some_and(|c| c.effect == e))
}
