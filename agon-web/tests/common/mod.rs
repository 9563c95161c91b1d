//! What the integration tests share: a database of either store for each test.
//!
//! PostgreSQL: `AGON_WEB_TEST_PG` (set by `scripts/test.sh`) is the URL of a server the
//! tests must use, and a test fails if it cannot reach it. Without it, each test binary
//! starts its own throwaway server with `scripts/pg.sh` (stopped once the binary exits);
//! where PostgreSQL is not installed, the PostgreSQL half of the tests is skipped with a
//! notice. Every test gets a database of its own (`CREATE DATABASE`).
#![allow(dead_code)]

pub mod online;
pub mod proxy;

use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};

use agon_web::{AppState, Config, Database, Store};
use axum::body::Body;
use axum::http::{header, HeaderMap, Request, StatusCode};
use axum::Router;
use http_body_util::BodyExt;
use serde_json::{json, Value};
use tokio::sync::mpsc;
use tower::ServiceExt;

/// The start position's text, as the rules fix it.
pub const START: &str = "Qf1,Ga5,Gb1,Gd9,Gh9,Gk1,Gl5/qf11,ga2,gb7,gd1,gh1,gk7,gl2 w";
/// Black's queen and two guards are captured, Black to move: the queen returns first.
pub const BLACK_RETURNS: &str = "Qf1,Ga5,Gb1,Gd9,Gh9,Gk1,Gl5/qf7*,ga2*,gb7*,gd1,gh1,gk7,gl2 b";

/// Which store a test runs on.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Backend {
    Sqlite,
    Postgres,
}

/// A test's database, dropped with the test (the SQLite file's directory; a PostgreSQL
/// database stays on the throwaway server until it stops).
pub struct TestDb {
    pub db: Database,
    _dir: tempfile::TempDir,
}

/// The throwaway server of this test binary: its URL (of the `postgres` database), or
/// `None` when PostgreSQL cannot be had here.
fn server_url() -> Option<&'static str> {
    static URL: OnceLock<Option<String>> = OnceLock::new();
    URL.get_or_init(|| {
        if let Ok(url) = std::env::var("AGON_WEB_TEST_PG") {
            return Some(url);
        }
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        let dir = std::env::temp_dir().join(format!("agon-web-pg-{}", std::process::id()));
        let out = std::process::Command::new(root.join("scripts/pg.sh"))
            .arg("start")
            .arg(&dir)
            .arg(std::process::id().to_string())
            .output();
        match out {
            Ok(out) if out.status.success() => {
                Some(String::from_utf8_lossy(&out.stdout).trim().to_string())
            }
            Ok(out) => {
                eprintln!(
                    "NOTICE: no PostgreSQL here ({}): the PostgreSQL tests are skipped",
                    String::from_utf8_lossy(&out.stderr).trim()
                );
                None
            }
            Err(e) => {
                eprintln!("NOTICE: scripts/pg.sh: {e}: the PostgreSQL tests are skipped");
                None
            }
        }
    })
    .as_deref()
}

/// Whether the PostgreSQL half runs; prints why not. With `AGON_WEB_TEST_PG` set it
/// always does (and fails if the server is not there).
pub fn postgres_available() -> bool {
    server_url().is_some()
}

/// Whether PostgreSQL is here for the tests; says that the test is skipped if not.
pub fn postgres_here() -> bool {
    let here = postgres_available();
    if !here {
        eprintln!("NOTICE: skipped: no PostgreSQL");
    }
    here
}

/// A new, empty PostgreSQL database (its URL), or `None` when PostgreSQL is not here (the
/// test is then skipped, with a notice).
pub async fn postgres_database_here() -> Option<String> {
    if postgres_here() {
        Some(postgres_database().await)
    } else {
        None
    }
}

/// A new, empty PostgreSQL database on the test server: its URL.
pub async fn postgres_database() -> String {
    let url = server_url().expect("PostgreSQL for the tests (AGON_WEB_TEST_PG or scripts/pg.sh)");
    let (client, connection) = tokio_postgres::connect(url, tokio_postgres::NoTls)
        .await
        .unwrap_or_else(|e| panic!("the test PostgreSQL at {url}: {e}"));
    let driver = tokio::spawn(connection);
    let name = format!("agon_test_{:016x}", rand_u64());
    client
        .batch_execute(&format!("CREATE DATABASE {name}"))
        .await
        .unwrap();
    drop(client);
    let _ = driver.await;
    let base = url.rsplit_once('/').map_or(url, |(base, _)| base);
    format!("{base}/{name}")
}

