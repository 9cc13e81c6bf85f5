//! Which decisions a line answers (DESIGN "Orders and decisions"; issue 34): a line is offered
//! only to decisions of the kinds it names — a `DELIVER` to the dropoff of its own load, a
//! `TROOPS … TO` to a Troops chit's dropoff, a `CHOOSE UNION` to Union's Choice — and the echo
//! says which decision each line is for (RULING F80).

use super::super::chits::{is_troops, train_name};
use super::super::data::{Data, StationKind};
use super::super::decision::Kind;
use super::{Order, When};

impl Order {
    /// Whether this line may answer a decision of kind `k` (whether it then fits the position is
    /// for the answering to judge).
    pub(in super::super) fn answers(&self, d: &Data, k: &Kind) -> bool {
        match (self, k) {
            (Order::Rrc(_), Kind::ChooseRrc) | (Order::Select(_), Kind::SelectLoad) => true,
            (Order::Place { train, .. }, Kind::Place { train: next }) => train == next,
            (Order::Place { .. }, Kind::PlaceBought { .. }) => true,
            (Order::Activate(_) | Order::ActivateAll | Order::Repair(_), Kind::Activate) => true,
            // RULING F65: a repair or a marker's removal before or while the owner's trains move.
            (Order::RepairBridge(..) | Order::Clear(..), Kind::Activate | Kind::Move { .. }) => true,
            (
                Order::Play { special: 2 | 6 | 7 | 8, .. } | Order::Pay { .. },
                Kind::Activate | Kind::Window,
            ) => true,
            (Order::Support { on, .. }, Kind::Support { station }) => {
                on.as_ref().is_none_or(|n| d.map.find_station(n) == Some(*station))
            }
            (Order::Play { special: 4, .. }, Kind::Intervention) => true,
            (Order::Accept { amount, from }, Kind::Offer { from: f, amount: a }) => amount == a && from == f,
            (Order::TakeDrawn, Kind::ChooseLoad { .. }) => true,
            // RULING F84: a line `FOR` a train answers only the choice made for it.
            (
                Order::TakeDrawnIf { train: t, .. } | Order::TakeInstead { train: t, .. },
                Kind::ChooseLoad { train, .. },
            ) => t.is_none_or(|t| t == *train),
            (Order::Take(_), Kind::Undertake { .. } | Kind::Move { .. } | Kind::ChooseLoad { .. }) => true,
            (Order::Deliver { load, .. }, Kind::Dropoff { chit, .. }) => load == chit,
            (Order::Troops { .. }, Kind::Dropoff { chit, .. } | Kind::TroopsPickup { chit, .. }) => {
                is_troops(d, *chit)
            }
            (
                Order::Again(t)
                | Order::Move { train: t, .. }
                | Order::Shortest { train: t, .. }
                | Order::Abandon { train: t, .. }
                | Order::Leave { train: t, .. },
                Kind::Move { train },
            ) => t == train,
            // RULING F83: a fee line answers only the fee of the train and line it names.
            (Order::Fees(f), Kind::Fee { train, line, .. }) => f.covers(*train, *line),
            (Order::PlayWhen { when, .. }, Kind::Cancel { station }) => match when {
                When::Any => true,
                When::VictoryDepot => {
                    d.map.stations.get(*station).is_some_and(|x| x.kind == StationKind::VictoryDepot)
                }
                When::Station(n) => d.map.find_station(n) == Some(*station),
            },
            (Order::Donate(_), Kind::Donate) => true,
            (Order::Choose { kind, .. }, Kind::Choice(c)) => kind == c,
            (Order::Decline(kind), Kind::Choice(c)) => super::choose::declines(kind, c),
            (Order::Bid { .. } | Order::BidUpTo { .. }, Kind::RrcPhase) => true,
            (Order::Bid { rrc, .. } | Order::BidUpTo { rrc, .. }, Kind::Bid { rrc: r }) => rrc == r,
            (Order::Replace(_), Kind::Contract { .. }) => true,
            _ => false,
        }
    }

