//! Names in orders resolved against the data: provinces, development, admin and military
//! cards, powers, overseas routes, and a card of your tableau (`#3` or its name), each with a
//! reason a player can read when nothing is called that.

use super::super::R1800;
use super::super::data::fold;
use super::{CardRef, bad, split_word};
use crate::engine::OrderError;

impl R1800 {
    pub(super) fn two(&self, t: &str) -> Result<(u16, u16), OrderError> {
        let (a, b) = split_word(t, "TO").ok_or_else(|| bad("name two provinces: <from> TO <to>"))?;
        Ok((self.province(a)?, self.province(b)?))
    }

    pub(super) fn province(&self, n: &str) -> Result<u16, OrderError> {
        self.data().province_named(n).ok_or_else(|| bad(format!("there is no province {:?}", n.trim())))
    }
    pub(super) fn dev(&self, n: &str) -> Result<u16, OrderError> {
        self.data().dev_named(n).ok_or_else(|| bad(format!("there is no development card {:?}", n.trim())))
    }
    pub(super) fn admin(&self, n: &str) -> Result<u8, OrderError> {
        self.data().admin_named(n).ok_or_else(|| bad(format!("there is no admin card {:?}", n.trim())))
    }
    pub(super) fn military(&self, n: &str) -> Result<u8, OrderError> {
        let want = fold(n);
        self.data()
            .military
            .iter()
            .position(|c| fold(&c.name) == want)
            .map(|i| i as u8)
            .ok_or_else(|| bad(format!("there is no military card {:?}", n.trim())))
    }
    pub(super) fn power(&self, n: &str) -> Result<usize, OrderError> {
        let want = fold(n);
        self.data()
            .powers
            .iter()
            .position(|p| fold(&p.name) == want || fold(&p.code) == want)
            .ok_or_else(|| bad(format!("there is no power {:?}", n.trim())))
    }
    pub(super) fn route(&self, n: &str) -> Result<u8, OrderError> {
        let want = fold(n);
        self.data()
            .routes
            .iter()
            .position(|r| fold(r) == want || fold(r).starts_with(&want) && !want.is_empty())
            .map(|i| i as u8)
            .ok_or_else(|| bad(format!("there is no overseas route {:?}", n.trim())))
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
