//! What may be done now: the next decision (a choice a card left open comes first, then the
//! draft, then the seat's turn), every legal action at it, and the rules' default (take no card,
//! play no card, decline what may be declined; RULING E30).

use super::R1800;
use super::board;
use super::data::{DevType, GlobalEvent, HoldEffect};
use super::setup::event_is;
use super::state::*;
use crate::engine::{Decision, Rules, Seat};

/// The prompt of a pending choice.
pub fn pending_prompt(c: Choice) -> &'static str {
    match c {
        Choice::Deficit { .. } => {
            "pay your food deficit from the food on your cards, or sacrifice a pop (DEFICIT PAY / DEFICIT SACRIFICE <province>)"
        }
        Choice::Upkeep { republic: false } => {
            "discard an admin card for your Command Economy (UPKEEP DISCARD <admin card>)"
        }
        Choice::StartMove => {
            "your Command Economy may move a pop between adjacent provinces you control before you collect (MOVE POP <from> TO <to>), or DECLINE MOVE"
        }
        Choice::Upkeep { republic: true } => {
            "your prosperity fell: discard an admin card for your Republic (UPKEEP DISCARD <admin card>)"
        }
        Choice::Toll(Toll::Route(_)) => {
            "Unrest Overseas: discard a military card or lose the route (EVENT Unrest Overseas PAY / LOSE)"
        }
        Choice::Toll(Toll::Regiment(_)) => {
            "Unrest at Home: discard a military card or lose the occupying regiment (EVENT Unrest at Home PAY / LOSE)"
        }
        Choice::Toll(Toll::Revolution { liberal: true }) => {
            "Liberal Revolution: discard 2 military cards or suffer the revolution (EVENT Liberal Revolution PAY / ACCEPT)"
        }
        Choice::Toll(Toll::Revolution { liberal: false }) => {
            "Rising Fascism: discard 3 admin cards or suffer the revolution (EVENT Rising Fascism PAY / ACCEPT)"
        }
        Choice::Toll(Toll::Rebellion { .. }) => {
            "a rebellion against your regiment: discard military cards or lose the regiment (REBELLION PAY / LOSE)"
        }
        Choice::Factory => "build your factory in a city you control (BUILD <city>)",
        Choice::Pop => "place your new pop in a province you control (GROW <province>)",
        Choice::Recruit => "recruit your regiment in a province you control (RECRUIT <province>)",
        Choice::Tech => "take a technology (TECH <card>)",
        Choice::Convert => "convert a pop in a province you control (CONVERT <province>)",
        Choice::DiscardMilitary => "discard a military card (DISCARD MILITARY <card>)",
        Choice::NavyRaid => "remove a trade token of a smaller navy (RAID <power> <route>)",
        Choice::Barter { .. } => {
            "agree to trade technologies by taking one of theirs (TRADE TECH <card>), or DECLINE TRADE"
        }
        Choice::TechOf { .. } => "take one technology of your trading partner's (TRADE TECH <card>)",
        Choice::Hospital => {
            "use your Hospitals: 3 C for 1 prosperity, or 2 C for one more pop (HOSPITALS Y / HOSPITALS POP), or DECLINE HOSPITALS"
        }
        Choice::Educate => {
            "move a laborer or farmer of yours into an adjacent city you control (EDUCATE <from> TO <city>), or DECLINE EDUCATE"
        }
        Choice::Massacre => {
            "remove a pop not your own from a province you control (MASSACRE <province> [OF <power or NEUTRAL>]), or DECLINE MASSACRE"
        }
    }
}

