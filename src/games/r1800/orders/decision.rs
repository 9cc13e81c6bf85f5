//! What decision a line answers (DESIGN "Orders and decisions"): every decision of 1800 has a
//! kind, a [`Subject`], read off the position; every order line names the subjects it may answer,
//! and the line-trying loop offers a line only to a decision of a subject it names. The echo
//! says, per line, which decision that is.

use super::super::R1800;
use super::super::data::GlobalEvent;
use super::super::state::*;
use super::super::timing::Timing;
use super::Kind;

/// The kind of a decision: whose it is is the decision's seat; this says which choice it is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Subject {
    /// Before the draft: play Accelerate Development or not.
    Accelerate,
    /// Your pick in the development draft.
    Draft,
    /// Your turn: placing, activating, admin cards.
    Turn,
    /// Your end-of-turn moves (and a Conquest declaration).
    EndMoves,
    /// At the round's end: declaring war on a power that wronged you.
    Reprisal,
    /// The war phase.
    War,
    Factory,
    Pop,
    Regiment,
    /// Your own technology pick (Research Institution, Research Grants).
    Tech,
    /// A trade of technologies (Diplomatic Action), offered to you or agreed with you.
    Trade,
    Convert,
    DiscardMilitary,
    Raid,
    Hospitals,
    Educate,
    Massacre,
    /// A food deficit at your collection.
    Deficit,
    /// Command Economy's or Republic's admin card to discard.
    Upkeep,
    /// Command Economy's pop move at the start of the turn (RULING E22).
    StartMove,
    /// A global event's price: pay in cards or take the loss.
    Event(GlobalEvent),
    /// Support Rebellion against one of your regiments: pay or lose it.
    Rebellion,
}

impl Subject {
    /// The subject of a card's or a rule's open choice.
    pub fn of_choice(c: Choice) -> Subject {
        match c {
            Choice::Factory => Subject::Factory,
            Choice::Pop => Subject::Pop,
            Choice::Recruit => Subject::Regiment,
            Choice::Tech => Subject::Tech,
            Choice::Convert => Subject::Convert,
            Choice::DiscardMilitary => Subject::DiscardMilitary,
            Choice::NavyRaid => Subject::Raid,
            Choice::Barter { .. } | Choice::TechOf { .. } => Subject::Trade,
            Choice::Hospital => Subject::Hospitals,
            Choice::Educate => Subject::Educate,
            Choice::Massacre => Subject::Massacre,
            Choice::Deficit { .. } => Subject::Deficit,
            Choice::Upkeep { .. } => Subject::Upkeep,
            Choice::StartMove => Subject::StartMove,
            Choice::Toll(Toll::Route(_)) => Subject::Event(GlobalEvent::UnrestOverseas),
            Choice::Toll(Toll::Regiment(_)) => Subject::Event(GlobalEvent::UnrestAtHome),
            Choice::Toll(Toll::Revolution { liberal: true }) => {
                Subject::Event(GlobalEvent::LiberalRevolution)
            }
            Choice::Toll(Toll::Revolution { liberal: false }) => Subject::Event(GlobalEvent::RisingFascism),
            Choice::Toll(Toll::Rebellion { .. }) => Subject::Rebellion,
        }
    }

    /// The subject of the decision open now.
    pub fn now(s: &State) -> Option<Subject> {
        if let Some(p) = s.pending.first() {
            return Some(Subject::of_choice(p.choice));
        }
        Some(match &s.stage {
            Stage::Call { .. } => Subject::Accelerate,
            Stage::Draft { .. } => Subject::Draft,
            Stage::Turn { end_moves: false, .. } => Subject::Turn,
            Stage::Turn { end_moves: true, .. } => Subject::EndMoves,
            Stage::Reprisal { .. } => Subject::Reprisal,
            Stage::War => Subject::War,
            Stage::Over => return None,
        })
    }

