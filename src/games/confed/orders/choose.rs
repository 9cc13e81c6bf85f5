//! `CHOOSE <choice> …` and `DECLINE <choice>` (issue 34): each choice an event or the War asks
//! for has its own qualifier, so a line written for one choice can never be used up by another
//! (one bare `CHOOSE` used to serve Union's Choice, Depot Construction, Bridge Collapse, the
//! Treasure Hunt and the Cavalry Raid alike). The qualifiers:
//!
//! | line | choice |
//! |---|---|
//! | `CHOOSE UNION Corinth` | Union's Choice (RT 5.9.1) |
//! | `CHOOSE DEPOT Corinth` | Depot Construction (RT 7.3) |
//! | `CHOOSE COLLAPSE Knoxville, Loudon` | Bridge Collapse (RT 7.2) |
//! | `CHOOSE SABOTAGE BRIDGE a, b` / `CHOOSE SABOTAGE RIP a, b` | Partisan Sabotage (RT 7.9) |
//! | `CHOOSE HUNT a, b` | the segment you rip up for a Treasure Hunt (RT 6.6) |
//! | `CHOOSE RAID RIP a, b` / `CHOOSE RAID TRAIN 2 3` | Union Cavalry Raid (RT 7.15) |
//! | `CHOOSE SEIZE TRAIN 2 3` | Trains Seizure (RT 7.14) |
//! | `CHOOSE IRON LINE 14` / `CHOOSE IRON TRAIN 2 3` | Divert Iron Shipment (RT 7.6) |
//! | `CHOOSE BREAKDOWN 3` | Trains Break Down, your train (RT 7.13) |
//! | `CHOOSE SCRAP 3` | Engine Wear & Tear: your train 3 is the one not paid for (RT 7.7) |
//!
//! `DECLINE DEPOT`, `DECLINE IRON`, `DECLINE SEIZE` decline a voluntary event (RT 7.0).

use super::super::data::Data;
use super::super::state::{ChoiceKind, E_TRAIN};
use super::answer::segments;
use super::{Order, num, pair, seat, train_no};
use crate::engine::{OrderError, Seat};
use std::fmt;

/// What a `CHOOSE` line picks.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Pick {
    /// A station by name.
    Station(String),
    /// A segment by its two stations.
    Segment(String, String),
    /// RT 7.9: blow the bridge of this segment.
    Bridge(String, String),
    /// RT 7.9 / 7.15: rip up this segment.
    Rip(String, String),
    /// A seat's train.
    Train(Seat, u8),
    /// One of your own trains.
    Own(u8),
    /// An RRC line.
    Line(u8),
}

/// The qualifiers, their choice, and the form they take.
const QUALIFIERS: [(&str, ChoiceKind); 10] = [
    ("UNION", ChoiceKind::Occupy),
    ("DEPOT", ChoiceKind::DepotConstruction),
    ("COLLAPSE", ChoiceKind::BridgeCollapse),
    ("SABOTAGE", ChoiceKind::Sabotage),
    ("HUNT", ChoiceKind::TreasureHunt),
    ("RAID", ChoiceKind::Raid),
    ("SEIZE", ChoiceKind::Seizure),
    ("IRON", ChoiceKind::DivertIron),
    ("BREAKDOWN", ChoiceKind::BreakDown),
    ("SCRAP", ChoiceKind::WearAndTear),
];

const FORMS: &str = "name the choice: CHOOSE UNION <station>, CHOOSE DEPOT <station>, CHOOSE COLLAPSE \
                     <a>, <b>, CHOOSE SABOTAGE BRIDGE|RIP <a>, <b>, CHOOSE HUNT <a>, <b>, CHOOSE RAID RIP \
                     <a>, <b>, CHOOSE RAID TRAIN <seat> <train>, CHOOSE SEIZE TRAIN <seat> <train>, CHOOSE \
                     IRON LINE <n>, CHOOSE IRON TRAIN <seat> <train>, CHOOSE BREAKDOWN <train>, CHOOSE SCRAP <train>";

