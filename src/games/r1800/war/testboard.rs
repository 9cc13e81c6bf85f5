//! A small hand-made map implementing [`WarBoard`] for the war's tests: thirteen provinces
//! around Prussia, France, Austria and Britain, one strait pair (Normandie and Flanders to
//! London), two neutral provinces, and a military deck of the eight card kinds of FACTS §5.2.
//!
//! ```text
//!   London ~ Normandie — Paris — Champagne — Rheinland — Hesse — Berlin — Pommerania
//!   London ~ Flanders —— Normandie, Champagne, Rheinland      Hesse — Saxony — Berlin
//!   Hesse — Bavaria — Bohemia — Saxony;  Bavaria — Vienna — Bohemia
//! ```

use super::board::{
    BonusScope, MilitaryCard, MilitaryCardId, MilitaryEffect, Owner, PowerId, ProvinceId, Regiment, WarBoard,
};
use crate::engine::GameRng;
use std::collections::BTreeMap;

pub const PRUSSIA: PowerId = PowerId(0);
pub const FRANCE: PowerId = PowerId(1);
pub const AUSTRIA: PowerId = PowerId(2);
pub const BRITAIN: PowerId = PowerId(3);

/// Card kinds of the test deck, in catalogue order.
pub const TACTICS: MilitaryCardId = MilitaryCardId(0);
pub const EXPERT: MilitaryCardId = MilitaryCardId(1);
pub const MAGNIFICENT: MilitaryCardId = MilitaryCardId(2);
pub const REINFORCEMENTS: MilitaryCardId = MilitaryCardId(3);
pub const REPOSITIONING: MilitaryCardId = MilitaryCardId(4);
pub const MIL_TRADITION: MilitaryCardId = MilitaryCardId(5);
pub const NAVAL_SUPPORT: MilitaryCardId = MilitaryCardId(6);
pub const NAVAL_TRADITION: MilitaryCardId = MilitaryCardId(7);

/// Province, owner of its one starting pop (None = neutral), coastal.
const PROVINCES: [(&str, Option<PowerId>, bool); 13] = [
    ("Berlin", Some(PRUSSIA), false),
    ("Saxony", Some(PRUSSIA), false),
    ("Hesse", Some(PRUSSIA), false),
    ("Rheinland", Some(PRUSSIA), false),
    ("Champagne", Some(FRANCE), false),
    ("Paris", Some(FRANCE), false),
    ("Normandie", Some(FRANCE), true),
    ("Flanders", None, true),
    ("London", Some(BRITAIN), true),
    ("Bohemia", Some(AUSTRIA), false),
    ("Vienna", Some(AUSTRIA), false),
    ("Bavaria", None, false),
    ("Pommerania", Some(PRUSSIA), true),
];

/// Land borders by province name.
const BORDERS: [(&str, &str); 17] = [
    ("Berlin", "Saxony"),
    ("Berlin", "Hesse"),
    ("Berlin", "Pommerania"),
    ("Saxony", "Hesse"),
    ("Saxony", "Bohemia"),
    ("Hesse", "Rheinland"),
    ("Hesse", "Bavaria"),
    ("Rheinland", "Champagne"),
    ("Rheinland", "Flanders"),
    ("Champagne", "Paris"),
    ("Champagne", "Flanders"),
    ("Paris", "Normandie"),
    ("Normandie", "Flanders"),
    ("Bohemia", "Vienna"),
    ("Bohemia", "Bavaria"),
    ("Bavaria", "Vienna"),
    ("Saxony", "Bavaria"),
];

/// Strait crossings.
const STRAITS: [(&str, &str); 2] = [("Normandie", "London"), ("Flanders", "London")];

/// The province of the test map called `name` (test data: panics on a typo).
pub fn at(name: &str) -> ProvinceId {
    match PROVINCES.iter().position(|(x, _, _)| *x == name) {
        Some(i) => ProvinceId(i as u16),
        None => panic!("no province {name} on the test map"),
    }
}

