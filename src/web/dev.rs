//! The dev mailbox: with no SMTP server configured, mail stays in the outbox and can be read
//! here. Mounted only in that mode — never when mail is really being sent.

use super::WebError;
use crate::service::{self, Ctx};
use askama::Template;
use askama_web::WebTemplate;
use axum::Router;
use axum::extract::{Path, State};
use axum::routing::get;

pub fn routes() -> Router<Ctx> {
    Router::new().route("/dev/mailbox", get(list)).route("/dev/mailbox/{id}", get(show))
}

#[derive(Template, WebTemplate)]
#[template(path = "web/mailbox.html")]
struct MailboxPage {
    mails: Vec<service::MailView>,
}

async fn list(State(ctx): State<Ctx>) -> Result<MailboxPage, WebError> {
    let mut conn = ctx.pool.acquire().await.map_err(WebError::internal)?;
    Ok(MailboxPage { mails: service::outbox_recent(&mut conn, 500).await? })
}

#[derive(Template, WebTemplate)]
#[template(path = "web/mail.html")]
struct MailPage {
    m: service::MailView,
}

async fn show(State(ctx): State<Ctx>, Path(id): Path<i64>) -> Result<MailPage, WebError> {
    let mut conn = ctx.pool.acquire().await.map_err(WebError::internal)?;
    let m = service::outbox_mail(&mut conn, id)
        .await?
        .ok_or_else(|| WebError::not_found(format!("no mail {id}")))?;
    Ok(MailPage { m })
}
