//! The ingest socket: `mail ingest` hands a message to the running server over a local Unix
//! socket, and the server stores it with its warm connection pool (the one raw-first
//! [`ingest`] with its SHA-256 dedupe), answers only after the row is committed, and then
//! processes it at once. A pipe process thus needs no database connection of its own, which is
//! what a mail used to cost (a process *and* a new Postgres backend each).
//!
//! Who may hand mail over is decided by the socket file's permissions (mode 0660: the server's
//! user and group; put the MTA's pipe user in that group). The server accepts exactly one frame
//! per connection and nothing else:
//!
//! ```text
//! STATIONMASTER-INGEST/1 <sender-length|-> <recipient-length|-> <message-length>\n
//! <sender bytes><recipient bytes><message bytes>
//! ```
//!
//! then end of stream (the client shuts down its writing half). Lengths are decimal byte counts;
//! `-` means "not given" (an empty envelope sender, `<>`, is length 0). Envelope addresses are at
//! most [`MAX_ENVELOPE`] bytes of UTF-8 without control characters; the message at most
//! [`MAX_MAIL_BYTES`]` + 1` bytes (one more than is kept, so an oversized message is still
//! recognised and stored cut). The answer is one line: `OK <id> new` or `OK <id> duplicate` once
//! the message is stored, or `ERR <reason>`; after `ERR` nothing was stored. A frame that breaks
//! any rule (another header, a wrong length, bytes after the message, a stalled sender) is
//! answered `ERR` and changes nothing.

use crate::service::inbound::{Arrived, MAX_MAIL_BYTES, ingest};
use crate::service::{Ctx, Shutdown, inbound};
use std::io::{Read, Write};
use std::os::unix::fs::DirBuilderExt;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;
use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};
use tokio::net::{UnixListener, UnixStream};
use tokio::sync::{Semaphore, mpsc, oneshot};

/// The first word of every frame.
pub const MAGIC: &str = "STATIONMASTER-INGEST/1";
/// The longest envelope address accepted in a frame.
pub const MAX_ENVELOPE: usize = 1024;
/// The longest header line (magic and three lengths).
const MAX_HEADER: usize = 96;
/// How long a client may take to send its frame, and how long it waits for the answer.
pub const FRAME_TIMEOUT: Duration = Duration::from_secs(30);
/// Stored mails processed at the same time (each holds one pooled connection).
const PROCESSING: usize = 4;

/// A frame's content: the envelope as the MTA gave it, and the raw message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Frame {
    pub sender: Option<String>,
    pub recipient: Option<String>,
    pub raw: Vec<u8>,
}

/// The lengths announced by a frame's header line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Header {
    pub sender: Option<usize>,
    pub recipient: Option<usize>,
    pub raw: usize,
}

impl Frame {
    /// The frame's bytes, as sent by `mail ingest`.
    pub fn encode(&self) -> Vec<u8> {
        let len = |s: &Option<String>| s.as_ref().map_or("-".to_string(), |s| s.len().to_string());
        let mut out = format!("{MAGIC} {} {} {}\n", len(&self.sender), len(&self.recipient), self.raw.len())
            .into_bytes();
        for s in [&self.sender, &self.recipient].into_iter().flatten() {
            out.extend_from_slice(s.as_bytes());
        }
        out.extend_from_slice(&self.raw);
        out
    }
}

impl Header {
    /// Parses a header line (without its newline).
    pub fn parse(line: &[u8]) -> Result<Header, String> {
        let line = std::str::from_utf8(line).map_err(|_| "the header line is not UTF-8".to_string())?;
        let mut words = line.split(' ');
        if words.next() != Some(MAGIC) {
            return Err(format!("a frame starts with {MAGIC}"));
        }
        let mut length = |what: &str, max: usize, optional: bool| -> Result<Option<usize>, String> {
            let w = words.next().ok_or_else(|| format!("the header has no {what} length"))?;
            if optional && w == "-" {
                return Ok(None);
            }
            // Plain decimal digits only: no sign, no spaces, no leading zeros.
            let n =
                (!w.is_empty() && w.bytes().all(|b| b.is_ascii_digit()) && (w == "0" || !w.starts_with('0')))
                    .then(|| w.parse::<usize>().ok())
                    .flatten()
                    .ok_or_else(|| format!("the {what} length is not a number: {w:?}"))?;
            if n > max {
                return Err(format!("the {what} is longer than {max} bytes"));
            }
            Ok(Some(n))
        };
        let sender = length("sender", MAX_ENVELOPE, true)?;
        let recipient = length("recipient", MAX_ENVELOPE, true)?;
        let raw = length("message", MAX_MAIL_BYTES + 1, false)?.unwrap_or_default();
        if words.next().is_some() {
            return Err("the header line has more than three lengths".into());
        }
        Ok(Header { sender, recipient, raw })
    }
}

