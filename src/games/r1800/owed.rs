//! Choices the rules leave to a player outside a card's reward, each a decision its sheet answers
//! (DESIGN "Orders and decisions"): how a food deficit is paid (rules, "Player Turns" step 1;
//! RULING E4), which admin card an upkeep discards (Command Economy, Republic; RULING E22) and the
//! Command Economy's pop move at the start of the turn, before the collection (RULING E22), and
//! a price in cards or a loss to take — the global events' (Unrest Overseas, Unrest at Home,
//! Liberal Revolution, Rising Fascism; RULING E21) and Support Rebellion's occupier's (RULING
//! E75). A seat that cannot pay suffers the loss at once; one that can is asked.

use super::R1800;
use super::data::GlobalEvent;
use super::legal::discard_sets;
use super::state::*;
use crate::engine::{Event, GameRng};

impl R1800 {
    /// The answers to an owed choice; `None` for a card's choice (`legal::pending_options`).
    pub(super) fn owed_options(&self, s: &State, p: Pending) -> Option<Vec<Action>> {
        let seat = usize::from(p.seat);
        let pl = &s.players[seat];
        let me = usize::from(pl.power);
        Some(match p.choice {
            Choice::Deficit { food } => {
                let on_cards: u32 = pl.cards.iter().map(|h| u32::from(h.res[F])).sum();
                let feed = (on_cards >= u32::from(food)).then_some(Action::Feed);
                feed.into_iter()
                    .chain(
                        (0..s.provinces.len() as u16)
                            .filter(|&q| s.provinces[usize::from(q)].pops[me] > 0)
                            .map(Action::Sacrifice),
                    )
                    .collect()
            }
            Choice::Upkeep { .. } => {
                let mut hand = pl.admin.clone();
                hand.dedup();
                hand.into_iter().map(Action::DiscardAdmin).collect()
            }
            // RULING E22: Command Economy's pop move at the start of the turn, or none.
            Choice::StartMove => {
                let mut v: Vec<Action> = self
                    .adjacent_pairs(s, seat)
                    .into_iter()
                    .filter(|&(from, to)| self.start_move_ok(s, seat, from, to))
                    .map(|(from, to)| Action::MovePop { from, to })
                    .collect();
                v.push(Action::Skip);
                v
            }
            Choice::Toll(t) => {
                let mut v: Vec<Action> = if self.at_stake(s, seat, t) {
                    let (hand, n) = match t {
                        Toll::Revolution { liberal: false } => (&pl.admin, 3),
                        Toll::Revolution { liberal: true } => (&pl.military, 2),
                        Toll::Rebellion { n, .. } => (&pl.military, usize::from(n)),
                        Toll::Route(_) | Toll::Regiment(_) => (&pl.military, 1),
                    };
                    if hand.len() >= n {
                        discard_sets(hand, n).into_iter().map(Action::Pay).collect()
                    } else {
                        Vec::new()
                    }
                } else {
                    Vec::new()
                };
                v.push(Action::Skip);
                v
            }
            _ => return None,
        })
    }

    /// Whether what a toll would take is still the seat's to lose.
    fn at_stake(&self, s: &State, seat: usize, t: Toll) -> bool {
        let me = s.players[seat].power;
        let mine = |q: u16| {
            s.provinces.get(usize::from(q)).and_then(|x| x.regiment).is_some_and(|r| r.owner == Some(me))
        };
        match t {
            Toll::Route(r) => s.players[seat].overseas.contains(&r),
            Toll::Regiment(q) | Toll::Rebellion { province: q, .. } => mine(q),
            Toll::Revolution { .. } => true,
        }
    }

    /// The rules' answer for a silent seat: a deficit paid from the cards when they hold enough,
    /// else the pop RULING E4 names; the first admin card of the sorted hand (E22); a toll paid
    /// with the first cards of the sorted hand when it can be (E21, E75).
    pub(super) fn owed_default(&self, s: &State, p: Pending) -> Option<Action> {
        let options = self.owed_options(s, p)?;
        // RULING E30: a silent seat makes no move.
        if p.choice == Choice::StartMove {
            return Some(Action::Skip);
        }
        if let Choice::Deficit { .. } = p.choice
            && !options.contains(&Action::Feed)
        {
            return self.sacrifice_at(s, usize::from(p.seat)).map(Action::Sacrifice);
        }
        options.into_iter().next()
    }

    /// Asks the seat to pay a toll when it can; otherwise the loss happens now.
    pub(super) fn toll(&self, s: &mut State, seat: usize, t: Toll, rng: &mut GameRng) -> Vec<Event> {
        let p = Pending { seat: seat as u8, choice: Choice::Toll(t) };
        let can = self.owed_options(s, p).is_some_and(|v| v.iter().any(|a| matches!(a, Action::Pay(_))));
        if !can {
            return self.lose_toll(s, seat, t, rng);
        }
        s.pending.push(p);
        let (price, loss) = self.toll_words(t);
        vec![Event::public(format!(
            "{} must discard {price} or {loss}: its orders decide ({}).",
            self.power_name(s, seat),
            toll_order(self, t)
        ))]
    }

    /// What the toll costs and what it takes, in words.
    fn toll_words(&self, t: Toll) -> (String, String) {
        let d = self.data();
        match t {
            Toll::Route(r) => {
                ("a military card".into(), format!("lose its route to {}", d.routes[usize::from(r)]))
            }
            Toll::Regiment(q) => {
                ("a military card".into(), format!("lose its regiment in {}", d.province_name(q)))
            }
            Toll::Revolution { liberal: true } => ("2 military cards".into(), "suffer the revolution".into()),
            Toll::Revolution { liberal: false } => ("3 admin cards".into(), "suffer the revolution".into()),
            Toll::Rebellion { province, n } => (
                format!("{n} military card(s)"),
                format!("lose its regiment in {}", d.province_name(province)),
            ),
        }
    }

