//! Receipt digests for sealed orders.
//!
//! Orders are sealed line by line (RULING P3): each order line gets a fresh random salt, its
//! hash is `hex(SHA-256(salt_hex || "\n" || canonical_line))`, and the receipt digest of the
//! version is `hex(SHA-256(line_hash_1 || "\n" || line_hash_2 || …))` (the hex line hashes
//! joined by newlines; no lines: SHA-256 of nothing). The player gets the digest at once. When
//! the turn is published everyone gets every line's hash, and the text and salt of the lines the
//! engine calls public, so anyone can check that no sheet was changed after it was sealed while
//! a hidden line (its salt secret) cannot be guessed from its hash.
//!
//! Versions stored before line sealing carry one salt over the whole canonical text
//! ([`receipt_digest`]); they are published as their digest only.

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

fn sha256_hex(parts: &[&[u8]]) -> String {
    let mut h = Sha256::new();
    for p in parts {
        h.update(p);
    }
    data_encoding::HEXLOWER.encode(&h.finalize())
}

/// The old scheme's receipt digest of a whole canonical order text under one salt.
pub fn receipt_digest(salt_hex: &str, canonical: &str) -> String {
    sha256_hex(&[salt_hex.as_bytes(), b"\n", canonical.as_bytes()])
}

/// The hash of one sealed order line.
pub fn line_hash(salt_hex: &str, line: &str) -> String {
    sha256_hex(&[salt_hex.as_bytes(), b"\n", line.as_bytes()])
}

/// The receipt digest of a version sealed line by line, from its line hashes in order.
pub fn sheet_digest<S: AsRef<str>>(hashes: &[S]) -> String {
    let joined: Vec<&str> = hashes.iter().map(AsRef::as_ref).collect();
    sha256_hex(&[joined.join("\n").as_bytes()])
}

/// A version sealed line by line: one fresh salt per line, and the receipt digest.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SealedLines {
    pub salts: Vec<String>,
    pub digest: String,
}

/// Seals canonical order lines, each under a fresh salt.
pub fn seal_lines<S: AsRef<str>>(lines: &[S]) -> SealedLines {
    let salts: Vec<String> = lines.iter().map(|_| new_salt()).collect();
    let hashes: Vec<String> = salts.iter().zip(lines).map(|(s, l)| line_hash(s, l.as_ref())).collect();
    SealedLines { digest: sheet_digest(&hashes), salts }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_digest_is_sha256_of_salt_newline_text() {
        // sha256("ab\nPLAY 7H NORTH"), computed independently with `printf 'ab\nPLAY 7H NORTH' | sha256sum`.
        assert_eq!(receipt_digest("ab", "PLAY 7H NORTH"), PINNED);
        assert_eq!(line_hash("ab", "PLAY 7H NORTH"), PINNED);
    }
    const PINNED: &str = "a5fe6da75db5f6fa17ea7ae694459947fe785cdd3dd6b90b0c0131109136e2c9";

    #[test]
    fn a_sheet_digest_is_sha256_of_the_line_hashes_joined_by_newlines() {
        // `printf 'aa\nbb' | sha256sum` and `printf '' | sha256sum`.
        assert_eq!(
            sheet_digest(&["aa", "bb"]),
            "80c0d5c7137871baa75af2038f350bf60a4d45a131a653d0eb93f3cda3d28609"
        );
        assert_eq!(
            sheet_digest::<&str>(&[]),
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
        );
    }

    #[test]
    fn sealed_lines_get_their_own_salts_and_the_digest_covers_every_line() {
        let sealed = seal_lines(&["CLAIM 7H NORTH", "DRAW"]);
        assert_eq!(sealed.salts.len(), 2);
        assert_ne!(sealed.salts[0], sealed.salts[1]);
        let hashes: Vec<String> =
            sealed.salts.iter().zip(["CLAIM 7H NORTH", "DRAW"]).map(|(s, l)| line_hash(s, l)).collect();
        assert_eq!(sealed.digest, sheet_digest(&hashes));
    }

    #[test]
    fn different_salts_give_different_digests() {
        assert_ne!(receipt_digest(&new_salt(), "X"), receipt_digest(&new_salt(), "X"));
    }
}
