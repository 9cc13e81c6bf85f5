//! A sale that passes a presidency ("dumping" it), carried out as Rails does, for games that
//! follow Rails' certificate choices (option `presidency_swap` = `single_shares_first`; issue
//! 33, RULING K94). Rails sells the part of the sale up to the director's percentage out of the
//! director's certificate: the new president's certificates of that percentage (single shares
//! first, K10) go to the pool, the rest of the sale from the seller's own certificates of the size
//! sold, and when the sale is smaller than the director's certificate the old president takes
//! the difference back from the pool in the fewest certificates. The director's certificate goes
//! to the new president. Percentages and cash are those of the other way (swap, then sell); the
//! certificates that end in the pool and with the seller are Rails'.

use super::R1835;
use super::holdings::picks;
use super::options::PresidencySwap;
use super::state::{Loc, State};
use crate::engine::Event;

/// The certificates a Rails sale with a presidency change moves (indices into the company's
/// certificates).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Dump {
    /// The seller's own certificates of the size sold: to the pool.
    own: Vec<usize>,
    /// The new president's certificates for the director's: to the pool.
    handed: Vec<usize>,
    /// Taken back from the pool by the old president (the sale was smaller than the director's).
    returned: Vec<usize>,
}

impl R1835 {
    /// How Rails carries out seat `p`'s sale of `count` certificates of `percent` of company `co`
    /// that hands the presidency to seat `q`, or `None` where Rails' way cannot be carried out
    /// (the seller lacks certificates of that size beyond the director's share of the sale, or the
    /// pool cannot give back the difference).
    pub(crate) fn rails_dump(
        &self,
        s: &State,
        co: usize,
        (p, q): (u8, u8),
        count: u8,
        percent: u8,
    ) -> Option<Dump> {
        let certs = &s.majors[co].certs;
        let d = self.data.majors[co].director_percent();
        let total = u16::from(count) * u16::from(percent);
        let from_director = total.min(u16::from(d));
        let rest = total - from_director;
        if percent == 0 || rest % u16::from(percent) != 0 {
            return None;
        }
        let want = usize::from(rest / u16::from(percent));
        let own: Vec<usize> = (0..certs.len())
            .filter(|i| certs[*i].at == Loc::Player(p) && !certs[*i].director && certs[*i].percent == percent)
            .take(want)
            .collect();
        if own.len() < want {
            return None;
        }
        let handed = picks(certs, Loc::Player(q), d, PresidencySwap::SingleSharesFirst)?;
        let back = u8::try_from(u16::from(d) - from_director).ok()?;
        let returned = if back == 0 {
            Vec::new()
        } else {
            let mut after = certs.clone();
            for i in &handed {
                after[*i].at = Loc::Pool;
            }
            picks(&after, Loc::Pool, back, PresidencySwap::Fewest)?
        };
        Some(Dump { own, handed, returned })
    }

    /// Carries out a `rails_dump`: the certificates move, the director's certificate goes to `q`.
    pub(crate) fn carry_out_dump(&self, s: &mut State, co: usize, (p, q): (u8, u8), dump: &Dump) -> Event {
        let c = &mut s.majors[co];
        let named = |ix: &[usize], c: &super::state::Company| -> String {
            let v: Vec<String> = ix.iter().map(|i| format!("{} %", c.certs[*i].percent)).collect();
            v.join(" + ")
        };
        let (handed, returned) = (named(&dump.handed, c), named(&dump.returned, c));
        for i in &dump.handed {
            c.certs[*i].at = Loc::Pool;
        }
        for i in &dump.returned {
            c.certs[*i].at = Loc::Player(p);
        }
        for i in &dump.own {
            c.certs[*i].at = Loc::Pool;
        }
        let mut d = 0;
        for x in c.certs.iter_mut().filter(|x| x.director) {
            x.at = Loc::Player(q);
            d = x.percent;
        }
        let back = if returned.is_empty() {
            String::new()
        } else {
            format!(", seat {} takes back {returned}", p + 1)
        };
        Event::public(format!(
            "seat {} becomes president of {} (for the director's certificate of {d} % seat {} puts {handed} in the pool{back}; RULING K94)",
            q + 1,
            c.id,
            q + 1,
        ))
    }
}
