//! A request body metered against the minimum rate (RULING W18), and the answer to a request
//! whose body fell behind it.

use super::{Conn, Registry};
use axum::body::Body;
use axum::http::{HeaderMap, HeaderValue, Response, StatusCode, header};
use hyper::body::{Bytes, Frame, Incoming, SizeHint};
use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::task::{Context, Poll};
use std::time::Duration;
use tokio::time::{Instant, Sleep};

/// Body bytes are handed on in pieces of at least this size (or the whole rest at its end).
const BODY_PIECE: usize = 16 * 1024;

/// A request body that must arrive at the minimum rate (RULING W18), copied out of hyper's read
/// buffer: each piece hyper hands on is a view of its whole read buffer, so a body arriving a byte
/// at a time would otherwise keep one 8 KiB buffer alive per byte until the handler finishes.
pub(super) struct MeteredBody<B = Incoming> {
    inner: B,
    registry: Arc<Registry>,
    conn: Arc<Conn>,
    grace: Duration,
    min_rate: u64,
    /// Bytes received so far.
    received: u64,
    /// Time spent waiting for the client before the current wait.
    waited: Duration,
    /// When the current wait for the client began.
    waiting_since: Option<Instant>,
    /// Fires when the current wait runs out.
    deadline: Option<Pin<Box<Sleep>>>,
    /// Bytes received and not handed on yet.
    piece: Vec<u8>,
    /// Trailers that came after bytes not handed on yet.
    trailers: Option<HeaderMap>,
    /// Finished: the whole body arrived, or it was cut off or failed.
    done: bool,
}

/// The error a body that fell behind the minimum rate ends with.
#[derive(Debug)]
struct TooSlow;

impl std::fmt::Display for TooSlow {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("the request body arrived below the minimum rate")
    }
}

impl std::error::Error for TooSlow {}

type BoxError = Box<dyn std::error::Error + Send + Sync>;

impl<B> MeteredBody<B> {
    /// `inner` metered for `conn`: `grace` before it must arrive at `min_rate` bytes a second.
    pub(super) fn new(
        inner: B,
        registry: Arc<Registry>,
        conn: Arc<Conn>,
        grace: Duration,
        min_rate: u64,
    ) -> Self {
        MeteredBody {
            inner,
            registry,
            conn,
            grace,
            min_rate,
            received: 0,
            waited: Duration::ZERO,
            waiting_since: None,
            deadline: None,
            piece: Vec::new(),
            trailers: None,
            done: false,
        }
    }

    fn finish(&mut self) {
        self.done = true;
        self.deadline = None;
        self.conn.body_pending.store(false, Ordering::Relaxed);
    }

    /// The piece gathered so far, handed on whole (its buffer with it).
    fn take_piece(&mut self) -> Frame<Bytes> {
        Frame::data(Bytes::from(std::mem::take(&mut self.piece)))
    }

    /// Waits for the client: Ready when the wait has run past what the bytes received allow.
    fn poll_wait(&mut self, cx: &mut Context<'_>) -> Poll<()> {
        if self.min_rate == 0 {
            return Poll::Pending;
        }
        let now = Instant::now();
        let since = *self.waiting_since.get_or_insert(now);
        let earned = Duration::from_millis(self.received.saturating_mul(1000) / self.min_rate);
        let left = self.grace.saturating_add(earned).saturating_sub(self.waited);
        let at = since + left.min(Duration::from_secs(86_400));
        self.conn.cutoff_ms.store(self.registry.ms_at(at), Ordering::Relaxed);
        super::poll_until(&mut self.deadline, at, cx)
    }
}

impl<B> hyper::body::Body for MeteredBody<B>
where
    B: hyper::body::Body<Data = Bytes> + Unpin,
    B::Error: Into<BoxError>,
{
    type Data = Bytes;
    type Error = BoxError;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, BoxError>>> {
        let this = &mut *self;
        if let Some(trailers) = this.trailers.take() {
            return Poll::Ready(Some(Ok(Frame::trailers(trailers))));
        }
        if this.done {
            return Poll::Ready(None);
        }
        loop {
            match Pin::new(&mut this.inner).poll_frame(cx) {
                Poll::Ready(Some(Ok(frame))) => {
                    if let Some(since) = this.waiting_since.take() {
                        this.waited += since.elapsed();
                    }
                    match frame.into_data() {
                        Ok(data) => {
                            this.received = this.received.saturating_add(data.len() as u64);
                            this.piece.extend_from_slice(&data);
                            if this.piece.len() >= BODY_PIECE {
                                return Poll::Ready(Some(Ok(this.take_piece())));
                            }
                        }
                        Err(frame) => {
                            let Ok(trailers) = frame.into_trailers() else { continue };
                            if this.piece.is_empty() {
                                return Poll::Ready(Some(Ok(Frame::trailers(trailers))));
                            }
                            this.trailers = Some(trailers);
                            return Poll::Ready(Some(Ok(this.take_piece())));
                        }
                    }
                }
                Poll::Ready(Some(Err(e))) => {
                    this.finish();
                    return Poll::Ready(Some(Err(e.into())));
                }
                Poll::Ready(None) => {
                    this.finish();
                    if this.piece.is_empty() {
                        return Poll::Ready(None);
                    }
                    return Poll::Ready(Some(Ok(this.take_piece())));
                }
                Poll::Pending => {
                    if this.poll_wait(cx).is_ready() {
                        this.finish();
                        this.piece = Vec::new();
                        this.conn.body_cut.store(true, Ordering::Relaxed);
                        return Poll::Ready(Some(Err(TooSlow.into())));
                    }
                    return Poll::Pending;
                }
            }
        }
    }

    fn is_end_stream(&self) -> bool {
        self.trailers.is_none() && (self.done || (self.inner.is_end_stream() && self.piece.is_empty()))
    }

    fn size_hint(&self) -> SizeHint {
        if self.done {
            return SizeHint::with_exact(0);
        }
        let inner = self.inner.size_hint();
        let piece = self.piece.len() as u64;
        let mut hint = SizeHint::new();
        hint.set_lower(inner.lower().saturating_add(piece));
        if let Some(upper) = inner.upper() {
            hint.set_upper(upper.saturating_add(piece));
        }
        hint
    }
}

