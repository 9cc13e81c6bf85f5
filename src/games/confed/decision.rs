//! The kind of each decision (DESIGN "Orders and decisions"; issue 34): what the choice is and
//! its subject — "the dropoff of load 51 on seat 2's train 3", "Union's Choice", "Partisan
//! Sabotage" — typed, so that an order line answers only the decisions it names
//! (`Order::answers`), the echo can say which decision a line will answer, and the prompt names
//! the load, the train and the choices.

use super::Confed;
use super::board::name;
use super::chits::{self, train_name};
use super::state::{ChoiceKind, Stage, State, Task};
use crate::engine::Seat;

/// What a decision is about, with its subject.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Kind {
    /// RT 3.4: the choice of an RRC at set-up.
    ChooseRrc,
    /// RT 3.5: where this train is placed at set-up.
    Place { train: u8 },
    /// RT 3.7: a starting load for the next train.
    SelectLoad,
    /// RT 3.7 / 5.1.3: the dropoff of `chit` on `seat`'s `train`.
    Dropoff { seat: Seat, train: u8, chit: u32 },
    /// RT 5.2.1: the pickup Depot of the Troops `chit` on `train`.
    TroopsPickup { train: u8, chit: u32 },
    /// RT 5.0: the activation phase (activations, repairs, offers, Special Events).
    Activate,
    /// RT 5.1.1: what the empty `train` undertakes.
    Undertake { train: u8 },
    /// RT 5.1.2: keep the `drawn` load or take a displayed one for `train`.
    ChooseLoad { train: u8, drawn: u32 },
    /// RT 5.3: `train`'s next step.
    Move { train: u8 },
    /// RT 5.6: whether `train` pays the `amount` of the Line Usage Fee to enter `line` (the
    /// choice a step onto another player's line makes; asked of the sheet while the step is
    /// answered, so never the decision pending by itself: RULING F83).
    Fee { train: u8, line: u8, amount: u32 },
    /// RT 4.1.1: the privilege to select an RRC.
    RrcPhase,
    /// RT 4.1.1: a raise for `rrc`.
    Bid { rrc: u8 },
    /// RT 4.1.1: where the train of a bought `line` stands.
    PlaceBought { line: u8 },
    /// RT 4.1.2: the displayed load the `drawn` contract replaces.
    Contract { drawn: u32 },
    /// An event's or the War's choice.
    Choice(ChoiceKind),
    /// RT 6.1, 6.3, 6.5: a General may cancel the fall of `station`.
    Cancel { station: usize },
    /// RT 6.4: Foreign Intervention may be played.
    Intervention,
    /// RT 6.8: donations to the Through-Freight Law roll.
    Donate,
    /// RT 1.0: an offer of `amount` from `from`.
    Offer { from: Seat, amount: u32 },
    /// RT 6.0, 1.0: the window before the active player's activation phase (Special Events,
    /// offers of money).
    Window,
    /// RT 6.2: a General may be added to another player's Offensive against `station`.
    Support { station: usize },
}

impl ChoiceKind {
    /// The choice's name as the rules text has it.
    pub fn title(&self) -> &'static str {
        match self {
            ChoiceKind::Occupy => "Union's Choice (RT 5.9.1)",
            ChoiceKind::BridgeCollapse => "Bridge Collapse (RT 7.2)",
            ChoiceKind::DepotConstruction => "Depot Construction (RT 7.3)",
            ChoiceKind::DivertIron => "Divert Iron Shipment, the line (RT 7.6)",
            ChoiceKind::Sabotage => "Partisan Sabotage (RT 7.9)",
            ChoiceKind::BreakDown => "Trains Break Down (RT 7.13)",
            ChoiceKind::Seizure => "Trains Seizure (RT 7.14)",
            ChoiceKind::Raid => "Union Cavalry Raid (RT 7.15)",
            ChoiceKind::TreasureHunt => "The Great Iron Treasure Hunt, a segment to rip up (RT 6.6)",
            ChoiceKind::IronSeizure => "Divert Iron Shipment, the train (RT 7.6)",
            ChoiceKind::WearAndTear => "Engine Wear & Tear, a train not paid for (RT 7.7)",
        }
    }
}

