//! Standing war orders by mail: what a player wants done in a war phase, written before it
//! starts (rules "Wars"; issue 18, "standing war orders for rounds in which a player is
//! attacked"). One order per line, keywords in any case, an optional leading `WAR`, province and
//! card names as printed (case, spaces and dots do not matter):
//!
//! - `MOVE Hesse TO Rheinland` — a move; an attack if an enemy regiment stands there;
//! - `CONSCRIPT Saxony` — draft a conscript on one of your pops;
//! - `PLAY Superior Tactics`, `PLAY Expert Maneuver ON Champagne`, `PLAY Military Tradition`,
//!   `PLAY Reinforcements AT Saxony [TO Hesse]`, `PLAY Strategic Repositioning Hesse TO Berlin,
//!   Saxony TO Pommerania`, `PLAY Naval Support ON Normandie` (the bonus) or
//!   `PLAY Naval Support Normandie TO London` (the sea move);
//! - `PASS`;
//! - `WHEN ATTACKED [AT Saxony] PLAY Expert Maneuver` and `WHEN ATTACKED [AT Saxony] CONSCRIPT`
//!   — answers to an attack on one of your regiments: the card is played on the battle, the
//!   conscript raised next to it where it supports.
//!
//! [`answer_war`] picks each action from the sheet (RULING E59).

use super::battle::score_battle;
use super::board::{BonusScope, MilitaryCardId, MilitaryEffect, PowerId, ProvinceId, WarBoard, fold};
use super::legal::check;
use super::state::{Battle, CardUse, WarAction, WarDeed, WarState};
use crate::engine::{Answer, LineNote, Numbered, OrderError, OrderSheet};

/// How to answer an attack.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Response {
    /// Play this card on the battle.
    Play(MilitaryCardId),
    /// Raise a conscript next to the battle.
    Conscript,
}

/// One standing war order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum WarStandingOrder {
    /// An action to take when the player's turn comes, in the order written.
    Now(WarDeed),
    /// An answer to an attack on the player's regiment (in `at`, or anywhere).
    WhenAttacked { at: Option<ProvinceId>, response: Response },
}

/// An order line the war cannot read, with its line number.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: {message}")]
pub struct WarOrderError {
    pub line: usize,
    pub message: String,
}

fn err(msg: impl Into<String>) -> OrderError {
    OrderError(msg.into())
}

/// Splits `words` at the first keyword `kw` (any case): the words before and after.
fn split_at<'a>(words: &'a [&'a str], kw: &str) -> Option<(&'a [&'a str], &'a [&'a str])> {
    let i = words.iter().position(|w| w.eq_ignore_ascii_case(kw))?;
    Some((&words[..i], &words[i + 1..]))
}

fn province<B: WarBoard + ?Sized>(board: &B, words: &[&str]) -> Result<ProvinceId, OrderError> {
    let text = words.join(" ");
    if text.is_empty() {
        return Err(err("a province is missing"));
    }
    board.province_named(&text).ok_or_else(|| err(format!("\"{text}\" is not a province")))
}

/// `a TO b`.
fn step<B: WarBoard + ?Sized>(board: &B, words: &[&str]) -> Result<(ProvinceId, ProvinceId), OrderError> {
    let (a, b) = split_at(words, "TO").ok_or_else(|| err("write the move as <province> TO <province>"))?;
    Ok((province(board, a)?, province(board, b)?))
}

/// The card named at the start of `words` (the longest name that fits) and the words after it.
fn card<'a, B: WarBoard + ?Sized>(
    board: &B,
    words: &'a [&'a str],
) -> Result<(MilitaryCardId, &'a [&'a str]), OrderError> {
    for k in (1..=words.len()).rev() {
        let want = fold(&words[..k].join(" "));
        if let Some(i) = board.military_cards().iter().position(|c| fold(&c.name) == want) {
            let id = MilitaryCardId(u8::try_from(i).unwrap_or(u8::MAX));
            return Ok((id, &words[k..]));
        }
    }
    let names: Vec<&str> = board.military_cards().iter().map(|c| c.name.as_str()).collect();
    Err(err(format!("\"{}\" is not a military card ({})", words.join(" "), names.join(", "))))
}

