//! Receipt digests for sealed orders.
//!
//! Each order version gets a fresh random salt; its receipt is
//! `hex(SHA-256(hex(salt) || "\n" || canonical_text))`. The player gets the digest at once; the
//! salt and canonical text are published with the turn's result, so every player can check that
//! nobody (the GM included) changed any seat's orders after they were sealed.

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

/// What a player keeps as proof of a submission.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Receipt {
    pub version: i32,
    pub digest: String,
}

/// A fresh random salt, hex-encoded (16 bytes from the OS).
pub fn new_salt() -> String {
    let bytes: [u8; 16] = rand::random();
    data_encoding::HEXLOWER.encode(&bytes)
}

/// The receipt digest of a canonical order text under a salt.
pub fn receipt_digest(salt_hex: &str, canonical: &str) -> String {
    let mut h = Sha256::new();
    h.update(salt_hex.as_bytes());
    h.update(b"\n");
    h.update(canonical.as_bytes());
    data_encoding::HEXLOWER.encode(&h.finalize())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_digest_is_sha256_of_salt_newline_text() {
        // sha256("ab\nPLAY 7H NORTH"), computed independently with `printf 'ab\nPLAY 7H NORTH' | sha256sum`.
        assert_eq!(receipt_digest("ab", "PLAY 7H NORTH"), PINNED);
    }
    const PINNED: &str = "a5fe6da75db5f6fa17ea7ae694459947fe785cdd3dd6b90b0c0131109136e2c9";

    #[test]
    fn different_salts_give_different_digests() {
        assert_ne!(receipt_digest(&new_salt(), "X"), receipt_digest(&new_salt(), "X"));
    }
}
