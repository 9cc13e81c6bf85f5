//! What a player sees of his orders before the deadline (the echo: each line as understood
//! against the position now, and the branch each contingency would take now), and the HR 14
//! questions: a one-round turn asked for, orders that no longer fit after a round (RULINGS K61).

use super::plan::{Ctx, Outcome, commands};
use super::types::{Cmd, Kind, Order};
use crate::engine::{OrderSheet, Seat};
use crate::games::r1835::R1835;
use crate::games::r1835::state::{Entity, Loc, Round, State};

impl R1835 {
    /// The echo of one line for `seat` in position `s` (None: nothing to add).
    pub(crate) fn advise_on(&self, s: &State, seat: Seat, order: &Order) -> Option<String> {
        let p = u8::try_from(seat.index()).ok()?;
        let mut out = Vec::new();
        match &order.kind {
            Kind::OneRound => out.push("you ask for a one-round turn (HR 14)".to_string()),
            Kind::Intent { company, toward } => {
                let name = self.data.hex(toward).map(|h| h.name.clone()).unwrap_or_default();
                out.push(format!(
                    "standing until withdrawn: when {company}'s orders are silent or its tile or station cannot be placed, the GM builds toward {toward} {name} (HR 12, HR 17 B)"
                ));
                out.extend(self.not_directed(s, p, company));
            }
            Kind::Plan { company: None, plan } => {
                let mut cmds = Vec::new();
                commands(plan, &mut cmds);
                out.extend(self.holding_warnings(s, p, &cmds));
                let stock = matches!(s.round, Round::Stock { .. }) && self.prussian_pending(s).is_none();
                let prussian = cmds.iter().all(|c| matches!(c, Cmd::Form(_) | Cmd::Exchange { .. }));
                if stock && !prussian {
                    out.push(self.now(
                        self.walk(s, Ctx { seat: p, company: None }, plan, &mut |c| {
                            self.stock_action(s, p, c)
                        }),
                    ));
                } else {
                    out.push(self.branches(s, Ctx { seat: p, company: None }, plan, "when its turn comes"));
                }
            }
            Kind::Plan { company: Some(id), plan } => {
                out.extend(self.not_directed(s, p, id));
                let ctx = Ctx { seat: p, company: Some(id) };
                match self.operating_entity(s).filter(|e| self.entity_id(s, *e) == *id) {
                    Some(e) => {
                        out.push(self.now(self.walk(s, ctx, plan, &mut |c| self.operating_action(s, e, c))))
                    }
                    None => out.push(self.branches(s, ctx, plan, &format!("when {id} operates"))),
                }
            }
        }
        let out: Vec<String> = out.into_iter().filter(|x| !x.is_empty()).collect();
        (!out.is_empty()).then(|| out.join("; "))
    }

    /// "now: …" for an outcome.
    fn now<A>(&self, o: Outcome<A>) -> String {
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
    fn branches(&self, s: &State, ctx: Ctx<'_>, plan: &super::types::Plan, when: &str) -> String {
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

    fn not_directed(&self, s: &State, p: u8, id: &str) -> Option<String> {
        let e = self.entity_by_id(id)?;
        if let Entity::Minor(m) = e
            && s.minors.get(usize::from(m)).is_some_and(|x| x.closed)
        {
            return Some(format!("{id} is closed (exchanged into the Prussian)"));
        }
        (self.controller(s, e) != Some(p)).then(|| format!("you do not direct {id} at the moment"))
    }

    fn holding_warnings(&self, s: &State, p: u8, cmds: &[&Cmd]) -> Vec<String> {
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

    /// HR 14: whether the sheet asks for a one-round turn.
    pub(crate) fn wants_one_round_from(&self, sheet: &OrderSheet<Order>) -> bool {
        sheet.orders.iter().any(|o| o.order.kind == Kind::OneRound)
    }

    /// HR 14 (RULINGS K61, K72): why the seat's unused lines no longer fit at a round's end —
    /// lines for a company it no longer directs or that has closed, a line for the Prussian's
    /// formation once it has formed (or for a paper already exchanged), or most of its stock
    /// lines impossible in a stock round.
    pub(crate) fn misfit_of(&self, s: &State, seat: Seat, sheet: &OrderSheet<Order>) -> Option<String> {
        let p = u8::try_from(seat.index()).ok()?;
        let mut why = Vec::new();
        let (mut stock, mut failing) = (0, 0);
        for (_, n) in sheet.unused() {
            match &n.order.kind {
                Kind::Plan { company: Some(id), .. } | Kind::Intent { company: id, .. } => {
                    if let Some(w) = self.not_directed(s, p, id) {
                        why.push(format!("line {} ({}): {w}", n.line, n.order));
                    }
                }
                Kind::Plan { company: None, plan } if self.prussian_line(plan) => {
                    why.extend(
                        self.prussian_misfit(s, plan).map(|w| format!("line {} ({}): {w}", n.line, n.order)),
                    );
                }
                Kind::Plan { company: None, plan } if matches!(s.round, Round::Stock { .. }) => {
                    stock += 1;
                    let o = self
                        .walk(s, Ctx { seat: p, company: None }, plan, &mut |c| self.stock_action(s, p, c));
                    failing += usize::from(matches!(o, Outcome::Failed { .. }));
                }
                _ => {}
            }
        }
        if stock >= 2 && failing * 2 > stock {
            why.push(format!("{failing} of the {stock} stock-round lines left cannot be carried out now"));
        }
        (!why.is_empty()).then(|| why.join("; "))
    }

    /// Whether a line answers only the Prussian's questions (FORM / DECLINE / EXCHANGE / KEEP).
    fn prussian_line(&self, plan: &super::types::Plan) -> bool {
        let mut cmds = Vec::new();
        commands(plan, &mut cmds);
        !cmds.is_empty() && cmds.iter().all(|c| matches!(c, Cmd::Form(_) | Cmd::Exchange { .. }))
    }

    /// RULING K72: why a Prussian line no longer fits — it orders the formation (or declines it)
    /// and the Prussian has formed, or every paper it would exchange is gone already.
    fn prussian_misfit(&self, s: &State, plan: &super::types::Plan) -> Option<String> {
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
