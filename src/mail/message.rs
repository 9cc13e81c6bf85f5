//! The MIME message built from an outbox row: our headers, the text and HTML parts, the HTML's
//! inline pictures, and the deadline's calendar attachment.
//!
//! An HTML body may carry pictures: a kept drawing by name (`drawing:<sha256>`, a turn report's
//! picture of the table, issue 38), or a `data:` address, PNG or SVG (reports queued before
//! drawings were kept): they are taken out into `multipart/related` PNG parts, each with its own
//! Content-ID, and the HTML points at them by `cid:` — mail readers show those, while most block
//! `data:` images. A kept drawing's PNG is rendered before, once per drawing, outside any
//! transaction (`service::pictures::pngs`; RULINGS W17, O24); the rendering is deterministic, so
//! a mail sent again carries the same picture.

use anyhow::{Context, bail};
use lettre::message::header::{ContentTransferEncoding, ContentType};
use lettre::message::{Attachment, Body, Mailbox, MultiPart, SinglePart};
use lettre::{Address, Message};

use super::deliver::domain_of;
use crate::draw::DrawingKey;
use crate::service::Picture;
use crate::store::outbox::OutboxRow;
use std::collections::BTreeMap;
use std::sync::Arc;

/// Builds the MIME message for an outbox row: From, To (with name), Subject, our own
/// Message-ID (stable for the row, so a resend after a crash is recognisable as the same mail),
/// In-Reply-To and References when the row answers a mail, and either `multipart/alternative`
/// (text and HTML, the HTML with its pictures in `multipart/related`) or a single UTF-8
/// `text/plain` part.
///
/// Fails, without panicking, when an address or message id is malformed.
///
/// `drawn` holds the PNGs of the kept drawings the HTML names (`service::pictures::pngs`).
pub fn build_message(row: &OutboxRow, from: &str, drawn: &Drawn) -> anyhow::Result<Message> {
    let from: Mailbox = from.trim().parse().context("the From mailbox is invalid")?;
    let address: Address = row
        .to_addr
        .trim()
        .parse()
        .with_context(|| format!("the To address of a mail to {} is invalid", domain_of(&row.to_addr)))?;
    let name = row.to_name.as_deref().map(str::trim).filter(|n| !n.is_empty());
    let to = Mailbox::new(name.map(str::to_string), address);

    let mut builder = Message::builder()
        .from(from)
        .to(to)
        .subject(row.subject.as_str())
        .message_id(Some(angle_id(&row.message_id).context("the Message-ID is invalid")?));
    if let Some(parent) = row.in_reply_to.as_deref().filter(|p| !p.trim().is_empty()) {
        let parent = angle_id(parent).context("the In-Reply-To id is invalid")?;
        builder = builder.in_reply_to(parent.clone()).references(parent);
    }
    if let Some(reply_to) = row.reply_to.as_deref().filter(|r| !r.trim().is_empty()) {
        let reply_to: Mailbox = reply_to.trim().parse().context("the Reply-To address is invalid")?;
        builder = builder.reply_to(reply_to);
    }
    let body = match &row.body_html {
        Some(html) => {
            let (html, pictures) = inline_pictures(html, &angle_id(&row.message_id)?, drawn);
            if pictures.is_empty() {
                MultiPart::alternative_plain_html(row.body_text.clone(), html)
            } else {
                let mut related = MultiPart::related().singlepart(SinglePart::html(html));
                for (cid, picture) in pictures {
                    let png = ContentType::parse("image/png")?;
                    related = related.singlepart(Attachment::new_inline(cid).body(picture.body(), png));
                }
                MultiPart::alternative()
                    .singlepart(SinglePart::plain(row.body_text.clone()))
                    .multipart(related)
            }
        }
        None => MultiPart::mixed().singlepart(SinglePart::plain(row.body_text.clone())),
    };
    let message = match (&row.calendar, &row.body_html) {
        // A deadline mail: the body, then the event as an .ics attachment calendars import.
        (Some(ics), _) => builder.multipart(
            MultiPart::mixed().multipart(body).singlepart(
                Attachment::new("deadline.ics".to_string())
                    .body(ics.clone(), ContentType::parse("text/calendar; charset=utf-8; method=PUBLISH")?),
            ),
        ),
        (None, Some(_)) => builder.multipart(body),
        (None, None) => builder.singlepart(SinglePart::plain(row.body_text.clone())),
    };
    message.context("cannot assemble the message")
}

/// The PNGs of the kept drawings a mail names (`src="drawing:<sha256>"`), by name: what
/// `service::pictures::pngs` held, read back or rendered for it.
pub type Drawn = BTreeMap<DrawingKey, Arc<Picture>>;

