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

pub use store::Database;

use axum::extract::rejection::QueryRejection;
use axum::extract::{DefaultBodyLimit, Query, Request};
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;
use utoipa::OpenApi;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

pub mod api;
mod error;
pub mod events;
pub mod friend;
pub mod health;
mod hub;
pub mod i18n;
mod level;
pub mod limits;
pub mod metrics;
mod notify;
pub mod openapi;
pub mod pages;
pub mod rejections;
mod state;
pub mod store;
mod tasks;
mod workers;

pub use error::{ApiError, ErrorBody, ErrorName};
pub use hub::{Hub, HubEvent, StreamLimits, StreamPermit, Subscription};
pub use i18n::Language;
pub use level::Level;
pub use metrics::Metrics;
use pages::Page;
pub use state::{
    now_ms, rule_option_values, rule_values, side_name, ClockState, GameState, LegalMove,
    OffersState, OutcomeState, PieceState, RuleOption, RulesParts, SeatState, Seats, View,
    MINUTE_MS,
};
pub use store::Store;
pub use tasks::{Timers, PRUNE_EVERY};
pub use workers::{Workers, QUEUE_MS_PER_WORKER};

/// How the server is set up: `--addr`, `--db`, `--db-connections`, `--workers`, `--max-streams`,
/// `--max-streams-per-client`, `--idle-days`, `--keep-days`, the rate limits and `--no-metrics`.
///
/// ```
/// let config = agon_web::Config::default();
/// assert_eq!(config.addr.to_string(), "127.0.0.1:8080");
/// assert_eq!(config.db.to_string(), "agon-web.sqlite3");
/// assert!(config.workers >= 1);
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
    /// Whether `GET /metrics` is served.
    pub metrics: bool,
    /// How long a clock's minute lasts, in milliseconds: 60,000. Only tests and
    /// demonstrations shorten it, to see a clock run out (see
    /// [`AppState::clock_minute_ms`]).
    pub clock_minute_ms: i64,
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
            metrics: true,
            clock_minute_ms: state::MINUTE_MS,
        }
    }
}

/// The default of [`Config::idle_days`].
pub const DEFAULT_IDLE_DAYS: u32 = 30;

/// The default of [`Config::db_connections`]: the workers' searches hold no connection,
/// and a request holds one for a transaction of a millisecond or so.
pub const DEFAULT_DB_CONNECTIONS: usize = 16;

