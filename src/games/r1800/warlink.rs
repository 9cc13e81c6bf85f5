//! The seam between the round and the war procedure (`war`, built beside this engine): at the
//! end of a round, the seats recorded as hostile fight one war phase (FACTS §10, rules "Rounds"
//! step 4).

use super::R1800;
use super::state::State;
use crate::engine::{Event, GameRng};

impl R1800 {
    /// Rounds step 4: the wars declared this round. The war procedure is wired in when it is
    /// merged; until then a declared war is recorded and announced, and nothing is fought.
    pub(super) fn war_phase(&self, s: &mut State, _rng: &mut GameRng) -> Vec<Event> {
        if s.hostile.is_empty() {
            return Vec::new();
        }
        s.hostile.clear();
        vec![Event::public(
            "War was declared, but this build of the engine does not fight wars yet: the war phase is skipped.",
        )]
    }
}
