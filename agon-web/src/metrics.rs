//! [`Metrics`]: what the server counts, served at `GET /metrics` in the Prometheus text
//! format (version 0.0.4) by `prometheus-client`, the Prometheus project's own client.
//!
//! | metric | type | labels |
//! |---|---|---|
//! | `agon_games_created_total` | counter | `opponent` (`computer`, `friend`), `level` (`none` between friends) |
//! | `agon_moves_total` | counter | `by` (`person`, `computer`) |
//! | `agon_event_streams_open` | gauge | |
//! | `agon_event_texts_built_total` | counter | `kind` (`state`, `change`) |
//! | `agon_lobby_log_reads_total` | counter | |
//! | `agon_search_seconds` | histogram (its `_count` counts the searches) | `kind` (a level, or `hint`) |
//! | `agon_rejections_total` | counter | `status`, `error` |
//! | `agon_http_requests_total` | counter | `method`, `route`, `status` |
//!
//! Every label takes few values: `route` is the route's pattern (`/api/games/{id}/moves`,
//! `unmatched` for a path no route has), never the path asked.

use std::sync::Arc;
use std::time::Instant;

use axum::extract::{MatchedPath, Request, State};
use axum::http::{header, Method, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use prometheus_client::encoding::EncodeLabelSet;
use prometheus_client::metrics::counter::Counter;
use prometheus_client::metrics::family::Family;
use prometheus_client::metrics::gauge::Gauge;
use prometheus_client::metrics::histogram::{exponential_buckets, Histogram};
use prometheus_client::registry::Registry;

use crate::error::ErrorName;

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct GameLabel {
    opponent: &'static str,
    level: &'static str,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct ByLabel {
    by: &'static str,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct KindLabel {
    kind: &'static str,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct RejectionLabels {
    status: u16,
    error: &'static str,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct RequestLabels {
    method: &'static str,
    route: String,
    status: u16,
}

/// Search durations: 0.1 ms to about 6.5 s, a factor of 4 apart (the easy level takes
/// 0.01 ms, the hard one up to 1.5 s).
fn search_histogram() -> Histogram {
    Histogram::new(exponential_buckets(0.0001, 4.0, 9))
}

/// The server's counters, shared by every request ([`AppState::metrics`](crate::AppState::metrics)).
///
/// ```
/// let metrics = agon_web::Metrics::new();
/// metrics.game_created("computer", "easy");
/// metrics.game_created("friend", "none");
/// metrics.person_moved();
/// let text = metrics.encode();
/// assert!(text.contains("agon_games_created_total{opponent=\"computer\",level=\"easy\"} 1"));
/// assert!(text.contains("agon_games_created_total{opponent=\"friend\",level=\"none\"} 1"));
/// assert!(text.contains("agon_moves_total{by=\"person\"} 1"));
/// ```
pub struct Metrics {
    registry: Registry,
    games_created: Family<GameLabel, Counter>,
    moves: Family<ByLabel, Counter>,
    streams_open: Gauge,
    event_texts: Family<KindLabel, Counter>,
    lobby_reads: Counter,
    searches: Family<KindLabel, Histogram, fn() -> Histogram>,
    rejections: Family<RejectionLabels, Counter>,
    requests: Family<RequestLabels, Counter>,
}

impl Default for Metrics {
    fn default() -> Metrics {
        Metrics::new()
    }
}

impl Metrics {
    /// Every metric at zero.
    ///
    /// ```
    /// let text = agon_web::Metrics::new().encode();
    /// assert!(text.contains("agon_event_streams_open 0"));
    /// ```
    pub fn new() -> Metrics {
        let mut registry = Registry::with_prefix("agon");
        let games_created = Family::<GameLabel, Counter>::default();
        registry.register(
            "games_created",
            "Games created, by opponent (computer or friend) and the computer's level (none between friends)",
            games_created.clone(),
        );
        let moves = Family::<ByLabel, Counter>::default();
        registry.register(
            "moves",
            "Moves played and stored, by who chose them",
            moves.clone(),
        );
        let streams_open = Gauge::default();
        registry.register(
            "event_streams_open",
            "Event streams open now",
            streams_open.clone(),
        );
        let event_texts = Family::<KindLabel, Counter>::default();
        registry.register(
            "event_texts_built",
            "Live events serialised, by kind: once per version and view of a game, whatever the number of streams",
            event_texts.clone(),
        );
        let lobby_reads = Counter::default();
        registry.register(
            "lobby_log_reads",
            "Reads of the lobby's log of events: once per new event (or batch of them) for all the lobby and bot streams of the server, and once per stream resuming from further back than the server holds",
            lobby_reads.clone(),
        );
        let searches = Family::new_with_constructor(search_histogram as fn() -> Histogram);
        registry.register(
            "search_seconds",
            "How long the computer's searches took, by level (or hint)",
            searches.clone(),
        );
        let rejections = Family::<RejectionLabels, Counter>::default();
        registry.register(
            "rejections",
            "Requests answered with an error, by status and error name",
            rejections.clone(),
        );
        let requests = Family::<RequestLabels, Counter>::default();
        registry.register(
            "http_requests",
            "HTTP requests answered, by method, route and status",
            requests.clone(),
        );
        Metrics {
            registry,
            games_created,
            moves,
            streams_open,
            event_texts,
            lobby_reads,
            searches,
            rejections,
            requests,
        }
    }

    /// A game was created: against `opponent` (`computer` or `friend`), at `level` (`easy`,
    /// `medium`, `hard`, or `none` between friends).
    pub fn game_created(&self, opponent: &'static str, level: &'static str) {
        self.games_created
            .get_or_create(&GameLabel { opponent, level })
            .inc();
    }

    /// The person's move was stored.
    pub fn person_moved(&self) {
        self.moves.get_or_create(&ByLabel { by: "person" }).inc();
    }

    /// The computer's move was stored.
    pub fn computer_moved(&self) {
        self.moves.get_or_create(&ByLabel { by: "computer" }).inc();
    }

    /// An event stream was opened (pair it with [`Metrics::stream_closed`], or hold a
    /// [`Metrics::stream`] guard instead).
    pub fn stream_opened(&self) {
        self.streams_open.inc();
    }

    /// An event stream was closed.
    pub fn stream_closed(&self) {
        self.streams_open.dec();
    }

    /// Counts an open event stream as long as the guard lives.
    ///
    /// ```
    /// let metrics = std::sync::Arc::new(agon_web::Metrics::new());
    /// let guard = metrics.stream();
    /// assert!(metrics.encode().contains("agon_event_streams_open 1"));
    /// drop(guard);
    /// assert!(metrics.encode().contains("agon_event_streams_open 0"));
    /// ```
    pub fn stream(self: &Arc<Self>) -> StreamGuard {
        self.stream_opened();
        StreamGuard(self.clone())
    }

    /// A live event of `kind` (`state` or `change`) was serialised.
    ///
    /// ```
    /// let metrics = agon_web::Metrics::new();
    /// metrics.event_text_built("change");
    /// assert!(metrics.encode().contains("agon_event_texts_built_total{kind=\"change\"} 1"));
    /// ```
    pub fn event_text_built(&self, kind: &'static str) {
        self.event_texts.get_or_create(&KindLabel { kind }).inc();
    }

    /// The lobby's log was read from the database
    /// ([`crate::service::lobby_feed`]).
    ///
    /// ```
    /// let metrics = agon_web::Metrics::new();
    /// metrics.lobby_log_read();
    /// assert!(metrics.encode().contains("agon_lobby_log_reads_total 1"));
    /// ```
    pub fn lobby_log_read(&self) {
        self.lobby_reads.inc();
    }

    /// Runs a computer search `f` of `kind` (a level's name, or `hint`) and records how
    /// long it took.
    ///
    /// ```
    /// let metrics = agon_web::Metrics::new();
    /// assert_eq!(metrics.search("easy", || 6 * 7), 42);
    /// assert!(metrics.encode().contains("agon_search_seconds_count{kind=\"easy\"} 1"));
    /// ```
    pub fn search<T>(&self, kind: &'static str, f: impl FnOnce() -> T) -> T {
        let started = Instant::now();
        let value = f();
        self.searches
            .get_or_create(&KindLabel { kind })
            .observe(started.elapsed().as_secs_f64());
        value
    }

    /// A request was answered with the error `name` and `status`.
    ///
    /// ```
    /// let metrics = agon_web::Metrics::new();
    /// metrics.rejected(axum::http::StatusCode::TOO_MANY_REQUESTS, "rate-limited");
    /// let text = metrics.encode();
    /// assert!(text.contains("agon_rejections_total{status=\"429\",error=\"rate-limited\"} 1"));
    /// ```
    pub fn rejected(&self, status: StatusCode, name: &'static str) {
        let labels = RejectionLabels {
            status: status.as_u16(),
            error: name,
        };
        self.rejections.get_or_create(&labels).inc();
    }

    /// A request was answered: its method, its route's pattern and the status.
    ///
    /// ```
    /// use axum::http::{Method, StatusCode};
    /// let metrics = agon_web::Metrics::new();
    /// metrics.answered(&Method::GET, "/api/games/{id}", StatusCode::OK);
    /// let text = metrics.encode();
    /// assert!(text.contains(r#"{method="GET",route="/api/games/{id}",status="200"} 1"#));
    /// ```
    pub fn answered(&self, method: &Method, route: &str, status: StatusCode) {
        let method = match *method {
            Method::GET => "GET",
            Method::HEAD => "HEAD",
            Method::POST => "POST",
            Method::PUT => "PUT",
            Method::DELETE => "DELETE",
            Method::OPTIONS => "OPTIONS",
            Method::PATCH => "PATCH",
            _ => "other",
        };
        let labels = RequestLabels {
            method,
            route: route.to_string(),
            status: status.as_u16(),
        };
        self.requests.get_or_create(&labels).inc();
    }

    /// Every metric in the Prometheus text format.
    pub fn encode(&self) -> String {
        let mut text = String::new();
        // Writing to a String does not fail.
        let _ = prometheus_client::encoding::prometheus_text::encode(&mut text, &self.registry);
        text
    }
}

/// An open event stream, counted until dropped ([`Metrics::stream`]).
pub struct StreamGuard(Arc<Metrics>);

impl Drop for StreamGuard {
    fn drop(&mut self) {
        self.0.stream_closed();
    }
}

/// `GET /metrics`: every metric, in the Prometheus text format.
pub async fn endpoint(State(metrics): State<Arc<Metrics>>) -> Response {
    (
        [(
            header::CONTENT_TYPE,
            prometheus_client::encoding::prometheus_text::CONTENT_TYPE,
        )],
        metrics.encode(),
    )
        .into_response()
}

/// The middleware: counts every request by route and status, and every error by status
/// and name.
pub(crate) async fn track(
    State(metrics): State<Arc<Metrics>>,
    request: Request,
    next: Next,
) -> Response {
    let method = request.method().clone();
    let route = request
        .extensions()
        .get::<MatchedPath>()
        .map_or("unmatched".to_string(), |p| p.as_str().to_string());
    let response = next.run(request).await;
    if let Some(ErrorName(name)) = response.extensions().get::<ErrorName>() {
        metrics.rejected(response.status(), name);
    }
    metrics.answered(&method, &route, response.status());
    response
}
