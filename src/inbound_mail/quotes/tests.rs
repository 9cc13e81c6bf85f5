use super::Aside;
use crate::inbound_mail::{SetAside, read_body};

/// The quoted report a reply carries: it holds lines that read as orders.
const REPORT: &str = "> Test Line — turn 3 result\n> Report for Anna (seat 1).\n>\n> YOUR ORDERS\n\
    >   line 1: carried out: claim Hearts with 2H at NORTH\n>\n> PUBLISHED ORDERS\n> CLAIM 6D EAST\n> DRAW";

fn runs(body: &str) -> Vec<(usize, usize, Aside)> {
    read_body(body).set_aside.iter().map(|s: &SetAside| (s.first, s.last, s.aside)).collect()
}

#[test]
fn ruling_m20_a_bottom_posted_reply_keeps_the_orders_below_the_quote() {
    let mail = format!(
        "On Mon, 2 Mar 2026 at 12:00, Stationmaster <gm@sm.test> wrote:\n\n{REPORT}\n\nPLAY 9S WEST ELSE DRAW\n"
    );
    let b = read_body(&mail);
    assert_eq!(b.text, "PLAY 9S WEST ELSE DRAW");
    assert_eq!(runs(&mail), vec![(1, 11, Aside::Quote)]);
}

#[test]
fn ruling_m20_an_inline_reply_keeps_every_line_between_the_quoted_ones() {
    let mail = "On Mon, Mar 02, 2026 at 12:00:00PM +0000, Stationmaster wrote:\n\
        > Hand of seat 1: 2D 9S 4H\nPLAY 9S WEST ELSE DRAW\n\n> CLAIM 6D EAST\n> Next deadline: Thu 5 Mar\nFINAL\n\n\
        > Your order page: http://sm.test/play/<token>\n";
    assert_eq!(read_body(mail).text, "PLAY 9S WEST ELSE DRAW\n\nFINAL");
    assert_eq!(runs(mail), vec![(1, 2, Aside::Quote), (5, 6, Aside::Quote), (9, 9, Aside::Quote)]);
}

#[test]
fn ruling_m20_a_top_posted_reply_keeps_the_orders_above_the_quote_and_its_signature_is_set_aside() {
    let mail = format!(
        "CLAIM 7H NORTH\n\n-- \nAnna Example\n\nOn Mon, 2 Mar 2026 at 12:00, Stationmaster wrote:\n{REPORT}"
    );
    assert_eq!(read_body(&mail).text, "CLAIM 7H NORTH");
    assert_eq!(runs(&mail), vec![(3, 4, Aside::Signature), (6, 15, Aside::Quote)]);
}

#[test]
fn ruling_m20_a_signature_ends_where_a_quote_begins_and_text_below_the_quote_counts() {
    let mail = "DRAW\n-- \nAnna\n> PLAY 2H NORTH\nFINAL";
    assert_eq!(read_body(mail).text, "DRAW\nFINAL");
    assert_eq!(read_body("DRAW\n-- \nAnna\nFINAL").text, "DRAW", "after the delimiter, all is signature");
}

#[test]
fn ruling_m20_attributions_in_other_languages_and_wrapped_over_lines_open_a_quote() {
    for attribution in [
        "Am Mo., 2. März 2026 um 12:00 Uhr schrieb Stationmaster <\ngm@sm.test>:",
        "Le lun. 2 mars 2026 à 12:00, Stationmaster <gm@sm.test> a écrit :",
        "El lun, 2 mar 2026 a las 12:00, Stationmaster (<gm@sm.test>)\nescribió:",
        "Op ma 2 mrt 2026 om 12:00 schreef Stationmaster <gm@sm.test>:",
        "On 02/03/2026 12:00, Stationmaster wrote:",
    ] {
        let mail = format!("{attribution}\n{REPORT}\n\nDRAW");
        assert_eq!(read_body(&mail).text, "DRAW", "{attribution}");
    }
}

#[test]
fn ruling_m21_an_unmarked_quote_runs_to_the_end_of_the_mail() {
    // Outlook quotes without `>`: what is typed below its header cannot be told from the quote.
    let mail = "CLAIM 7H NORTH\n\nFrom: Stationmaster <gm@sm.test>\nSent: Monday, March 2, 2026 12:00 PM\n\
        To: Anna\nSubject: Turn 3\n\nCLAIM 6D EAST\nDRAW";
    assert_eq!(read_body(mail).text, "CLAIM 7H NORTH");
    assert_eq!(runs(mail), vec![(3, 9, Aside::Quote)]);
    // An attribution with no `>` line under it, too.
    assert_eq!(read_body("DRAW\nOn Mon, X wrote:\nCLAIM 6D EAST").text, "DRAW");
}

#[test]
fn ruling_m21_a_forwarded_message_is_never_taken_for_orders_but_the_text_above_it_is() {
    for opening in [
        "---------- Forwarded message ---------",
        "-------- Forwarded Message --------",
        "Begin forwarded message:",
        "---------- Weitergeleitete Nachricht ---------",
    ] {
        let mail = format!(
            "CLAIM 7H NORTH\n\n{opening}\nFrom: Anna <anna@example.org>\nSubject: orders\n\nPLAY 9S WEST\nFINAL"
        );
        assert_eq!(read_body(&mail).text, "CLAIM 7H NORTH", "{opening}");
        assert_eq!(runs(&mail), vec![(3, 8, Aside::Forwarded)], "{opening}");
    }
    // Forwarded as a quote (`>` lines): the run is still told as a forwarded message.
    let quoted = "DRAW\n> ---------- Forwarded message ---------\n> PLAY 9S WEST";
    assert_eq!((read_body(quoted).text.as_str(), runs(quoted)), ("DRAW", vec![(2, 3, Aside::Forwarded)]));
}

#[test]
fn a_phones_footer_is_a_signature_line_of_its_own() {
    let mail = "PLAY 9S WEST\n\nSent from my iPhone\n\n> On 2 Mar 2026, at 12:00, Stationmaster <gm@sm.test> wrote:\n>\n> DRAW";
    assert_eq!(read_body(mail).text, "PLAY 9S WEST");
    assert_eq!(runs(mail), vec![(3, 3, Aside::Signature), (5, 7, Aside::Quote)]);
    assert_eq!(read_body("DRAW\nGet Outlook for iOS<https://aka.ms/o0ukef>").text, "DRAW");
}

#[test]
fn lines_that_merely_resemble_openings_stay_the_players() {
    for own in [
        "On second thought DRAW",
        "Amsterdam route: CLAIM 7H NORTH",
        "-- CLAIM 7H NORTH",
        "Sent from my kitchen, where I think DRAW is best",
    ] {
        assert_eq!(read_body(own).text, own);
    }
}
