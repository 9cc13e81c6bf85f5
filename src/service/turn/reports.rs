//! Turn reports: one mail per seat with the public result and what only that seat may see (its
//! hand, its secret draws, how its own orders were read), plus every seat's published orders as
//! that seat may see them (its own whole, with every salt; the others' public lines and hashes)
//! so receipts can be checked.
//!
//! The mail's HTML part shows the seat's picture of the table in parts (`Draw::draw_parts`,
//! issues 16 and 36). Each part is a drawing kept once under the SHA-256 of its SVG
//! (`service::pictures::keep`, in the publishing transaction, which renders nothing); the HTML
//! names it `drawing:<sha256>`, and the outbox worker puts in its PNG — rendered once per
//! distinct drawing, outside any transaction, and kept — as a related part with a Content-ID
//! (`mail::message`; RULINGS W17, O23–O25). The `<pre>` text stays as its alternative, and the
//! plain-text part is complete without it. The archived report (`reports` table, shown on pages
//! whose policy allows no `data:` images) keeps the HTML without the picture.

use crate::draw::{DrawingKey, Part};
use crate::engine::{LineNote, Seat, Viewer};
use crate::registry::{DynGame, TurnOutcome};
use crate::service::notices::{self, OutgoingMail, ReplyTo, SEAT_LINK, render};
use crate::service::{PublishedSheet, ServiceError, deadlines, disclose_turn};
use crate::store::games::{GameRow, ReportRow, SeatRow};
use crate::store::orders::OrderVersionRow;
use askama::Template;
use chrono::{DateTime, Utc};

/// Everything a report is made from.
pub struct ReportContext<'a> {
    pub game: &'a GameRow,
    pub engine: &'a dyn DynGame,
    pub turn: i32,
    pub outcome: &'a TurnOutcome,
    pub orders: &'a [OrderVersionRow],
    pub seats: &'a [SeatRow],
    pub next_deadline: Option<DateTime<Utc>>,
    /// The seat's signed reply address (a placeholder until the mail is sent, RULING P8).
    pub reply_to: ReplyTo,
    /// How often a rollback re-opened the turn: a re-published report is a new mail.
    pub reopened: i32,
    /// The log sequence number of the turn's first action (for its dice, `service::dice`).
    pub first_seq: i64,
}

/// One part of a report's picture of the table (issue 36): the kept drawing it shows
/// (`drawing:<sha256>`, its PNG put in when the mail is sent), enlarged so that its smallest
/// text is 10 px as mailed, its size in pixels, its heading and its text alternative.
#[derive(Debug, Clone)]
pub struct Picture {
    pub src: String,
    pub title: &'static str,
    pub alt: String,
    pub width: u32,
    pub height: u32,
}

/// One seat's published orders, for checking receipts.
pub struct PublishedOrders {
    pub player: String,
    pub sheet: PublishedSheet,
}

/// One entry of a report's "what happened": an event, or beside it an order line's note — what
/// became of the line, or what replaced it (a contingency's branch, an HR 17 rung, the rules'
/// default, the GM's answer).
pub struct Happened {
    pub text: String,
    /// A note on an order line (shown indented under the events of its action).
    pub order: bool,
}

/// The data of a report, as the templates see it.
pub struct Report {
    pub game: String,
    pub turn: i32,
    pub seat: u8,
    pub player: String,
    pub events: Vec<Happened>,
    pub notes: Vec<LineNote>,
    /// The seat's own lines the order language could not read (HR 16), each with the error and
    /// the suggestion its echo gave: in its own report alone.
    pub not_understood: Vec<String>,
    pub nmr: bool,
    pub defaulted: bool,
    pub table: String,
    pub orders: Vec<PublishedOrders>,
    pub next_deadline: Option<String>,
    pub standings: Vec<String>,
    /// The seat's order page: [`SEAT_LINK`], filled when mailed or shown (RULING P8).
    pub link: String,
    /// The picture of the table in parts, in the mail only (never in the archived report).
    pub pictures: Vec<Picture>,
    /// The turn's dice revealed and the next turn's commitment (games that roll dice; issue 17).
    pub dice: Vec<String>,
}

