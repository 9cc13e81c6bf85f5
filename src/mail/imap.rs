//! The IMAP poller, for GMs whose order address is a hosted mailbox: fetches unseen messages,
//! stores each one raw (the one [`ingest`] the ingest socket uses too), stamped with the time of
//! the context's clock, and only then marks it seen — a message that could not be stored stays
//! unseen and is fetched again on the next poll. Processing is left to the scheduler, woken
//! after a poll that stored mail, exactly as for piped mail.

use crate::service::inbound::{Arrived, MAX_MAIL_BYTES, ingest};
use crate::service::{Ctx, Shutdown};
use anyhow::{Context, bail};
use futures_util::TryStreamExt;
use std::fmt::Debug;
use tokio::io::{AsyncRead, AsyncWrite};
use tokio::net::TcpStream;

/// Where to poll: `imaps://user:password@host[:993]/MAILBOX` (or `imap://` for a server on
/// the same machine).
#[derive(Clone)]
pub struct ImapConfig {
    tls: bool,
    host: String,
    port: u16,
    user: String,
    password: String,
    mailbox: String,
}

impl Debug for ImapConfig {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{}://{}@{}:{}/{}",
            if self.tls { "imaps" } else { "imap" },
            self.user,
            self.host,
            self.port,
            self.mailbox
        )
    }
}

impl ImapConfig {
    /// Parses an `imap://` or `imaps://` URL with user, password and an optional mailbox
    /// (default INBOX). Percent-encoded characters in user and password are decoded.
    pub fn parse(url: &str) -> anyhow::Result<ImapConfig> {
        let u = url::Url::parse(url.trim()).context("the IMAP URL is not a URL")?;
        let tls = match u.scheme() {
            "imaps" => true,
            "imap" => false,
            other => bail!("the IMAP URL must start with imaps:// or imap://, not {other}://"),
        };
        let host = u.host_str().filter(|h| !h.is_empty()).context("the IMAP URL has no host")?.to_string();
        let decode = |s: &str| {
            url::form_urlencoded::parse(format!("x={s}").as_bytes()).next().map(|(_, v)| v.into_owned())
        };
        let user = decode(u.username()).filter(|s| !s.is_empty()).context("the IMAP URL has no user")?;
        let password = u.password().and_then(decode).context("the IMAP URL has no password")?;
        let mailbox = u.path().trim_start_matches('/');
        Ok(ImapConfig {
            tls,
            port: u.port().unwrap_or(if tls { 993 } else { 143 }),
            host,
            user,
            password,
            mailbox: if mailbox.is_empty() { "INBOX".into() } else { mailbox.to_string() },
        })
    }
}

/// What one poll did.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct PollStats {
    pub fetched: usize,
    pub stored: usize,
    pub duplicates: usize,
}

/// Connects, fetches every unseen message, stores each (received at `ctx.now()`), marks each
/// stored one seen, logs out.
pub async fn poll_once(cfg: &ImapConfig, ctx: &Ctx) -> anyhow::Result<PollStats> {
    let tcp = TcpStream::connect((cfg.host.as_str(), cfg.port))
        .await
        .with_context(|| format!("cannot reach the IMAP server {}:{}", cfg.host, cfg.port))?;
    if cfg.tls {
        let tls = crate::tls::connect(&cfg.host, tcp).await.context("cannot open TLS to the IMAP server")?;
        poll_stream(tls, cfg, ctx).await
    } else {
        poll_stream(tcp, cfg, ctx).await
    }
}

async fn poll_stream<T>(stream: T, cfg: &ImapConfig, ctx: &Ctx) -> anyhow::Result<PollStats>
where
    T: AsyncRead + AsyncWrite + Unpin + Debug + Send,
{
    let mut client = async_imap::Client::new(stream);
    client.read_response().await.context("no IMAP greeting")?;
    let mut session =
        client.login(&cfg.user, &cfg.password).await.map_err(|(e, _)| e).context("IMAP login refused")?;
    session.select(&cfg.mailbox).await.with_context(|| format!("cannot open the mailbox {}", cfg.mailbox))?;
    let mut uids: Vec<u32> = session.uid_search("UNSEEN").await.context("IMAP search")?.into_iter().collect();
    uids.sort_unstable();
    let mut stats = PollStats::default();
    for uid in uids {
        let fetched: Vec<_> = session
            .uid_fetch(uid.to_string(), "BODY.PEEK[]")
            .await
            .context("IMAP fetch")?
            .try_collect()
            .await
            .context("IMAP fetch")?;
        let Some(raw) = fetched.iter().find_map(|f| f.body()) else { continue };
        stats.fetched += 1;
        // Stored first; a failure here leaves the message unseen for the next poll.
        let kept = &raw[..raw.len().min(MAX_MAIL_BYTES + 1)];
        let ingested = ingest(&ctx.pool, &[Arrived::new(kept, "imap")], ctx.now())
            .await
            .context("cannot store a fetched message")?;
        if ingested.first().is_some_and(|i| i.new) {
            stats.stored += 1;
        } else {
            stats.duplicates += 1;
        }
        let _: Vec<_> = session
            .uid_store(uid.to_string(), "+FLAGS.SILENT (\\Seen)")
            .await
            .context("IMAP store")?
            .try_collect()
            .await
            .context("IMAP store")?;
    }
    session.logout().await.context("IMAP logout")?;
    Ok(stats)
}

/// Polls every `every` until `shutdown` is set; errors are logged and the next poll retries.
/// A poll that stored mail wakes the scheduler (`ctx.turn_wake`), which processes it.
pub async fn run_poller(ctx: Ctx, cfg: ImapConfig, every: std::time::Duration, mut shutdown: Shutdown) {
    loop {
        match poll_once(&cfg, &ctx).await {
            Ok(s) if s.stored > 0 => {
                tracing::info!(stored = s.stored, duplicates = s.duplicates, "IMAP poll stored mail");
                ctx.turn_wake.notify_one();
            }
            Ok(_) => {}
            Err(e) => tracing::error!(error = format!("{e:#}"), mailbox = ?cfg, "IMAP poll failed"),
        }
        tokio::select! {
            _ = tokio::time::sleep(every) => {}
            () = shutdown.wait() => break,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn imap_urls_are_read_with_defaults() {
        let c = ImapConfig::parse("imaps://orders%40gm.example:p%40ss@imap.example.org/Orders").unwrap();
        assert_eq!(
            (c.tls, c.port, c.user.as_str(), c.password.as_str(), c.mailbox.as_str()),
            (true, 993, "orders@gm.example", "p@ss", "Orders")
        );
        let c = ImapConfig::parse("imap://u:p@127.0.0.1:1143").unwrap();
        assert_eq!((c.tls, c.port, c.mailbox.as_str()), (false, 1143, "INBOX"));
        assert!(!format!("{c:?}").contains(":p@"), "no password in logs");
    }

    #[test]
    fn bad_imap_urls_are_refused_with_a_reason() {
        for bad in ["", "http://u:p@h", "imaps://h", "imaps://u@h"] {
            assert!(ImapConfig::parse(bad).is_err(), "{bad}");
        }
    }
}
