//! What the war procedure needs from the 1800 game state: the [`WarBoard`] trait with its plain
//! id types ([`PowerId`], [`ProvinceId`], [`Owner`], [`Regiment`]) and the military cards as data
//! ([`MilitaryCard`], [`MilitaryEffect`]). The engine's state implements the trait; the war never
//! sees anything else of it. Control is not stored: [`control`] derives it from regiments and
//! pops as the rules say, so it can never disagree with them.

use crate::engine::GameRng;
use serde::{Deserialize, Serialize};
use std::fmt;

/// One of the eight powers, by the engine's own numbering.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct PowerId(pub u8);

/// A province of the map, by the engine's own numbering (dense, from 0).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct ProvinceId(pub u16);

impl ProvinceId {
    /// The id's position in per-province vectors.
    pub fn index(self) -> usize {
        usize::from(self.0)
    }
}

/// A military card by its kind: copies of one card are interchangeable, so a hand is a list of
/// kinds with repeats. The number is the card's place in [`WarBoard::military_cards`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct MilitaryCardId(pub u8);

/// Whose pop or regiment: a power, or the neutral population of the map.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Owner {
    Power(PowerId),
    Neutral,
}

impl Owner {
    /// The power, if it is one.
    pub fn power(self) -> Option<PowerId> {
        match self {
            Owner::Power(p) => Some(p),
            Owner::Neutral => None,
        }
    }
}

/// A regiment (a cone). Each province holds at most one (rules: "A single province may only have
/// one regiment in it"). A conscripted regiment stands on one of its owner's pops, in `conscripted`,
/// usually its own province (*Reinforcements* may move it one step away).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Regiment {
    pub owner: Owner,
    /// Where the pop it was conscripted from lives; `None` for a regular regiment.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub conscripted: Option<ProvinceId>,
}

impl Regiment {
    /// A regular regiment of `power`.
    pub fn regular(power: PowerId) -> Self {
        Regiment { owner: Owner::Power(power), conscripted: None }
    }
}

/// Where a bonus card's bonus applies (FACTS §5.2).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum BonusScope {
    /// Every battle of the player in this war (*Superior Tactics*).
    War,
    /// Battles in the province the player names (*Expert* and *Magnificent Maneuver*).
    Province,
}

/// What a military card does, in a small declarative form the war interprets; the card data
/// (`rules/1800/`) gives one per card, e.g. `effect = { kind = "bonus", amount = 1, scope = "war" }`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum MilitaryEffect {
    /// `battle(+amount, scope)` for this war.
    Bonus { amount: u8, scope: BonusScope },
    /// Conscript a regiment in a province you control; it may move to an adjacent province.
    Reinforcements,
    /// Move up to `regiments` regiments away from the fighting.
    Repositioning { regiments: u8 },
    /// Stays in play for the rest of the game: `battle(+amount, all)`; replaces your other
    /// tradition.
    MilitaryTradition { amount: u8 },
    /// Either a sea move between coastal provinces, or, with the larger navy, `coastal` in one
    /// coastal battle or `strait` in a battle supported across a strait.
    NavalSupport { coastal: u8, strait: u8 },
    /// Stays in play: with the larger navy, `coastal` in coastal battles and `strait` more where
    /// someone supports across a strait; replaces your other tradition.
    NavalTradition { coastal: u8, strait: u8 },
}

impl MilitaryEffect {
    /// Whether the card stays in play once played (a tradition).
    pub fn is_tradition(self) -> bool {
        matches!(self, MilitaryEffect::MilitaryTradition { .. } | MilitaryEffect::NavalTradition { .. })
    }
}

/// One military card kind: its name as printed and its effect.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct MilitaryCard {
    pub name: String,
    pub effect: MilitaryEffect,
}

/// The game state as the war sees it. Provinces are `0..province_count()`; adjacency includes
/// strait crossings; sea zones only matter through [`WarBoard::is_coastal`]. The war moves
/// regiments, removes pops and moves military cards only through the `&mut self` methods here, so
/// an implementation keeps its own bookkeeping (supplies, food) in them.
pub trait WarBoard {
    /// How many provinces the map has.
    fn province_count(&self) -> u16;
    /// The province's name as players write it.
    fn province_name(&self, p: ProvinceId) -> &str;
    /// The provinces adjacent to `p` by land or across a strait.
    fn neighbours(&self, p: ProvinceId) -> &[ProvinceId];
    /// Whether `a` and `b` are adjacent across a strait (not by land).
    fn is_strait(&self, a: ProvinceId, b: ProvinceId) -> bool;
    /// Whether `p` touches a sea zone.
    fn is_coastal(&self, p: ProvinceId) -> bool;
    /// Whether a ship can carry a regiment from coastal `a` to coastal `b` (all seas of the
    /// reconstructed map are joined, so by default any two coastal provinces).
    fn sea_route(&self, a: ProvinceId, b: ProvinceId) -> bool {
        a != b && self.is_coastal(a) && self.is_coastal(b)
    }