/// An envelope address from a frame: UTF-8 without control characters.
fn envelope(bytes: Vec<u8>, what: &str) -> Result<String, String> {
    let s = String::from_utf8(bytes).map_err(|_| format!("the {what} is not UTF-8"))?;
    if s.chars().any(char::is_control) {
        return Err(format!("the {what} contains control characters"));
    }
    Ok(s)
}

/// Reads one complete frame from a stream: the header line, exactly the announced bytes, then
/// end of stream.
pub async fn read_frame(stream: &mut (impl tokio::io::AsyncBufRead + Unpin)) -> Result<Frame, String> {
    let mut line = Vec::with_capacity(MAX_HEADER + 1);
    let n = (&mut *stream)
        .take(MAX_HEADER as u64 + 1)
        .read_until(b'\n', &mut line)
        .await
        .map_err(|e| format!("cannot read the frame: {e}"))?;
    if line.pop() != Some(b'\n') {
        return Err(if n > MAX_HEADER {
            "the header line is too long"
        } else {
            "the frame ended inside its header line"
        }
        .into());
    }
    let h = Header::parse(&line)?;
    let sender = read_exactly(stream, h.sender).await?.map(|b| envelope(b, "sender")).transpose()?;
    let recipient = read_exactly(stream, h.recipient).await?.map(|b| envelope(b, "recipient")).transpose()?;
    let raw = read_exactly(stream, Some(h.raw)).await?.unwrap_or_default();
    let mut rest = [0u8; 1];
    match stream.read(&mut rest).await {
        Ok(0) => Ok(Frame { sender, recipient, raw }),
        Ok(_) => Err("the frame is longer than its header says".into()),
        Err(e) => Err(format!("cannot read the frame: {e}")),
    }
}

/// Exactly `n` bytes, if a length was given.
async fn read_exactly(
    stream: &mut (impl tokio::io::AsyncBufRead + Unpin),
    n: Option<usize>,
) -> Result<Option<Vec<u8>>, String> {
    let Some(n) = n else { return Ok(None) };
    let mut buf = vec![0u8; n];
    stream.read_exact(&mut buf).await.map_err(|_| "the frame is shorter than its header says".to_string())?;
    Ok(Some(buf))
}

/// Binds the ingest socket with mode 0660. The socket is bound under a temporary name and
/// renamed into place once its mode is set, so the path never answers with looser permissions.
/// A stale socket file (no server behind it) is replaced; a live one is an error.
pub async fn bind(path: &Path) -> std::io::Result<UnixListener> {
    use std::os::unix::fs::PermissionsExt;
    if UnixStream::connect(path).await.is_ok() {
        return Err(std::io::Error::new(
            std::io::ErrorKind::AddrInUse,
            format!("another server already listens on {}", path.display()),
        ));
    }
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty() && !d.exists()) {
        std::fs::DirBuilder::new().recursive(true).mode(0o750).create(dir)?;
    }
    let tmp = PathBuf::from(format!("{}.{}.tmp", path.display(), std::process::id()));
    let _ = std::fs::remove_file(&tmp);
    let listener = UnixListener::bind(&tmp)?;
    std::fs::set_permissions(&tmp, std::fs::Permissions::from_mode(0o660))?;
    std::fs::rename(&tmp, path)?;
    Ok(listener)
}

/// Accepts hand-offs until `shutdown` is set. Messages are stored by one task that takes every
/// message waiting at that moment into one transaction (group commit: while one commit is being
/// flushed, the next batch gathers), and each new one is processed at once after its answer (at
/// most [`PROCESSING`] at a time; whatever is left over, the scheduler's pass picks up).
pub async fn serve(ctx: Ctx, listener: UnixListener, mut shutdown: Shutdown) {
    let processing = Arc::new(Semaphore::new(PROCESSING));
    let (store, stored) = mpsc::channel(4 * MAX_BATCH);
    tokio::spawn(store_batches(ctx.clone(), stored));
    loop {
        let stream = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok((stream, _)) => stream,
                Err(e) => {
                    tracing::error!(error = %e, "ingest socket: accept failed");
                    tokio::time::sleep(Duration::from_millis(100)).await;
                    continue;
                }
            },
            () = shutdown.wait() => break,
        };
        tokio::spawn(handle(stream, ctx.clone(), store.clone(), processing.clone()));
    }
}

