//! The GM's controls on a running game, from the dashboard: extend the deadline, pause and
//! resume, approve or decline a player's absences, replace a player or offer the seat as a replacement, enter orders for a seat (a copy goes to the player), re-send
//! undelivered mail, and the audit log. Each handler checks the signed-in GM runs the game, then calls the service function the
//! console calls too.

use super::WebError;
use super::gm::SignedInGm;
use super::pages::game_id;
use crate::domain::{EmailAddress, Mailbox};
use crate::orders::OrderText;
use crate::schedule::{self, DeadlineChange};
use crate::service::audit::{self, AuditLog};
use crate::service::{self, Ctx, Source, lifecycle, waiting};
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
        .route("/gm/games/{id}/extend", post(extend))
        .route("/gm/games/{id}/pause", post(pause))
        .route("/gm/games/{id}/resume", post(resume))
        .route("/gm/games/{id}/replace", post(replace))
        .route("/gm/games/{id}/offer", post(offer_seat))
        .route("/gm/games/{id}/absences/{answer}", post(answer_absences))
        .route("/gm/games/{id}/act", post(act_as_seat))
        .route("/gm/games/{id}/audit", get(audit_page))
        .route("/gm/games/{id}/correct", post(correct))
        .route("/gm/games/{id}/answer", post(answer))
        .route("/gm/games/{id}/referrals", post(referrals))
        .route("/gm/games/{id}/rollback", post(rollback))
        .route("/gm/games/{id}/mail/resend", post(resend_mail))
        .route("/gm/games/{id}/co-gm", post(add_co_gm))
}

fn back(id: &str) -> Redirect {
    Redirect::to(&format!("/gm/games/{id}"))
}

fn form<T>(f: Result<Form<T>, FormRejection>) -> Result<T, WebError> {
    f.map(|Form(t)| t).map_err(|e| WebError::form("the form", &e))
}

#[derive(Deserialize)]
struct ExtendForm {
    by: String,
}

async fn extend(
    State(ctx): State<Ctx>,
    Path(id): Path<String>,
    gm: SignedInGm,
    f: Result<Form<ExtendForm>, FormRejection>,
) -> Result<Redirect, WebError> {
    let game = gm.authorize(&ctx, &id).await?;
    let by = schedule::parse_span(&form(f)?.by).map_err(|e| WebError::bad_request(e.to_string()))?;
    lifecycle::change_deadline(&ctx, game, &gm.0, DeadlineChange::Extend(by)).await?;
    Ok(back(&id))
}

async fn pause(State(ctx): State<Ctx>, Path(id): Path<String>, gm: SignedInGm) -> Result<Redirect, WebError> {
    lifecycle::pause_game(&ctx, gm.authorize(&ctx, &id).await?, &gm.0).await?;
    Ok(back(&id))
}

async fn resume(
    State(ctx): State<Ctx>,
    Path(id): Path<String>,
    gm: SignedInGm,
) -> Result<Redirect, WebError> {
    lifecycle::resume_game(&ctx, gm.authorize(&ctx, &id).await?, &gm.0).await?;
    Ok(back(&id))
}

#[derive(Deserialize)]
struct ReplaceForm {
    seat: String,
    player: String,
}

fn seat_number(s: &str) -> Result<u8, WebError> {
    s.trim()
        .parse::<u8>()
        .map_err(|_| WebError::bad_request(format!("\"{}\" is not a seat number", s.trim())))
}

async fn replace(
    State(ctx): State<Ctx>,
    Path(id): Path<String>,
    gm: SignedInGm,
    f: Result<Form<ReplaceForm>, FormRejection>,
) -> Result<Redirect, WebError> {
    let game = gm.authorize(&ctx, &id).await?;
    let f = form(f)?;
    let player = Mailbox::parse(&f.player).map_err(|e| WebError::bad_request(e.to_string()))?;
    lifecycle::replace_player(&ctx, game, &gm.0, seat_number(&f.seat)?, &player).await?;
    Ok(back(&id))
}

#[derive(Deserialize)]
struct SeatForm {
    seat: String,
}