    /// The power's name as players read it.
    fn power_name(&self, power: PowerId) -> &str;
    /// The pops in `p` by owner (owners with none left out).
    fn pops(&self, p: ProvinceId) -> Vec<(Owner, u8)>;
    /// Removes one pop of `owner` from `p` (a conscript lost in battle); false if it had none.
    fn remove_pop(&mut self, p: ProvinceId, owner: Owner) -> bool;
    /// The regiment in `p`, if any.
    fn regiment(&self, p: ProvinceId) -> Option<Regiment>;
    /// Puts a regiment in `p` or takes it away (`None`).
    fn set_regiment(&mut self, p: ProvinceId, regiment: Option<Regiment>);
    /// How many regiment pieces the power has in all (on the board, in battles and in supply).
    fn regiment_limit(&self, power: PowerId) -> u8;

    /// Actions per war: the mobility of the power's communications technology.
    fn mobility(&self, power: PowerId) -> u8;
    /// The battle bonus of the power's military technology.
    fn military_bonus(&self, power: PowerId) -> u8;
    /// The power's navy size (for the naval cards).
    fn navy(&self, power: PowerId) -> u8;

    /// Every military card kind; [`MilitaryCardId`] indexes this list.
    fn military_cards(&self) -> &[MilitaryCard];
    /// The power's hand of military cards (secret to its owner).
    fn military_hand(&self, power: PowerId) -> Vec<MilitaryCardId>;
    /// Moves one copy of `card` from the power's hand to the discard pile; false if not held.
    fn discard_military(&mut self, power: PowerId, card: MilitaryCardId) -> bool;
    /// Draws the top military card into the power's hand (shuffling the discard pile into a new
    /// deck when the deck is empty); `None` when there is no card left anywhere.
    fn draw_military(&mut self, power: PowerId, rng: &mut GameRng) -> Option<MilitaryCardId>;
    /// The tradition the power has in play, if any.
    fn tradition(&self, power: PowerId) -> Option<MilitaryCardId>;
    /// Moves one copy of `card` from the power's hand into play as its tradition; the tradition
    /// in play before goes to the discard pile. False if the card is not held.
    fn play_tradition(&mut self, power: PowerId, card: MilitaryCardId) -> bool;

    /// The province a player names, by name in any case (ignoring spaces, dots and dashes).
    fn province_named(&self, name: &str) -> Option<ProvinceId> {
        let want = fold(name);
        (0..self.province_count()).map(ProvinceId).find(|p| fold(self.province_name(*p)) == want)
    }
}

/// A name folded for comparison: lower case, letters and digits only.
pub fn fold(name: &str) -> String {
    name.chars().filter(|c| c.is_alphanumeric()).flat_map(char::to_lowercase).collect()
}

/// Who controls `p` (rules, "Pops, Regiments, & Provinces"): the owner of the regiment there;
/// otherwise the owner with more pops than any other (the neutral pops count as one more
/// nation); nobody when the most pops are tied or there are none (FACTS §9.3).
pub fn control<B: WarBoard + ?Sized>(board: &B, p: ProvinceId) -> Option<Owner> {
    if let Some(r) = board.regiment(p) {
        return Some(r.owner);
    }
    let pops = board.pops(p);
    let most = pops.iter().map(|(_, n)| *n).max().filter(|n| *n > 0)?;
    let mut leaders = pops.iter().filter(|(_, n)| *n == most);
    let first = leaders.next()?.0;
    leaders.next().is_none().then_some(first)
}

/// The pops of `owner` in `p`.
pub fn pops_of<B: WarBoard + ?Sized>(board: &B, p: ProvinceId, owner: Owner) -> u8 {
    board.pops(p).iter().filter(|(o, _)| *o == owner).map(|(_, n)| *n).sum()
}

/// Every province of the board.
pub fn provinces<B: WarBoard + ?Sized>(board: &B) -> impl Iterator<Item = ProvinceId> {
    (0..board.province_count()).map(ProvinceId)
}

impl fmt::Display for Owner {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Owner::Power(p) => write!(f, "power {}", p.0),
            Owner::Neutral => f.write_str("neutral"),
        }
    }
}
