//! The order builder's check (issue 36): what [`Orders::choices`] lists for a seat is only what
//! that seat may know, reads as orders, and — for the decision the seat has now — is legal now.

use super::super::{GameRng, Numbered, Seat, Viewer, answer_alone};
use super::Hidden;

/// For each seat of `state`:
///
/// - its choices do not change when what it cannot know is re-dealt ([`Hidden::redeal`]);
/// - every listed line is read by [`Orders::parse_order`];
/// - for the seat whose decision it is, the first group (the decision now, by the contract of
///   [`Orders::choices`]) is accepted by the echo — no warning on the line alone
///   ([`Orders::advise_sheet`], read by [`Hidden::echo_accepts`]) — and, written alone on a
///   sheet, [`Orders::answer`] carries it out (the line noted as carried out) with an action
///   `apply` accepts.
// RULING W56: checked for every engine through its random games (`super::play`: the first 50 actions and every fifth after).
pub fn check_choices<G: Hidden>(
    game: &G,
    state: &G::State,
    seats: u8,
    seed: u64,
    seq: u64,
) -> Result<(), String> {
    let decision = game.next_decision(state);
    for seat in Seat::all(usize::from(seats)) {
        let choices = game.choices(state, seat);
        let salt = 3_000_000 + u64::from(seat.0);
        let other = game.redeal(state, Viewer::Seat(seat), &mut GameRng::for_action(seed ^ seq, salt));
        if other != *state && game.choices(&other, seat) != choices {
            return Err(format!(
                "{seat}'s order builder changes when what it cannot know is re-dealt:\n{choices:?}\n---\n{:?}",
                game.choices(&other, seat)
            ));
        }
        for line in choices.iter().flat_map(|c| &c.lines) {
            game.parse_order(line)
                .map_err(|e| format!("{seat}'s builder lists {line:?}, not read: {e:?}"))?;
        }
        let Some(d) = decision.as_ref().filter(|d| d.seat == seat) else { continue };
        let Some(now) = choices.first() else { continue };
        for line in &now.lines {
            let order = game.parse_order(line).map_err(|e| format!("{line:?}: {e:?}"))?;
            let orders = vec![Numbered { line: 1, order }];
            if let Some(Some(advice)) = game.advise_sheet(state, seat, &orders).first()
                && !game.echo_accepts(advice)
            {
                return Err(format!(
                    "the echo warns on {seat}'s listed line {line:?} at \"{}\": {advice}",
                    d.prompt
                ));
            }
            let answer = answer_alone(game, state, d, line).ok_or_else(|| format!("{line:?} is not read"))?;
            let carried = answer.notes.iter().any(|n| n.line == 1 && n.executed);
            let action = answer.action.filter(|_| carried).ok_or_else(|| {
                format!(
                    "{seat}'s listed line {line:?} is not carried out at \"{}\": {:?}",
                    d.prompt, answer.notes
                )
            })?;
            let mut trial = state.clone();
            game.apply(&mut trial, &action, &mut GameRng::for_action(seed, seq))
                .map_err(|e| format!("{line:?} at \"{}\" gives {action:?}, refused: {e}", d.prompt))?;
        }
    }
    Ok(())
}
