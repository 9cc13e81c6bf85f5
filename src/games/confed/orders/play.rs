//! `PLAY …` lines (RT 6.0-6.8): a Special Event now, or a standing order that waits for its
//! moment ("at any time … including during other players' Player Turns", RT 6.0; RULING F22
//! amended). The forms:
//!
//! - `PLAY OFFENSIVE ON Nashville [WITH LEE]`, `PLAY TREASURE ON 12`, `PLAY RAID`, `PLAY FREIGHT`:
//!   in your activation phase, or in the window before another player's;
//! - the same with `WHEN <condition>` (the conditions of `PAY … IF`, RULING F42): a standing
//!   order, played at the first window where the condition holds; it lasts from turn to turn
//!   until played or withdrawn;
//! - `PLAY LEE WHEN Atlanta FALLS` (or `A VICTORY DEPOT`, `ANY`): a General's cancel (standing);
//! - `PLAY LEE FOR OFFENSIVE [ON Nashville]`: add the General's +1 to another player's Offensive
//!   (RT 6.2; standing);
//! - `PLAY INTERVENTION`: Foreign Intervention when a Victory Depot is retaken (RT 6.4);
//! - `PLAY LEE NEVER`, `PLAY LEE FOR OFFENSIVE NEVER`: withdraw the standing order.

use super::super::bribe::parse_cond;
use super::{Order, When, special, split_kw};
use crate::engine::OrderError;

const GENERALS_CANCEL: [u8; 3] = [1, 3, 5];

/// Parses the text after `PLAY`.
pub(super) fn parse_play(rest: &str) -> Result<Order, OrderError> {
    let rest = rest.trim();
    let word = rest.split_whitespace().next().unwrap_or("");
    let sp = special(word)?;
    let after = rest.get(word.len()..).unwrap_or("").trim();
    let up = after.to_ascii_uppercase();
    if up == "NEVER" {
        return Ok(Order::Never { special: sp, support: false });
    }
    if let Some(tail) = up.strip_prefix("FOR OFFENSIVE") {
        if ![1, 3].contains(&sp) {
            return Err(OrderError("only LEE and JACKSON add +1 to an Offensive (RT 6.1, 6.3)".into()));
        }
        let tail_text = after.get(after.len() - tail.len()..).unwrap_or("").trim();
        if tail.trim() == "NEVER" {
            return Ok(Order::Never { special: sp, support: true });
        }
        let on = match tail_text.to_ascii_uppercase().strip_prefix("ON ") {
            Some(_) => Some(tail_text.get(3..).unwrap_or("").trim().to_string()),
            None if tail_text.is_empty() => None,
            None => return Err(OrderError("write PLAY LEE FOR OFFENSIVE [ON <station>]".into())),
        };
        return Ok(Order::Support { general: sp, on });
    }
    let (before, when) = match split_kw(&format!(" {after} "), "WHEN") {
        Some((b, w)) => (b, Some(w.trim().to_string())),
        None => (format!(" {after} "), None),
    };
    if let Some(c) = &when {
        let cu = c.to_ascii_uppercase();
        if let Some(body) = cu.strip_suffix(" FALLS").map(|_| c[..c.len() - 6].trim()) {
            if !GENERALS_CANCEL.contains(&sp) {
                return Err(OrderError(
                    "only LEE, JACKSON and MCCLELLAN cancel a War Progress result".into(),
                ));
            }
            let when = match body.to_ascii_uppercase().as_str() {
                "ANY" | "ANY STATION" => When::Any,
                "A VICTORY DEPOT" | "VICTORY DEPOT" | "VD" => When::VictoryDepot,
                _ => When::Station(body.to_string()),
            };
            return Ok(Order::PlayWhen { special: sp, when });
        }
    }
    let when = match when {
        Some(c) if [2, 6, 7, 8].contains(&sp) => Some(parse_cond(&c)?),
        Some(_) if GENERALS_CANCEL.contains(&sp) => {
            return Err(OrderError(
                "write PLAY <general> WHEN <station | A VICTORY DEPOT | ANY> FALLS, or PLAY <general> FOR OFFENSIVE".into(),
            ));
        }
        Some(_) => {
            return Err(OrderError(
                "Foreign Intervention is played when a Victory Depot is retaken: write PLAY INTERVENTION"
                    .into(),
            ));
        }
        None => None,
    };
    let (target_part, with) = match split_kw(&before, "WITH") {
        Some((t, g)) => (t, Some(special(g.trim())?)),
        None => (before.clone(), None),
    };
    let target = split_kw(&format!("{} ", target_part.trim_end()), "ON")
        .map(|(_, t)| t.trim().to_string())
        .or_else(|| {
            let t = target_part.trim();
            t.to_ascii_uppercase().strip_prefix("ON ").map(|_| t[3..].trim().to_string())
        });
    Ok(Order::Play { special: sp, target, with, when })
}

/// The key of a standing `PLAY` line (HR 12: a later line with the same key replaces or
/// withdraws it): one standing order per counter and use.
pub(super) fn standing_key(word: &str, support: bool) -> String {
    if support { format!("PLAY {word} FOR OFFENSIVE") } else { format!("PLAY {word}") }
}
