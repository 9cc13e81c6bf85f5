//! The flow of rounds: turns within a stock round (passes, skips, the end when everyone has
//! passed in succession), the end of a stock round (sold-out rise, priority after the last
//! buyer), operating rounds (private income, home stations due, the order; a company's turn is
//! `operate`), the bank breaking and
//! the end of the game (FACTS §1a, §5.2, §6, §7.1-7.2, §13; HR 11).

use super::R1835;
use super::holdings::{Holder, pay};
use super::options::Variant;
use super::packet::{lap_seat, opening_order};
use super::prussian::PrussianAt;
use super::state::{EndPlan, Entity, Round, RoundClose, State, StockRound, Turn, TurnOrder};
use crate::engine::Event;

/// Stock rounds in a row in which nobody could act before the game is stopped (only possible
/// with the test option `empty_operating_rounds`, where nothing earns money; RULING K14).
const MAX_IDLE_ROUNDS: u32 = 3;

impl R1835 {
    /// Marks a purchase: the turn has bought, the buyer is the last buyer, passes start over.
    pub(crate) fn record_purchase(&self, s: &mut State, p: u8, what: &str) {
        s.sr.bought.push((p, what.to_string()));
        s.sr.turn.bought = true;
        s.sr.last_buyer = Some(p);
        s.sr.passed.iter_mut().for_each(|x| *x = false);
    }

    /// Notes the bank breaking (its cash at or below zero): the game ends after the current
    /// operating round, or after the next one when it breaks in a stock round (FACTS §13).
    pub(crate) fn note_bank(&self, s: &mut State) {
        if s.bank > 0 || s.end.is_some() {
            return;
        }
        s.end = match s.round {
            Round::Stock { n } => Some(EndPlan { set: n, n: 1 }),
            Round::Operating { set, n, .. } => Some(EndPlan { set, n }),
            Round::Over => None,
        };
    }

    /// Begins stock round `n` with the priority holder (the lap pattern while the packet is on
    /// sale: FACTS §4.3, RULING K3).
    pub(crate) fn start_stock_round(&self, s: &mut State, n: u32, ev: &mut Vec<Event>) {
        self.note_round_end(s, ev);
        s.round = Round::Stock { n };
        s.round_seq += 1;
        // FACTS §9: later conversions are asked once around the table at the start of each SR.
        self.prussian_moments(s, PrussianAt::StockRoundStart, ev);
        if s.idle >= MAX_IDLE_ROUNDS {
            s.round = Round::Over;
            ev.push(Event::public(
                "Nobody could act in the last stock rounds and no company earns money (option empty_operating_rounds): the game stops here",
            ));
            return;
        }
        let np = s.players.len();
        let order = opening_order(s.options.variant, n, s.packet_open(), s.priority);
        let current = match order {
            TurnOrder::Laps { start, lap, pos, pattern } => lap_seat(start, s.n(), lap, pos, pattern),
            TurnOrder::Clockwise => s.priority,
        };
        s.sr = StockRound {
            current,
            order,
            passed: vec![false; np],
            last_buyer: None,
            sold: vec![0; np],
            turn: Turn::default(),
            acted: false,
            bought: Vec::new(),
        };
        ev.push(Event::public(format!(
            "Stock round {n} begins; seat {} holds the priority deal",
            s.priority + 1
        )));
        self.settle_turn(s, ev);
    }

    /// Moves the turn to the next seat of the order.
    fn next_seat(&self, s: &mut State) {
        let n = s.n();
        match s.sr.order {
            TurnOrder::Clockwise => s.sr.current = s.left_of(s.sr.current, 1),
            TurnOrder::Laps { start, lap, pos, pattern } => {
                let (lap, pos) = if pos + 1 >= n { (lap + 1, 0) } else { (lap, pos + 1) };
                s.sr.order = TurnOrder::Laps { start, lap, pos, pattern };
                s.sr.current = lap_seat(start, n, lap, pos, pattern);
            }
        }
    }

    /// Skips players who cannot buy any start-packet item (FACTS §4.2) and ends the round once
    /// everyone has passed since the last purchase (an unsold packet too: RULING K11).
    fn settle_turn(&self, s: &mut State, ev: &mut Vec<Event>) {
        for _ in 0..4 * s.players.len() + 4 {
            if s.sr.passed.iter().all(|x| *x) {
                return self.end_stock_round(s, ev);
            }
            let p = s.sr.current;
            if !s.packet_open() || self.can_buy_any_item(s, p) {
                return;
            }
            if let Some(x) = s.sr.passed.get_mut(usize::from(p)) {
                *x = true;
            }
            ev.push(Event::public(format!("seat {} cannot buy any start-packet item and is skipped", p + 1)));
            self.next_seat(s);
        }
        self.end_stock_round(s, ev);
    }

