//! Server settings: one struct, every field a flag with an environment variable, defaults that
//! work on a developer machine with a local Postgres and no other configuration.

use clap::Args;

/// The ingest socket setting that means "the one of this database" (the default).
pub const DEFAULT_INGEST_SOCKET: &str = "auto";
/// The directory of the per-database ingest sockets.
pub const INGEST_SOCKET_DIR: &str = "/run/stationmaster";
/// The environment variable that names the ingest socket.
pub const INGEST_SOCKET_ENV: &str = "STATIONMASTER_INGEST_SOCKET";
/// The database used unless told otherwise.
pub const DEFAULT_DATABASE_URL: &str = "postgres://postgres@127.0.0.1:5432/stationmaster";
/// The environment variable that names the database.
pub const DATABASE_URL_ENV: &str = "DATABASE_URL";

/// The ingest socket's path from its setting and the database URL, unless the setting turns it
/// off (empty). `auto` is the database's own socket, so that two servers on one machine (and
/// each one's `mail ingest`) never share one: `/run/stationmaster/ingest-<database>-<hash>.sock`,
/// the hash over the host, port and database the URL names (not its user or password). RULING S8.
pub fn ingest_socket_path(setting: &str, database_url: &str) -> Option<std::path::PathBuf> {
    let setting = setting.trim();
    if !setting.eq_ignore_ascii_case(DEFAULT_INGEST_SOCKET) {
        return Some(setting).filter(|p| !p.is_empty()).map(std::path::PathBuf::from);
    }
    use sha2::Digest;
    use std::str::FromStr;
    let (name, place) = match sqlx::postgres::PgConnectOptions::from_str(database_url.trim()) {
        Ok(o) => {
            let db = o.get_database().unwrap_or("postgres").to_string();
            (db.clone(), format!("{}:{}/{db}", o.get_host().to_ascii_lowercase(), o.get_port()))
        }
        // Not a URL the server could use either; it says so when it connects.
        Err(_) => ("database".to_string(), database_url.trim().to_string()),
    };
    let name: String =
        name.chars().filter(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_')).take(32).collect();
    let hash = data_encoding::HEXLOWER.encode(&sha2::Sha256::digest(place.as_bytes())[..4]);
    Some(std::path::Path::new(INGEST_SOCKET_DIR).join(format!("ingest-{name}-{hash}.sock")))
}

/// What the authentication results of inbound mail decide (`STATIONMASTER_MAIL_AUTH`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum MailAuth {
    /// Recorded on the message for the GM; mail is judged by its address and sender only.
    Record,
    /// Mail for a seat is refused unless our MTA's results say it passed (DMARC, else DKIM or SPF).
    Require,
}

/// The help heading of the settings, apart from each command's own flags.
pub const GLOBAL_OPTIONS: &str = "Global options";