#[derive(Template, WebTemplate)]
#[template(path = "web/gm_offer.html")]
struct OfferPage {
    id: String,
    seat: u8,
    offered: waiting::Offered,
}

/// Opens a seat as a replacement (RULING W61), as `seat open` does: the page shows who from the
/// waiting list took it, or the link to pass on — once; only its hash is kept.
async fn offer_seat(
    State(ctx): State<Ctx>,
    Path(id): Path<String>,
    gm: SignedInGm,
    f: Result<Form<SeatForm>, FormRejection>,
) -> Result<OfferPage, WebError> {
    let game = gm.authorize(&ctx, &id).await?;
    let seat = seat_number(&form(f)?.seat)?;
    let offered = waiting::open_seat(&ctx, game, &gm.0, seat).await?;
    Ok(OfferPage { id, seat, offered })
}

/// The GM approves (RULING S9) or declines (RULING S16) the absences a seat's player asked for,
/// as `seat approve` and `seat decline` do.
async fn answer_absences(
    State(ctx): State<Ctx>,
    Path((id, answer)): Path<(String, String)>,
    gm: SignedInGm,
    f: Result<Form<SeatForm>, FormRejection>,
) -> Result<Redirect, WebError> {
    let game = gm.authorize(&ctx, &id).await?;
    let seat = seat_number(&form(f)?.seat)?;
    match answer.as_str() {
        "approve" => {
            lifecycle::approve_absences(&ctx, game, &gm.0, seat).await?;
        }
        "decline" => {
            lifecycle::decline_absences(&ctx, game, &gm.0, seat).await?;
        }
        other => return Err(WebError::not_found(format!("no such answer to an absence: {other}"))),
    }
    Ok(back(&id))
}

#[derive(Deserialize)]
struct ActForm {
    seat: String,
    orders: String,
    #[serde(default, rename = "final")]
    final_: Option<String>,
}

async fn act_as_seat(
    State(ctx): State<Ctx>,
    Path(id): Path<String>,
    gm: SignedInGm,
    f: Result<Form<ActForm>, FormRejection>,
) -> Result<Redirect, WebError> {
    let game = gm.authorize(&ctx, &id).await?;
    let f = form(f)?;
    let text =
        OrderText::from_bytes(f.orders.as_bytes()).map_err(|e| WebError::bad_request(e.to_string()))?;
    let mut conn = ctx.pool.acquire().await.map_err(WebError::internal)?;
    let who = service::seat_by_number(&mut conn, game, seat_number(&f.seat)?).await?;
    drop(conn);
    service::submit_orders(&ctx, &who, &text, Source::GmAsSeat, f.final_.is_some()).await?;
    Ok(back(&id))
}

#[derive(Template, WebTemplate)]
#[template(path = "web/gm_audit.html")]
struct AuditPage {
    id: String,
    log: AuditLog,
}

async fn audit_page(
    State(ctx): State<Ctx>,
    Path(id): Path<String>,
    gm: SignedInGm,
) -> Result<AuditPage, WebError> {
    let game = match gm.authorize(&ctx, &id).await {
        Ok(game) => game,
        // A game still waiting for its seats has its audit log too (issue 37).
        Err(refused) => {
            let game = super::pages::game_id(&id)?;
            let mut conn = ctx.pool.acquire().await.map_err(WebError::internal)?;
            if service::waiting::waiting_view(&mut conn, game, &gm.access(&ctx)).await.is_err() {
                return Err(refused);
            }
            game
        }
    };
    Ok(AuditPage { log: audit::audit_log(&ctx, game).await?, id })
}

#[derive(Deserialize)]
struct CorrectForm {
    patch: String,
    note: String,
}

async fn correct(
    State(ctx): State<Ctx>,
    Path(id): Path<String>,
    gm: SignedInGm,
    f: Result<Form<CorrectForm>, FormRejection>,
) -> Result<Redirect, WebError> {
    let game = gm.authorize(&ctx, &id).await?;
    let f = form(f)?;
    let patch: serde_json::Value = serde_json::from_str(&f.patch)
        .map_err(|e| WebError::bad_request(format!("the correction is not JSON: {e}")))?;
    service::correct_state(&ctx, game, &gm.0, &patch, &f.note).await?;
    Ok(back(&id))
}

