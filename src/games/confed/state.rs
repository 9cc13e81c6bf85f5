//! The state of a Confederate Rails game (serde types stored as JSON; the actions that change it
//! are in `actions`, re-exported here). A game is a sequence of small decisions: the set-up choices (RT 3.4-3.7), then per
//! Player Turn the activations (RT 5.0), the undertaking of loads (RT 5.1-5.2), the train's
//! steps (RT 5.3-5.6), and the choices and interrupts that events, the War Progress Table and
//! Special Events ask for (RT 5.9, 6.0-7.15), queued as [`Task`]s.

pub use super::actions::Action;
use super::actions::Cond;
use crate::engine::Seat;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};

/// The extra "E" train's number (RT 2.3.2).
pub const E_TRAIN: u8 = 8;

/// A chit of the draw pile: a load (by contract number, Troops included) or an event (by the
/// index of its kind in `tables.toml`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Chit {
    /// A load chit, by contract number (1-89).
    Load(u32),
    /// An event chit, by the index of its kind.
    Event(usize),
}

/// Where a train stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Place {
    /// In a station on the map.
    Station(usize),
    /// Disabled, in the Raleigh Repair Box (RT 5.8).
    RepairBox,
}

/// A load a train has undertaken (RT 5.1.3): where it is picked up and dropped off.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Contract {
    /// The load chit's number.
    pub chit: u32,
    /// The pickup station (for an abandoned load: where it lies).
    pub pickup: usize,
    /// The designated dropoff station.
    pub dropoff: usize,
    /// The train has picked it up.
    pub picked: bool,
}

/// One train in play.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Train {
    /// 1-7, or [`E_TRAIN`].
    pub id: u8,
    /// Where it is.
    pub at: Place,
    /// Its load, if any.
    pub load: Option<Contract>,
    /// The line it last travelled (RULING F2).
    pub line: Option<u8>,
    /// Lines whose usage fee it paid and has not left (RT 5.6.2).
    pub fee_paid: BTreeSet<u8>,
}

impl Train {
    /// The station it stands in, if on the map.
    pub fn station(&self) -> Option<usize> {
        match self.at {
            Place::Station(s) => Some(s),
            Place::RepairBox => None,
        }
    }
}

/// One player.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Player {
    /// The Treasury in dollars (never below 0: RULING F16).
    pub money: u32,
    /// The RRC lines owned.
    pub rrcs: BTreeSet<u8>,
    /// Special Event counters held (their numbers, 1-8): hidden from the others (RT 3.6).
    pub specials: Vec<u8>,
    /// The trains in play (destroyed trains are removed).
    pub trains: Vec<Train>,
    /// Trains still to be placed at set-up (RT 3.5).
    pub unplaced: Vec<u8>,
    /// The lines a train was placed on at set-up (one train per line, RT 3.5).
    pub placed_on: Vec<u8>,
    /// The extra "E" train has not entered play yet.
    pub e_available: bool,
    /// Special Events played this Player Turn (RT 6.0: one, with the stated combinations).
    pub played_this_turn: Vec<u8>,
    /// Extended Game (RT 3.5): trains placed one at a time as RRCs are bought.
    #[serde(default)]
    pub reserve: Vec<u8>,
}

/// A load left on the map (RT 5.1.7): anyone may undertake it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Abandoned {
    /// The load chit's number.
    pub chit: u32,
    /// Where it lies.
    pub at: usize,
    /// Its designated dropoff.
    pub dropoff: usize,
    /// RT 7.6: an Iron shipment seized by a Divert Iron Shipment: only this seat may take it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reserved: Option<Seat>,
}

/// RT 7.6 (RULING F62): a Divert Iron Shipment in force: `seat` may "abandon" an Iron load
/// one of its trains has picked up in any station of `line`, whose Bad Rails then go.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Diversion {
    /// The seat that enacted the event.
    pub seat: Seat,
    /// Its Bad Rails line to repair.
    pub line: u8,
    /// The Iron chit it seized from another player's train, if any: diverted with no tariff.
    pub seized: Option<u32>,
}