    /// The loss of an unpaid toll.
    fn lose_toll(&self, s: &mut State, seat: usize, t: Toll, rng: &mut GameRng) -> Vec<Event> {
        let d = self.data();
        let name = self.power_name(s, seat);
        match t {
            Toll::Route(r) => {
                s.players[seat].overseas.retain(|x| *x != r);
                vec![Event::public(format!("{name} loses its route to {}.", d.routes[usize::from(r)]))]
            }
            Toll::Regiment(q) | Toll::Rebellion { province: q, .. } => {
                if self.at_stake(s, seat, t) {
                    s.provinces[usize::from(q)].regiment = None;
                }
                vec![Event::public(format!("{name} loses its regiment in {}.", d.province_name(q)))]
            }
            Toll::Revolution { liberal } => vec![self.revolt(s, seat, liberal, rng)],
        }
    }

    /// Carries out the answer to an owed choice (checked by the caller).
    pub(super) fn settle(&self, s: &mut State, p: Pending, a: &Action, rng: &mut GameRng) -> Vec<Event> {
        let d = self.data();
        let seat = usize::from(p.seat);
        let name = self.power_name(s, seat);
        let me = usize::from(s.players[seat].power);
        match (p.choice, a) {
            (Choice::Deficit { food }, Action::Feed) => {
                let mut owed = food;
                for h in s.players[seat].cards.iter_mut() {
                    let take = h.res[F].min(owed);
                    h.res[F] -= take;
                    owed -= take;
                }
                vec![Event::public(format!(
                    "{name} pays its food deficit of {food} with food from its cards."
                ))]
            }
            (Choice::Deficit { food }, Action::Sacrifice(q)) => {
                s.provinces[usize::from(*q)].pops[me] -= 1;
                vec![Event::public(format!(
                    "{name} sacrifices a pop in {} to its food deficit of {food}.",
                    d.province_name(*q)
                ))]
            }
            (Choice::Upkeep { republic }, Action::DiscardAdmin(c)) => {
                if let Some(i) = s.players[seat].admin.iter().position(|x| x == c) {
                    s.players[seat].admin.remove(i);
                    s.admin_discard.push(*c);
                }
                let card = &d.admin[usize::from(*c)].name;
                if !republic {
                    let mut ev =
                        vec![Event::public(format!("{name} discards {card} for its Command Economy."))];
                    ev.extend(self.after_upkeep(s, seat));
                    return ev;
                }
                let mut ev = vec![Event::public(format!("{name}'s Republic discards {card}."))];
                ev.extend(self.pass_turn(s, p.seat, rng));
                ev
            }
            (Choice::Toll(t), Action::Pay(cards)) => {
                let admin = matches!(t, Toll::Revolution { liberal: false });
                let hand = if admin { &mut s.players[seat].admin } else { &mut s.players[seat].military };
                for c in cards {
                    if let Some(i) = hand.iter().position(|x| x == c) {
                        hand.remove(i);
                    }
                }
                let names: Vec<&str> = cards
                    .iter()
                    .map(|c| {
                        if admin { &d.admin[usize::from(*c)].name } else { &d.military[usize::from(*c)].name }
                    })
                    .map(String::as_str)
                    .collect();
                if admin {
                    s.admin_discard.extend(cards.iter().copied());
                } else {
                    s.military_discard.extend(cards.iter().copied());
                }
                vec![Event::public(format!("{name} discards {}.", names.join(", ")))]
            }
            (Choice::Toll(t), _) => self.lose_toll(s, seat, t, rng),
            (Choice::StartMove, Action::MovePop { from, to }) => {
                self.move_pop(s, seat, *from, *to);
                let mut ev = vec![Event::public(format!(
                    "{name}'s Command Economy moves a pop from {} to {}.",
                    d.province_name(*from),
                    d.province_name(*to)
                ))];
                ev.extend(self.collect(s, seat));
                ev
            }
            (Choice::StartMove, _) => self.collect(s, seat),
            _ => Vec::new(),
        }
    }

    /// After Command Economy's admin card: its pop move when one is possible, else the
    /// collection (FACTS §4.1: "discard 1 admin card, then may move 1 pop"; RULING E22).
    fn after_upkeep(&self, s: &mut State, seat: usize) -> Vec<Event> {
        let p = Pending { seat: seat as u8, choice: Choice::StartMove };
        if self.owed_options(s, p).is_some_and(|v| v.len() > 1) {
            s.pending.insert(0, p);
            return Vec::new();
        }
        self.collect(s, seat)
    }

    /// The name of the global event card with this effect.
    pub(super) fn event_name(&self, e: GlobalEvent) -> &str {
        self.data().events.iter().find(|c| c.effect == e).map(|c| c.name.as_str()).unwrap_or("the event")
    }
}

/// The order that answers a toll, for the announcement.
fn toll_order(g: &R1800, t: Toll) -> String {
    match t {
        Toll::Route(_) => format!("EVENT {} PAY / LOSE", g.event_name(GlobalEvent::UnrestOverseas)),
        Toll::Regiment(_) => format!("EVENT {} PAY / LOSE", g.event_name(GlobalEvent::UnrestAtHome)),
        Toll::Revolution { liberal: true } => {
            format!("EVENT {} PAY / ACCEPT", g.event_name(GlobalEvent::LiberalRevolution))
        }
        Toll::Revolution { liberal: false } => {
            format!("EVENT {} PAY / ACCEPT", g.event_name(GlobalEvent::RisingFascism))
        }
        Toll::Rebellion { .. } => "REBELLION PAY / LOSE".into(),
    }
}
