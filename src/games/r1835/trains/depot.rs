//! What the bank and the pool hold (FACTS §7.6, §8): the bank sells its trains in the strict
//! order of `trains.toml`, the pool keeps the trains companies had to give up, rusted trains
//! leave the game. The state keeps only what has changed
//! ([`Depot`](super::super::state::Depot)); the bank's stock is the data's count less what has
//! left it. Also the per-entity views the purchase rules need (trains, cash, limit, who runs it).

use super::super::R1835;
use super::super::holdings::Holder;
use super::super::state::{Entity, State};

/// The trains an entity holds (nothing for an index the state does not have).
pub(crate) fn trains_of(s: &State, e: Entity) -> &[String] {
    match e {
        Entity::Major(c) => s.majors.get(usize::from(c)).map(|x| x.trains.as_slice()),
        Entity::Minor(m) => s.minors.get(usize::from(m)).map(|x| x.trains.as_slice()),
    }
    .unwrap_or(&[])
}

/// The trains an entity holds, to change them.
pub(crate) fn trains_mut(s: &mut State, e: Entity) -> Option<&mut Vec<String>> {
    match e {
        Entity::Major(c) => s.majors.get_mut(usize::from(c)).map(|x| &mut x.trains),
        Entity::Minor(m) => s.minors.get_mut(usize::from(m)).map(|x| &mut x.trains),
    }
}

/// The entity's treasury.
pub(crate) fn cash_of(s: &State, e: Entity) -> i64 {
    match e {
        Entity::Major(c) => s.majors.get(usize::from(c)).map(|x| x.cash),
        Entity::Minor(m) => s.minors.get(usize::from(m)).map(|x| x.cash),
    }
    .unwrap_or(0)
}

/// The entity as a payer or payee.
pub(crate) fn holder_of(e: Entity) -> Holder {
    match e {
        Entity::Major(c) => Holder::Major(usize::from(c)),
        Entity::Minor(m) => Holder::Minor(usize::from(m)),
    }
}

/// The printed id ("BY", "M2").
pub(crate) fn id_of(s: &State, e: Entity) -> String {
    match e {
        Entity::Major(c) => s.majors.get(usize::from(c)).map(|x| x.id.clone()),
        Entity::Minor(m) => s.minors.get(usize::from(m)).map(|x| x.id.clone()),
    }
    .unwrap_or_default()
}

impl R1835 {
    /// The index of the train type called `name`.
    pub(crate) fn train_type(&self, name: &str) -> Option<usize> {
        self.data.trains.iter().position(|t| t.name == name)
    }

    /// A train's printed price (0 for an unknown name).
    pub(crate) fn train_price(&self, name: &str) -> i64 {
        self.train_type(name).and_then(|t| self.data.trains.get(t)).map(|t| t.price).unwrap_or(0)
    }

    /// How a train ranks in value: its printed price, then its place in the bank's order.
    pub(crate) fn train_rank(&self, name: &str) -> (i64, usize) {
        (self.train_price(name), self.train_type(name).unwrap_or(0))
    }

    /// The type the bank sells next: the first with trains left (FACTS §7.6 strict order).
    pub(crate) fn bank_next(&self, s: &State) -> Option<usize> {
        self.data.trains.iter().enumerate().position(|(t, x)| s.depot.sold_of(t) < x.count)
    }

    /// How many trains the bank still holds.
    pub(crate) fn bank_left(&self, s: &State) -> u32 {
        self.data
            .trains
            .iter()
            .enumerate()
            .map(|(t, x)| u32::from(x.count.saturating_sub(s.depot.sold_of(t))))
            .sum()
    }

    /// All trains in the game wherever they are: bank, pool, companies, rusted (33 in 1835).
    pub(crate) fn trains_accounted(&self, s: &State) -> u32 {
        let held: usize = s.majors.iter().map(|c| c.trains.len()).sum::<usize>()
            + s.minors.iter().map(|m| m.trains.len()).sum::<usize>()
            + s.depot.pool.len();
        self.bank_left(s) + u32::try_from(held).unwrap_or(u32::MAX) + s.depot.rusted
    }

    /// The entity with this printed id (a share company or a minor).
    pub(crate) fn entity_by_id(&self, id: &str) -> Option<Entity> {
        if let Some(c) = self.data.major_index(id) {
            return u8::try_from(c).ok().map(Entity::Major);
        }
        self.data.minor_index(id).and_then(|m| u8::try_from(m).ok()).map(Entity::Minor)
    }

    /// The player who runs the entity: a minor's owner, a share company's president.
    pub(crate) fn controller(&self, s: &State, e: Entity) -> Option<u8> {
        match e {
            Entity::Minor(m) => s.minors.get(usize::from(m)).and_then(|x| x.owner),
            Entity::Major(c) => self.president(s, usize::from(c)),
        }
    }

    /// The entity's train limit in the current phase (FACTS §8: major, minor, Prussian).
    pub(crate) fn train_limit(&self, s: &State, e: Entity) -> usize {
        let Some(ph) = self.data.phases.get(usize::from(s.phase)) else { return 0 };
        usize::from(match e {
            Entity::Minor(_) => ph.limit_minor,
            Entity::Major(c) if self.data.majors.get(usize::from(c)).is_some_and(|m| m.prussian) => {
                ph.limit_prussian
            }
            Entity::Major(_) => ph.limit_major,
        })
    }

    /// Trains held beyond the limit. A minor limit of 0 means the minors are gone: their trains
    /// pass to the Prussian with the forced exchange, not to the pool (RULING K38).
    pub(crate) fn excess(&self, s: &State, e: Entity) -> usize {
        let limit = self.train_limit(s, e);
        if matches!(e, Entity::Minor(_)) && limit == 0 {
            return 0;
        }
        trains_of(s, e).len().saturating_sub(limit)
    }

    /// The current phase's id ("2.3").
    pub(crate) fn phase_id(&self, s: &State) -> String {
        self.data.phases.get(usize::from(s.phase)).map(|p| p.id.clone()).unwrap_or_default()
    }
}
