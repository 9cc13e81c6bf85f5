//! The PNGs of the drawings rendered or read last, held in memory (issue 38, RULING O29): the
//! report mails of one turn show the same drawings and go out one after another, so each PNG —
//! about a megabyte for an 1835 map part — is read from the database once per process instead
//! of once per mail. A drawing's PNG never changes (it is kept under the SHA-256 of its SVG,
//! RULING O25), so what is held is never stale; it is forgotten when drawings are removed after
//! the retention period (RULING O27), so nothing outlives its drawing here either. Bounded by
//! bytes: the drawings held longest go first.

use crate::draw::DrawingKey;
use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex};

/// The bytes of PNGs held at most: an 1835 game's three parts are ≈ 1 MB, and the mail worker
/// sends four batches of ten mails at once — ten games' pictures at most.
pub const HELD_BYTES: usize = 32 << 20;

/// PNGs by drawing, the oldest forgotten first once they hold more than a budget of bytes.
#[derive(Debug)]
pub struct HeldPngs {
    budget: usize,
    inner: Mutex<Held>,
}

#[derive(Debug, Default)]
struct Held {
    pngs: HashMap<DrawingKey, Arc<Vec<u8>>>,
    /// The keys held, the oldest first.
    order: VecDeque<DrawingKey>,
    bytes: usize,
}

impl Default for HeldPngs {
    fn default() -> Self {
        HeldPngs::new(HELD_BYTES)
    }
}

impl HeldPngs {
    /// Holding at most `budget` bytes of PNGs (a PNG larger than that is never held).
    pub fn new(budget: usize) -> Self {
        HeldPngs { budget, inner: Mutex::new(Held::default()) }
    }

    fn held(&self) -> std::sync::MutexGuard<'_, Held> {
        // A panic elsewhere while holding the lock leaves the maps consistent (each change is
        // made whole before the guard drops): go on with them.
        self.inner.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// The PNG of drawing `key`, if held.
    pub fn get(&self, key: &DrawingKey) -> Option<Arc<Vec<u8>>> {
        self.held().pngs.get(key).cloned()
    }

    /// Holds a copy of `png` as drawing `key`'s, forgetting the oldest held while the budget is
    /// exceeded.
    pub fn put(&self, key: DrawingKey, png: &[u8]) {
        if png.len() > self.budget {
            return;
        }
        let mut h = self.held();
        if h.pngs.contains_key(&key) {
            return;
        }
        h.bytes += png.len();
        h.pngs.insert(key, Arc::new(png.to_vec()));
        h.order.push_back(key);
        while h.bytes > self.budget {
            let Some(old) = h.order.pop_front() else { break };
            if let Some(gone) = h.pngs.remove(&old) {
                h.bytes -= gone.len();
            }
        }
    }

    /// Forgets every PNG held (drawings were removed from the database).
    pub fn forget_all(&self) {
        *self.held() = Held::default();
    }

    /// How many bytes of PNGs are held.
    #[cfg(test)]
    pub fn bytes(&self) -> usize {
        self.held().bytes
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(n: u8) -> DrawingKey {
        DrawingKey([n; 32])
    }

    #[test]
    fn a_held_png_is_given_back_for_its_drawing_only() {
        let held = HeldPngs::new(100);
        held.put(key(1), &[1; 10]);
        assert_eq!(held.get(&key(1)).as_deref(), Some(&vec![1; 10]));
        assert_eq!(held.get(&key(2)), None);
    }

    #[test]
    fn the_oldest_pngs_are_forgotten_once_the_budget_is_exceeded() {
        let held = HeldPngs::new(25);
        for n in 1..=3 {
            held.put(key(n), &[n; 10]);
        }
        assert_eq!(held.get(&key(1)), None, "the oldest goes first");
        assert!(held.get(&key(2)).is_some() && held.get(&key(3)).is_some());
        assert_eq!(held.bytes(), 20);
        held.put(key(4), &[4; 30]);
        assert_eq!(held.get(&key(4)), None, "a PNG larger than the budget is never held");
        assert_eq!(held.bytes(), 20);
    }

    #[test]
    fn holding_a_drawing_twice_counts_its_bytes_once_and_forgetting_all_empties_it() {
        let held = HeldPngs::new(100);
        held.put(key(1), &[1; 10]);
        held.put(key(1), &[1; 10]);
        assert_eq!(held.bytes(), 10);
        held.forget_all();
        assert_eq!((held.get(&key(1)), held.bytes()), (None, 0));
    }
}