impl R1800 {
    fn main_options(&self, s: &State, seat: usize, migrated: bool) -> Vec<Action> {
        let d = self.data();
        let mut v = Vec::new();
        for card in 0..s.players[seat].cards.len() {
            let h = &s.players[seat].cards[card];
            for res in 0..3 {
                // The usual refusals first, without the words `can_place` would write for them.
                let room = !h.covered
                    && s.players[seat].supply[res] > 0
                    && h.res[res] < d.dev[usize::from(h.card)].slots[res];
                if room && self.can_place(s, seat, card, res).is_ok() {
                    v.push(Action::Place { card: card as u8, res: res as u8 });
                }
            }
            let c = &d.dev[usize::from(h.card)];
            if !h.covered && c.activates() && !h.used && h.res == c.slots {
                for discard in discard_sets(&s.players[seat].admin, usize::from(c.admin_cost)) {
                    if self.can_activate(s, seat, card, &discard).is_ok() {
                        v.push(Action::Activate { card: card as u8, discard });
                    }
                }
                if c.admin_cost > 0 && self.can_activate(s, seat, card, &[]).is_ok() {
                    v.push(Action::Activate { card: card as u8, discard: Vec::new() });
                }
            }
            // RULING E79: the card's second activation, by admin cards alone.
            if let Some(alt) = c.alt.as_ref().filter(|_| !h.covered && !h.used) {
                let hand = &s.players[seat].admin;
                // RULING E83: Police State's military card alone.
                let soldiers = discard_sets(&s.players[seat].military, usize::from(alt.military_cost));
                for discard in discard_sets(hand, usize::from(alt.admin_cost)).into_iter().chain([Vec::new()])
                {
                    for military in &soldiers {
                        if self.check_activation_paid(s, seat, card, &discard, military, true).is_ok() {
                            let military = military.clone();
                            v.push(Action::ActivateAlone {
                                card: card as u8,
                                discard: discard.clone(),
                                military,
                            });
                        }
                    }
                }
            }
        }
        v.dedup();
        // RULING E66: a Financial Institution's commerce may go to another card.
        let cards = &s.players[seat].cards;
        let financial = |h: &Held| d.dev[usize::from(h.card)].hold_effect == Some(HoldEffect::Financial);
        for from in (0..cards.len()).filter(|&i| financial(&cards[i]) && cards[i].res[C] > 0) {
            for to in 0..cards.len() {
                if self.can_shift(s, seat, from, to).is_ok() {
                    v.push(Action::Shift { from: from as u8, to: to as u8 });
                }
            }
        }
        v.extend(self.admin_options(s, seat));
        if !migrated && event_is(s, d, GlobalEvent::Migration) {
            for (from, to) in self.adjacent_pairs(s, seat) {
                if self.pop_move_ok(
                    s,
                    seat,
                    from,
                    to,
                    super::data::Where::Controlled,
                    super::data::Where::Controlled,
                    false,
                ) {
                    v.push(Action::Migrate { from, to });
                }
            }
        }
        v.push(Action::EndActions);
        v
    }

    /// Pairs (a province with the seat's pop, a neighbour).
    pub(super) fn adjacent_pairs(&self, s: &State, seat: usize) -> Vec<(u16, u16)> {
        let d = self.data();
        let me = usize::from(s.players[seat].power);
        (0..s.provinces.len() as u16)
            .filter(|&p| s.provinces[usize::from(p)].pops[me] > 0)
            .flat_map(|p| d.neighbours(p).iter().map(move |&q| (p, q)))
            .collect()
    }

    fn end_options(&self, s: &State, seat: usize, pop_moved: bool, regiment_moves: u8) -> Vec<Action> {
        let mut v = Vec::new();
        if !pop_moved {
            for (from, to) in self.adjacent_pairs(s, seat) {
                if self.policy_move_ok(s, seat, from, to) {
                    v.push(Action::MovePop { from, to });
                }
            }
        }
        let d = self.data();
        for from in 0..s.provinces.len() as u16 {
            for &to in d.neighbours(from) {
                if self.regiment_move_ok(s, seat, from, to, regiment_moves) {
                    v.push(Action::MoveRegiment { from, to });
                }
            }
        }
        v.extend(self.declarations(s, seat).into_iter().map(Action::Declare));
        // RULING E99: admin cards "at any time during your turn", between these moves too.
        v.extend(self.admin_options(s, seat));
        v.push(Action::EndTurn);
        v
    }

