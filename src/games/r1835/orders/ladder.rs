//! HR 17: an ordered tile or station that cannot be placed goes down the ladder — (A) the
//! director's own contingency (alternatives and conditions, tried by `walk` before anything
//! here), (B) the lay that best follows the director's stated or evident plan: a referral to
//! the GM with the candidates ranked by progress toward the target (`Orders::refer`), (C) the lay
//! giving the shareholders most income this turn and next (a bounded look-ahead, RULINGS K71),
//! (D) none when nothing gives a foreseeable advantage. The line's note names the rung
//! (RULINGS K59, K60, K71). Candidates come from `board::rank`
//! (RULINGS K31, K44), checked against the whole position (the treasury pays terrain).

use super::operate::sheet_trains;
use super::types::{Cmd, Kind, Order, Refer};
use crate::engine::{Answer, LineNote, OrderSheet};
use crate::games::r1835::R1835;
use crate::games::r1835::actions::Action;
use crate::games::r1835::board::Lay;
use crate::games::r1835::board::graph::Graph;
use crate::games::r1835::board::rank::{new_exits, ranked_lays};
use crate::games::r1835::board::revenue::optimal;
use crate::games::r1835::board::state::BoardState;
use crate::games::r1835::board::stations::map_distance;
use crate::games::r1835::data::{Data, Phase, TrainType};
use crate::games::r1835::state::{Entity, State, Step};

/// The optimal revenue of `company`'s `trains` on `board`.
fn revenue_of(data: &Data, board: &BoardState, phase: &Phase, company: &str, trains: &[TrainType]) -> i64 {
    if trains.is_empty() {
        return 0;
    }
    optimal(&Graph::build(data, board, phase), company, trains).revenue
}

/// A candidate tile or station with what it is worth.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Candidate {
    pub action: Action,
    /// The optimal revenue this turn after it.
    pub revenue: i64,
    /// Hexes from it to the target (`None`: no target, or out of reach).
    pub distance: Option<u32>,
}

/// How many candidates a referral offers the GM.
pub(super) const REFERRAL_CANDIDATES: usize = 8;

/// How many of this turn's best-ranked lays HR 17 C looks ahead from (RULINGS K71): the bound
/// that keeps the look-ahead to a few dozen revenue computations per lay.
pub(crate) const LOOKAHEAD_LAYS: usize = 12;

impl R1835 {
    /// Legal lays for `e` now, ranked as K31 ranks them (revenue, then progress toward `toward`).
    pub(crate) fn lay_candidates(&self, s: &State, e: Entity, toward: Option<&str>) -> Vec<Candidate> {
        self.lay_candidates_with(s, e, toward, &[])
    }

    /// The company's trains and those its sheet buys this turn (issue 33: HR 17 C and D look
    /// ahead with them).
    fn trains_with(&self, s: &State, e: Entity, bought: &[String]) -> Vec<TrainType> {
        let mut trains = self.entity_trains(s, e);
        trains.extend(bought.iter().filter_map(|n| self.data.trains.iter().find(|t| t.name == *n).cloned()));
        trains
    }

    /// [`R1835::lay_candidates`], revenue counted with the trains `bought` as well.
    fn lay_candidates_with(
        &self,
        s: &State,
        e: Entity,
        toward: Option<&str>,
        bought: &[String],
    ) -> Vec<Candidate> {
        let Ok(phase) = self.phase_now(s) else { return Vec::new() };
        let company = self.entity_id(s, e);
        let trains = self.trains_with(s, e, bought);
        let mut out: Vec<Candidate> = ranked_lays(&self.data, &s.board, phase, &company, &trains, toward)
            .into_iter()
            .map(|c| Candidate {
                action: Action::LayTile {
                    company: company.clone(),
                    tile: c.lay.tile,
                    hex: c.lay.hex,
                    rotation: c.lay.rotation,
                },
                revenue: c.revenue,
                distance: c.distance,
            })
            .filter(|c| self.apply_action(&mut s.clone(), &c.action).is_ok())
            .collect();
        if toward.is_some() {
            out.sort_by_key(|c| (c.distance.unwrap_or(u32::MAX), std::cmp::Reverse(c.revenue)));
        }
        out
    }