/// A message read from a connection, waiting to be stored; the answer goes back on `stored`.
struct Pending {
    frame: Frame,
    stored: oneshot::Sender<Option<inbound::Ingested>>,
}

/// Most messages stored in one transaction.
const MAX_BATCH: usize = 64;

/// Stores waiting messages, all that are waiting in one transaction. Should that transaction
/// fail, each message is tried alone, so one bad message cannot hold back the others.
async fn store_batches(ctx: Ctx, mut waiting: mpsc::Receiver<Pending>) {
    let mut batch = Vec::with_capacity(MAX_BATCH);
    while waiting.recv_many(&mut batch, MAX_BATCH).await > 0 {
        let arrived: Vec<Arrived<'_>> = batch.iter().map(|p| arrived(&p.frame)).collect();
        let now = ctx.now();
        let results = match ingest(&ctx.pool, &arrived, now).await {
            Ok(stored) => stored.into_iter().map(Ok).collect(),
            Err(e) if batch.len() == 1 => vec![Err(e)],
            Err(_) => {
                let mut each = Vec::with_capacity(batch.len());
                for a in &arrived {
                    each.push(ingest(&ctx.pool, std::slice::from_ref(a), now).await.map(|mut v| v.remove(0)));
                }
                each
            }
        };
        drop(arrived);
        for (p, result) in batch.drain(..).zip(results) {
            let stored =
                result.inspect_err(|e| tracing::error!(error = %e, "ingest socket: cannot store a message"));
            let _ = p.stored.send(stored.ok());
        }
    }
}

fn arrived(f: &Frame) -> Arrived<'_> {
    Arrived {
        raw: &f.raw,
        source: "pipe",
        envelope_from: f.sender.as_deref(),
        envelope_to: f.recipient.as_deref(),
    }
}

/// One connection: read the frame, have it stored, answer, then process it.
async fn handle(mut stream: UnixStream, ctx: Ctx, store: mpsc::Sender<Pending>, processing: Arc<Semaphore>) {
    let mut reader = BufReader::with_capacity(64 * 1024, &mut stream);
    let frame = tokio::time::timeout(FRAME_TIMEOUT, read_frame(&mut reader)).await;
    let frame = match frame {
        Ok(Ok(frame)) => frame,
        Ok(Err(why)) => return refuse(&mut stream, &format!("bad frame: {why}")).await,
        Err(_) => return refuse(&mut stream, "bad frame: not complete within the time limit").await,
    };
    let bytes = frame.raw.len();
    let (stored, answer) = oneshot::channel();
    if store.send(Pending { frame, stored }).await.is_err() {
        return refuse(&mut stream, "the server is shutting down").await;
    }
    let Ok(Some(ingested)) = answer.await else {
        return refuse(&mut stream, "the message could not be stored").await;
    };
    let answer = format!("OK {} {}\n", ingested.id, if ingested.new { "new" } else { "duplicate" });
    // The message is committed; if the client is gone by now, the MTA retries and the dedupe
    // recognises the bytes.
    let _ = stream.write_all(answer.as_bytes()).await;
    let _ = stream.shutdown().await;
    drop(stream);
    tracing::info!(inbound.id = ingested.id, new = ingested.new, bytes, "inbound mail handed over");
    if ingested.new {
        let Ok(_permit) = processing.acquire().await else { return };
        if let Err(e) = inbound::process_inbound(&ctx, ingested.id).await {
            tracing::error!(inbound.id = ingested.id, error = %e, "processing failed; the scheduler will retry");
        }
    }
}

async fn refuse(stream: &mut UnixStream, why: &str) {
    tracing::warn!(reason = why, "ingest socket: refused a hand-off");
    let _ = stream.write_all(format!("ERR {why}\n").as_bytes()).await;
    let _ = stream.shutdown().await;
}

/// Why a hand-off did not happen.
#[derive(Debug)]
pub enum HandoffError {
    /// Nothing listens on the socket (no file, or a stale one).
    NoServer(std::io::Error),
    /// The server answered `ERR`: nothing was stored.
    Refused(String),
    /// The connection broke, or the answer did not come in time (the message may or may not be
    /// stored; storing it again is safe).
    Broken(std::io::Error),
}

