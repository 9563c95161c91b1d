//! **agon-web**: play Agon against the computer or a friend in a browser, no sign-up.
//!
//! An axum server that keeps every game in a database ([`Store`]: a SQLite file, or
//! PostgreSQL shared by any number of servers) and serves two embedded pages
//! ([`pages`]) and a JSON API (documented in the crate's `README.md`), whose changes it
//! pushes to the open pages as Server-Sent Events ([`Hub`], [`events`]). The rules come from
//! `agon-core`, the computer's moves from `agon-bots` ([`Level`]), the board picture from
//! `agon-svg`. How the crates fit together, and where each fact lives: `ARCHITECTURE.md`
//! at the repository root.
//!
//! ```no_run
//! # #[tokio::main] async fn main() -> Result<(), Box<dyn std::error::Error>> {
//! let config = agon_web::Config::default();
//! agon_web::serve(config, std::future::pending()).await?;
//! # Ok(()) }
//! ```
#![forbid(unsafe_code)]
#![warn(missing_docs)]

use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;

use axum::Router;

mod error;
pub mod game;
pub mod http;
mod hub;
pub mod i18n;
mod ids;
pub mod limits;
pub mod metrics;
pub mod net;
pub mod service;
pub mod store;
mod workers;

pub use error::{ApiError, ErrorBody, ErrorName};
pub use game::{now_ms, Level, MINUTE_MS};
pub use http::state::{
    rule_option_values, rule_values, side_name, ClockState, GameChange, GameNow, GameState,
    LegalMove, OffersState, OutcomeState, PieceState, RuleOption, RulesParts, SeatState, Seats,
    View,
};
pub use http::{
    accounts, analysis, api, events, friend, health, openapi, pages, records, rejections,
    CONTENT_SECURITY_POLICY,
};
pub use hub::{Hub, HubEvent, Published, StreamLimits, StreamPermit, Subscription};
pub use i18n::Language;
pub use metrics::Metrics;
pub use service::{AppState, Timers, PRUNE_EVERY};
pub use store::{Database, Store, StoreError};
pub use workers::{Workers, QUEUE_MS_PER_WORKER};

/// How the server is set up: `--addr`, `--db`, `--db-connections`, `--workers`,
/// `--review-workers`, `--max-queued-reviews`, `--max-streams`,
/// `--max-streams-per-client`, `--idle-days`, `--keep-days`, the rate limits, the bounds on
/// connections (`--head-timeout`, `--max-connections`, ...) and `--no-metrics`.
///
/// ```
/// let config = agon_web::Config::default();
/// assert_eq!(config.addr.to_string(), "127.0.0.1:8080");
/// assert_eq!(config.db.to_string(), "agon-web.sqlite3");
/// assert!(config.workers >= 1);
/// assert_eq!((config.review_workers, config.max_queued_reviews), (1, 32));
/// assert_eq!(config.idle_days, 30);
/// assert!(config.metrics);
/// ```
#[derive(Clone, Debug)]
pub struct Config {
    /// Where to listen.
    pub addr: SocketAddr,
    /// The database: a SQLite file, or a PostgreSQL URL.
    pub db: Database,
    /// The most connections to PostgreSQL this server opens (its pool; the listener of
    /// live events takes one more). Unused with SQLite.
    pub db_connections: usize,
    /// How many computer searches may run at once.
    pub workers: usize,
    /// The bounds on open event streams, global and per client address.
    pub streams: StreamLimits,
    /// After how many days without a change an unfinished game is pruned (its rows
    /// deleted).
    pub idle_days: u32,
    /// After how many days without a change a finished game is pruned; `None` (the
    /// default) keeps finished games.
    pub keep_days: Option<u32>,
    /// The rate limits on creating games and acting in them.
    pub limits: limits::LimitConfig,
    /// The bounds on connections: deadlines, caps per address and in all.
    pub connections: net::ConnectionLimits,
    /// Whether `GET /metrics` is served.
    pub metrics: bool,
    /// How long a clock's minute lasts, in milliseconds: 60,000. Only tests and
    /// demonstrations shorten it, to see a clock run out (see
    /// [`AppState::clock_minute_ms`]).
    pub clock_minute_ms: i64,
    /// The site's public origin (`--origin https://agon.example`): the passkeys' relying
    /// party, the origin state-changing requests must come from, and whether cookies are
    /// `Secure`. `None`: the address the server listens at, as `http://localhost:PORT`
    /// for a loopback address ([`game::site::SiteOrigin::of_addr`]).
    pub origin: Option<game::site::SiteOrigin>,
    /// How many game reviews this server computes at once (`--review-workers`, default
    /// [`service::review::DEFAULT_REVIEW_WORKERS`]): each on a thread of its own, never
    /// on the search workers.
    pub review_workers: usize,
    /// The most reviews that may wait in the queue (`--max-queued-reviews`, default
    /// [`service::review::DEFAULT_MAX_QUEUED`]); past that a request is answered `503`.
    pub max_queued_reviews: usize,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            addr: SocketAddr::from(([127, 0, 0, 1], 8080)),
            db: Database::Sqlite(PathBuf::from("agon-web.sqlite3")),
            db_connections: DEFAULT_DB_CONNECTIONS,
            workers: std::thread::available_parallelism().map_or(2, |n| n.get()),
            streams: StreamLimits::default(),
            idle_days: DEFAULT_IDLE_DAYS,
            keep_days: None,
            limits: limits::LimitConfig::default(),
            connections: net::ConnectionLimits::default(),
            metrics: true,
            clock_minute_ms: MINUTE_MS,
            origin: None,
            review_workers: service::review::DEFAULT_REVIEW_WORKERS,
            max_queued_reviews: service::review::DEFAULT_MAX_QUEUED,
        }
    }
}

