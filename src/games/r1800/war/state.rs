//! The war's state and actions (serde types stored inside the engine's state): declarations,
//! the war phase under way (turn order, actions left, battles, bonuses played), each power's war
//! record, the actions a participant may take, the events players read, and the error a refused
//! action gives.

use super::board::{MilitaryCardId, Owner, PowerId, ProvinceId, Regiment};
use crate::engine::{Event, Seat};
use serde::{Deserialize, Serialize};

/// Why a power declared war (rules, "Wars": three ways, plus the *Navy* victim's right, FACTS §4.3).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum WarCause {
    /// The Conquest ambition: on a player controlling a province adjacent to one of yours.
    Conquest,
    /// The Great War global event: everyone fights.
    GreatWar,
    /// *Diplomatic Action* (Retaliate): after an aggressive action this round (RULING E72).
    Retaliation,
    /// The victim of a *Navy* raid declares on the raider.
    NavyRaid,
}

impl WarCause {
    /// The cause in words.
    pub fn words(self) -> &'static str {
        match self {
            WarCause::Conquest => "the Conquest ambition",
            WarCause::GreatWar => "the Great War",
            WarCause::Retaliation => "a Diplomatic Action (retaliation)",
            WarCause::NavyRaid => "a naval raid",
        }
    }
}

/// One declaration of war: makes `declarer` and `target` hostile for this round's war phase.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Declaration {
    pub declarer: PowerId,
    pub target: PowerId,
    pub cause: WarCause,
}

/// A battle started by a move into an enemy regiment's province, resolved at the end of the war
/// phase. The attacking regiment has left its province and is held here until then.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Battle {
    pub at: ProvinceId,
    pub attacker: PowerId,
    pub defender: PowerId,
    /// Where the attacker came from.
    pub from: ProvinceId,
    /// The attacking regiment, off the board until the battle is resolved.
    pub regiment: Regiment,
}

/// A battle bonus from a military card played in this war.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Bonus {
    /// `+amount` in every battle of the power this war.
    War { amount: u8 },
    /// `+amount` in the power's battle in the named province.
    Province { at: ProvinceId, amount: u8 },
    /// *Naval Support*: in the named province, with the larger navy, `strait` if someone supports
    /// across a strait, else `coastal` (the province is coastal).
    Naval { at: ProvinceId, coastal: u8, strait: u8 },
}

/// A bonus with the power that played it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlayedBonus {
    pub power: PowerId,
    pub bonus: Bonus,
}

/// The war phase under way.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct WarPhase {
    /// The participants in turn order (from the dealer's left); earlier wins the last tie.
    pub order: Vec<PowerId>,
    /// Actions left, by position in `order`.
    pub actions_left: Vec<u8>,
    /// The position in `order` of the participant to act.
    pub next: usize,
    pub battles: Vec<Battle>,
    pub bonuses: Vec<PlayedBonus>,
    /// Who controlled each province when the phase began (to report territory changes).
    pub control_before: Vec<Option<Owner>>,
}

/// A power's war record over the game ("war score").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct WarRecord {
    pub power: PowerId,
    pub wars: u16,
    pub battles_won: u16,
    pub battles_lost: u16,
    /// Provinces it controls after a war that it did not control before it.
    pub provinces_taken: u16,
}

impl WarRecord {
    /// A power's record before its first war.
    pub fn new(power: PowerId) -> Self {
        WarRecord { power, wars: 0, battles_won: 0, battles_lost: 0, provinces_taken: 0 }
    }
}

/// Everything the war keeps between actions and rounds.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct WarState {
    /// This round's declarations (cleared when the war phase ends).
    #[serde(default)]
    pub declarations: Vec<Declaration>,
    /// The war phase being fought, if any.
    #[serde(default)]
    pub phase: Option<WarPhase>,
    /// Each power's record, in the order powers first fought.
    #[serde(default)]
    pub records: Vec<WarRecord>,
}

impl WarState {
    /// Whether `a` and `b` are at war with each other (a declaration between them, either way).
    pub fn hostile(&self, a: PowerId, b: PowerId) -> bool {
        a != b
            && self
                .declarations
                .iter()
                .any(|d| (d.declarer == a && d.target == b) || (d.declarer == b && d.target == a))
    }

