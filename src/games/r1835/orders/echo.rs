//! The parts of what a player sees of his orders before the deadline (the echo: each line as
//! understood against the position now, and the branch each contingency would take now), and of
//! the HR 14 questions (orders that no longer fit after a round, RULINGS K61), that
//! `Orders::advise` and `Orders::misfit` (in `orders/mod.rs`) are made of.

use super::plan::{Ctx, Outcome, commands};
use super::types::Cmd;
use crate::games::r1835::R1835;
use crate::games::r1835::state::{Entity, Loc, State};

impl R1835 {
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
