//! A player's home (issue 37): `/home` asks for an address and mails a sign-in link to it
//! (`service::signin_links`, realm `Home`; the same answer for every address, RULING W50); the
//! link opens a home session (its own cookie, RULING W51), and `/home` then lists every game and
//! seat of the address, each linking to its seat page (`service::home`, RULING W53). Seat links
//! keep working without signing in. Cross-site posts are refused by the router's CSRF layer.

use super::WebError;
use super::gm::{cookie, origin, signed_in_at};
use crate::domain::{EmailAddress, Realm, SecretToken};
use crate::service::home::{self, HomeSeat};
use crate::service::signin_limits::Origin;
use crate::service::{Ctx, signin_links};
use askama::Template;
use askama_web::WebTemplate;
use axum::Extension;
use axum::Router;
use axum::extract::rejection::FormRejection;
use axum::extract::{ConnectInfo, Form, FromRequestParts, Path, State};
use axum::http::request::Parts;
use axum::http::{HeaderMap, HeaderValue, header};
use axum::response::{IntoResponse, Redirect, Response};
use axum::routing::{get, post};
use serde::Deserialize;
use std::net::SocketAddr;

/// The home session's cookie, sent to the home pages alone.
const COOKIE: &str = "sm_home";
/// Where the home pages live.
const HOME: &str = "/home";

pub fn routes() -> Router<Ctx> {
    Router::new()
        .route("/home", get(show).post(request_link))
        .route("/home/magic/{token}", get(magic))
        .route("/home/logout", post(logout))
}

#[derive(Template, WebTemplate)]
#[template(path = "web/home_login.html")]
struct SignInPage {
    notice: Option<String>,
}

#[derive(Template, WebTemplate)]
#[template(path = "web/home.html")]
struct HomePage {
    email: String,
    seats: Vec<HomeSeat>,
}

/// The address of the request's home session, if it has a valid one.
async fn signed_in(ctx: &Ctx, headers: &HeaderMap) -> Result<Option<String>, WebError> {
    match cookie(headers, COOKIE) {
        Some(token) => Ok(signin_links::session_owner(ctx, Realm::Home, &token).await?),
        None => Ok(None),
    }
}

/// The home of the signed-in address, or the sign-in form.
async fn show(State(ctx): State<Ctx>, headers: HeaderMap) -> Result<Response, WebError> {
    let Some(email) = signed_in(&ctx, &headers).await? else {
        return Ok(SignInPage { notice: None }.into_response());
    };
    let seats = home::home_of(&ctx, &email).await?;
    Ok(HomePage { email, seats }.into_response())
}

#[derive(Deserialize)]
struct LinkForm {
    email: String,
}

/// Where a sign-in comes from (an extractor): the peer's address and the device cookie, as for
/// the GM's sign-in.
struct SignInFrom(Origin);

impl FromRequestParts<Ctx> for SignInFrom {
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(parts: &mut Parts, _: &Ctx) -> Result<Self, Self::Rejection> {
        let peer = parts.extensions.get::<ConnectInfo<SocketAddr>>().cloned().map(Extension);
        Ok(SignInFrom(origin(peer, &parts.headers)))
    }
}

/// Mails a sign-in link when the address has a seat; the same page either way (RULING W50).
async fn request_link(
    State(ctx): State<Ctx>,
    SignInFrom(origin): SignInFrom,
    form: Result<Form<LinkForm>, FormRejection>,
) -> Result<Response, WebError> {
    let Form(form) = form.map_err(|e| WebError::form("the sign-in form", &e))?;
    let email = EmailAddress::parse(&form.email).map_err(|e| WebError::bad_request(e.to_string()))?;
    signin_links::request_link(&ctx, Realm::Home, &email, &origin).await?;
    let notice = signin_links::requested_notice(Realm::Home, &email);
    Ok(SignInPage { notice: Some(notice) }.into_response())
}

/// Uses a mailed link: opens a home session and shows the home.
async fn magic(
    State(ctx): State<Ctx>,
    Path(token): Path<String>,
    SignInFrom(origin): SignInFrom,
) -> Result<Response, WebError> {
    let signed_in =
        signin_links::use_link(&ctx, Realm::Home, &SecretToken::presented(&token), &origin).await?;
    Ok(signed_in_at(&ctx, &signed_in, COOKIE, HOME, HOME))
}

/// Ends the home session.
async fn logout(State(ctx): State<Ctx>, headers: HeaderMap) -> Result<Response, WebError> {
    if let Some(token) = cookie(&headers, COOKIE) {
        signin_links::end_session(&ctx, Realm::Home, &token).await?;
    }
    let mut resp = Redirect::to(HOME).into_response();
    let gone = format!("{COOKIE}=; Path={HOME}; HttpOnly; SameSite=Lax; Max-Age=0");
    if let Ok(v) = HeaderValue::from_str(&gone) {
        resp.headers_mut().insert(header::SET_COOKIE, v);
    }
    Ok(resp)
}