#[derive(Deserialize)]
struct AnswerForm {
    choice: String,
}

async fn answer(
    State(ctx): State<Ctx>,
    Path(id): Path<String>,
    gm: SignedInGm,
    f: Result<Form<AnswerForm>, FormRejection>,
) -> Result<Redirect, WebError> {
    let game = gm.authorize(&ctx, &id).await?;
    let choice = form(f)?
        .choice
        .trim()
        .parse::<usize>()
        .map_err(|_| WebError::bad_request("choose one of the moves"))?;
    service::questions::answer_question(&ctx, game, &gm.0, choice).await?;
    Ok(back(&id))
}

#[derive(Deserialize)]
struct ReferralsForm {
    ask: String,
}

/// Whether the rules' referrals are asked (`ask`) or played by their first candidate (`first`).
async fn referrals(
    State(ctx): State<Ctx>,
    Path(id): Path<String>,
    gm: SignedInGm,
    f: Result<Form<ReferralsForm>, FormRejection>,
) -> Result<Redirect, WebError> {
    let game = gm.authorize(&ctx, &id).await?;
    let ask = match form(f)?.ask.as_str() {
        "ask" => true,
        "first" => false,
        _ => return Err(WebError::bad_request("say \"ask\" or \"first\"")),
    };
    service::questions::set_referrals(&ctx, game, &gm.0, ask).await?;
    Ok(back(&id))
}

#[derive(Deserialize)]
struct RollbackForm {
    to: String,
    #[serde(default)]
    discard: Option<String>,
}

async fn rollback(
    State(ctx): State<Ctx>,
    Path(id): Path<String>,
    gm: SignedInGm,
    f: Result<Form<RollbackForm>, FormRejection>,
) -> Result<Redirect, WebError> {
    let game = gm.authorize(&ctx, &id).await?;
    let f = form(f)?;
    let to =
        f.to.trim().parse::<i32>().map_err(|_| WebError::bad_request("say which turn to roll back to"))?;
    service::rollback::rollback(&ctx, game, &gm.0, to, f.discard.is_none()).await?;
    Ok(back(&id))
}

#[derive(Deserialize)]
struct ResendForm {
    /// One mail's id; absent or empty: all of the game's undelivered mail.
    #[serde(default)]
    mail: Option<String>,
}

async fn resend_mail(
    State(ctx): State<Ctx>,
    Path(id): Path<String>,
    gm: SignedInGm,
    f: Result<Form<ResendForm>, FormRejection>,
) -> Result<Redirect, WebError> {
    let game = gm.authorize(&ctx, &id).await?;
    let only = match form(f)?.mail.as_deref().map(str::trim).filter(|m| !m.is_empty()) {
        Some(m) => Some(
            m.parse::<i64>().map_err(|_| WebError::bad_request(format!("\"{m}\" is not a mail number")))?,
        ),
        None => None,
    };
    service::undelivered::resend(&ctx, game, &gm.0, only).await?;
    Ok(back(&id))
}

/// The co-GM to add.
#[derive(Deserialize)]
pub(super) struct CoGmForm {
    email: String,
}

/// Adds a co-GM (RULING W42): they see and change the game as its GM does — a game still waiting
/// for its seats too (RULING W62), whose page the GM goes back to.
pub(super) async fn add_co_gm(
    State(ctx): State<Ctx>,
    Path(id): Path<String>,
    gm: SignedInGm,
    f: Result<Form<CoGmForm>, FormRejection>,
) -> Result<Redirect, WebError> {
    let game = game_id(&id)?;
    let email = EmailAddress::parse(&form(f)?.email).map_err(|e| WebError::bad_request(e.to_string()))?;
    let waiting = service::gm_access::add_co_gm(&ctx, game, Some(&gm.access(&ctx)), &email).await?;
    Ok(if waiting { Redirect::to(&format!("/gm/waiting/{id}")) } else { back(&id) })
}