#[derive(Template)]
#[template(path = "mail/report.txt")]
struct ReportText<'a> {
    r: &'a Report,
}

#[derive(Template)]
#[template(path = "mail/report.html")]
struct ReportHtml<'a> {
    r: &'a Report,
}

/// Builds the report of one seat.
pub fn build(c: &ReportContext<'_>, seat: &SeatRow) -> Result<Report, ServiceError> {
    let s = seat.seat;
    let viewer = Viewer::Seat(s);
    let name_of =
        |n: Seat| c.seats.iter().find(|x| x.seat == n).map(|x| x.player_name.clone()).unwrap_or_default();
    let standings = c
        .outcome
        .standings
        .iter()
        .flatten()
        .map(|st| format!("{}. {} ({}) — {}", st.place, name_of(st.seat), st.seat, st.score))
        .collect();
    let published = disclose_turn(c.engine, c.orders, &c.outcome.notes, viewer);
    Ok(Report {
        game: c.game.name.clone(),
        turn: c.turn,
        seat: s.0,
        player: seat.player_name.clone(),
        events: happened(c.outcome, s, &|seat, line| public_line(&published, seat, line)),
        notes: c.outcome.notes.get(&s).cloned().unwrap_or_default(),
        not_understood: not_understood(c.orders, s),
        nmr: c.outcome.nmr.contains(&s),
        defaulted: c.outcome.defaulted.contains(&s),
        table: c.engine.describe(&c.outcome.state, viewer)?,
        orders: published
            .into_iter()
            .map(|sheet| PublishedOrders { player: name_of(Seat(sheet.seat)), sheet })
            .collect(),
        next_deadline: c.next_deadline.map(|d| deadlines::words(c.game, seat.time_zone.as_deref(), d)),
        standings,
        link: SEAT_LINK.into(),
        pictures: Vec::new(),
        dice: dice_lines(c),
    })
}

/// HR 16: seat `s`'s lines not understood on the sheet it played (its latest version of the
/// turn), as its echo marked them: the line, why, and the suggestion. Only the seat's own rows
/// are read, so another seat's text never reaches this report (the published orders show those
/// lines as hashes).
fn not_understood(orders: &[OrderVersionRow], s: Seat) -> Vec<String> {
    let Some(played) = orders.iter().filter(|v| v.seat == s).max_by_key(|v| v.version) else {
        return Vec::new();
    };
    played
        .echo
        .lines
        .iter()
        .filter_map(|l| {
            let error = l.error.as_deref()?;
            let hint = l.suggestion.as_deref().map(|h| format!(" ({h})")).unwrap_or_default();
            Some(format!("line {}: \"{}\" — {error}{hint}", l.line, l.text))
        })
        .collect()
}

/// The text of another seat's line as the published orders show it to this reader, if public.
fn public_line(published: &[PublishedSheet], seat: Seat, line: usize) -> Option<String> {
    let sheet = published.iter().find(|p| p.seat == seat.0)?;
    sheet.lines.iter().find(|l| l.line == line)?.text.clone()
}

