//! A seat's private page, reached through its secret link: the table as the seat sees it, the
//! order form, every version it submitted with its echo and receipt.

use super::WebError;
use crate::domain::SecretToken;
use crate::orders::Echo;
use crate::orders::OrderText;
use crate::service::audit::Actor;
use crate::service::{self, Ctx, SeatAuth, SeatPage, Source, lifecycle};
use askama::Template;
use askama_web::WebTemplate;
use axum::Router;
use axum::extract::rejection::FormRejection;
use axum::extract::{Form, Path, State};
use axum::response::Redirect;
use axum::routing::{get, post};
use serde::Deserialize;

pub fn routes() -> Router<Ctx> {
    Router::new()
        .route("/play/{token}", get(show))
        .route("/play/{token}/orders", post(submit))
        .route("/play/{token}/final", post(finalise))
        .route("/play/{token}/zone", post(zone))
        .route("/play/{token}/away", post(away))
        .route("/play/{token}/standing", post(standing))
}

#[derive(Deserialize)]
struct ZoneForm {
    zone: String,
}

/// The player sets the zone deadlines are shown in.
async fn zone(
    State(ctx): State<Ctx>,
    Path(token): Path<String>,
    form: Result<Form<ZoneForm>, FormRejection>,
) -> Result<Redirect, WebError> {
    let who = auth(&ctx, &token).await?;
    let Form(f) = form.map_err(|e| WebError::form("the form", &e))?;
    lifecycle::set_player_zone(&ctx, who.game, who.seat, Some(&f.zone)).await?;
    Ok(Redirect::to(&format!("/play/{token}")))
}

#[derive(Deserialize)]
struct AwayForm {
    from: String,
    to: String,
}

/// The player records an absence.
async fn away(
    State(ctx): State<Ctx>,
    Path(token): Path<String>,
    form: Result<Form<AwayForm>, FormRejection>,
) -> Result<Redirect, WebError> {
    let who = auth(&ctx, &token).await?;
    let Form(f) = form.map_err(|e| WebError::form("the form", &e))?;
    let day = |s: &str| {
        chrono::NaiveDate::parse_from_str(s.trim(), "%Y-%m-%d")
            .map_err(|_| WebError::bad_request(format!("\"{}\" is not a date (YYYY-MM-DD)", s.trim())))
    };
    lifecycle::add_absence(&ctx, who.game, Actor::Seat(who.seat.0), who.seat.0, day(&f.from)?, day(&f.to)?)
        .await?;
    Ok(Redirect::to(&format!("/play/{token}")))
}

#[derive(Deserialize)]
struct StandingForm {
    orders: String,
}

/// The player stores standing orders.
async fn standing(
    State(ctx): State<Ctx>,
    Path(token): Path<String>,
    form: Result<Form<StandingForm>, FormRejection>,
) -> Result<Redirect, WebError> {
    let who = auth(&ctx, &token).await?;
    let Form(f) = form.map_err(|e| WebError::form("the form", &e))?;
    let text =
        OrderText::from_bytes(f.orders.as_bytes()).map_err(|e| WebError::bad_request(e.to_string()))?;
    lifecycle::set_standing_orders(&ctx, who.game, who.seat, &text).await?;
    Ok(Redirect::to(&format!("/play/{token}")))
}

/// One stored version as the page shows it.
struct VersionView {
    version: i32,
    submitted: String,
    digest: String,
    is_final: bool,
    source: crate::domain::OrderSource,
    echo: Echo,
}

#[derive(Template, WebTemplate)]
#[template(path = "web/play.html")]
struct PlayPage {
    p: SeatPage,
    token: String,
    latest_text: String,
    versions: Vec<VersionView>,
    /// A player's own absence waits for the GM's approval in this game (RULING S9).
    absence_approval: bool,
}

async fn auth(ctx: &Ctx, token: &str) -> Result<SeatAuth, WebError> {
    let mut conn = ctx.pool.acquire().await.map_err(WebError::internal)?;
    Ok(service::authenticate_seat(&mut conn, None, &SecretToken::presented(token)).await?)
}

async fn show(State(ctx): State<Ctx>, Path(token): Path<String>) -> Result<PlayPage, WebError> {
    let who = auth(&ctx, &token).await?;
    let mut conn = ctx.pool.acquire().await.map_err(WebError::internal)?;
    let p = service::seat_page(&mut conn, &who).await?;
    let versions = p
        .versions
        .iter()
        .map(|v| VersionView {
            version: v.version,
            submitted: v.submitted_at.format("%Y-%m-%d %H:%M:%S UTC").to_string(),
            digest: v.digest.clone(),
            is_final: v.is_final,
            source: v.source,
            echo: v.echo.clone(),
        })
        .collect();
    let latest_text = p.versions.first().map(|v| v.body.clone()).unwrap_or_default();
    let absence_approval = lifecycle::absences_need_approval(&mut conn, who.game).await?;
    Ok(PlayPage { p, token, latest_text, versions, absence_approval })
}

#[derive(Deserialize)]
struct OrderForm {
    orders: String,
    #[serde(default, rename = "final")]
    final_: Option<String>,
}

async fn submit(
    State(ctx): State<Ctx>,
    Path(token): Path<String>,
    form: Result<Form<OrderForm>, FormRejection>,
) -> Result<Redirect, WebError> {
    let Form(form) = form.map_err(|e| WebError::form("the order form", &e))?;
    let who = auth(&ctx, &token).await?;
    let text = OrderText::parse(&form.orders).map_err(|e| WebError::bad_request(e.to_string()))?;
    service::submit_orders(&ctx, &who, &text, Source::Web, form.final_.is_some()).await?;
    Ok(Redirect::to(&format!("/play/{token}#latest")))
}

async fn finalise(State(ctx): State<Ctx>, Path(token): Path<String>) -> Result<Redirect, WebError> {
    let who = auth(&ctx, &token).await?;
    service::mark_final(&ctx, &who).await?;
    Ok(Redirect::to(&format!("/play/{token}#latest")))
}
