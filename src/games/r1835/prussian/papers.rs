//! The formation of the Prussian and the exchanges (FACTS §9, RR §15.2–15.4): certificates from
//! the reserve to the papers' owners, cash and trains to the Prussian, the minors' and BB/HB's
//! papers closed, presidency re-checked at once, then the train limits; and the home tokens on
//! the board ([`take_over_token`]).

use super::super::R1835;
use super::super::board::BoardState;
use super::super::data::Paper;
use super::super::holdings::{Holder, pay, value};
use super::super::options::PresidencySwap;
use super::super::state::{Entity, Loc, Round, State};
use crate::engine::Event;

/// The station tokens of `from` (a minor) on the board become the Prussian's (`to`), except in
/// a hex where the Prussian already has one: there the minor's token is removed (FACTS §9; M5 in
/// Berlin always). Returns what happened, hex by hex.
pub fn take_over_token(board: &mut BoardState, from: &str, to: &str) -> Vec<String> {
    let mut done = Vec::new();
    for (hex, tokens) in board.tokens.iter_mut() {
        if !tokens.iter().any(|t| t.company == from) {
            continue;
        }
        if tokens.iter().any(|t| t.company == to) {
            tokens.retain(|t| t.company != from);
            done.push(format!("{from}'s token in {hex} is removed: {to} already has one there"));
        } else {
            for t in tokens.iter_mut().filter(|t| t.company == from) {
                t.company = to.to_string();
            }
            done.push(format!("{from}'s token in {hex} becomes {to}'s"));
        }
    }
    done
}

impl R1835 {
    /// The Prussian's index among the share companies.
    pub(super) fn pr(&self) -> usize {
        self.data.majors.iter().position(|m| m.prussian).unwrap_or(0)
    }

    /// M2 (the minor that forms the Prussian) and its owner.
    pub(super) fn m2(&self, s: &State) -> Option<(usize, u8)> {
        let m = self.data.minors.iter().position(|m| m.forms_prussian)?;
        let st = s.minors.get(m).filter(|x| !x.closed)?;
        Some((m, st.owner?))
    }

    pub(super) fn is_m2(&self, paper: &str) -> bool {
        self.data.minors.iter().any(|m| m.forms_prussian && m.id == paper)
    }

    pub(crate) fn pr_formed(&self, s: &State) -> bool {
        s.majors.get(self.pr()).is_some_and(|c| c.floated)
    }

    pub(super) fn pr_president(&self, s: &State) -> Option<u8> {
        self.president(s, self.pr())
    }

    /// The paper called `id` and its reserved certificate (index in the Prussian's stack), if
    /// that certificate is still in the reserve.
    pub(super) fn reserved(&self, s: &State, id: &str) -> Option<(Paper, usize)> {
        let paper = match (self.data.minor_index(id), self.data.private_index(id)) {
            (Some(m), _) => Paper::Minor(m),
            (None, Some(x)) => Paper::Private(x),
            (None, None) => return None,
        };
        let pr = self.pr();
        let i = self.data.majors[pr].certificates.iter().position(|c| c.reserved_for == Some(paper))?;
        (s.majors[pr].certs.get(i)?.at == Loc::Reserved).then_some((paper, i))
    }

    /// The papers seat `p` may exchange now, minors then privates in data order (not M2).
    pub(super) fn papers_of(&self, s: &State, p: u8) -> Vec<String> {
        let minors = s.minors.iter().filter(|m| m.owner == Some(p) && !m.closed).map(|m| &m.id);
        let privates = s.privates.iter().filter(|x| x.owner == Some(p) && !x.closed).map(|x| &x.id);
        minors
            .chain(privates)
            .filter(|id| !self.is_m2(id) && self.reserved(s, id).is_some())
            .cloned()
            .collect()
    }

    /// Forms the Prussian (FACTS §9, RR §15.2): M2's owner gets the director's certificate; PR
    /// on 154, floated, with 154 per public share already sold plus M2's cash and trains.
    pub(super) fn form_prussian(&self, s: &mut State, ev: &mut Vec<Event>) {
        let Some((m2, owner)) = self.m2(s) else { return };
        let pr = self.pr();
        let m2_id = self.data.minors[m2].id.clone();
        let sits_out = self.m2_operated_this_or(s, m2);
        let Some((_, i)) = self.reserved(s, &m2_id) else { return };
        s.majors[pr].certs[i].at = Loc::Player(owner);
        let space = self.data.majors[pr].start_space;
        let price = self.data.market.price(space);
        let public: i64 = self.data.majors[pr]
            .certificates
            .iter()
            .zip(&s.majors[pr].certs)
            .filter(|(spec, c)| spec.reserved_for.is_none() && matches!(c.at, Loc::Player(_) | Loc::Pool))
            .map(|(_, c)| value(price, c.percent))
            .sum();
        pay(s, Holder::Bank, Holder::Major(pr), public);
        self.note_bank(s);
        s.stamp += 1;
        let stamp = s.stamp;
        let c = &mut s.majors[pr];
        c.floated = true;
        c.home_placed = true;
        c.price = Some(space);
        c.stamp = stamp;
        s.prussian.sits_out = sits_out;
        let (cash, trains) = self.close_minor(s, m2);
        ev.push(Event::public(format!(
            "Seat {} forms the Prussian with {m2_id}: PR starts at {price} M on {space} and floats with {public} M for its public shares sold, plus {m2_id}'s {cash} M and trains [{}]; {m2_id}'s token in {} becomes PR's home station (FACTS §9){}",
            owner + 1,
            trains.join(", "),
            self.data.minors[m2].home,
            if sits_out { "; M2 has operated in this round, so PR does not operate until the next one (HR 10)" } else { "" }
        )));
        // Rails checks the Prussian's presidency at the end of its formation preferring one 10 %
        // certificate: the fewest, in both presets (RULING K10).
        self.settle_presidency_in(s, pr, PresidencySwap::Fewest, ev);
        self.slot_into_round(s);
    }

