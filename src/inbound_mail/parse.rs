//! Parsing a raw message with `mail-parser`: never fails — what cannot be read is simply absent.

use super::body::{SetAside, read_body};
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
    /// The domain DMARC judged (its `header.from`), lower-cased, when it named one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dmarc_from: Option<String>,
    /// The domains of the DKIM signatures that passed (their `header.d`), lower-cased.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub dkim_pass: Vec<String>,
    /// The domain SPF checked (its `smtp.mailfrom`, the part after `@`), lower-cased.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub spf_domain: Option<String>,
}

impl AuthResults {
    /// Whether a mail from `from` passed: DMARC's verdict when it gave one (`pass` or `fail`),
    /// else a DKIM or SPF `pass` for the From address's own domain (RULINGS M3, M10). A DMARC verdict counts only for the domain of
    /// `from`: one that judged another domain (or a pass that named none) means our MTA read another From
    /// than we did, and the mail is not trusted whatever it says (RULING M8). `Err` says why
    /// not, in words for the player.
    pub fn verdict(&self, from: &str) -> Result<(), String> {
        let is = |r: &Option<String>, v: &str| r.as_deref() == Some(v);
        let domain = from.rsplit_once('@').map_or("", |(_, d)| d.trim());
        let judged = match self.dmarc_from.as_deref() {
            Some(d) => !domain.is_empty() && d.eq_ignore_ascii_case(domain),
            // A pass must say what it passed; other verdicts decide nothing on their own.
            None => self.dmarc.as_deref() != Some("pass"),
        };
        if !judged {
            return Err("our mail server's DMARC check was not for the domain of its From address".into());
        }
        // RULING M10: a DKIM signature or an SPF check speaks for the From address only when it
        // is for the From address's own domain.
        let own = |d: &str| !domain.is_empty() && d.eq_ignore_ascii_case(domain);
        let dkim = self.dkim_pass.iter().any(|d| own(d));
        let spf = is(&self.spf, "pass") && self.spf_domain.as_deref().is_some_and(own);
        match self.dmarc.as_deref() {
            Some("pass") => Ok(()),
            Some("fail") => Err("its sender's domain says it did not send it (DMARC failed)".into()),
            _ if dkim || spf => Ok(()),
            _ if !self.dkim_pass.is_empty() || is(&self.spf, "pass") => Err(
                "our mail server verified it only for another domain than its From address's (DKIM or SPF)"
                    .into(),
            ),
            _ => Err(format!(
                "our mail server could not verify that it came from its sender (DKIM {}, SPF {})",
                self.dkim.as_deref().unwrap_or("none"),
                self.spf.as_deref().unwrap_or("none")
            )),
        }
    }
}

/// Why a mail's From field is not one mailbox in one header, which RFC 5322 requires when there
/// is no Sender and DMARC requires always (RULING M8). Its `Display` is for the player.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FromProblem {
    /// More than one From header.
    SeveralHeaders(usize),
    /// One From header naming more than one address.
    SeveralAddresses(usize),
    /// A From written as a group (`name: address;`).
    Group,
}

impl std::fmt::Display for FromProblem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            FromProblem::SeveralHeaders(n) => {
                write!(f, "it has {n} From headers; a mail must have exactly one")
            }
            FromProblem::SeveralAddresses(n) => {
                write!(f, "its From header names {n} addresses; a mail must come from exactly one")
            }
            FromProblem::Group => {
                f.write_str("its From header is a group; a mail must come from exactly one address")
            }
        }
    }
}

/// What we read out of a message.
#[derive(Debug, Clone, PartialEq)]
pub struct ParsedMail {
    pub readable: bool,
    pub message_id: Option<String>,
    /// The From address, lower-cased (the last From header's first, as `mail-parser` reads it;
    /// see `from_problem` before trusting it).
    pub from: Option<String>,
    /// Why the From field is not exactly one address, if it is not.
    pub from_problem: Option<FromProblem>,
    /// To, Cc, Delivered-To and X-Original-To addresses, lower-cased.
    pub recipients: Vec<String>,
    pub subject: String,
    /// The body as text, with quoted replies and signatures removed.
    pub body: String,
    /// The runs of lines of the body taken for quote, forwarded message or signature (M22).
    pub set_aside: Vec<SetAside>,
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
                from_problem: None,
                recipients: Vec::new(),
                subject: String::new(),
                body: String::new(),
                set_aside: Vec::new(),
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
        let body = read_body(text.as_deref().unwrap_or_default());
        ParsedMail {
            readable: true,
            message_id: m.message_id().map(|s| s.trim().to_string()).filter(|s| !s.is_empty()),
            from: m.from().and_then(|a| a.first()).and_then(|a| a.address()).map(|s| s.trim().to_lowercase()),
            from_problem: from_problem(&m),
            recipients,
            subject: m.subject().unwrap_or_default().trim().to_string(),
            body: body.text,
            set_aside: body.set_aside,
            body_kind,
            attachments: m.attachment_count(),
            auth: authserv_id.and_then(|id| trusted_auth_results(&m, id)),
        }
    }
}

