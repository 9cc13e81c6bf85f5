//! The GM's "New game" (issue 37): the form made from each engine's option list, and the page of
//! a game waiting for its seats (start it early, cancel it, approve requests to join). Each
//! handler checks the signed-in GM, then calls `service::waiting`.

use super::WebError;
use super::gm::SignedInGm;
use super::pages::game_id;
use crate::domain::{Mailbox, Review};
use crate::engine::OptionSpec;
use crate::registry::{self, DynGame};
use crate::schedule::ClockWords;
use crate::service::waiting::{self, NewWaitingGame, WaitingView};
use crate::service::{Ctx, ServiceError, gm_access};
use askama::Template;
use askama_web::WebTemplate;
use axum::Router;
use axum::extract::rejection::FormRejection;
use axum::extract::{Form, Path, Query, State};
use axum::response::{IntoResponse, Redirect, Response};
use axum::routing::{get, post};
use serde::Deserialize;
use std::collections::BTreeMap;

pub fn routes() -> Router<Ctx> {
    Router::new()
        .route("/gm/new", get(new_page).post(create))
        .route("/gm/waiting/{id}", get(waiting_page))
        .route("/gm/waiting/{id}/start", post(start))
        .route("/gm/waiting/{id}/cancel", post(cancel))
        .route("/gm/waiting/{id}/approve", post(approve))
        .route("/gm/waiting/{id}/co-gm", post(super::gm_controls::add_co_gm))
}

/// An engine as the form offers it.
struct EngineChoice {
    slug: &'static str,
    title: &'static str,
    blurb: &'static str,
    min: u8,
    max: u8,
}

/// One option field, with what was entered and what is wrong with it.
struct OptionField {
    spec: OptionSpec,
    value: String,
    error: Option<String>,
}

#[derive(Template, WebTemplate)]
#[template(path = "web/gm_new.html")]
struct NewGamePage {
    engines: Vec<EngineChoice>,
    /// The engine chosen, if any, and the form for it.
    chosen: Option<EngineChoice>,
    fields: Vec<OptionField>,
    /// Everything else the GM entered (to show it again), by field name.
    v: BTreeMap<String, String>,
    error: Option<String>,
}

impl NewGamePage {
    /// The value entered in a field, or its default.
    fn val(&self, name: &str, default: &str) -> String {
        self.v.get(name).cloned().unwrap_or_else(|| default.to_string())
    }
}

fn choice(e: &dyn DynGame) -> EngineChoice {
    EngineChoice {
        slug: e.slug(),
        title: e.title(),
        blurb: e.blurb(),
        min: *e.seat_counts().start(),
        max: *e.seat_counts().end(),
    }
}

fn page(
    chosen: Option<&'static dyn DynGame>,
    v: BTreeMap<String, String>,
    errors: &BTreeMap<String, String>,
) -> NewGamePage {
    let fields = chosen
        .map(|e| {
            e.option_specs()
                .iter()
                .map(|spec| OptionField {
                    spec: *spec,
                    value: v.get(&format!("opt.{}", spec.name)).cloned().unwrap_or_default(),
                    error: errors.get(spec.name).cloned(),
                })
                .collect()
        })
        .unwrap_or_default();
    NewGamePage {
        engines: registry::engines().iter().map(|e| choice(*e)).collect(),
        chosen: chosen.map(choice),
        fields,
        v,
        error: None,
    }
}

#[derive(Deserialize)]
struct EngineQuery {
    engine: Option<String>,
}

/// Refuses a GM who may not create games (RULING W42).
async fn may_create(ctx: &Ctx, gm: &SignedInGm) -> Result<(), WebError> {
    let mut conn = ctx.pool.acquire().await.map_err(WebError::internal)?;
    if gm_access::may_create(&mut conn, &ctx.settings.creation, &gm.0).await? {
        Ok(())
    } else {
        Err(ServiceError::Forbidden(
            "this address may not create games here; the server's operator can invite it".into(),
        )
        .into())
    }
}

async fn new_page(
    State(ctx): State<Ctx>,
    gm: SignedInGm,
    q: Result<Query<EngineQuery>, axum::extract::rejection::QueryRejection>,
) -> Result<NewGamePage, WebError> {
    may_create(&ctx, &gm).await?;
    let slug = q.ok().and_then(|Query(q)| q.engine).filter(|s| !s.is_empty());
    let chosen = match slug {
        Some(s) => Some(registry::find(&s).map_err(|e| WebError::bad_request(e.to_string()))?),
        None => None,
    };
    Ok(page(chosen, BTreeMap::new(), &BTreeMap::new()))
}

/// A field of the form ("" when absent).
fn field<'a>(v: &'a BTreeMap<String, String>, name: &str) -> &'a str {
    v.get(name).map_or("", String::as_str)
}

fn optional(v: &BTreeMap<String, String>, name: &str) -> Option<String> {
    Some(field(v, name).trim().to_string()).filter(|s| !s.is_empty())
}