/// A client of the PostgreSQL database at `url`, its connection driven by a task of its
/// own: to read or cut what the servers under test write.
pub async fn pg_client(url: &str) -> tokio_postgres::Client {
    let (client, connection) = tokio_postgres::connect(url, tokio_postgres::NoTls)
        .await
        .unwrap_or_else(|e| panic!("PostgreSQL at {url}: {e}"));
    tokio::spawn(connection);
    client
}

fn rand_u64() -> u64 {
    let mut bytes = [0u8; 8];
    getrandom::fill(&mut bytes).unwrap();
    u64::from_le_bytes(bytes)
}

/// A new, empty database of `backend`.
pub async fn database(backend: Backend) -> TestDb {
    let dir = tempfile::tempdir().unwrap();
    let db = match backend {
        Backend::Sqlite => Database::Sqlite(dir.path().join("games.sqlite3")),
        Backend::Postgres => Database::Postgres(postgres_database().await),
    };
    TestDb { db, _dir: dir }
}

/// The directory of a test's files (logs, the SQLite file).
impl TestDb {
    pub fn dir(&self) -> PathBuf {
        self._dir.path().to_path_buf()
    }
}

/// The app's state on a new database of `backend`, from `config` (whose `db` is set).
pub async fn state(backend: Backend, config: Config) -> (AppState, TestDb) {
    let db = database(backend).await;
    let config = Config {
        db: db.db.clone(),
        ..config
    };
    (AppState::connect(&config).await.unwrap(), db)
}

/// A database of `backend` made as the servers of an older schema made it (SQLite's
/// version `sqlite`, PostgreSQL's `pg`), with the game `0123456789abcdef` (a move made)
/// written as they wrote it: `columns` and `values` are its row's columns beyond the
/// first ones (empty, or beginning with a comma). What a test of a migration opens.
pub async fn older_database(
    backend: Backend,
    (sqlite, pg): (i64, i64),
    columns: &str,
    values: &str,
) -> TestDb {
    let db = database(backend).await;
    // A token's digest: 32 bytes, in each dialect's literal.
    let zeros = "00".repeat(32);
    let (old, blob) = match backend {
        Backend::Sqlite => (
            agon_web::store::SqliteStore::schema_sql(sqlite).unwrap(),
            format!("X'{zeros}'"),
        ),
        Backend::Postgres => (
            agon_web::store::PgStore::schema_sql(pg).unwrap(),
            format!("'\\x{zeros}'"),
        ),
    };
    let start = agon_core::Position::start().to_text().to_string();
    let values = values.replace("{blob}", &blob);
    let game = format!(
        "INSERT INTO games (id, token_sha256, human, level, start, seed, created_unix, version{columns})
         VALUES ('0123456789abcdef', {blob}, 'white', 'easy', '{start}', 7, 1700000000, 1{values});
         INSERT INTO moves (game_id, ply, move, at_ms) VALUES ('0123456789abcdef', 0, 'f1-e1', 5);"
    );
    match &db.db {
        Database::Sqlite(path) => {
            let conn = rusqlite::Connection::open(path).unwrap();
            conn.execute_batch(&old).unwrap();
            conn.execute_batch(&game).unwrap();
        }
        Database::Postgres(url) => {
            let client = pg_client(url).await;
            client.batch_execute(&old).await.unwrap();
            client.batch_execute(&game).await.unwrap();
        }
    }
    db
}

/// Runs one SQL statement with no parameters on either store (a test setting up what no
/// request can, like a game untouched for a month).
pub async fn execute(store: &Store, sql: &str) {
    match store {
        Store::Sqlite(s) => {
            let sql = sql.to_string();
            s.transaction(move |tx| Ok(tx.execute_batch(&sql)?))
                .unwrap();
        }
        Store::Postgres(p) => {
            p.pool()
                .get()
                .await
                .unwrap()
                .batch_execute(sql)
                .await
                .unwrap();
        }
    }
}

