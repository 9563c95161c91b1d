//! One connection: the socket as hyper reads it ([`Guarded`]: whole requests only, each
//! checked and read within its deadlines) and the application as hyper calls it
//! ([`ConnService`]: it knows whether a response is under way).

use std::convert::Infallible;
use std::future::Future;
use std::io;
use std::net::SocketAddr;
use std::pin::Pin;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll, Waker};
use std::time::Duration;

use axum::extract::ConnectInfo;
use axum::http::{Request, Response, StatusCode};
use axum::Router;
use bytes::Bytes;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::TcpStream;
use tokio::time::Sleep;

use super::head;
use crate::error::ApiError;

/// What the socket's reader and the application share: how many responses are under way
/// (no deadline runs while one is: an event stream is not idle), and the reader's waker,
/// woken when the last one ends so that the idle deadline starts.
#[derive(Default)]
pub(crate) struct Shared {
    busy: AtomicUsize,
    waker: Mutex<Option<Waker>>,
}

/// A response under way, until dropped (when hyper has sent its body, or gave up).
pub(crate) struct Busy(Arc<Shared>);

impl Busy {
    fn enter(shared: &Arc<Shared>) -> Busy {
        shared.busy.fetch_add(1, Ordering::SeqCst);
        Busy(shared.clone())
    }
}

impl Drop for Busy {
    fn drop(&mut self) {
        self.0.busy.fetch_sub(1, Ordering::SeqCst);
        let waker = self
            .0
            .waker
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .take();
        if let Some(waker) = waker {
            waker.wake();
        }
    }
}

/// The bounds of a connection's reading: its deadlines and the largest body.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Deadlines {
    pub head: Duration,
    pub body: Duration,
    pub idle: Duration,
    /// The largest body of a request, by its target.
    pub max_body: fn(&str) -> usize,
}

/// What the reader waits for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Wait {
    Head,
    Body,
    Idle,
}

/// The socket as hyper reads it: bytes are held back until a whole request (head and
/// body) is here and its head passed [`head::message_length`]; then they go to hyper at
/// once. A refused head, or a deadline passed, ends the reading (hyper sees the end of
/// the stream) and leaves the error to answer in [`Guarded::refusal`], which the
/// connection's task writes once hyper is done.
pub(crate) struct Guarded {
    pub io: TcpStream,
    pub refusal: Option<ApiError>,
    deadlines: Deadlines,
    shared: Arc<Shared>,
    /// Bytes read and not yet framed (the start of the next request).
    buf: Vec<u8>,
    /// A whole request, being handed to hyper.
    ready: Bytes,
    /// The length of the request `buf` starts with, once its head is known.
    message_len: Option<usize>,
    /// No request yet: the head deadline runs from the connection's start.
    first: bool,
    timer: Option<(Wait, Pin<Box<Sleep>>)>,
    /// Since when the client has taken no byte of what is written to it.
    stalled: Option<Pin<Box<Sleep>>>,
    /// The client closed its side.
    ended: bool,
    /// What is left to write of a `100 Continue` for a client that waits for one.
    interim: &'static [u8],
}

/// The interim answer to `Expect: 100-continue` (RFC 9110, 10.1.1).
const CONTINUE: &[u8] = b"HTTP/1.1 100 Continue\r\n\r\n";

impl Guarded {
    pub fn new(io: TcpStream, deadlines: Deadlines, shared: Arc<Shared>) -> Guarded {
        Guarded {
            io,
            refusal: None,
            deadlines,
            shared,
            buf: Vec::new(),
            ready: Bytes::new(),
            message_len: None,
            first: true,
            timer: None,
            stalled: None,
            ended: false,
            interim: &[],
        }
    }