    /// Ends the current player's turn; without a purchase it is a pass (FACTS §6).
    pub(crate) fn end_turn(&self, s: &mut State, ev: &mut Vec<Event>) {
        let p = s.sr.current;
        s.sr.acted = true;
        if !s.sr.turn.bought {
            if let Some(x) = s.sr.passed.get_mut(usize::from(p)) {
                *x = true;
            }
            ev.push(Event::public(format!("seat {} passes", p + 1)));
        }
        s.sr.turn = Turn::default();
        if !s.packet_open() {
            // After the packet is sold the round goes on clockwise (RULING K3).
            s.sr.order = TurnOrder::Clockwise;
        }
        self.next_seat(s);
        self.settle_turn(s, ev);
    }

    /// The money of everyone at the end of the current round.
    pub(crate) fn round_close(&self, s: &State) -> RoundClose {
        RoundClose {
            round: s.round.name(),
            players: s.players.iter().map(|p| p.cash).collect(),
            companies: s
                .minors
                .iter()
                .map(|m| (m.id.clone(), m.cash))
                .chain(s.majors.iter().map(|c| (c.id.clone(), c.cash)))
                .collect(),
            bank: s.bank,
        }
    }

    /// End of a stock round: sold-out companies rise (FACTS §5.2), the priority deal goes to
    /// the player after the last buyer (HR 11), then the operating rounds follow.
    fn end_stock_round(&self, s: &mut State, ev: &mut Vec<Event>) {
        let Round::Stock { n } = s.round else { return };
        for co in 0..s.majors.len() {
            let unformed = self.data.majors[co].prussian && !s.majors[co].floated;
            let Some(space) = s.majors[co].price.filter(|_| !unformed) else { continue };
            if self.ipo_empty(s, co) && self.pool_percent(s, co) == 0 {
                let up = self.data.market.up(space);
                if up != space {
                    s.stamp += 1;
                    s.majors[co].price = Some(up);
                    s.majors[co].stamp = s.stamp;
                    ev.push(Event::public(format!(
                        "{} is sold out and rises to {} ({up})",
                        s.majors[co].id,
                        self.data.market.price(up)
                    )));
                }
            }
        }
        if let Some(b) = s.sr.last_buyer {
            s.priority = s.left_of(b, 1);
        }
        s.idle = if s.sr.acted { 0 } else { s.idle + 1 };
        ev.push(Event::public(format!(
            "Stock round {n} ends; the priority deal goes to seat {} (after the last buyer, HR 11)",
            s.priority + 1
        )));
        s.closed.push(self.round_close(s));
        let of = self.data.phases.get(usize::from(s.phase)).map(|p| p.operating_rounds).unwrap_or(1);
        self.start_operating_round(s, n, 1, of, ev);
    }

    /// Issue 15: the report shows where everything stands after each round (a turn covers
    /// several, HR 14) — said as the next round begins, while `s.round` is still the one ending.
    fn note_round_end(&self, s: &State, ev: &mut Vec<Event>) {
        if s.round_seq > 0 {
            ev.push(Event::public(format!("After {}: {}", s.round.name(), self.round_summary(s))));
        }
    }

    /// Begins operating round `set`.`k`: private income, then the operating order (FACTS §7.2).
    fn start_operating_round(&self, s: &mut State, set: u32, k: u8, of: u8, ev: &mut Vec<Event>) {
        self.note_round_end(s, ev);
        s.round = Round::Operating { set, n: k, of };
        s.round_seq += 1;
        // FACTS §7.2 step 1, HR 10: the Prussian's questions come before private income.
        self.prussian_moments(s, PrussianAt::OperatingRoundStart, ev);
        let mut paid = Vec::new();
        for i in 0..s.privates.len() {
            let Some(p) = s.privates[i].owner.filter(|_| !s.privates[i].closed) else { continue };
            let income = if self.data.privates[i].id == "LD" {
                s.options.ld_income
            } else {
                self.data.privates[i].income
            };
            pay(s, Holder::Bank, Holder::Player(p), income);
            paid.push(format!("{} {income} M to seat {}", self.data.privates[i].id, p + 1));
        }
        self.note_bank(s);
        let mut text = format!("Operating round {set}.{k} begins");
        if !paid.is_empty() {
            text.push_str(&format!("; private income: {}", paid.join(", ")));
        }
        ev.push(Event::public(text));
        s.or.powers_used.clear();
        self.place_due_homes(s, ev);
        s.or.queue = self.operating_order(s);
        if s.options.empty_operating_rounds {
            let ids: Vec<String> = s.or.queue.clone().into_iter().map(|e| self.operate_empty(s, e)).collect();
            if !ids.is_empty() {
                ev.push(Event::public(format!(
                    "{} did not operate: the option empty_operating_rounds is set (operating rounds are not yet played)",
                    ids.join(", ")
                )));
            }
            s.or.queue.clear();
        }
        if s.or.queue.is_empty() {
            self.finish_operating_round(s, ev);
        } else {
            self.begin_turn(s, ev);
        }
    }

