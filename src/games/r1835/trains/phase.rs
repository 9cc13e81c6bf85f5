//! The consequences of a purchase from the bank (FACTS §8, HR 9): the first train of a type
//! rusts older types and may start a phase; a phase brings its events (privates closing,
//! Prussian moments) and its train limits, and surplus trains go to the pool. LD closes when SX
//! buys its first train (FACTS §3).

use super::super::R1835;
use super::super::state::{Entity, PrussianMoment, State};
use super::depot::{id_of, trains_mut, trains_of};
use crate::engine::Event;

impl PrussianMoment {
    fn of(event: &str) -> Option<PrussianMoment> {
        match event {
            "prussian_may_form" => Some(PrussianMoment::MayForm),
            "prussian_must_form" => Some(PrussianMoment::MustForm),
            "prussian_forced_exchange" => Some(PrussianMoment::ForcedExchange),
            _ => None,
        }
    }

    fn text(self) -> &'static str {
        match self {
            PrussianMoment::MayForm => "M2's owner may now form the Prussian (FACTS §9)",
            PrussianMoment::MustForm => "the Prussian must now form (FACTS §9)",
            PrussianMoment::ForcedExchange => {
                "every remaining minor, BB and HB must now be exchanged into the Prussian (FACTS §9)"
            }
        }
    }
}

impl R1835 {
    /// Works out a purchase of type `t` from the bank (HR 9: before anything else happens).
    pub(super) fn after_bank_purchase(&self, s: &mut State, t: usize, buyer: Entity, ev: &mut Vec<Event>) {
        if s.depot.sold_of(t) != 1 {
            return;
        }
        let Some(kind) = self.data.trains.get(t).cloned() else { return };
        for r in 0..self.data.trains.len() {
            if self.data.trains[r].rusts_on.as_deref() == Some(kind.name.as_str()) {
                self.rust(s, r, &kind.name, ev);
            }
        }
        if let Some(k) = kind.starts_phase.and_then(|id| self.data.phases.iter().position(|p| p.id == id)) {
            let k = u8::try_from(k).unwrap_or(u8::MAX);
            while s.phase < k {
                s.phase += 1;
                self.enter_phase(s, ev);
            }
        }
        self.enforce_limits(s, Some(buyer), ev);
    }

    /// Every train of type `r` rusts (FACTS §8): out of the companies, the pool and the bank.
    fn rust(&self, s: &mut State, r: usize, by: &str, ev: &mut Vec<Event>) {
        let name = self.data.trains[r].name.clone();
        let mut lost = Vec::new();
        let entities: Vec<Entity> = (0..s.majors.len())
            .filter_map(|c| u8::try_from(c).ok().map(Entity::Major))
            .chain((0..s.minors.len()).filter_map(|m| u8::try_from(m).ok().map(Entity::Minor)))
            .collect();
        let mut count = 0u32;
        for e in entities {
            let Some(trains) = trains_mut(s, e) else { continue };
            let before = trains.len();
            trains.retain(|x| *x != name);
            let k = before - trains.len();
            if k > 0 {
                count += u32::try_from(k).unwrap_or(0);
                lost.push(format!("{} {k}", id_of(s, e)));
            }
        }
        let before = s.depot.pool.len();
        s.depot.pool.retain(|x| *x != name);
        let k = before - s.depot.pool.len();
        if k > 0 {
            count += u32::try_from(k).unwrap_or(0);
            lost.push(format!("pool {k}"));
        }
        let unsold = self.data.trains[r].count.saturating_sub(s.depot.sold_of(r));
        if unsold > 0 {
            s.depot.add_sold(r, unsold);
            count += u32::from(unsold);
            lost.push(format!("bank {unsold}"));
        }
        s.depot.rusted += count;
        let whose = if lost.is_empty() { "nobody held one".to_string() } else { lost.join(", ") };
        ev.push(Event::public(format!("The first {by}-train rusts every {name}-train ({whose})")));
    }

