//! Which lines of a mail's text the player wrote, and which he quoted, forwarded or signed
//! (RULINGS M20, M21). Each line is judged on its own, so the player's text counts wherever it
//! stands: above a quote (top-posting), below it (bottom-posting) or between quoted lines (an
//! inline reply). Quoted text is never the player's, however much it looks like orders (the
//! quoted report holds his own echo and every seat's published lines).
//!
//! - A line starting with `>` is quoted.
//! - An opening — an attribution ("On … wrote:", "Am … schrieb …:", over up to three lines,
//!   or any line ending in a colon right above a `>` line),
//!   an earlier message's header (Outlook's "-----Original Message-----", a rule of
//!   underscores, "From: …" over "Sent: …") or a forward's ("---------- Forwarded message
//!   ---------", "Begin forwarded message:") — is quoted with the `>` lines below it; when no
//!   `>` line follows, the earlier message is not marked line by line, and the opening and
//!   everything after it are the quote (RULING M21).
//! - A signature runs from its delimiter (`-- `) to the next quote; a phone's footer
//!   ("Sent from my iPhone", "Get Outlook for iOS") is a signature line of its own.

#[cfg(test)]
mod tests;

/// What a line set aside is, rather than the player's own text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Aside {
    /// An earlier message quoted in a reply.
    Quote,
    /// A forwarded message.
    Forwarded,
    /// The player's signature.
    Signature,
}

/// The most lines an attribution takes when a mail program wraps it.
const MAX_ATTRIBUTION_LINES: usize = 3;

/// The first words of an attribution line, in the languages mail programs write them
/// ("On …", "Am …", "Le …", "El …", "Op …", "Il giorno …", "Em …", "Den …").
const ATTRIBUTION_STARTS: &[&str] = &["on", "am", "le", "el", "op", "il", "em", "den"];

/// The verbs an attribution ends with, before its colon.
const ATTRIBUTION_VERBS: &[&str] =
    &["wrote", "schrieb", "a écrit", "escribió", "schreef", "ha scritto", "escreveu", "skrev"];

/// What a header line of a quoted message starts with ("From:", "Von:", "De :"), and what the
/// next line then starts with ("Sent:", "Date:", "Gesendet:" …).
const HEADER_FROM: &[&str] = &["from:", "von:", "de:", "de :", "van:"];
const HEADER_SENT: &[&str] =
    &["sent:", "date:", "gesendet:", "datum:", "envoyé :", "envoyé:", "enviado:", "verzonden:"];

/// The words of an "original message" rule (`-----Original Message-----`).
const ORIGINAL_MESSAGE: &[&str] = &[
    "original message",
    "ursprüngliche nachricht",
    "message d'origine",
    "mensaje original",
    "oorspronkelijk bericht",
];

/// How forwarded messages open: inside a rule of dashes, or as a line of their own.
const FORWARD_RULES: &[&str] = &[
    "forwarded message",
    "weitergeleitete nachricht",
    "message transféré",
    "mensaje reenviado",
    "doorgestuurd bericht",
];
const FORWARD_LINES: &[&str] =
    &["begin forwarded message:", "anfang der weitergeleiteten nachricht:", "début du message réexpédié :"];

/// How a phone's or a webmail's footer starts ("Sent from my iPhone", "Get Outlook for iOS",
/// "Von meinem iPhone gesendet").
const FOOTER_STARTS: &[&str] = &[
    "sent from ",
    "get outlook for ",
    "von meinem ",
    "envoyé de mon ",
    "enviado desde mi ",
    "verstuurd vanaf mijn ",
];

/// The most words of a footer line.
const MAX_FOOTER_WORDS: usize = 8;