/// Settings shared by the server and the console commands.
#[derive(Debug, Clone, Args)]
#[command(next_help_heading = GLOBAL_OPTIONS)]
pub struct Settings {
    /// Postgres URL; the database is created if missing and migrated on start.
    #[arg(
        long,
        env = DATABASE_URL_ENV,
        default_value = DEFAULT_DATABASE_URL,
        hide_env_values = true,
        global = true
    )]
    pub database_url: String,

    /// Address the web server listens on.
    #[arg(
        long,
        env = "STATIONMASTER_BIND",
        default_value = "127.0.0.1:8080",
        global = true,
        hide_env_values = true
    )]
    pub bind: String,

    /// Public base URL used in links in mail (no trailing slash).
    #[arg(
        long,
        env = "STATIONMASTER_BASE_URL",
        default_value = "http://127.0.0.1:8080",
        global = true,
        hide_env_values = true
    )]
    pub base_url: String,

    /// SMTP server for outgoing mail, e.g. smtp://127.0.0.1:1025 or smtps://user:pass@host.
    /// Without one, mail stays in the outbox and can be read on the /dev/mailbox page.
    #[arg(long, env = "STATIONMASTER_SMTP_URL", hide_env_values = true, global = true)]
    pub smtp_url: Option<String>,

    /// The From address of every mail the server sends.
    #[arg(
        long,
        env = "STATIONMASTER_MAIL_FROM",
        default_value = "Stationmaster <stationmaster@localhost>",
        global = true,
        hide_env_values = true
    )]
    pub mail_from: String,

    /// Secret key for seat links and signed reply addresses. When not given it is read from the
    /// key file (created on first start); it is never kept in the database.
    #[arg(long, env = "STATIONMASTER_SECRET_KEY", hide_env_values = true, global = true)]
    pub secret_key: Option<String>,

    /// The key file used when no secret key is given (created 0600 on first start). Default:
    /// `$STATE_DIRECTORY`, `$XDG_STATE_HOME/stationmaster` or `~/.local/state/stationmaster`,
    /// file `secret.key`.
    #[arg(long, env = "STATIONMASTER_SECRET_KEY_FILE", global = true, hide_env_values = true)]
    pub secret_key_file: Option<std::path::PathBuf>,

    /// Domain of the signed per-seat reply addresses (orders+…@DOMAIN); mail to it must reach
    /// `stationmaster mail ingest`. Defaults to the domain of the From address.
    #[arg(long, env = "STATIONMASTER_REPLY_DOMAIN", global = true, hide_env_values = true)]
    pub reply_domain: Option<String>,

    /// The authserv-id our own MTA writes in Authentication-Results headers; only those are
    /// recorded (others may be forged). Without it, none are trusted.
    #[arg(long, env = "STATIONMASTER_AUTHSERV_ID", global = true, hide_env_values = true)]
    pub authserv_id: Option<String>,

    /// What the DKIM/SPF/DMARC results of our MTA decide for mail to a seat: `record` (kept for
    /// the GM only) or `require` (a seat's mail must pass; docs/MAIL.md). Default: `require` when
    /// an authserv-id is set, else `record`.
    #[arg(long, env = "STATIONMASTER_MAIL_AUTH", value_enum, global = true, hide_env_values = true)]
    pub mail_auth: Option<MailAuth>,

    /// A hosted mailbox to poll for order mail, e.g. imaps://user:password@imap.example.org/INBOX
    /// (optional; the usual way in is an MTA piping to `mail ingest`).
    #[arg(long, env = "STATIONMASTER_IMAP_URL", hide_env_values = true, global = true)]
    pub imap_url: Option<String>,

    /// The local socket `mail ingest` hands messages to the running server on (mode 0660; see
    /// docs/MAIL.md). `mail ingest` stores directly in the database when no server listens.
    /// `auto`: the database's own, /run/stationmaster/ingest-<database>-<hash>.sock (one per
    /// database, so instances on one machine do not collide). Empty: the server does not listen
    /// and `mail ingest` always stores directly.
    #[arg(
        long,
        env = INGEST_SOCKET_ENV,
        default_value = DEFAULT_INGEST_SOCKET,
        global = true, hide_env_values = true
    )]
    pub ingest_socket: String,

    /// Seconds between IMAP polls.
    #[arg(
        long,
        env = "STATIONMASTER_IMAP_POLL_SECS",
        default_value_t = 60,
        global = true,
        hide_env_values = true
    )]
    pub imap_poll_secs: u64,

    /// Seconds between scheduler passes over due turns and pending mail.
    #[arg(long, env = "STATIONMASTER_TICK_SECS", default_value_t = 5, global = true, hide_env_values = true)]
    pub tick_secs: u64,

    /// Outage guard: when the scheduler did not run for longer than this many seconds, open
    /// deadlines that fell in the gap are extended by the gap (0 turns the guard off).
    #[arg(
        long,
        env = "STATIONMASTER_OUTAGE_SECS",
        default_value_t = 900,
        global = true,
        hide_env_values = true
    )]
    pub outage_secs: u64,

    /// A GM is told by mail about their games' mail that has been failing this many seconds
    /// (ruling O3); given-up mail is told at once.
    #[arg(
        long,
        env = "STATIONMASTER_MAIL_TELL_AFTER_SECS",
        default_value_t = 900,
        global = true,
        hide_env_values = true
    )]
    pub mail_tell_after_secs: u64,

    /// Days the body of a sent mail (text, HTML, calendar) is kept; then it is emptied and only
    /// the row's headers stay (RULING O9). `0`: at the mail worker's next purge (hourly).
    #[arg(
        long,
        env = "STATIONMASTER_MAIL_KEEP_DAYS",
        default_value_t = 14,
        global = true,
        hide_env_values = true
    )]
    pub mail_keep_days: u64,

    /// Also accept chat webhooks on plain http and on private, loopback or reserved addresses
    /// (a chat server on the LAN; tests). Off by default: the server then reaches only public
    /// https addresses, screened again at every delivery (RULING W14).
    #[arg(long, env = "STATIONMASTER_WEBHOOKS_ALLOW_PRIVATE", global = true, hide_env_values = true, value_parser = clap::builder::BoolishValueParser::new())]
    pub webhooks_allow_private: bool,

    /// How log lines are written to standard error: `text` for people, `json` (one object per
    /// line, with the game, turn, seat and request id as fields) for a log collector.
    #[arg(long, env = "STATIONMASTER_LOG_FORMAT", value_enum, default_value_t = LogFormat::Text, global = true, hide_env_values = true)]
    pub log_format: LogFormat,

    /// The web server's connection limits and the dev mailbox switch.
    #[command(flatten)]
    pub web: WebSettings,

    /// Who may create games (issue 37).
    #[command(flatten)]
    pub creation: CreationSettings,
}

