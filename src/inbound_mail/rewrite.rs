//! Rewriting a message's text wherever it is written, for storing it without secrets (RULINGS
//! P8, M11): a byte-level rewrite is applied to the message's bytes as they came (headers, plain
//! text, HTML, quoted-printable parts — the matchers allow a soft line break anywhere, see
//! [`match_soft`]) and to the decoded content of every base64 part, at any depth of nested
//! `message/rfc822` parts (up to [`MAX_DEPTH`]), each such part encoded again in lines of 76.
//! Every other byte stays as it came.

use mail_parser::{Encoding, MessagePart, PartType};
use std::borrow::Cow;

/// How deep nested messages are followed (a forward of a forward of …).
pub(super) const MAX_DEPTH: usize = 8;

/// A byte-level rewrite: the bytes rewritten, or None when there is nothing to change.
pub(super) type Rewrite<'f> = dyn FnMut(&[u8]) -> Option<Vec<u8>> + 'f;

/// `raw` with `f` applied to it as written and to the decoded content of every base64 part,
/// nested ones included (unchanged, and not copied, when `f` changes nothing). A message whose
/// MIME the parser cannot take keeps its base64 parts as they came: storing comes first.
pub(super) fn rewrite<'a>(raw: &'a [u8], f: &mut Rewrite<'_>) -> Cow<'a, [u8]> {
    let mut out = match f(raw) {
        Some(rewritten) => Cow::Owned(rewritten),
        None => Cow::Borrowed(raw),
    };
    // Only a message with a base64 part is parsed.
    if contains_ignoring_case(&out, b"base64") {
        let parts = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| rewrite_base64(&out, f, 0)));
        if let Ok(Some(rewritten)) = parts {
            out = Cow::Owned(rewritten);
        }
    }
    out
}

pub(super) fn contains_ignoring_case(hay: &[u8], needle: &[u8]) -> bool {
    hay.windows(needle.len()).any(|w| w.eq_ignore_ascii_case(needle))
}

/// The message `raw` with `f` applied to its base64 parts, at any depth; None when none changed.
fn rewrite_base64(raw: &[u8], f: &mut Rewrite<'_>, depth: usize) -> Option<Vec<u8>> {
    let message = mail_parser::MessageParser::default().parse(raw)?;
    let mut spans = Vec::new();
    collect(raw, &message.parts, f, depth, &mut spans);
    splice(raw, spans)
}

