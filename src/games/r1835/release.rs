//! When a share company's IPO certificates become buyable (FACTS §2.4): the standard release
//! order from the data, and the changes of the Thompson variants (FACTS §4.3, HR 21).
//! Nothing can be bought from an IPO while the start packet is unsold (FACTS §2.4).

use super::R1835;
use super::data::Release;
use super::options::Variant;
use super::state::State;

impl R1835 {
    /// Whether the IPO of company `co` is open; `Err` says why not, for the player.
    pub(crate) fn ipo_open(&self, s: &State, co: usize) -> Result<(), String> {
        let id = &self.data.majors[co].id;
        if s.packet_open() {
            return Err(format!(
                "no IPO certificate can be bought until the start packet is sold (FACTS §2.4), so {id} is not on sale"
            ));
        }
        let open = match s.options.variant {
            Variant::Standard | Variant::Snake | Variant::Clemens => self.standard_release(s, co),
            Variant::FullThompson => self.full_thompson_release(s, co),
            Variant::HalfThompson => self.half_thompson_release(s, co),
        };
        open.map_err(|why| format!("{id}'s shares are not on sale yet: {why}"))
    }

    fn standard_release(&self, s: &State, co: usize) -> Result<(), String> {
        match &self.data.majors[co].release {
            Release::StartPacketSold => Ok(()),
            Release::SoldOut(list) => match list.iter().find(|c| !self.ipo_empty(s, **c)) {
                None => Ok(()),
                Some(c) => Err(format!(
                    "{} must first be sold out of the IPO ({} still has certificates there)",
                    self.names(list, " and "),
                    self.data.majors[*c].id
                )),
            },
            Release::SoldPercent { company, percent } => {
                if self.sold_percent(s, *company) >= u32::from(*percent) {
                    Ok(())
                } else if self.data.majors[co].prussian {
                    Err(format!(
                        "{}'s director's certificate must be sold first",
                        self.data.majors[*company].id
                    ))
                } else {
                    Err(format!("{percent} % of {} must be sold first", self.data.majors[*company].id))
                }
            }
        }
    }

    /// Full Thompson (TH rule 3; RULING K4): BY and SX open with the sold packet; once SX is
    /// sold out every other company but the Prussian is open; the Prussian's public shares
    /// open when the first director's certificate after SX's is bought.
    fn full_thompson_release(&self, s: &State, co: usize) -> Result<(), String> {
        let m = &self.data.majors[co];
        let sx = self.data.major_index("SX").unwrap_or(1);
        if m.group <= 1 {
            return Ok(());
        }
        if m.prussian {
            return if self.later_director_sold(s, |o| self.data.majors[o].group >= 2) {
                Ok(())
            } else {
                Err("a director's certificate of another company after SX must be bought first".into())
            };
        }
        if self.ipo_empty(s, sx) { Ok(()) } else { Err("SX must first be sold out of the IPO".into()) }
    }

    /// Half Thompson (TH rule 4; HR 21 "2-3-2"; RULING K4): the sales groups {BY, SX},
    /// {BA, WT, HE}, {MS, OL} open one after another, each once the previous group is sold out
    /// of the IPO, its companies in any order; the Prussian's public shares open when the first
    /// director's certificate of group 2 is bought, and do not hold back group 3.
    fn half_thompson_release(&self, s: &State, co: usize) -> Result<(), String> {
        let m = &self.data.majors[co];
        if m.prussian {
            return if self.later_director_sold(s, |o| self.data.majors[o].group == m.group) {
                Ok(())
            } else {
                Err(format!("a director's certificate of sales group {} must be bought first", m.group))
            };
        }
        let earlier: Vec<usize> = (0..self.data.majors.len())
            .filter(|o| !self.data.majors[*o].prussian && self.data.majors[*o].group < m.group)
            .collect();
        match earlier.iter().find(|o| !self.ipo_empty(s, **o)) {
            None => Ok(()),
            Some(_) => Err(format!(
                "the earlier sales groups ({}) must first be sold out of the IPO",
                self.names(&earlier, ", ")
            )),
        }
    }

    /// Whether a director's certificate of some non-Prussian company chosen by `which` is sold.
    fn later_director_sold(&self, s: &State, which: impl Fn(usize) -> bool) -> bool {
        (0..self.data.majors.len())
            .filter(|o| !self.data.majors[*o].prussian && which(*o))
            .any(|o| self.president(s, o).is_some())
    }

    fn names(&self, list: &[usize], sep: &str) -> String {
        list.iter().map(|c| self.data.majors[*c].id.as_str()).collect::<Vec<_>>().join(sep)
    }
}