/// The default of [`Config::idle_days`].
pub const DEFAULT_IDLE_DAYS: u32 = 30;

/// The default of [`Config::db_connections`]: the workers' searches hold no connection,
/// and a request holds one for a transaction of a millisecond or so.
pub const DEFAULT_DB_CONNECTIONS: usize = 16;

impl AppState {
    /// Opens the SQLite database of `config` and sets up its workers (a PostgreSQL
    /// database is opened by [`AppState::connect`]).
    ///
    /// ```
    /// let dir = tempfile::tempdir()?;
    /// let config = agon_web::Config { db: dir.path().join("g.sqlite3").into(), ..Default::default() };
    /// let state = agon_web::AppState::open(&config)?;
    /// assert_eq!(state.workers.count(), config.workers);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn open(config: &Config) -> Result<AppState, StoreError> {
        match &config.db {
            Database::Sqlite(path) => Ok(AppState::with_store(config, Store::open(path)?)),
            Database::Postgres(_) => Err(StoreError::Database(
                "a PostgreSQL database is opened with AppState::connect".into(),
            )),
        }
    }

    /// Opens the database of `config`, SQLite or PostgreSQL (applying the migrations it
    /// lacks), and sets up its workers.
    ///
    /// ```
    /// # tokio::runtime::Runtime::new().unwrap().block_on(async {
    /// let dir = tempfile::tempdir().unwrap();
    /// let config = agon_web::Config { db: dir.path().join("g.sqlite3").into(), ..Default::default() };
    /// let state = agon_web::AppState::connect(&config).await.unwrap();
    /// assert!(matches!(*state.store, agon_web::Store::Sqlite(_)));
    /// # });
    /// ```
    pub async fn connect(config: &Config) -> Result<AppState, StoreError> {
        let store = Store::connect(&config.db, config.db_connections).await?;
        Ok(AppState::with_store(config, store))
    }

    /// The state of `config` on an open store.
    ///
    /// ```
    /// let dir = tempfile::tempdir()?;
    /// let config = agon_web::Config { db: dir.path().join("g.sqlite3").into(), ..Default::default() };
    /// let store = agon_web::Store::open(&config.db.to_string().as_ref())?;
    /// let state = agon_web::AppState::with_store(&config, store);
    /// assert_eq!(state.max_plies, agon_web::game::MAX_PLIES);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn with_store(config: &Config, store: Store) -> AppState {
        AppState {
            store: Arc::new(store),
            workers: Arc::new(Workers::new(config.workers)),
            max_plies: game::MAX_PLIES,
            hub: Arc::new(Hub::new(config.streams)),
            timers: Timers::default(),
            clock_minute_ms: config.clock_minute_ms,
            idle_ms: i64::from(config.idle_days) * 86_400_000,
            keep_ms: config.keep_days.map(|days| i64::from(days) * 86_400_000),
            metrics: Arc::new(Metrics::new()),
            metrics_endpoint: config.metrics,
            limits: Arc::new(limits::RateLimits::new(&config.limits)),
            origin: config.origin.clone(),
            lobby: service::lobby_feed::LobbyFeed::new(),
            reviews: Arc::new(service::review::ReviewQueue::new(
                config.review_workers,
                config.max_queued_reviews,
            )),
        }
    }
}

/// The whole application: pages, assets and the API, with the security headers, the rate
/// limits, JSON errors and the metrics.
///
/// ```
/// let dir = tempfile::tempdir()?;
/// let config = agon_web::Config { db: dir.path().join("g.sqlite3").into(), ..Default::default() };
/// let app = agon_web::app(agon_web::AppState::open(&config)?);
/// # let _ = app;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn app(state: AppState) -> Router {
    shared_app(Arc::new(state))
}