/// What the game is waiting for, when no [`Task`] is queued.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Stage {
    /// RT 3.4: the seats choose RRCs in this order (the rest are then dealt).
    ChooseRrc { order: Vec<Seat> },
    /// RT 3.5: each seat in turn places its next train.
    Place,
    /// RT 3.7: seats select one face-up starting load at a time (`State::offer`), for each train.
    SelectLoads,
    /// RT 5.0 / 5.3.1 / 5.8: the active player activates trains, repairs, pays bribes.
    Activate,
    /// RT 5.1.1-5.1.2: the train must undertake a load (it begins its activation empty).
    Undertake { train: u8 },
    /// RT 5.1.2: a load was drawn: take it or one of the display.
    ChooseLoad { train: u8, drawn: u32 },
    /// RT 5.1.3: the player designates the dropoff among these.
    Dropoff { train: u8, chit: u32, pickup: usize, options: Vec<usize>, setup: bool },
    /// RT 5.2.1: the Troops' pickup Depot among these.
    TroopsPickup { train: u8, chit: u32, options: Vec<usize> },
    /// Extended Game, RT 4.1.1: `selector` selects an unowned RRC and bids, or passes the
    /// privilege to the next seat (RULING F38); `passes` seats have passed it.
    RrcPhase { selector: Seat, passes: u32 },
    /// RT 4.1.1: `next` raises the `bid` of `high` for `rrc`, or passes; `passes` in a row.
    Bidding { rrc: u8, high: Seat, bid: u32, next: Seat, passes: u32 },
    /// RT 4.1.1: `seat` bought `line` and places an available train on it.
    PlaceBought { seat: Seat, line: u8 },
    /// RT 4.1.2: the drawn load replaces a displayed load of the active player's choice.
    Contract { drawn: u32 },
    /// The train moves (RT 5.3): steps, pick-up, drop-off, abandonment, end (MP in `State::mp`).
    Move { train: u8 },
    /// The game is over.
    Over,
}

/// What a choice task is about (the option list is in the task).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum ChoiceKind {
    /// RT 5.9.1 Choice / Choice (V): the station the Union takes.
    Occupy,
    /// RT 7.2: the bridge that collapses (segments).
    BridgeCollapse,
    /// RT 7.3: the station that becomes a Depot (voluntary).
    DepotConstruction,
    /// RT 7.6: the Bad Rails line repaired with an Iron load (voluntary; lines).
    DivertIron,
    /// RT 7.9: a bridge blown (option `seg * 2`) or a segment ripped up (`seg * 2 + 1`) in
    /// the sabotage area.
    Sabotage,
    /// RT 7.13: the train that breaks down (train ids of the active player).
    BreakDown,
    /// RT 7.14: the train seized (owner seat index * 16 + train id; voluntary).
    Seizure,
    /// RT 7.15: a segment ripped up (option `seg * 2`) or a train disabled
    /// (`(seat index * 16 + train id) * 2 + 1`).
    Raid,
    /// RT 6.6: the segment this seat rips up for the Great Iron Treasure Hunt.
    TreasureHunt,
    /// RT 7.6: another seat's train whose Iron shipment is seized (owner seat index * 16 +
    /// train id; voluntary).
    IronSeizure,
    /// RT 7.7: the train its owner does not pay for (train ids; asked while the owner can pay
    /// for some of his trains but not all).
    WearAndTear,
}

/// Something a seat must answer before play goes on (choices, interrupts, offers).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Task {
    /// Choose one option (station, segment, line, train) for `kind`; `optional` allows Decline.
    Choose { seat: Seat, kind: ChoiceKind, options: Vec<usize>, optional: bool },
    /// RT 5.9.1 / 6.1, 6.3, 6.5: the Union is about to take `station`; `seat` may play a
    /// General to cancel it (the window passes seat by seat from the active player: RULING F22).
    Cancel { seat: Seat, station: usize },
    /// RT 6.4: a Victory Depot was retaken; `seat` may play Foreign Intervention.
    Intervention { seat: Seat },
    /// RT 6.8: `seat` may donate $3000s before the Through-Freight Law roll.
    Donate { seat: Seat },
    /// RT 6.8: everyone has donated: roll for the law.
    ThroughFreightRoll { bonus: u32 },
    /// Issue 17: `seat` is offered `amount` by `from`; it transfers only if accepted and the
    /// condition, if any, then holds (RULING F42). The condition is never shown.
    Offer {
        seat: Seat,
        from: Seat,
        amount: u32,
        #[serde(default)]
        cond: Option<Cond>,
    },
    /// RT 5.9.1: the Union takes `station` (after the cancel window).
    Occupy { station: usize },
    /// RT 6.0, 1.0 (RULINGS F22, F36 amended): before the active player's activation phase,
    /// `seat` may play a Special Event or offer money ("at any time … including during other
    /// players' Player Turns"); asked of every other seat, so nothing tells who holds what.
    Window { seat: Seat },
    /// RT 6.2: `seat` may add a General's +1 to the Offensive against `station`.
    Support { seat: Seat, station: usize },
    /// RT 6.2: the Offensive's roll, with the General played for it (by whom), if any.
    OffensiveRoll { seat: Seat, station: usize, general: Option<(Seat, u8)> },
    /// Go on with what the War Progress roll interrupted.
    Then(Then),
}

