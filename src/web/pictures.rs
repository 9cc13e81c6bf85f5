//! The picture of the table after a published turn, at a stable address (issue 16):
//! `/games/{id}/turns/{n}/table.svg`, the public drawing only (a seat's own picture, with its
//! hand, is never served here). Unpublished and unknown turns are 404.

use super::WebError;
use super::pages::game_id;
use crate::service::{self, Ctx};
use axum::Router;
use axum::extract::{Path, State};
use axum::http::header;
use axum::response::IntoResponse;
use axum::routing::get;

pub fn routes() -> Router<Ctx> {
    Router::new().route("/games/{id}/turns/{turn}/table.svg", get(table))
}

/// A published turn's table never changes: caches may keep it for a day.
const CACHE: &str = "public, max-age=86400";

async fn table(
    State(ctx): State<Ctx>,
    Path((id, turn)): Path<(String, String)>,
) -> Result<impl IntoResponse, WebError> {
    let game = game_id(&id)?;
    let turn: i32 = turn.parse().map_err(|_| WebError::not_found(format!("there is no turn \"{turn}\"")))?;
    let mut conn = ctx.pool.acquire().await.map_err(WebError::internal)?;
    let svg = service::turn_picture(&mut conn, game, turn).await?;
    Ok(([(header::CONTENT_TYPE, "image/svg+xml; charset=utf-8"), (header::CACHE_CONTROL, CACHE)], svg))
}
