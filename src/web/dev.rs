//! The dev mailbox: with no SMTP server configured, mail stays in the outbox and can be read
//! here — its headers (From, To, Reply-To, Subject, threading), its text part, its HTML part and
//! its calendar attachment, as the outbox worker would send them. Mounted only in that mode —
//! never when mail is really being sent. The HTML part is shown as escaped source, never
//! rendered: the page stays under our Content-Security-Policy and runs nothing from a mail
//! (RULING S17).

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

async fn show(State(ctx): State<Ctx>, Path(id): Path<i64>) -> Result<MailPage, WebError> {
    let m =
        service::outbox_mail(&ctx, id).await?.ok_or_else(|| WebError::not_found(format!("no mail {id}")))?;
    let to = match m.to_name.as_deref().map(str::trim).filter(|n| !n.is_empty()) {
        Some(name) => format!("{name} <{}>", m.to_addr),
        None => m.to_addr.clone(),
    };
    Ok(MailPage { from: ctx.settings.mail_from.clone(), to, m })
}