    /// Minors M1-M6 (unless they must wait for BY to float), then floated share companies by
    /// price: higher first; same price: further right first; same space: the one on top.
    fn operating_order(&self, s: &State) -> Vec<Entity> {
        let by = self.data.major_index("BY").unwrap_or(0);
        let minors_wait = (s.options.minors_require_floated_by || s.options.variant == Variant::Clemens)
            && !s.majors[by].floated;
        let mut queue: Vec<Entity> = (0..s.minors.len())
            .filter(|m| s.minors[*m].owner.is_some() && !s.minors[*m].closed && !minors_wait)
            .map(|m| Entity::Minor(u8::try_from(m).unwrap_or(0)))
            .collect();
        let mut majors: Vec<usize> = (0..s.majors.len()).filter(|c| s.majors[*c].floated).collect();
        majors.sort_by_key(|c| self.order_key(s, *c));
        queue.extend(majors.into_iter().map(|c| Entity::Major(u8::try_from(c).unwrap_or(0))));
        queue
    }

    /// A share company's place in the operating order: higher price first; same price: further
    /// right first; same space: the marker on top (FACTS §7.2).
    fn order_key(&self, s: &State, c: usize) -> (std::cmp::Reverse<i64>, std::cmp::Reverse<u8>, u32) {
        let sp = s.majors[c].price.unwrap_or(self.data.majors[c].start_space);
        (std::cmp::Reverse(self.data.market.price(sp)), std::cmp::Reverse(sp.col), s.majors[c].stamp)
    }

    /// The share companies still to operate, in the order of their prices now: the order is
    /// taken again after each company's turn (FACTS §7.2, "dynamic").
    pub(crate) fn reorder_majors(&self, s: &mut State) {
        let (minors, mut majors): (Vec<Entity>, Vec<Entity>) =
            s.or.queue.iter().partition(|e| matches!(e, Entity::Minor(_)));
        majors.sort_by_key(|e| match e {
            Entity::Major(c) => Some(self.order_key(s, usize::from(*c))),
            Entity::Minor(_) => None,
        });
        s.or.queue = minors.into_iter().chain(majors).collect();
    }

    /// An empty company turn (test option): it counts as having operated.
    fn operate_empty(&self, s: &mut State, e: Entity) -> String {
        match e {
            Entity::Minor(m) => {
                s.minors[usize::from(m)].operated = true;
                s.minors[usize::from(m)].id.clone()
            }
            Entity::Major(c) => {
                let c = &mut s.majors[usize::from(c)];
                c.operated = true;
                c.home_placed = true;
                c.id.clone()
            }
        }
    }

    /// The seat acting for the entity operating now.
    pub(crate) fn operator(&self, s: &State) -> Option<u8> {
        match *s.or.queue.first()? {
            Entity::Minor(m) => s.minors.get(usize::from(m))?.owner,
            Entity::Major(c) => self.president(s, usize::from(c)),
        }
    }

    /// End of an operating round: the next one of the set, the next stock round, or the end.
    pub(crate) fn finish_operating_round(&self, s: &mut State, ev: &mut Vec<Event>) {
        let Round::Operating { set, n, of } = s.round else { return };
        ev.push(Event::public(format!("Operating round {set}.{n} ends")));
        s.closed.push(self.round_close(s));
        if s.end == Some(EndPlan { set, n }) {
            s.round = Round::Over;
            ev.push(Event::public("The bank has broken and its last operating round is over: the game ends"));
        } else if n < of {
            self.start_operating_round(s, set, n + 1, of, ev);
        } else {
            self.start_stock_round(s, set + 1, ev);
        }
    }
}
