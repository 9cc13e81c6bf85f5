//! The GM's pages: sign-in (mailed link or password), the list of the GM's games, and the
//! dashboard of one game with "adjudicate now" and "publish". A GM session is a cookie; a seat
//! token never opens these pages.

use super::WebError;
use super::pages::game_id;
use crate::domain::{EmailAddress, GameId, SecretToken};
use crate::service::gm_access::Gm;
use crate::service::signin_limits::{self, Client, Origin};
use crate::service::{self, Ctx, Dashboard, gm_auth};
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

const COOKIE: &str = "sm_gm";
/// The device cookie: the account knows the browser at its next sign-in (RULING W2b). Sent only
/// to the GM's pages, where sign-in happens.
const DEVICE_COOKIE: &str = "sm_device";

pub fn routes() -> Router<Ctx> {
    Router::new()
        .route("/gm/login", get(login_page).post(login))
        .route("/gm/magic/{token}", get(magic))
        .route("/gm/logout", post(logout))
        .route("/gm", get(games))
        .route("/gm/games/{id}", get(dashboard))
        .route("/gm/games/{id}/close", post(close))
        .route("/gm/games/{id}/publish", post(publish))
        .route("/gm/games/{id}/inbound/{mail}", get(inbound_raw))
}

/// The token in the request's cookie `name`, if any.
pub(super) fn cookie(headers: &HeaderMap, name: &str) -> Option<SecretToken> {
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|kv| kv.trim().split_once('='))
        .find(|(k, _)| *k == name)
        .map(|(_, v)| SecretToken::presented(v))
}

/// The session token in the request's cookie, if any.
fn session_cookie(headers: &HeaderMap) -> Option<SecretToken> {
    cookie(headers, COOKIE)
}

/// Where a sign-in comes from: the peer's address and the browser's device cookie.
pub(super) fn origin(peer: Option<Extension<ConnectInfo<SocketAddr>>>, headers: &HeaderMap) -> Origin {
    Origin {
        client: Client::from_ip(peer.map(|Extension(ConnectInfo(addr))| addr.ip())),
        device: cookie(headers, DEVICE_COOKIE),
    }
}

/// The signed-in GM (an extractor): requests without a valid GM session are redirected to the
/// sign-in page before the handler runs.
pub struct SignedInGm(pub String);

impl FromRequestParts<Ctx> for SignedInGm {
    type Rejection = Response;

    async fn from_request_parts(parts: &mut Parts, ctx: &Ctx) -> Result<Self, Response> {
        let to_login = || Redirect::to("/gm/login").into_response();
        let token = session_cookie(&parts.headers).ok_or_else(to_login)?;
        match gm_auth::session_gm(ctx, &token).await {
            Ok(Some(gm)) => Ok(SignedInGm(gm)),
            Ok(None) => Err(to_login()),
            Err(e) => Err(WebError::from(e).into_response()),
        }
    }
}

impl SignedInGm {
    /// This GM, and whether it is the operator (RULING W42).
    pub(super) fn access(&self, ctx: &Ctx) -> Gm {
        Gm::new(&ctx.settings.creation, &self.0)
    }

    /// Checks this GM runs the game with id text `id` (its GM, a co-GM, or the operator).
    pub(super) async fn authorize(&self, ctx: &Ctx, id: &str) -> Result<GameId, WebError> {
        let game = game_id(id)?;
        let mut conn = ctx.pool.acquire().await.map_err(WebError::internal)?;
        service::authorize_gm(&mut conn, game, &self.access(ctx)).await?;
        Ok(game)
    }
}

/// The answer to a sign-in: to the GM's games, with the session cookie and the device cookie.
fn with_session(ctx: &Ctx, signed_in: &gm_auth::SignedIn) -> Response {
    signed_in_at(ctx, signed_in, COOKIE, "/", "/gm")
}

/// The answer to a sign-in of any realm: to `area`, with the session cookie `name` for `path`
/// and the device cookie for `area` (RULING W51: HttpOnly, SameSite=Lax, Secure on https).
pub(super) fn signed_in_at(
    ctx: &Ctx,
    signed_in: &service::signin_links::SignedIn,
    name: &str,
    path: &str,
    area: &str,
) -> Response {
    let secure = if ctx.settings.base().starts_with("https://") { "; Secure" } else { "" };
    let session = format!(
        "{name}={}; Path={path}; HttpOnly; SameSite=Lax; Max-Age={}{secure}",
        signed_in.session.reveal(),
        gm_auth::SESSION_DAYS * 86_400
    );
    let device = format!(
        "{DEVICE_COOKIE}={}; Path={area}; HttpOnly; SameSite=Lax; Max-Age={}{secure}",
        signed_in.device.reveal(),
        signin_limits::KNOWN_DEVICE_DAYS * 86_400
    );
    let mut resp = Redirect::to(area).into_response();
    for cookie in [session, device] {
        if let Ok(v) = HeaderValue::from_str(&cookie) {
            resp.headers_mut().append(header::SET_COOKIE, v);
        }
    }
    resp
}

