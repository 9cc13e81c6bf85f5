//! A game's order guide (the Markdown of `docs/`, as the engine carries it) served as a page:
//! `/guides/{engine}`, linked from the order box and the welcome mail. Raw HTML in the Markdown
//! is shown as text, never passed through; links that point into the source tree (other files
//! of `docs/`) would lead nowhere on the server and become plain text (RULING W13).

use super::WebError;
use crate::service::{self, Ctx};
use askama::Template;
use askama_web::WebTemplate;
use axum::Router;
use axum::extract::Path;
use axum::routing::get;
use pulldown_cmark::{CowStr, Event, Options, Parser, Tag, TagEnd};

pub fn routes() -> Router<Ctx> {
    Router::new().route("/guides/{engine}", get(show))
}

#[derive(Template, WebTemplate)]
#[template(path = "web/guide.html")]
struct GuidePage {
    title: &'static str,
    /// The guide as HTML, made by [`to_html`] (escaped wherever it holds text).
    html: String,
}

async fn show(Path(engine): Path<String>) -> Result<GuidePage, WebError> {
    let guide = service::order_guide(&engine)
        .ok_or_else(|| WebError::not_found(format!("there is no order guide for \"{engine}\"")))?;
    Ok(GuidePage { title: guide.title, html: to_html(guide.markdown) })
}

/// Whether a link target leads somewhere from a page of the server: the web, mail, or a heading
/// of the same page.
fn reachable(url: &str) -> bool {
    ["https://", "http://", "mailto:"].iter().any(|p| url.starts_with(p))
}

/// Markdown to HTML: tables on, raw HTML escaped (shown as the text it is), images as their alt
/// text (the page loads nothing but our stylesheet), links into the source tree as plain text.
pub(super) fn to_html(markdown: &str) -> String {
    let mut dropped_links = 0usize;
    let mut in_image = 0usize;
    let events = Parser::new_ext(markdown, Options::ENABLE_TABLES).filter_map(|event| match event {
        Event::Html(raw) | Event::InlineHtml(raw) => Some(Event::Text(raw)),
        Event::Start(Tag::Link { ref dest_url, .. }) if !reachable(dest_url) => {
            dropped_links += 1;
            None
        }
        Event::End(TagEnd::Link) if dropped_links > 0 => {
            dropped_links -= 1;
            None
        }
        Event::Start(Tag::Image { .. }) => {
            in_image += 1;
            None
        }
        Event::End(TagEnd::Image) => {
            in_image = in_image.saturating_sub(1);
            None
        }
        Event::Text(t) if in_image > 0 => Some(Event::Text(CowStr::from(format!("[{t}]")))),
        other => Some(other),
    });
    let mut html = String::with_capacity(markdown.len() * 3 / 2);
    pulldown_cmark::html::push_html(&mut html, events);
    html
}

#[cfg(test)]
mod tests {
    use super::to_html;
    use crate::registry;

    #[test]
    fn raw_html_in_a_guide_is_shown_as_text_not_passed_through() {
        let html = to_html("A <script>alert(1)</script> line\n\n<div onclick=\"x\">block</div>\n");
        assert!(!html.contains("<script") && !html.contains("<div"), "{html}");
        assert!(html.contains("&lt;script&gt;") && html.contains("&lt;div"), "{html}");
    }

    #[test]
    fn links_into_the_source_tree_become_text_and_web_links_stay() {
        let html = to_html("See [the rulings](RULINGS.md#1833) and [Rails](https://example.org/rails).");
        assert!(html.contains("See the rulings and"), "{html}");
        assert!(html.contains("<a href=\"https://example.org/rails\">Rails</a>"), "{html}");
        assert!(!html.contains("RULINGS.md"), "{html}");
    }

    #[test]
    fn tables_and_code_blocks_of_a_guide_are_rendered() {
        let html =
            to_html("| Order | Meaning |\n|---|---|\n| `DRAW` | draw two |\n\n```\nPLAY 7H NORTH\n```\n");
        assert!(html.contains("<table>") && html.contains("<code>DRAW</code>"), "{html}");
        assert!(html.contains("<pre><code>PLAY 7H NORTH"), "{html}");
    }

    #[test]
    fn images_in_a_guide_become_their_alt_text() {
        let html = to_html("![the board](board.png)");
        assert!(!html.contains("<img") && html.contains("[the board]"), "{html}");
    }

    #[test]
    fn every_engine_has_an_order_guide_and_an_example_its_own_order_language_reads() {
        for engine in registry::engines() {
            let guide =
                engine.order_guide().unwrap_or_else(|| panic!("{} has no order guide", engine.slug()));
            assert!(to_html(guide).contains("<h1>"), "{}: the guide has a title", engine.slug());
            let example = engine.order_example();
            assert!(!example.trim().is_empty(), "{} has no order example", engine.slug());
            let seats = *engine.seat_counts().start();
            let spec = crate::engine::SetupSpec { seats, options: serde_json::json!({}) };
            let state = engine.setup(&spec, 7).unwrap();
            let echo = engine.check_orders(&state, crate::engine::Seat(1), example).unwrap();
            assert_eq!(
                echo.errors,
                0,
                "{}'s example is not read by its own language: {echo:?}",
                engine.slug()
            );
        }
    }
}
