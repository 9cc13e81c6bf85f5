//! What every answer carries (RULING W4): a Content-Security-Policy that fits the pages (one
//! stylesheet of our own, forms posting to us, no scripts, no framing), no Referer sent onward
//! (page addresses can be secrets: seat links, sign-in links), no MIME sniffing, and `no-store`
//! on private answers (seat pages, a player's home, GM pages, the dev mailbox, API calls with a
//! bearer token).

use axum::extract::Request;
use axum::http::{HeaderValue, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

/// The pages' policy: nothing but our stylesheet, our images and forms posting to us.
pub const CONTENT_SECURITY_POLICY: &str = "default-src 'none'; style-src 'self'; img-src 'self'; \
    form-action 'self'; base-uri 'none'; frame-ancestors 'none'";

/// The one stylesheet of every page (it was an inline `<style>`, which the policy would block).
const STYLESHEET: &str = include_str!("../../templates/web/style.css");

/// `GET /style.css`.
pub async fn stylesheet() -> impl IntoResponse {
    (
        [(header::CONTENT_TYPE, "text/css; charset=utf-8"), (header::CACHE_CONTROL, "public, max-age=3600")],
        STYLESHEET,
    )
}

/// Whether an answer to this request is for one reader only.
fn private(req: &Request) -> bool {
    let path = req.uri().path();
    ["/play/", "/gm", "/dev/", "/home"].iter().any(|p| path.starts_with(p))
        || (path.starts_with("/api/") && req.headers().contains_key(header::AUTHORIZATION))
}

/// Middleware setting the headers on every answer.
pub async fn security_headers(req: Request, next: Next) -> Response {
    let private = private(&req);
    let mut resp = next.run(req).await;
    let h = resp.headers_mut();
    // A handler that set its own, stricter-for-its-purpose policy keeps it (the dev mailbox's
    // framed mail, RULING S17 amended).
    if !h.contains_key(header::CONTENT_SECURITY_POLICY) {
        h.insert(header::CONTENT_SECURITY_POLICY, HeaderValue::from_static(CONTENT_SECURITY_POLICY));
    }
    h.insert(header::REFERRER_POLICY, HeaderValue::from_static("no-referrer"));
    h.insert(header::X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff"));
    if private {
        h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    }
    resp
}