    /// Legal stations for `e` now, nearest to `toward` first (else most revenue first).
    pub(crate) fn token_candidates(&self, s: &State, e: Entity, toward: Option<&str>) -> Vec<Candidate> {
        self.token_candidates_with(s, e, toward, &[])
    }

    /// [`R1835::token_candidates`], revenue counted with the trains `bought` as well.
    fn token_candidates_with(
        &self,
        s: &State,
        e: Entity,
        toward: Option<&str>,
        bought: &[String],
    ) -> Vec<Candidate> {
        let phase = self.phase_now(s).ok();
        let (company, trains) = (self.entity_id(s, e), self.trains_with(s, e, bought));
        let mut actions = Vec::new();
        let step = if s.or.turn.step == Step::Track { Step::Track } else { Step::Token };
        self.legal_token_actions(s, e, step, &mut actions);
        let mut out: Vec<Candidate> = actions
            .into_iter()
            .filter_map(|action| {
                let mut t = s.clone();
                self.apply_action(&mut t, &action).ok()?;
                let revenue = revenue_of(&self.data, &t.board, phase?, &company, &trains);
                let Action::PlaceToken { hex, .. } = &action else { return None };
                let distance = toward.and_then(|x| map_distance(&self.data, hex, x));
                Some(Candidate { action, revenue, distance })
            })
            .collect();
        match toward {
            Some(_) => out.sort_by_key(|c| (c.distance.unwrap_or(u32::MAX), std::cmp::Reverse(c.revenue))),
            None => out.sort_by_key(|c| std::cmp::Reverse(c.revenue)),
        }
        out
    }

    /// The company's best run now with its trains and those `bought` (0 without trains or routes).
    fn revenue_now(&self, s: &State, e: Entity, bought: &[String]) -> i64 {
        let Ok(phase) = self.phase_now(s) else { return 0 };
        revenue_of(&self.data, &s.board, phase, &self.entity_id(s, e), &self.trains_with(s, e, bought))
    }

    /// [`R1835::most_income_lay_with`] without trains bought this turn.
    #[cfg(test)]
    pub(crate) fn most_income_lay(&self, s: &State, e: Entity) -> Option<Action> {
        self.most_income_lay_with(s, e, &[])
    }

    /// HR 17 C with its look-ahead (RULINGS K71): the lay giving the shareholders most income
    /// "this turn and next" — this turn's optimal revenue after it plus next turn's after the
    /// company's best second lay — if that beats laying nothing now and the best tile next turn;
    /// else none (D). Only the [`LOOKAHEAD_LAYS`] best-ranked lays of this turn are looked
    /// ahead from (ties in this turn's revenue go by the K31 ranking).
    /// The trains `bought` this turn by the same sheet count with the company's own (issue 33).
    pub(crate) fn most_income_lay_with(&self, s: &State, e: Entity, bought: &[String]) -> Option<Action> {
        let base = self.revenue_now(s, e, bought);
        let now = self.lay_candidates_with(s, e, None, bought);
        let best_now = now.first().map_or(base, |c| c.revenue.max(base));
        let wait = base + best_now;
        let mut best: Option<(i64, Action)> = None;
        for c in now.into_iter().take(LOOKAHEAD_LAYS) {
            let score = c.revenue + self.next_turn_revenue(s, e, &c.action, c.revenue, bought);
            if score > wait && best.as_ref().is_none_or(|(b, _)| score > *b) {
                best = Some((score, c.action));
            }
        }
        best.map(|(_, a)| a)
    }

    /// K71: the company's optimal revenue next turn after `lay` now and its best lay then (the
    /// same phase and trains; `after` is the revenue with `lay` alone).
    fn next_turn_revenue(&self, s: &State, e: Entity, lay: &Action, after: i64, bought: &[String]) -> i64 {
        let Action::LayTile { tile, hex, rotation, .. } = lay else { return after };
        let Ok(phase) = self.phase_now(s) else { return after };
        let mut board = s.board.clone();
        if board.lay(&self.data, hex, tile, *rotation).is_err() {
            return after;
        }
        let (company, trains) = (self.entity_id(s, e), self.trains_with(s, e, bought));
        let second = ranked_lays(&self.data, &board, phase, &company, &trains, None);
        second.first().map_or(after, |c| c.revenue.max(after))
    }

