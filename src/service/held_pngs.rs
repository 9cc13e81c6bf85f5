//! The PNGs of the drawings rendered or read last, held in memory (issue 38, RULING O29): the
//! report mails of one turn show the same drawings and go out one after another, so each PNG —
//! about a megabyte for an 1835 map part — is read from the database once per process instead
//! of once per mail. A drawing's PNG never changes (it is kept under the SHA-256 of its SVG,
//! RULING O25), so what is held is never stale; it is forgotten when drawings are removed after
//! the retention period (RULING O27), so nothing outlives its drawing here either. Bounded by
//! bytes: the drawings held longest go first. With each PNG its base64 lines as a mail carries
//! them, made once for all the mails that show it (RULING O29).

use crate::draw::DrawingKey;
use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex, OnceLock};

/// The bytes held at most (PNGs and their base64 lines): an 1835 game's three parts are ≈ 0.8 MB
/// of PNG and 1.1 MB of base64, and the mail worker sends four batches of ten mails at once.
pub const HELD_BYTES: usize = 48 << 20;

/// A drawing's PNG, and its base64 lines as a mail carries the picture (made on first use).
#[derive(Debug)]
pub struct Picture {
    png: Vec<u8>,
    lines: OnceLock<Option<Vec<u8>>>,
}

impl PartialEq for Picture {
    /// The same picture: the same PNG (the lines are made from it).
    fn eq(&self, other: &Picture) -> bool {
        self.png == other.png
    }
}

impl Picture {
    /// The picture of these PNG bytes.
    pub fn new(png: Vec<u8>) -> Picture {
        Picture { png, lines: OnceLock::new() }
    }

    /// The PNG.
    pub fn png(&self) -> &[u8] {
        &self.png
    }

    /// The PNG in base64, in lines of 76 characters each ended by CRLF — byte for byte what the
    /// mail library writes for a binary part (`email-encoding`, lettre's own encoder) — made
    /// once however many mails carry it. `None` only if the encoder failed.
    pub fn base64_lines(&self) -> Option<&[u8]> {
        self.lines
            .get_or_init(|| {
                let mut out =
                    String::with_capacity(email_encoding::body::base64::encoded_len(self.png.len()));
                email_encoding::body::base64::encode(&self.png, &mut out).ok().map(|()| out.into_bytes())
            })
            .as_deref()
    }

    /// The bytes it holds, its base64 lines counted whether made yet or not.
    pub fn weight(&self) -> usize {
        self.png.len() + email_encoding::body::base64::encoded_len(self.png.len())
    }
}

/// PNGs by drawing, the oldest forgotten first once they hold more than a budget of bytes.
#[derive(Debug)]
pub struct HeldPngs {
    budget: usize,
    inner: Mutex<Held>,
}

#[derive(Debug, Default)]
struct Held {
    pngs: HashMap<DrawingKey, Arc<Picture>>,
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
    /// Holding at most `budget` bytes ([`Picture::weight`]; a larger picture is never held).
    pub fn new(budget: usize) -> Self {
        HeldPngs { budget, inner: Mutex::new(Held::default()) }
    }

    fn held(&self) -> std::sync::MutexGuard<'_, Held> {
        // A panic elsewhere while holding the lock leaves the maps consistent (each change is
        // made whole before the guard drops): go on with them.
        self.inner.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// The picture of drawing `key`, if held.
    pub fn get(&self, key: &DrawingKey) -> Option<Arc<Picture>> {
        self.held().pngs.get(key).cloned()
    }

    /// Holds `picture` as drawing `key`'s, forgetting the oldest held while the budget is
    /// exceeded.
    pub fn put(&self, key: DrawingKey, picture: &Arc<Picture>) {
        let weight = picture.weight();
        if weight > self.budget {
            return;
        }
        let mut h = self.held();
        if h.pngs.contains_key(&key) {
            return;
        }
        h.bytes += weight;
        h.pngs.insert(key, picture.clone());
        h.order.push_back(key);
        while h.bytes > self.budget {
            let Some(old) = h.order.pop_front() else { break };
            if let Some(gone) = h.pngs.remove(&old) {
                h.bytes -= gone.weight();
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

    fn picture(n: u8, len: usize) -> Arc<Picture> {
        Arc::new(Picture::new(vec![n; len]))
    }

    /// What a picture of `len` PNG bytes weighs.
    fn weight(len: usize) -> usize {
        picture(0, len).weight()
    }

    #[test]
    fn a_held_png_is_given_back_for_its_drawing_only() {
        let held = HeldPngs::new(100);
        held.put(key(1), &picture(1, 10));
        assert_eq!(held.get(&key(1)).map(|p| p.png().to_vec()), Some(vec![1; 10]));
        assert!(held.get(&key(2)).is_none());
    }

    #[test]
    fn the_oldest_pngs_are_forgotten_once_the_budget_is_exceeded() {
        let held = HeldPngs::new(weight(10) * 5 / 2);
        for n in 1..=3 {
            held.put(key(n), &picture(n, 10));
        }
        assert!(held.get(&key(1)).is_none(), "the oldest goes first");
        assert!(held.get(&key(2)).is_some() && held.get(&key(3)).is_some());
        assert_eq!(held.bytes(), 2 * weight(10));
        held.put(key(4), &picture(4, 30));
        assert!(held.get(&key(4)).is_none(), "a picture larger than the budget is never held");
        assert_eq!(held.bytes(), 2 * weight(10));
    }

    #[test]
    fn holding_a_drawing_twice_counts_its_bytes_once_and_forgetting_all_empties_it() {
        let held = HeldPngs::new(100);
        held.put(key(1), &picture(1, 10));
        held.put(key(1), &picture(1, 10));
        assert_eq!(held.bytes(), weight(10));
        held.forget_all();
        assert!(held.get(&key(1)).is_none());
        assert_eq!(held.bytes(), 0);
    }

    #[test]
    fn a_pictures_base64_lines_are_what_the_mail_library_writes_for_its_bytes() {
        // RULING O29: made once, the same bytes lettre's own encoding gives a binary body.
        let png: Vec<u8> = (0..=255u8).cycle().take(1000).collect();
        let p = Picture::new(png.clone());
        let body = lettre::message::Body::new(png);
        assert_eq!(body.encoding(), lettre::message::header::ContentTransferEncoding::Base64);
        assert_eq!(p.base64_lines(), Some(body.as_ref()));
        assert_eq!(p.weight(), 1000 + body.len());
    }
}
