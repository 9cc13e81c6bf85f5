//! A connection's TCP stream as the listener sees it: bytes moving either way mark it active, and
//! its answers must be taken by the client (RULING W18b). While the socket takes no more of an
//! answer (the client reads slowly, or not at all: a zero TCP window), the answer is stalled; one
//! stall may last the grace at most, and all the time spent waiting for the client together may
//! not exceed the grace plus 1/rate s for each byte it took. A stream that falls behind fails its
//! write with [`AnswerStalled`], and hyper closes the connection (dropping the answer with it).

use super::{Conn, Registry};
use crate::config::WebSettings;
use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::task::{Context, Poll};
use std::time::Duration;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::TcpStream;
use tokio::time::{Instant, Sleep};

/// The error a write fails with when the client has not taken the answer in time.
#[derive(Debug)]
pub(super) struct AnswerStalled;

impl std::fmt::Display for AnswerStalled {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("the client did not read the answer at the minimum rate")
    }
}

impl std::error::Error for AnswerStalled {}

/// How long the client may keep the server waiting to write (RULING W18b).
#[derive(Clone, Copy, Debug)]
pub(super) struct AnswerLimits {
    /// The longest single wait, and the allowance before the rate counts.
    pub grace: Duration,
    /// Bytes a second the client must take after the grace; 0: no limit at all.
    pub min_rate: u64,
    /// Slow connections (bodies arriving, answers stalled) one client address may have.
    pub per_address: usize,
}

impl AnswerLimits {
    /// The limits of `web` (a grace of at most a day: longer is as good as none).
    pub fn of(web: &WebSettings) -> Self {
        AnswerLimits {
            grace: Duration::from_secs(web.answer_grace_secs.clamp(1, 86_400)),
            min_rate: web.answer_min_rate,
            per_address: web.max_slow_bodies_per_address,
        }
    }
}

/// A TCP stream that notes when bytes move and meters how fast the client takes its answers.
pub(super) struct Watched {
    stream: TcpStream,
    id: u64,
    registry: Arc<Registry>,
    conn: Arc<Conn>,
    limits: AnswerLimits,
    /// Bytes the client has taken so far.
    written: u64,
    /// Time spent waiting for the client before the current wait.
    waited: Duration,
    /// When the current wait for the client began.
    waiting_since: Option<Instant>,
    /// Fires when the current wait runs out.
    deadline: Option<Pin<Box<Sleep>>>,
}

impl Watched {
    /// `stream`, connection `id` of `registry`, held to `limits`.
    pub fn new(
        stream: TcpStream,
        id: u64,
        registry: Arc<Registry>,
        conn: Arc<Conn>,
        limits: AnswerLimits,
    ) -> Self {
        Watched {
            stream,
            id,
            registry,
            conn,
            limits,
            written: 0,
            waited: Duration::ZERO,
            waiting_since: None,
            deadline: None,
        }
    }

    /// Waits for the client to take more: Ready when the wait has run past what is allowed.
    fn poll_stall(&mut self, cx: &mut Context<'_>) -> Poll<()> {
        if self.limits.min_rate == 0 {
            return Poll::Pending;
        }
        let first = self.waiting_since.is_none();
        let since = *self.waiting_since.get_or_insert_with(Instant::now);
        let earned = Duration::from_millis(self.written.saturating_mul(1000) / self.limits.min_rate);
        let left = self.limits.grace.saturating_add(earned).saturating_sub(self.waited);
        let at = since + left.min(self.limits.grace);
        if first {
            let cutoff = self.registry.ms_at(at);
            self.registry.stall_answer(self.id, &self.conn, self.limits.per_address, cutoff);
        }
        super::poll_until(&mut self.deadline, at, cx)
    }

    /// The client took `n` bytes: the current wait (if any) is over.
    fn took(&mut self, n: usize) {
        if let Some(since) = self.waiting_since.take() {
            self.waited += since.elapsed();
            self.deadline = None;
            self.conn.answer_stalled.store(false, Ordering::Relaxed);
        }
        if n > 0 {
            self.written = self.written.saturating_add(n as u64);
            self.registry.touch(&self.conn);
            self.registry.took(&self.conn, n as u64);
        }
    }
}

impl AsyncRead for Watched {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<std::io::Result<()>> {
        let before = buf.filled().len();
        let polled = Pin::new(&mut self.stream).poll_read(cx, buf);
        if buf.filled().len() > before {
            self.registry.touch(&self.conn);
        }
        polled
    }
}

impl AsyncWrite for Watched {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        data: &[u8],
    ) -> Poll<std::io::Result<usize>> {
        let this = &mut *self;
        match Pin::new(&mut this.stream).poll_write(cx, data) {
            Poll::Pending => {
                if this.poll_stall(cx).is_pending() {
                    return Poll::Pending;
                }
                this.deadline = None;
                this.conn.answer_stalled.store(false, Ordering::Relaxed);
                tracing::debug!("an answer the client did not read in time: connection closed");
                Poll::Ready(Err(std::io::Error::new(std::io::ErrorKind::TimedOut, AnswerStalled)))
            }
            Poll::Ready(Ok(n)) => {
                this.took(n);
                Poll::Ready(Ok(n))
            }
            Poll::Ready(Err(e)) => Poll::Ready(Err(e)),
        }
    }
    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.stream).poll_flush(cx)
    }
    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.stream).poll_shutdown(cx)
    }
}

