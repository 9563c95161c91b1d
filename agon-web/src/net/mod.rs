//! The server's own accept loop, safe with nothing in front of it.
//!
//! Each accepted connection passes a [`Gate`] first (a cap per client address and one in
//! all, answered at once `429`/`503 too-many-connections` and closed), then is served by
//! hyper (HTTP/1.1, the hyper that axum uses) through a reader that hands it whole
//! requests only (`conn`): a request's head must arrive within
//! [`ConnectionLimits::head_timeout`], its body within
//! [`ConnectionLimits::body_timeout`], and a kept-alive connection without a request
//! under way is closed after [`ConnectionLimits::idle_timeout`]. Every head is checked
//! before hyper parses it ([`head::message_length`]), so that every refusal, whatever the
//! layer, is the documented JSON error with the security headers
//! (`http::set_security_headers`).

use std::future::Future;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use axum::http::HeaderMap;
use axum::response::IntoResponse;
use axum::Router;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{mpsc, watch};

use crate::error::ApiError;
use crate::metrics::Metrics;

mod conn;
mod gate;
pub mod head;

pub use gate::{Gate, Ticket};

/// The default of [`ConnectionLimits::head_timeout`]: 10 s, time for a head (a few hundred
/// bytes) over the slowest mobile link, short enough that a silent connection is not
/// kept.
pub const DEFAULT_HEAD_TIMEOUT: Duration = Duration::from_secs(10);

/// The default of [`ConnectionLimits::body_timeout`]: 30 s for at most 4 KiB.
pub const DEFAULT_BODY_TIMEOUT: Duration = Duration::from_secs(30);

/// The default of [`ConnectionLimits::idle_timeout`]: 75 s. A page's event stream is
/// never idle (a response under way), and a connection unused for over a minute costs a
/// file for nothing (a browser opens another without a word); above the 60 s after which
/// a reverse proxy drops its own idle connections to the server (nginx's and Caddy's
/// defaults, set in `deploy/`), so that the proxy, not the server, closes them, and never
/// sends a request on a connection the server is closing.
pub const DEFAULT_IDLE_TIMEOUT: Duration = Duration::from_secs(75);

/// The default of [`ConnectionLimits::max_per_client`]: 64, above the 16 event streams an
/// address may hold ([`crate::StreamLimits`]) with room for the requests of the pages
/// behind one NAT.
pub const DEFAULT_MAX_PER_CLIENT: usize = 64;

/// The most connections by default, whatever the open-file limit.
pub const MAX_CONNECTIONS: usize = 10_000;

/// The files kept for other uses than connections: standard streams, the listener,
/// tokio's own, the SQLite files, a refusal being written; the database pool's
/// connections come on top.
pub const RESERVED_FILES: usize = 48;

/// How long a refused connection is still read (and what it sends dropped) after its
/// answer, so that closing it with unread bytes does not reset it before the client
/// read the answer.
const LINGER: Duration = Duration::from_secs(2);

/// The most bytes read from a refused connection while lingering.
const LINGER_BYTES: usize = 4 << 20;

/// The bounds on connections (`--head-timeout`, `--body-timeout`, `--idle-timeout`,
/// `--max-connections`, `--max-connections-per-client`).
///
/// ```
/// use agon_web::net::ConnectionLimits;
/// let limits = ConnectionLimits::default();
/// assert_eq!(limits.head_timeout.as_secs(), 10);
/// assert_eq!(limits.max_per_client, 64);
/// // Under 256 open files and 16 database connections: 256 - 48 - 16.
/// assert_eq!(limits.max_connections(Some(256), 16), 192);
/// assert_eq!(ConnectionLimits { max_connections: Some(50), ..limits }.max_connections(Some(256), 16), 50);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ConnectionLimits {
    /// How long a request's head may take to arrive, from the connection's start (its
    /// first request) or from the head's first byte (`408 request-timeout`).
    pub head_timeout: Duration,
    /// How long a request's body may take to arrive after its head (`408`).
    pub body_timeout: Duration,
    /// How long a kept-alive connection without a request under way stays open, and how
    /// long a client may take no byte of its answers before its connection is dropped.
    pub idle_timeout: Duration,
    /// The most connections open at once (then `503 too-many-connections`); `None`: the
    /// process's open-file limit less [`RESERVED_FILES`] and the database's connections,
    /// at most [`MAX_CONNECTIONS`].
    pub max_connections: Option<usize>,
    /// The most connections open at once from one client address (then `429
    /// too-many-connections`). Not applied behind a trusted proxy (`--trust-proxy`),
    /// whose connections each carry many clients' requests: the proxy bounds those.
    pub max_per_client: usize,
}