/// Declares each test (an `async fn NAME(b: Backend)` of the file) twice: `sqlite::NAME`
/// and `postgres::NAME`; the latter is skipped with a notice where PostgreSQL is not
/// installed and `AGON_WEB_TEST_PG` is not set.
#[macro_export]
macro_rules! both_stores {
    ($flavor:tt; $($name:ident),* $(,)?) => {
        mod sqlite {
            $(
                #[tokio::test $flavor]
                async fn $name() {
                    super::$name($crate::common::Backend::Sqlite).await
                }
            )*
        }
        mod postgres {
            $(
                #[tokio::test $flavor]
                async fn $name() {
                    if !$crate::common::postgres_available() {
                        eprintln!("NOTICE: {} skipped: no PostgreSQL", stringify!($name));
                        return;
                    }
                    super::$name($crate::common::Backend::Postgres).await
                }
            )*
        }
    };
}

/// One event of a stream. A `change` event comes as the `state` it gives applied to the
/// stream's state before it (`kind` says which it was; `change` its own data).
#[derive(Clone, Debug)]
pub struct Sse {
    pub event: String,
    pub id: Option<i64>,
    pub data: Value,
    /// The event's name as sent: `state`, `change`, `presence`.
    pub kind: String,
    /// A `change` event's own data.
    pub change: Option<Value>,
}

/// `state` after the `change` event `change`, as the page's change.js makes it: `None`
/// when it does not apply (another base version, more moves kept than there are).
pub fn apply_change(state: &Value, change: &Value) -> Option<Value> {
    if state["version"] != change["base"] {
        return None;
    }
    let keep = usize::try_from(change["keep"].as_u64()?).ok()?;
    let mut moves = state["moves"].as_array()?.clone();
    if keep > moves.len() {
        return None;
    }
    moves.truncate(keep);
    moves.extend(change["added"].as_array()?.iter().cloned());
    let mut next = state.clone();
    let fields = next.as_object_mut()?;
    for (name, value) in change.as_object()? {
        // A null board: the page's drawing stays.
        let skip = matches!(name.as_str(), "base" | "keep" | "added")
            || (name == "svg" && value.is_null());
        if !skip {
            fields.insert(name.clone(), value.clone());
        }
    }
    fields.insert("moves".into(), Value::Array(moves));
    Some(next)
}

/// An open event stream, read by a task into a channel; dropping it closes the
/// connection.
pub struct Stream {
    pub events: mpsc::UnboundedReceiver<Sse>,
    task: tokio::task::JoinHandle<()>,
}

impl Drop for Stream {
    fn drop(&mut self) {
        self.task.abort();
    }
}

impl Stream {
    /// The next event of this kind (others are skipped), within 5 s.
    pub async fn next(&mut self, kind: &str) -> Sse {
        loop {
            let event = tokio::time::timeout(Duration::from_secs(5), self.events.recv())
                .await
                .unwrap_or_else(|_| panic!("no {kind} event within 5 s"))
                .expect("the stream ended");
            if event.event == kind {
                return event;
            }
        }
    }

    /// Every `state` event until (and with) version `version`.
    pub async fn states_until(&mut self, version: i64) -> Vec<Sse> {
        let mut states = Vec::new();
        loop {
            let event = self.next("state").await;
            let v = event.id.unwrap();
            states.push(event);
            if v >= version {
                return states;
            }
        }
    }

    /// Asserts that no `state` event comes within `ms`.
    pub async fn quiet(&mut self, ms: u64) {
        let deadline = tokio::time::Instant::now() + Duration::from_millis(ms);
        while let Ok(Some(event)) = tokio::time::timeout_at(deadline, self.events.recv()).await {
            assert_ne!(event.event, "state", "unexpected {event:?}");
        }
    }
}

/// Reads the events of an open stream (`200 text/event-stream`) in a task.
pub fn read_events(response: reqwest::Response) -> Stream {
    read_events_from(response, None)
}