/// What happened as seat `s` may read it: every event, each followed by the notes on the order
/// lines that led to its action (issue 15). Of another seat, only a line carried out whose text
/// the published orders show (`public`: the engine's `public_lines`, RULINGS P1, P2) — its text,
/// never the note, which may tell the branch taken; a seat's own notes all, its lines not carried
/// out and the notes on its whole sheet (line 0: HR 14, the GM deciding for it) to it alone
/// (RULINGS K73). Outcomes stored without anchors show the events alone.
fn happened(o: &TurnOutcome, s: Seat, public: &dyn Fn(Seat, usize) -> Option<String>) -> Vec<Happened> {
    let viewer = Viewer::Seat(s);
    let mut at: Vec<Vec<String>> = vec![Vec::new(); o.events.len() + 1];
    for (seat, notes) in &o.notes {
        let Some(anchors) = o.anchors.get(seat) else { continue };
        for (n, &i) in notes.iter().zip(anchors) {
            let text = if *seat == s {
                let line =
                    if n.line > 0 { format!("your line {}: ", n.line) } else { "your orders: ".into() };
                let done = if n.executed { "carried out" } else { "not carried out" };
                format!("{line}{done}: {}", n.note)
            } else if let Some(line) = n.executed.then(|| public(*seat, n.line)).flatten() {
                format!("seat {}'s line {}: {line}", seat.0, n.line)
            } else {
                continue;
            };
            at[i.min(o.events.len())].push(text);
        }
    }
    let mut out: Vec<Happened> = Vec::new();
    let mut lines = at.into_iter();
    let notes = |out: &mut Vec<Happened>, lines: Option<Vec<String>>| {
        out.extend(lines.into_iter().flatten().map(|text| Happened { text, order: true }));
    };
    notes(&mut out, lines.next());
    for e in &o.events {
        out.push(Happened { text: e.text_for(viewer), order: false });
        notes(&mut out, lines.next());
    }
    out
}

/// The turn's dice keys revealed, then the next turn's commitment (docs/DICE.md).
fn dice_lines(c: &ReportContext<'_>) -> Vec<String> {
    let used = c.outcome.actions.len();
    let mut lines = crate::service::dice::reveal_lines(c.engine, c.game, c.turn, c.first_seq, used);
    if !c.outcome.game_over {
        let next = c.first_seq + i64::try_from(used).unwrap_or(0);
        lines.extend(crate::service::dice::commitment_line(c.engine, c.game, c.turn + 1, next));
    }
    lines
}

/// A drawing a report shows: its name and its SVG document as mailed, to be kept
/// (`service::pictures::keep`).
pub type Drawing = (DrawingKey, String);

/// `viewer`'s picture of the table after the turn in parts, when the game draws one: each part
/// as mailed ([`Part::for_mail`]: its smallest text 10 px), and the drawings they show.
pub fn pictures(c: &ReportContext<'_>, viewer: Viewer) -> Result<(Vec<Picture>, Vec<Drawing>), ServiceError> {
    Ok(c.engine.draw_parts(&c.outcome.state, viewer)?.iter().map(|p| mailed(p, c.turn)).unzip())
}

/// One part of the picture as the report mails it, and the drawing it shows.
pub fn mailed(part: &Part, turn: i32) -> (Picture, Drawing) {
    let (svg, width, height) = part.for_mail();
    let key = DrawingKey::of(&svg);
    let picture = Picture {
        src: key.src(),
        title: part.title,
        alt: format!(
            "{}: a picture of the table after turn {turn}, as you see it (the text below says the same).",
            part.title
        ),
        width,
        height,
    };
    (picture, (key, svg))
}

/// The report mail of one seat (its HTML with `pictures`, the seat's picture of the table:
/// [`pictures`]), and the HTML to archive (the same without the picture).
pub fn seat_report(
    c: &ReportContext<'_>,
    seat: &SeatRow,
    pictures: &[Picture],
) -> Result<(OutgoingMail, String), ServiceError> {
    let mut r = build(c, seat)?;
    let archived = render(&ReportHtml { r: &r })?;
    r.pictures = pictures.to_vec();
    let over = if c.outcome.game_over { " — game over" } else { "" };
    let mail = OutgoingMail {
        key: notices::run_key(format!("report:{}:{}:{}", c.game.id, c.turn, seat.seat.0), c.reopened),
        kind: "report",
        game_id: Some(c.game.id),
        to_addr: seat.email.clone(),
        to_name: Some(seat.player_name.clone()),
        subject: format!("[{}] Turn {} result{over}", c.game.name, c.turn),
        text: render(&ReportText { r: &r })?,
        html: render(&ReportHtml { r: &r })?,
        in_reply_to: None,
        reply_to: Some(c.reply_to),
        calendar: None,
    };
    Ok((mail, archived))
}

