//! The parts of the state whose rules live in their own modules: the Prussian's questions and
//! flags (`prussian` asks and answers them), the trains outside the companies (`trains::depot`
//! sells from them) and the Prussian moments a phase change leaves due (`trains::phase` records
//! them, `prussian` carries them out). Plain serializable data, as the rest of [`super::State`].

use serde::{Deserialize, Serialize};

/// A question put to a seat: form the Prussian (`paper` = M2) or exchange `paper`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Ask {
    pub seat: u8,
    pub paper: String,
}

/// The Prussian's part of the state (the whole is `Default` before the first 4).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct PrussianState {
    /// The first 4 has been bought: M2's owner may form the Prussian (FACTS §9).
    #[serde(default)]
    pub may_form: bool,
    /// The questions waiting, first = asked now.
    #[serde(default)]
    pub asks: Vec<Ask>,
    /// The questions were raised by a train purchase in the middle of an operating round, where
    /// HR 10's "no double benefit" applies.
    #[serde(default)]
    pub mid_or: bool,
    /// Formed in this operating round after M2 operated: it does not operate until the next
    /// one and its price is not adjusted (HR 10; RULING K47).
    #[serde(default)]
    pub sits_out: bool,
    /// Per seat, the percentage of the Prussian that earns no Prussian dividend in this
    /// operating round because the paper it came from already paid (HR 10; RULING K48).
    #[serde(default)]
    pub withheld: Vec<(u8, u8)>,
    /// Minors (index) that paid income in this operating round (noted by the dividend step).
    #[serde(default)]
    pub paid: Vec<u8>,
}

/// The trains outside the companies. The default (nothing sold, empty pool) is the set-up.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Depot {
    /// Per train type (data order): how many have left the bank, sold or rusted there. A
    /// missing entry is 0.
    #[serde(default)]
    pub sold: Vec<u8>,
    /// The trains in the bank pool, in the order they arrived.
    #[serde(default)]
    pub pool: Vec<String>,
    /// Trains that rusted: out of the game.
    #[serde(default)]
    pub rusted: u32,
}

impl Depot {
    /// How many trains of type `t` have left the bank.
    pub fn sold_of(&self, t: usize) -> u8 {
        self.sold.get(t).copied().unwrap_or(0)
    }

    /// Records that `k` trains of type `t` left the bank.
    pub fn add_sold(&mut self, t: usize, k: u8) {
        if self.sold.len() <= t {
            self.sold.resize(t + 1, 0);
        }
        if let Some(x) = self.sold.get_mut(t) {
            *x = x.saturating_add(k);
        }
    }
}

/// A Prussian moment reached by a phase change and not yet carried out (FACTS §9). The
/// formation and the exchanges belong to the Prussian's own part of the engine, which takes the
/// moments from `State::prussian_due`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PrussianMoment {
    /// The first 4: M2's owner may form the Prussian.
    MayForm,
    /// The first 4+4: the Prussian must form now.
    MustForm,
    /// The first 5: every remaining minor, BB and HB is exchanged.
    ForcedExchange,
}