/// Reads the events of an open stream in a task, its `change` events applied to `page`
/// (the state the page had when it opened the stream) and then to each state after it. A
/// change that does not apply comes as its own data.
pub fn read_events_from(mut response: reqwest::Response, page: Option<Value>) -> Stream {
    assert_eq!(
        response.headers()["content-type"].to_str().unwrap(),
        "text/event-stream"
    );
    let (tx, events) = mpsc::unbounded_channel();
    let task = tokio::spawn(async move {
        let mut buffer = String::new();
        // The state the page has: what a `change` applies to.
        let mut current: Option<Value> = page;
        while let Ok(Some(chunk)) = response.chunk().await {
            buffer.push_str(std::str::from_utf8(&chunk).unwrap());
            while let Some(end) = buffer.find("\n\n") {
                let block: String = buffer.drain(..end + 2).collect();
                let (mut event, mut id, mut data) = (String::new(), None, String::new());
                for line in block.lines() {
                    if let Some(v) = line.strip_prefix("event:") {
                        event = v.trim().to_string();
                    } else if let Some(v) = line.strip_prefix("id:") {
                        id = Some(v.trim().parse().unwrap());
                    } else if let Some(v) = line.strip_prefix("data:") {
                        data.push_str(v.trim_start());
                    }
                }
                if event.is_empty() {
                    continue; // a keep-alive comment
                }
                let data: Value = serde_json::from_str(&data).unwrap();
                let kind = event.clone();
                let (event, data, change) = match kind.as_str() {
                    "state" => {
                        current = Some(data.clone());
                        (event, data, None)
                    }
                    "change" => {
                        let after = current.as_ref().and_then(|c| apply_change(c, &data));
                        current.clone_from(&after);
                        let shown = after.unwrap_or_else(|| data.clone());
                        ("state".to_string(), shown, Some(data))
                    }
                    _ => (event, data, None),
                };
                let sse = Sse {
                    event,
                    id,
                    data,
                    kind,
                    change,
                };
                if tx.send(sse).is_err() {
                    return;
                }
            }
        }
    });
    Stream { events, task }
}

/// A real server process (the `agon-web` binary) on a free loopback port.
pub struct Process {
    pub child: Child,
    pub base: String,
    pub log: std::path::PathBuf,
}

impl Process {
    /// Starts it on `db`, its output in a log file beside a SQLite file, else in the
    /// temporary directory.
    pub fn start(db: &Database) -> Process {
        Process::start_with(db, &[], &[])
    }

    /// Starts it on `db` with more arguments and environment variables.
    pub fn start_with(db: &Database, args: &[&str], env: &[(&str, &str)]) -> Process {
        // A free loopback port: bound by the OS, released, then taken by the server.
        let port = TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        // Everything the server prints goes to a file, read at the end.
        let log = match db {
            Database::Sqlite(path) => path.with_extension(format!("{port}.log")),
            Database::Postgres(_) => std::env::temp_dir().join(format!("agon-web-{port}.log")),
        };
        let out = std::fs::File::create(&log).unwrap();
        let child = Command::new(env!("CARGO_BIN_EXE_agon-web"))
            .args(["--addr", &format!("127.0.0.1:{port}"), "--workers", "2"])
            .arg("--db")
            .arg(match db {
                Database::Sqlite(path) => path.as_os_str().to_owned(),
                Database::Postgres(url) => url.into(),
            })
            // Every request of a test comes from 127.0.0.1.
            .args(["--create-limit", "off", "--action-limit", "off"])
            .args(args)
            .envs(env.iter().copied())
            .stdout(Stdio::from(out.try_clone().unwrap()))
            .stderr(Stdio::from(out))
            .spawn()
            .unwrap();
        Process {
            child,
            base: format!("http://127.0.0.1:{port}"),
            log,
        }
    }

    pub async fn wait_ready(&mut self, client: &reqwest::Client) {
        let deadline = Instant::now() + Duration::from_secs(30);
        while Instant::now() < deadline {
            if let Ok(Some(status)) = self.child.try_wait() {
                let log = std::fs::read_to_string(&self.log).unwrap_or_default();
                panic!("the server stopped ({status}): {log}");
            }
            if let Ok(r) = client.get(format!("{}/healthz", self.base)).send().await {
                if r.status() == 200 {
                    return;
                }
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        let log = std::fs::read_to_string(&self.log).unwrap_or_default();
        panic!("the server did not answer /healthz within 30 s: {log}");
    }

    pub fn kill(&mut self) {
        // std's kill() sends SIGKILL on Unix: no shutdown code runs.
        self.child.kill().unwrap();
        self.child.wait().unwrap();
    }
}

impl Drop for Process {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        // The log is kept for a failed test only (a SQLite server's lies in the database's
        // directory, removed with it).
        if !std::thread::panicking() {
            let _ = std::fs::remove_file(&self.log);
        }
    }
}

/// The strings of a JSON array (moves, legal moves).
pub fn strings(v: &Value) -> Vec<String> {
    v.as_array()
        .unwrap_or_else(|| panic!("not an array: {v}"))
        .iter()
        .map(|m| m.as_str().unwrap().to_string())
        .collect()
}

/// A legal move of `state`, drawn with `rng` (the first legal move each time would repeat
/// the position).
pub fn random_legal(state: &Value, rng: &mut agon_core::random::Rng) -> String {
    let legal = strings(&state["legal_moves"]);
    legal[rng.below(legal.len())].clone()
}

/// The side that chooses the next action in `state`: 0 White, 1 Black (an index into the
/// seats' `[white, black]`).
pub fn chooser(state: &Value) -> usize {
    usize::from(state["chooser"] == "black")
}

/// An answer of the in-process app (`tower::ServiceExt::oneshot`), read whole.
pub struct Answer {
    pub status: StatusCode,
    pub headers: HeaderMap,
    pub text: String,
}

impl Answer {
    /// The body as JSON.
    pub fn json(&self) -> Value {
        serde_json::from_str(&self.text).unwrap_or_else(|e| panic!("not JSON ({e}): {}", self.text))
    }