/// The report kept for a seat — what its pages, RESEND and a replacement's history show: the
/// mail's subject and text, and the HTML without the picture. Publishing stores it; an import
/// compares a document's reports with it (RULING O20).
pub fn archived(turn: i32, seat: Seat, mail: &OutgoingMail, html: String) -> ReportRow {
    ReportRow { turn, seat, subject: mail.subject.clone(), body_text: mail.text.clone(), body_html: html }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Event;
    use std::collections::{BTreeMap, BTreeSet};

    /// A turn of two rounds: seat 1 bought (its first line failed, its second carried out), seat
    /// 2's company laid track; an HR 14 note on seat 1's whole sheet.
    fn outcome() -> TurnOutcome {
        let note = |line, executed, note: &str| LineNote { line, executed, note: note.into() };
        let events = ["— SR3 —", "seat 1 buys a BY share", "— OR3.1 —", "BY lays tile 7 on H4"];
        TurnOutcome {
            state: serde_json::json!({}),
            actions: Vec::new(),
            events: events.into_iter().map(Event::public).collect(),
            notes: BTreeMap::from([
                (
                    Seat(1),
                    vec![
                        note(1, false, "BUY 1 SX IPO: seat 1 has 12 M"),
                        note(2, true, "bought a 10 % BY certificate from the IPO"),
                        note(0, true, "HR 14: after round 1 your orders no longer fit"),
                    ],
                ),
                (Seat(2), vec![note(4, true, "BY: LAY 7 H4 (rung C)")]),
            ]),
            anchors: BTreeMap::from([(Seat(1), vec![2, 2, 2]), (Seat(2), vec![4])]),
            nmr: BTreeSet::new(),
            defaulted: BTreeSet::new(),
            game_over: false,
            standings: None,
        }
    }

    fn texts(s: u8) -> Vec<String> {
        let public =
            |seat: Seat, line: usize| (seat == Seat(2) && line == 4).then(|| "BY: LAY BEST".to_string());
        happened(&outcome(), Seat(s), &public)
            .into_iter()
            .map(|h| if h.order { format!("  {}", h.text) } else { h.text })
            .collect()
    }

    #[test]
    fn each_action_is_followed_by_the_lines_that_led_to_it_under_its_round() {
        assert_eq!(
            texts(1),
            [
                "— SR3 —",
                "seat 1 buys a BY share",
                "  your line 1: not carried out: BUY 1 SX IPO: seat 1 has 12 M",
                "  your line 2: carried out: bought a 10 % BY certificate from the IPO",
                "  your orders: carried out: HR 14: after round 1 your orders no longer fit",
                "— OR3.1 —",
                "BY lays tile 7 on H4",
                "  seat 2's line 4: BY: LAY BEST",
            ]
        );
    }

    #[test]
    fn another_seats_report_shows_only_the_lines_it_carried_out() {
        let seen = texts(2).join("\n");
        assert!(!seen.contains("seat 1's line 2"), "a line whose text is not published is not shown: {seen}");
        assert!(
            !seen.contains("12 M") && !seen.contains("line 1"),
            "a line not carried out is private: {seen}"
        );
        assert!(!seen.contains("HR 14"), "a note on seat 1's sheet is private: {seen}");
        assert!(seen.contains("your line 4: carried out: BY: LAY 7 H4"), "{seen}");
    }

    #[test]
    fn an_outcome_stored_without_anchors_shows_its_events_alone() {
        let o = TurnOutcome { anchors: BTreeMap::new(), ..outcome() };
        let h = happened(&o, Seat(1), &|_, _| Some("a line".into()));
        assert_eq!(h.len(), 4);
        assert!(h.iter().all(|e| !e.order));
    }
}
