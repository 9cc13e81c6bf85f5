//! The JSON API. A seat authenticates with `Authorization: Bearer <seat token>`; orders are the
//! raw request body (text). Answers are JSON; errors are `{"error": "..."}` with a fitting status.

use super::{ApiError, WebError};
use crate::domain::{GameId, SecretToken};
use crate::engine::Viewer;
use crate::orders::{OrderText, OrderTextError};
use crate::service::{self, Ctx, SeatAuth, Source, order_pages};
use axum::body::Bytes;
use axum::extract::rejection::QueryRejection;
use axum::extract::{Path, Query, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::Deserialize;
use serde_json::{Value, json};

pub fn routes() -> Router<Ctx> {
    Router::new()
        .route("/api/v1/games/{id}", get(game))
        .route("/api/v1/games/{id}/orders", post(submit).get(own_orders))
        .route("/api/v1/games/{id}/orders/final", post(finalise))
        .route("/api/v1/games/{id}/turns/{turn}/orders", get(turn_orders))
}

fn game_id(s: &str) -> Result<GameId, ApiError> {
    s.parse::<GameId>().map_err(|e| ApiError(WebError::not_found(e.to_string())))
}

/// The bearer token of a request, if any.
fn bearer(headers: &HeaderMap) -> Result<Option<SecretToken>, ApiError> {
    let Some(value) = headers.get(header::AUTHORIZATION) else {
        return Ok(None);
    };
    let text = value.to_str().unwrap_or_default();
    match text.split_once(' ') {
        Some((scheme, token)) if scheme.eq_ignore_ascii_case("bearer") && !token.trim().is_empty() => {
            Ok(Some(SecretToken::presented(token)))
        }
        _ => Err(ApiError(WebError::new(
            StatusCode::UNAUTHORIZED,
            "the Authorization header must be \"Bearer <seat token>\"",
        ))),
    }
}

async fn seat(ctx: &Ctx, headers: &HeaderMap, game: GameId) -> Result<SeatAuth, ApiError> {
    let token = bearer(headers)?.ok_or_else(|| {
        ApiError(WebError::new(
            StatusCode::UNAUTHORIZED,
            "send the seat's token as \"Authorization: Bearer <token>\"",
        ))
    })?;
    let mut conn = ctx.pool.acquire().await.map_err(WebError::internal)?;
    Ok(service::authenticate_seat(&mut conn, Some(game), &token).await?)
}

#[derive(Deserialize)]
struct SubmitQuery {
    #[serde(default, rename = "final")]
    final_: bool,
}

async fn submit(
    State(ctx): State<Ctx>,
    Path(id): Path<String>,
    Query(q): Query<SubmitQuery>,
    headers: HeaderMap,
    body: Bytes,
) -> Result<(StatusCode, Json<service::Submitted>), ApiError> {
    let game = game_id(&id)?;
    let who = seat(&ctx, &headers, game).await?;
    let text = OrderText::from_bytes(&body).map_err(|e| {
        let status = match e {
            OrderTextError::TooLarge(_) => StatusCode::PAYLOAD_TOO_LARGE,
            _ => StatusCode::BAD_REQUEST,
        };
        ApiError(WebError::new(status, e.to_string()))
    })?;
    let done = service::submit_orders(&ctx, &who, &text, Source::Api, q.final_).await?;
    Ok((StatusCode::CREATED, Json(done)))
}

async fn finalise(
    State(ctx): State<Ctx>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Json<Value>, ApiError> {
    let who = seat(&ctx, &headers, game_id(&id)?).await?;
    let version = service::mark_final(&ctx, &who).await?;
    Ok(Json(json!({ "final": true, "version": version })))
}

/// A page of versions as JSON: the versions, how many there are, the query for the next page.
fn page_json(page: order_pages::VersionPage, extra: Value) -> Json<Value> {
    let mut body =
        json!({ "turn": page.turn, "versions": page.versions, "total": page.total, "next": page.next });
    if let (Some(body), Value::Object(extra)) = (body.as_object_mut(), extra) {
        body.extend(extra);
    }
    Json(body)
}

#[derive(Deserialize)]
struct SeatPageQuery {
    before: Option<i32>,
    limit: Option<i64>,
}

/// The seat's versions for the current turn, newest first, a page at a time (RULING W1).
async fn own_orders(
    State(ctx): State<Ctx>,
    Path(id): Path<String>,
    query: Result<Query<SeatPageQuery>, QueryRejection>,
    headers: HeaderMap,
) -> Result<Json<Value>, ApiError> {
    let Query(q) = query.map_err(|e| ApiError(WebError::bad_request(e.body_text())))?;
    let who = seat(&ctx, &headers, game_id(&id)?).await?;
    let limit = order_pages::page_size(q.limit)?;
    let mut conn = ctx.pool.acquire().await.map_err(WebError::internal)?;
    let page = order_pages::seat_orders(&mut conn, &who, q.before, limit).await?;
    Ok(page_json(page, json!({ "seat": who.seat })))
}

#[derive(Deserialize)]
struct TurnPageQuery {
    after: Option<String>,
    limit: Option<i64>,
}

/// A published turn's orders, a page at a time by seat and version (RULING W1): every line's
/// hash, the public lines' text and salt; with a seat's Bearer token, that seat's own sheets
/// whole (rulings P1-P4).
async fn turn_orders(
    State(ctx): State<Ctx>,
    Path((id, turn)): Path<(String, i32)>,
    query: Result<Query<TurnPageQuery>, QueryRejection>,
    headers: HeaderMap,
) -> Result<Json<Value>, ApiError> {
    let Query(q) = query.map_err(|e| ApiError(WebError::bad_request(e.body_text())))?;
    let game = game_id(&id)?;
    let viewer = match bearer(&headers)? {
        Some(_) => Viewer::Seat(seat(&ctx, &headers, game).await?.seat),
        None => Viewer::Public,
    };
    let after = q.after.as_deref().map(order_pages::parse_after).transpose()?;
    let limit = order_pages::page_size(q.limit)?;
    let mut conn = ctx.pool.acquire().await.map_err(WebError::internal)?;
    let page = service::published_orders(&mut conn, game, turn, viewer, after, limit).await?;
    Ok(Json(json!({ "turn": page.turn, "versions": page.sheets, "total": page.total, "next": page.next })))
}

async fn game(
    State(ctx): State<Ctx>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Json<Value>, ApiError> {
    let game = game_id(&id)?;
    let viewer = match bearer(&headers)? {
        Some(_) => Viewer::Seat(seat(&ctx, &headers, game).await?.seat),
        None => Viewer::Public,
    };
    let mut conn = ctx.pool.acquire().await.map_err(WebError::internal)?;
    let g = service::public_game(&mut conn, game, viewer).await?;
    let turn = g.turns.last();
    Ok(Json(json!({
        "id": g.game.id,
        "name": g.game.name,
        "engine": g.game.engine,
        "status": g.game.status,
        "turn": g.game.current_turn,
        "turn_status": turn.map(|t| t.status),
        "deadline": turn.map(|t| t.deadline),
        "seats": g.seats,
        "view": g.view,
    })))
}