/// Who may create games from the web (issue 37, RULING W42): the addresses the operator invited
/// (`gm invite`), everyone with a confirmed address when `open_creation` is on, and the operator.
#[derive(Debug, Clone, Default, Args)]
#[command(next_help_heading = GLOBAL_OPTIONS)]
pub struct CreationSettings {
    /// Let anyone who confirms an address (by a mailed sign-in link) create games. Off: only the
    /// addresses invited with `stationmaster gm invite` and the operator may.
    #[arg(long, env = "STATIONMASTER_OPEN_CREATION", global = true, hide_env_values = true, value_parser = clap::builder::BoolishValueParser::new())]
    pub open_creation: bool,

    /// The operator's own address: it may create games and sees and changes every game.
    #[arg(long, env = "STATIONMASTER_OPERATOR", global = true, hide_env_values = true)]
    pub operator: Option<String>,
}

impl CreationSettings {
    /// Whether `email` is the operator's address (compared without case).
    pub fn is_operator(&self, email: &str) -> bool {
        self.operator
            .as_deref()
            .is_some_and(|op| !op.trim().is_empty() && op.trim().eq_ignore_ascii_case(email.trim()))
    }
}

/// The format of log lines (`--log-format`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum LogFormat {
    #[default]
    Text,
    Json,
}

/// The web server's limits (timeouts, connection cap) and the dev mailbox switch.
#[derive(Debug, Clone, Args)]
#[command(next_help_heading = GLOBAL_OPTIONS)]
pub struct WebSettings {
    /// Serve /dev/mailbox (every kept mail, sign-in links included) — only for development:
    /// it is served only with this flag, no SMTP server and a loopback bind address.
    #[arg(long, env = "STATIONMASTER_DEV_MAILBOX", global = true, hide_env_values = true, value_parser = clap::builder::BoolishValueParser::new())]
    pub dev_mailbox: bool,

    /// Seconds a client has to send a request's headers (from the moment the server waits for
    /// them); a partial or silent connection is closed after it.
    #[arg(long, env = "STATIONMASTER_HEADER_TIMEOUT_SECS", default_value_t = WebSettings::HEADER_TIMEOUT_SECS, global = true, hide_env_values = true)]
    pub header_timeout_secs: u64,

    /// Seconds an idle keep-alive connection (no request under way, nothing received) stays open.
    #[arg(long, env = "STATIONMASTER_KEEPALIVE_SECS", default_value_t = WebSettings::KEEPALIVE_SECS, global = true, hide_env_values = true)]
    pub keepalive_secs: u64,

    /// Seconds a whole request (reading its body, handling it) may take before it is answered
    /// 408.
    #[arg(long, env = "STATIONMASTER_REQUEST_TIMEOUT_SECS", default_value_t = WebSettings::REQUEST_TIMEOUT_SECS, global = true, hide_env_values = true)]
    pub request_timeout_secs: u64,

    /// Open connections at most; beyond it the longest-idle connection is closed to make room,
    /// else the slow body furthest behind its minimum rate (or the new one, when every
    /// connection has a handler running).
    #[arg(long, env = "STATIONMASTER_MAX_CONNECTIONS", default_value_t = WebSettings::MAX_CONNECTIONS, global = true, hide_env_values = true)]
    pub max_connections: usize,

    /// Seconds the server waits for a request's body before it must arrive at the minimum rate
    /// (counted only while the server is waiting for the client, not while it is busy).
    #[arg(long, env = "STATIONMASTER_BODY_GRACE_SECS", default_value_t = WebSettings::BODY_GRACE_SECS, global = true, hide_env_values = true)]
    pub body_grace_secs: u64,