/// One power's war-relevant holdings.
#[derive(Debug, Clone, PartialEq)]
pub struct TestPower {
    pub name: &'static str,
    pub mobility: u8,
    pub bonus: u8,
    pub navy: u8,
    pub hand: Vec<MilitaryCardId>,
    pub tradition: Option<MilitaryCardId>,
}

/// The test map with its pieces and military cards.
#[derive(Debug, Clone, PartialEq)]
pub struct TestBoard {
    pub adjacency: Vec<Vec<ProvinceId>>,
    pub pops: Vec<BTreeMap<Owner, u8>>,
    pub regiments: Vec<Option<Regiment>>,
    pub powers: Vec<TestPower>,
    pub cards: Vec<MilitaryCard>,
    pub deck: Vec<MilitaryCardId>,
    pub discard: Vec<MilitaryCardId>,
}

fn card(name: &str, effect: MilitaryEffect) -> MilitaryCard {
    MilitaryCard { name: name.into(), effect }
}

impl TestBoard {
    /// The map with one pop in each province (its owner's or neutral), no regiments, empty
    /// hands, mobility 3, no bonuses, and a deck of two copies of each card kind.
    pub fn new() -> Self {
        let n = PROVINCES.len();
        let mut adjacency = vec![Vec::new(); n];
        let id = |name: &str| PROVINCES.iter().position(|(x, _, _)| *x == name).map(|i| ProvinceId(i as u16));
        for (a, b) in BORDERS.iter().chain(STRAITS.iter()) {
            let (Some(a), Some(b)) = (id(a), id(b)) else { panic!("test map names {a}, {b}") };
            adjacency[a.index()].push(b);
            adjacency[b.index()].push(a);
        }
        let pops = PROVINCES
            .iter()
            .map(|(_, owner, _)| BTreeMap::from([(owner.map_or(Owner::Neutral, Owner::Power), 1)]))
            .collect();
        let power =
            |name| TestPower { name, mobility: 3, bonus: 0, navy: 0, hand: Vec::new(), tradition: None };
        let cards = vec![
            card("Superior Tactics", MilitaryEffect::Bonus { amount: 1, scope: BonusScope::War }),
            card("Expert Maneuver", MilitaryEffect::Bonus { amount: 1, scope: BonusScope::Province }),
            card("Magnificent Maneuver", MilitaryEffect::Bonus { amount: 2, scope: BonusScope::Province }),
            card("Reinforcements", MilitaryEffect::Reinforcements),
            card("Strategic Repositioning", MilitaryEffect::Repositioning { regiments: 2 }),
            card("Military Tradition", MilitaryEffect::MilitaryTradition { amount: 1 }),
            card("Naval Support", MilitaryEffect::NavalSupport { coastal: 1, strait: 2 }),
            card("Naval Tradition", MilitaryEffect::NavalTradition { coastal: 1, strait: 1 }),
        ];
        let deck = (0..2).flat_map(|_| (0..cards.len() as u8).map(MilitaryCardId)).collect();
        TestBoard {
            adjacency,
            pops,
            regiments: vec![None; n],
            powers: vec![power("Prussia"), power("France"), power("Austria"), power("Britain")],
            cards,
            deck,
            discard: Vec::new(),
        }
    }

    /// The province called `name` (see [`at`]).
    pub fn at(&self, name: &str) -> ProvinceId {
        at(name)
    }

    /// Puts a regular regiment of `power` in `name`.
    pub fn put(&mut self, power: PowerId, name: &str) {
        let p = self.at(name);
        self.regiments[p.index()] = Some(Regiment::regular(power));
    }

    /// Sets the number of pops `owner` has in `name`.
    pub fn set_pops(&mut self, owner: Owner, name: &str, n: u8) {
        let p = self.at(name);
        self.pops[p.index()].insert(owner, n);
        self.pops[p.index()].retain(|_, k| *k > 0);
    }

    /// Moves one copy of `card` from the deck into the power's hand.
    pub fn give(&mut self, power: PowerId, card: MilitaryCardId) {
        if let Some(i) = self.deck.iter().position(|c| *c == card) {
            self.deck.remove(i);
        }
        self.powers[usize::from(power.0)].hand.push(card);
    }

