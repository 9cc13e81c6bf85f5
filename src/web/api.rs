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
use axum::routing::get;
use axum::{Json, Router};
use serde::Deserialize;
use serde_json::{Value, json};
use std::sync::Arc;
use utoipa::{IntoParams, OpenApi, ToSchema};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

/// The API's description as OpenAPI 3 (issue 19): built from the same handlers and annotations
/// as the routes below, so a route cannot exist without being described.
#[derive(OpenApi)]
#[openapi(
    info(title = "Stationmaster API", version = "1", description = "Sealed orders and game views for the seats of a game (README, \"The JSON API\")."),
    modifiers(&SeatToken),
    components(schemas(ErrorBody))
)]
struct ApiDoc;

/// The seat token as an HTTP bearer scheme.
struct SeatToken;

impl utoipa::Modify for SeatToken {
    fn modify(&self, api: &mut utoipa::openapi::OpenApi) {
        use utoipa::openapi::security::{HttpAuthScheme, HttpBuilder, SecurityScheme};
        let scheme = SecurityScheme::Http(
            HttpBuilder::new()
                .scheme(HttpAuthScheme::Bearer)
                .description(Some("the seat token: the last part of the seat's private link"))
                .build(),
        );
        api.components.get_or_insert_with(Default::default).add_security_scheme("seat_token", scheme);
    }
}

/// Every error answer.
#[derive(ToSchema)]
#[allow(dead_code)] // a schema for the description; errors are built by `ApiError`
struct ErrorBody {
    /// Why, in words a player can read.
    error: String,
}

/// The API's routes with their description.
fn described() -> OpenApiRouter<Ctx> {
    OpenApiRouter::with_openapi(ApiDoc::openapi())
        .routes(routes!(game))
        .routes(routes!(submit, own_orders))
        .routes(routes!(finalise))
        .routes(routes!(turn_orders))
}

pub fn routes() -> Router<Ctx> {
    let (router, api) = described().split_for_parts();
    let spec = Arc::new(api);
    router.route(
        "/api/v1/openapi.json",
        get(move || {
            let spec = spec.clone();
            async move { Json(spec.as_ref().clone()) }
        }),
    )
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

/// The refusal of a call that needs a seat's token and has none.
fn missing_token() -> ApiError {
    ApiError(WebError::new(
        StatusCode::UNAUTHORIZED,
        "send the seat's token as \"Authorization: Bearer <token>\"",
    ))
}

async fn seat(ctx: &Ctx, headers: &HeaderMap, game: GameId) -> Result<SeatAuth, ApiError> {
    let token = bearer(headers)?.ok_or_else(missing_token)?;
    let mut conn = ctx.pool.acquire().await.map_err(WebError::internal)?;
    Ok(service::authenticate_seat(&mut conn, Some(game), &token).await?)
}

#[derive(Deserialize, IntoParams)]
struct SubmitQuery {
    /// Mark this version final at once.
    #[serde(default, rename = "final")]
    #[param(rename = "final")]
    final_: bool,
}

/// Sends the seat's orders for the current turn (a new version; the latest counts).
#[utoipa::path(post, path = "/api/v1/games/{id}/orders", tag = "orders",
    params(("id" = String, Path, description = "the game"), SubmitQuery),
    request_body(content = String, content_type = "text/plain", description = "the order text, one order per line"),
    responses(
        (status = 201, description = "stored: the echo (each line as understood), the version, the receipt digest. A line the order language cannot read does not cost the sheet (HR 16): it is stored, listed in the echo with its `error` (and a `suggestion` where one is found), counted in `echo.errors`, and ignored at adjudication; courtesy lines (\"thanks\") are listed with an `advice` note and neither `understood` nor `error`", body = serde_json::Value),
        (status = 400, description = "no order line (only blank lines, comments or courtesies), or past 50 versions this turn", body = ErrorBody),
        (status = 401, description = "no or malformed bearer token", body = ErrorBody),
        (status = 403, description = "the token is not a seat of this game", body = ErrorBody),
        (status = 409, description = "the turn is closed", body = ErrorBody),
        (status = 413, description = "the text is too large", body = ErrorBody),
        (status = 422, description = "no line could be understood: `error` and the `echo` with each line's error; nothing was stored", body = serde_json::Value),
    ),
    security(("seat_token" = [])))]
