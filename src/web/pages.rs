//! Public pages: the list of games, a game's public page, a published turn's orders. Nothing
//! here shows a hand or a sealed order.

use super::WebError;
use crate::domain::GameId;
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
}

async fn game(State(ctx): State<Ctx>, Path(id): Path<String>) -> Result<GamePage, WebError> {
    let mut conn = ctx.pool.acquire().await.map_err(WebError::internal)?;
    Ok(GamePage { g: service::public_game(&mut conn, game_id(&id)?, Viewer::Public).await? })
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
