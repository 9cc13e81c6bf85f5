//! Log lines: text for people or JSON lines for a collector (`--log-format`), filtered by
//! `RUST_LOG` — with the filter always silencing the few library targets that would write a
//! request's raw path, which for a seat's page holds its secret link (issue 19: no secret in any
//! log line, at any level).

use crate::config::LogFormat;
use tracing_subscriber::EnvFilter;

/// Library targets that log a request's URI below `warn`; they are capped whatever `RUST_LOG`
/// asks (our own request span names the route template instead).
const URI_LOGGING_TARGETS: &[&str] = &["tower_http::csrf=warn"];

/// The filter for a `RUST_LOG`-style spec, with the secret-safe caps appended.
pub fn filter(spec: &str) -> EnvFilter {
    let mut f = EnvFilter::try_new(spec).unwrap_or_else(|_| EnvFilter::new("info,sqlx=warn"));
    for cap in URI_LOGGING_TARGETS {
        if let Ok(d) = cap.parse() {
            f = f.add_directive(d);
        }
    }
    f
}

/// Installs the process's logger: standard error, `format`, `RUST_LOG` (default
/// `info,sqlx=warn`).
pub fn init(format: LogFormat) {
    let spec = std::env::var("RUST_LOG").unwrap_or_else(|_| "info,sqlx=warn".into());
    let logs = tracing_subscriber::fmt().with_env_filter(filter(&spec)).with_writer(std::io::stderr);
    match format {
        LogFormat::Text => logs.init(),
        LogFormat::Json => logs.json().with_current_span(true).with_span_list(false).init(),
    }
}