    /// The answers to a pending choice (declining last, where allowed).
    pub(super) fn pending_options(&self, s: &State, p: Pending) -> Vec<Action> {
        if let Some(v) = self.owed_options(s, p) {
            return v;
        }
        let d = self.data();
        let seat = usize::from(p.seat);
        let me = usize::from(s.players[seat].power);
        let all = 0..s.provinces.len() as u16;
        let mut v: Vec<Action> = match p.choice {
            // RULING E8: a factory goes in a city you control with a free improvement place.
            Choice::Factory => all
                .filter(|&q| {
                    let i = usize::from(q);
                    d.provinces[i].is_city()
                        && s.controls(seat, q)
                        && s.provinces[i].factories < d.provinces[i].improvement_places()
                })
                .map(Action::Build)
                .chain(self.corporate_options(s, seat))
                .collect(),
            // FACTS §7.3: a new pop in a province you control, with room in a countryside;
            // RULING E33: while the power has pieces left.
            Choice::Pop if s.pops_of(me) < u32::from(d.pop_supply) => all
                .filter(|&q| {
                    let i = usize::from(q);
                    s.controls(seat, q)
                        && (d.provinces[i].is_city()
                            || s.provinces[i].pops.iter().map(|n| u32::from(*n)).sum::<u32>() < 2)
                })
                .map(Action::Grow)
                .collect(),
            Choice::Pop => Vec::new(),
            // RULING E9: any province you control without a regiment.
            Choice::Recruit if s.regiments_of(me) < d.regiment_supply => all
                .filter(|&q| s.controls(seat, q) && s.provinces[usize::from(q)].regiment.is_none())
                .map(Action::Recruit)
                .collect(),
            Choice::Recruit => Vec::new(),
            Choice::Tech => self.tech_options(s, seat).into_iter().map(Action::Tech).collect(),
            Choice::Convert => all
                .filter(|&q| s.controls(seat, q))
                .flat_map(|q| {
                    (0..9u8)
                        .filter(move |&o| {
                            usize::from(o) != me && s.provinces[usize::from(q)].pops[usize::from(o)] > 0
                        })
                        .map(move |owner| Action::Convert { province: q, owner })
                })
                .collect(),
            Choice::DiscardMilitary => {
                let mut h = s.players[seat].military.clone();
                h.dedup();
                h.into_iter().map(Action::DiscardMilitary).collect()
            }
            // RULING E74: a trade of technologies, each taking one of the other's.
            Choice::Barter { with } => {
                self.tradeable(s, usize::from(with), seat).into_iter().map(Action::Tech).collect()
            }
            Choice::Hospital => self.hospital_options(s, seat),
            Choice::Educate => self.educate_options(s, seat),
            Choice::Massacre => self.massacre_options(s, seat),
            Choice::TechOf { of } => {
                self.tradeable(s, usize::from(of), seat).into_iter().map(Action::Tech).collect()
            }
            Choice::Deficit { .. } | Choice::Upkeep { .. } | Choice::Toll(_) | Choice::StartMove => {
                Vec::new()
            }
            Choice::NavyRaid => {
                let mine = board::navy(s, d, seat);
                (0..s.players.len())
                    .filter(|&o| o != seat && board::navy(s, d, o) < mine)
                    .flat_map(|o| {
                        s.players[o].overseas.iter().map(move |r| Action::Raid { seat: o as u8, route: *r })
                    })
                    .collect()
            }
        };
        if p.choice != Choice::DiscardMilitary || v.is_empty() {
            v.push(Action::Skip);
        }
        v
    }

    /// Technologies the seat may take (FACTS §4.3 techpick): legal ones in the face-up pool, or
    /// discovered ones still in the deck (RULING E11).
    pub(super) fn tech_options(&self, s: &State, seat: usize) -> Vec<u16> {
        let mut v: Vec<u16> = self.tech_candidates(s, seat).collect();
        v.sort_unstable();
        v.dedup();
        v
    }

    /// The technologies of [`Self::tech_options`], with repeats, lazily (a check needs only one).
    pub(super) fn tech_candidates<'a>(&'a self, s: &'a State, seat: usize) -> impl Iterator<Item = u16> + 'a {
        let d = self.data();
        let tech = move |c: &u16| d.dev[usize::from(*c)].kind == DevType::Technology;
        s.offer
            .iter()
            .filter(move |c| tech(c))
            .chain(s.dev_deck.iter().filter(move |c| tech(c) && s.discovered.contains(c)))
            .copied()
            .filter(move |&c| board::may_take(s, d, seat, c))
    }
}

impl Rules for R1800 {
    type State = State;
    type Action = Action;

    /// Who must act next and how.
    fn next_decision(&self, s: &State) -> Option<Decision> {
        if let Some(p) = s.pending.first() {
            return Some(Decision {
                seat: Seat::from_index(usize::from(p.seat)),
                prompt: pending_prompt(p.choice).into(),
            });
        }
        match &s.stage {
            Stage::Over => None,
            Stage::War => s.war.to_act().and_then(|p| s.seat_of(usize::from(p.0))).map(|x| Decision {
                seat: Seat::from_index(usize::from(x)),
                prompt: "act in the war: move, conscript, play a military card, or pass (WAR …)".into(),
            }),
            Stage::Call { to_ask, .. } => to_ask.first().map(|x| Decision {
                seat: Seat::from_index(usize::from(*x)),
                prompt: "before the draft: play Accelerate Development to pick first, or not (PLAY Accelerate Development / DECLINE ACCELERATE)".into(),
            }),
            Stage::Reprisal { to_ask } => to_ask.first().map(|x| Decision {
                seat: Seat::from_index(usize::from(*x)),
                prompt: "you were wronged this round: declare war on the wrongdoer with a Diplomatic Action, or not (RETALIATE ON <power>, PLAY Diplomatic Action RETALIATE ON <power>, DECLINE RETALIATE)".into(),
            }),
            Stage::Draft { to_pick } => to_pick.first().map(|x| Decision {
                seat: Seat::from_index(usize::from(*x)),
                prompt: "pick a development card from the draft, or pass (DRAFT …)".into(),
            }),
            Stage::Turn { seat, end_moves, .. } => Some(Decision {
                seat: Seat::from_index(usize::from(*seat)),
                prompt: if *end_moves {
                    "make your end-of-turn moves (MOVE POP / MOVE REGIMENT), or end your turn".into()
                } else {
                    "place resources and activate cards (PLACE, ACTIVATE, PLAY), or end your actions".into()
                },
            }),
        }
    }