impl Default for ConnectionLimits {
    fn default() -> ConnectionLimits {
        ConnectionLimits {
            head_timeout: DEFAULT_HEAD_TIMEOUT,
            body_timeout: DEFAULT_BODY_TIMEOUT,
            idle_timeout: DEFAULT_IDLE_TIMEOUT,
            max_connections: None,
            max_per_client: DEFAULT_MAX_PER_CLIENT,
        }
    }
}

impl ConnectionLimits {
    /// The cap in all: [`ConnectionLimits::max_connections`], or what `open_files` (the
    /// open-file limit, unknown: 1024) leaves after [`RESERVED_FILES`] and
    /// `db_connections`, at least 1.
    pub fn max_connections(&self, open_files: Option<u64>, db_connections: usize) -> usize {
        self.max_connections.unwrap_or_else(|| {
            let files = usize::try_from(open_files.unwrap_or(1024)).unwrap_or(usize::MAX);
            files
                .saturating_sub(RESERVED_FILES + db_connections)
                .clamp(1, MAX_CONNECTIONS)
        })
    }
}

/// The process's open-file limit (its soft `RLIMIT_NOFILE`), read from
/// `/proc/self/limits`; `None` where there is no such file or no limit.
///
/// ```
/// # #[cfg(target_os = "linux")]
/// assert!(agon_web::net::open_files_limit().is_some_and(|n| n > 0));
/// ```
pub fn open_files_limit() -> Option<u64> {
    let limits = std::fs::read_to_string("/proc/self/limits").ok()?;
    let line = limits.lines().find(|l| l.starts_with("Max open files"))?;
    line["Max open files".len()..]
        .split_whitespace()
        .next()?
        .parse()
        .ok()
}

/// What the accept loop serves, handed over by the crate root (which alone assembles the
/// HTTP layer): the router, and what the loop's own refusals share with its answers.
#[derive(Clone)]
pub(crate) struct App {
    pub router: Router,
    /// Where each refusal is counted, as the router's rejections are.
    pub metrics: Arc<Metrics>,
    /// The largest request body the router takes, by the request's target.
    pub max_body: fn(&str) -> usize,
    /// Sets the security headers of every answer.
    pub security_headers: fn(&mut HeaderMap),
}