/// What each line of a text is: `None` for the player's own, else why it is set aside.
pub(super) fn asides(lines: &[&str]) -> Vec<Option<Aside>> {
    let mut out = Vec::with_capacity(lines.len());
    let mut signature = false;
    let mut i = 0;
    while i < lines.len() {
        let t = lines[i].trim();
        if is_quoted(t) {
            // A quote ends a signature: a bottom-poster's text may follow it.
            signature = false;
            out.push(Some(Aside::Quote));
            i += 1;
            continue;
        }
        if let Some((len, aside)) = opening(&lines[i..]) {
            signature = false;
            let below = lines[i + len..].iter().map(|l| l.trim()).find(|l| !l.is_empty());
            if below.is_some_and(is_quoted) {
                // RULING M20: the quote below is marked line by line; text after it is the player's.
                out.extend(std::iter::repeat_n(Some(aside), len));
                i += len;
                continue;
            }
            // RULING M21: an unmarked earlier message runs to the end of the mail.
            out.extend(std::iter::repeat_n(Some(aside), lines.len() - i));
            break;
        }
        if lines[i].trim_end() == "--" {
            signature = true;
        }
        out.push((signature || is_footer(t)).then_some(Aside::Signature));
        i += 1;
    }
    out
}

/// Whether a (trimmed) line is quoted with `>`.
fn is_quoted(line: &str) -> bool {
    line.starts_with('>')
}

/// The opening of a quoted or forwarded message at the start of `lines`: how many lines it takes.
fn opening(lines: &[&str]) -> Option<(usize, Aside)> {
    let t = lines[0].trim();
    if is_forward_opening(t) {
        return Some((1, Aside::Forwarded));
    }
    let lower = t.to_lowercase();
    let rule = lower.starts_with("-----") && ORIGINAL_MESSAGE.iter().any(|w| lower.contains(w));
    let underscores = t.len() >= 20 && t.chars().all(|c| c == '_');
    let next = lines.get(1).map(|l| l.trim().to_lowercase()).unwrap_or_default();
    let header =
        HEADER_FROM.iter().any(|w| lower.starts_with(w)) && HEADER_SENT.iter().any(|w| next.starts_with(w));
    if rule || underscores || header {
        return Some((1, Aside::Quote));
    }
    // Any line ending in a colon right above a `>` line introduces it ("* Stationmaster
    // <gm@…> [2026-03-02 12:00]:", mutt's own attributions).
    let introduces = t.ends_with(':') && lines.get(1).is_some_and(|l| is_quoted(l.trim()));
    if introduces {
        return Some((1, Aside::Quote));
    }
    attribution_len(lines).map(|len| (len, Aside::Quote))
}

/// Whether a (trimmed) line opens a forwarded message.
pub(super) fn is_forward_opening(line: &str) -> bool {
    let lower = line.to_lowercase();
    (lower.starts_with('-') && FORWARD_RULES.iter().any(|w| lower.contains(w)))
        || FORWARD_LINES.iter().any(|w| lower.starts_with(w))
}

/// The lines an attribution at the start of `lines` takes ("On Mon, 2 Mar 2026 at 12:00,
/// Stationmaster <gm@…> wrote:", wrapped over up to three lines), if it is one.
fn attribution_len(lines: &[&str]) -> Option<usize> {
    let first = lines[0].trim().to_lowercase();
    let word = first.split_whitespace().next()?;
    if !ATTRIBUTION_STARTS.contains(&word) {
        return None;
    }
    let mut joined = String::new();
    for (k, line) in lines.iter().take(MAX_ATTRIBUTION_LINES).enumerate() {
        let t = line.trim();
        if t.is_empty() || (k > 0 && is_quoted(t)) {
            return None;
        }
        joined.push(' ');
        joined.push_str(&t.to_lowercase());
        if joined.ends_with(':') && ATTRIBUTION_VERBS.iter().any(|v| joined.contains(v)) {
            return Some(k + 1);
        }
    }
    None
}

/// Whether a (trimmed) line is a phone's or a webmail's footer.
fn is_footer(line: &str) -> bool {
    let lower = line.to_lowercase();
    FOOTER_STARTS.iter().any(|s| lower.starts_with(s)) && line.split_whitespace().count() <= MAX_FOOTER_WORDS
}