impl Task {
    /// The seat that must answer, or None for an automatic step.
    pub fn seat(&self) -> Option<Seat> {
        match self {
            Task::Choose { seat, .. }
            | Task::Cancel { seat, .. }
            | Task::Intervention { seat }
            | Task::Donate { seat }
            | Task::Offer { seat, .. }
            | Task::Window { seat }
            | Task::Support { seat, .. } => Some(*seat),
            Task::ThroughFreightRoll { .. }
            | Task::Occupy { .. }
            | Task::OffensiveRoll { .. }
            | Task::Then(_) => None,
        }
    }
}

/// What continues once a War Progress roll (and its choices and interrupts) is resolved.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Then {
    /// RT 5.1.4: the war-materiel load is undertaken; the train may now move.
    Move { train: u8 },
    /// RT 7.0: the event is applied now (with the option chosen before the roll, if any).
    Enact { event: usize, choice: Option<usize> },
    /// RT 5.1.2: the train's activation ends (an event was drawn).
    EndActivation,
    /// RULING F36 (amended): the offers of the Player Turn are answered; the turn then ends.
    EndTurn,
}

/// The whole game.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct State {
    /// Seats, by seat index.
    pub players: Vec<Player>,
    /// The draw pile, top last (hidden order).
    pub pile: Vec<Chit>,
    /// The Available Loads Display (RT 2.1.5).
    pub display: Vec<u32>,
    /// The face-up starting loads still to select (RT 3.7).
    pub offer: Vec<u32>,
    /// Loads abandoned on the map.
    pub abandoned: Vec<Abandoned>,
    /// Chits discarded from play, in order (public).
    pub discarded: Vec<Chit>,
    /// Union-occupied stations (RT 5.9.2; the entry points are separate and permanent).
    pub occupied: BTreeSet<usize>,
    /// Congested stations (RT 5.5).
    pub congested: BTreeSet<usize>,
    /// Lines with Bad Rails (RT 7.1).
    pub bad_rails: BTreeSet<u8>,
    /// Segments with a Bridge Disruption marker (RT 2.3.3).
    pub bridges_out: BTreeSet<usize>,
    /// Ripped Up! markers per segment (RT 2.3.3).
    pub ripped: BTreeMap<usize, u32>,
    /// Unbuilt segments completed (RT 7.10, 7.11).
    pub built: BTreeSet<usize>,
    /// New Depots (RT 7.3).
    pub new_depots: BTreeSet<usize>,
    /// Union Blockade Increase chits in play (RT 7.8).
    pub blockade: u32,
    /// A Cotton Embargo is in force (RT 7.5).
    pub embargo: bool,
    /// Railroad Conventions played (RT 7.12).
    pub conventions: u32,
    /// The Through-Freight Law passed (RT 6.8).
    pub through_freight: bool,
    /// Collisions! chits waiting for the next train passing through an occupied station (RT 7.4).
    pub collisions: u32,
    /// The Congestion Table was rolled this Player Turn (RT 5.5).
    pub congestion_rolled: bool,
    /// Foreign Intervention may be played now (RT 6.4).
    pub vd_retaken: bool,
    /// Rounds begun.
    pub round: u32,
    /// This Round's seating order, initiative first (RT 3.3, 4.0).
    pub order: Vec<Seat>,
    /// Index in `order` of the player whose turn it is.
    pub turn: usize,
    /// Trains activated this Player Turn, still to move, in order.
    pub to_move: Vec<u8>,
    /// The moving train's movement points left (RT 5.3.2).
    pub mp: u32,
    /// The moving train entered its station in this activation (RT 7.4 "passes through").
    pub moved_in: bool,
    /// The 51 chits set aside until the draw pile is made (RT 3.7).
    pub set_aside: Vec<Chit>,
    /// Trains activated in the current Round (RULING F14: a Round without any ends the game).
    pub activations_this_round: u32,
    /// What the game waits for when no task is queued.
    pub stage: Stage,
    /// Tasks before play goes on, first first.
    pub tasks: Vec<Task>,
    /// Money the bank paid out (payouts) and took in (activation, tariffs, repairs, fees to no
    /// owner, donations): the money check of the property tests.
    pub bank_out: u64,
    /// See `bank_out`.
    pub bank_in: u64,
    /// Why the game ended.
    pub ended: Option<String>,
    /// The Extended Game (RT 1.1) is played.
    #[serde(default)]
    pub extended: bool,
    /// The Extended Game before the War (RT 5.9): no Troops, Blockade Runners or Events in the
    /// pile, no War Progress, no Special Events.
    #[serde(default)]
    pub pre_war: bool,
    /// RT 7.6 (RULING F62): Divert Iron Shipments enacted and not yet carried out.
    #[serde(default)]
    pub diversions: Vec<Diversion>,
    /// RULING F36 (amended): offers of money made this Player Turn ([`Task::Offer`]s), answered
    /// when the turn's play is over.
    #[serde(default)]
    pub offers: Vec<Task>,
    /// RT 5.6: the line usage fees paid this Player Turn, for a budget of `PAY FEES … UP TO`
    /// (RULING F83); empty between Player Turns.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub fees_paid: Vec<FeePaid>,
}

