//! A scripted SMTP server on 127.0.0.1 for what the test server (`support/smtp.rs`) does not do: refuse a recipient with a
//! chosen reply, or hold its answer to a message until the test lets it go.

use std::sync::{Arc, Mutex};

use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use tokio::net::TcpListener;
use tokio::sync::Notify;

/// The running server: its port, the recipients of the messages it accepted, and the switch
/// that releases a held answer.
pub struct FakeSmtp {
    pub port: u16,
    pub accepted: Arc<Mutex<Vec<String>>>,
    /// Notified when a message has been received and its answer is being held.
    pub holding: Arc<Notify>,
    pub release: Arc<Notify>,
}

impl FakeSmtp {
    pub fn accepted(&self) -> Vec<String> {
        self.accepted.lock().unwrap().clone()
    }
}

/// Starts the server. `rcpt` gives the reply line to `RCPT TO` for an address (e.g. "250 ok",
/// "550 5.1.1 no such user"); with `hold`, the 250 after a message's data waits for `release`.
pub async fn start(rcpt: fn(&str) -> &'static str, hold: bool) -> FakeSmtp {
    let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind");
    let port = listener.local_addr().expect("addr").port();
    let accepted = Arc::new(Mutex::new(Vec::new()));
    let (holding, release) = (Arc::new(Notify::new()), Arc::new(Notify::new()));
    let server =
        FakeSmtp { port, accepted: accepted.clone(), holding: holding.clone(), release: release.clone() };
    tokio::spawn(async move {
        while let Ok((stream, _)) = listener.accept().await {
            let (accepted, holding, release) = (accepted.clone(), holding.clone(), release.clone());
            tokio::spawn(async move {
                let (read, mut write) = stream.into_split();
                let mut lines = BufReader::new(read).lines();
                let _ = write.write_all(b"220 fake.test ESMTP\r\n").await;
                let mut to = String::new();
                while let Ok(Some(line)) = lines.next_line().await {
                    let upper = line.to_ascii_uppercase();
                    let reply: String = if upper.starts_with("EHLO") || upper.starts_with("HELO") {
                        "250 fake.test".into()
                    } else if upper.starts_with("RCPT TO:") {
                        to = line[8..].trim().trim_matches(|c| c == '<' || c == '>').to_string();
                        rcpt(&to).into()
                    } else if upper.starts_with("DATA") {
                        let _ = write.write_all(b"354 go on\r\n").await;
                        while let Ok(Some(l)) = lines.next_line().await {
                            if l == "." {
                                break;
                            }
                        }
                        if hold {
                            holding.notify_one();
                            release.notified().await;
                        }
                        accepted.lock().unwrap().push(to.clone());
                        "250 2.0.0 queued".into()
                    } else if upper.starts_with("QUIT") {
                        let _ = write.write_all(b"221 bye\r\n").await;
                        break;
                    } else {
                        "250 ok".into()
                    };
                    if write.write_all(format!("{reply}\r\n").as_bytes()).await.is_err() {
                        break;
                    }
                }
            });
        }
    });
    server
}