/// The qualifier word of a choice.
pub fn qualifier(kind: &ChoiceKind) -> &'static str {
    match kind {
        ChoiceKind::IronSeizure => "IRON",
        k => QUALIFIERS.iter().find(|(_, x)| x == k).map(|(w, _)| *w).unwrap_or("?"),
    }
}

/// Parses the text after `CHOOSE`.
pub(super) fn parse_choose(rest: &str) -> Result<Order, OrderError> {
    let w: Vec<&str> = rest.split_whitespace().collect();
    let up = |i: usize| w.get(i).map(|x| x.to_ascii_uppercase()).unwrap_or_default();
    let after = |n: usize| {
        let mut t = rest.trim();
        for _ in 0..n {
            t = t.split_once(char::is_whitespace).map(|(_, r)| r.trim_start()).unwrap_or("");
        }
        t.to_string()
    };
    let train = |i: usize| -> Result<Pick, OrderError> {
        let k = if up(i) == "TRAIN" { i + 1 } else { i };
        Ok(Pick::Train(seat(w.get(k).copied())?, train_no(w.get(k + 1).copied())?))
    };
    // The old spelling `CHOOSE LINE n` had one meaning only (RT 7.6): it is still read.
    if up(0) == "LINE" {
        return Ok(Order::Choose { kind: ChoiceKind::DivertIron, pick: Pick::Line(line_no(w.get(1))?) });
    }
    let Some((_, kind)) = QUALIFIERS.iter().find(|(q, _)| *q == up(0)) else {
        return Err(OrderError(format!(
            "\"CHOOSE {}\" does not say which choice it answers; {FORMS}",
            rest.trim()
        )));
    };
    let (kind, pick) = match kind {
        ChoiceKind::Occupy | ChoiceKind::DepotConstruction => {
            let st = after(1);
            if st.is_empty() || st.contains(',') {
                return Err(OrderError(format!("write CHOOSE {} <station>", up(0))));
            }
            (kind.clone(), Pick::Station(st))
        }
        ChoiceKind::BridgeCollapse | ChoiceKind::TreasureHunt => {
            let (a, b) = pair(&after(1))?;
            (kind.clone(), Pick::Segment(a, b))
        }
        ChoiceKind::Sabotage => {
            let (a, b) = pair(&after(2))?;
            match up(1).as_str() {
                "BRIDGE" => (kind.clone(), Pick::Bridge(a, b)),
                "RIP" => (kind.clone(), Pick::Rip(a, b)),
                _ => {
                    return Err(OrderError(
                        "write CHOOSE SABOTAGE BRIDGE <a>, <b> or CHOOSE SABOTAGE RIP <a>, <b>".into(),
                    ));
                }
            }
        }
        ChoiceKind::Raid => match up(1).as_str() {
            "RIP" => {
                let (a, b) = pair(&after(2))?;
                (kind.clone(), Pick::Rip(a, b))
            }
            "TRAIN" => (kind.clone(), train(1)?),
            _ => {
                return Err(OrderError(
                    "write CHOOSE RAID RIP <a>, <b> or CHOOSE RAID TRAIN <seat> <train>".into(),
                ));
            }
        },
        ChoiceKind::Seizure => (kind.clone(), train(1)?),
        ChoiceKind::DivertIron => match up(1).as_str() {
            "LINE" => (kind.clone(), Pick::Line(line_no(w.get(2))?)),
            "TRAIN" => (ChoiceKind::IronSeizure, train(1)?),
            _ => {
                return Err(OrderError(
                    "write CHOOSE IRON LINE <n> or CHOOSE IRON TRAIN <seat> <train>".into(),
                ));
            }
        },
        ChoiceKind::BreakDown | ChoiceKind::WearAndTear | ChoiceKind::IronSeizure => {
            (kind.clone(), Pick::Own(train_no(w.get(1).copied())?))
        }
    };
    Ok(Order::Choose { kind, pick })
}

fn line_no(w: Option<&&str>) -> Result<u8, OrderError> {
    num(w.map(|x| x.trim_start_matches('#')), "a line number")
}