/// RT 5.6: one line usage fee paid this Player Turn.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FeePaid {
    /// The train that paid it.
    pub train: u8,
    /// The line it was paid for.
    pub line: u8,
    /// The amount.
    pub amount: u32,
}

impl State {
    /// The seat whose Player Turn it is.
    pub fn active(&self) -> Seat {
        self.order.get(self.turn).copied().unwrap_or(Seat(1))
    }

    /// A player by seat.
    pub fn player(&self, seat: Seat) -> Option<&Player> {
        self.players.get(seat.index())
    }

    /// A player by seat, mutable.
    pub fn player_mut(&mut self, seat: Seat) -> Option<&mut Player> {
        self.players.get_mut(seat.index())
    }

    /// A train of a seat.
    pub fn train(&self, seat: Seat, id: u8) -> Option<&Train> {
        self.player(seat)?.trains.iter().find(|t| t.id == id)
    }

    /// A train of a seat, mutable.
    pub fn train_mut(&mut self, seat: Seat, id: u8) -> Option<&mut Train> {
        self.player_mut(seat)?.trains.iter_mut().find(|t| t.id == id)
    }

    /// The seat and train holding load `chit`, if a train holds it.
    pub fn holder(&self, chit: u32) -> Option<(Seat, u8)> {
        self.players.iter().enumerate().find_map(|(i, p)| {
            let t = p.trains.iter().find(|t| t.load.as_ref().is_some_and(|c| c.chit == chit))?;
            Some((Seat::from_index(i), t.id))
        })
    }

    /// The owner of an RRC line, if any.
    pub fn owner_of(&self, line: u8) -> Option<Seat> {
        self.players.iter().position(|p| p.rrcs.contains(&line)).map(Seat::from_index)
    }

    /// Trains standing in a station (every seat's).
    pub fn trains_at(&self, station: usize) -> usize {
        self.players.iter().flat_map(|p| &p.trains).filter(|t| t.station() == Some(station)).count()
    }

    /// The seats in order starting with `first`.
    pub fn seats_from(&self, first: Seat) -> Vec<Seat> {
        let n = self.players.len();
        (0..n).map(|k| Seat::from_index((first.index() + k) % n.max(1))).collect()
    }

    /// Total money of all players.
    pub fn total_money(&self) -> u64 {
        self.players.iter().map(|p| u64::from(p.money)).sum()
    }
}