/// Counts From headers and the addresses they hold (RULING M8).
fn from_problem(m: &mail_parser::Message<'_>) -> Option<FromProblem> {
    let headers = m.headers_raw().filter(|(name, _)| name.eq_ignore_ascii_case("From")).count();
    if headers > 1 {
        return Some(FromProblem::SeveralHeaders(headers));
    }
    match m.from()? {
        mail_parser::Address::Group(_) => Some(FromProblem::Group),
        mail_parser::Address::List(list) if list.len() > 1 => Some(FromProblem::SeveralAddresses(list.len())),
        mail_parser::Address::List(_) => None,
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
        let mut words = rest.split_whitespace();
        let result = words.next().unwrap_or_default().to_ascii_lowercase();
        // `key=value` properties after the result, as `(key lower-cased, value lower-cased)`.
        let props: Vec<(String, String)> = words
            .clone()
            .filter_map(|w| w.split_once('='))
            .map(|(k, v)| (k.to_ascii_lowercase(), v.trim_matches(['"', ';']).to_ascii_lowercase()))
            .collect();
        let prop = |key: &str| props.iter().find(|(k, _)| k == key).map(|(_, v)| v.clone());
        match method.trim().to_ascii_lowercase().as_str() {
            "dkim" => {
                if result == "pass"
                    && let Some(d) = prop("header.d")
                {
                    out.dkim_pass.push(d);
                }
                out.dkim.get_or_insert(result);
            }
            "spf" if out.spf.is_none() => {
                out.spf_domain = prop("smtp.mailfrom")
                    .map(|m| m.rsplit_once('@').map_or(m.clone(), |(_, d)| d.to_string()));
                out.spf = Some(result);
            }
            "dmarc" if out.dmarc.is_none() => {
                out.dmarc = Some(result);
                out.dmarc_from = words.find_map(|w| {
                    let (k, v) = w.split_once('=')?;
                    k.eq_ignore_ascii_case("header.from")
                        .then(|| v.trim_matches(['"', ';']).to_ascii_lowercase())
                });
            }
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

    /// Results with DMARC's verdict for example.org.
    fn results(dkim: Option<&str>, spf: Option<&str>, dmarc: Option<&str>) -> AuthResults {
        AuthResults {
            dkim: dkim.map(str::to_string),
            spf: spf.map(str::to_string),
            dmarc: dmarc.map(str::to_string),
            dmarc_from: dmarc.map(|_| "example.org".to_string()),
            dkim_pass: if dkim == Some("pass") { vec!["example.org".into()] } else { Vec::new() },
            spf_domain: spf.map(|_| "example.org".to_string()),
        }
    }

    #[test]
    fn ruling_m10_a_dkim_or_spf_pass_counts_only_for_the_from_domain() {
        // No DMARC verdict: the attacker's own domain signs and sends, the From is the player's.
        let evil = |dkim: Option<&str>, spf: Option<&str>| AuthResults {
            dkim_pass: dkim.map(|d| vec![d.to_string()]).unwrap_or_default(),
            dkim: dkim.map(|_| "pass".into()),
            spf: spf.map(|_| "pass".into()),
            spf_domain: spf.map(str::to_string),
            ..AuthResults::default()
        };
        let err = evil(Some("evil.test"), Some("evil.test")).verdict("anna@example.org").unwrap_err();
        assert!(err.contains("only for another domain"), "{err}");
        assert!(evil(Some("mail.example.org"), None).verdict("anna@example.org").is_err(), "a subdomain");
        assert!(evil(Some("evil.test"), Some("example.org")).verdict("anna@example.org").is_ok());
        assert!(evil(Some("Example.ORG"), None).verdict("anna@example.org").is_ok());
        // Of two signatures, the one for the From's domain counts.
        let two =
            AuthResults { dkim_pass: vec!["evil.test".into(), "example.org".into()], ..evil(None, None) };
        assert!(two.verdict("anna@example.org").is_ok());
    }

    #[test]
    fn the_domains_dkim_and_spf_checked_are_read_from_our_results() {
        let raw = MAIL.replace(
            "dkim=pass header.d=example.org; spf=pass smtp.mailfrom=example.org",
            "dkim=pass header.d=Evil.Test; dkim=fail header.d=x.test; dkim=pass header.d=example.org; spf=pass smtp.mailfrom=bounce@Evil.Test",
        );
        let a = ParsedMail::parse(raw.as_bytes(), Some("mx.sm.test")).auth.unwrap();
        assert_eq!(a.dkim_pass, vec!["evil.test".to_string(), "example.org".to_string()]);
        assert_eq!(a.spf_domain.as_deref(), Some("evil.test"));
        assert_eq!(a.dkim.as_deref(), Some("pass"));
    }

    #[test]
    fn a_mail_passes_on_dmarc_else_on_dkim_or_spf() {
        let r = |dkim, spf, dmarc| results(dkim, spf, dmarc).verdict("anna@example.org");
        assert!(r(Some("fail"), Some("fail"), Some("pass")).is_ok());
        assert!(r(Some("pass"), Some("pass"), Some("fail")).unwrap_err().contains("DMARC failed"));
        assert!(r(Some("pass"), Some("fail"), None).is_ok());
        assert!(r(Some("fail"), Some("pass"), Some("none")).is_ok());
        assert!(r(Some("fail"), Some("fail"), None).unwrap_err().contains("DKIM fail, SPF fail"));
        assert!(r(None, None, None).is_err());
    }

    #[test]
    fn a_dmarc_pass_counts_only_for_the_from_domain_it_names() {
        let pass = results(None, None, Some("pass"));
        assert!(pass.verdict("Anna@EXAMPLE.org").is_ok(), "the domain is compared without case");
        let other = AuthResults { dmarc_from: Some("evil.test".into()), ..pass.clone() };
        assert!(other.verdict("anna@example.org").unwrap_err().contains("not for the domain of its From"));
        let unnamed = AuthResults { dmarc_from: None, ..pass.clone() };
        assert!(unnamed.verdict("anna@example.org").is_err(), "a pass that names no domain");
        let sub = AuthResults { dmarc_from: Some("mail.example.org".into()), ..pass };
        assert!(sub.verdict("anna@example.org").is_err(), "another domain, even a subdomain");
        // Whatever its verdict, DMARC for another domain lets no DKIM or SPF pass stand in.
        let none =
            AuthResults { dmarc_from: Some("evil.test".into()), ..results(Some("pass"), None, Some("none")) };
        assert!(none.verdict("anna@example.org").is_err());
    }

    #[test]
    fn the_domain_dmarc_judged_is_read_from_our_results() {
        let raw = MAIL.replace("dmarc=pass", "dmarc=pass (p=none dis=none) header.from=Evil.Test");
        let a = ParsedMail::parse(raw.as_bytes(), Some("mx.sm.test")).auth.unwrap();
        assert_eq!(a.dmarc_from.as_deref(), Some("evil.test"));
        assert_eq!(ParsedMail::parse(MAIL.as_bytes(), Some("mx.sm.test")).auth.unwrap().dmarc_from, None);
    }

    #[test]
    fn a_from_that_is_not_one_address_in_one_header_is_a_problem() {
        let with = |from: &str| {
            let raw = format!("{from}To: x@sm.test\r\nSubject: s\r\n\r\nCLAIM 7H NORTH\r\n");
            ParsedMail::parse(raw.as_bytes(), None).from_problem
        };
        assert_eq!(with("From: A <a@example.org>\r\n"), None);
        assert_eq!(
            with("From: A <a@example.org>, Eve <eve@evil.test>\r\n"),
            Some(FromProblem::SeveralAddresses(2))
        );
        assert_eq!(
            with("From: Eve <eve@evil.test>\r\nFrom: A <a@example.org>\r\n"),
            Some(FromProblem::SeveralHeaders(2))
        );
        assert_eq!(with("From: Players: a@example.org;\r\n"), Some(FromProblem::Group));
        assert_eq!(with(""), None, "no From at all is another matter (no sender)");
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
