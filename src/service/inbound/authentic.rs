//! Whether a mail is verifiably from its From address under the policy in force (RULINGS M3,
//! M8): under `require`, our MTA's authentication results must pass for the From's domain. A
//! seat's mail (`super`) and a `GAMES` request (`games`) are judged alike.

use crate::config::MailAuth;
use crate::inbound_mail::ParsedMail;
use crate::service::Ctx;

/// Why the mail's authentication does not pass for `from` under the `require` policy, if it
/// does not; `None` under `record`, where the address alone is judged.
pub(super) fn failure(ctx: &Ctx, from: &str, mail: &ParsedMail) -> Option<String> {
    if ctx.settings.mail_auth() != MailAuth::Require {
        return None;
    }
    match &mail.auth {
        None => Some("our mail server recorded no authentication results for it".to_string()),
        Some(a) => a.verdict(from).err(),
    }
}
