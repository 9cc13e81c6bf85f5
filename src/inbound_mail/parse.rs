//! Parsing a raw message with `mail-parser`: never fails — what cannot be read is simply absent.

use super::body::clean_body;
use super::html::html_to_text;
use mail_parser::{HeaderValue, MessageParser};
use serde::{Deserialize, Serialize};

/// Where the body text came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum BodyKind {
    Plain,
    /// HTML-only mail, converted to text.
    Html,
    /// No readable text part.
    None,
}

/// Authentication results our own MTA recorded (RFC 8601), when it carries our authserv-id.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct AuthResults {
    pub dkim: Option<String>,
    pub spf: Option<String>,
    pub dmarc: Option<String>,
}

impl AuthResults {
    /// Whether the mail passed: DMARC's verdict when it gave one (`pass` or `fail`), else a DKIM
    /// or SPF `pass` (RULING M3). `Err` says why not, in words for the player.
    pub fn verdict(&self) -> Result<(), String> {
        let is = |r: &Option<String>, v: &str| r.as_deref() == Some(v);
        match self.dmarc.as_deref() {
            Some("pass") => Ok(()),
            Some("fail") => Err("its sender's domain says it did not send it (DMARC failed)".into()),
            _ if is(&self.dkim, "pass") || is(&self.spf, "pass") => Ok(()),
            _ => Err(format!(
                "our mail server could not verify that it came from its sender (DKIM {}, SPF {})",
                self.dkim.as_deref().unwrap_or("none"),
                self.spf.as_deref().unwrap_or("none")
            )),
        }
    }
}

/// What we read out of a message.
#[derive(Debug, Clone, PartialEq)]
pub struct ParsedMail {
    pub readable: bool,
    pub message_id: Option<String>,
    /// The From address, lower-cased.
    pub from: Option<String>,
    /// To, Cc, Delivered-To and X-Original-To addresses, lower-cased.
    pub recipients: Vec<String>,
    pub subject: String,
    /// The body as text, with quoted replies and signatures removed.
    pub body: String,
    pub body_kind: BodyKind,
    pub attachments: usize,
    pub auth: Option<AuthResults>,
}

impl ParsedMail {
    /// Reads a raw message. `authserv_id` is our MTA's id; Authentication-Results headers with
    /// any other id are ignored (they may have been written by the sender).
    pub fn parse(raw: &[u8], authserv_id: Option<&str>) -> ParsedMail {
        let Some(m) = MessageParser::default().parse(raw) else {
            return ParsedMail {
                readable: false,
                message_id: None,
                from: None,
                recipients: Vec::new(),
                subject: String::new(),
                body: String::new(),
                body_kind: BodyKind::None,
                attachments: 0,
                auth: None,
            };
        };
        let addresses = |v: Option<&mail_parser::Address<'_>>| -> Vec<String> {
            v.map(|a| a.iter().filter_map(|x| x.address()).map(|s| s.trim().to_lowercase()).collect())
                .unwrap_or_default()
        };
        let mut recipients = addresses(m.to());
        recipients.extend(addresses(m.cc()));
        for name in ["Delivered-To", "X-Original-To"] {
            for v in m.header_values(name) {
                if let Some(t) = header_text(v) {
                    recipients.push(t.trim().trim_matches(['<', '>']).to_lowercase());
                }
            }
        }
        let (text, body_kind) =
            if m.text_body_count() > 0 && m.text_part(0).is_some_and(|p| p.is_text() && !p.is_text_html()) {
                (m.body_text(0).map(|t| t.into_owned()), BodyKind::Plain)
            } else if m.html_body_count() > 0 {
                (m.body_html(0).map(|h| html_to_text(&h)), BodyKind::Html)
            } else {
                (None, BodyKind::None)
            };
        let body_kind =
            if text.as_deref().is_some_and(|t| !t.trim().is_empty()) { body_kind } else { BodyKind::None };
        ParsedMail {
            readable: true,
            message_id: m.message_id().map(|s| s.trim().to_string()).filter(|s| !s.is_empty()),
            from: m.from().and_then(|a| a.first()).and_then(|a| a.address()).map(|s| s.trim().to_lowercase()),
            recipients,
            subject: m.subject().unwrap_or_default().trim().to_string(),
            body: clean_body(text.as_deref().unwrap_or_default()),
            body_kind,
            attachments: m.attachment_count(),
            auth: authserv_id.and_then(|id| trusted_auth_results(&m, id)),
        }
    }
}

