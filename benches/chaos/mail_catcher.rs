//! A mail catcher for the chaos experiments (`benches/chaos/`): the tests' SMTP server
//! (`tests/support/smtp.rs`, mailin's SMTP session over tokio) on 127.0.0.1, appending one line per message it takes — `<Message-ID> <recipient>` — to a file,
//! flushed at once so a reader counts every message. Stops by itself after `max-seconds`.
//!
//! ```sh
//! cargo run --example mail_catcher -- PORT OUT-FILE [MAX-SECONDS]
//! ```

use std::io::Write;
use std::time::Duration;

use tokio::sync::broadcast::error::RecvError;

#[path = "../../tests/support/smtp.rs"]
mod smtp;

fn message_id(raw: &[u8]) -> String {
    let text = String::from_utf8_lossy(raw);
    let headers = text.split("\r\n\r\n").next().unwrap_or_default();
    headers
        .lines()
        .find_map(|l| l.split_once(':').filter(|(name, _)| name.eq_ignore_ascii_case("message-id")))
        .map(|(_, v)| v.trim().to_string())
        .unwrap_or_else(|| "(none)".to_string())
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let args: Vec<String> = std::env::args().collect();
    let usage = "usage: mail_catcher PORT OUT-FILE [MAX-SECONDS]";
    let port: u16 = args.get(1).and_then(|p| p.parse().ok()).ok_or_else(|| anyhow::anyhow!(usage))?;
    let path = args.get(2).ok_or_else(|| anyhow::anyhow!(usage))?;
    let max: u64 = args.get(3).and_then(|m| m.parse().ok()).unwrap_or(600);
    let mut out = std::fs::OpenOptions::new().create(true).append(true).open(path)?;
    let mut server = smtp::start(port).await;
    let stop = tokio::time::sleep(Duration::from_secs(max));
    tokio::pin!(stop);
    loop {
        tokio::select! {
            () = &mut stop => break,
            got = server.rx.recv() => match got {
                Ok(m) => {
                    let id = message_id(&m.raw_bytes().unwrap_or_default());
                    for to in &m.envelope_recipients {
                        writeln!(out, "{id} {to}")?;
                    }
                    out.flush()?;
                }
                Err(RecvError::Lagged(n)) => eprintln!("mail_catcher: lost {n} messages (too slow)"),
                Err(RecvError::Closed) => break,
            },
        }
    }
    server.stop();
    Ok(())
}
