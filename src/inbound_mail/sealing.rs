//! A message as it is stored (RULINGS P8, M11): without seat links (`seat_links`) and with its
//! other secrets sealed — the tag of every signed reply address (`orders+<game>-<seat>.<tag>@…`,
//! a seat's; `gm+<game>.<tag>@…`, a GM's; `place+<id>.<tag>@…`, an invitation's) and the token of every `ORDERS <game> <seat> <token>`
//! line, wherever [`super::rewrite`] looks, and in the envelope recipient — each replaced by a
//! placeholder of the same shape whose secret's hash the row keeps ([`SealedSecrets`]). Routing
//! reads the stored message as before and checks a placeholder through that list, so the stored
//! row alone routes the message again after a crash, and holds nothing that opens a seat.

use super::commands::MailCommands;
use super::parse::ParsedMail;
use super::rewrite::{match_soft, past_soft, rewrite, soft_break, splice, unbroken};
use super::seat_links::{TOKEN_LEN, is_token_char};
use crate::domain::SealedSecrets;
use std::borrow::Cow;

/// A reply address's tag: 16 base32 characters (80 bits).
const TAG_LEN: usize = 16;
/// A game id in a reply address: its 16 bytes in base32.
const GAME_LEN: usize = 26;

/// What is stored of a message that arrived.
#[derive(Debug, Clone, PartialEq)]
pub struct ForStorage<'a> {
    /// The bytes, without seat links and with their secrets sealed.
    pub raw: Cow<'a, [u8]>,
    /// The envelope recipient, its reply address's tag sealed.
    pub envelope_to: Option<String>,
    /// What each placeholder written stands for.
    pub sealed: SealedSecrets,
}

/// `raw` and its envelope recipient as they are stored: seat links replaced (RULING P8), reply
/// address tags and `ORDERS` tokens sealed (RULING M11).
pub fn for_storage<'a>(raw: &'a [u8], envelope_to: Option<&str>) -> ForStorage<'a> {
    let mut sealed = SealedSecrets::default();
    let mut f = |bytes: &[u8]| {
        let links = super::seat_links::scrub(bytes);
        let current = links.as_deref().unwrap_or(bytes);
        seal(current, &mut sealed).or(links)
    };
    let mut raw = rewrite(raw, &mut f);
    // The token routing will read, wherever the parser found it (an HTML-only mail, say), when
    // it still stands there as written.
    if let Some(token) = order_token(&raw).filter(|t| !sealed.is_placeholder(t)) {
        let placeholder = sealed.seal(&token);
        let mut exact = |bytes: &[u8]| replace_exact(bytes, &token, &placeholder);
        if let Cow::Owned(again) = rewrite(&raw, &mut exact) {
            raw = Cow::Owned(again);
        }
    }
    let envelope_to = envelope_to.map(|e| match seal(e.as_bytes(), &mut sealed) {
        Some(s) => String::from_utf8_lossy(&s).into_owned(),
        None => e.to_string(),
    });
    ForStorage { raw, envelope_to, sealed }
}

/// The token of the `ORDERS` line routing reads, when it has a token's shape.
fn order_token(raw: &[u8]) -> Option<String> {
    if !super::rewrite::contains_ignoring_case(raw, b"orders") {
        return None;
    }
    let mail = std::panic::catch_unwind(|| ParsedMail::parse(raw, None)).ok()?;
    let token = MailCommands::parse(&mail.body).token?.token;
    (token.len() == TOKEN_LEN && token.bytes().all(is_token_char)).then_some(token)
}

/// `s` with every reply address's tag and `ORDERS` line's token sealed into `sealed`, or None
/// when it holds none.
fn seal(s: &[u8], sealed: &mut SealedSecrets) -> Option<Vec<u8>> {
    let mut spans = Vec::new();
    let mut i = 0;
    while i < s.len() {
        let found = match s[i].to_ascii_lowercase() {
            b'o' => reply_tag(s, i).or_else(|| order_line_token(s, i)),
            b'g' => gm_tag(s, i),
            b'p' => place_tag(s, i),
            _ => None,
        };
        match found {
            Some((start, end)) => {
                let secret = String::from_utf8_lossy(&unbroken(s, start, end)).into_owned();
                spans.push((start, end, sealed.seal(&secret).into_bytes()));
                i = end;
            }
            None => i += 1,
        }
    }
    splice(s, spans)
}

/// The end of `word` (any case) at `at`.
fn literal(s: &[u8], at: usize, word: &[u8]) -> Option<usize> {
    match_soft(s, at, word.iter().map(|&w| move |b: u8| b.eq_ignore_ascii_case(&w)))
}