    /// The decision this line is written for, in words (the echo's "for …").
    pub(in super::super) fn decision_named(&self) -> String {
        match self {
            Order::Rrc(_) => "the choice of an RRC at set-up (RT 3.4)".into(),
            Order::Place { train, .. } => {
                format!("where {} is placed (RT 3.5, or a bought RRC's train, RT 4.1.1)", train_name(*train))
            }
            Order::Select(_) => "a starting load (RT 3.7)".into(),
            Order::Activate(_) | Order::ActivateAll | Order::Repair(_) => {
                "your activation phase (RT 5.0)".into()
            }
            Order::RepairBridge(..) | Order::Clear(..) => {
                "your activation phase or your trains' movement (RT 7.9, RULING F65)".into()
            }
            Order::Play { special: 4, .. } => {
                "Foreign Intervention after a Victory Depot is retaken (RT 6.4)".into()
            }
            Order::Play { when: None, .. } => {
                "your activation phase, or the window before another's (RT 6.0)".into()
            }
            Order::Play { when: Some(c), .. } => {
                format!(
                    "the first window where {c}: your activation phase or the window before another's (RT 6.0; standing)"
                )
            }
            Order::Pay { .. } => "your activation phase, or the window before another's (RT 1.0)".into(),
            Order::Support { on, .. } => match on {
                Some(n) => format!("another player's Offensive on {n} (RT 6.2; standing)"),
                None => "another player's Offensive (RT 6.2; standing)".into(),
            },
            Order::Never { .. } => "no decision: it withdraws a standing order".into(),
            Order::Accept { amount, from } => format!("{from}'s offer of ${amount}"),
            Order::TakeDrawn => "the load drawn (RT 5.1.2)".into(),
            Order::TakeDrawnIf { test, train } => {
                format!("the load drawn{}, kept only if {test} (RT 5.1.2)", for_train(*train))
            }
            Order::TakeInstead { load, when, train } => {
                format!(
                    "the load drawn{}: load {load} of the display instead if the drawn one is {when} (RT 5.1.2)",
                    for_train(*train)
                )
            }
            Order::Take(n) => format!("undertaking load {n} (RT 5.1.2, 5.1.7)"),
            Order::Deliver { load, .. } => format!("the dropoff of load {load} (RT 3.7, 5.1.3)"),
            Order::Troops { .. } => "the pickup and dropoff of Troops (RT 5.2)".into(),
            Order::Again(t)
            | Order::Move { train: t, .. }
            | Order::Shortest { train: t, .. }
            | Order::Abandon { train: t, .. }
            | Order::Leave { train: t, .. } => format!("the movement of your {} (RT 5.3)", train_name(*t)),
            Order::Fees(f) => format!("the line usage fee (RT 5.6): {}", f.words()),
            Order::PlayWhen { when, .. } => match when {
                When::Station(n) => format!("a War Progress result taking {n} (RT 5.9, 6.0)"),
                When::VictoryDepot => "a War Progress result taking a Victory Depot (RT 5.9, 6.0)".into(),
                When::Any => "any War Progress result taking a station (RT 5.9, 6.0)".into(),
            },
            Order::Donate(_) => "a Through-Freight Law roll (RT 6.8)".into(),
            Order::Choose { kind, .. } | Order::Decline(kind) => kind.title().into(),
            Order::Bid { rrc, .. } | Order::BidUpTo { rrc, .. } => {
                format!("the bidding for RRC #{rrc} (RT 4.1.1)")
            }
            Order::Replace(_) => "the Contract Phase (RT 4.1.2)".into(),
        }
    }
}

/// ` for train t` when a `TAKE … IF` line names its train, else nothing.
fn for_train(train: Option<u8>) -> String {
    train.map(|t| format!(" for {}", train_name(t))).unwrap_or_default()
}
