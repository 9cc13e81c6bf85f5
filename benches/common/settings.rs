//! The settings the storm benchmarks run the server's code with: a bench database, no SMTP, a
//! fixed key (shared by `deadline_storm` and `storm_1835`).

use stationmaster::config::Settings;

/// The benchmarks' settings for the database at `url`.
pub fn settings(url: String) -> Settings {
    Settings {
        database_url: url,
        bind: "127.0.0.1:0".into(),
        base_url: "http://bench.test".into(),
        smtp_url: None,
        mail_from: "Stationmaster <sm@bench.test>".into(),
        secret_key_file: None,
        secret_key: Some("bench".into()),
        reply_domain: None,
        authserv_id: None,
        mail_auth: None,
        imap_url: None,
        imap_poll_secs: 60,
        ingest_socket: String::new(),
        tick_secs: 1,
        outage_secs: 0,
        web: Default::default(),
        mail_tell_after_secs: 900,
        mail_keep_days: 14,
        webhooks_allow_private: false,
        log_format: Default::default(),
        creation: Default::default(),
    }
}