impl Confed {
    /// The kind of the decision pending now, if any.
    pub(super) fn decision_kind(&self, s: &State) -> Option<Kind> {
        if let Some(t) = s.tasks.first() {
            return match t {
                Task::Choose { kind, .. } => Some(Kind::Choice(kind.clone())),
                Task::Cancel { station, .. } => Some(Kind::Cancel { station: *station }),
                Task::Intervention { .. } => Some(Kind::Intervention),
                Task::Donate { .. } => Some(Kind::Donate),
                Task::Offer { from, amount, .. } => Some(Kind::Offer { from: *from, amount: *amount }),
                Task::Window { .. } => Some(Kind::Window),
                Task::Support { station, .. } => Some(Kind::Support { station: *station }),
                _ => None,
            };
        }
        Some(match &s.stage {
            Stage::Over => return None,
            Stage::ChooseRrc { .. } => Kind::ChooseRrc,
            Stage::Place => {
                let seat = self.deciding_seat(s)?;
                Kind::Place { train: s.player(seat)?.unplaced.first().copied()? }
            }
            Stage::SelectLoads => Kind::SelectLoad,
            Stage::Dropoff { train, chit, .. } => {
                Kind::Dropoff { seat: self.deciding_seat(s)?, train: *train, chit: *chit }
            }
            Stage::TroopsPickup { train, chit, .. } => Kind::TroopsPickup { train: *train, chit: *chit },
            Stage::Activate => Kind::Activate,
            Stage::Undertake { train } => Kind::Undertake { train: *train },
            Stage::ChooseLoad { train, drawn } => Kind::ChooseLoad { train: *train, drawn: *drawn },
            Stage::Move { train } => Kind::Move { train: *train },
            Stage::RrcPhase { .. } => Kind::RrcPhase,
            Stage::Bidding { rrc, .. } => Kind::Bid { rrc: *rrc },
            Stage::PlaceBought { line, .. } => Kind::PlaceBought { line: *line },
            Stage::Contract { drawn } => Kind::Contract { drawn: *drawn },
        })
    }