    /// Whether `p` takes part in this round's war (is in at least one declaration).
    pub fn involved(&self, p: PowerId) -> bool {
        self.declarations.iter().any(|d| d.declarer == p || d.target == p)
    }

    /// The participant to act now, if a war phase is under way.
    pub fn to_act(&self) -> Option<PowerId> {
        let phase = self.phase.as_ref()?;
        phase.order.get(phase.next).copied()
    }

    /// The power's record (zero if it never fought).
    pub fn record(&self, p: PowerId) -> WarRecord {
        self.records.iter().find(|r| r.power == p).copied().unwrap_or(WarRecord::new(p))
    }

    /// The power's record, to update.
    pub(super) fn record_mut(&mut self, p: PowerId) -> &mut WarRecord {
        if let Some(i) = self.records.iter().position(|r| r.power == p) {
            return &mut self.records[i];
        }
        self.records.push(WarRecord::new(p));
        let last = self.records.len() - 1;
        &mut self.records[last]
    }
}

impl WarPhase {
    /// The battle in `p`, if any.
    pub fn battle_at(&self, p: ProvinceId) -> Option<&Battle> {
        self.battles.iter().find(|b| b.at == p)
    }

    /// The position of `p` in the turn order.
    pub fn position(&self, p: PowerId) -> Option<usize> {
        self.order.iter().position(|x| *x == p)
    }
}

/// How a military card is used (its target), by the card's effect.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "use", rename_all = "snake_case")]
pub enum CardUse {
    /// A bonus card: `at` names the province for a province bonus, `None` for a war-wide one.
    Bonus { at: Option<ProvinceId> },
    /// A tradition put into play.
    Tradition,
    /// *Reinforcements*: conscript in `at`, then perhaps move to `to`.
    Reinforcements { at: ProvinceId, to: Option<ProvinceId> },
    /// *Strategic Repositioning*: each regiment from → to.
    Repositioning { moves: Vec<(ProvinceId, ProvinceId)> },
    /// *Naval Support*, the sea move.
    SeaMove { from: ProvinceId, to: ProvinceId },
    /// *Naval Support*, the bonus in a province.
    NavalBonus { at: ProvinceId },
}

/// What a participant does with one war action (rules, "Wars": move, draft a conscript, play a
/// military card, pass).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "do", rename_all = "snake_case")]
pub enum WarDeed {
    /// Move a regiment to an adjacent province (a battle if an enemy regiment stands there).
    Move { from: ProvinceId, to: ProvinceId },
    /// Draft a conscripted regiment on one of your pops.
    Conscript { at: ProvinceId },
    /// Play a military card.
    Play { card: MilitaryCardId, with: CardUse },
    /// Do nothing with this action.
    Pass,
}

/// One war action of one power.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct WarAction {
    pub power: PowerId,
    pub deed: WarDeed,
}

/// Something that happened in the war, as text: the public part, and a part only `secret.0` may
/// read (the military card a loser drew).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct WarEvent {
    pub public: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub secret: Option<(PowerId, String)>,
}

impl WarEvent {
    /// An event everyone reads.
    pub fn public(text: impl Into<String>) -> Self {
        WarEvent { public: text.into(), secret: None }
    }

    /// The engine's event, with the secret addressed to the power's seat.
    pub fn into_event(self, seat_of: impl Fn(PowerId) -> Seat) -> Event {
        match self.secret {
            Some((p, text)) => Event::with_secret(self.public, seat_of(p), text),
            None => Event::public(self.public),
        }
    }
}

/// Why a war action or declaration was refused, in words a player can read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error, Serialize, Deserialize)]
pub enum WarError {
    #[error("no war is being fought now")]
    NoWar,
    #[error("a war is already being fought this round")]
    WarUnderWay,
    #[error("it is {0}'s turn to act in the war")]
    NotYourTurn(String),
    #[error("{0}")]
    Declaration(String),
    #[error("you cannot move that regiment: {0}")]
    Move(String),
    #[error("you cannot conscript there: {0}")]
    Conscript(String),
    #[error("you cannot play that card so: {0}")]
    Card(String),
}