fn token_chars(s: &[u8], at: usize, n: usize) -> Option<usize> {
    match_soft(s, at, (0..n).map(|_| is_token_char))
}

/// The span of a tag starting at `start` when an `@` follows it.
fn tag_before_at(s: &[u8], start: usize) -> Option<(usize, usize)> {
    let start = past_soft(s, start);
    let end = token_chars(s, start, TAG_LEN)?;
    (s.get(past_soft(s, end)) == Some(&b'@')).then_some((start, end))
}

/// The tag's span in a seat's reply address `orders+<game>-<seat>.<tag>@` starting at `at`.
fn reply_tag(s: &[u8], at: usize) -> Option<(usize, usize)> {
    let game = literal(s, at, b"orders+")?;
    let seat = literal(s, token_chars(s, game, GAME_LEN)?, b"-")?;
    tag_before_at(s, literal(s, digits(s, seat)?, b".")?)
}

/// The end of one or more digits at `at`.
fn digits(s: &[u8], at: usize) -> Option<usize> {
    let mut i = match_soft(s, at, std::iter::once(|b: u8| b.is_ascii_digit()))?;
    while let Some(next) = match_soft(s, i, std::iter::once(|b: u8| b.is_ascii_digit())) {
        i = next;
    }
    Some(i)
}

/// The tag's span in a GM's reply address `gm+<game>.<tag>@` starting at `at`.
fn gm_tag(s: &[u8], at: usize) -> Option<(usize, usize)> {
    let game = literal(s, at, b"gm+")?;
    tag_before_at(s, literal(s, token_chars(s, game, GAME_LEN)?, b".")?)
}

/// The tag's span in a place's reply address `place+<id>.<tag>@` starting at `at` (an
/// invitation's or a join confirmation's, RULING M23).
fn place_tag(s: &[u8], at: usize) -> Option<(usize, usize)> {
    let id = literal(s, at, b"place+")?;
    tag_before_at(s, literal(s, digits(s, id)?, b".")?)
}

/// The token's span in an `ORDERS <game> <seat> <token>` line whose first word starts at `at`
/// (quoted or not: the word is not part of a longer one).
fn order_line_token(s: &[u8], at: usize) -> Option<(usize, usize)> {
    if at > 0 && s[at - 1].is_ascii_alphanumeric() {
        return None;
    }
    let mut i = literal(s, at, b"orders")?;
    for _ in 0..2 {
        i = word(s, blanks(s, i)?)?;
    }
    let start = past_soft(s, blanks(s, i)?);
    let end = token_chars(s, start, TOKEN_LEN)?;
    match s.get(end + soft_break(s, end)) {
        Some(b) if b.is_ascii_alphanumeric() => None,
        _ => Some((start, end)),
    }
}

fn is_blank(b: u8) -> bool {
    b == b' ' || b == b'\t'
}

/// The end of one or more spaces or tabs at `at`.
fn blanks(s: &[u8], at: usize) -> Option<usize> {
    let mut i = match_soft(s, at, std::iter::once(is_blank))?;
    while let Some(next) = match_soft(s, i, std::iter::once(is_blank)) {
        i = next;
    }
    Some(i)
}

/// The end of a word (no blanks, no line end) at `at`.
fn word(s: &[u8], at: usize) -> Option<usize> {
    let in_word = |b: u8| !is_blank(b) && b != b'\r' && b != b'\n';
    let mut i = match_soft(s, at, std::iter::once(in_word))?;
    while let Some(next) = match_soft(s, i, std::iter::once(in_word)) {
        i = next;
    }
    Some(i)
}

/// `s` with every whole occurrence of `secret` (any case, soft line breaks allowed inside)
/// replaced by `placeholder`; None when there is none.
fn replace_exact(s: &[u8], secret: &str, placeholder: &str) -> Option<Vec<u8>> {
    let mut spans = Vec::new();
    let mut i = 0;
    while i < s.len() {
        let whole = i == 0 || !s[i - 1].is_ascii_alphanumeric();
        let found = literal(s, i, secret.as_bytes()).filter(|&end| {
            whole && !s.get(end + soft_break(s, end)).is_some_and(|b| b.is_ascii_alphanumeric())
        });
        match found {
            Some(end) => {
                spans.push((i, end, placeholder.as_bytes().to_vec()));
                i = end;
            }
            None => i += 1,
        }
    }
    splice(s, spans)
}

#[cfg(test)]
#[path = "sealing_tests.rs"]
mod tests;