    /// The decision in words, for its prompt and the echo: the choice, its subject and the
    /// options (issue 34: "prompts name the load, the train and the choices").
    pub(super) fn kind_words(&self, s: &State, k: &Kind) -> String {
        let d = &self.data;
        match k {
            Kind::ChooseRrc => "choose a railroad company (RRC 1-24)".into(),
            Kind::Place { train } => format!("place {} on one of your lines", train_name(*train)),
            Kind::SelectLoad => {
                let v: Vec<String> = s.offer.iter().map(|n| chits::label(d, *n)).collect();
                format!("select a starting load for your next train: {}", v.join(", "))
            }
            Kind::Dropoff { train, chit, .. } => {
                let options = match &s.stage {
                    Stage::Dropoff { options, .. } => options.clone(),
                    _ => Vec::new(),
                };
                self.dropoff_prompt(*train, *chit, &options)
            }
            Kind::TroopsPickup { train, chit } => {
                let options = match &s.stage {
                    Stage::TroopsPickup { options, .. } => options.iter().map(|o| name(d, *o)).collect(),
                    _ => Vec::new(),
                };
                format!(
                    "pickup Depot for {} on {}: {}",
                    chits::label(d, *chit),
                    train_name(*train),
                    options.join(", ")
                )
            }
            Kind::Activate => "activate trains, repair, then start moving".into(),
            Kind::Undertake { train } => format!("undertake a load with {}", train_name(*train)),
            Kind::ChooseLoad { train, drawn } => {
                let shown: Vec<String> = s.display.iter().map(|n| chits::label(d, *n)).collect();
                format!(
                    "for {}: keep {} or take a displayed load ({})",
                    train_name(*train),
                    chits::label(d, *drawn),
                    shown.join(", ")
                )
            }
            Kind::Move { train } => format!("move {} ({} MP left)", train_name(*train), s.mp),
            Kind::Fee { train, line, amount } => format!(
                "the line usage fee for {} on RRC #{line}: pay ${amount} (1 MP a station) or not (2 MP) (RT 5.6)",
                train_name(*train)
            ),
            Kind::RrcPhase => "select an unowned RRC and bid for it, or pass".into(),
            Kind::Bid { rrc } => match &s.stage {
                Stage::Bidding { high, bid, .. } => {
                    format!("bid more than {high}'s ${bid} for RRC #{rrc}, or pass")
                }
                _ => format!("bid for RRC #{rrc}"),
            },
            Kind::PlaceBought { line } => format!("place a train on RRC #{line}"),
            Kind::Contract { drawn } => {
                format!("choose the displayed load that {} replaces", chits::label(d, *drawn))
            }
            Kind::Choice(kind) => {
                let Some(Task::Choose { options, optional, .. }) = s.tasks.first() else {
                    return kind.title().to_string();
                };
                let shown: Vec<String> =
                    options.iter().take(12).map(|o| self.option_words(kind, *o)).collect();
                let more = if options.len() > 12 {
                    format!(" and {} more", options.len() - 12)
                } else {
                    String::new()
                };
                format!(
                    "{}: choose {}{more}{}",
                    kind.title(),
                    shown.join(", "),
                    if *optional { " (or decline)" } else { "" }
                )
            }
            Kind::Cancel { station } => format!(
                "the Union is about to take {}: play a General to cancel it, or pass",
                name(d, *station)
            ),
            Kind::Intervention => "play Foreign Intervention, or pass".into(),
            Kind::Donate => "donate $3000s to the Through-Freight Law roll, or none".into(),
            Kind::Offer { from, amount } => format!("accept ${amount} from {from}, or pass"),
            Kind::Window => format!(
                "before {}'s activation phase: play a Special Event or offer money, or pass",
                s.active()
            ),
            Kind::Support { station } => {
                let attacker = s.tasks.iter().find_map(|t| match t {
                    Task::OffensiveRoll { seat, .. } => Some(*seat),
                    _ => None,
                });
                format!(
                    "{}'s Confederate Offensive on {}: add General Lee or General Jackson (+1), or pass",
                    attacker.unwrap_or(s.active()),
                    name(d, *station)
                )
            }
        }
    }

    /// One option of a choice in order words (what a `CHOOSE` line names).
    pub(super) fn option_words(&self, kind: &ChoiceKind, o: usize) -> String {
        let d = &self.data;
        let train = |code: usize| format!("{} {}", Seat::from_index(code / 16).0, train_id(code));
        let seg = |g: usize| {
            d.map.segments.get(g).map(|x| format!("{}, {}", name(d, x.a), name(d, x.b))).unwrap_or_default()
        };
        match kind {
            ChoiceKind::Occupy | ChoiceKind::DepotConstruction => name(d, o).to_string(),
            ChoiceKind::BridgeCollapse | ChoiceKind::TreasureHunt => seg(o),
            ChoiceKind::Sabotage if o.is_multiple_of(2) => format!("BRIDGE {}", seg(o / 2)),
            ChoiceKind::Sabotage => format!("RIP {}", seg(o / 2)),
            ChoiceKind::Raid if o.is_multiple_of(2) => format!("RIP {}", seg(o / 2)),
            ChoiceKind::Raid => format!("TRAIN {}", train(o / 2)),
            ChoiceKind::Seizure | ChoiceKind::IronSeizure => format!("TRAIN {}", train(o)),
            ChoiceKind::BreakDown | ChoiceKind::WearAndTear => train_id(o),
            ChoiceKind::DivertIron => format!("LINE {o}"),
        }
    }
}

/// A train number as orders write it (1-7, E).
fn train_id(code: usize) -> String {
    let id = (code % 16) as u8;
    if id == super::state::E_TRAIN { "E".into() } else { id.to_string() }
}
