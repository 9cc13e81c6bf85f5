//! Where outgoing mail goes: an SMTP server, or nowhere (kept in the outbox for the dev mailbox).

use anyhow::Context;
use lettre::message::Mailbox;
use lettre::{AsyncSmtpTransport, Tokio1Executor};

use crate::config::Settings;

/// Timeout for each SMTP command.
pub const SMTP_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(30);

/// Where outgoing mail goes.
#[derive(Debug, Clone)]
pub enum Transport {
    /// An SMTP server (relay or submission), with pooled connections.
    Smtp(AsyncSmtpTransport<Tokio1Executor>),
    /// No SMTP server configured: mail stays in the outbox, readable on the dev mailbox page.
    /// Nothing is sent and nothing is lost.
    Keep,
}

impl Transport {
    /// The transport the settings ask for: [`Transport::Keep`] without an SMTP URL, otherwise
    /// SMTP via [`Transport::from_url`]. Also checks that the From mailbox is valid, so a
    /// misconfiguration fails at start-up rather than on every mail. Call inside a Tokio runtime.
    pub fn from_settings(settings: &Settings) -> anyhow::Result<Transport> {
        settings.mail_from.parse::<Mailbox>().with_context(|| {
            format!(
                "STATIONMASTER_MAIL_FROM \"{}\" is not a mailbox like \"Name <addr@example.org>\"",
                settings.mail_from
            )
        })?;
        match settings.smtp_url.as_deref() {
            Some(url) if !settings.dev_mailbox() => Self::from_url(url),
            _ => Ok(Transport::Keep),
        }
    }

    /// An SMTP transport from a URL: `smtp://host:port` (plain, for a local relay),
    /// `smtp://host?tls=required` (STARTTLS), `smtps://user:pass@host` (implicit TLS), as
    /// understood by lettre's `AsyncSmtpTransport::from_url`. Call inside a Tokio runtime.
    pub fn from_url(url: &str) -> anyhow::Result<Transport> {
        let builder = AsyncSmtpTransport::<Tokio1Executor>::from_url(url.trim())
            .with_context(|| format!("invalid SMTP URL {}", crate::store::redact(url.trim())))?;
        Ok(Transport::Smtp(builder.timeout(Some(SMTP_TIMEOUT)).build()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn smtp_urls_become_transports_and_bad_ones_keep_their_password_secret() {
        for url in ["smtp://127.0.0.1:2525", "smtps://user:pw@mail.example.org", "smtp://h?tls=required"] {
            assert!(matches!(Transport::from_url(url), Ok(Transport::Smtp(_))), "{url}");
        }
        let err = Transport::from_url("smtp://user:hunter2@").expect_err("no host");
        assert!(!format!("{err:#}").contains("hunter2"), "{err:#}");
    }
}