impl Drop for Watched {
    fn drop(&mut self) {
        self.conn.answer_stalled.store(false, Ordering::Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::super::serve_until;
    use crate::config::WebSettings;
    use axum::Router;
    use axum::body::{Body, Bytes};
    use axum::routing::get;
    use std::time::Duration;
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    use tokio::net::{TcpListener, TcpSocket, TcpStream};

    /// The size of the large answer: far more than the kernel buffers of both ends hold.
    const LARGE: usize = 32 << 20;

    /// Serves `/healthz` and `/large` (an answer of [`LARGE`] bytes) under `web`.
    async fn serve(web: WebSettings) -> std::net::SocketAddr {
        let piece = Bytes::from(vec![b'x'; 64 << 10]);
        let app =
            Router::new().route("/healthz", get(|| async { "ok" })).route(
                "/large",
                get(move || {
                    let pieces = std::iter::repeat_n(piece.clone(), LARGE / piece.len());
                    async move {
                        Body::from_stream(futures_util::stream::iter(pieces.map(Ok::<_, std::io::Error>)))
                    }
                }),
            );
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        tokio::spawn(async move { serve_until(app, listener, &web, std::future::pending()).await });
        addr
    }

    /// A client with a small receive buffer that asks for the large answer and reads none of it.
    async fn stop_reading(addr: std::net::SocketAddr) -> TcpStream {
        let socket = TcpSocket::new_v4().unwrap();
        socket.set_recv_buffer_size(4096).unwrap();
        let mut stream = socket.connect(addr).await.unwrap();
        stream.write_all(b"GET /large HTTP/1.1\r\nHost: t\r\n\r\n").await.unwrap();
        stream
    }

    /// Reads to the end (or for at most `within`): the bytes, and whether the server closed.
    async fn read_all(stream: &mut TcpStream, within: Duration) -> (usize, bool) {
        let mut got = 0;
        let mut buf = vec![0u8; 1 << 20];
        let closed = tokio::time::timeout(within, async {
            loop {
                match stream.read(&mut buf).await {
                    Ok(0) | Err(_) => break,
                    Ok(n) => got += n,
                }
            }
        })
        .await
        .is_ok();
        (got, closed)
    }

    async fn healthz(addr: std::net::SocketAddr) -> String {
        let mut s = TcpStream::connect(addr).await.unwrap();
        s.write_all(b"GET /healthz HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n").await.unwrap();
        let mut out = String::new();
        tokio::time::timeout(Duration::from_secs(5), s.read_to_string(&mut out)).await.unwrap().unwrap();
        out
    }

    #[tokio::test]
    async fn a_client_that_stops_reading_its_answer_is_closed_after_the_grace() {
        let addr = serve(WebSettings { answer_grace_secs: 1, ..WebSettings::default() }).await;
        let mut stalled = stop_reading(addr).await;
        tokio::time::sleep(Duration::from_secs(3)).await;
        assert!(healthz(addr).await.starts_with("HTTP/1.1 200"), "others are answered meanwhile");
        // What the kernel buffers held still arrives; then the connection ends, the answer cut short.
        let (got, closed) = read_all(&mut stalled, Duration::from_secs(20)).await;
        assert!(closed, "the stalled connection is still open");
        assert!(got < LARGE, "the whole answer was written to a client that stopped reading ({got} bytes)");
    }

    #[tokio::test]
    async fn a_client_reading_its_answer_steadily_gets_all_of_it() {
        let addr = serve(WebSettings { answer_grace_secs: 1, ..WebSettings::default() }).await;
        let mut reader = stop_reading(addr).await;
        let (got, _) = read_all(&mut reader, Duration::from_secs(20)).await;
        assert!(got > LARGE, "the answer was cut short at {got} bytes");
    }

    #[tokio::test]
    async fn stalled_answers_are_closed_at_the_connection_cap_for_a_newcomer() {
        let web = WebSettings { answer_grace_secs: 600, max_connections: 4, ..WebSettings::default() };
        let addr = serve(web).await;
        let mut stalled = Vec::new();
        for _ in 0..4 {
            stalled.push(stop_reading(addr).await);
        }
        tokio::time::sleep(Duration::from_millis(500)).await;
        assert!(healthz(addr).await.starts_with("HTTP/1.1 200"), "a newcomer was refused at the cap");
        let (got, closed) = read_all(&mut stalled[0], Duration::from_secs(20)).await;
        assert!(closed && got < LARGE, "the stalled answer furthest behind was not closed");
    }
}
