//! A real SMTP server for the tests, in-process on 127.0.0.1: the RFC 5321 session of the
//! `mailin` crate (the SMTP engine the mailcrab test server is built on) over tokio sockets. It
//! accepts every message, keeps its envelope and bytes, and hands each to the test on a
//! broadcast channel. No TLS: our client talks to it on loopback, as the suite configures it.
//! (mailcrab itself is not used: it pulls in a second TLS stack whose C build cost a cold
//! `cargo test` a minute, issue 31.)
#![allow(dead_code, reason = "each includer (the API and mail tests, the chaos catcher) uses a part")]

use std::io;
use std::net::IpAddr;
use std::time::Duration;

use mailin::{Action, Handler, Response, SessionBuilder};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{broadcast, watch};

/// A message the server accepted: its envelope and its bytes as the client sent them after
/// DATA (the dot-stuffing undone).
#[derive(Debug, Clone)]
pub struct Received {
    pub envelope_from: String,
    pub envelope_recipients: Vec<String>,
    raw: Vec<u8>,
}

impl Received {
    /// The message's bytes (an `Option`, as the mailcrab message the tests were written for).
    pub fn raw_bytes(&self) -> Option<Vec<u8>> {
        Some(self.raw.clone())
    }

    /// The message parsed: headers, text and HTML parts.
    pub fn parsed(&self) -> mail_parser::Message<'_> {
        mail_parser::MessageParser::default()
            .parse(&self.raw)
            .expect("the server accepted a parsable message")
    }
}

/// The running server; it stops when this is dropped or [`MailServer::stop`] is called.
pub struct MailServer {
    pub port: u16,
    /// Every accepted message, in the order the server accepted them.
    pub rx: broadcast::Receiver<Received>,
    stop: watch::Sender<bool>,
}

impl MailServer {
    /// Stops accepting and closes the open sessions (an SMTP outage, for the retry tests).
    pub fn stop(&self) {
        let _ = self.stop.send(true);
    }
}

impl Drop for MailServer {
    fn drop(&mut self) {
        self.stop();
    }
}

/// Starts the server on `port` of 127.0.0.1 (0: a free one) and returns once it is listening.
pub async fn start(port: u16) -> MailServer {
    let mut listener = None;
    // The port may still be held by a server of the same test that was just stopped.
    for _ in 0..100 {
        match TcpListener::bind(("127.0.0.1", port)).await {
            Ok(l) => {
                listener = Some(l);
                break;
            }
            Err(_) => tokio::time::sleep(Duration::from_millis(20)).await,
        }
    }
    let listener = listener.unwrap_or_else(|| panic!("the test SMTP server cannot listen on port {port}"));
    let port = listener.local_addr().expect("local address").port();
    let (tx, rx) = broadcast::channel(1024);
    let (stop, stopped) = watch::channel(false);
    tokio::spawn(serve(listener, tx, stopped));
    MailServer { port, rx, stop }
}

async fn serve(listener: TcpListener, tx: broadcast::Sender<Received>, mut stopped: watch::Receiver<bool>) {
    loop {
        tokio::select! {
            _ = stopped.changed() => return,
            accepted = listener.accept() => {
                let Ok((socket, peer)) = accepted else { continue };
                let (tx, mut stopped) = (tx.clone(), stopped.clone());
                tokio::spawn(async move {
                    tokio::select! {
                        _ = stopped.changed() => {}
                        _ = session(socket, peer.ip(), tx) => {}
                    }
                });
            }
        }
    }
}

/// One SMTP session, line by line through mailin's state machine.
async fn session(socket: TcpStream, peer: IpAddr, tx: broadcast::Sender<Received>) -> io::Result<()> {
    let keeper = Keeper { tx, from: String::new(), to: Vec::new(), data: Vec::new() };
    let mut session = SessionBuilder::new("smtp.test").build(peer, keeper);
    let mut stream = BufReader::new(socket);
    reply(&mut stream, &session.greeting()).await?;
    let mut line = Vec::with_capacity(128);
    loop {
        line.clear();
        if stream.read_until(b'\n', &mut line).await? == 0 {
            return Ok(());
        }
        let response = session.process(&line);
        match response.action {
            Action::Reply => reply(&mut stream, &response).await?,
            Action::Close | Action::UpgradeTls => {
                reply(&mut stream, &response).await?;
                return Ok(());
            }
            Action::NoReply => {}
        }
    }
}

async fn reply(stream: &mut BufReader<TcpStream>, response: &Response) -> io::Result<()> {
    stream.get_mut().write_all(&response.buffer()?).await?;
    stream.get_mut().flush().await
}

/// mailin's handler: collects the envelope and the data, and publishes the message at its end.
struct Keeper {
    tx: broadcast::Sender<Received>,
    from: String,
    to: Vec<String>,
    data: Vec<u8>,
}

impl Handler for Keeper {
    fn mail(&mut self, _ip: IpAddr, _domain: &str, from: &str) -> Response {
        self.from = from.to_string();
        self.to.clear();
        mailin::response::OK
    }

    fn rcpt(&mut self, to: &str) -> Response {
        self.to.push(to.to_string());
        mailin::response::OK
    }

    fn data(&mut self, buf: &[u8]) -> io::Result<()> {
        self.data.extend_from_slice(buf);
        Ok(())
    }

    fn data_end(&mut self) -> Response {
        let message = Received {
            envelope_from: std::mem::take(&mut self.from),
            envelope_recipients: std::mem::take(&mut self.to),
            raw: std::mem::take(&mut self.data),
        };
        if mail_parser::MessageParser::default().parse(&message.raw).is_none() {
            return Response::custom(554, "5.6.0 the message cannot be parsed".to_string());
        }
        // No receiver left is no error: the test has what it wanted.
        let _ = self.tx.send(message);
        mailin::response::OK
    }
}
