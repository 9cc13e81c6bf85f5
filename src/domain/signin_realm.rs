//! Where a mailed sign-in link and the session it opens lead: the GM's pages or a player's home
//! (issue 37, RULING W51). A link or session of one realm never opens the other.

use super::text_enum::text_enum;

text_enum! {
    /// The realm of a sign-in link and of a session (`gm_login_tokens.realm`, `gm_sessions.realm`).
    pub enum Realm {
        /// The GM's pages (`/gm`).
        Gm => "gm",
        /// A player's home: the list of the address's games and seats (`/home`).
        Home => "home",
    }
}

impl Realm {
    /// The kind of the outbox mail that carries a sign-in link of this realm.
    pub fn mail_kind(self) -> &'static str {
        match self {
            Realm::Gm => "gm-login",
            Realm::Home => "home-login",
        }
    }

    /// The prefix of such a mail's idempotency key; the nonce its link is derived from follows.
    pub fn key_prefix(self) -> &'static str {
        match self {
            Realm::Gm => "gm-login:",
            Realm::Home => "home-login:",
        }
    }

    /// The path a sign-in link of this realm opens, before its token.
    pub fn link_path(self) -> &'static str {
        match self {
            Realm::Gm => "/gm/magic/",
            Realm::Home => "/home/magic/",
        }
    }

    /// The realm of a stored mail kind, if it carries a sign-in link.
    pub fn of_mail_kind(kind: &str) -> Option<Realm> {
        Realm::ALL.iter().copied().find(|r| r.mail_kind() == kind)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_realm_has_its_own_mail_kind_key_and_path() {
        assert_eq!(Realm::of_mail_kind("home-login"), Some(Realm::Home));
        assert_eq!(Realm::of_mail_kind("gm-login"), Some(Realm::Gm));
        assert_eq!(Realm::of_mail_kind("report"), None);
        assert_ne!(Realm::Gm.key_prefix(), Realm::Home.key_prefix());
        assert_ne!(Realm::Gm.link_path(), Realm::Home.link_path());
    }
}