/// What every handler shares: the database, the search workers and the live games.
pub struct AppState {
    /// The games.
    pub store: Arc<Store>,
    /// The bound on the computer's searches.
    pub workers: Arc<Workers>,
    /// The most moves a game may hold (see [`api::MAX_PLIES`]).
    pub max_plies: usize,
    /// The live games: broadcasts to the event streams, presence, the streams' bound.
    pub hub: Arc<Hub>,
    /// The timers of the running clocks.
    pub timers: Timers,
    /// How long a clock's minute lasts, in milliseconds: 60,000, except in tests, which
    /// shorten it to see a clock run out (a game created with `"clock": "1+0"` then has
    /// 1 such minute; the increment is scaled alike).
    pub clock_minute_ms: i64,
    /// How long an unfinished game may go without a change before it is pruned, in
    /// milliseconds.
    pub idle_ms: i64,
    /// How long a finished game is kept after its last change, in milliseconds (`None`:
    /// for good).
    pub keep_ms: Option<i64>,
    /// What the server counts, served at `GET /metrics`.
    pub metrics: Arc<Metrics>,
    /// Whether `GET /metrics` is served.
    pub metrics_endpoint: bool,
    /// The rate limits.
    pub limits: Arc<limits::RateLimits>,
}

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
    pub fn open(config: &Config) -> Result<AppState, ApiError> {
        match &config.db {
            Database::Sqlite(path) => Ok(AppState::with_store(config, Store::open(path)?)),
            Database::Postgres(_) => Err(ApiError::internal(
                "a PostgreSQL database is opened with AppState::connect",
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
    pub async fn connect(config: &Config) -> Result<AppState, ApiError> {
        let store = Store::connect(&config.db, config.db_connections).await?;
        Ok(AppState::with_store(config, store))
    }

    /// The state of `config` on an open store.
    pub fn with_store(config: &Config, store: Store) -> AppState {
        AppState {
            store: Arc::new(store),
            workers: Arc::new(Workers::new(config.workers)),
            max_plies: api::MAX_PLIES,
            hub: Arc::new(Hub::new(config.streams)),
            timers: Timers::default(),
            clock_minute_ms: config.clock_minute_ms,
            idle_ms: i64::from(config.idle_days) * 86_400_000,
            keep_ms: config.keep_days.map(|days| i64::from(days) * 86_400_000),
            metrics: Arc::new(Metrics::new()),
            metrics_endpoint: config.metrics,
            limits: Arc::new(limits::RateLimits::new(&config.limits)),
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
    router(Arc::new(state))
}

/// The JSON API's routes, each from its handler's `#[utoipa::path]` (its method and path),
/// so that the router and the API document ([`openapi::document`]) are the same list.
pub(crate) fn api_routes() -> OpenApiRouter<Arc<AppState>> {
    OpenApiRouter::with_openapi(openapi::ApiDoc::openapi())
        .routes(routes!(api::create))
        .routes(routes!(api::show))
        .routes(routes!(api::play))
        .routes(routes!(api::computer))
        .routes(routes!(api::hint))
        .routes(routes!(api::undo))
        .routes(routes!(api::resign))
        .routes(routes!(api::join))
        .routes(routes!(friend::draw))
        .routes(routes!(friend::takeback))
        .routes(routes!(friend::rematch))
        .routes(routes!(events::events))
        .routes(routes!(api::record))
        .routes(routes!(api::board_svg))
        .routes(routes!(health::health))
        .routes(routes!(openapi::openapi_json))
}

fn router(state: Arc<AppState>) -> Router {
    let (api, _) = api_routes().split_for_parts();
    // The older name of `/api/health`, kept for monitors set up with it; not in the document.
    let api = api.route("/healthz", get(health::health));
    let site = Router::new()
        .route("/", get(game_page))
        .route("/g/{id}", get(game_page))
        .route("/rules", get(rules_page))
        .route("/assets/{*file}", get(pages::asset))
        .route("/i18n/{file}", get(pages::catalogue));
    let site = match state.metrics_endpoint {
        true => site.route("/metrics", get(metrics::endpoint)),
        false => site,
    };
    let (limits, metrics) = (state.limits.clone(), state.metrics.clone());
    api.merge(site)
        .fallback(not_found)
        .method_not_allowed_fallback(method_not_allowed)
        .layer(DefaultBodyLimit::max(api::MAX_BODY))
        .layer(middleware::from_fn_with_state(limits, limits::enforce))
        .layer(middleware::from_fn(rejections::json_errors))
        .layer(middleware::from_fn_with_state(metrics, metrics::track))
        .layer(middleware::from_fn(security_headers))
        .with_state(state)
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
    println!(
        "agon-web: play at http://{}/ (database {})",
        listener.local_addr()?,
        state.store.describe()
    );
    serve_on(listener, state, shutdown).await
}

/// Serves the application on a bound listener until `shutdown` completes (what [`serve`]
/// does after binding; tests and the load script bind port 0 themselves). It also runs
/// the server's own work (the clocks' timers, the pruning of idle games, and with
/// PostgreSQL the listener of the other servers' changes); on shutdown the
/// event streams end, so that the requests under way can finish, and once they have, the
/// server's own work and the clocks' timers stop. Each request knows its
/// peer's address, which the rate limits and the streams' bound key on.
pub async fn serve_on(
    listener: tokio::net::TcpListener,
    state: AppState,
    shutdown: impl std::future::Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    let state = Arc::new(state);
    let background = tasks::start(&state);
    let listener_task = notify::start(&state);
    let hub = state.hub.clone();
    let own = state.clone();
    let shutdown = async move {
        shutdown.await;
        hub.close();
    };
    let served = axum::serve(
        listener,
        router(state).into_make_service_with_connect_info::<SocketAddr>(),
    )
    .with_graceful_shutdown(shutdown)
    .await;
    background.abort();
    if let Some(task) = listener_task {
        task.abort();
    }
    // Each timer holds the state (the database): none may settle a clock once stopped.
    own.timers.close();
    served
}

async fn not_found() -> ApiError {
    ApiError::new(StatusCode::NOT_FOUND, "not-found", "no such page")
}

async fn method_not_allowed() -> ApiError {
    ApiError::new(
        StatusCode::METHOD_NOT_ALLOWED,
        "method-not-allowed",
        "this path does not take this method",
    )
}

/// The policy of every response: scripts, styles and images only from this server, no
/// inline script or style, no framing, no referrer.
pub const CONTENT_SECURITY_POLICY: &str = "default-src 'self'; script-src 'self'; \
    style-src 'self'; img-src 'self' data:; connect-src 'self'; object-src 'none'; \
    base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

async fn security_headers(request: Request, next: Next) -> Response {
    let mut response = next.run(request).await;
    let headers = response.headers_mut();
    let fixed = [
        (header::CONTENT_SECURITY_POLICY, CONTENT_SECURITY_POLICY),
        (header::X_CONTENT_TYPE_OPTIONS, "nosniff"),
        (header::REFERRER_POLICY, "no-referrer"),
        (header::X_FRAME_OPTIONS, "DENY"),
    ];
    for (name, value) in fixed {
        headers.insert(name, HeaderValue::from_static(value));
    }
    if !headers.contains_key(header::CACHE_CONTROL) {
        headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    }
    response
}

#[derive(serde::Deserialize)]
struct LangQuery {
    lang: Option<String>,
}

/// A page's query: `?lang=xx`; one that does not parse is ignored, not refused.
type PageQuery = Result<Query<LangQuery>, QueryRejection>;

fn page_language(query: &PageQuery, headers: &HeaderMap) -> Language {
    let (cookie, accept) = api::language_headers(headers);
    let lang = query.as_ref().ok().and_then(|q| q.lang.as_deref());
    Language::choose(lang, cookie, accept)
}

fn html(body: String) -> Response {
    (
        [
            (header::CONTENT_TYPE, "text/html; charset=utf-8"),
            (header::VARY, "Accept-Language, Cookie"),
        ],
        body,
    )
        .into_response()
}

async fn game_page(query: PageQuery, headers: HeaderMap) -> Response {
    html(Page::Game.render(page_language(&query, &headers)))
}

async fn rules_page(query: PageQuery, headers: HeaderMap) -> Response {
    html(Page::Rules.render(page_language(&query, &headers)))
}