/// The rewritten base64 parts among `parts` (offsets into `raw`) as `(start, end, new bytes)`.
fn collect(
    raw: &[u8],
    parts: &[MessagePart<'_>],
    f: &mut Rewrite<'_>,
    depth: usize,
    spans: &mut Vec<(usize, usize, Vec<u8>)>,
) {
    for p in parts {
        match (&p.body, p.encoding) {
            (body, Encoding::Base64) => {
                let (start, end) = (p.offset_body as usize, (p.offset_end as usize).min(raw.len()));
                let Some(encoded) = raw.get(start..end) else { continue };
                let encoded: Vec<u8> = encoded.iter().copied().filter(|b| !b.is_ascii_whitespace()).collect();
                let Ok(decoded) = data_encoding::BASE64.decode(&encoded) else { continue };
                let mut changed = f(&decoded);
                // A message inside, itself encoded: its parts' offsets are in the decoded bytes.
                if matches!(body, PartType::Message(_)) && depth < MAX_DEPTH {
                    let current = changed.as_deref().unwrap_or(&decoded);
                    if contains_ignoring_case(current, b"base64")
                        && let Some(inner) = rewrite_base64(current, f, depth + 1)
                    {
                        changed = Some(inner);
                    }
                }
                if let Some(c) = changed {
                    spans.push((start, end, encode_base64(&c)));
                }
            }
            // A message inside written as it is: its parts' offsets are in `raw` too.
            (PartType::Message(nested), Encoding::None) if depth < MAX_DEPTH => {
                collect(raw, &nested.parts, f, depth + 1, spans);
            }
            _ => {}
        }
    }
}

/// `raw` with each span `(start, end, new bytes)` replaced (an overlapping one is skipped); None
/// when there is none.
pub(super) fn splice(raw: &[u8], mut spans: Vec<(usize, usize, Vec<u8>)>) -> Option<Vec<u8>> {
    if spans.is_empty() {
        return None;
    }
    spans.sort_by_key(|&(start, _, _)| start);
    let mut out = Vec::with_capacity(raw.len());
    let mut copied = 0;
    for (start, end, bytes) in spans {
        if start < copied {
            continue;
        }
        out.extend_from_slice(&raw[copied..start]);
        out.extend_from_slice(&bytes);
        copied = end;
    }
    out.extend_from_slice(&raw[copied..]);
    Some(out)
}

/// Base64 in lines of 76 characters, each ended by CRLF.
fn encode_base64(data: &[u8]) -> Vec<u8> {
    let text = data_encoding::BASE64.encode(data);
    let mut out = Vec::with_capacity(text.len() + text.len() / 38 + 2);
    for line in text.as_bytes().chunks(76) {
        out.extend_from_slice(line);
        out.extend_from_slice(b"\r\n");
    }
    out
}

/// The length of a quoted-printable soft line break at `at` (`=\r\n` or `=\n`), or 0.
pub(super) fn soft_break(s: &[u8], at: usize) -> usize {
    match s.get(at..) {
        Some([b'=', b'\r', b'\n', ..]) => 3,
        Some([b'=', b'\n', ..]) => 2,
        _ => 0,
    }
}

/// `at` moved past any soft line breaks there.
pub(super) fn past_soft(s: &[u8], mut at: usize) -> usize {
    loop {
        let skip = soft_break(s, at);
        if skip == 0 {
            return at;
        }
        at += skip;
    }
}

/// Matches `want` at `at`, soft line breaks allowed before each byte: the end of the match.
pub(super) fn match_soft(
    s: &[u8],
    mut at: usize,
    want: impl Iterator<Item = impl Fn(u8) -> bool>,
) -> Option<usize> {
    for accept in want {
        at = past_soft(s, at);
        if !accept(*s.get(at)?) {
            return None;
        }
        at += 1;
    }
    Some(at)
}

/// The bytes of `s[start..end]` without soft line breaks.
pub(super) fn unbroken(s: &[u8], start: usize, end: usize) -> Vec<u8> {
    let mut out = Vec::with_capacity(end - start);
    let mut at = start;
    while at < end {
        let skip = soft_break(s, at);
        if skip > 0 {
            at += skip;
        } else {
            out.push(s[at]);
            at += 1;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn upper(b: &[u8]) -> Option<Vec<u8>> {
        let at = b.windows(6).position(|w| w == b"secret")?;
        let mut out = b.to_vec();
        out[at..at + 6].copy_from_slice(b"SEALED");
        Some(out)
    }

    fn b64(s: &str) -> String {
        data_encoding::BASE64.encode(s.as_bytes())
    }

    #[test]
    fn a_base64_part_inside_a_forwarded_message_is_rewritten() {
        let inner = format!(
            "From: a@example.org\r\nSubject: fwd\r\nMIME-Version: 1.0\r\nContent-Type: text/plain\r\n\
             Content-Transfer-Encoding: base64\r\n\r\n{}\r\n",
            b64("the secret is here\r\n")
        );
        let mail = format!(
            "MIME-Version: 1.0\r\nContent-Type: multipart/mixed; boundary=b\r\n\r\n--b\r\n\
             Content-Type: text/plain\r\n\r\nsee below\r\n--b\r\nContent-Type: message/rfc822\r\n\r\n{inner}--b--\r\n"
        );
        let out = rewrite(mail.as_bytes(), &mut upper);
        let text = String::from_utf8(out.into_owned()).unwrap();
        assert!(text.contains(&b64("the SEALED is here\r\n")), "{text}");
        assert!(!text.contains(&b64("the secret is here\r\n")));
        assert!(
            text.starts_with("MIME-Version: 1.0\r\nContent-Type: multipart/mixed; boundary=b\r\n\r\n--b\r\n")
        );
    }

    #[test]
    fn a_base64_part_inside_a_forwarded_message_that_is_itself_base64_is_rewritten() {
        let inner = format!(
            "From: a@example.org\r\nMIME-Version: 1.0\r\nContent-Type: multipart/mixed; boundary=c\r\n\r\n--c\r\n\
             Content-Type: text/plain\r\nContent-Transfer-Encoding: base64\r\n\r\n{}\r\n--c--\r\n",
            b64("a secret line\r\n")
        );
        let mail = format!(
            "MIME-Version: 1.0\r\nContent-Type: multipart/mixed; boundary=b\r\n\r\n--b\r\n\
             Content-Type: message/rfc822\r\nContent-Transfer-Encoding: base64\r\n\r\n{}\r\n--b--\r\n",
            b64(&inner)
        );
        let out = rewrite(mail.as_bytes(), &mut upper).into_owned();
        let parsed = mail_parser::MessageParser::default().parse(&out[..]).unwrap();
        let PartType::Message(nested) = &parsed.parts[1].body else { panic!("a nested message") };
        assert_eq!(nested.body_text(0).unwrap(), "a SEALED line\r\n");
    }

    #[test]
    fn a_message_without_anything_to_rewrite_is_not_copied() {
        let mail = b"Subject: x\r\n\r\nnothing here\r\n";
        assert!(matches!(rewrite(mail, &mut upper), Cow::Borrowed(_)));
    }
}