/// How the card is used, from the words after its name.
fn card_use<B: WarBoard + ?Sized>(
    board: &B,
    effect: MilitaryEffect,
    name: &str,
    rest: &[&str],
) -> Result<CardUse, OrderError> {
    let on = |kw: &str| match rest.split_first() {
        Some((w, tail)) if w.eq_ignore_ascii_case(kw) => Ok(province(board, tail)?),
        _ => Err(err(format!("{name} names a province: PLAY {name} {kw} <province>"))),
    };
    let nothing = |u: CardUse| {
        if rest.is_empty() { Ok(u) } else { Err(err(format!("{name} takes nothing after its name"))) }
    };
    match effect {
        MilitaryEffect::Bonus { scope: BonusScope::War, .. } => nothing(CardUse::Bonus { at: None }),
        MilitaryEffect::Bonus { .. } => Ok(CardUse::Bonus { at: Some(on("ON")?) }),
        e if e.is_tradition() => nothing(CardUse::Tradition),
        MilitaryEffect::Reinforcements => {
            let tail = match rest.split_first() {
                Some((w, tail)) if w.eq_ignore_ascii_case("AT") => tail,
                _ => return Err(err(format!("PLAY {name} AT <province> [TO <province>]"))),
            };
            match split_at(tail, "TO") {
                Some((a, b)) => {
                    Ok(CardUse::Reinforcements { at: province(board, a)?, to: Some(province(board, b)?) })
                }
                None => Ok(CardUse::Reinforcements { at: province(board, tail)?, to: None }),
            }
        }
        MilitaryEffect::Repositioning { .. } => {
            let text = rest.join(" ");
            let moves = text
                .split(',')
                .map(|m| step(board, &m.split_whitespace().collect::<Vec<_>>()))
                .collect::<Result<Vec<_>, _>>()?;
            Ok(CardUse::Repositioning { moves })
        }
        MilitaryEffect::NavalSupport { .. } if split_at(rest, "TO").is_some() => {
            let (from, to) = step(board, rest)?;
            Ok(CardUse::SeaMove { from, to })
        }
        _ => Ok(CardUse::NavalBonus { at: on("ON")? }),
    }
}

/// Reads one line: `Ok(None)` for a blank line or a `#` comment.
pub fn parse_war_line<B: WarBoard + ?Sized>(
    board: &B,
    line: &str,
) -> Result<Option<WarStandingOrder>, OrderError> {
    let all: Vec<&str> = line.split_whitespace().collect();
    let words = match all.split_first() {
        None => return Ok(None),
        Some((w, _)) if w.starts_with('#') => return Ok(None),
        Some((w, rest)) if w.eq_ignore_ascii_case("WAR") => rest,
        _ => &all[..],
    };
    let Some((verb, rest)) = words.split_first() else {
        return Err(err("WAR what? e.g. WAR MOVE Hesse TO Rheinland"));
    };
    let now = |d| Ok(Some(WarStandingOrder::Now(d)));
    match verb.to_ascii_uppercase().as_str() {
        "PASS" if rest.is_empty() => now(WarDeed::Pass),
        "MOVE" => {
            let (from, to) = step(board, rest)?;
            now(WarDeed::Move { from, to })
        }
        "CONSCRIPT" => {
            let rest =
                rest.strip_prefix(&["IN"][..]).or_else(|| rest.strip_prefix(&["in"][..])).unwrap_or(rest);
            now(WarDeed::Conscript { at: province(board, rest)? })
        }
        "PLAY" => {
            let (id, tail) = card(board, rest)?;
            let info = &board.military_cards()[usize::from(id.0)];
            now(WarDeed::Play { card: id, with: card_use(board, info.effect, &info.name, tail)? })
        }
        "WHEN" => parse_when(board, rest).map(Some),
        _ => Err(err(format!(
            "\"{}\" is not a war order (MOVE, CONSCRIPT, PLAY, PASS, WHEN ATTACKED …)",
            words.join(" ")
        ))),
    }
}