    /// The body as JSON, of a successful answer.
    pub fn ok(&self) -> Value {
        assert!(self.status.is_success(), "{} {}", self.status, self.text);
        self.json()
    }

    /// Checks that the answer is the JSON error `name` with `status` and a message.
    pub fn error(&self, status: u16, name: &str) {
        // A page's worth of an unexpected answer (an HTML page, an SVG) is enough to see it.
        let text: String = self.text.chars().take(300).collect();
        assert_eq!(self.status.as_u16(), status, "expected {name}: {text}");
        assert_eq!(
            self.headers[header::CONTENT_TYPE],
            "application/json",
            "errors are JSON"
        );
        let body = self.json();
        assert_eq!(body["error"], name, "{}", self.text);
        assert!(
            body["message"].as_str().is_some_and(|m| !m.is_empty()),
            "{}",
            self.text
        );
    }
}

/// The app in process on a test database, with its store: what the API tests ask.
pub struct Api {
    pub app: Router,
    pub store: Arc<Store>,
    _db: TestDb,
}

impl Api {
    /// The app of `state`, on `db` (kept until the test ends).
    pub fn new(state: AppState, db: TestDb) -> Api {
        Api {
            store: state.store.clone(),
            app: agon_web::app(state),
            _db: db,
        }
    }

    pub async fn request(&self, request: Request<Body>) -> Answer {
        send(&self.app, request).await
    }

    pub async fn get(&self, uri: &str) -> Answer {
        self.request(Request::get(uri).body(Body::empty()).unwrap())
            .await
    }

    pub async fn post_raw(&self, uri: &str, content_type: &str, body: impl Into<Body>) -> Answer {
        self.request(
            Request::post(uri)
                .header(header::CONTENT_TYPE, content_type)
                .body(body.into())
                .unwrap(),
        )
        .await
    }

    pub async fn post(&self, uri: &str, body: Value) -> Answer {
        self.post_raw(uri, "application/json", body.to_string())
            .await
    }

    /// Creates a game; answers (id, token, state).
    pub async fn create(&self, body: Value) -> (String, String, Value) {
        let answer = self.post("/api/games", body).await;
        assert_eq!(answer.status, StatusCode::CREATED, "{}", answer.text);
        let body = answer.json();
        (
            body["id"].as_str().unwrap().to_string(),
            body["token"].as_str().unwrap().to_string(),
            body["state"].clone(),
        )
    }

    /// The game's state, which must be answered `200`.
    pub async fn state(&self, id: &str) -> Value {
        let answer = self.get(&format!("/api/games/{id}")).await;
        assert_eq!(answer.status, StatusCode::OK, "{}", answer.text);
        answer.json()
    }

    /// The game's record (`GET /api/games/{id}/record`), read back by agon-core.
    pub async fn record(&self, id: &str) -> agon_core::Record {
        let answer = self.get(&format!("/api/games/{id}/record")).await;
        assert_eq!(answer.status, StatusCode::OK, "{}", answer.text);
        answer.text.parse().unwrap()
    }

    /// Checks that game `id` is still as `before` (a refused request changed nothing).
    pub async fn unchanged(&self, id: &str, before: &Value) {
        assert_eq!(
            &self.state(id).await,
            before,
            "a refused request changed the game"
        );
    }

    /// `POST /api/games/{id}/moves`, the computer replying if `reply`.
    pub async fn play(&self, id: &str, token: &str, m: &str, reply: bool) -> Answer {
        self.post(
            &format!("/api/games/{id}/moves"),
            json!({"token": token, "move": m, "reply": reply}),
        )
        .await
    }

