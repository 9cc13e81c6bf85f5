//! What a player (or the harness) may do at a decision ([`Action`], stored as JSON in the action
//! log), and the condition a payment waits on ([`Cond`], which an offer keeps in the state too).

use crate::engine::Seat;
use serde::{Deserialize, Serialize};

/// A condition a payment waits on (`PAY n TO seat IF …`; `bribe` parses and evaluates it).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Cond {
    /// `<station> IS OPEN`: not occupied by the Union.
    Open(String),
    /// `<station> IS OCCUPIED`: occupied by the Union.
    Occupied(String),
    /// `TRAIN <seat> <id> IS AT <station>`.
    TrainAt { seat: Seat, train: u8, at: String },
    /// `LINE <n> HAS BAD RAILS`.
    BadRails(u8),
    /// `NOT <condition>`.
    Not(Box<Cond>),
}

/// Everything a player (or the harness) may do at a decision.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Action {
    /// RT 3.4: choose this RRC.
    ChooseRrc(u8),
    /// RT 3.5: place the next train in this station, counted on this line.
    PlaceTrain { station: usize, line: u8 },
    /// RT 3.7: select this face-up load for the next train still without one.
    SelectLoad(u32),
    /// RT 5.3.1: activate this train ($100).
    Activate(u8),
    /// RT 5.8: repair this disabled train at Raleigh and activate it ($300).
    Repair(u8),
    /// RT 2.3.3: remove the Bridge Disruption on this segment ($300).
    RepairBridge(usize),
    /// RT 2.3.3: remove one Ripped Up! marker from this segment ($200).
    RemoveRipped(usize),
    /// Issue 17: offer money to a seat (it transfers if that seat accepts and `cond` holds then).
    Offer {
        to: Seat,
        amount: u32,
        #[serde(default)]
        cond: Option<Cond>,
    },
    /// RT 6.2 (with 6.1/6.3 for +1): attack this Union-occupied station.
    Offensive { station: usize, general: Option<u8> },
    /// RT 6.6: cancel the Bad Rails of this line.
    TreasureHunt(u8),
    /// RT 6.7: place the E train in Staunton.
    GreatTrainRaid,
    /// RT 6.8: play the Through-Freight Law.
    ThroughFreight,
    /// End the activation phase: the activated trains move in the order activated.
    StartMoving,
    /// RT 5.1.1 / 5.1.2: take the Troops chit of the display / draw from the pile.
    Draw,
    /// RT 5.1.2: keep the drawn load.
    TakeDrawn,
    /// RT 5.1.2: take this display load instead (the drawn one replaces it). When the pile
    /// is empty (RULING F12) it is taken directly.
    TakeDisplay(u32),
    /// RT 5.1.7: undertake a load abandoned on the map (RULING F11).
    TakeAbandoned(u32),
    /// RULING F12: nothing to undertake: the train moves light.
    MoveLight,
    /// Choose a station (dropoff, Troops pickup or dropoff) offered by the stage.
    Designate(usize),
    /// RT 5.3: move to this adjacent station, paying the line usage fee if `fee`.
    Step { to: usize, fee: bool },
    /// RT 5.1.5: pick up the load here.
    PickUp,
    /// RT 5.1.6: drop off the load here.
    DropOff,
    /// RT 5.1.7: abandon the load here ($300; RULING F13 for a load not yet picked up).
    Abandon,
    /// RT 5.1.8: the load cannot be delivered: leave it at this Depot, no payout, no tariff.
    DepotDrop,
    /// End this train's activation.
    EndMove,
    /// Answer a choice task with this option.
    Choose(usize),
    /// Decline a voluntary choice, an interrupt or an offer.
    Pass,
    /// RT 6.1 / 6.3 / 6.5: play this General to cancel the pending War Progress result.
    Cancel(u8),
    /// RT 6.4: play Foreign Intervention.
    Intervene,
    /// RT 6.2: add this General's +1 to another player's Offensive.
    Support(u8),
    /// RT 6.8: donate this many $3000s.
    Donate(u32),
    /// Accept the money offered.
    Accept,
    /// RT 4.1.1: bid this amount for this RRC (opening, or raising the high bid).
    Bid { rrc: u8, amount: u32 },
    /// RT 4.1.2: the drawn load replaces this displayed one, which leaves the game.
    Replace(u32),
}
