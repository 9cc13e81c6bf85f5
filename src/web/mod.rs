//! The web face: player pages reached by secret links, a player's home (sign-in by mailed link),
//! the JSON API, public game pages, the GM dashboard and the dev mailbox. Handlers are thin: they parse input at the edge and call
//! `crate::service`.

mod api;
mod dev;
pub mod error;
mod feeds;
mod gm;
mod gm_controls;
mod guide;
mod headers;
mod home;
mod listener;
mod metrics_listener;
mod new_game;
mod pages;
mod pictures;
mod places;
mod play;

use crate::service::Ctx;
use axum::Router;
use axum::extract::DefaultBodyLimit;
use axum::http::StatusCode;
use axum::routing::get;
use std::time::Duration;
use tower_http::catch_panic::CatchPanicLayer;
use tower_http::csrf::CsrfLayer;
use tower_http::request_id::{MakeRequestUuid, PropagateRequestIdLayer, SetRequestIdLayer};
use tower_http::timeout::TimeoutLayer;
use tower_http::trace::TraceLayer;

pub use error::{ApiError, WebError};
pub use metrics_listener::serve_metrics;

/// The largest request body accepted at all (order texts are limited further, to 64 KiB, with
/// a readable error).
pub(crate) const MAX_BODY: usize = 256 * 1024;

/// The whole application as a router.
pub fn router(ctx: Ctx) -> Router {
    let dev = ctx.settings.dev_mailbox_page();
    let mut app = Router::new()
        .route("/healthz", get(|| async { "ok" }))
        .route("/readyz", get(readyz))
        .route("/style.css", get(headers::stylesheet))
        .merge(pages::routes())
        .merge(pictures::routes())
        .merge(play::routes())
        .merge(guide::routes())
        .merge(api::routes())
        .merge(gm::routes())
        .merge(gm_controls::routes())
        .merge(new_game::routes())
        .merge(places::routes())
        .merge(home::routes())
        .merge(feeds::routes());
    if dev {
        app = app.merge(dev::routes());
    }
    let request_timeout = Duration::from_secs(ctx.settings.web.request_timeout_secs.max(1));
    app.layer(CsrfLayer::new())
        .layer(DefaultBodyLimit::max(MAX_BODY))
        // RULING W6: a whole request (its body read, its handler run) is answered within this.
        .layer(TimeoutLayer::with_status_code(StatusCode::REQUEST_TIMEOUT, request_timeout))
        // The span names the route, never the raw path: a seat's secret link is in its path.
        .layer(TraceLayer::new_for_http().make_span_with(request_span))
        .layer(axum::middleware::from_fn(crate::metrics::track_requests))
        .layer(PropagateRequestIdLayer::x_request_id())
        .layer(SetRequestIdLayer::x_request_id(MakeRequestUuid))
        .layer(CatchPanicLayer::custom(|_| {
            WebError::internal("a request handler panicked").into_response_boxed()
        }))
        .layer(axum::middleware::from_fn(headers::security_headers))
        .with_state(ctx)
}

impl WebError {
    fn into_response_boxed(self) -> axum::http::Response<axum::body::Body> {
        axum::response::IntoResponse::into_response(self)
    }
}

/// The span of one request: its method, its route (`/play/{token}`, not the path with the
/// token) and its request id (issue 19: JSON logs carry it as a field).
fn request_span(req: &axum::http::Request<axum::body::Body>) -> tracing::Span {
    let route = req.extensions().get::<axum::extract::MatchedPath>().map_or("(no route)", |m| m.as_str());
    let id = req.headers().get("x-request-id").and_then(|v| v.to_str().ok()).unwrap_or("");
    tracing::info_span!("request", method = %req.method(), route, request_id = id)
}

/// Readiness (issue 19): 200 "ready", or 503 with the reasons one per line.
async fn readyz(axum::extract::State(ctx): axum::extract::State<Ctx>) -> (StatusCode, String) {
    let why = crate::service::health::not_ready(&ctx).await;
    if why.is_empty() {
        (StatusCode::OK, "ready".into())
    } else {
        (StatusCode::SERVICE_UNAVAILABLE, why.join("\n"))
    }
}

/// Serves the application until ctrl-c or SIGTERM, under the limits of the settings (RULING W6).
pub async fn serve(ctx: Ctx, listener: tokio::net::TcpListener) -> anyhow::Result<()> {
    let limits = ctx.settings.web.clone();
    listener::serve_until(router(ctx), listener, &limits, stop_signal()).await
}

/// Resolves on ctrl-c or, on Unix, SIGTERM (what service managers and container runtimes send):
/// the server then stops taking requests, its workers finish or release what they hold, and the
/// process exits (issue 19).
async fn stop_signal() {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{SignalKind, signal};
        if let Ok(mut term) = signal(SignalKind::terminate()) {
            tokio::select! {
                _ = tokio::signal::ctrl_c() => {}
                _ = term.recv() => {}
            }
            tracing::info!("stopping: finishing the work under way");
            return;
        }
    }
    let _ = tokio::signal::ctrl_c().await;
    tracing::info!("stopping: finishing the work under way");
}