    /// The length of the whole request `buf` starts with, if it is all here.
    ///
    /// A client that waits for `100 Continue` before its body gets it here, as soon as
    /// its head passed, since hyper sees no request before its body; its `Expect` line
    /// is then taken out, so that hyper does not send a second one. It is not sent
    /// while a response is under way (it would cut into it), nor when the body is here.
    fn framed(&mut self) -> Result<Option<usize>, ApiError> {
        if self.message_len.is_none() && !self.buf.is_empty() {
            if let Some(frame) = head::frame_with(&self.buf, self.deadlines.max_body)? {
                let mut len = frame.len;
                if let Some(line) = frame.expect_continue {
                    len -= line.len();
                    self.buf.drain(line);
                    if self.buf.len() < len && self.shared.busy.load(Ordering::SeqCst) == 0 {
                        self.interim = CONTINUE;
                    }
                }
                self.message_len = Some(len);
            }
        }
        Ok(self.message_len.filter(|&n| self.buf.len() >= n))
    }

    fn busy(&self, cx: &Context<'_>) -> bool {
        // The waker first, then the count: a response ending in between still wakes us.
        *self.shared.waker.lock().unwrap_or_else(|e| e.into_inner()) = Some(cx.waker().clone());
        self.shared.busy.load(Ordering::SeqCst) > 0
    }

    /// Arms the deadline of what is awaited now (kept while it is the same wait).
    fn arm(&mut self, wait: Option<Wait>) {
        let Some(wait) = wait else {
            self.timer = None;
            return;
        };
        if self.timer.as_ref().map(|t| t.0) != Some(wait) {
            let after = match wait {
                Wait::Head => self.deadlines.head,
                Wait::Body => self.deadlines.body,
                Wait::Idle => self.deadlines.idle,
            };
            self.timer = Some((wait, Box::pin(tokio::time::sleep(after))));
        }
    }
}

impl AsyncRead for Guarded {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        out: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        loop {
            if !this.ready.is_empty() {
                let n = this.ready.len().min(out.remaining());
                out.put_slice(&this.ready.split_to(n));
                return Poll::Ready(Ok(()));
            }
            if this.refusal.is_some() {
                // The end of the stream once the responses under way are sent, so that a
                // refusal of a pipelined request does not cut the one before.
                return match this.busy(cx) {
                    true => Poll::Pending,
                    false => Poll::Ready(Ok(())),
                };
            }
            if this.ended {
                return Poll::Ready(Ok(()));
            }
            match this.framed() {
                Ok(Some(n)) => {
                    this.ready = Bytes::from(this.buf.drain(..n).collect::<Vec<u8>>());
                    this.message_len = None;
                    this.first = false;
                    this.timer = None;
                    continue;
                }
                Ok(None) => {}
                Err(e) => {
                    this.refusal = Some(e);
                    continue;
                }
            }
            let busy = this.busy(cx);
            let wait = match (this.buf.is_empty(), this.message_len, busy, this.first) {
                (false, Some(_), _, _) => Some(Wait::Body),
                (false, None, _, _) => Some(Wait::Head),
                (true, _, true, _) => None,
                (true, _, false, true) => Some(Wait::Head),
                (true, _, false, false) => Some(Wait::Idle),
            };
            this.arm(wait);
            while !this.interim.is_empty() {
                match Pin::new(&mut this.io).poll_write(cx, this.interim) {
                    Poll::Ready(Ok(n)) => this.interim = &this.interim[n..],
                    Poll::Ready(Err(e)) => return Poll::Ready(Err(e)),
                    Poll::Pending => break,
                }
            }
            let mut chunk = [0u8; 8192];
            let mut read = ReadBuf::new(&mut chunk);
            match Pin::new(&mut this.io).poll_read(cx, &mut read) {
                Poll::Ready(Ok(())) if read.filled().is_empty() => this.ended = true,
                Poll::Ready(Ok(())) => this.buf.extend_from_slice(read.filled()),
                Poll::Ready(Err(e)) => return Poll::Ready(Err(e)),
                Poll::Pending => {
                    let Some((wait, timer)) = this.timer.as_mut() else {
                        return Poll::Pending;
                    };
                    if timer.as_mut().poll(cx).is_pending() {
                        return Poll::Pending;
                    }
                    match *wait {
                        // A kept-alive connection nobody uses: closed without a word, as
                        // a browser expects (it opens another).
                        Wait::Idle => this.ended = true,
                        Wait::Head | Wait::Body => {
                            let (what, after) = match *wait {
                                Wait::Body => ("body", this.deadlines.body),
                                _ => ("head", this.deadlines.head),
                            };
                            this.refusal = Some(ApiError::new(
                                StatusCode::REQUEST_TIMEOUT,
                                "request-timeout",
                                format!(
                                    "the request's {what} did not arrive within {} s",
                                    after.as_secs_f64()
                                ),
                            ));
                        }
                    }
                    this.timer = None;
                }
            }
        }
    }
}

