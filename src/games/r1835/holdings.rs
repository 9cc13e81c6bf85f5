//! Who holds what: percentages, certificate counts and limits (FACTS §1, HR 20), money
//! transfers (every mark goes from one holder to another, so money is conserved), presidency
//! changes (FACTS §6) and floating with incremental capital (FACTS §2.2).

use super::R1835;
use super::options::PresidencySwap;
use super::state::{Cert, Entity, Loc, State};
use crate::engine::Event;

/// Who pays or is paid.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Holder {
    Bank,
    Player(u8),
    Major(usize),
    Minor(usize),
}

/// The value of `percent` of a company at `price` (quoted per 10 %; a 5 % paper is half).
pub fn value(price: i64, percent: u8) -> i64 {
    price * i64::from(percent) / 10
}

/// Moves `amount` from one holder to another. The bank may go below zero once it has broken:
/// what it could not pay counts for the payee (FACTS §13; RULING K13).
pub fn pay(s: &mut State, from: Holder, to: Holder, amount: i64) {
    *purse(s, from) -= amount;
    *purse(s, to) += amount;
}

fn purse(s: &mut State, h: Holder) -> &mut i64 {
    // Indices come from the state itself; an out-of-range index would be an engine defect and
    // lands on the bank rather than panicking (money stays conserved).
    match h {
        Holder::Player(p) if usize::from(p) < s.players.len() => &mut s.players[usize::from(p)].cash,
        Holder::Major(i) if i < s.majors.len() => &mut s.majors[i].cash,
        Holder::Minor(i) if i < s.minors.len() => &mut s.minors[i].cash,
        _ => &mut s.bank,
    }
}

impl R1835 {
    /// Percentage of company `co` held by seat `p`.
    pub(crate) fn percent_of(&self, s: &State, co: usize, p: u8) -> u32 {
        s.majors[co].certs.iter().filter(|c| c.at == Loc::Player(p)).map(|c| u32::from(c.percent)).sum()
    }

    /// Percentage of a company in the bank pool.
    pub(crate) fn pool_percent(&self, s: &State, co: usize) -> u32 {
        s.majors[co].certs.iter().filter(|c| c.at == Loc::Pool).map(|c| u32::from(c.percent)).sum()
    }

    /// Percentage that has left the IPO (held by players or in the pool).
    pub(crate) fn sold_percent(&self, s: &State, co: usize) -> u32 {
        s.majors[co]
            .certs
            .iter()
            .filter(|c| matches!(c.at, Loc::Player(_) | Loc::Pool))
            .map(|c| u32::from(c.percent))
            .sum()
    }

    /// The top certificate of the IPO stack (index), if any.
    pub(crate) fn ipo_top(&self, s: &State, co: usize) -> Option<usize> {
        s.majors[co].certs.iter().position(|c| c.at == Loc::Ipo)
    }

    /// No certificate of the company is left in the IPO (reserved Prussian ones do not count).
    pub(crate) fn ipo_empty(&self, s: &State, co: usize) -> bool {
        !s.majors[co].certs.iter().any(|c| matches!(c.at, Loc::Ipo | Loc::Packet))
    }

    /// The president (holder of the director's certificate), if a player holds it.
    pub(crate) fn president(&self, s: &State, co: usize) -> Option<u8> {
        s.majors[co].certs.iter().find(|c| c.director).and_then(|c| match c.at {
            Loc::Player(p) => Some(p),
            _ => None,
        })
    }

    /// Certificates counting against seat `p`'s limit: privates, minors, share certificates,
    /// each paper counting one whatever its percentage (FACTS §1, HR 20).
    pub(crate) fn cert_count(&self, s: &State, p: u8) -> u32 {
        let owner = Some(p);
        let privates = s.privates.iter().filter(|x| x.owner == owner && !x.closed).count();
        let minors = s.minors.iter().filter(|x| x.owner == owner && !x.closed).count();
        let shares: usize =
            s.majors.iter().map(|c| c.certs.iter().filter(|x| x.at == Loc::Player(p)).count()).sum();
        u32::try_from(privates + minors + shares).unwrap_or(u32::MAX)
    }

    /// Seat `p`'s certificate limit: by player count, +1 for each share company held at 80 %
    /// or more (FACTS §1).
    pub(crate) fn cert_limit(&self, s: &State, p: u8) -> u32 {
        let base = self.data.players_setup(s.n()).map(|x| u32::from(x.cert_limit)).unwrap_or(0);
        let bonus = (0..s.majors.len())
            .filter(|co| self.percent_of(s, *co, p) >= u32::from(self.data.cert_bonus_at))
            .count();
        base + u32::try_from(bonus).unwrap_or(0)
    }

    /// The player who would take the presidency from `holder` if `holder` held `remaining`
    /// percent: the one with the most, strictly more than `remaining`; ties go to the first to
    /// the left of `holder` (FACTS §6, RDL 11.3; RULING K10).
    pub(crate) fn challenger(&self, s: &State, co: usize, holder: u8, remaining: u32) -> Option<u8> {
        let mut best: Option<(u8, u32)> = None;
        for k in 1..s.n() {
            let q = s.left_of(holder, k);
            let pq = self.percent_of(s, co, q);
            if pq > remaining && best.is_none_or(|(_, b)| pq > b) {
                best = Some((q, pq));
            }
        }
        best.map(|(q, _)| q)
    }

    /// The ordinary certificates `giver` hands over for a director's certificate of `d` percent,
    /// or `None` if impossible, in the `style` of the option `presidency_swap` (RR §12.3; K10).
    pub(crate) fn swap_picks(
        &self,
        s: &State,
        co: usize,
        giver: u8,
        d: u8,
        style: PresidencySwap,
    ) -> Option<Vec<usize>> {
        picks(&s.majors[co].certs, Loc::Player(giver), d, style)
    }

