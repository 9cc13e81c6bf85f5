//! The parts of what a player sees of his orders before the deadline (the echo: each line as
//! understood against the position now after the lines before it, and the branch each
//! contingency would take then), and of
//! the HR 14 questions (orders that no longer fit after a round, RULINGS K61), that
//! `Orders::advise` and `Orders::misfit` (in `orders/mod.rs`) are made of.

use super::plan::{Ctx, Outcome, commands};
use super::types::{Cmd, Kind, Order};
use crate::engine::{Numbered, Orders, Seat};
use crate::games::r1835::R1835;
use crate::games::r1835::actions::Action;
use crate::games::r1835::state::{Entity, Loc, Round, State, Turn};

impl R1835 {
    /// The echo of a whole sheet: each line judged after the lines before it (DESIGN "Orders and
    /// decisions") — in a stock round as the seat meets its own turn, after the sales and
    /// purchases its earlier lines would make (a purchase ends a turn, the next line is read at
    /// the seat's next one); in an operating round after the earlier lines of the company
    /// operating now.
    pub(super) fn advise_lines(
        &self,
        s: &State,
        seat: Seat,
        orders: &[Numbered<Order>],
    ) -> Vec<Option<String>> {
        let Ok(p) = u8::try_from(seat.index()) else { return vec![None; orders.len()] };
        let mut t = s.clone();
        if self.own_stock_turn(&t) && t.sr.current != p {
            t.sr.current = p;
            t.sr.turn = Turn::default();
        }
        orders
            .iter()
            .map(|o| {
                let advice = self.advise(&t, seat, &o.order);
                self.play_ahead(&mut t, p, &o.order);
                advice
            })
            .collect()
    }

    /// A stock round with no Prussian question before it.
    fn own_stock_turn(&self, s: &State) -> bool {
        matches!(s.round, Round::Stock { .. }) && self.prussian_pending(s).is_none()
    }

    /// Plays one line on the echo's position `t` as the adjudication would, when it can be
    /// carried out there (a line that cannot changes nothing).
    fn play_ahead(&self, t: &mut State, p: u8, order: &Order) {
        match &order.kind {
            Kind::Plan { company: None, plan } if self.own_stock_turn(t) && !self.prussian_line(plan) => {
                let ctx = Ctx { seat: p, company: None };
                let times = match plan {
                    super::types::Plan::Cmd(Cmd::Buy { count: Some(n), .. }) => *n,
                    _ => 1,
                };
                for _ in 0..times {
                    let now = t.clone();
                    let Outcome::Done { action, .. } =
                        self.walk(&now, ctx, plan, &mut |c| self.stock_action(&now, p, c))
                    else {
                        return;
                    };
                    let ends_turn = !matches!(action, Action::Sell { .. });
                    if !matches!(action, Action::Pass) && self.apply_action(t, &action).is_err() {
                        return;
                    }
                    if ends_turn && self.own_stock_turn(t) {
                        t.sr.current = p;
                        t.sr.turn = Turn::default();
                    }
                }
            }
            Kind::Plan { company: Some(id), plan } => {
                let Some(e) = self.operating_entity(t).filter(|e| self.entity_id(t, *e) == *id) else {
                    return;
                };
                let now = t.clone();
                let ctx = Ctx { seat: p, company: Some(id) };
                if let Outcome::Done { action, .. } =
                    self.walk(&now, ctx, plan, &mut |c| self.operating_action(&now, e, c, &[]))
                {
                    let _ = self.apply_action(t, &action);
                }
            }
            _ => {}
        }
    }
    /// "now: …" for an outcome.
    pub(super) fn now<A>(&self, o: Outcome<A>) -> String {
        match o {
            Outcome::Done { cmd, path, .. } if path.is_empty() => format!("now: {cmd} can be carried out"),
            Outcome::Done { cmd, path, .. } => format!("now: {} → {cmd} can be carried out", path.join(", ")),
            Outcome::Failed { why, .. } => match super::operate::unclear(&why) {
                Some(unclear) => format!("now: {unclear}"),
                None => format!("now: not possible ({})", why.join("; ")),
            },
            Outcome::Nothing { path } => format!("now: {} → nothing ordered", path.join(", ")),
        }
    }

    /// The branches the conditions take now, for a line carried out later.
    pub(super) fn branches(&self, s: &State, ctx: Ctx<'_>, plan: &super::types::Plan, when: &str) -> String {
        match self.walk(s, ctx, plan, &mut |_| Ok::<(), String>(())) {
            Outcome::Done { cmd, path, .. } if !path.is_empty() => {
                format!("{when}; as the board stands now: {} → {cmd}", path.join(", "))
            }
            Outcome::Nothing { path } => {
                format!("{when}; as the board stands now: {} → nothing", path.join(", "))
            }
            _ => when.to_string(),
        }
    }

    pub(super) fn not_directed(&self, s: &State, p: u8, id: &str) -> Option<String> {
        let e = self.entity_by_id(id)?;
        if let Entity::Minor(m) = e
            && s.minors.get(usize::from(m)).is_some_and(|x| x.closed)
        {
            return Some(format!("{id} is closed (exchanged into the Prussian)"));
        }
        (self.controller(s, e) != Some(p)).then(|| format!("you do not direct {id} at the moment"))
    }

    pub(super) fn holding_warnings(&self, s: &State, p: u8, cmds: &[&Cmd]) -> Vec<String> {
        let mut w = Vec::new();
        for c in cmds {
            match c {
                Cmd::Sell { company, .. } => {
                    if let Some(co) = self.data.major_index(company)
                        && !s.majors[co].certs.iter().any(|c| c.at == Loc::Player(p))
                    {
                        w.push(format!("you hold no {company} at the moment"));
                    }
                }
                Cmd::Buy { name, .. } => {
                    if let Some(i) = self.data.item_index(name).filter(|i| s.packet_sold[*i])
                        && self.data.major_index(name).is_none()
                    {
                        w.push(format!("{} has already been sold", self.data.packet[i].id));
                    }
                }
                _ => {}
            }
        }
        w
    }

    /// Whether a line answers only the Prussian's questions (FORM / DECLINE / EXCHANGE / KEEP).
    pub(super) fn prussian_line(&self, plan: &super::types::Plan) -> bool {
        let mut cmds = Vec::new();
        commands(plan, &mut cmds);
        !cmds.is_empty() && cmds.iter().all(|c| matches!(c, Cmd::Form(_) | Cmd::Exchange { .. }))
    }

    /// RULING K72: why a Prussian line no longer fits — it orders the formation (or declines it)
    /// and the Prussian has formed, or every paper it would exchange is gone already.
    pub(super) fn prussian_misfit(&self, s: &State, plan: &super::types::Plan) -> Option<String> {
        let mut cmds = Vec::new();
        commands(plan, &mut cmds);
        let formed = self.pr_formed(s);
        if formed && cmds.iter().any(|c| matches!(c, Cmd::Form(_))) {
            return Some("the Prussian has formed".into());
        }
        let gone = |paper: &str| match self.entity_by_id(paper) {
            Some(Entity::Minor(m)) => s.minors.get(usize::from(m)).is_some_and(|x| x.closed),
            _ => false,
        };
        let papers: Vec<&str> = cmds
            .iter()
            .filter_map(|c| match c {
                Cmd::Exchange { paper, .. } => Some(paper.as_str()),
                _ => None,
            })
            .collect();
        (!papers.is_empty() && papers.iter().all(|p| gone(p)))
            .then(|| format!("{} exchanged into the Prussian already", papers.join(", ")))
    }
}