/// The form read into the service's request, or the page again with what is wrong.
fn read_form(gm_form: Vec<(String, String)>) -> Result<NewWaitingGame, Box<NewGamePage>> {
    let v: BTreeMap<String, String> = gm_form.into_iter().collect();
    let fail = |chosen, v, errors: &BTreeMap<String, String>, error: String| {
        let mut p = page(chosen, v, errors);
        p.error = Some(error);
        Box::new(p)
    };
    let engine = match registry::find(field(&v, "engine")) {
        Ok(e) => e,
        Err(e) => return Err(fail(None, v.clone(), &BTreeMap::new(), e.to_string())),
    };
    let seats: u8 = match field(&v, "seats").trim().parse() {
        Ok(n) => n,
        Err(_) => {
            return Err(fail(
                Some(engine),
                v.clone(),
                &BTreeMap::new(),
                "seats: give a number of players".into(),
            ));
        }
    };
    let opts: BTreeMap<String, String> =
        v.iter().filter_map(|(k, t)| k.strip_prefix("opt.").map(|k| (k.to_string(), t.clone()))).collect();
    let (options, errors) = waiting::options_from_form(engine, seats, &opts);
    if !errors.is_empty() {
        return Err(fail(Some(engine), v.clone(), &errors, "an option is not right: see its field".into()));
    }
    let mut invited = Vec::new();
    for line in field(&v, "invited").lines().map(str::trim).filter(|l| !l.is_empty()) {
        match Mailbox::parse(line) {
            Ok(m) => invited.push(m),
            Err(e) => {
                return Err(fail(
                    Some(engine),
                    v.clone(),
                    &errors,
                    format!("seats by address: \"{line}\": {e}"),
                ));
            }
        }
    }
    let review = match field(&v, "review").parse::<Review>() {
        Ok(r) => r,
        Err(e) => return Err(fail(Some(engine), v.clone(), &errors, e.to_string())),
    };
    let clock = ClockWords {
        deadline: field(&v, "deadline").to_string(),
        at: optional(&v, "at"),
        days: optional(&v, "days"),
        tz: optional(&v, "tz"),
        grace: optional(&v, "grace"),
        cron: None,
        reminders: field(&v, "reminders").to_string(),
        cooling_off: field(&v, "cooling_off").to_string(),
        nmr_policy: field(&v, "nmr_policy").to_string(),
        auto_release: optional(&v, "auto_release"),
        ..ClockWords::default()
    };
    if let Err(e) = clock.parse() {
        return Err(fail(Some(engine), v.clone(), &errors, e.to_string()));
    }
    Ok(NewWaitingGame {
        engine: engine.slug().to_string(),
        name: field(&v, "name").to_string(),
        seats,
        invited,
        options,
        clock,
        review,
        shuffle: field(&v, "seating") == "shuffled",
        approval: field(&v, "approval") == "1",
    })
}

async fn create(
    State(ctx): State<Ctx>,
    gm: SignedInGm,
    f: Result<Form<Vec<(String, String)>>, FormRejection>,
) -> Result<Response, WebError> {
    may_create(&ctx, &gm).await?;
    let Form(fields) = f.map_err(|e| WebError::form("the new game form", &e))?;
    let echo: BTreeMap<String, String> = fields.iter().cloned().collect();
    let req = match read_form(fields) {
        Ok(r) => r,
        Err(p) => return Ok((axum::http::StatusCode::BAD_REQUEST, *p).into_response()),
    };
    match waiting::open_game(&ctx, &gm.access(&ctx), req).await {
        Ok(id) => Ok(Redirect::to(&format!("/gm/waiting/{id}")).into_response()),
        Err(ServiceError::BadInput(why)) => {
            let mut p = page(registry::find(field(&echo, "engine")).ok(), echo, &BTreeMap::new());
            p.error = Some(why);
            Ok((axum::http::StatusCode::BAD_REQUEST, p).into_response())
        }
        Err(e) => Err(e.into()),
    }
}

#[derive(Template, WebTemplate)]
#[template(path = "web/gm_waiting.html")]
struct WaitingPage {
    w: WaitingView,
}

async fn waiting_page(
    State(ctx): State<Ctx>,
    Path(id): Path<String>,
    gm: SignedInGm,
) -> Result<Response, WebError> {
    let id = game_id(&id)?;
    let mut conn = ctx.pool.acquire().await.map_err(WebError::internal)?;
    let w = waiting::waiting_view(&mut conn, id, &gm.access(&ctx)).await?;
    if w.status == crate::domain::WaitingStatus::Started {
        return Ok(Redirect::to(&format!("/gm/games/{id}")).into_response());
    }
    Ok(WaitingPage { w }.into_response())
}

async fn start(State(ctx): State<Ctx>, Path(id): Path<String>, gm: SignedInGm) -> Result<Redirect, WebError> {
    let game = game_id(&id)?;
    waiting::start_now(&ctx, game, &gm.access(&ctx)).await?;
    Ok(Redirect::to(&format!("/gm/games/{game}")))
}

async fn cancel(
    State(ctx): State<Ctx>,
    Path(id): Path<String>,
    gm: SignedInGm,
) -> Result<Redirect, WebError> {
    let game = game_id(&id)?;
    waiting::cancel(&ctx, game, &gm.access(&ctx)).await?;
    Ok(Redirect::to("/gm"))
}

#[derive(Deserialize)]
struct ApproveForm {
    place: i64,
    answer: String,
}

async fn approve(
    State(ctx): State<Ctx>,
    Path(id): Path<String>,
    gm: SignedInGm,
    f: Result<Form<ApproveForm>, FormRejection>,
) -> Result<Redirect, WebError> {
    let game = game_id(&id)?;
    let Form(f) = f.map_err(|e| WebError::form("the form", &e))?;
    waiting::approve(&ctx, game, &gm.access(&ctx), f.place, f.answer == "approve").await?;
    Ok(Redirect::to(&format!("/gm/waiting/{game}")))
}
