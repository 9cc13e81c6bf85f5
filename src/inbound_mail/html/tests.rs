use super::html_to_text;
use crate::inbound_mail::clean_body;

#[test]
fn each_div_is_a_line_of_its_own() {
    let html = "<div dir=\"ltr\"><div>CLAIM 2H NORTH ELSE DRAW</div><div>FINAL</div></div>";
    assert_eq!(html_to_text(html), "CLAIM 2H NORTH ELSE DRAW\nFINAL");
}

#[test]
fn paragraphs_breaks_list_items_rows_and_headings_end_lines() {
    let html = "<html><head><title>x</title><style>p { color: red }</style></head><body>\
        <h1>Orders</h1><p>CLAIM 7H<br>NORTH</p><ul><li>DRAW</li><li>PASS</li></ul>\
        <table><tr><td>PLAY</td><td>8H</td></tr><tr><td>FINAL</td></tr></table></body></html>";
    assert_eq!(html_to_text(html), "Orders\nCLAIM 7H\nNORTH\nDRAW\nPASS\nPLAY 8H\nFINAL");
}

#[test]
fn white_space_is_folded_except_in_pre() {
    let html = "<p>  CLAIM\n   7H   NORTH </p><pre>DRAW\n  PASS</pre>x&nbsp;&amp;&#65;&#x42;&bogus;";
    assert_eq!(html_to_text(html), "CLAIM 7H NORTH\nDRAW\n  PASS\nx &AB&bogus;");
}

#[test]
fn blockquotes_and_gmail_thunderbird_and_yahoo_quotes_are_written_as_quoted_lines() {
    let gmail = "<div>DRAW</div><br><div class=\"gmail_quote\"><div class=\"gmail_attr\">On Mon, X wrote:</div>\
        <blockquote class=\"gmail_quote\"><div>PLAY 2H NORTH</div><div><div>x</div></div></blockquote></div><div>FINAL</div>";
    assert_eq!(html_to_text(gmail), "DRAW\n\n> On Mon, X wrote:\n> PLAY 2H NORTH\n> x\nFINAL");
    let apple = "<div>DRAW</div><blockquote type=\"cite\"><div>PLAY 2H N</div><blockquote>old</blockquote>x</blockquote>";
    assert_eq!(html_to_text(apple), "DRAW\n> PLAY 2H N\n> old\n> x");
    let tb = "<p>DRAW</p><div class=\"moz-cite-prefix\">Am 1.3. schrieb X:<br></div><blockquote type=cite>CLAIM</blockquote>";
    assert_eq!(html_to_text(tb), "DRAW\n> Am 1.3. schrieb X:\n> CLAIM");
    let yahoo = "<div>DRAW</div><div class='yahoo_quoted'><div>PASS</div></div>";
    assert_eq!(html_to_text(yahoo), "DRAW\n> PASS");
    for html in [gmail, apple, tb, yahoo] {
        assert!(clean_body(&html_to_text(html)).starts_with("DRAW"), "{html}");
        assert!(
            !clean_body(&html_to_text(html)).contains("PLAY")
                && !clean_body(&html_to_text(html)).contains("PASS")
        );
    }
}

#[test]
fn ruling_m20_an_html_only_reply_below_or_between_quotes_keeps_the_players_lines() {
    // Apple Mail: the attribution above the blockquote, the reply below it.
    let apple = "<html><body dir=\"auto\"><div>On 2 Mar 2026, at 12:00, Stationmaster &lt;gm@sm.test&gt; wrote:</div>\
        <br><blockquote type=\"cite\"><div>Test Line — turn 3 result</div><div>line 1: CLAIM 2H NORTH</div></blockquote>\
        <div>PLAY 9S WEST ELSE DRAW</div></body></html>";
    assert_eq!(clean_body(&html_to_text(apple)), "PLAY 9S WEST ELSE DRAW");
    // Thunderbird: an inline reply splits the quote.
    let tb = "<div class=\"moz-cite-prefix\">On 02/03/2026 12:00, Stationmaster wrote:<br></div>\
        <blockquote type=\"cite\">Your hand: 9S 4H<br>Seat 2's line 1: CLAIM 6D EAST</blockquote>\
        <p>PLAY 9S WEST</p><blockquote type=\"cite\">Next deadline: Thu 5 Mar</blockquote><p>FINAL</p>";
    assert_eq!(clean_body(&html_to_text(tb)), "PLAY 9S WEST\nFINAL");
    // Gmail: the reply under its quote container.
    let gmail = "<div dir=\"ltr\"><br></div><div class=\"gmail_quote\"><div dir=\"ltr\" class=\"gmail_attr\">On Mon, \
        Mar 2, 2026 at 12:00\u{a0}PM Stationmaster &lt;gm@sm.test&gt; wrote:<br></div><blockquote class=\"gmail_quote\">\
        <div>line 1: CLAIM 2H NORTH</div></blockquote></div><div>PLAY 9S WEST ELSE DRAW</div>";
    assert_eq!(clean_body(&html_to_text(gmail)), "PLAY 9S WEST ELSE DRAW");
}

#[test]
fn from_an_outlook_reply_marker_on_everything_is_the_quote() {
    let owa = "<div>DRAW</div><div id=\"appendonsend\"></div><hr><div id=\"divRplyFwdMsg\">From: x</div><div>PLAY 2H N</div>";
    assert_eq!(html_to_text(owa), "DRAW\n> From: x\n> PLAY 2H N");
    assert_eq!(clean_body(&html_to_text(owa)), "DRAW");
}

#[test]
fn a_signature_container_starts_with_a_signature_line() {
    let owa = "<div>DRAW</div><div id=\"Signature\"><div>Anna</div></div>";
    assert_eq!(html_to_text(owa), "DRAW\n--\nAnna");
    let gmail = "<div>DRAW</div><span class=\"gmail_signature_prefix\">-- </span><br>\
        <div dir=\"ltr\" class=\"gmail_signature\">Anna</div>";
    assert_eq!(html_to_text(gmail), "DRAW\n--\nAnna", "no second delimiter");
}

#[test]
fn broken_html_still_gives_its_text() {
    assert_eq!(html_to_text("a < b <3 <div class=\"x>y\">c</div"), "a < b <3\nc");
    assert_eq!(html_to_text("<!-- PLAY 2H --><!DOCTYPE html>DRAW<script>if (a<b) x()</script>"), "DRAW");
    assert_eq!(html_to_text("<blockquote>never closed"), "> never closed");
    assert_eq!(html_to_text("Grüße&#xD800;"), "Grüße&#xD800;");
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(2000))]
    /// Whatever the bytes of an HTML part, the conversion ends, never panics, and writes no
    /// line with white space at its end.
    #[test]
    fn any_html_converts_without_panicking(
        parts in proptest::collection::vec(proptest::sample::select(vec![
            "<div>", "</div>", "<p class='x'>", "<br/>", "<blockquote>", "</blockquote>", "<pre>",
            "</pre>", "<!--", "-->", "<", ">", "&", "&amp;", "&#x", ";", "\"", "'", "=", " ", "\n",
            "é", "ü", "CLAIM", "<div class=\"gmail_quote\">", "<script>", "</script", "<td>", "<!",
        ]), 0..40),
    ) {
        let html: String = parts.concat();
        let text = html_to_text(&html);
        proptest::prop_assert!(text.lines().all(|l| l == l.trim_end()), "{html:?} → {text:?}");
    }
}