    /// HR 17 C for stations: the station giving most income this turn, if more than none (a
    /// station earns the same next turn with the same trains: RULINGS K71 keeps K60 for them).
    pub(crate) fn most_income_token(&self, s: &State, e: Entity, bought: &[String]) -> Option<Action> {
        let base = self.revenue_now(s, e, bought);
        self.token_candidates_with(s, e, None, bought)
            .into_iter()
            .find(|c| c.revenue > base)
            .map(|c| c.action)
    }

    /// Issue 33, HR 17 B from the order itself: the hex of an ordered lay and the sides its new
    /// track would lead to (a rotation must have been written: without one the line is open).
    pub(super) fn ordered_line(&self, s: &State, cmd: &Cmd) -> Option<(String, Vec<u8>)> {
        let Cmd::Lay { tile: Some(tile), hex: Some(hex), rotation: Some(rotation), .. } = cmd else {
            return None;
        };
        let lay = Lay { hex: hex.clone(), tile: tile.clone(), rotation: *rotation, cost: 0, upgrade: false };
        let sides = new_exits(&self.data, &s.board, &lay);
        (!sides.is_empty()).then(|| (hex.clone(), sides))
    }

    /// The legal lays on the ordered hex that keep the most of the ordered track's new sides (at
    /// least one), best first: most sides kept, fewest other new sides, nearest to the target,
    /// most income (RULINGS K59, amended).
    fn same_line(
        &self,
        s: &State,
        e: Entity,
        (hex, want): (&str, &[u8]),
        target: Option<&str>,
    ) -> Vec<Candidate> {
        let keeps = |c: &Candidate| -> (usize, usize) {
            let Action::LayTile { tile, hex, rotation, .. } = &c.action else { return (0, 0) };
            let lay =
                Lay { hex: hex.clone(), tile: tile.clone(), rotation: *rotation, cost: 0, upgrade: false };
            let sides = new_exits(&self.data, &s.board, &lay);
            let kept = want.iter().filter(|w| sides.contains(w)).count();
            (kept, sides.len() - kept.min(sides.len()))
        };
        let mut on_hex: Vec<(usize, usize, Candidate)> = self
            .lay_candidates(s, e, target)
            .into_iter()
            .filter(|c| matches!(&c.action, Action::LayTile { hex: h, .. } if h == hex))
            .map(|c| {
                let (kept, other) = keeps(&c);
                (kept, other, c)
            })
            .collect();
        let most = on_hex.iter().map(|(k, _, _)| *k).max().unwrap_or(0);
        on_hex.retain(|(k, _, _)| *k == most && most > 0);
        on_hex.sort_by_key(|(_, other, c)| {
            (*other, c.distance.unwrap_or(u32::MAX), std::cmp::Reverse(c.revenue))
        });
        on_hex.into_iter().map(|(_, _, c)| c).collect()
    }

    /// The candidates of a referral, best first, at most [`REFERRAL_CANDIDATES`]: the lays
    /// keeping the ordered line, then those toward the target.
    pub(super) fn referral_candidates(
        &self,
        s: &State,
        e: Entity,
        r: &Refer,
        bought: &[String],
    ) -> Vec<Action> {
        let target = r.target.as_deref();
        let mut out: Vec<Action> = match &r.line {
            Some((hex, want)) if !r.station => self
                .same_line(s, e, (hex.as_str(), want.as_slice()), target)
                .into_iter()
                .map(|c| c.action)
                .collect(),
            _ => Vec::new(),
        };
        if target.is_some() {
            let toward = if r.station {
                self.token_candidates_with(s, e, target, bought)
            } else {
                self.lay_candidates_with(s, e, target, bought)
            };
            out.extend(toward.into_iter().map(|c| c.action));
        }
        let mut seen = Vec::new();
        out.retain(|a| {
            let fresh = !seen.contains(a);
            seen.push(a.clone());
            fresh
        });
        out.truncate(REFERRAL_CANDIDATES);
        out
    }

