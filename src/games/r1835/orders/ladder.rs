//! HR 17: an ordered tile or station that cannot be placed goes down the ladder — (A) the
//! director's own contingency (alternatives and conditions, tried by `walk` before anything
//! here), (B) the lay that best follows the director's stated or evident plan: a referral to
//! the GM with the candidates ranked by progress toward the target (`Orders::refer`), (C) the lay
//! giving the shareholders most income this turn and next (a bounded look-ahead, RULINGS K71),
//! (D) none when nothing gives a foreseeable advantage. The line's note names the rung
//! (RULINGS K59, K60, K71). Candidates come from `board::rank`
//! (RULINGS K31, K44), checked against the whole position (the treasury pays terrain).

use super::types::{Cmd, Kind, Order};
use crate::engine::{Answer, LineNote, OrderSheet};
use crate::games::r1835::R1835;
use crate::games::r1835::actions::Action;
use crate::games::r1835::board::rank::ranked_lays;
use crate::games::r1835::board::stations::map_distance;
use crate::games::r1835::state::{Entity, State, Step};

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
        let Ok(phase) = self.phase_now(s) else { return Vec::new() };
        let company = self.entity_id(s, e);
        let trains = self.entity_trains(s, e);
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
        let mut actions = Vec::new();
        let step = if s.or.turn.step == Step::Track { Step::Track } else { Step::Token };
        self.legal_token_actions(s, e, step, &mut actions);
        let mut out: Vec<Candidate> = actions
            .into_iter()
            .filter_map(|action| {
                let mut t = s.clone();
                self.apply_action(&mut t, &action).ok()?;
                let revenue = self.best_run(&t, e).map(|(_, b)| b.revenue).unwrap_or(0);
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

    /// The company's best run now (0 without trains or routes).
    fn revenue_now(&self, s: &State, e: Entity) -> i64 {
        self.best_run(s, e).map(|(_, b)| b.revenue).unwrap_or(0)
    }

    /// HR 17 C with its look-ahead (RULINGS K71): the lay giving the shareholders most income
    /// "this turn and next" — this turn's optimal revenue after it plus next turn's after the
    /// company's best second lay — if that beats laying nothing now and the best tile next turn;
    /// else none (D). Only the [`LOOKAHEAD_LAYS`] best-ranked lays of this turn are looked
    /// ahead from (ties in this turn's revenue go by the K31 ranking).
    pub(crate) fn most_income_lay(&self, s: &State, e: Entity) -> Option<Action> {
        let base = self.revenue_now(s, e);
        let now = self.lay_candidates(s, e, None);
        let best_now = now.first().map_or(base, |c| c.revenue.max(base));
        let wait = base + best_now;
        let mut best: Option<(i64, Action)> = None;
        for c in now.into_iter().take(LOOKAHEAD_LAYS) {
            let score = c.revenue + self.next_turn_revenue(s, e, &c.action, c.revenue);
            if score > wait && best.as_ref().is_none_or(|(b, _)| score > *b) {
                best = Some((score, c.action));
            }
        }
        best.map(|(_, a)| a)
    }

    /// K71: the company's optimal revenue next turn after `lay` now and its best lay then (the
    /// same phase and trains; `after` is the revenue with `lay` alone).
    fn next_turn_revenue(&self, s: &State, e: Entity, lay: &Action, after: i64) -> i64 {
        let Action::LayTile { tile, hex, rotation, .. } = lay else { return after };
        let Ok(phase) = self.phase_now(s) else { return after };
        let mut board = s.board.clone();
        if board.lay(&self.data, hex, tile, *rotation).is_err() {
            return after;
        }
        let (company, trains) = (self.entity_id(s, e), self.entity_trains(s, e));
        let second = ranked_lays(&self.data, &board, phase, &company, &trains, None);
        second.first().map_or(after, |c| c.revenue.max(after))
    }

    /// HR 17 C for stations: the station giving most income this turn, if more than none (a
    /// station earns the same next turn with the same trains: RULINGS K71 keeps K60 for them).
    pub(crate) fn most_income_token(&self, s: &State, e: Entity) -> Option<Action> {
        let base = self.revenue_now(s, e);
        self.token_candidates(s, e, None).into_iter().find(|c| c.revenue > base).map(|c| c.action)
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
        // B: a target stated on the line or standing (HR 12) — the GM chooses among ranked candidates.
        if let Some(target) = stated.or(intent)
            && self.has_candidates(s, e, station)
        {
            sheet.orders[i].order.progress.referral = Some((station, target.clone()));
            notes.push(LineNote { line, executed: false, note: format!("{why} — HR 17 B: the {what} that best follows {id}'s plan toward {target} is referred to the GM") });
            return Answer { action: None, notes };
        }
        // C: most income; D: none.
        let best = if station { self.most_income_token(s, e) } else { self.most_income_lay(s, e) };
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