async fn submit(
    State(ctx): State<Ctx>,
    Path(id): Path<String>,
    Query(q): Query<SubmitQuery>,
    headers: HeaderMap,
    body: Bytes,
) -> Result<(StatusCode, Json<service::Submitted>), ApiError> {
    let game = game_id(&id)?;
    let text = match OrderText::from_bytes(&body) {
        Ok(text) => text,
        Err(e) => {
            // The token is judged first, as on every other call.
            seat(&ctx, &headers, game).await?;
            let status = match e {
                OrderTextError::TooLarge(_) => StatusCode::PAYLOAD_TOO_LARGE,
                _ => StatusCode::BAD_REQUEST,
            };
            return Err(ApiError(WebError::new(status, e.to_string())));
        }
    };
    let token = bearer(&headers)?.ok_or_else(missing_token)?;
    let done = service::submit_with_token(&ctx, game, &token, &text, Source::Api, q.final_).await?;
    Ok((StatusCode::CREATED, Json(done)))
}

/// Marks the seat's latest version final.
#[utoipa::path(post, path = "/api/v1/games/{id}/orders/final", tag = "orders",
    params(("id" = String, Path, description = "the game")),
    responses(
        (status = 200, description = "`{\"final\": true, \"version\": n}`", body = serde_json::Value),
        (status = 401, description = "no or malformed bearer token", body = ErrorBody),
        (status = 403, description = "the token is not a seat of this game", body = ErrorBody),
        (status = 404, description = "no orders on file this turn", body = ErrorBody),
    ),
    security(("seat_token" = [])))]
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

#[derive(Deserialize, IntoParams)]
struct SeatPageQuery {
    /// Versions older than this one.
    before: Option<i32>,
    /// Versions per page (at most 10).
    limit: Option<i64>,
}

/// The seat's versions for the current turn, newest first, a page at a time (RULING W1).
#[utoipa::path(get, path = "/api/v1/games/{id}/orders", tag = "orders",
    params(("id" = String, Path, description = "the game"), SeatPageQuery),
    responses(
        (status = 200, description = "`versions` (each with its lines' salts), `total`, `next` (the query of the next page or null), `turn`, `seat`", body = serde_json::Value),
        (status = 401, description = "no or malformed bearer token", body = ErrorBody),
        (status = 403, description = "the token is not a seat of this game", body = ErrorBody),
    ),
    security(("seat_token" = [])))]
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

#[derive(Deserialize, IntoParams)]
struct TurnPageQuery {
    /// Continue after this seat and version (`S.V`, from `next`).
    after: Option<String>,
    /// Versions per page (at most 10).
    limit: Option<i64>,
}

/// A published turn's orders, a page at a time by seat and version (RULING W1): every line's
/// hash, the public lines' text and salt; with a seat's Bearer token, that seat's own sheets
/// whole (rulings P1-P4).
#[utoipa::path(get, path = "/api/v1/games/{id}/turns/{turn}/orders", tag = "orders",
    params(("id" = String, Path, description = "the game"), ("turn" = i32, Path, description = "a published turn"), TurnPageQuery),
    responses(
        (status = 200, description = "`versions` (digests, line hashes, public lines' text and salt), `total`, `next`, `turn`", body = serde_json::Value),
        (status = 403, description = "the turn is not published yet, or the token is not a seat of this game", body = ErrorBody),
        (status = 404, description = "no such game or turn", body = ErrorBody),
    ),
    security((), ("seat_token" = [])))]
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

/// The game: its status, turn, deadline, seats and the table as the caller may see it (with a
/// seat's token, that seat's private view).
#[utoipa::path(get, path = "/api/v1/games/{id}", tag = "games",
    params(("id" = String, Path, description = "the game")),
    responses(
        (status = 200, description = "`id`, `name`, `engine`, `status`, `turn`, `turn_status`, `deadline`, `seats`, `view`", body = serde_json::Value),
        (status = 403, description = "the token is not a seat of this game", body = ErrorBody),
        (status = 404, description = "no such game", body = ErrorBody),
    ),
    security((), ("seat_token" = [])))]
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