    /// Hands the presidency from `old` to `new`: the director's certificate for ordinary
    /// certificates of the same total, chosen by `swap_picks` (FACTS §6; RULING K10).
    pub(crate) fn swap_presidency(
        &self,
        s: &mut State,
        co: usize,
        (old, new): (u8, u8),
        style: PresidencySwap,
    ) -> Option<Event> {
        let d = s.majors[co].certs.iter().find(|c| c.director).map(|c| c.percent)?;
        let picks = self.swap_picks(s, co, new, d, style)?;
        let handed: Vec<String> =
            picks.iter().map(|i| format!("{} %", s.majors[co].certs[*i].percent)).collect();
        for i in picks {
            s.majors[co].certs[i].at = Loc::Player(old);
        }
        for c in s.majors[co].certs.iter_mut().filter(|c| c.director) {
            c.at = Loc::Player(new);
        }
        Some(Event::public(format!(
            "seat {} becomes president of {} (seat {} receives {} for the director's certificate of {d} %)",
            new + 1,
            s.majors[co].id,
            old + 1,
            handed.join(" + ")
        )))
    }

    /// Changes the presidency if another player now holds strictly more than the president,
    /// the certificates changing hands as the game's option `presidency_swap` says.
    pub(crate) fn settle_presidency(&self, s: &mut State, co: usize, ev: &mut Vec<Event>) {
        self.settle_presidency_in(s, co, s.options.presidency_swap, ev);
    }

    /// `settle_presidency` with the certificates chosen in `style` (the Prussian's formation
    /// and exchanges always hand over the fewest: RULING K10).
    pub(crate) fn settle_presidency_in(
        &self,
        s: &mut State,
        co: usize,
        style: PresidencySwap,
        ev: &mut Vec<Event>,
    ) {
        let Some(p) = self.president(s, co) else { return };
        let mine = self.percent_of(s, co, p);
        if let Some(q) = self.challenger(s, co, p, mine) {
            ev.extend(self.swap_presidency(s, co, (p, q), style));
        }
    }

    /// Floats a share company once enough has left the IPO and it has a president: the bank
    /// pays par x the percentage sold into its treasury (incremental capital, FACTS §2.2).
    pub(crate) fn check_float(&self, s: &mut State, co: usize, ev: &mut Vec<Event>) {
        let m = &self.data.majors[co];
        if s.majors[co].floated || m.prussian || self.president(s, co).is_none() {
            return;
        }
        let needed = if m.id == "BY" { s.options.by_float_percent } else { m.float_percent };
        let sold = self.sold_percent(s, co);
        if sold < u32::from(needed) {
            return;
        }
        let capital = m.par * i64::from(sold) / 10;
        pay(s, Holder::Bank, Holder::Major(co), capital);
        self.note_bank(s);
        // BA waits for its first operation (HR 8) unless the game follows Rails (RULING K91).
        let home_now = !m.home_on_first_operation || s.options.baden_home_on_float;
        // The price marker enters the chart when the company floats (RR §11, Rails' "when
        // floated"), under the markers already on its space (RR §22): what counts for the
        // operating order on a shared space is when it floated, not when its par was set
        // (RULING K93).
        s.stamp += 1;
        let stamp = s.stamp;
        let c = &mut s.majors[co];
        c.stamp = stamp;
        c.floated = true;
        c.home_placed = home_now;
        ev.push(Event::public(format!(
            "{} floats with {sold} % sold and receives {capital} M from the bank",
            m.id
        )));
        if c.home_placed {
            // The home station goes on the board when the company floats (FACTS §7.5; BA: HR 8,
            // or with the others under the option `baden_home_on_float`).
            self.place_home(s, Entity::Major(u8::try_from(co).unwrap_or(u8::MAX)), ev);
        }
    }

    /// Moves the first certificate of `co` matching `pick` at `from` to `to`; returns its index.
    pub(crate) fn move_cert(
        &self,
        s: &mut State,
        co: usize,
        from: Loc,
        to: Loc,
        pick: impl Fn(&Cert) -> bool,
    ) -> Option<usize> {
        let i = s.majors[co].certs.iter().position(|c| c.at == from && pick(c))?;
        s.majors[co].certs[i].at = to;
        Some(i)
    }
}

/// The ordinary certificates at `at` (indices into `certs`) that add up to exactly `d` percent,
/// or `None` if none do, in the `style` of the option `presidency_swap` (RR §12.3; K10): the
/// fewest (largest first), or, as Rails does, single-share certificates (the company's smallest)
/// when `at` holds enough of them, else the fewest.
pub(crate) fn picks(certs: &[Cert], at: Loc, d: u8, style: PresidencySwap) -> Option<Vec<usize>> {
    let mut idx: Vec<usize> =
        (0..certs.len()).filter(|i| certs[*i].at == at && !certs[*i].director).collect();
    if style == PresidencySwap::SingleSharesFirst
        && let Some(unit) = certs.iter().filter(|c| !c.director).map(|c| c.percent).min()
        && unit > 0
        && d.is_multiple_of(unit)
    {
        let singles: Vec<usize> = idx.iter().copied().filter(|i| certs[*i].percent == unit).collect();
        let want = usize::from(d / unit);
        if singles.len() >= want {
            return Some(singles[..want].to_vec());
        }
    }
    idx.sort_by(|a, b| certs[*b].percent.cmp(&certs[*a].percent).then(a.cmp(b)));
    let mut need = d;
    let mut picked = Vec::new();
    for i in idx {
        if certs[i].percent <= need {
            need -= certs[i].percent;
            picked.push(i);
            if need == 0 {
                return Some(picked);
            }
        }
    }
    None
}