    /// Bytes per second a request's body must arrive at after the grace period: each byte
    /// received extends the grace by 1/rate s; a body that falls behind is cut off (408, the
    /// connection closed). 0 turns the rate off.
    #[arg(long, env = "STATIONMASTER_BODY_MIN_RATE", default_value_t = WebSettings::BODY_MIN_RATE, global = true, hide_env_values = true)]
    pub body_min_rate: u64,

    /// Requests whose body is still arriving (slow-body connections) from one client address
    /// (an IPv4 address or an IPv6 /64) at most; one more closes the one furthest behind.
    #[arg(long, env = "STATIONMASTER_MAX_SLOW_BODIES_PER_ADDRESS", default_value_t = WebSettings::MAX_SLOW_BODIES_PER_ADDRESS, global = true, hide_env_values = true)]
    pub max_slow_bodies_per_address: usize,

    /// Seconds the server waits for a client to take more of an answer (its socket full: the
    /// client reads slowly or not at all) in one stall, and its allowance before the rate counts.
    #[arg(long, env = "STATIONMASTER_ANSWER_GRACE_SECS", default_value_t = WebSettings::ANSWER_GRACE_SECS, global = true, hide_env_values = true)]
    pub answer_grace_secs: u64,

    /// Bytes per second a client must take its answers at after the grace: all the time the
    /// server waits for it may not exceed the grace plus 1/rate s per byte taken; a connection
    /// that falls behind (or stalls longer than the grace) is closed, its answer dropped. Stalled
    /// answers count as slow connections of their address. 0 turns the limit off.
    #[arg(long, env = "STATIONMASTER_ANSWER_MIN_RATE", default_value_t = WebSettings::ANSWER_MIN_RATE, global = true, hide_env_values = true)]
    pub answer_min_rate: u64,

    /// Bytes of answers not yet taken by their clients the server holds at most, over all
    /// connections (RULING W20): past it, the stalled answer furthest behind is dropped with its
    /// connection until the rest fit. 0 turns the budget off.
    #[arg(long, env = "STATIONMASTER_MAX_UNSENT_ANSWER_BYTES", default_value_t = WebSettings::MAX_UNSENT_ANSWER_BYTES, global = true, hide_env_values = true)]
    pub max_unsent_answer_bytes: u64,

    /// Where `GET /metrics` (Prometheus text format) is served, e.g. 127.0.0.1:9090 — an address
    /// of its own, never the public web server's. Not set (the default): no metrics are kept
    /// or served (RULING O6).
    #[arg(long, env = "STATIONMASTER_METRICS_ADDR", global = true, hide_env_values = true)]
    pub metrics_addr: Option<String>,
}

impl WebSettings {
    /// Default of `header_timeout_secs`.
    pub const HEADER_TIMEOUT_SECS: u64 = 10;
    /// Default of `keepalive_secs`.
    pub const KEEPALIVE_SECS: u64 = 5;
    /// Default of `request_timeout_secs`.
    pub const REQUEST_TIMEOUT_SECS: u64 = 30;
    /// Default of `max_connections`.
    pub const MAX_CONNECTIONS: usize = 1024;
    /// Default of `body_grace_secs`.
    pub const BODY_GRACE_SECS: u64 = 5;
    /// Default of `body_min_rate` (bytes per second).
    pub const BODY_MIN_RATE: u64 = 1024;
    /// Default of `max_slow_bodies_per_address`.
    pub const MAX_SLOW_BODIES_PER_ADDRESS: usize = 16;
    /// Default of `answer_grace_secs`.
    pub const ANSWER_GRACE_SECS: u64 = 10;
    /// Default of `answer_min_rate` (bytes per second).
    pub const ANSWER_MIN_RATE: u64 = 1024;
    /// Default of `max_unsent_answer_bytes` (64 MiB).
    pub const MAX_UNSENT_ANSWER_BYTES: u64 = 64 << 20;

    /// The metrics address, unless turned off (not set, or empty).
    pub fn metrics_addr(&self) -> Option<&str> {
        self.metrics_addr.as_deref().map(str::trim).filter(|a| !a.is_empty())
    }
}

