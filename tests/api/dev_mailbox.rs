//! The dev mailbox shows a queued mail as it would be sent: From, To, Reply-To, Subject, the
//! text part, the HTML part (as escaped source, never rendered) and the calendar attachment.

use crate::db::test_db;
use crate::web_headers::app_with;
use axum::http::StatusCode;
use stationmaster::service::Review;

/// The text between `start` and the next `</pre>` of a page.
fn section<'a>(page: &'a str, start: &str) -> &'a str {
    let from = page.find(start).unwrap_or_else(|| panic!("no {start} in {page}")) + start.len();
    let len = page[from..].find("</pre>").expect("closed");
    &page[from..from + len]
}

#[tokio::test]
async fn the_dev_mailbox_shows_from_reply_to_and_the_html_and_calendar_parts_of_a_mail() {
    let (pool, _db) = test_db().await;
    let app = app_with(pool, true, "127.0.0.1:8080").await;
    let g = app.create_game(Review::Gm).await;
    let welcome = app
        .outbox()
        .await
        .into_iter()
        .find(|m| m.kind == "welcome" && m.to_addr == g.seats[0].player.email.to_string())
        .expect("the first player's welcome");
    let reply_to = welcome.reply_to.clone().expect("a welcome carries the seat's reply address");
    let html = welcome.body_html.clone().expect("a welcome has an HTML part");
    assert!(html.contains("<p") || html.contains("<a"), "the HTML part has markup: {html}");
    assert!(welcome.calendar.is_some(), "a welcome states the deadline and carries its calendar entry");

    let list = app.get("/dev/mailbox").await;
    assert_eq!(list.status, StatusCode::OK);
    assert!(list.body.contains(&reply_to), "the list shows Reply-To: {}", list.body);
    assert!(list.body.contains("text, HTML, calendar"), "and which parts a mail has: {}", list.body);

    let page = app.get(&format!("/dev/mailbox/{}", welcome.id)).await;
    assert_eq!(page.status, StatusCode::OK);
    // Askama escapes `<` and `>` as numeric references.
    let from = app.ctx.settings.mail_from.replace('<', "&#60;").replace('>', "&#62;");
    assert!(page.body.contains(&format!("<th>From</th><td>{from}</td>")), "From: {}", page.body);
    assert!(page.body.contains("<th>To</th><td>Anna &#60;anna@example.org&#62;</td>"), "To: {}", page.body);
    assert!(page.body.contains(&format!("<th>Reply-To</th><td>{reply_to}</td>")), "Reply-To: {}", page.body);
    assert!(page.body.contains(&welcome.subject), "Subject");
    assert!(
        section(&page.body, "<h2>Text part</h2>\n<pre>").contains(g.seats[0].link.as_str()),
        "the text part"
    );
    let shown = section(&page.body, "<pre class=\"html-part\">");
    assert!(!shown.contains('<'), "the HTML part is not rendered: {shown}");
    assert!(shown.contains("&#60;") && shown.contains(&g.seats[0].link), "but shown as its source: {shown}");
    let ics = section(&page.body, "<pre class=\"calendar-part\">");
    assert!(ics.contains("BEGIN:VCALENDAR") && ics.contains("BEGIN:VEVENT"), "the calendar part: {ics}");
    let csp = page.headers["content-security-policy"].to_str().unwrap();
    assert!(csp.contains("default-src 'none'"), "the page stays under the policy: {csp}");
}