/// A picture taken out of an HTML body: a kept drawing's (its base64 lines made once for every
/// mail that carries it, RULING O29), or the PNG of a `data:` address.
#[derive(Debug, Clone, PartialEq)]
enum Inline {
    Kept(Arc<Picture>),
    Png(Vec<u8>),
}

impl Inline {
    fn png(&self) -> &[u8] {
        match self {
            Inline::Kept(p) => p.png(),
            Inline::Png(png) => png,
        }
    }

    /// The MIME part's body: a kept picture's base64 lines as they are, a PNG encoded now.
    fn body(self) -> Body {
        match self {
            Inline::Kept(p) => match p.base64_lines() {
                Some(lines) => Body::dangerous_pre_encoded(lines.to_vec(), ContentTransferEncoding::Base64),
                None => Body::new(p.png().to_vec()),
            },
            Inline::Png(png) => Body::new(png),
        }
    }
}

/// The pictures of an HTML body taken out: each `src` holding a kept drawing's name
/// (`drawing:<sha256>`, its PNG from `drawn`), a `data:image/png;base64,…` or a
/// `data:image/svg+xml;base64,…` address (a report queued before drawings were kept, rendered
/// here) now points at `cid:pictureN.<message id>`; returned with each picture's Content-ID and
/// picture (a kept drawing's, or the PNG of a `data:` address). A `data:` address that is not
/// valid base64 is left as it is; a drawing absent from `drawn` or an SVG that does not render is
/// left out (`src=""`, the picture's text alternative shows).
fn inline_pictures(html: &str, message_id: &str, drawn: &Drawn) -> (String, Vec<(String, Inline)>) {
    const SRC: &str = "src=\"";
    const PNG: &str = "data:image/png;base64,";
    const SVG: &str = "data:image/svg+xml;base64,";
    let bare = message_id.trim_start_matches('<').trim_end_matches('>');
    let (mut out, mut pictures, mut rest) = (String::with_capacity(html.len()), Vec::new(), html);
    while let Some(start) = rest.find(SRC) {
        let after = &rest[start + SRC.len()..];
        let Some(end) = after.find('"') else { break };
        out.push_str(&rest[..start]);
        let address = &after[..end];
        let picture = if let Some(png) = address.strip_prefix(PNG) {
            data_encoding::BASE64.decode(png.as_bytes()).ok().map(|png| Some(Inline::Png(png)))
        } else if let Some(svg) = address.strip_prefix(SVG) {
            data_encoding::BASE64.decode(svg.as_bytes()).ok().map(|bytes| {
                let svg = String::from_utf8_lossy(&bytes);
                crate::draw::png(&svg)
                    .inspect_err(|e| {
                        tracing::warn!(error = %e, "a mail's picture could not be rendered; sent without it");
                    })
                    .ok()
                    .map(Inline::Png)
            })
        } else {
            DrawingKey::from_src(address).map(|key| drawn.get(&key).cloned().map(Inline::Kept))
        };
        match picture {
            Some(Some(png)) => {
                let cid = format!("picture{}.{bare}", pictures.len() + 1);
                out.push_str(&format!("src=\"cid:{cid}\""));
                pictures.push((cid, png));
            }
            Some(None) => out.push_str("src=\"\""),
            None => out.push_str(&rest[start..start + SRC.len() + end + 1]),
        }
        rest = &after[end + 1..];
    }
    out.push_str(rest);
    (out, pictures)
}

/// The HTML part as a mail client shows it (the dev mailbox, issue 36): each inline picture
/// taken out as [`build_message`] takes it (a kept drawing's PNG from `drawn`) and put back as
/// that part's bytes in a `data:` address, since the page has no message to resolve `cid:` in.
/// May render an old report's drawing: run it on a blocking thread.
pub fn html_as_mailed(html: &str, message_id: &str, drawn: &Drawn) -> String {
    let id = angle_id(message_id).unwrap_or_else(|_| "<mail@dev>".into());
    let (mut html, pictures) = inline_pictures(html, &id, drawn);
    for (cid, picture) in pictures {
        let data = format!("data:image/png;base64,{}", data_encoding::BASE64.encode(picture.png()));
        html = html.replace(&format!("src=\"cid:{cid}\""), &format!("src=\"{data}\""));
    }
    html
}