#[derive(Template, WebTemplate)]
#[template(path = "web/gm_login.html")]
struct LoginPage {
    notice: Option<String>,
}

async fn login_page() -> LoginPage {
    LoginPage { notice: None }
}

#[derive(Deserialize)]
struct LoginForm {
    email: String,
    #[serde(default)]
    password: String,
}

async fn login(
    State(ctx): State<Ctx>,
    peer: Option<Extension<ConnectInfo<SocketAddr>>>,
    headers: HeaderMap,
    form: Result<Form<LoginForm>, FormRejection>,
) -> Result<Response, WebError> {
    let Form(form) = form.map_err(|e| WebError::form("the sign-in form", &e))?;
    let email = EmailAddress::parse(&form.email).map_err(|e| WebError::bad_request(e.to_string()))?;
    let origin = origin(peer, &headers);
    if !form.password.is_empty() {
        let signed_in = gm_auth::login_with_password(&ctx, &email, &form.password, &origin).await?;
        return Ok(with_session(&ctx, &signed_in));
    }
    gm_auth::request_login_link(&ctx, &email, &origin).await?;
    let notice = service::signin_links::requested_notice(crate::domain::Realm::Gm, &email);
    Ok(LoginPage { notice: Some(notice) }.into_response())
}

async fn magic(
    State(ctx): State<Ctx>,
    Path(token): Path<String>,
    peer: Option<Extension<ConnectInfo<SocketAddr>>>,
    headers: HeaderMap,
) -> Result<Response, WebError> {
    let signed_in =
        gm_auth::login_with_link(&ctx, &SecretToken::presented(&token), &origin(peer, &headers)).await?;
    Ok(with_session(&ctx, &signed_in))
}

async fn logout(State(ctx): State<Ctx>, headers: HeaderMap) -> Result<Response, WebError> {
    if let Some(token) = session_cookie(&headers) {
        gm_auth::logout(&ctx, &token).await?;
    }
    let mut resp = Redirect::to("/gm/login").into_response();
    resp.headers_mut()
        .insert(header::SET_COOKIE, HeaderValue::from_static("sm_gm=; Path=/; HttpOnly; Max-Age=0"));
    Ok(resp)
}

#[derive(Template, WebTemplate)]
#[template(path = "web/gm_games.html")]
struct GamesPage {
    gm: String,
    games: Vec<service::GameSummary>,
    /// Whether this GM may create games (the "New game" link).
    may_create: bool,
    /// The games this GM waits to fill.
    waiting: Vec<service::waiting::WaitingView>,
}

async fn games(State(ctx): State<Ctx>, gm: SignedInGm) -> Result<GamesPage, WebError> {
    let mut conn = ctx.pool.acquire().await.map_err(WebError::internal)?;
    let access = gm.access(&ctx);
    let games = service::games_of_gm(&mut conn, &access).await?;
    let may_create = service::gm_access::may_create(&mut conn, &ctx.settings.creation, &gm.0).await?;
    let waiting = service::waiting::waiting_of_gm(&mut conn, &access).await?;
    Ok(GamesPage { gm: gm.0, games, may_create, waiting })
}

#[derive(Template, WebTemplate)]
#[template(path = "web/gm_dashboard.html")]
struct DashboardPage {
    d: Dashboard,
    /// The table's drawing after the draft (or now), ready to be placed in the page.
    drawing: Option<String>,
}

async fn dashboard(
    State(ctx): State<Ctx>,
    Path(id): Path<String>,
    gm: SignedInGm,
) -> Result<DashboardPage, WebError> {
    let mut conn = ctx.pool.acquire().await.map_err(WebError::internal)?;
    let mut d = service::dashboard(&mut conn, game_id(&id)?, &gm.access(&ctx)).await?;
    let drawing = super::pages::inline_svg(d.drawing.take());
    Ok(DashboardPage { d, drawing })
}

async fn close(State(ctx): State<Ctx>, Path(id): Path<String>, gm: SignedInGm) -> Result<Redirect, WebError> {
    service::close_turn(&ctx, gm.authorize(&ctx, &id).await?).await?;
    Ok(Redirect::to(&format!("/gm/games/{id}")))
}

async fn publish(
    State(ctx): State<Ctx>,
    Path(id): Path<String>,
    gm: SignedInGm,
) -> Result<Redirect, WebError> {
    service::publish_turn(&ctx, gm.authorize(&ctx, &id).await?, &gm.0).await?;
    Ok(Redirect::to(&format!("/gm/games/{id}")))
}

/// A raw inbound message, as received, for the game's GM (plain text, never rendered as HTML).
async fn inbound_raw(
    State(ctx): State<Ctx>,
    Path((id, mail)): Path<(String, i64)>,
    gm: SignedInGm,
) -> Result<([(axum::http::HeaderName, &'static str); 1], String), WebError> {
    let mut conn = ctx.pool.acquire().await.map_err(WebError::internal)?;
    let raw = service::inbound_raw(&mut conn, game_id(&id)?, &gm.access(&ctx), mail).await?;
    Ok(([(header::CONTENT_TYPE, "text/plain; charset=utf-8")], raw))
}
