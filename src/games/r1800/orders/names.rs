//! Names in orders resolved against the data: provinces, development, admin and military
//! cards, powers, overseas routes, and a card of your tableau (`#3` or its name), each with a
//! reason a player can read when nothing is called that, and the nearest name when one is close
//! ("did you mean Silesia?").

use super::super::R1800;
use super::super::data::fold;
use super::super::state::NEUTRAL;
use super::{CardRef, bad, split_word};
use crate::engine::OrderError;
use crate::schedule::words::edit_distance;

/// ` (did you mean X?)` for the name nearest `given` among `names`, when one is near enough to be
/// a misspelling; empty otherwise.
pub(super) fn nearest<'a>(given: &str, names: impl IntoIterator<Item = &'a str>) -> String {
    let want = fold(given);
    if want.is_empty() {
        return String::new();
    }
    let reach = (want.len() / 4).clamp(1, 3);
    names
        .into_iter()
        .map(|n| (edit_distance(&want, &fold(n)), n))
        .filter(|(d, _)| *d <= reach)
        .min_by_key(|(d, _)| *d)
        .map(|(_, n)| format!(" (did you mean {n}?)"))
        .unwrap_or_default()
}

impl R1800 {
    pub(super) fn two(&self, t: &str) -> Result<(u16, u16), OrderError> {
        let (a, b) = split_word(t, "TO").ok_or_else(|| bad("name two provinces: <from> TO <to>"))?;
        Ok((self.province(a)?, self.province(b)?))
    }

    pub(super) fn province(&self, n: &str) -> Result<u16, OrderError> {
        let d = self.data();
        d.province_named(n).ok_or_else(|| {
            let near = nearest(n, d.provinces.iter().map(|p| p.name.as_str()));
            bad(format!("there is no province {:?}{near}", n.trim()))
        })
    }
    pub(super) fn dev(&self, n: &str) -> Result<u16, OrderError> {
        let d = self.data();
        d.dev_named(n).ok_or_else(|| {
            let near = nearest(n, d.dev.iter().map(|c| c.name.as_str()));
            bad(format!("there is no development card {:?}{near}", n.trim()))
        })
    }
    pub(super) fn admin(&self, n: &str) -> Result<u8, OrderError> {
        let d = self.data();
        d.admin_named(n).ok_or_else(|| {
            let near = nearest(n, d.admin.iter().map(|c| c.name.as_str()));
            bad(format!("there is no admin card {:?}{near}", n.trim()))
        })
    }
    /// A power, or `NEUTRAL`: whose pops (an index of a province's pops).
    pub(super) fn owner(&self, n: &str) -> Result<u8, OrderError> {
        if fold(n) == "neutral" { Ok(NEUTRAL as u8) } else { self.power(n).map(|i| i as u8) }
    }
    pub(super) fn military(&self, n: &str) -> Result<u8, OrderError> {
        let want = fold(n);
        self.data().military.iter().position(|c| fold(&c.name) == want).map(|i| i as u8).ok_or_else(|| {
            let near = nearest(n, self.data().military.iter().map(|c| c.name.as_str()));
            bad(format!("there is no military card {:?}{near}", n.trim()))
        })
    }
    pub(super) fn power(&self, n: &str) -> Result<usize, OrderError> {
        let want = fold(n);
        self.data().powers.iter().position(|p| fold(&p.name) == want || fold(&p.code) == want).ok_or_else(
            || {
                let near = nearest(n, self.data().powers.iter().map(|p| p.name.as_str()));
                bad(format!("there is no power {:?}{near}", n.trim()))
            },
        )
    }
    pub(super) fn route(&self, n: &str) -> Result<u8, OrderError> {
        let want = fold(n);
        self.data()
            .routes
            .iter()
            .position(|r| fold(r) == want || fold(r).starts_with(&want) && !want.is_empty())
            .map(|i| i as u8)
            .ok_or_else(|| {
                let near = nearest(n, self.data().routes.iter().map(String::as_str));
                bad(format!("there is no overseas route {:?}{near}", n.trim()))
            })
    }
    pub(super) fn card_ref(&self, n: &str) -> Result<CardRef, OrderError> {
        let n = n.trim();
        if let Some(k) = n.strip_prefix('#') {
            let k: u8 = k.trim().parse().map_err(|_| bad(format!("{n:?} is not a card number like #3")))?;
            return Ok(CardRef::Number(k));
        }
        self.dev(n).map(CardRef::Named)
    }
}
