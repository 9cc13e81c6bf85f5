//! The picture of the table after a published turn, at a stable address (issue 16):
//! `/games/{id}/turns/{n}/table.svg`, the public drawing only (a seat's own picture, with its
//! hand, is never served here). Unpublished and unknown turns are 404.
//!
//! The whole picture of the table now, at full size, behind the parts a page shows scaled
//! (issue 36): `/games/{id}/table.svg` the public one, `/play/{token}/table.svg` the seat's own
//! (behind its secret link, like the seat page).
//!
//! Each also as PNG (`table.png`, issue 38, RULING W55): the same drawing rendered once and kept under the
//! SHA-256 of its SVG (`service::pictures::png_of`), so every later request — and every report
//! mail showing the same drawing — takes the kept PNG, and a viewer is only ever given the
//! rendering of its own drawing (RULING O25).

use super::WebError;
use super::pages::game_id;
use crate::engine::Viewer;
use crate::service::{self, Ctx};
use axum::Router;
use axum::extract::{Path, State};
use axum::http::header;
use axum::response::IntoResponse;
use axum::routing::get;

pub fn routes() -> Router<Ctx> {
    Router::new()
        .route("/games/{id}/turns/{turn}/table.svg", get(table))
        .route("/games/{id}/table.svg", get(public_now))
        .route("/play/{token}/table.svg", get(seat_now))
        .route("/games/{id}/turns/{turn}/table.png", get(table_png))
        .route("/games/{id}/table.png", get(public_now_png))
        .route("/play/{token}/table.png", get(seat_now_png))
}

/// A published turn's table never changes: caches may keep it for a day.
const CACHE: &str = "public, max-age=86400";

async fn table(
    State(ctx): State<Ctx>,
    Path((id, turn)): Path<(String, String)>,
) -> Result<impl IntoResponse, WebError> {
    let svg = turn_svg(&ctx, &id, &turn).await?;
    Ok(([(header::CONTENT_TYPE, "image/svg+xml; charset=utf-8"), (header::CACHE_CONTROL, CACHE)], svg))
}

/// The public drawing after a published turn.
async fn turn_svg(ctx: &Ctx, id: &str, turn: &str) -> Result<String, WebError> {
    let game = game_id(id)?;
    let turn: i32 = turn.parse().map_err(|_| WebError::not_found(format!("there is no turn \"{turn}\"")))?;
    let mut conn = ctx.pool.acquire().await.map_err(WebError::internal)?;
    Ok(service::turn_picture(&mut conn, game, turn).await?)
}

/// A drawing's kept PNG as an answer, with `cache` as its caching rule.
async fn png_answer(
    ctx: &Ctx,
    svg: Option<String>,
    cache: &'static str,
) -> Result<impl IntoResponse + use<>, WebError> {
    let svg = svg.ok_or_else(|| WebError::not_found("this game has no picture"))?;
    let png = service::pictures::png_of(ctx, &svg).await?;
    Ok(([(header::CONTENT_TYPE, "image/png"), (header::CACHE_CONTROL, cache)], png))
}

/// A published turn's public picture as PNG.
async fn table_png(
    State(ctx): State<Ctx>,
    Path((id, turn)): Path<(String, String)>,
) -> Result<impl IntoResponse, WebError> {
    let svg = turn_svg(&ctx, &id, &turn).await?;
    png_answer(&ctx, Some(svg), CACHE).await
}

/// The public picture of the table now as PNG.
async fn public_now_png(
    State(ctx): State<Ctx>,
    Path(id): Path<String>,
) -> Result<impl IntoResponse, WebError> {
    let game = game_id(&id)?;
    let svg = {
        let mut conn = ctx.pool.acquire().await.map_err(WebError::internal)?;
        service::current_picture(&mut conn, game, Viewer::Public).await?
    };
    png_answer(&ctx, svg, "no-cache").await
}

/// The seat's own picture of the table now as PNG (behind its secret link).
async fn seat_now_png(
    State(ctx): State<Ctx>,
    Path(token): Path<String>,
) -> Result<impl IntoResponse, WebError> {
    let who = super::play::auth(&ctx, &token).await?;
    let svg = {
        let mut conn = ctx.pool.acquire().await.map_err(WebError::internal)?;
        service::current_picture(&mut conn, who.game, Viewer::Seat(who.seat)).await?
    };
    png_answer(&ctx, svg, "no-cache").await
}

/// An SVG document as an answer; the table now changes with every turn, so it is not cached
/// (the seat's is private: the headers middleware marks `/play/` answers `no-store`).
fn svg_answer(svg: Option<String>) -> Result<impl IntoResponse + use<>, WebError> {
    let svg = svg.ok_or_else(|| WebError::not_found("this game has no picture"))?;
    Ok(([(header::CONTENT_TYPE, "image/svg+xml; charset=utf-8"), (header::CACHE_CONTROL, "no-cache")], svg))
}

/// The public picture of the table now, whole.
async fn public_now(State(ctx): State<Ctx>, Path(id): Path<String>) -> Result<impl IntoResponse, WebError> {
    let game = game_id(&id)?;
    let mut conn = ctx.pool.acquire().await.map_err(WebError::internal)?;
    svg_answer(service::current_picture(&mut conn, game, Viewer::Public).await?)
}

/// The seat's own picture of the table now, whole (its hand included: behind its secret link).
async fn seat_now(State(ctx): State<Ctx>, Path(token): Path<String>) -> Result<impl IntoResponse, WebError> {
    let who = super::play::auth(&ctx, &token).await?;
    let mut conn = ctx.pool.acquire().await.map_err(WebError::internal)?;
    svg_answer(service::current_picture(&mut conn, who.game, Viewer::Seat(who.seat)).await?)
}
