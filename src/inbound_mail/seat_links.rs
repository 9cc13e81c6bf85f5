//! Seat links out of inbound mail before it is stored (RULING P8): a player who replies to a
//! report quotes its `/play/<token>` link, and the stored message would keep a live secret. Every
//! seat link — with the `http(s)://host` before it when it is whole — becomes
//! [`SEAT_LINK`](crate::domain::SEAT_LINK), the placeholder stored mail and reports
//! use; every other byte stays as it came. A link is found wherever [`super::rewrite`] looks: as
//! written in the message's bytes (a soft line break may fall anywhere in it) and in base64 parts
//! at any depth.

use super::rewrite::{match_soft, soft_break};
use crate::domain::SEAT_LINK;

/// A seat token: 52 base32 characters (the link path is `/play/<token>`).
pub(super) const TOKEN_LEN: usize = 52;
const PATH: &[u8] = b"/play/";

pub(super) fn is_token_char(b: u8) -> bool {
    matches!(b, b'a'..=b'z' | b'A'..=b'Z' | b'2'..=b'7')
}

/// The end of a seat link whose `/play/` starts at `at`, if one does.
fn link_end(s: &[u8], at: usize) -> Option<usize> {
    let path = match_soft(s, at, PATH.iter().map(|&p| move |b: u8| b.eq_ignore_ascii_case(&p)))?;
    let end = match_soft(s, path, (0..TOKEN_LEN).map(|_| is_token_char))?;
    // A longer run of letters and digits is not a token of ours.
    let next = end + soft_break(s, end);
    match s.get(next) {
        Some(b) if b.is_ascii_alphanumeric() => None,
        _ => Some(end),
    }
}

/// Where the link whose path starts at `at` begins: at its `http://` or `https://` when the
/// bytes before the path are a scheme and host, else at the path.
fn link_start(s: &[u8], at: usize) -> usize {
    let host = s[..at]
        .iter()
        .rposition(|&b| !(b.is_ascii_alphanumeric() || matches!(b, b'.' | b'-' | b':' | b'[' | b']')))
        .map_or(0, |i| i + 1);
    let before = &s[..host];
    for scheme in [&b"https://"[..], b"http://"] {
        if host < at
            && before.len() >= scheme.len()
            && before[before.len() - scheme.len()..].eq_ignore_ascii_case(scheme)
        {
            return host - scheme.len();
        }
    }
    at
}

/// `s` with its seat links replaced, or None when it holds none (a byte-level rewrite for
/// [`super::rewrite::rewrite`]).
pub(super) fn scrub(s: &[u8]) -> Option<Vec<u8>> {
    let mut out: Option<Vec<u8>> = None;
    let (mut copied, mut i) = (0, 0);
    while i < s.len() {
        if s[i] == b'/'
            && let Some(end) = link_end(s, i)
        {
            let start = link_start(s, i).max(copied);
            let o = out.get_or_insert_with(|| Vec::with_capacity(s.len()));
            o.extend_from_slice(&s[copied..start]);
            o.extend_from_slice(SEAT_LINK.as_bytes());
            (copied, i) = (end, end);
            continue;
        }
        i += 1;
    }
    out.map(|mut o| {
        o.extend_from_slice(&s[copied..]);
        o
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::borrow::Cow;

    const TOKEN: &str = "abcdefghijklmnopqrstuvwxyz234567abcdefghijklmnopqrst";

    fn without_seat_links(raw: &[u8]) -> Cow<'_, [u8]> {
        super::super::rewrite::rewrite(raw, &mut super::scrub)
    }

    fn scrub(s: &str) -> String {
        String::from_utf8(without_seat_links(s.as_bytes()).into_owned()).unwrap()
    }

    #[test]
    fn a_quoted_link_becomes_the_placeholder_and_nothing_else_changes() {
        let mail = format!(
            "Subject: Re: turn 3\r\n\r\nCLAIM 9D EAST\r\n\r\n> Your page: https://sm.test/play/{TOKEN}.\r\n> Bye\r\n"
        );
        let want =
            format!("Subject: Re: turn 3\r\n\r\nCLAIM 9D EAST\r\n\r\n> Your page: {SEAT_LINK}.\r\n> Bye\r\n");
        assert_eq!(scrub(&mail), want);
        assert_eq!(
            scrub(&format!("<a href=\"/play/{}\">", TOKEN.to_uppercase())),
            format!("<a href=\"{SEAT_LINK}\">")
        );
    }

    #[test]
    fn mail_without_a_seat_link_is_left_as_it_is() {
        let mail = format!("see /play/ and /play/{} and /play/{TOKEN}x and /games/{TOKEN}\r\n", &TOKEN[..51]);
        assert!(matches!(without_seat_links(mail.as_bytes()), Cow::Borrowed(_)));
    }

    #[test]
    fn a_link_broken_by_quoted_printable_soft_line_breaks_is_found() {
        let (a, b) = TOKEN.split_at(20);
        let mail = format!(
            "Content-Transfer-Encoding: quoted-printable\r\n\r\n> <a href=3D\"https://sm.test/pl=\r\nay/{a}=\r\n{b}\">x</a>\r\n"
        );
        assert_eq!(
            scrub(&mail),
            format!(
                "Content-Transfer-Encoding: quoted-printable\r\n\r\n> <a href=3D\"{SEAT_LINK}\">x</a>\r\n"
            )
        );
    }

    #[test]
    fn a_link_in_a_base64_part_is_replaced_and_the_rest_of_the_part_kept() {
        let text = format!("CLAIM 9D EAST\r\n> https://sm.test/play/{TOKEN}\r\n");
        let mail = format!(
            "MIME-Version: 1.0\r\nContent-Type: multipart/mixed; boundary=b\r\n\r\n--b\r\n\
             Content-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: base64\r\n\r\n{}\r\n--b--\r\n",
            data_encoding::BASE64.encode(text.as_bytes())
        );
        let scrubbed = without_seat_links(mail.as_bytes()).into_owned();
        let parsed = mail_parser::MessageParser::default().parse(&scrubbed[..]).unwrap();
        assert_eq!(parsed.body_text(0).unwrap(), format!("CLAIM 9D EAST\r\n> {SEAT_LINK}\r\n"));
        assert!(!String::from_utf8_lossy(&scrubbed).contains(TOKEN));
    }

    #[test]
    fn a_link_in_a_base64_part_of_a_forwarded_message_is_replaced() {
        let text = format!("CLAIM 9D EAST\r\n> https://sm.test/play/{TOKEN}\r\n");
        let inner = format!(
            "From: a@example.org\r\nMIME-Version: 1.0\r\nContent-Type: text/plain\r\n\
             Content-Transfer-Encoding: base64\r\n\r\n{}\r\n",
            data_encoding::BASE64.encode(text.as_bytes())
        );
        let mail = format!(
            "MIME-Version: 1.0\r\nContent-Type: multipart/mixed; boundary=b\r\n\r\n--b\r\n\
             Content-Type: text/plain\r\n\r\nforwarded:\r\n--b\r\nContent-Type: message/rfc822\r\n\r\n{inner}--b--\r\n"
        );
        let scrubbed = without_seat_links(mail.as_bytes()).into_owned();
        let parsed = mail_parser::MessageParser::default().parse(&scrubbed[..]).unwrap();
        let mail_parser::PartType::Message(nested) = &parsed.parts[2].body else {
            panic!("a nested message")
        };
        assert_eq!(nested.body_text(0).unwrap(), format!("CLAIM 9D EAST\r\n> {SEAT_LINK}\r\n"));
        assert!(!String::from_utf8_lossy(&scrubbed).contains(TOKEN));
    }
}
