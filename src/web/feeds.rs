//! Atom feeds and chat webhooks (issue 16: following a game without mail). The game's feed is
//! public like its page; a seat's feed and its webhook form are reached only through the seat's
//! secret link; the GM registers the GM's webhook from the dashboard.

use super::WebError;
use super::gm::SignedInGm;
use super::pages::game_id;
use super::play::auth;
use crate::domain::SecretToken;
use crate::service::Ctx;
use crate::service::audit::Actor;
use crate::service::feeds::{self, Feed};
use crate::service::webhooks::{self, HookOwner};
use askama::Template;
use axum::Router;
use axum::extract::rejection::FormRejection;
use axum::extract::{Form, Path, State};
use axum::http::header;
use axum::response::{IntoResponse, Redirect, Response};
use axum::routing::{get, post};
use serde::Deserialize;

pub fn routes() -> Router<Ctx> {
    Router::new()
        .route("/games/{id}/feed.atom", get(game_feed))
        .route("/play/{token}/feed.atom", get(seat_feed))
        .route("/play/{token}/webhook", post(seat_hook))
        .route("/gm/games/{id}/webhook", post(gm_hook))
}

#[derive(Template)]
#[template(path = "web/feed.xml", escape = "html")]
struct FeedXml<'a> {
    f: &'a Feed,
}

fn atom(f: &Feed) -> Result<Response, WebError> {
    let body = FeedXml { f }.render().map_err(WebError::internal)?;
    Ok(([(header::CONTENT_TYPE, "application/atom+xml; charset=utf-8")], body).into_response())
}

async fn game_feed(State(ctx): State<Ctx>, Path(id): Path<String>) -> Result<Response, WebError> {
    atom(&feeds::game_feed(&ctx, game_id(&id)?).await?)
}

async fn seat_feed(State(ctx): State<Ctx>, Path(token): Path<String>) -> Result<Response, WebError> {
    let who = auth(&ctx, &token).await?;
    atom(&feeds::seat_feed(&ctx, &who, ctx.seat_link(&SecretToken::presented(&token))).await?)
}

#[derive(Deserialize)]
struct HookForm {
    #[serde(default)]
    url: String,
}

/// A player registers (or, with an empty address, removes) the seat's chat webhook.
async fn seat_hook(
    State(ctx): State<Ctx>,
    Path(token): Path<String>,
    form: Result<Form<HookForm>, FormRejection>,
) -> Result<Redirect, WebError> {
    let Form(f) = form.map_err(|e| WebError::form("the webhook form", &e))?;
    let who = auth(&ctx, &token).await?;
    webhooks::set_hook(&ctx, who.game, HookOwner::Seat(who.seat), Actor::Seat(who.seat.0), &f.url).await?;
    Ok(Redirect::to(&format!("/play/{token}#webhook")))
}

/// The GM registers (or removes) the GM's chat webhook for a game.
async fn gm_hook(
    State(ctx): State<Ctx>,
    Path(id): Path<String>,
    gm: SignedInGm,
    form: Result<Form<HookForm>, FormRejection>,
) -> Result<Redirect, WebError> {
    let game = gm.authorize(&ctx, &id).await?;
    let Form(f) = form.map_err(|e| WebError::form("the webhook form", &e))?;
    webhooks::set_hook(&ctx, game, HookOwner::Gm, Actor::Gm(&gm.0), &f.url).await?;
    Ok(Redirect::to(&format!("/gm/games/{id}#webhook")))
}