/// The app of a state its caller keeps a handle on too (to call the service beside the
/// HTTP API, as the lobby's pairing does: [`service::ratings::create_paired_game`]).
///
/// ```
/// let dir = tempfile::tempdir()?;
/// let config = agon_web::Config { db: dir.path().join("g.sqlite3").into(), ..Default::default() };
/// let state = std::sync::Arc::new(agon_web::AppState::open(&config)?);
/// let _router = agon_web::shared_app(state.clone());
/// assert_eq!(state.max_plies, agon_web::game::MAX_PLIES);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn shared_app(state: Arc<AppState>) -> Router {
    http::router(state)
}

/// Serves `config` until `shutdown` completes.
pub async fn serve(
    config: Config,
    shutdown: impl std::future::Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    let state = AppState::connect(&config)
        .await
        .map_err(std::io::Error::other)?;
    let listener = tokio::net::TcpListener::bind(config.addr).await?;
    let max_connections = config
        .connections
        // The listener of other servers' changes takes a connection on top of the pool.
        .max_connections(net::open_files_limit(), config.db_connections + 1);
    // The address to point a browser at is the origin (localhost for a loopback address):
    // passkeys and the origin check of state-changing requests need that name, not
    // 127.0.0.1. The socket's address comes first, for the scripts that read it.
    let addr = listener.local_addr()?;
    let origin = match &state.origin {
        Some(origin) => origin.clone(),
        None => game::site::SiteOrigin::of_addr(addr),
    };
    println!(
        "agon-web: listening on {addr}: play at {}/ (database {}, at most {max_connections} connections)",
        origin.as_str(),
        state.store.describe()
    );
    let connections = net::ConnectionLimits {
        max_connections: Some(max_connections),
        ..config.connections
    };
    serve_with(listener, state, connections, shutdown).await
}

/// Serves the application on a bound listener until `shutdown` completes, with the
/// default deadlines and cap in all ([`net::ConnectionLimits::default`]) but no cap per
/// address: what tests and the load script use, binding port 0 themselves, whose
/// hundreds of clients all come from 127.0.0.1 (with the streams' cap per address
/// raised to match). See [`serve_with`].
pub async fn serve_on(
    listener: tokio::net::TcpListener,
    state: AppState,
    shutdown: impl std::future::Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    let connections = net::ConnectionLimits {
        max_per_client: usize::MAX,
        ..net::ConnectionLimits::default()
    };
    serve_with(listener, state, connections, shutdown).await
}

/// Serves the application on a bound listener until `shutdown` completes, its
/// connections bounded by `connections` ([`net`]: what [`serve`] does after binding). It
/// also runs the server's own work (the clocks' timers, the pruning of idle games, and
/// with PostgreSQL the listener of the other servers' changes); on shutdown the event
/// streams end, so that the requests under way can finish, and once they have, the
/// server's own work and the clocks' timers stop. Each request knows its peer's address,
/// which the rate limits, the streams' bound and the connections' cap per address key
/// on (the last, not behind a trusted proxy: its connections carry every client's
/// requests).
///
/// ```no_run
/// # #[tokio::main] async fn main() -> Result<(), Box<dyn std::error::Error>> {
/// let config = agon_web::Config::default();
/// let state = agon_web::AppState::connect(&config).await?;
/// let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
/// let short = agon_web::net::ConnectionLimits {
///     idle_timeout: std::time::Duration::from_secs(5),
///     ..Default::default()
/// };
/// agon_web::serve_with(listener, state, short, std::future::pending()).await?;
/// # Ok(()) }
/// ```
pub async fn serve_with(
    listener: tokio::net::TcpListener,
    state: AppState,
    connections: net::ConnectionLimits,
    shutdown: impl std::future::Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    let mut state = state;
    if state.origin.is_none() {
        state.origin = Some(game::site::SiteOrigin::of_addr(listener.local_addr()?));
    }
    let state = Arc::new(state);
    let background = service::timers::start(&state);
    let listener_task = service::notify::start(&state);
    let lobby_task = service::lobby::start(&state);
    let review_tasks = service::review::start(&state);
    let hub = state.hub.clone();
    let own = state.clone();
    let shutdown = async move {
        shutdown.await;
        hub.close();
    };
    // The pool's size is unknown here: `serve` resolves the cap from its configuration.
    let max_total =
        connections.max_connections(net::open_files_limit(), DEFAULT_DB_CONNECTIONS + 1);
    let per_client = (!state.limits.trust_proxy()).then_some(connections.max_per_client);
    let app = net::App {
        metrics: state.metrics.clone(),
        router: http::router(state),
        max_body: http::request::max_body_for,
        security_headers: http::set_security_headers,
    };
    let served = net::serve(listener, app, connections, max_total, per_client, shutdown).await;
    background.abort();
    lobby_task.abort();
    for task in review_tasks {
        task.abort();
    }
    if let Some(task) = listener_task {
        task.abort();
    }
    // Each timer holds the state (the database): none may settle a clock once stopped.
    own.timers.close();
    served
}