fn header_text<'a>(v: &'a HeaderValue<'a>) -> Option<&'a str> {
    match v {
        HeaderValue::Text(t) => Some(t.as_ref()),
        HeaderValue::Address(a) => a.first().and_then(|x| x.address()),
        _ => None,
    }
}

/// The topmost Authentication-Results header, only if it carries our authserv-id (our MTA
/// prepends its own and must strip any with its id that came from outside).
fn trusted_auth_results(m: &mail_parser::Message<'_>, authserv_id: &str) -> Option<AuthResults> {
    let (_, raw) = m.headers_raw().find(|(name, _)| name.eq_ignore_ascii_case("Authentication-Results"))?;
    let unfolded = raw.replace(['\r', '\n'], " ");
    let mut parts = unfolded.split(';');
    let id = parts.next()?.split_whitespace().next()?;
    if !id.eq_ignore_ascii_case(authserv_id.trim()) {
        return None;
    }
    let mut out = AuthResults::default();
    for p in parts {
        let Some((method, rest)) = p.trim().split_once('=') else { continue };
        let result = rest.split_whitespace().next().unwrap_or_default().to_ascii_lowercase();
        match method.trim().to_ascii_lowercase().as_str() {
            "dkim" if out.dkim.is_none() => out.dkim = Some(result),
            "spf" if out.spf.is_none() => out.spf = Some(result),
            "dmarc" if out.dmarc.is_none() => out.dmarc = Some(result),
            _ => {}
        }
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    const MAIL: &str = "Authentication-Results: mx.sm.test; dkim=pass header.d=example.org; spf=pass smtp.mailfrom=example.org; dmarc=pass\r\n\
        Authentication-Results: mx.sm.test; dkim=fail\r\n\
        From: Anna <Anna@Example.org>\r\nTo: orders+x@sm.test\r\nSubject: orders\r\nMessage-ID: <m1@example.org>\r\n\r\nPLAY 7H NORTH\r\n";

    #[test]
    fn our_topmost_authentication_results_are_recorded() {
        let p = ParsedMail::parse(MAIL.as_bytes(), Some("mx.sm.test"));
        let a = p.auth.unwrap();
        assert_eq!(
            (a.dkim.as_deref(), a.spf.as_deref(), a.dmarc.as_deref()),
            (Some("pass"), Some("pass"), Some("pass"))
        );
    }

    #[test]
    fn authentication_results_from_another_authserv_id_are_ignored() {
        assert_eq!(ParsedMail::parse(MAIL.as_bytes(), Some("mx.other.test")).auth, None);
        assert_eq!(ParsedMail::parse(MAIL.as_bytes(), None).auth, None);
    }

    #[test]
    fn a_mail_passes_on_dmarc_else_on_dkim_or_spf() {
        let r = |dkim: Option<&str>, spf: Option<&str>, dmarc: Option<&str>| AuthResults {
            dkim: dkim.map(str::to_string),
            spf: spf.map(str::to_string),
            dmarc: dmarc.map(str::to_string),
        };
        assert!(r(Some("fail"), Some("fail"), Some("pass")).verdict().is_ok());
        assert!(r(Some("pass"), Some("pass"), Some("fail")).verdict().unwrap_err().contains("DMARC failed"));
        assert!(r(Some("pass"), Some("fail"), None).verdict().is_ok());
        assert!(r(Some("fail"), Some("pass"), Some("none")).verdict().is_ok());
        assert!(r(Some("fail"), Some("fail"), None).verdict().unwrap_err().contains("DKIM fail, SPF fail"));
        assert!(r(None, None, None).verdict().is_err());
    }

    #[test]
    fn an_html_only_mail_keeps_its_lines_and_drops_its_quote() {
        let raw = "From: a@x.org\r\nContent-Type: text/html; charset=utf-8\r\n\r\n\
            <div>CLAIM 2H NORTH ELSE DRAW</div><div>FINAL</div><blockquote>PLAY 7H NORTH</blockquote>";
        let p = ParsedMail::parse(raw.as_bytes(), None);
        assert_eq!((p.body.as_str(), p.body_kind), ("CLAIM 2H NORTH ELSE DRAW\nFINAL", BodyKind::Html));
    }

    #[test]
    fn addresses_and_ids_are_read() {
        let p = ParsedMail::parse(MAIL.as_bytes(), None);
        assert_eq!(p.from.as_deref(), Some("anna@example.org"));
        assert_eq!(p.message_id.as_deref(), Some("m1@example.org"));
        assert_eq!(p.recipients, vec!["orders+x@sm.test".to_string()]);
        assert_eq!((p.body.as_str(), p.body_kind), ("PLAY 7H NORTH", BodyKind::Plain));
    }
}