/// Parses the text after `DECLINE`: the voluntary event declined (RT 7.0).
pub(super) fn parse_decline(rest: &str) -> Result<Order, OrderError> {
    match rest.trim().to_ascii_uppercase().as_str() {
        "DEPOT" => Ok(Order::Decline(ChoiceKind::DepotConstruction)),
        "IRON" => Ok(Order::Decline(ChoiceKind::DivertIron)),
        "SEIZE" => Ok(Order::Decline(ChoiceKind::Seizure)),
        _ => Err(OrderError(
            "name the voluntary event you decline: DECLINE DEPOT (RT 7.3), DECLINE IRON (RT 7.6) or DECLINE SEIZE (RT 7.14)"
                .into(),
        )),
    }
}

/// Whether a `DECLINE` for `declined` answers the choice `kind` (Divert Iron asks twice).
pub(super) fn declines(declined: &ChoiceKind, kind: &ChoiceKind) -> bool {
    declined == kind || (*declined == ChoiceKind::DivertIron && *kind == ChoiceKind::IronSeizure)
}

/// The option code a pick names for this choice, if the choice offers it.
pub(super) fn code(d: &Data, kind: &ChoiceKind, pick: &Pick, me: Seat, options: &[usize]) -> Option<usize> {
    // The first of the segments between two stations whose option the choice offers: a line
    // can name either of two parallel segments (Hanover-Richmond), or one by `ON n` (F3).
    let seg = |a: &str, b: &str, enc: &dyn Fn(usize) -> usize| -> Option<usize> {
        let v = segments(d, a, b);
        v.iter().map(|g| enc(*g)).find(|c| options.contains(c)).or(v.first().map(|g| enc(*g)))
    };
    let c = match (kind, pick) {
        (ChoiceKind::Occupy | ChoiceKind::DepotConstruction, Pick::Station(n)) => d.map.find_station(n)?,
        (ChoiceKind::BridgeCollapse | ChoiceKind::TreasureHunt, Pick::Segment(a, b)) => seg(a, b, &|g| g)?,
        (ChoiceKind::Sabotage, Pick::Bridge(a, b)) => seg(a, b, &|g| g * 2)?,
        (ChoiceKind::Sabotage, Pick::Rip(a, b)) => seg(a, b, &|g| g * 2 + 1)?,
        (ChoiceKind::Raid, Pick::Rip(a, b)) => seg(a, b, &|g| g * 2)?,
        (ChoiceKind::Raid, Pick::Train(s, id)) => (s.index() * 16 + usize::from(*id)) * 2 + 1,
        (ChoiceKind::Seizure | ChoiceKind::IronSeizure, Pick::Train(s, id)) => {
            s.index() * 16 + usize::from(*id)
        }
        (ChoiceKind::BreakDown | ChoiceKind::WearAndTear, Pick::Own(id)) => usize::from(*id),
        (ChoiceKind::BreakDown, Pick::Train(s, id)) if *s == me => usize::from(*id),
        (ChoiceKind::DivertIron, Pick::Line(l)) => usize::from(*l),
        _ => return None,
    };
    options.contains(&c).then_some(c)
}

fn t(id: u8) -> String {
    if id == E_TRAIN { "E".into() } else { id.to_string() }
}

impl fmt::Display for Pick {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Pick::Station(n) => write!(f, "{n}"),
            Pick::Segment(a, b) => write!(f, "{a}, {b}"),
            Pick::Bridge(a, b) => write!(f, "BRIDGE {a}, {b}"),
            Pick::Rip(a, b) => write!(f, "RIP {a}, {b}"),
            Pick::Train(s, id) => write!(f, "TRAIN {} {}", s.0, t(*id)),
            Pick::Own(id) => write!(f, "{}", t(*id)),
            Pick::Line(l) => write!(f, "LINE {l}"),
        }
    }
}

/// The words of a `DECLINE` line.
pub(super) fn decline_word(kind: &ChoiceKind) -> &'static str {
    match kind {
        ChoiceKind::DepotConstruction => "DEPOT",
        ChoiceKind::Seizure => "SEIZE",
        _ => "IRON",
    }
}