    /// Exchanges `id` for its reserved certificate (FACTS §9, RR §15.4); presidency and limits
    /// are the caller's.
    pub(super) fn exchange_paper(&self, s: &mut State, id: &str, ev: &mut Vec<Event>) {
        let Some((paper, i)) = self.reserved(s, id) else { return };
        let pr = self.pr();
        let owner = match paper {
            Paper::Minor(m) => s.minors.get(m).and_then(|x| x.owner),
            Paper::Private(x) => s.privates.get(x).and_then(|x| x.owner),
        };
        let Some(owner) = owner else { return };
        s.majors[pr].certs[i].at = Loc::Player(owner);
        let percent = s.majors[pr].certs[i].percent;
        self.withhold_if_paid(s, paper, owner, percent);
        let text = match paper {
            Paper::Minor(m) => {
                let (cash, trains) = self.close_minor(s, m);
                let home = &self.data.minors[m].home;
                let token = if *home == self.data.majors[pr].home {
                    format!("its token in {home} is removed (PR's home is there)")
                } else {
                    format!("its token in {home} becomes PR's unless PR already has one there")
                };
                format!("; its {cash} M and trains [{}] go to PR; {token}", trains.join(", "))
            }
            Paper::Private(x) => {
                if let Some(st) = s.privates.get_mut(x) {
                    st.closed = true;
                }
                "; the private closes".to_string()
            }
        };
        ev.push(Event::public(format!(
            "Seat {} exchanges {id} for a {percent} % Prussian certificate{text} (FACTS §9)",
            owner + 1
        )));
    }

    /// Closes minor `m` into the Prussian: its cash and trains move over.
    fn close_minor(&self, s: &mut State, m: usize) -> (i64, Vec<String>) {
        let pr = self.pr();
        let cash = s.minors[m].cash;
        pay(s, Holder::Minor(m), Holder::Major(pr), cash);
        let trains = std::mem::take(&mut s.minors[m].trains);
        s.majors[pr].trains.extend(trains.iter().cloned());
        s.minors[m].closed = true;
        let (from, to) = (self.data.minors[m].id.clone(), self.data.majors[pr].id.clone());
        take_over_token(&mut s.board, &from, &to);
        // It no longer operates; mid-round the first of the queue is operating now and stays.
        let me = Entity::Minor(u8::try_from(m).unwrap_or(u8::MAX));
        let start = usize::from(s.prussian.mid_or);
        if let Some(k) = s.or.queue.iter().skip(start).position(|e| *e == me) {
            s.or.queue.remove(k + start);
        }
        (cash, trains)
    }

    /// After exchanges: the presidency at once, then the limits (RR §15.6; RULING K49).
    pub(super) fn after_exchanges(&self, s: &mut State, ev: &mut Vec<Event>) {
        self.settle_presidency_in(s, self.pr(), PresidencySwap::Fewest, ev);
        let operating = match s.round {
            Round::Operating { .. } => s.or.queue.first().copied(),
            _ => None,
        };
        self.enforce_limits(s, operating, ev);
    }

    /// The first 5 (FACTS §9, RR §26.4): the Prussian forms if it has not, every remaining
    /// paper is exchanged, then presidency, then limits.
    pub(super) fn forced_exchange(&self, s: &mut State, ev: &mut Vec<Event>) {
        s.prussian.asks.clear();
        if !self.pr_formed(s) {
            self.form_prussian(s, ev);
        }
        if !self.pr_formed(s) {
            return; // M2 has no owner: nothing can be exchanged into a Prussian that is not there
        }
        let papers: Vec<String> = (0..s.n()).flat_map(|p| self.papers_of(s, p)).collect();
        for id in papers {
            self.exchange_paper(s, &id, ev);
        }
        self.after_exchanges(s, ev);
    }
}
