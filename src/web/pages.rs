//! Public pages: the list of games, a game's public page, a published turn's orders. Nothing
//! here shows a hand or a sealed order.

use super::WebError;
use crate::domain::GameId;
use crate::draw::Part;
use crate::engine::Viewer;
use crate::service::order_pages;
use crate::service::{self, Ctx, PublicGame, PublishedPage};
use askama::Template;
use askama_web::WebTemplate;
use axum::Router;
use axum::extract::rejection::QueryRejection;
use axum::extract::{Path, Query, State};
use axum::routing::get;
use serde::Deserialize;

pub fn routes() -> Router<Ctx> {
    Router::new()
        .route("/", get(index))
        .route("/games/{id}", get(game))
        .route("/games/{id}/turns/{turn}/orders", get(turn_orders))
}

pub(super) fn game_id(s: &str) -> Result<GameId, WebError> {
    s.parse::<GameId>().map_err(|e| WebError::not_found(e.to_string()))
}

#[derive(Template, WebTemplate)]
#[template(path = "web/index.html")]
struct IndexPage {
    games: Vec<service::GameSummary>,
}

async fn index(State(ctx): State<Ctx>) -> Result<IndexPage, WebError> {
    let mut conn = ctx.pool.acquire().await.map_err(WebError::internal)?;
    Ok(IndexPage { games: service::recent_games(&mut conn).await? })
}

#[derive(Template, WebTemplate)]
#[template(path = "web/game.html")]
struct GamePage {
    g: PublicGame,
    /// The public table's drawing in parts, ready to be placed in the page ([`placed`]).
    pictures: Vec<Part>,
}

async fn game(State(ctx): State<Ctx>, Path(id): Path<String>) -> Result<GamePage, WebError> {
    let mut conn = ctx.pool.acquire().await.map_err(WebError::internal)?;
    let mut g = service::public_game(&mut conn, game_id(&id)?, Viewer::Public).await?;
    let pictures = placed(std::mem::take(&mut g.pictures));
    Ok(GamePage { g, pictures })
}

/// A drawing's parts as elements to place in a page ([`inline_svg`]), each without a fixed size
/// so that the page's stylesheet scales it to the page's width from its `viewBox` (issue 36). A
/// part that is not a plain picture is left out (and logged).
pub(super) fn placed(parts: Vec<Part>) -> Vec<Part> {
    parts
        .into_iter()
        .filter_map(|p| Some(Part { svg: crate::draw::part::fluid(&inline_svg(Some(p.svg))?), ..p }))
        .collect()
}

/// An engine's SVG document as an element to place in a page: the XML declaration, a doctype and
/// comments before the `<svg>` element are dropped. A drawing that is not one `<svg>` element, or
/// that carries script or foreign content, is not placed (the page keeps its text view; the
/// defect is logged): the page's policy forbids scripts anyway, this keeps markup that is not
/// a picture out of it (RULING W12).
pub(super) fn inline_svg(doc: Option<String>) -> Option<String> {
    let doc = doc?;
    let mut rest = doc.trim_start();
    loop {
        let skip = if rest.starts_with("<?") {
            rest.find("?>").map(|i| i + 2)
        } else if rest.starts_with("<!--") {
            rest.find("-->").map(|i| i + 3)
        } else if rest.starts_with("<!") {
            rest.find('>').map(|i| i + 1)
        } else {
            break;
        };
        rest = rest[skip.unwrap_or(rest.len())..].trim_start();
    }
    let lower = rest.to_ascii_lowercase();
    let one_svg = lower.starts_with("<svg") && lower.trim_end().ends_with("</svg>");
    if !one_svg || lower.contains("<script") || lower.contains("<foreignobject") || has_handler(&lower) {
        tracing::error!(drawing.start = %rest.chars().take(60).collect::<String>(), "a drawing that is not a plain SVG element was not placed in the page");
        return None;
    }
    Some(rest.trim_end().to_string())
}

/// Whether markup has an event-handler attribute (`onload=`, `onclick =` …).
fn has_handler(lower: &str) -> bool {
    lower.match_indices("on").any(|(i, _)| {
        let after_space = lower[..i].ends_with(|c: char| c.is_ascii_whitespace());
        let name: String = lower[i + 2..].chars().take_while(|c| c.is_ascii_alphabetic()).collect();
        after_space && !name.is_empty() && lower[i + 2 + name.len()..].trim_start().starts_with('=')
    })
}

#[cfg(test)]
mod tests {
    use super::inline_svg;

    #[test]
    fn a_drawing_loses_its_xml_declaration_and_doctype_before_it_is_placed() {
        let doc = "<?xml version=\"1.0\"?>\n<!DOCTYPE svg>\n<!-- table -->\n<svg viewBox=\"0 0 10 10\"><rect width=\"5\" height=\"5\"/></svg>\n";
        assert_eq!(
            inline_svg(Some(doc.into())).unwrap(),
            "<svg viewBox=\"0 0 10 10\"><rect width=\"5\" height=\"5\"/></svg>"
        );
    }

    #[test]
    fn a_drawing_with_script_or_handlers_or_other_markup_is_not_placed() {
        for doc in [
            "<svg><script>alert(1)</script></svg>",
            "<svg onload=\"alert(1)\"></svg>",
            "<svg\n\tonload=\"alert(1)\"></svg>",
            "<svg><rect onclick = \"x()\"/></svg>",
            "<svg><foreignObject><p>x</p></foreignObject></svg>",
            "<div>not a picture</div>",
            "<svg></svg><p>more</p>",
        ] {
            assert_eq!(inline_svg(Some(doc.into())), None, "{doc}");
        }
        assert!(inline_svg(Some("<svg><text x=\"1\">one of them</text></svg>".into())).is_some());
        assert_eq!(inline_svg(None), None);
    }
}

#[derive(Template, WebTemplate)]
#[template(path = "web/turn_orders.html")]
struct TurnOrdersPage {
    game: String,
    turn: i32,
    page: PublishedPage,
}

#[derive(Deserialize)]
struct TurnPageQuery {
    after: Option<String>,
}

/// A published turn's orders, a page at a time (RULING W1).
async fn turn_orders(
    State(ctx): State<Ctx>,
    Path((id, turn)): Path<(String, i32)>,
    query: Result<Query<TurnPageQuery>, QueryRejection>,
) -> Result<TurnOrdersPage, WebError> {
    let Query(q) = query.map_err(|e| WebError::bad_request(e.body_text()))?;
    let game = game_id(&id)?;
    let after = q.after.as_deref().map(order_pages::parse_after).transpose()?;
    let mut conn = ctx.pool.acquire().await.map_err(WebError::internal)?;
    let page =
        service::published_orders(&mut conn, game, turn, Viewer::Public, after, order_pages::PAGE_SIZE)
            .await?;
    Ok(TurnOrdersPage { game: id, turn, page })
}