    /// The phase `s.phase` begins: its events and a line saying what it changes.
    fn enter_phase(&self, s: &mut State, ev: &mut Vec<Event>) {
        let Some(ph) = self.data.phases.get(usize::from(s.phase)).cloned() else { return };
        ev.push(Event::public(format!(
            "Phase {} begins: tiles {}; train limits {} per share company, {} per minor, {} for the Prussian; {} operating round(s) per set from the next stock round on{}",
            ph.id,
            ph.tiles.join(", "),
            ph.limit_major,
            ph.limit_minor,
            ph.limit_prussian,
            ph.operating_rounds,
            if ph.train_trading { "; companies may buy trains from each other" } else { "" }
        )));
        for event in &ph.events {
            if event == "close_privates" {
                self.close_privates(s, "phase_3", "the first 5-train closes it (FACTS §3)", ev);
            } else if let Some(m) = PrussianMoment::of(event) {
                if !s.prussian_due.contains(&m) {
                    s.prussian_due.push(m);
                }
                ev.push(Event::public(format!("Phase {}: {}", ph.id, m.text())));
            }
        }
    }

    /// Closes the open privates whose data lists `cause` among the events that close them.
    fn close_privates(&self, s: &mut State, cause: &str, why: &str, ev: &mut Vec<Event>) {
        for (i, x) in self.data.privates.iter().enumerate() {
            let Some(p) = s.privates.get_mut(i) else { continue };
            if !p.closed && x.closes.iter().any(|c| c == cause) {
                p.closed = true;
                ev.push(Event::public(format!("{} closes: {why}", x.id)));
            }
        }
    }

    /// LD closes when SX buys its first train (FACTS §3, `first_train_of_SX`).
    pub(super) fn close_ld_with_sx(&self, s: &mut State, buyer: Entity, ev: &mut Vec<Event>) {
        if matches!(buyer, Entity::Major(c) if self.data.majors.get(usize::from(c)).is_some_and(|m| m.id == "SX"))
        {
            self.close_privates(s, "first_train_of_SX", "SX has bought its first train (FACTS §3)", ev);
        }
    }

    /// Every company over its limit puts its least valuable surplus trains into the pool without
    /// compensation (FACTS §7.6, RR §24.2). `except` (the operating entity) keeps them until
    /// its president discards (RULING K38).
    pub(crate) fn enforce_limits(&self, s: &mut State, except: Option<Entity>, ev: &mut Vec<Event>) {
        let entities: Vec<Entity> = (0..s.majors.len())
            .filter_map(|c| u8::try_from(c).ok().map(Entity::Major))
            .chain(
                (0..s.minors.len())
                    .filter(|m| !s.minors[*m].closed)
                    .filter_map(|m| u8::try_from(m).ok().map(Entity::Minor)),
            )
            .filter(|e| Some(*e) != except)
            .collect();
        for e in entities {
            let mut gone = Vec::new();
            for _ in 0..self.excess(s, e) {
                let Some(worst) = trains_of(s, e).iter().min_by_key(|x| self.train_rank(x)).cloned() else {
                    break;
                };
                self.to_pool(s, e, &worst);
                gone.push(worst);
            }
            if !gone.is_empty() {
                ev.push(Event::public(format!(
                    "{} is over its train limit of {} and puts its {} into the pool without compensation (RULING K38)",
                    id_of(s, e),
                    self.train_limit(s, e),
                    gone.iter().map(|x| format!("{x}-train")).collect::<Vec<_>>().join(", ")
                )));
            }
        }
    }

    /// Moves one train called `name` from the entity to the pool.
    pub(super) fn to_pool(&self, s: &mut State, e: Entity, name: &str) -> bool {
        let Some(trains) = trains_mut(s, e) else { return false };
        let Some(i) = trains.iter().position(|x| x == name) else { return false };
        let train = trains.remove(i);
        s.depot.pool.push(train);
        true
    }
}
