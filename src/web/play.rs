//! A seat's private page, reached through its secret link: the table as the seat sees it, the
//! order form (this game's example, a link to its order guide; after a refused submission the
//! text kept with each error next to its line), when the turn closes, every version it submitted
//! with its echo and receipt, the last turn's report and the history of its reports.

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
use axum::http::StatusCode;
use axum::response::{IntoResponse, Redirect, Response};
use axum::routing::{get, post};
use serde::Deserialize;

pub fn routes() -> Router<Ctx> {
    Router::new()
        .route("/play/{token}", get(show))
        .route("/play/{token}/reports/{turn}", get(report))
        .route("/play/{token}/orders", post(submit))
        .route("/play/{token}/preview", get(preview))
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

/// Why the orders just sent were not stored, shown in the order box above the text kept.
struct Refusal {
    message: String,
    /// Each line as read, the bad ones with their error (orders the language could not read).
    echo: Option<Echo>,
}

#[derive(Template, WebTemplate)]
#[template(path = "web/play.html")]
struct PlayPage {
    p: SeatPage,
    token: String,
    /// The text in the order box: the orders just refused, or the latest version on file.
    box_text: String,
    /// Whether "my orders are final" is ticked (as it was sent, after a refusal).
    box_final: bool,
    refused: Option<Refusal>,
    /// Whether the latest version on file is already final.
    latest_final: bool,
    /// How many lines of the latest version on file were not understood (HR 16: stored, marked,
    /// ignored at adjudication — the page warns).
    latest_unread: usize,
    /// The table's drawing in parts, ready to be placed in the page ([`super::pages::placed`]).
    pictures: Vec<crate::draw::Part>,
    versions: Vec<VersionView>,
    /// A player's own absence waits for the GM's approval in this game (RULING S9).
    absence_approval: bool,
}

/// The seat a secret link belongs to (shared by every page behind the link).
pub(super) async fn auth(ctx: &Ctx, token: &str) -> Result<SeatAuth, WebError> {
    let mut conn = ctx.pool.acquire().await.map_err(WebError::internal)?;
    Ok(service::authenticate_seat(&mut conn, None, &SecretToken::presented(token)).await?)
}

/// The seat's page; after a refused submission (or a line added by the order builder), with the
/// text sent kept in the order box.
async fn page(
    ctx: &Ctx,
    who: &SeatAuth,
    token: String,
    sent: Option<(String, bool, Option<Refusal>)>,
) -> Result<PlayPage, WebError> {
    let mut conn = ctx.pool.acquire().await.map_err(WebError::internal)?;
    let mut p = service::seat_page(&mut conn, who, &ctx.seat_link(&SecretToken::presented(&token))).await?;
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
    let absence_approval = lifecycle::absences_need_approval(&mut conn, who.game).await?;
    let pictures = super::pages::placed(std::mem::take(&mut p.pictures));
    let (box_text, box_final, refused) = match sent {
        Some((text, is_final, refusal)) => (text, is_final, refusal),
        None => (p.versions.first().map(|v| v.body.clone()).unwrap_or_default(), false, None),
    };
    let latest_final = p.versions.first().is_some_and(|v| v.is_final);
    let latest_unread = p.versions.first().map_or(0, |v| v.echo.errors);
    Ok(PlayPage {
        p,
        token,
        box_text,
        box_final,
        refused,
        latest_final,
        latest_unread,
        pictures,
        versions,
        absence_approval,
    })
}

async fn show(State(ctx): State<Ctx>, Path(token): Path<String>) -> Result<PlayPage, WebError> {
    let who = auth(&ctx, &token).await?;
    page(&ctx, &who, token, None).await
}

#[derive(Template, WebTemplate)]
#[template(path = "web/report.html")]
struct ReportPage {
    token: String,
    r: service::SeatReport,
}

/// One turn's report of this seat, as it was mailed to it.
async fn report(
    State(ctx): State<Ctx>,
    Path((token, turn)): Path<(String, i32)>,
) -> Result<ReportPage, WebError> {
    let who = auth(&ctx, &token).await?;
    let mut conn = ctx.pool.acquire().await.map_err(WebError::internal)?;
    let r =
        service::seat_report(&mut conn, &who, turn, &ctx.seat_link(&SecretToken::presented(&token))).await?;
    Ok(ReportPage { token, r })
}

#[derive(Template, WebTemplate)]
#[template(path = "web/preview.html")]
struct PreviewPage {
    token: String,
    v: service::orders_preview::OrdersPreview,
    drawing: Option<String>,
}

/// The seat's latest orders played now against the table (games of open information only).
async fn preview(State(ctx): State<Ctx>, Path(token): Path<String>) -> Result<PreviewPage, WebError> {
    let who = auth(&ctx, &token).await?;
    let mut conn = ctx.pool.acquire().await.map_err(WebError::internal)?;
    let mut v = service::orders_preview::preview(&mut conn, &who).await?;
    let drawing = super::pages::inline_svg(v.drawing.take());
    Ok(PreviewPage { token, v, drawing })
}

#[derive(Deserialize)]
struct OrderForm {
    orders: String,
    #[serde(default, rename = "final")]
    final_: Option<String>,
    /// The order builder's button: add this line to the box and show the page again, storing
    /// nothing (RULING W40).
    #[serde(default)]
    add: Option<String>,
}

/// `text` with `line` added as its last line.
fn with_line(text: &str, line: &str) -> String {
    let text = text.trim_end_matches(['\r', '\n']);
    let line = line.lines().next().unwrap_or_default().trim();
    if text.is_empty() { line.to_string() } else { format!("{text}\n{line}") }
}

/// Takes the order form. A sheet with a line not understood but some readable order is stored
/// (HR 16, RULING S1) and the page warns about the marked lines. Orders the player must correct
/// (no line understood, an empty sheet, the versions cap) are answered with the page itself, the
/// text kept in the box and each line's error next to it, under the refusal's status (422, 400);
/// nothing is stored (RULINGS S1, W10).
async fn submit(
    State(ctx): State<Ctx>,
    Path(token): Path<String>,
    form: Result<Form<OrderForm>, FormRejection>,
) -> Result<Response, WebError> {
    let Form(form) = form.map_err(|e| WebError::form("the order form", &e))?;
    let who = auth(&ctx, &token).await?;
    let is_final = form.final_.is_some();
    if let Some(line) = &form.add {
        let text = with_line(&form.orders, line);
        return Ok(page(&ctx, &who, token, Some((text, is_final, None))).await?.into_response());
    }
    let refused = match OrderText::parse(&form.orders) {
        Err(e) => WebError::bad_request(e.to_string()),
        Ok(text) => match service::submit_orders(&ctx, &who, &text, Source::Web, is_final).await {
            Ok(_) => return Ok(Redirect::to(&format!("/play/{token}#latest")).into_response()),
            Err(e) => WebError::from(e),
        },
    };
    if ![StatusCode::UNPROCESSABLE_ENTITY, StatusCode::BAD_REQUEST].contains(&refused.status) {
        return Err(refused);
    }
    let status = refused.status;
    let refusal = Refusal { message: refused.message, echo: refused.echo };
    let page = page(&ctx, &who, token, Some((form.orders, is_final, Some(refusal)))).await?;
    Ok((status, page).into_response())
}

async fn finalise(State(ctx): State<Ctx>, Path(token): Path<String>) -> Result<Redirect, WebError> {
    let who = auth(&ctx, &token).await?;
    service::mark_final(&ctx, &who).await?;
    Ok(Redirect::to(&format!("/play/{token}#latest")))
}