    /// Every military card anywhere (deck, discard, hands, traditions in play), sorted.
    pub fn all_cards(&self) -> Vec<MilitaryCardId> {
        let mut all: Vec<MilitaryCardId> = self.deck.iter().chain(&self.discard).copied().collect();
        for p in &self.powers {
            all.extend(p.hand.iter().copied().chain(p.tradition));
        }
        all.sort();
        all
    }

    fn power(&self, power: PowerId) -> &TestPower {
        &self.powers[usize::from(power.0)]
    }

    fn power_mut(&mut self, power: PowerId) -> &mut TestPower {
        &mut self.powers[usize::from(power.0)]
    }
}

impl Default for TestBoard {
    fn default() -> Self {
        Self::new()
    }
}

impl WarBoard for TestBoard {
    fn province_count(&self) -> u16 {
        PROVINCES.len() as u16
    }
    fn province_name(&self, p: ProvinceId) -> &str {
        PROVINCES[p.index()].0
    }
    fn neighbours(&self, p: ProvinceId) -> &[ProvinceId] {
        &self.adjacency[p.index()]
    }
    fn is_strait(&self, a: ProvinceId, b: ProvinceId) -> bool {
        let (a, b) = (self.province_name(a), self.province_name(b));
        STRAITS.iter().any(|(x, y)| (*x == a && *y == b) || (*x == b && *y == a))
    }
    fn is_coastal(&self, p: ProvinceId) -> bool {
        PROVINCES[p.index()].2
    }
    fn power_name(&self, power: PowerId) -> &str {
        self.power(power).name
    }
    fn pops(&self, p: ProvinceId) -> Vec<(Owner, u8)> {
        self.pops[p.index()].iter().map(|(o, n)| (*o, *n)).collect()
    }
    fn remove_pop(&mut self, p: ProvinceId, owner: Owner) -> bool {
        let pops = &mut self.pops[p.index()];
        match pops.get_mut(&owner) {
            Some(n) if *n > 0 => {
                *n -= 1;
                pops.retain(|_, k| *k > 0);
                true
            }
            _ => false,
        }
    }
    fn regiment(&self, p: ProvinceId) -> Option<Regiment> {
        self.regiments[p.index()]
    }
    fn set_regiment(&mut self, p: ProvinceId, regiment: Option<Regiment>) {
        self.regiments[p.index()] = regiment;
    }
    fn regiment_limit(&self, _power: PowerId) -> u8 {
        8
    }
    fn mobility(&self, power: PowerId) -> u8 {
        self.power(power).mobility
    }
    fn military_bonus(&self, power: PowerId) -> u8 {
        self.power(power).bonus
    }
    fn navy(&self, power: PowerId) -> u8 {
        self.power(power).navy
    }
    fn military_cards(&self) -> &[MilitaryCard] {
        &self.cards
    }
    fn military_hand(&self, power: PowerId) -> Vec<MilitaryCardId> {
        self.power(power).hand.clone()
    }
    fn discard_military(&mut self, power: PowerId, card: MilitaryCardId) -> bool {
        let hand = &mut self.power_mut(power).hand;
        let Some(i) = hand.iter().position(|c| *c == card) else { return false };
        hand.remove(i);
        self.discard.push(card);
        true
    }
    fn draw_military(&mut self, power: PowerId, rng: &mut GameRng) -> Option<MilitaryCardId> {
        if self.deck.is_empty() {
            self.deck = std::mem::take(&mut self.discard);
            rng.shuffle(&mut self.deck);
        }
        let card = self.deck.pop()?;
        self.power_mut(power).hand.push(card);
        Some(card)
    }
    fn tradition(&self, power: PowerId) -> Option<MilitaryCardId> {
        self.power(power).tradition
    }
    fn play_tradition(&mut self, power: PowerId, card: MilitaryCardId) -> bool {
        let p = self.power_mut(power);
        let Some(i) = p.hand.iter().position(|c| *c == card) else { return false };
        p.hand.remove(i);
        let old = p.tradition.replace(card);
        self.discard.extend(old);
        true
    }
}