    /// `POST /api/games/{id}/{action}` with `{"token": token}` (computer, undo, resign).
    pub async fn act(&self, id: &str, action: &str, token: &str) -> Answer {
        self.post(
            &format!("/api/games/{id}/{action}"),
            json!({"token": token}),
        )
        .await
    }
}

/// Sends `request` to `app`.
pub async fn send(app: &Router, request: Request<Body>) -> Answer {
    let response = app.clone().oneshot(request).await.unwrap();
    let status = response.status();
    let headers = response.headers().clone();
    let bytes = response.into_body().collect().await.unwrap().to_bytes();
    Answer {
        status,
        headers,
        text: String::from_utf8_lossy(&bytes).into_owned(),
    }
}

/// `GET uri`.
pub async fn get_uri(app: &Router, uri: &str) -> Answer {
    send(app, Request::get(uri).body(Body::empty()).unwrap()).await
}

/// `POST uri` with a body of `content_type`.
pub async fn post(app: &Router, uri: &str, content_type: &str, body: &str) -> Answer {
    let request = Request::post(uri)
        .header(header::CONTENT_TYPE, content_type)
        .body(Body::from(body.to_string()))
        .unwrap();
    send(app, request).await
}

/// `POST url` with a JSON body: the status and the JSON answer.
pub async fn post_json(client: &reqwest::Client, url: String, body: Value) -> (u16, Value) {
    let r = client.post(url).json(&body).send().await.unwrap();
    (r.status().as_u16(), r.json().await.unwrap())
}

/// `POST url`, which must answer `200`: the JSON answer.
pub async fn post_ok(client: &reqwest::Client, url: String, body: Value) -> Value {
    let (status, value) = post_json(client, url, body).await;
    assert_eq!(status, 200, "{value}");
    value
}

/// `GET url`, which must answer `200`: the JSON answer.
pub async fn get_ok(client: &reqwest::Client, url: String) -> Value {
    let r = client.get(url).send().await.unwrap();
    assert_eq!(r.status(), 200);
    r.json().await.unwrap()
}

/// A friend game with `clock` (`none`, `5+3`, ...) created on `a` (White) and joined on
/// `b` (Black): (id, white's token, black's token, the state).
pub async fn friend_game(
    client: &reqwest::Client,
    a: &str,
    b: &str,
    clock: &str,
) -> (String, String, String, Value) {
    let (status, created) = post_json(
        client,
        format!("{a}/api/games"),
        json!({"opponent": "friend", "side": "white", "clock": clock}),
    )
    .await;
    assert_eq!(status, 201, "{created}");
    let id = created["id"].as_str().unwrap().to_string();
    let joined = post_ok(client, format!("{b}/api/games/{id}/join"), json!({})).await;
    let tokens = [&created, &joined].map(|v| v["token"].as_str().unwrap().to_string());
    let [white, black] = tokens;
    (id, white, black, joined["state"].clone())
}

/// Game `id`'s event stream on `base` (from after version `last`), or `None` if it is not
/// served.
pub async fn stream(
    client: &reqwest::Client,
    base: &str,
    id: &str,
    last: Option<i64>,
) -> Option<Stream> {
    let mut request = client.get(format!("{base}/api/games/{id}/events"));
    if let Some(last) = last {
        request = request.header("Last-Event-ID", last.to_string());
    }
    let response = request.send().await.ok()?;
    (response.status() == 200).then(|| read_events(response))
}

/// One page: a game's event stream on a server, reopened (`Last-Event-ID`) on the other
/// of `bases` when it ends or is refused (its server gone, as a proxy would send the page
/// elsewhere), until `done` is set. Answers every version it received.
pub async fn page(
    client: reqwest::Client,
    bases: [String; 2],
    mut server: usize,
    id: String,
    done: Arc<AtomicUsize>,
) -> Vec<i64> {
    let mut versions: Vec<i64> = Vec::new();
    while done.load(Ordering::SeqCst) == 0 {
        let last = versions.last().copied();
        let Some(mut events) = stream(&client, &bases[server], &id, last).await else {
            server = 1 - server;
            tokio::time::sleep(Duration::from_millis(50)).await;
            continue;
        };
        loop {
            let next = tokio::time::timeout(Duration::from_millis(200), events.events.recv()).await;
            match next {
                Ok(Some(event)) if event.event == "state" => versions.push(event.id.unwrap()),
                Ok(Some(_)) => {}
                // The stream ended.
                Ok(None) => {
                    server = 1 - server;
                    break;
                }
                Err(_) if done.load(Ordering::SeqCst) > 0 => break,
                Err(_) => {}
            }
        }
    }
    versions
}