impl std::fmt::Display for HandoffError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            HandoffError::NoServer(e) => write!(f, "no server listens: {e}"),
            HandoffError::Refused(why) => write!(f, "the server refused the message: {why}"),
            HandoffError::Broken(e) => write!(f, "the hand-off broke off: {e}"),
        }
    }
}

/// Hands a message to the server listening on `path` (blocking; no async runtime needed) and
/// returns what the server stored.
pub fn hand_off(path: &Path, frame: &Frame) -> Result<inbound::Ingested, HandoffError> {
    let mut stream = std::os::unix::net::UnixStream::connect(path).map_err(HandoffError::NoServer)?;
    let broken = HandoffError::Broken;
    stream.set_read_timeout(Some(FRAME_TIMEOUT)).map_err(broken)?;
    stream.set_write_timeout(Some(FRAME_TIMEOUT)).map_err(broken)?;
    stream.write_all(&frame.encode()).map_err(broken)?;
    stream.shutdown(std::net::Shutdown::Write).map_err(broken)?;
    let mut answer = String::new();
    stream.take(256).read_to_string(&mut answer).map_err(broken)?;
    let line = answer.trim_end();
    let ok = line.strip_prefix("OK ").and_then(|rest| {
        let (id, state) = rest.split_once(' ')?;
        Some(inbound::Ingested { id: id.parse().ok()?, new: state == "new" })
    });
    match (ok, line.strip_prefix("ERR ")) {
        (Some(ingested), _) => Ok(ingested),
        (None, Some(why)) => Err(HandoffError::Refused(why.to_string())),
        (None, None) => Err(HandoffError::Broken(std::io::Error::new(
            std::io::ErrorKind::InvalidData,
            format!("unexpected answer {line:?}"),
        ))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn frame() -> Frame {
        Frame {
            sender: Some("anna@example.org".into()),
            recipient: None,
            raw: b"Subject: x\r\n\r\nCLAIM 7H NORTH\r\n".to_vec(),
        }
    }

    async fn read(bytes: &[u8]) -> Result<Frame, String> {
        read_frame(&mut &bytes[..]).await
    }

    #[tokio::test]
    async fn a_frame_reads_back_as_it_was_encoded() {
        assert_eq!(read(&frame().encode()).await, Ok(frame()));
        let empty = Frame { sender: Some(String::new()), recipient: Some("r@x".into()), raw: Vec::new() };
        assert_eq!(read(&empty.encode()).await, Ok(empty));
    }

    #[tokio::test]
    async fn a_frame_that_breaks_any_rule_is_refused() {
        let good = frame().encode();
        let mut longer = good.clone();
        longer.push(b'x');
        let bad: Vec<(Vec<u8>, &str)> = vec![
            (good[..good.len() - 1].to_vec(), "shorter"),
            (longer, "longer"),
            (b"HELO x\n".to_vec(), "starts with"),
            (b"STATIONMASTER-INGEST/1 - - 1".to_vec(), "inside its header"),
            (b"STATIONMASTER-INGEST/1 - -\nx".to_vec(), "no message length"),
            (b"STATIONMASTER-INGEST/1 - - 1 2\nx".to_vec(), "more than three"),
            (b"STATIONMASTER-INGEST/1 - - +1\nx".to_vec(), "not a number"),
            (b"STATIONMASTER-INGEST/1 - - 01\nx".to_vec(), "not a number"),
            (b"STATIONMASTER-INGEST/1 - - -\n".to_vec(), "not a number"),
            (b"STATIONMASTER-INGEST/1 2000 - 0\n".to_vec(), "longer than 1024"),
            (format!("{MAGIC} - - {}\n", MAX_MAIL_BYTES + 2).into_bytes(), "longer than"),
            (b"STATIONMASTER-INGEST/1 2 - 0\na\n".to_vec(), "control characters"),
            (b"STATIONMASTER-INGEST/1 - 1 0\n\xff".to_vec(), "not UTF-8"),
            ([b"STATIONMASTER-INGEST/1 - - 1 ".as_slice(), &[b'9'; 200], b"\n"].concat(), "too long"),
        ];
        for (bytes, why) in bad {
            let got = read(&bytes).await;
            assert!(
                got.as_ref().is_err_and(|e| e.contains(why)),
                "{:?}: {got:?}",
                String::from_utf8_lossy(&bytes)
            );
        }
    }
}
