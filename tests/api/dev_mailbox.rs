//! The dev mailbox shows a queued mail as it would be sent: From, To, Reply-To, Subject, the
//! text part, the HTML part (rendered in a sandboxed frame under a policy that runs no script,
//! and as its escaped source) and the calendar attachment (RULING S17).

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

/// A mail's HTML part replaced by one that would run a script if anything let it.
pub(crate) const SCRIPTED: &str = "<p id=\"probe\">not run</p>\
    <script>document.getElementById('probe').textContent = 'ran';</script>\
    <img src=\"x\" onerror=\"document.getElementById('probe').textContent = 'ran';\">";

/// Replaces the HTML part of outbox mail `id` (a test's own hostile mail).
pub(crate) async fn set_html(app: &crate::helpers::TestApp, id: i64, html: &str) {
    let mut conn = app.ctx.pool.acquire().await.unwrap();
    sqlx::query("UPDATE outbox SET body_html = $2 WHERE id = $1")
        .bind(id)
        .bind(html)
        .execute(&mut *conn)
        .await
        .unwrap();
}

#[tokio::test]
async fn the_dev_mailbox_renders_the_html_part_in_a_sandboxed_frame_under_a_policy_without_scripts() {
    // RULING S17 (amended, issue 36): rendered as a mail client shows it, nothing runs.
    let (pool, _db) = test_db().await;
    let app = app_with(pool, true, "127.0.0.1:8080").await;
    app.create_game(Review::Gm).await;
    let mail = app.outbox().await.into_iter().find(|m| m.body_html.is_some()).expect("a mail with HTML");
    set_html(&app, mail.id, SCRIPTED).await;

    let page = app.get(&format!("/dev/mailbox/{}", mail.id)).await;
    assert_eq!(page.status, StatusCode::OK);
    let frame = format!("<iframe class=\"mail-html\" sandbox=\"\" src=\"/dev/mailbox/{}/html\"", mail.id);
    assert!(page.body.contains(&frame), "a frame with every sandbox restriction: {}", page.body);
    assert!(!page.body.contains("allow-scripts") && !page.body.contains("<script"), "{}", page.body);
    let csp = page.headers["content-security-policy"].to_str().unwrap();
    assert!(csp.contains("default-src 'none'") && csp.contains("frame-src 'self'"), "{csp}");
    assert!(!csp.contains("script-src"), "the page allows no script: {csp}");

    let framed = app.get(&format!("/dev/mailbox/{}/html", mail.id)).await;
    assert_eq!(framed.status, StatusCode::OK, "{}", framed.body);
    assert!(framed.headers["content-type"].to_str().unwrap().starts_with("text/html"));
    let csp = framed.headers["content-security-policy"].to_str().unwrap();
    assert!(csp.contains("default-src 'none'") && !csp.contains("script-src"), "no script may run: {csp}");
    assert!(csp.contains("frame-ancestors 'self'"), "framed by our page alone: {csp}");
    assert!(framed.body.contains("id=\"probe\""), "the mail's own HTML: {}", framed.body);

    let missing = app.get("/dev/mailbox/999999999/html").await;
    assert_eq!(missing.status, StatusCode::NOT_FOUND);
}
