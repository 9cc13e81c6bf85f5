//! The metrics listener: `GET /metrics` in the Prometheus text format on its own address
//! (`--metrics-addr`), apart from the public router, so that a scraper on the operator's network
//! can reach it while the players' web server never serves it (RULING O6). Each scrape reads the
//! gauges that describe the database first (outbox, due turns) and the pool; the names and the
//! recording are `crate::metrics`'s.

use crate::metrics::set_gauges;
use crate::service::{Ctx, Shutdown};
use axum::Router;
use axum::extract::State;
use axum::http::{StatusCode, header};
use axum::response::IntoResponse;
use axum::routing::get;
use metrics_exporter_prometheus::PrometheusHandle;
use std::time::Duration;

/// How often the recorder's histograms are drained between scrapes, so memory stays bounded when
/// nobody scrapes.
const UPKEEP_EVERY: Duration = Duration::from_secs(5);

/// The content type of the Prometheus text format.
const TEXT_FORMAT: &str = "text/plain; version=0.0.4; charset=utf-8";

/// The text a scrape answers: the database's gauges read now, then every metric rendered.
async fn render(ctx: &Ctx, handle: &PrometheusHandle) -> anyhow::Result<String> {
    let snapshot = {
        let mut conn = ctx.pool.acquire().await?;
        crate::store::metrics::snapshot(&mut conn, ctx.now()).await?
    };
    set_gauges(&snapshot, &ctx.pool, ctx.now());
    Ok(handle.render())
}

/// The metrics router: `/metrics` only.
fn router(ctx: Ctx, handle: PrometheusHandle) -> Router {
    Router::new().route("/metrics", get(scrape)).with_state((ctx, handle))
}

async fn scrape(State((ctx, handle)): State<(Ctx, PrometheusHandle)>) -> axum::response::Response {
    match render(&ctx, &handle).await {
        Ok(text) => ([(header::CONTENT_TYPE, TEXT_FORMAT)], text).into_response(),
        Err(e) => {
            tracing::warn!(error = %format!("{e:#}"), "metrics: cannot read the database's gauges");
            (StatusCode::SERVICE_UNAVAILABLE, "the database does not answer").into_response()
        }
    }
}

/// Serves `/metrics` on `listener` until `shutdown` is set, draining the recorder's histograms
/// every few seconds.
pub async fn serve_metrics(
    ctx: Ctx,
    handle: PrometheusHandle,
    listener: tokio::net::TcpListener,
    shutdown: Shutdown,
) {
    let upkeep = {
        let (handle, mut shutdown) = (handle.clone(), shutdown.clone());
        async move {
            loop {
                tokio::select! {
                    () = tokio::time::sleep(UPKEEP_EVERY) => handle.run_upkeep(),
                    () = shutdown.wait() => break,
                }
            }
        }
    };
    let mut stop = shutdown;
    let server =
        axum::serve(listener, router(ctx, handle)).with_graceful_shutdown(async move { stop.wait().await });
    let (served, ()) = tokio::join!(server.into_future(), upkeep);
    if let Err(e) = served {
        tracing::error!(error = %e, "the metrics listener failed");
    }
}
