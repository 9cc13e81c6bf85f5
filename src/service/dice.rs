//! The dice commitment of a turn and its reveal, in words for mail and pages (issue 17;
//! `engine::dice` holds the scheme, `docs/DICE.md` how players check it). Only games whose
//! engine rolls dice ([`DynGame::rolls_dice`]) carry them.

use crate::engine::dice;
use crate::registry::DynGame;
use crate::store::games::GameRow;

/// The commitment line shown when a turn whose first action is `first_seq` opens.
pub fn commitment_line(engine: &dyn DynGame, game: &GameRow, number: i32, first_seq: i64) -> Option<String> {
    engine.rolls_dice().then(|| {
        let c = dice::commitment(seed(game), u64::try_from(first_seq).unwrap_or(0));
        format!("Dice commitment for turn {number}: {c} (how to check the dice: docs/DICE.md)")
    })
}

/// The reveal of a turn of `used` actions from `first_seq`, as lines for the report: the
/// commitment it answers, each action's key, and the rest of the chain.
pub fn reveal_lines(
    engine: &dyn DynGame,
    game: &GameRow,
    number: i32,
    first_seq: i64,
    used: usize,
) -> Vec<String> {
    if !engine.rolls_dice() {
        return Vec::new();
    }
    let first = u64::try_from(first_seq).unwrap_or(0);
    let r = dice::reveal(seed(game), first, u64::try_from(used).unwrap_or(0));
    let mut lines = vec![format!(
        "Dice of turn {number} (commitment {}): one key per action from action {first}; rest {}",
        dice::commitment(seed(game), first),
        r.rest
    )];
    lines.extend(r.keys.iter().enumerate().map(|(i, k)| format!("action {}: {k}", first + i as u64)));
    lines
}

/// The game's seed as the engine takes it (stored as the same 64 bits, signed).
fn seed(game: &GameRow) -> u64 {
    game.seed as u64
}