impl Default for WebSettings {
    fn default() -> Self {
        WebSettings {
            dev_mailbox: false,
            header_timeout_secs: Self::HEADER_TIMEOUT_SECS,
            keepalive_secs: Self::KEEPALIVE_SECS,
            request_timeout_secs: Self::REQUEST_TIMEOUT_SECS,
            max_connections: Self::MAX_CONNECTIONS,
            body_grace_secs: Self::BODY_GRACE_SECS,
            body_min_rate: Self::BODY_MIN_RATE,
            max_slow_bodies_per_address: Self::MAX_SLOW_BODIES_PER_ADDRESS,
            answer_grace_secs: Self::ANSWER_GRACE_SECS,
            answer_min_rate: Self::ANSWER_MIN_RATE,
            max_unsent_answer_bytes: Self::MAX_UNSENT_ANSWER_BYTES,
            metrics_addr: None,
        }
    }
}

impl Settings {
    /// The base URL without a trailing slash.
    pub fn base(&self) -> &str {
        self.base_url.trim_end_matches('/')
    }

    /// The domain used in our Message-IDs: the host of the From address.
    pub fn mail_domain(&self) -> String {
        let addr = self.mail_from.rsplit('<').next().unwrap_or(&self.mail_from);
        addr.trim_end_matches('>').rsplit('@').next().unwrap_or("localhost").trim().to_string()
    }

    /// The domain of reply addresses.
    pub fn reply_domain(&self) -> String {
        self.reply_domain.clone().filter(|d| !d.trim().is_empty()).unwrap_or_else(|| self.mail_domain())
    }

    /// The mail authentication policy in force: as set, else `require` when our MTA's
    /// authserv-id is known (its results can be trusted), else `record`.
    pub fn mail_auth(&self) -> MailAuth {
        let trusted = self.authserv_id.as_deref().is_some_and(|id| !id.trim().is_empty());
        self.mail_auth.unwrap_or(if trusted { MailAuth::Require } else { MailAuth::Record })
    }

    /// The ingest socket's path, unless turned off.
    pub fn ingest_socket(&self) -> Option<std::path::PathBuf> {
        ingest_socket_path(&self.ingest_socket, &self.database_url)
    }

    /// Whether outgoing mail is kept in the outbox instead of being sent (no SMTP configured).
    pub fn dev_mailbox(&self) -> bool {
        self.smtp_url.as_deref().is_none_or(|u| u.trim().is_empty())
    }

    /// Whether the dev mailbox page is served: only when asked for (`--dev-mailbox`), only while
    /// mail is kept, and only on a loopback address — the kept mail holds every seat's secret
    /// link and the GM's sign-in links (RULING W4).
    pub fn dev_mailbox_page(&self) -> bool {
        let host = self.bind.rsplit_once(':').map_or(self.bind.as_str(), |(h, _)| h);
        let loopback =
            host.trim_matches(['[', ']']).parse::<std::net::IpAddr>().is_ok_and(|ip| ip.is_loopback())
                || host.eq_ignore_ascii_case("localhost");
        self.web.dev_mailbox && self.dev_mailbox() && loopback
    }
}

#[cfg(test)]
mod tests {
    use crate::cli::Cli;
    use clap::Parser;

    fn socket(args: &[&str]) -> Option<std::path::PathBuf> {
        let cli = Cli::try_parse_from([&["stationmaster"], args].concat()).expect("the flags parse");
        cli.settings.ingest_socket().map(|p| p.to_path_buf())
    }

    #[test]
    fn two_instances_on_other_databases_listen_on_two_ingest_sockets() {
        let a = socket(&["--database-url", "postgres://postgres@127.0.0.1:5432/league_a"]);
        let b = socket(&["--database-url", "postgres://postgres@127.0.0.1:5432/league_b"]);
        let other_cluster = socket(&["--database-url", "postgres://postgres@127.0.0.1:5433/league_a"]);
        assert_ne!(a, b);
        assert_ne!(a, other_cluster);
        let a = a.expect("a socket by default");
        assert!(a.starts_with("/run/stationmaster") && a.to_string_lossy().contains("league_a"), "{a:?}");
        // The pipe finds its server's socket though it may spell the same database differently.
        let same = socket(&["--database-url", "postgres://mailer:secret@127.0.0.1/league_a?sslmode=disable"]);
        assert_eq!(Some(a), same);
    }

    #[test]
    fn an_ingest_socket_given_or_turned_off_is_taken_as_it_is() {
        let given = socket(&["--ingest-socket", "/tmp/sm.sock", "--database-url", "postgres://h/x"]);
        assert_eq!(given, Some(std::path::PathBuf::from("/tmp/sm.sock")));
        assert_eq!(socket(&["--ingest-socket", ""]), None);
    }
}
