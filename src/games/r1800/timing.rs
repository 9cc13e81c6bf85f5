//! When an admin card is played: in the player's turn unless the card says otherwise (rules,
//! "Admin & Military Cards"), and the timing of the decision a seat owes now.

use super::data::AdminEffect;
use super::state::*;

/// When an admin option may be played (rules, "Admin & Military Cards": "at any time during
/// your turn. In addition, some Admin Cards specify other times").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Timing {
    Turn,
    /// Accelerate Development: at the start of the development draft.
    DraftStart,
    /// Policy Initiative: when it is your pick in the draft.
    OwnPick,
    /// Diplomatic Action's retaliation: at the round's end (RULING E72).
    RoundEnd,
}

impl Timing {
    /// When an option is played.
    pub(super) fn of(e: AdminEffect) -> Timing {
        match e {
            AdminEffect::Accelerate => Timing::DraftStart,
            AdminEffect::Initiative => Timing::OwnPick,
            AdminEffect::Retaliate => Timing::RoundEnd,
            _ => Timing::Turn,
        }
    }

    /// The timing of the decision the seat owes now, if it owes one where admin cards are played.
    pub(super) fn now(s: &State, seat: usize) -> Option<Timing> {
        let me = seat as u8;
        if !s.pending.is_empty() {
            return None;
        }
        match &s.stage {
            // Rules, "Admin & Military Cards": "at any time during your turn", the end-of-turn
            // moves included (RULING E99).
            Stage::Turn { seat: x, .. } if *x == me => Some(Timing::Turn),
            Stage::Call { to_ask, .. } if to_ask.first() == Some(&me) => Some(Timing::DraftStart),
            Stage::Draft { to_pick } if to_pick.first() == Some(&me) => Some(Timing::OwnPick),
            Stage::Reprisal { to_ask } if to_ask.first() == Some(&me) => Some(Timing::RoundEnd),
            _ => None,
        }
    }

    /// When, in words.
    pub(super) fn words(self) -> &'static str {
        match self {
            Timing::Turn => "during your turn",
            Timing::DraftStart => "at the start of the development draft",
            Timing::OwnPick => "when it is your pick in the development draft",
            Timing::RoundEnd => "at the end of the round, against a power that wronged you in it",
        }
    }
}
