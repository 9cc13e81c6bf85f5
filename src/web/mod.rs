//! The web face: player pages reached by secret links, the JSON API, public game pages, the GM
//! dashboard and the dev mailbox. Handlers are thin: they parse input at the edge and call
//! `crate::service`.

mod api;
mod dev;
pub mod error;
mod gm;
mod gm_controls;
mod headers;
mod listener;
mod pages;
mod pictures;
mod play;

use crate::service::Ctx;
use axum::Router;
use axum::extract::DefaultBodyLimit;
use axum::http::StatusCode;
use axum::routing::get;
use std::time::Duration;
use tower_http::catch_panic::CatchPanicLayer;
use tower_http::csrf::CsrfLayer;
use tower_http::timeout::TimeoutLayer;
use tower_http::trace::TraceLayer;

pub use error::{ApiError, WebError};

/// The largest request body accepted at all (order texts are limited further, to 64 KiB, with
/// a readable error).
pub(crate) const MAX_BODY: usize = 256 * 1024;

/// The whole application as a router.
pub fn router(ctx: Ctx) -> Router {
    let dev = ctx.settings.dev_mailbox_page();
    let mut app = Router::new()
        .route("/healthz", get(|| async { "ok" }))
        .route("/style.css", get(headers::stylesheet))
        .merge(pages::routes())
        .merge(pictures::routes())
        .merge(play::routes())
        .merge(api::routes())
        .merge(gm::routes())
        .merge(gm_controls::routes());
    if dev {
        app = app.merge(dev::routes());
    }
    let request_timeout = Duration::from_secs(ctx.settings.web.request_timeout_secs.max(1));
    app.layer(CsrfLayer::new())
        .layer(DefaultBodyLimit::max(MAX_BODY))
        // RULING W6: a whole request (its body read, its handler run) is answered within this.
        .layer(TimeoutLayer::with_status_code(StatusCode::REQUEST_TIMEOUT, request_timeout))
        .layer(TraceLayer::new_for_http())
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

/// Serves the application until ctrl-c, under the limits of the settings (RULING W6).
pub async fn serve(ctx: Ctx, listener: tokio::net::TcpListener) -> anyhow::Result<()> {
    let limits = ctx.settings.web.clone();
    listener::serve_until(router(ctx), listener, &limits, async {
        let _ = tokio::signal::ctrl_c().await;
    })
    .await
}