    /// Every legal action now.
    fn legal_actions(&self, s: &State) -> Vec<Action> {
        if let Some(p) = s.pending.first().copied() {
            return self.pending_options(s, p);
        }
        match &s.stage {
            Stage::Over => Vec::new(),
            Stage::War => self.war_options(s),
            Stage::Draft { to_pick } => {
                let Some(&seat) = to_pick.first() else { return Vec::new() };
                let mut v: Vec<Action> = (0..s.offer.len())
                    .filter(|&k| board::may_take(s, self.data(), usize::from(seat), s.offer[k]))
                    .map(|k| Action::Pick(k as u8))
                    .collect();
                v.push(Action::PassPick);
                v.extend(self.admin_options(s, usize::from(seat)));
                v
            }
            Stage::Call { to_ask, .. } => {
                let Some(&seat) = to_ask.first() else { return Vec::new() };
                let mut v = self.admin_options(s, usize::from(seat));
                v.push(Action::Skip);
                v
            }
            Stage::Reprisal { to_ask } => {
                let Some(&seat) = to_ask.first() else { return Vec::new() };
                self.reprisal_options(s, usize::from(seat))
            }
            Stage::Turn { seat, end_moves: false, migrated, .. } => {
                self.main_options(s, usize::from(*seat), *migrated)
            }
            Stage::Turn { seat, end_moves: true, pop_moved, regiment_moves, .. } => {
                self.end_options(s, usize::from(*seat), *pop_moved, *regiment_moves)
            }
        }
    }

    /// The rules' default: pass, end, decline; a choice that only gains takes its first option.
    fn default_action(&self, s: &State) -> Option<Action> {
        let legal = self.legal_actions(s);
        // RULING E82: a factory, pop, regiment or technology the seat has earned is taken at the
        // first possible place in map (or card) order, as is Professional Army's discard; a
        // choice that costs, harms another power or binds the seat to a trade is declined, except
        // a conversion the seat has paid for (E82 amended, issue 35). An owed choice takes the
        // rules' answer (`owed`: E4, E21, E22, E75).
        if let Some(p) = s.pending.first() {
            if let Some(a) = self.owed_default(s, *p) {
                return Some(a);
            }
            let gains = matches!(
                p.choice,
                Choice::Factory
                    | Choice::Pop
                    | Choice::Recruit
                    | Choice::Tech
                    | Choice::TechOf { .. }
                    | Choice::DiscardMilitary
                    | Choice::Convert
            );
            let pick = |a: &&Action| if gains { **a != Action::Skip } else { **a == Action::Skip };
            return legal.iter().find(pick).or_else(|| legal.first()).cloned();
        }
        if let (Stage::War, Some(p)) = (&s.stage, s.war.to_act()) {
            return Some(Action::War(super::war::default_war_action(p)));
        }
        let pref = [Action::Skip, Action::PassPick, Action::EndActions, Action::EndTurn];
        pref.into_iter().find(|a| legal.contains(a)).or_else(|| legal.first().cloned())
    }
}

/// The distinct multisets of `n` cards from a sorted hand.
pub fn discard_sets(hand: &[u8], n: usize) -> Vec<Vec<u8>> {
    if n == 0 {
        return vec![Vec::new()];
    }
    let mut out = Vec::new();
    let mut distinct = hand.to_vec();
    distinct.dedup();
    for c in &distinct {
        let mut rest = hand.to_vec();
        if let Some(i) = rest.iter().position(|x| x == c) {
            rest.remove(i);
        }
        rest.retain(|x| x >= c);
        for mut tail in discard_sets(&rest, n - 1) {
            tail.insert(0, *c);
            out.push(tail);
        }
    }
    out.sort();
    out.dedup();
    out
}