impl<B> Drop for MeteredBody<B> {
    fn drop(&mut self) {
        self.conn.body_pending.store(false, Ordering::Relaxed);
    }
}

/// The answer to a request whose body fell behind the minimum rate: 408, the connection closed
/// (the headers the application set, such as the security headers, kept).
pub(super) fn too_slow(answer: Response<Body>) -> Response<Body> {
    let (mut parts, _) = answer.into_parts();
    parts.status = StatusCode::REQUEST_TIMEOUT;
    parts.headers.remove(header::CONTENT_LENGTH);
    parts.headers.insert(header::CONTENT_TYPE, HeaderValue::from_static("text/plain; charset=utf-8"));
    parts.headers.insert(header::CONNECTION, HeaderValue::from_static("close"));
    Response::from_parts(parts, Body::from("the request body arrived too slowly\n"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::VecDeque;
    use std::net::SocketAddr;

    /// A body whose frames arrive one every `every`, like a client trickling it in.
    struct Trickle {
        frames: VecDeque<Bytes>,
        every: Duration,
        next: Pin<Box<Sleep>>,
    }

    impl hyper::body::Body for Trickle {
        type Data = Bytes;
        type Error = std::convert::Infallible;

        fn poll_frame(
            mut self: Pin<&mut Self>,
            cx: &mut Context<'_>,
        ) -> Poll<Option<Result<Frame<Bytes>, Self::Error>>> {
            std::task::ready!(self.next.as_mut().poll(cx));
            let at = Instant::now() + self.every;
            self.next.as_mut().reset(at);
            Poll::Ready(self.frames.pop_front().map(|data| Ok(Frame::data(data))))
        }
    }

    /// `body` (`n` one-byte frames cut from one 8 KiB buffer, as hyper hands them on, one every
    /// `every`) metered with `grace` and `min_rate`, read to its end; also the buffer.
    async fn meter(
        n: usize,
        every: Duration,
        grace: Duration,
        min_rate: u64,
    ) -> (Result<Bytes, BoxError>, Arc<Conn>, Bytes) {
        let registry = Arc::new(Registry::new(0));
        let conn = registry.add(1, SocketAddr::from(([127, 0, 0, 1], 1)));
        let buffer = Bytes::from(vec![b'a'; 8192]);
        let frames = (0..n).map(|i| buffer.slice(i..i + 1)).collect();
        let trickle = Trickle { frames, every, next: Box::pin(tokio::time::sleep(Duration::ZERO)) };
        let body = MeteredBody::new(trickle, registry, conn.clone(), grace, min_rate);
        let read = http_body_util::BodyExt::collect(body).await.map(|c| c.to_bytes());
        (read, conn, buffer)
    }

    #[tokio::test]
    async fn a_body_trickling_in_keeps_none_of_the_read_buffer() {
        let (read, conn, buffer) = meter(50, Duration::from_millis(1), Duration::from_secs(5), 1024).await;
        assert_eq!(read.expect("the body arrived").len(), 50);
        assert!(buffer.is_unique(), "a piece of the body still holds hyper's read buffer");
        assert!(!conn.body_pending.load(Ordering::Relaxed) && !conn.body_cut.load(Ordering::Relaxed));
    }

    #[tokio::test]
    async fn a_body_behind_the_minimum_rate_ends_with_an_error_after_its_grace() {
        let started = std::time::Instant::now();
        let (read, conn, _) = meter(50, Duration::from_millis(300), Duration::from_millis(100), 10).await;
        let error = read.expect_err("the body was cut off");
        assert!(error.is::<TooSlow>(), "{error}");
        assert!(conn.body_cut.load(Ordering::Relaxed) && !conn.body_pending.load(Ordering::Relaxed));
        // The first byte came at once and earned 100 ms (10 bytes a second): cut off at about
        // 200 ms, not after the 15 s the whole body would take.
        let took = started.elapsed();
        assert!(took >= Duration::from_millis(180) && took < Duration::from_secs(3), "{took:?}");
    }
}
