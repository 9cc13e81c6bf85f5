//! Mail addresses and "Name <address>" mailboxes, checked once at the edge.

use serde::{Deserialize, Serialize};
use std::fmt;
use thiserror::Error;

/// A syntactically plausible mail address, stored lower-cased (addresses are compared
/// case-insensitively throughout).
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct EmailAddress(String);

/// Why text is not a mail address or mailbox.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum EmailError {
    #[error("\"{0}\" is not a mail address (expected something like anna@example.org)")]
    Address(String),
    #[error("\"{0}\" is not a player (expected \"Name <anna@example.org>\")")]
    Mailbox(String),
}

impl EmailAddress {
    /// Parses an address such as `anna@example.org`.
    pub fn parse(s: &str) -> Result<Self, EmailError> {
        let t = s.trim();
        let bad = || EmailError::Address(t.chars().take(80).collect());
        let (local, domain) = t.rsplit_once('@').ok_or_else(bad)?;
        let ok_chars = |p: &str| {
            !p.is_empty()
                && p.chars().all(|c| !c.is_whitespace() && !c.is_control() && !"<>()[],;:\"@\\".contains(c))
        };
        if t.len() > 254
            || !ok_chars(local)
            || !ok_chars(domain)
            || domain.starts_with('.')
            || domain.ends_with('.')
        {
            return Err(bad());
        }
        Ok(EmailAddress(t.to_lowercase()))
    }

    /// The address as text.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl TryFrom<String> for EmailAddress {
    type Error = EmailError;
    fn try_from(s: String) -> Result<Self, Self::Error> {
        Self::parse(&s)
    }
}

impl From<EmailAddress> for String {
    fn from(e: EmailAddress) -> String {
        e.0
    }
}

impl fmt::Display for EmailAddress {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// A person with a mail address: `Anna Lang <anna@example.org>`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Mailbox {
    pub name: String,
    pub email: EmailAddress,
}

impl Mailbox {
    /// Parses `Name <address>`; a bare address is accepted with the local part as name.
    pub fn parse(s: &str) -> Result<Self, EmailError> {
        let t = s.trim();
        let bad = || EmailError::Mailbox(t.chars().take(80).collect());
        if let Some(open) = t.find('<') {
            let close = t.rfind('>').filter(|&c| c > open && c == t.len() - 1).ok_or_else(bad)?;
            let name = t[..open].trim().trim_matches('"').trim();
            let email = EmailAddress::parse(&t[open + 1..close])?;
            if name.is_empty() || name.len() > 100 || name.chars().any(char::is_control) {
                return Err(bad());
            }
            Ok(Mailbox { name: name.to_string(), email })
        } else {
            let email = EmailAddress::parse(t)?;
            let name = email.as_str().split('@').next().unwrap_or_default().to_string();
            Ok(Mailbox { name, email })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn addresses_are_lower_cased() {
        assert_eq!(EmailAddress::parse(" Anna@Example.ORG ").unwrap().as_str(), "anna@example.org");
    }

    #[test]
    fn nonsense_is_not_an_address() {
        for bad in ["", "anna", "@x", "a@", "a b@c", "a@b@", "a@.x", "<a@b>"] {
            assert!(EmailAddress::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn a_mailbox_has_a_name_and_an_address() {
        let m = Mailbox::parse("Anna Lang <anna@example.org>").unwrap();
        assert_eq!((m.name.as_str(), m.email.as_str()), ("Anna Lang", "anna@example.org"));
        assert_eq!(Mailbox::parse("bo@x.org").unwrap().name, "bo");
        assert!(Mailbox::parse("Anna <anna@example.org").is_err());
        assert!(Mailbox::parse(" <anna@example.org>").is_err());
    }
}