/// `ATTACKED [AT p] PLAY card` / `ATTACKED [AT p] CONSCRIPT`.
fn parse_when<B: WarBoard + ?Sized>(board: &B, words: &[&str]) -> Result<WarStandingOrder, OrderError> {
    let usage = "WHEN ATTACKED [AT <province>] PLAY <card>, or WHEN ATTACKED [AT <province>] CONSCRIPT";
    let Some((first, rest)) = words.split_first().filter(|(w, _)| w.eq_ignore_ascii_case("ATTACKED")) else {
        return Err(err(usage));
    };
    let _ = first;
    let verb_at =
        rest.iter().position(|w| w.eq_ignore_ascii_case("PLAY") || w.eq_ignore_ascii_case("CONSCRIPT"));
    let Some(v) = verb_at else { return Err(err(usage)) };
    let at = match &rest[..v] {
        [] => None,
        [kw, place @ ..] if kw.eq_ignore_ascii_case("AT") => Some(province(board, place)?),
        _ => return Err(err(usage)),
    };
    let response = if rest[v].eq_ignore_ascii_case("CONSCRIPT") {
        if v + 1 != rest.len() {
            return Err(err(usage));
        }
        Response::Conscript
    } else {
        let (id, tail) = card(board, &rest[v + 1..])?;
        let info = &board.military_cards()[usize::from(id.0)];
        if !tail.is_empty() {
            return Err(err(format!(
                "{} is played on the battle itself: write nothing after its name",
                info.name
            )));
        }
        if matches!(info.effect, MilitaryEffect::Repositioning { .. }) {
            return Err(err(format!("{} is not an answer to an attack; order it with PLAY", info.name)));
        }
        Response::Play(id)
    };
    Ok(WarStandingOrder::WhenAttacked { at, response })
}

/// Reads a player's war orders; every line that cannot be read is reported with its number.
pub fn parse_war_orders<B: WarBoard + ?Sized>(
    board: &B,
    text: &str,
) -> Result<Vec<Numbered<WarStandingOrder>>, Vec<WarOrderError>> {
    let mut orders = Vec::new();
    let mut errors = Vec::new();
    for (i, line) in text.lines().enumerate() {
        match parse_war_line(board, line) {
            Ok(Some(order)) => orders.push(Numbered { line: i + 1, order }),
            Ok(None) => {}
            Err(OrderError(message)) => errors.push(WarOrderError { line: i + 1, message }),
        }
    }
    if errors.is_empty() { Ok(orders) } else { Err(errors) }
}

/// The power's battles as defender that an answer about `at` covers, the one going worst first.
fn attacks<B: WarBoard + ?Sized>(
    board: &B,
    war: &WarState,
    power: PowerId,
    at: Option<ProvinceId>,
) -> Vec<Battle> {
    let Some(phase) = war.phase.as_ref() else { return Vec::new() };
    let mut mine: Vec<(i32, usize, Battle)> = phase
        .battles
        .iter()
        .enumerate()
        .filter(|(_, b)| b.defender == power && at.is_none_or(|p| p == b.at))
        .map(|(i, b)| {
            let (a, d) = score_battle(board, war, phase, b);
            (i32::from(d.total()) - i32::from(a.total()), i, *b)
        })
        .collect();
    mine.sort_by_key(|(margin, i, _)| (*margin, *i));
    mine.into_iter().map(|(_, _, b)| b).collect()
}

