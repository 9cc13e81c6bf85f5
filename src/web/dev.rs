//! The dev mailbox: with no SMTP server configured, mail stays in the outbox and can be read
//! here — its headers (From, To, Reply-To, Subject, threading), its text part, its HTML part and
//! its calendar attachment, as the outbox worker would send them. Mounted only in that mode —
//! never when mail is really being sent. The HTML part is shown as a mail client shows it, its
//! pictures rendered to the PNG parts SMTP would carry, in a sandboxed frame under a policy that
//! allows only those pictures and inline styles — nothing runs, nothing is fetched — and as its
//! source below (RULING S17, amended for issue 36).

use super::WebError;
use crate::service::{self, Ctx};
use askama::Template;
use askama_web::WebTemplate;
use axum::Router;
use axum::extract::{Path, State};
use axum::http::header;
use axum::response::IntoResponse;
use axum::routing::get;

pub fn routes() -> Router<Ctx> {
    Router::new()
        .route("/dev/mailbox", get(list))
        .route("/dev/mailbox/{id}", get(show))
        .route("/dev/mailbox/{id}/html", get(html))
}

#[derive(Template, WebTemplate)]
#[template(path = "web/mailbox.html")]
struct MailboxPage {
    mails: Vec<service::MailView>,
}

async fn list(State(ctx): State<Ctx>) -> Result<MailboxPage, WebError> {
    Ok(MailboxPage { mails: service::outbox_recent(&ctx, 500).await? })
}

#[derive(Template, WebTemplate)]
#[template(path = "web/mail.html")]
struct MailPage {
    /// The From the outbox worker sends with (the server's, not the row's).
    from: String,
    /// The To as it is sent: the name and the address.
    to: String,
    m: service::MailView,
}

/// The mail page's policy: the pages' own, and its one frame, the HTML part, from us.
const PAGE_POLICY: &str = "default-src 'none'; style-src 'self'; img-src 'self'; frame-src 'self'; \
    form-action 'self'; base-uri 'none'; frame-ancestors 'none'";

/// The framed HTML part's policy: its pictures (`data:` PNG parts) and the inline styles mail
/// is written with; no script, no fetch, no form, framed only by our mail page.
const FRAME_POLICY: &str = "default-src 'none'; img-src data:; style-src 'unsafe-inline'; \
    form-action 'none'; base-uri 'none'; frame-ancestors 'self'";

async fn show(State(ctx): State<Ctx>, Path(id): Path<i64>) -> Result<impl IntoResponse, WebError> {
    let page = mail_page(&ctx, id).await?;
    Ok(([(header::CONTENT_SECURITY_POLICY, PAGE_POLICY)], page))
}

/// The HTML part as a mail client shows it, with its pictures as their PNG parts (the kept
/// drawings' PNGs, rendered once as the outbox worker has them for SMTP).
async fn html(State(ctx): State<Ctx>, Path(id): Path<i64>) -> Result<impl IntoResponse, WebError> {
    let m =
        service::outbox_mail(&ctx, id).await?.ok_or_else(|| WebError::not_found(format!("no mail {id}")))?;
    let html = m.body_html.ok_or_else(|| WebError::not_found(format!("mail {id} has no HTML part")))?;
    let id = m.message_id;
    let drawn = service::pictures::pngs_in(&ctx, &html).await?;
    let shown = tokio::task::spawn_blocking(move || crate::mail::message::html_as_mailed(&html, &id, &drawn))
        .await
        .map_err(WebError::internal)?;
    Ok((
        [(header::CONTENT_SECURITY_POLICY, FRAME_POLICY), (header::CONTENT_TYPE, "text/html; charset=utf-8")],
        shown,
    ))
}

async fn mail_page(ctx: &Ctx, id: i64) -> Result<MailPage, WebError> {
    let m =
        service::outbox_mail(ctx, id).await?.ok_or_else(|| WebError::not_found(format!("no mail {id}")))?;
    let to = match m.to_name.as_deref().map(str::trim).filter(|n| !n.is_empty()) {
        Some(name) => format!("{name} <{}>", m.to_addr),
        None => m.to_addr.clone(),
    };
    Ok(MailPage { from: ctx.settings.mail_from.clone(), to, m })
}
