//! Secrets sealed in stored inbound mail (RULING M11): a signed reply address's tag or an
//! `ORDERS` line's token is stored as a placeholder of the same shape, and the message's row keeps,
//! for each placeholder written, the SHA-256 of the secret it replaced. The server checks a
//! placeholder by hashing the secret its key derives; a placeholder written by anyone else (copied
//! out of a dump into a new mail) is not in that mail's own list, so it counts as what it is, a
//! wrong secret. The list is the server's own record of what it replaced in that one message.

use crate::domain::{SecretToken, constant_time_eq};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

/// What a stored message's placeholders stand for (JSON column `inbound_messages.sealed`).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SealedSecrets(Vec<SealedSecret>);

/// One placeholder written into a stored message, and the SHA-256 (hex) of the secret it replaced.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SealedSecret {
    pub placeholder: String,
    pub sha256: String,
}

impl SealedSecrets {
    /// Records `secret` (any case) and returns its placeholder: as many lower-case base32
    /// characters as the secret has (at most 52), taken from a hash of it, so the address or line
    /// that held it keeps its shape.
    pub fn seal(&mut self, secret: &str) -> String {
        let secret = secret.trim().to_lowercase();
        let digest = Sha256::digest(format!("stationmaster sealed secret\n{secret}").as_bytes());
        let mut placeholder = data_encoding::BASE32_NOPAD.encode(&digest).to_lowercase();
        placeholder.truncate(secret.len());
        if !self.0.iter().any(|s| s.placeholder == placeholder) {
            self.0.push(SealedSecret { placeholder: placeholder.clone(), sha256: sha256_hex(&secret) });
        }
        placeholder
    }

    /// Whether nothing was sealed.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// Whether `placeholder` (any case) is one this message's own sealing wrote.
    pub fn is_placeholder(&self, placeholder: &str) -> bool {
        self.find(placeholder).is_some()
    }

    /// The SHA-256 (hex) of the secret `presented` stands for, as read from the stored message:
    /// the one it replaced when it is this message's placeholder, else its own (for a token, its
    /// [`SecretToken::hash`], what `seats.token_hash` holds).
    pub fn digest(&self, presented: &str) -> String {
        match self.find(presented) {
            Some(s) => s.sha256.clone(),
            None => SecretToken::presented(presented).hash(),
        }
    }

    /// Whether `presented`, as read from the stored message, stands for `expected` (compared in
    /// constant time).
    pub fn holds(&self, presented: &str, expected: &str) -> bool {
        constant_time_eq(&self.digest(presented), &sha256_hex(&expected.trim().to_lowercase()))
    }

    fn find(&self, placeholder: &str) -> Option<&SealedSecret> {
        let p = placeholder.trim().to_lowercase();
        self.0.iter().find(|s| s.placeholder == p)
    }
}

fn sha256_hex(s: &str) -> String {
    data_encoding::HEXLOWER.encode(&Sha256::digest(s.as_bytes()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_placeholder_stands_for_its_secret_only_in_the_list_that_sealed_it() {
        let mut sealed = SealedSecrets::default();
        let p = sealed.seal("ABCDEFGHIJKLMNOP");
        assert_eq!(p.len(), 16);
        assert!(p.chars().all(|c| c.is_ascii_lowercase() || ('2'..='7').contains(&c)));
        assert!(sealed.holds(&p.to_uppercase(), "abcdefghijklmnop"));
        assert!(!sealed.holds(&p, "abcdefghijklmnoq"));
        // Copied into another mail, the placeholder is a wrong secret like any other.
        assert!(!SealedSecrets::default().holds(&p, "abcdefghijklmnop"));
        // Written as it came (a message stored before sealing), a secret is checked as it is.
        assert!(SealedSecrets::default().holds("abcdefghijklmnop", "ABCDEFGHIJKLMNOP"));
    }

    #[test]
    fn a_sealed_token_has_the_hash_its_seat_row_keeps() {
        let token = "abcdefghijklmnopqrstuvwxyz234567abcdefghijklmnopqrst";
        let mut sealed = SealedSecrets::default();
        let p = sealed.seal(token);
        assert_eq!(p.len(), 52);
        assert_ne!(p, token);
        assert_eq!(sealed.digest(&p), SecretToken::presented(token).hash());
    }
}