impl Guarded {
    /// A write's outcome, with its deadline: a client that takes no byte of its answers
    /// for the idle timeout (it reads nothing, so that the server holds the connection
    /// and the answer) fails the write, and hyper drops the connection.
    fn deadline<T>(
        &mut self,
        cx: &mut Context<'_>,
        poll: Poll<io::Result<T>>,
    ) -> Poll<io::Result<T>> {
        if poll.is_ready() {
            self.stalled = None;
            return poll;
        }
        let idle = self.deadlines.idle;
        let stalled = self
            .stalled
            .get_or_insert_with(|| Box::pin(tokio::time::sleep(idle)));
        match stalled.as_mut().poll(cx) {
            Poll::Ready(()) => Poll::Ready(Err(io::Error::new(
                io::ErrorKind::TimedOut,
                "the client took nothing of its answer within the idle timeout",
            ))),
            Poll::Pending => Poll::Pending,
        }
    }
}

impl AsyncWrite for Guarded {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        let this = self.get_mut();
        let poll = Pin::new(&mut this.io).poll_write(cx, buf);
        this.deadline(cx, poll)
    }

    fn poll_write_vectored(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        let this = self.get_mut();
        let poll = Pin::new(&mut this.io).poll_write_vectored(cx, bufs);
        this.deadline(cx, poll)
    }

    fn is_write_vectored(&self) -> bool {
        self.io.is_write_vectored()
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        let poll = Pin::new(&mut this.io).poll_flush(cx);
        this.deadline(cx, poll)
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().io).poll_shutdown(cx)
    }
}

/// The application as hyper calls it on one connection: each request gets the peer's
/// address (what `into_make_service_with_connect_info` would add) and counts as under
/// way until its response's body is dropped.
#[derive(Clone)]
pub(crate) struct ConnService {
    pub router: Router,
    pub peer: SocketAddr,
    pub shared: Arc<Shared>,
}

/// A response body that keeps its request counted as under way.
pub(crate) struct Tracked {
    body: axum::body::Body,
    _busy: Busy,
}

impl http_body::Body for Tracked {
    type Data = Bytes;
    type Error = axum::Error;

    fn poll_frame(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<http_body::Frame<Bytes>, axum::Error>>> {
        Pin::new(&mut self.get_mut().body).poll_frame(cx)
    }

    fn is_end_stream(&self) -> bool {
        self.body.is_end_stream()
    }

    fn size_hint(&self) -> http_body::SizeHint {
        self.body.size_hint()
    }
}

type Answer = Pin<Box<dyn Future<Output = Result<Response<Tracked>, Infallible>> + Send>>;

impl hyper::service::Service<Request<hyper::body::Incoming>> for ConnService {
    type Response = Response<Tracked>;
    type Error = Infallible;
    type Future = Answer;

    fn call(&self, request: Request<hyper::body::Incoming>) -> Answer {
        let busy = Busy::enter(&self.shared);
        let mut request = request.map(axum::body::Body::new);
        request.extensions_mut().insert(ConnectInfo(self.peer));
        let mut router = self.router.clone();
        Box::pin(async move {
            let response = match tower_service::Service::call(&mut router, request).await {
                Ok(response) => response,
                Err(never) => match never {},
            };
            Ok(response.map(|body| Tracked { body, _busy: busy }))
        })
    }
}