/// The actions that answer the battle `b` with `response`, best first.
fn answers<B: WarBoard + ?Sized>(
    board: &B,
    war: &WarState,
    power: PowerId,
    b: &Battle,
    response: Response,
) -> Vec<WarDeed> {
    let around: Vec<ProvinceId> = board.neighbours(b.at).to_vec();
    // A regiment in n would support b (RULING E47): n is no battle and touches no other battle of
    // this power.
    let supports = |n: ProvinceId| {
        war.phase.as_ref().is_some_and(|phase| {
            phase.battle_at(n).is_none()
                && phase
                    .battles
                    .iter()
                    .filter(|x| x.at != b.at && (x.attacker == power || x.defender == power))
                    .all(|x| !board.neighbours(n).contains(&x.at))
        })
    };
    let card = |c: MilitaryCardId| board.military_cards().get(usize::from(c.0)).map(|x| x.effect);
    match response {
        Response::Conscript => {
            around.iter().filter(|n| supports(**n)).map(|n| WarDeed::Conscript { at: *n }).collect()
        }
        Response::Play(c) => {
            let play = |with| WarDeed::Play { card: c, with };
            match card(c) {
                Some(MilitaryEffect::Bonus { scope: BonusScope::War, .. }) => {
                    vec![play(CardUse::Bonus { at: None })]
                }
                Some(MilitaryEffect::Bonus { .. }) => vec![play(CardUse::Bonus { at: Some(b.at) })],
                Some(MilitaryEffect::NavalSupport { .. }) => vec![play(CardUse::NavalBonus { at: b.at })],
                Some(e) if e.is_tradition() => vec![play(CardUse::Tradition)],
                Some(MilitaryEffect::Reinforcements) => {
                    let here = around
                        .iter()
                        .filter(|n| supports(**n))
                        .map(|n| CardUse::Reinforcements { at: *n, to: None });
                    let stepped = around.iter().filter(|n| supports(**n)).flat_map(|n| {
                        board
                            .neighbours(*n)
                            .iter()
                            .map(move |m| CardUse::Reinforcements { at: *m, to: Some(*n) })
                    });
                    here.chain(stepped).map(play).collect()
                }
                _ => Vec::new(),
            }
        }
    }
}

/// The action the power's standing orders call for now (RULING E59): first an attack answer
/// (`WHEN ATTACKED`) whose attack has come, then the next `Now` order that is legal, in the order
/// written; each line is used once. `action: None` when nothing fits (the caller then takes
/// [`super::default_war_action`]).
pub fn answer_war<B: WarBoard + ?Sized>(
    board: &B,
    war: &WarState,
    power: PowerId,
    sheet: &mut OrderSheet<WarStandingOrder>,
) -> Answer<WarAction> {
    let mut notes = Vec::new();
    if war.to_act() != Some(power) {
        return Answer { action: None, notes };
    }
    let legal = |deed: &WarDeed| check(board, war, &WarAction { power, deed: deed.clone() });
    for i in 0..sheet.orders.len() {
        if sheet.used[i] {
            continue;
        }
        let line = sheet.orders[i].line;
        let WarStandingOrder::WhenAttacked { at, response } = sheet.orders[i].order else { continue };
        let Some(battle) = attacks(board, war, power, at).into_iter().next() else { continue };
        sheet.used[i] = true;
        let place = board.province_name(battle.at).to_string();
        match answers(board, war, power, &battle, response).into_iter().find(|d| legal(d).is_ok()) {
            Some(deed) => {
                notes.push(LineNote {
                    line,
                    executed: true,
                    note: format!("answered the attack in {place}"),
                });
                return Answer { action: Some(WarAction { power, deed }), notes };
            }
            None => notes.push(LineNote {
                line,
                executed: false,
                note: format!("no answer possible to the attack in {place}"),
            }),
        }
    }
    for i in 0..sheet.orders.len() {
        if sheet.used[i] {
            continue;
        }
        let line = sheet.orders[i].line;
        let WarStandingOrder::Now(deed) = &sheet.orders[i].order else { continue };
        sheet.used[i] = true;
        match legal(deed) {
            Ok(()) => {
                notes.push(LineNote { line, executed: true, note: "carried out".to_string() });
                return Answer { action: Some(WarAction { power, deed: deed.clone() }), notes };
            }
            Err(e) => notes.push(LineNote { line, executed: false, note: e.to_string() }),
        }
    }
    Answer { action: None, notes }
}