/// A message id in angle brackets; accepts it with or without them. Rejects anything that is not
/// `left@right` in printable ASCII, so no header can be smuggled in.
fn angle_id(id: &str) -> anyhow::Result<String> {
    let bare = id.trim().trim_start_matches('<').trim_end_matches('>');
    let printable = bare.chars().all(|c| c.is_ascii_graphic() && c != '<' && c != '>');
    match bare.split_once('@') {
        Some((left, right)) if printable && !left.is_empty() && !right.is_empty() => Ok(format!("<{bare}>")),
        _ => bail!("\"{}\" is not of the form left@right", bare.escape_default()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::{TimeZone, Utc};

    fn row() -> OutboxRow {
        let at = Utc.with_ymd_and_hms(2026, 3, 1, 12, 0, 0).unwrap();
        OutboxRow {
            id: 7,
            idempotency_key: "report:g:3:1".into(),
            game_id: None,
            kind: "report".into(),
            to_addr: "anna@example.org".into(),
            to_name: Some("Anna Ämmälä".into()),
            subject: "Turn 3 report".into(),
            body_text: "Plain report\nline two".into(),
            body_html: Some("<p>HTML report</p>".into()),
            message_id: "turn-3.seat-1.abc@stationmaster.test".into(),
            in_reply_to: Some("<orders-42@example.org>".into()),
            reply_to: Some("orders+abc.def@example.org".into()),
            seat: None,
            token_generation: None,
            calendar: None,
            created_at: at,
            attempts: 0,
            next_attempt_at: at,
            sent_at: None,
            last_error: None,
            first_failed_at: None,
            gave_up_at: None,
            body_purged_at: None,
        }
    }

    fn formatted(row: &OutboxRow) -> String {
        let message =
            build_message(row, "Stationmaster <gm@stationmaster.test>", &Drawn::new()).expect("builds");
        String::from_utf8(message.formatted()).expect("utf-8")
    }

    fn header_lines(text: &str) -> Vec<&str> {
        text.split("\r\n\r\n").next().unwrap_or_default().lines().collect()
    }

    #[test]
    fn a_message_carries_our_headers() {
        let text = formatted(&row());
        let headers = header_lines(&text);
        let has = |prefix: &str| headers.iter().any(|h| h.starts_with(prefix));
        assert!(has("From: Stationmaster <gm@stationmaster.test>"), "{text}");
        assert!(has("To: ") && text.contains("<anna@example.org>"), "{text}");
        assert!(has("Subject: Turn 3 report"), "{text}");
        assert!(has("Message-ID: <turn-3.seat-1.abc@stationmaster.test>"), "{text}");
        assert!(has("In-Reply-To: <orders-42@example.org>"), "{text}");
        assert!(has("References: <orders-42@example.org>"), "{text}");
        assert!(has("Date: "), "{text}");
    }

    #[test]
    fn text_and_html_make_a_multipart_alternative() {
        let text = formatted(&row());
        assert!(text.contains("Content-Type: multipart/alternative;"), "{text}");
        let plain = text.find("Content-Type: text/plain; charset=utf-8").expect("plain part");
        let html = text.find("Content-Type: text/html; charset=utf-8").expect("html part");
        assert!(plain < html, "the plain part comes first");
        assert!(text.contains("Plain report") && text.contains("<p>HTML report</p>"), "{text}");
    }

    #[test]
    fn text_only_is_a_single_plain_part() {
        let mut r = row();
        r.body_html = None;
        r.in_reply_to = None;
        let text = formatted(&r);
        assert!(text.contains("Content-Type: text/plain; charset=utf-8"), "{text}");
        assert!(!text.contains("multipart"), "{text}");
        assert!(!text.contains("In-Reply-To") && !text.contains("References"), "{text}");
    }

    #[test]
    fn a_deadline_calendar_travels_as_an_ics_attachment_after_the_body() {
        let mut r = row();
        r.calendar = Some("BEGIN:VCALENDAR\r\nMETHOD:PUBLISH\r\nEND:VCALENDAR\r\n".into());
        let text = formatted(&r);
        assert!(text.contains("Content-Type: multipart/mixed;"), "{text}");
        let body = text.find("Content-Type: multipart/alternative;").expect("the body alternatives");
        let ics =
            text.find("Content-Type: text/calendar; charset=utf-8; method=PUBLISH").expect("the calendar");
        assert!(body < ics, "{text}");
        assert!(text.contains("filename=\"deadline.ics\""), "{text}");
    }

    #[test]
    fn an_inline_picture_becomes_a_related_part_the_html_points_at_by_content_id() {
        let mut r = row();
        let png = data_encoding::BASE64.encode(b"\x89PNG fake picture");
        r.body_html =
            Some(format!("<p>Table</p><img src=\"data:image/png;base64,{png}\" alt=\"the table\">"));
        let text = formatted(&r);
        let alternative = text.find("Content-Type: multipart/alternative;").expect("alternatives");
        let related = text.find("Content-Type: multipart/related;").expect("the HTML and its picture");
        let plain = text.find("Content-Type: text/plain; charset=utf-8").expect("plain part");
        assert!(alternative < plain && plain < related, "{text}");
        assert!(text.contains("src=3D\"cid:picture1.turn-3.seat-1.abc@stationmaster.test\""), "{text}");
        assert!(text.contains("Content-ID: <picture1.turn-3.seat-1.abc@stationmaster.test>"), "{text}");
        assert!(text.contains("Content-Disposition: inline"), "{text}");
        assert!(text.contains("Content-Type: image/png"), "{text}");
        assert!(!text.contains("data:image/png"), "{text}");
    }

    #[test]
    fn the_html_as_mailed_shows_each_picture_as_its_png_part() {
        let svg = crate::draw::document(20.0, 10.0, "t", vec![]);
        let html = format!(
            "<img src=\"data:image/svg+xml;base64,{}\" alt=\"t\">",
            data_encoding::BASE64.encode(svg.as_bytes())
        );
        let (_, parts) = inline_pictures(&html, "<m@x>", &Drawn::new());
        let shown = html_as_mailed(&html, "m@x", &Drawn::new());
        assert_eq!(
            shown,
            format!(
                "<img src=\"data:image/png;base64,{}\" alt=\"t\">",
                data_encoding::BASE64.encode(parts[0].1.png())
            )
        );
    }

    #[test]
    fn an_svg_drawing_is_rendered_to_the_png_part_when_the_message_is_built() {
        let svg = crate::draw::document(
            40.0,
            20.0,
            "a table",
            vec![crate::draw::El::rect(0.0, 0.0, 10.0, 10.0, "#222222")],
        );
        let html = format!(
            "<img src=\"data:image/svg+xml;base64,{}\" alt=\"t\">",
            data_encoding::BASE64.encode(svg.as_bytes())
        );
        let (out, pictures) = inline_pictures(&html, "<m@x>", &Drawn::new());
        assert_eq!(out, "<img src=\"cid:picture1.m@x\" alt=\"t\">");
        assert_eq!(pictures.len(), 1);
        assert_eq!(
            pictures[0].1.png(),
            crate::draw::png(&svg).expect("renders"),
            "the same picture every time"
        );
    }

    #[test]
    fn a_kept_drawing_becomes_its_png_part_and_one_not_rendered_is_left_out() {
        let (shown, missing) = (DrawingKey::of("<svg>shown</svg>"), DrawingKey::of("<svg>missing</svg>"));
        let html =
            format!("<img src=\"{}\" alt=\"a\"><img src=\"{}\" alt=\"b\">", shown.src(), missing.src());
        let kept = Arc::new(Picture::new(b"\x89PNG kept".to_vec()));
        let drawn = Drawn::from([(shown, kept.clone())]);
        let (out, pictures) = inline_pictures(&html, "<m@x>", &drawn);
        assert_eq!(out, "<img src=\"cid:picture1.m@x\" alt=\"a\"><img src=\"\" alt=\"b\">");
        assert_eq!(pictures, vec![("picture1.m@x".to_string(), Inline::Kept(kept))]);
    }

    #[test]
    fn an_svg_that_does_not_render_is_left_out_with_its_text_alternative() {
        let html = format!(
            "<img src=\"data:image/svg+xml;base64,{}\" alt=\"t\">",
            data_encoding::BASE64.encode(b"<svg")
        );
        let (out, pictures) = inline_pictures(&html, "<m@x>", &Drawn::new());
        assert!(pictures.is_empty());
        assert_eq!(out, "<img src=\"\" alt=\"t\">");
    }

    #[test]
    fn a_broken_data_address_is_left_alone() {
        let (html, pictures) =
            inline_pictures("<img src=\"data:image/png;base64,!!!\"> and text", "<a@b>", &Drawn::new());
        assert!(pictures.is_empty());
        assert_eq!(html, "<img src=\"data:image/png;base64,!!!\"> and text");
        let (html, pictures) =
            inline_pictures("<img src=\"data:image/png;base64,QUJD", "<a@b>", &Drawn::new());
        assert!(pictures.is_empty() && html.ends_with("QUJD"), "an unterminated address is kept");
    }

    #[test]
    fn bad_addresses_and_ids_are_errors_not_panics() {
        let mut r = row();
        r.to_addr = "not an address".into();
        assert!(build_message(&r, "gm@stationmaster.test", &Drawn::new()).is_err());
        assert!(build_message(&row(), "no mailbox here", &Drawn::new()).is_err());
        let mut r = row();
        r.message_id = "x@y>\r\nBcc: evil@example.org".into();
        assert!(build_message(&r, "gm@stationmaster.test", &Drawn::new()).is_err());
        let mut r = row();
        r.in_reply_to = Some("no-at-sign".into());
        assert!(build_message(&r, "gm@stationmaster.test", &Drawn::new()).is_err());
    }
}