    /// The decision in words, for the echo and the notes.
    pub fn words(self, g: &R1800) -> String {
        let w = match self {
            Subject::Accelerate => "the call before the draft (Accelerate Development)",
            Subject::Draft => "your pick in the development draft",
            Subject::Turn => "your turn (placing, activating, admin cards)",
            Subject::EndMoves => "your end-of-turn moves",
            Subject::Reprisal => "the round's end, against a power that wronged you",
            Subject::War => "the war phase",
            Subject::Factory => "a factory to build",
            Subject::Pop => "a new pop to place",
            Subject::Regiment => "a regiment to recruit",
            Subject::Tech => "your own technology pick (Research Institution, Research Grants)",
            Subject::Trade => "a trade of technologies (Diplomatic Action)",
            Subject::Convert => "a conversion",
            Subject::DiscardMilitary => "Professional Army's military discard",
            Subject::Raid => "your Navy's raid",
            Subject::Hospitals => "your Hospitals at pop growth",
            Subject::Educate => "a Public Schools move",
            Subject::Massacre => "a Secret Police massacre",
            Subject::Deficit => "a food deficit at your collection",
            Subject::Upkeep => "your Command Economy's or Republic's admin discard",
            Subject::StartMove => "your Command Economy's pop move at the start of your turn",
            Subject::Rebellion => "a rebellion against one of your regiments (Support Rebellion)",
            Subject::Event(e) => return format!("the global event {}", g.event_name(e)),
        };
        w.to_string()
    }

    /// Whether the decision can only arise in the seat's own turn (before its end): a line for
    /// it still unused when the turn ends will not be carried out this round.
    pub fn in_own_turn(self) -> bool {
        matches!(
            self,
            Subject::Turn
                | Subject::EndMoves
                | Subject::Factory
                | Subject::Pop
                | Subject::Regiment
                | Subject::Tech
                | Subject::Convert
                | Subject::DiscardMilitary
                | Subject::Raid
                | Subject::Hospitals
                | Subject::Educate
                | Subject::Massacre
                | Subject::Deficit
                | Subject::StartMove
        )
    }
}

impl R1800 {
    /// The subjects a line may answer (RULING E95: a line is tried only at a decision of a
    /// subject it names).
    pub fn subjects(&self, k: &Kind) -> Vec<Subject> {
        use Subject as S;
        match k {
            Kind::Draft(_) => vec![S::Draft],
            Kind::Place { .. } | Kind::Activate { .. } | Kind::Shift { .. } | Kind::Migrate { .. } => {
                vec![S::Turn]
            }
            Kind::Play { card, args } => {
                let opt = self
                    .data()
                    .admin
                    .get(usize::from(*card))
                    .and_then(|c| c.play.get(usize::from(args.option)));
                match opt.map(|o| Timing::of(o.what)) {
                    Some(Timing::DraftStart) => vec![S::Accelerate],
                    Some(Timing::OwnPick) => vec![S::Draft],
                    Some(Timing::RoundEnd) => vec![S::Reprisal],
                    Some(Timing::Turn) => vec![S::Turn, S::EndMoves],
                    None => Vec::new(),
                }
            }
            Kind::Build(_) | Kind::Incorporate(_) => vec![S::Factory],
            Kind::Grow(_) => vec![S::Pop],
            Kind::Recruit(_) => vec![S::Regiment],
            Kind::Tech(_) => vec![S::Tech],
            Kind::TradeTech { .. } => vec![S::Trade],
            Kind::Convert(_) => vec![S::Convert],
            Kind::DiscardMilitary(_) => vec![S::DiscardMilitary],
            Kind::Raid { .. } => vec![S::Raid],
            Kind::Decline(x) => vec![*x],
            // RULING E22: under a Command Economy a pop moves at the start of the turn.
            Kind::MovePop { .. } => vec![S::EndMoves, S::StartMove],
            Kind::MoveRegiment { .. } | Kind::Declare(_) => vec![S::EndMoves],
            Kind::Retaliate(_) => vec![S::Reprisal],
            Kind::Hospital { .. } => vec![S::Hospitals],
            Kind::Educate(_) => vec![S::Educate],
            Kind::Massacre(_) => vec![S::Massacre],
            Kind::War(_) => vec![S::War],
            Kind::Deficit(_) => vec![S::Deficit],
            Kind::Upkeep(_) => vec![S::Upkeep],
            Kind::Event { event, .. } => vec![S::Event(*event)],
            Kind::Rebellion(_) => vec![S::Rebellion],
            Kind::If { then, otherwise, .. } => {
                let mut v = self.subjects(then);
                for x in otherwise.iter().flat_map(|o| self.subjects(o)) {
                    if !v.contains(&x) {
                        v.push(x);
                    }
                }
                v
            }
        }
    }
}
