//! Secret tokens (seat order links, GM login links, GM sessions).
//!
//! A token is 32 random bytes shown once as lower-case base32; only its SHA-256 is stored, so a
//! database leak does not reveal working links.

use sha2::{Digest, Sha256};

/// Stands for a seat's private order link wherever the link would be stored (RULING P8): stored
/// mail and reports, and seat links quoted in inbound mail. Filled with the reader's own link
/// when the mail is sent or the page shown (`service::mail_secrets`).
pub const SEAT_LINK: &str = "[your private order link]";

/// A secret as handed to its owner.
#[derive(Clone, PartialEq, Eq)]
pub struct SecretToken(String);

impl std::fmt::Debug for SecretToken {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("SecretToken(…)")
    }
}

impl SecretToken {
    /// A fresh random token from the OS RNG.
    pub fn generate() -> Self {
        let bytes: [u8; 32] = rand::random();
        SecretToken(data_encoding::BASE32_NOPAD.encode(&bytes).to_lowercase())
    }

    /// Wraps a token presented by a client (any text; checked by looking up its hash).
    pub fn presented(s: &str) -> Self {
        SecretToken(s.trim().to_lowercase())
    }

    /// The token text, for the one place it is shown (a link in a mail, the console output).
    pub fn reveal(&self) -> &str {
        &self.0
    }

    /// What is stored: hex SHA-256 of the token.
    pub fn hash(&self) -> String {
        data_encoding::HEXLOWER.encode(&Sha256::digest(self.0.as_bytes()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_are_random_and_only_their_hash_is_kept() {
        let a = SecretToken::generate();
        let b = SecretToken::generate();
        assert_ne!(a, b);
        assert_eq!(a.reveal().len(), 52);
        assert_eq!(SecretToken::presented(&a.reveal().to_uppercase()).hash(), a.hash());
        assert!(!format!("{a:?}").contains(a.reveal()));
    }
}