    /// Whether there is anything to lay (or place) at all.
    pub(super) fn has_candidates(&self, s: &State, e: Entity, station: bool) -> bool {
        if station {
            !self.token_candidates(s, e, None).is_empty()
        } else {
            !self.lay_candidates(s, e, None).is_empty()
        }
    }

    /// Down the ladder from rung B for the failed line `i` (its command `cmd`, why it failed).
    #[allow(clippy::too_many_arguments)]
    pub(super) fn ladder(
        &self,
        s: &State,
        e: Entity,
        sheet: &mut OrderSheet<Order>,
        i: usize,
        cmd: &Cmd,
        why: String,
        mut notes: Vec<LineNote>,
    ) -> Answer<Action> {
        let id = self.entity_id(s, e);
        let line = sheet.orders[i].line;
        let station = matches!(cmd, Cmd::Token { .. });
        let what = if station { "station" } else { "tile" };
        let stated = match cmd {
            Cmd::Lay { toward, .. } | Cmd::Token { toward, .. } => toward.clone(),
            _ => None,
        };
        let intent = stated_intent(sheet, &id).map(|(_, toward)| toward);
        let bought = sheet_trains(sheet, &id);
        // B: the plan evident from the order itself (its line on the ordered hex), then a target
        // stated on the line or standing (HR 12) — the GM chooses among ranked candidates.
        let refer = Refer { station, target: stated.or(intent), line: self.ordered_line(s, cmd) };
        if !self.referral_candidates(s, e, &refer, &bought).is_empty() {
            let plan = match (&refer.line, &refer.target) {
                (Some((hex, _)), Some(t)) => {
                    format!("keeps the line ordered on {hex}, then heads toward {t}")
                }
                (Some((hex, _)), None) => format!("keeps the line ordered on {hex}"),
                (None, Some(t)) => format!("best follows {id}'s plan toward {t}"),
                (None, None) => format!("best follows {id}'s plan"),
            };
            sheet.orders[i].order.progress.referral = Some(refer);
            notes.push(LineNote {
                line,
                executed: false,
                note: format!("{why} — HR 17 B: the {what} that {plan} is referred to the GM"),
            });
            return Answer { action: None, notes };
        }
        // C: most income; D: none (with the trains the sheet buys this turn).
        let best = if station {
            self.most_income_token(s, e, &bought)
        } else {
            self.most_income_lay_with(s, e, &bought)
        };
        match best {
            Some(action) => {
                let did = super::stock::describe(cmd, &action, &[]);
                notes.push(LineNote {
                    line,
                    executed: false,
                    note: format!(
                        "{why} — HR 17 C: instead the {what} giving the shareholders most income this turn and next: {}",
                        self.describe_order_action(&action, &did)
                    ),
                });
                Answer { action: Some(action), notes }
            }
            None => {
                notes.push(LineNote {
                    line,
                    executed: false,
                    note: format!("{why} — HR 17 D: no {what}, none gives a foreseeable advantage"),
                });
                Answer { action: self.can_pass(s).is_ok().then_some(Action::Pass), notes }
            }
        }
    }

    /// An action in order words for a note.
    fn describe_order_action(&self, a: &Action, fallback: &str) -> String {
        match a {
            Action::LayTile { company, tile, hex, rotation } => {
                format!("{company}: LAY {tile} {hex} ROTATION {rotation}")
            }
            Action::PlaceToken { company, hex, city } => format!("{company}: TOKEN {hex} CITY {city}"),
            _ => fallback.to_string(),
        }
    }
}

/// HR 12: the intention the sheet states for company `id` — its last `INTENT` line for it (a
/// later line replaces an earlier one; carried intentions come last, for companies the sheet
/// does not restate) — with the line's index, unless that line withdraws it.
pub(super) fn stated_intent(sheet: &OrderSheet<Order>, id: &str) -> Option<(usize, String)> {
    let (j, toward) = sheet.orders.iter().enumerate().rev().find_map(|(j, o)| match &o.order.kind {
        Kind::Intent { company, toward } if company == id => Some((j, toward.clone())),
        _ => None,
    })?;
    toward.map(|t| (j, t))
}
