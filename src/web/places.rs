//! Public pages of issue 37: the games open to join (engine, seats free, rhythm — no address),
//! asking to join with an address (the same answer for every address, RULING W46), and the page
//! an invitation's or a confirmation's link opens, whose buttons answer it once (RULING W45).
//! Opening a link changes nothing; only its form does.

use super::WebError;
use super::pages::game_id;
use crate::domain::{Mailbox, PlaceKind, SecretToken};
use crate::service::signin_limits::{Client, Origin};
use crate::service::waiting::{self, OpenGame, PlaceAnswer, PlaceOutcome, PlacePage};
use crate::service::{Ctx, ServiceError};
use askama::Template;
use askama_web::WebTemplate;
use axum::Extension;
use axum::Router;
use axum::extract::rejection::{FormRejection, QueryRejection};
use axum::extract::{ConnectInfo, Form, Path, Query, State};
use axum::routing::get;
use serde::Deserialize;
use std::net::SocketAddr;

pub fn routes() -> Router<Ctx> {
    Router::new()
        .route("/open", get(open_list))
        .route("/open/{id}", get(open_game).post(join))
        .route("/places/{token}", get(place).post(answer))
}

#[derive(Template, WebTemplate)]
#[template(path = "web/open_games.html")]
struct OpenListPage {
    games: Vec<OpenGame>,
}

async fn open_list(State(ctx): State<Ctx>) -> Result<OpenListPage, WebError> {
    let mut conn = ctx.pool.acquire().await.map_err(WebError::internal)?;
    Ok(OpenListPage { games: waiting::open_games(&mut conn).await? })
}

#[derive(Template, WebTemplate)]
#[template(path = "web/open_game.html")]
struct OpenGamePage {
    g: OpenGame,
    notice: Option<String>,
}

async fn open_game(State(ctx): State<Ctx>, Path(id): Path<String>) -> Result<OpenGamePage, WebError> {
    let mut conn = ctx.pool.acquire().await.map_err(WebError::internal)?;
    let g = waiting::open_game_page(&mut conn, game_id(&id)?)
        .await?
        .ok_or_else(|| WebError::not_found("no game open to join here"))?;
    Ok(OpenGamePage { g, notice: None })
}

#[derive(Deserialize)]
struct JoinForm {
    name: String,
    email: String,
}

async fn join(
    State(ctx): State<Ctx>,
    Path(id): Path<String>,
    peer: Option<Extension<ConnectInfo<SocketAddr>>>,
    f: Result<Form<JoinForm>, FormRejection>,
) -> Result<OpenGamePage, WebError> {
    let game = game_id(&id)?;
    let Form(f) = f.map_err(|e| WebError::form("the form", &e))?;
    let player = Mailbox::parse(&format!("{} <{}>", f.name.trim(), f.email.trim()))
        .map_err(|e| WebError::bad_request(e.to_string()))?;
    let origin =
        Origin { client: Client::from_ip(peer.map(|Extension(ConnectInfo(a))| a.ip())), device: None };
    waiting::ask_to_join(&ctx, game, &player, &origin).await?;
    let mut conn = ctx.pool.acquire().await.map_err(WebError::internal)?;
    let g = waiting::open_game_page(&mut conn, game)
        .await?
        .ok_or_else(|| WebError::not_found("no game open to join here"))?;
    // RULING W46: the same words whatever the address.
    let notice = format!(
        "If {} can join this game, a mail with a confirmation link is on its way to it. The link works once, for {} hours.",
        player.email,
        waiting::CONFIRM_HOURS
    );
    Ok(OpenGamePage { g, notice: Some(notice) })
}

#[derive(Template, WebTemplate)]
#[template(path = "web/place.html")]
struct PlaceLinkPage {
    p: PlacePage,
    /// The answer the mail's link pre-selected.
    answer: String,
    done: Option<String>,
}

#[derive(Deserialize)]
struct AnswerQuery {
    answer: Option<String>,
}

async fn place(
    State(ctx): State<Ctx>,
    Path(token): Path<String>,
    q: Result<Query<AnswerQuery>, QueryRejection>,
) -> Result<PlaceLinkPage, WebError> {
    let p = waiting::place_page(&ctx, &SecretToken::presented(&token)).await?;
    let answer = q.ok().and_then(|Query(q)| q.answer).unwrap_or_default();
    Ok(PlaceLinkPage { p, answer, done: None })
}

#[derive(Deserialize)]
struct AnswerForm {
    answer: String,
    /// A replacement offer is taken with a name and address (RULING W61).
    name: Option<String>,
    email: Option<String>,
}

/// Takes a replacement offer's seat with the form's name and address (RULING W61).
async fn take(ctx: &Ctx, token: &SecretToken, f: &AnswerForm) -> Result<String, WebError> {
    let (name, email) = (f.name.as_deref().unwrap_or_default(), f.email.as_deref().unwrap_or_default());
    let player = Mailbox::parse(&format!("{} <{}>", name.trim(), email.trim()))
        .map_err(|e| WebError::bad_request(e.to_string()))?;
    let seat = waiting::take_offer(ctx, token, &player).await?;
    Ok(format!(
        "Seat {seat} is yours. Your welcome mail brings your private order link and everything the seat received so far."
    ))
}

async fn answer(
    State(ctx): State<Ctx>,
    Path(token): Path<String>,
    f: Result<Form<AnswerForm>, FormRejection>,
) -> Result<PlaceLinkPage, WebError> {
    let Form(f) = f.map_err(|e| WebError::form("the form", &e))?;
    let answer = match f.answer.as_str() {
        "accept" | "take" => PlaceAnswer::Accept,
        "decline" => PlaceAnswer::Decline,
        other => return Err(WebError::bad_request(format!("\"{other}\" is accept or decline"))),
    };
    let token = SecretToken::presented(&token);
    let p = waiting::place_page(&ctx, &token).await?;
    if p.kind == PlaceKind::Replacement {
        let done = take(&ctx, &token, &f).await?;
        return Ok(PlaceLinkPage { p, answer: String::new(), done: Some(done) });
    }
    let done = match waiting::answer_place(&ctx, &token, answer).await {
        Ok(PlaceOutcome::Seated { started: true }) => {
            "You have a seat, and with it every seat is taken: the game has started. Your welcome mail brings your private order link."
        }
        Ok(PlaceOutcome::Seated { started: false }) => {
            "You have a seat. When every seat is taken the game starts, and your welcome mail brings your private order link."
        }
        Ok(PlaceOutcome::Waitlisted) => {
            "Every seat is taken: you are on the waiting list, and get the next seat that frees."
        }
        Ok(PlaceOutcome::AwaitsApproval) => {
            "Your request waits for the GM's approval; you will hear by mail."
        }
        Ok(PlaceOutcome::Declined) if p.kind == PlaceKind::Invited => {
            "You declined; the GM has been told. Thank you."
        }
        Ok(PlaceOutcome::Declined) => "Your request is withdrawn.",
        Err(ServiceError::Forbidden(why)) => return Err(WebError::from(ServiceError::Forbidden(why))),
        Err(e) => return Err(e.into()),
    };
    Ok(PlaceLinkPage { p, answer: String::new(), done: Some(done.to_string()) })
}
