//! Facts about a chit read from the data: which load it is, whether it is Troops,
//! war-materiel or a Blockade Runner (RT 2.3.1), its payout now (RT 5.1.6 with 7.5 and 7.12),
//! and names for reports.

use super::data::{Data, Load, LoadKind};
use super::state::{Chit, State};

/// The Loads Table entry of a chit number (None for Troops).
pub fn load(d: &Data, n: u32) -> Option<&Load> {
    d.loads.iter().find(|l| l.number == n)
}

/// The chit is one of the 16 Troops (RT 5.2).
pub fn is_troops(d: &Data, n: u32) -> bool {
    (d.troops.first_number..d.troops.first_number + d.troops.count).contains(&n)
}

/// War-materiel: Troops, red text, the five black war loads, Blockade Runners (RT 2.3.1).
pub fn is_war(d: &Data, n: u32) -> bool {
    is_troops(d, n) || load(d, n).is_some_and(|l| l.kind != LoadKind::Civilian)
}

/// A blue-italic Blockade Runner load (RT 5.7).
pub fn is_blockade(d: &Data, n: u32) -> bool {
    load(d, n).is_some_and(|l| l.kind == LoadKind::BlockadeRunner)
}

/// The goods (for Troops: "Troops").
pub fn goods(d: &Data, n: u32) -> &str {
    if is_troops(d, n) { "Troops" } else { load(d, n).map(|l| l.goods.as_str()).unwrap_or("?") }
}

/// "Load 12 (Tobacco)".
pub fn label(d: &Data, n: u32) -> String {
    format!("load {n} ({})", goods(d, n))
}

/// A chit in words.
pub fn chit_label(d: &Data, c: Chit) -> String {
    match c {
        Chit::Load(n) => label(d, n),
        Chit::Event(k) => format!("event {}", event_name(d, k)),
    }
}

/// An event kind's case and name.
pub fn event_name(d: &Data, k: usize) -> String {
    d.tables.events.get(k).map(|e| format!("{} {}", e.case, e.name)).unwrap_or_else(|| "?".into())
}

/// The payout of delivering chit `n` now: the table's (Troops: $1000), +$100 per Railroad
/// Convention except Passengers (RT 7.12; Troops included, RULING F19), halved for cotton
/// under a Cotton Embargo, rounded down to $100 (RT 7.5, RULING F19).
pub fn payout(d: &Data, s: &State, n: u32) -> u32 {
    let base = if is_troops(d, n) { d.troops.payout } else { load(d, n).map(|l| l.payout).unwrap_or(0) };
    let g = goods(d, n);
    let bonus = if g == "Passengers" { 0 } else { 100 * s.conventions };
    let total = base + bonus;
    if s.embargo && g == "Cotton" { total / 2 / 100 * 100 } else { total }
}

/// The line usage fee for a train carrying chit `n` (RT 5.6, 5.2: Troops $100).
pub fn line_fee(d: &Data, n: Option<u32>) -> u32 {
    match n {
        Some(n) if is_troops(d, n) => d.troops.line_fee,
        _ => d.tables.costs.line_fee,
    }
}

/// The name of a Special Event counter by number.
pub fn special_name(d: &Data, number: u8) -> String {
    d.tables
        .specials
        .iter()
        .find(|s| s.number == number)
        .map(|s| s.name.clone())
        .unwrap_or_else(|| "?".into())
}

/// A train's name ("train 3", "train E").
pub fn train_name(id: u8) -> String {
    if id == super::state::E_TRAIN { "train E".into() } else { format!("train {id}") }
}