/// Serves `app` on `listener` until `shutdown` completes, then lets the connections
/// finish what they are doing (each closes once its responses are sent) and returns once
/// all have closed. `max_total` and `max_per_client` (`None`: no cap per address) bound
/// the connections.
pub(crate) async fn serve(
    listener: TcpListener,
    app: App,
    limits: ConnectionLimits,
    max_total: usize,
    max_per_client: Option<usize>,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    let gate = Arc::new(Gate::new(max_total, max_per_client));
    let deadlines = conn::Deadlines {
        head: limits.head_timeout,
        body: limits.body_timeout,
        idle: limits.idle_timeout,
        max_body: app.max_body,
    };
    let (stop, stopped) = watch::channel(false);
    // Each connection's task holds a sender: `recv` answers `None` once all have ended.
    let (open, mut all_closed) = mpsc::channel::<()>(1);
    let mut shutdown = std::pin::pin!(shutdown);
    loop {
        let (stream, peer) = tokio::select! {
            () = &mut shutdown => break,
            accepted = listener.accept() => match accepted {
                Ok(accepted) => accepted,
                Err(e) => {
                    // Out of files or a connection reset before it was accepted: the
                    // next one may do; a short pause keeps this loop from spinning.
                    eprintln!("agon-web: accept: {e}");
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            },
        };
        let ticket = match gate.admit(peer.ip()) {
            Ok(ticket) => ticket,
            Err(refusal) => {
                // Answered at once, without waiting: the loop goes on accepting.
                refuse_now(stream, &app, refusal);
                continue;
            }
        };
        let task = Connection {
            app: app.clone(),
            deadlines,
            peer,
            stop: stopped.clone(),
            _ticket: ticket,
            _open: open.clone(),
        };
        tokio::spawn(task.run(stream));
    }
    drop(listener);
    let _ = stop.send(true);
    drop(open);
    let _ = all_closed.recv().await;
    Ok(())
}

/// An admitted connection and what its task needs.
struct Connection {
    app: App,
    deadlines: conn::Deadlines,
    peer: SocketAddr,
    stop: watch::Receiver<bool>,
    _ticket: Ticket,
    _open: mpsc::Sender<()>,
}

impl Connection {
    async fn run(self, stream: TcpStream) {
        let _ = stream.set_nodelay(true);
        let shared = Arc::new(conn::Shared::default());
        let io = conn::Guarded::new(stream, self.deadlines, shared.clone());
        let service = conn::ConnService {
            router: self.app.router.clone(),
            peer: self.peer,
            shared,
        };
        let mut connection = hyper::server::conn::http1::Builder::new()
            .serve_connection(hyper_util::rt::TokioIo::new(io), service);
        let mut stopped = self.stop.clone();
        let mut stop = Box::pin(async move {
            let _ = stopped.wait_for(|stop| *stop).await;
        });
        let mut stopping = false;
        let served = std::future::poll_fn(|cx| {
            if !stopping && stop.as_mut().poll(cx).is_ready() {
                stopping = true;
                std::pin::Pin::new(&mut connection).graceful_shutdown();
            }
            connection.poll_without_shutdown(cx)
        })
        .await;
        let mut io = connection.into_parts().io.into_inner();
        match (served, io.refusal.take()) {
            (Ok(()), Some(refusal)) => refuse(io.io, &self.app, refusal).await,
            _ => {
                let _ = io.io.shutdown().await;
            }
        }
    }
}

/// The bytes of `error` as an HTTP/1.1 response that closes its connection, with the
/// security headers, counted in the metrics.
async fn response_bytes(error: ApiError, app: &App) -> Vec<u8> {
    app.metrics.rejected(error.status, error.name);
    let mut response = error.into_response();
    (app.security_headers)(response.headers_mut());
    let (parts, body) = response.into_parts();
    let body = axum::body::to_bytes(body, usize::MAX)
        .await
        .unwrap_or_default();
    let mut bytes = format!(
        "HTTP/1.1 {} {}\r\n",
        parts.status.as_u16(),
        parts.status.canonical_reason().unwrap_or("")
    )
    .into_bytes();
    for (name, value) in &parts.headers {
        bytes.extend_from_slice(name.as_str().as_bytes());
        bytes.extend_from_slice(b": ");
        bytes.extend_from_slice(value.as_bytes());
        bytes.extend_from_slice(b"\r\n");
    }
    bytes.extend_from_slice(
        format!(
            "content-length: {}\r\nconnection: close\r\n\r\n",
            body.len()
        )
        .as_bytes(),
    );
    bytes.extend_from_slice(&body);
    bytes
}

/// Answers `error` on a connection past a cap and closes it, without waiting: the
/// answer is short enough for the socket's buffer, and what the client sent already is
/// read first so that closing does not reset the connection under the answer.
fn refuse_now(stream: TcpStream, app: &App, error: ApiError) {
    // The body is in memory: the future completes at its first poll.
    let bytes =
        futures_util::FutureExt::now_or_never(response_bytes(error, app)).unwrap_or_default();
    let mut sink = [0u8; 4096];
    let _ = stream.try_read(&mut sink);
    let _ = stream.try_write(&bytes);
}

/// Answers `error` on an admitted connection, closes its sending side, and reads what
/// the client still sends for a moment ([`LINGER`]), so that it reads the answer.
async fn refuse(mut stream: TcpStream, app: &App, error: ApiError) {
    let bytes = response_bytes(error, app).await;
    let written = tokio::time::timeout(LINGER, stream.write_all(&bytes)).await;
    if !matches!(written, Ok(Ok(()))) {
        return;
    }
    let _ = stream.shutdown().await;
    let mut sink = vec![0u8; 64 * 1024];
    let mut drained = 0;
    let _ = tokio::time::timeout(LINGER, async {
        while drained < LINGER_BYTES {
            match stream.read(&mut sink).await {
                Ok(0) | Err(_) => break,
                Ok(n) => drained += n,
            }
        }
    })
    .await;
}
