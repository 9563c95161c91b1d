//! Load test of the web game: many simulated players at once, each playing complete games
//! against the easy level through the HTTP API, on loopback only.
//!
//! ```sh
//! cargo run --release -p agon-web --example load -- --players 200 --games 2 --seconds 120
//! ```
//!
//! It starts the server as a child process on a free loopback port with a new database (or
//! uses `--url http://127.0.0.1:PORT --db FILE` of a server started by hand, with its rate
//! limits off: `--create-limit off --create-global off --action-limit off
//! --action-global off`, since every player comes from one address), runs the
//! players, then prints requests per second, the latency of move requests (p50, p99,
//! max), the errors (must be 0), and checks every game in the database against a replay
//! through agon-core and against what its player last saw (a lost move shows there).
//! Bounded: each player plays `--games` games, and nothing runs past `--seconds`.
//!
//! Like people, the simulated players think before each move: a random time from 0 to
//! twice `--think-ms` (default 500 ms). `--think-ms 0` sends moves back to back, which
//! measures the most the server can do rather than the latency a player sees.
//!
//! `--servers N` runs N servers on one PostgreSQL database (a throwaway one started with
//! `scripts/pg.sh`, or `--pg URL`) and spreads the players over them: each player's
//! requests go to one server (player `i` to server `i mod N`), and the two people of a
//! friend game are on different servers, so every move reaches the opponent through the
//! database's notifications. Each server is its own process (this example started again
//! with `--serve`, which runs `agon_web::serve_on` as the `agon-web` binary does), so the
//! servers share nothing but the database, and the clients' work is not counted in a
//! server's memory. `--pg URL` with `--servers 1` measures one server on PostgreSQL.
//!
//! ```sh
//! cargo run --release -p agon-web --example load -- --servers 2 --players 200 --seconds 60
//! cargo run --release -p agon-web --example load -- --servers 2 --friends 100 --think-ms 250
//! ```
//!
//! `--friends N` plays N games between two simulated people instead, each with its own
//! event stream (`GET /api/games/{id}/events`, as the page's `EventSource`):
//!
//! ```sh
//! cargo run --release -p agon-web --example load -- --friends 100 --think-ms 100 --seconds 60
//! ```
//!
//! Each player moves when its stream says it is its turn; the example reports the latency
//! from the start of a move's request to the opponent's stream delivering that version
//! (p50, p99, max), the versions each stream lost or got twice (both must be 0), replays
//! every game of the database through agon-core against what its players saw, and
//! prints each server process's memory (`VmRSS` and `VmHWM` of `/proc/PID/status`).
//!
//! `--lobby-bots B --lobby-people P` meets strangers in the lobby instead (issue 33):
//!
//! ```sh
//! cargo run --release -p agon-web --example load -- --lobby-bots 100 --lobby-people 100 --think-ms 250 --seconds 120
//! cargo run --release -p agon-web --example load -- --servers 2 --lobby-bots 100 --lobby-people 100 --think-ms 250
//! ```
//!
//! Each client has its own loopback address (127.1.x.y), so the lobby's bound on open
//! seeks per address (6) sees 200 clients, not one; the rate limits are off as above.
//! The accounts are made in the database, as the tests make them (an account is made by a
//! passkey's ceremony, for which a load test has no authenticator), each with a session;
//! each bot's account is then made a bot's and given an API token through the API, as
//! its owner would (`POST /api/account/bot`, `POST /api/account/tokens`).
//!
//! - **People** (half signed in, half guests) come over the first `--arrive-ms` (default
//!   5000; 0: all at once), open the lobby's stream
//!   (`GET /api/lobby/events`) and press quick pairing (`POST /api/lobby/quick`, 5+3;
//!   rated when signed in, casual as guests must; pressed again after a `409 conflict`,
//!   "the lobby is busy", which is counted), play the game it gives through the
//!   game API (the seat's cookie, the game's event stream, `POST .../moves`), and press
//!   again after it, until `--seconds`.
//! - **Bots** open the Bot API's event stream, post an open seek (`POST /api/bot/seek`,
//!   5+3, every other one rated), play each game its `gameStart` announces on the Bot
//!   API's game stream (`POST /api/bot/game/{id}/move/{move}`), and seek again when it
//!   ends. One bot in ten also challenges the next bot (casual: bots meet bots only by a
//!   challenge, which the other accepts through the Bot API).
//!
//! Every player moves a random legal move after 0 to 2 `--think-ms` when its stream shows
//! its turn, and resigns at a random ply from 20 to 300 if the game lasts that long. It
//! prints the pairing times (p50, p99, max): a person's press when an opponent waits, to
//! the answer that starts the game; the other's press to the waiting side's start event
//! (a person's lobby stream, a bot's `gameStart`); the move-to-opponent latency (a move's
//! request to the opponent's stream delivering it) by mover and receiver, person or bot;
//! the versions lost or delivered twice, the errors; replays every game through agon-core
//! against what each of its two sides last saw; and each server's memory.

mod common;

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use agon_core::random::Rng;
use agon_core::{Game, Move, Position};
use agon_web::Database;
use common::Server;
use serde_json::{json, Value};

struct Options {
    players: usize,
    games: usize,
    seconds: u64,
    url: Option<String>,
    db: Option<std::path::PathBuf>,
    workers: usize,
    think_ms: u64,
    friends: usize,
    servers: usize,
    pg: Option<String>,
    lobby_bots: usize,
    lobby_people: usize,
    arrive_ms: u64,
}

fn options() -> Options {
    let mut o = Options {
        players: 200,
        games: 2,
        seconds: 120,
        url: None,
        db: None,
        workers: 2,
        think_ms: 500,
        friends: 0,
        servers: 1,
        pg: None,
        lobby_bots: 0,
        lobby_people: 0,
        arrive_ms: 5000,
    };
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut i = 0;
    while i < args.len() {
        let value = args.get(i + 1).cloned().unwrap_or_default();
        let number = || -> usize {
            value.parse().unwrap_or_else(|_| {
                eprintln!("{} takes a number, not {value:?}", args[i]);
                std::process::exit(2)
            })
        };
        match args[i].as_str() {
            "--players" => o.players = number().clamp(1, 2000),
            "--games" => o.games = number().clamp(1, 1000),
            "--seconds" => o.seconds = number().clamp(1, 3600) as u64,
            "--workers" => o.workers = number().clamp(1, 64),
            "--think-ms" => o.think_ms = number().clamp(0, 60_000) as u64,
            "--friends" => o.friends = number().clamp(1, 2000),
            "--servers" => o.servers = number().clamp(1, 16),
            "--pg" => o.pg = Some(value),
            "--lobby-bots" => o.lobby_bots = number().clamp(0, 2000),
            "--lobby-people" => o.lobby_people = number().clamp(0, 2000),
            "--arrive-ms" => o.arrive_ms = number().clamp(0, 600_000) as u64,
            "--url" => o.url = Some(value),
            "--db" => o.db = Some(value.into()),
            other => {
                eprintln!("unknown argument {other:?}: see the example's docs");
                std::process::exit(2)
            }
        }
        i += 2;
    }
    if let Some(url) = &o.url {
        let host = url.trim_start_matches("http://").split(['/', ':']).next();
        if !matches!(host, Some("127.0.0.1" | "localhost" | "[")) {
            eprintln!("--url must be a loopback address (127.0.0.1 or localhost)");
            std::process::exit(2)
        }
    }
    o
}

#[derive(Default)]
struct Tally {
    requests: AtomicU64,
    errors: AtomicU64,
    busy: AtomicU64,
    games_finished: AtomicU64,
    move_latencies_us: Mutex<Vec<u64>>,
    /// (game id, the moves its player last saw, finished).
    games: Mutex<Vec<(String, Vec<String>, bool)>>,
}

/// One request, retried after `Retry-After` on 503 (counted as busy, not as an error).
async fn post(client: &reqwest::Client, tally: &Tally, url: &str, body: &Value) -> Option<Value> {
    loop {
        tally.requests.fetch_add(1, Ordering::Relaxed);
        let response = match client.post(url).json(body).send().await {
            Ok(r) => r,
            Err(e) => {
                eprintln!("request failed: {e}");
                tally.errors.fetch_add(1, Ordering::Relaxed);
                return None;
            }
        };
        let status = response.status();
        if status == 503 {
            tally.busy.fetch_add(1, Ordering::Relaxed);
            tokio::time::sleep(Duration::from_millis(200)).await;
            continue;
        }
        if !status.is_success() {
            let text = response.text().await.unwrap_or_default();
            eprintln!("{url}: {status} {text}");
            tally.errors.fetch_add(1, Ordering::Relaxed);
            return None;
        }
        return response.json().await.ok();
    }
}

fn strings(v: &Value) -> Vec<String> {
    v.as_array()
        .map(|a| {
            a.iter()
                .filter_map(|m| m.as_str().map(String::from))
                .collect()
        })
        .unwrap_or_default()
}

async fn player(n: usize, base: String, o: Arc<Options>, tally: Arc<Tally>, stop: Instant) {
    // base: this player's server.
    let client = reqwest::Client::new();
    let mut rng = Rng::new(n as u64 + 1);
    for _ in 0..o.games {
        if Instant::now() >= stop {
            return;
        }
        let side = if rng.below(2) == 0 { "white" } else { "black" };
        let Some(created) = post(
            &client,
            &tally,
            &format!("{base}/api/games"),
            &json!({"side": side, "level": "easy"}),
        )
        .await
        else {
            return;
        };
        let id = created["id"].as_str().unwrap_or_default().to_string();
        let token = created["token"].clone();
        let mut state = created["state"].clone();
        let url = format!("{base}/api/games/{id}/moves");
        let computer = format!("{base}/api/games/{id}/computer");
        while state["outcome"].is_null() && Instant::now() < stop {
            let legal = strings(&state["legal_moves"]);
            if legal.is_empty() {
                break;
            }
            let m = &legal[rng.below(legal.len())];
            if o.think_ms > 0 {
                let think = rng.below(2 * o.think_ms as usize + 1) as u64;
                tokio::time::sleep(Duration::from_millis(think)).await;
            }
            let started = Instant::now();
            let Some(mut next) =
                post(&client, &tally, &url, &json!({"token": token, "move": m})).await
            else {
                return;
            };
            // A busy server keeps the move and leaves the reply to be asked for, as the
            // page does.
            while next["computer_to_move"] == true {
                let Some(after) = post(&client, &tally, &computer, &json!({"token": token})).await
                else {
                    return;
                };
                next = after;
            }
            let micros = started.elapsed().as_micros() as u64;
            tally.move_latencies_us.lock().unwrap().push(micros);
            state = next;
        }
        let finished = !state["outcome"].is_null();
        if finished {
            tally.games_finished.fetch_add(1, Ordering::Relaxed);
        }
        tally
            .games
            .lock()
            .unwrap()
            .push((id, strings(&state["moves"]), finished));
    }
}

/// `COUNT p50_ms=.. p99_ms=.. max_ms=..` of the latencies (microseconds) collected so far.
fn latency_figures(latencies_us: &Mutex<Vec<u64>>) -> String {
    let mut sorted = std::mem::take(&mut *latencies_us.lock().unwrap());
    sorted.sort_unstable();
    format!(
        "{} p50_ms={:.2} p99_ms={:.2} max_ms={:.2}",
        sorted.len(),
        percentile(&sorted, 50.0),
        percentile(&sorted, 99.0),
        sorted.last().copied().unwrap_or(0) as f64 / 1000.0
    )
}

fn percentile(sorted: &[u64], p: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let rank = ((p / 100.0) * (sorted.len() - 1) as f64).round() as usize;
    sorted[rank] as f64 / 1000.0
}

/// The start position and the stored moves of game `id`, read with the database's own
/// client (not through agon-web).
fn stored_game(
    db: &Database,
    id: &str,
    runtime: &tokio::runtime::Runtime,
) -> (String, Vec<String>) {
    match db {
        Database::Sqlite(path) => {
            let conn = rusqlite::Connection::open(path).expect("open the database");
            let start: String = conn
                .query_row("SELECT start FROM games WHERE id = ?1", [id], |r| r.get(0))
                .expect("the game is in the database");
            let mut stmt = conn
                .prepare("SELECT move FROM moves WHERE game_id = ?1 ORDER BY ply")
                .unwrap();
            let moves = stmt
                .query_map([id], |r| r.get(0))
                .unwrap()
                .map(Result::unwrap)
                .collect();
            (start, moves)
        }
        Database::Postgres(url) => runtime.block_on(async {
            let (client, connection) = tokio_postgres::connect(url, tokio_postgres::NoTls)
                .await
                .expect("connect to the database");
            let driver = tokio::spawn(connection);
            let start: String = client
                .query_one("SELECT start FROM games WHERE id = $1", &[&id])
                .await
                .expect("the game is in the database")
                .get(0);
            let moves = client
                .query(
                    "SELECT move FROM moves WHERE game_id = $1 ORDER BY ply",
                    &[&id],
                )
                .await
                .unwrap()
                .iter()
                .map(|r| r.get(0))
                .collect();
            drop(client);
            let _ = driver.await;
            (start, moves)
        }),
    }
}

/// Replays every game of the database through agon-core and compares it with what its
/// player last saw. Answers (games checked, mismatches).
fn check_database(
    o: &Options,
    db: &Database,
    seen: &Mutex<Vec<(String, Vec<String>, bool)>>,
    runtime: &tokio::runtime::Runtime,
) -> (usize, usize) {
    if o.url.is_some() && o.db.is_none() && o.pg.is_none() {
        println!("database not checked: give --db or --pg with --url");
        return (0, 0);
    }
    let seen = std::mem::take(&mut *seen.lock().unwrap());
    let mut mismatches = 0;
    for (id, moves_seen, finished) in &seen {
        let (start, stored) = stored_game(db, id, runtime);
        let mut game = Game::from_position(start.parse::<Position>().expect("start position"));
        let replayed = stored
            .iter()
            .all(|m| m.parse::<Move>().ok().is_some_and(|m| game.play(m).is_ok()));
        let ok = replayed && &stored == moves_seen && game.is_over() == *finished;
        if !ok {
            eprintln!("game {id}: database and player disagree");
            mismatches += 1;
        }
    }
    (seen.len(), mismatches)
}

/// A throwaway PostgreSQL server (`scripts/pg.sh`), stopped when dropped.
struct Postgres {
    dir: std::path::PathBuf,
    url: String,
}

impl Postgres {
    fn start() -> Postgres {
        let script = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../scripts/pg.sh");
        let dir = std::env::temp_dir().join(format!("agon-load-pg-{}", std::process::id()));
        let out = std::process::Command::new(script)
            .arg("start")
            .arg(&dir)
            .arg(std::process::id().to_string())
            .output()
            .expect("run scripts/pg.sh");
        if !out.status.success() {
            eprintln!(
                "--servers needs PostgreSQL (or --pg URL): {}",
                String::from_utf8_lossy(&out.stderr)
            );
            std::process::exit(2);
        }
        let url = String::from_utf8_lossy(&out.stdout).trim().to_string();
        Postgres { dir, url }
    }
}

impl Drop for Postgres {
    fn drop(&mut self) {
        let script = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../scripts/pg.sh");
        let _ = std::process::Command::new(script)
            .arg("stop")
            .arg(&self.dir)
            .status();
    }
}

fn main() {
    if common::serve_if_asked() {
        return;
    }
    let o = Arc::new(options());
    let dir = tempfile::tempdir().expect("a temporary directory");
    let postgres = (o.servers > 1 && o.pg.is_none() && o.url.is_none()).then(Postgres::start);
    let db = match (&o.pg, &postgres) {
        (Some(url), _) => Database::Postgres(url.clone()),
        (None, Some(pg)) => Database::Postgres(pg.url.clone()),
        (None, None) => Database::Sqlite(
            o.db.clone()
                .unwrap_or_else(|| dir.path().join("load.sqlite3")),
        ),
    };

    let servers: Vec<Server> = match &o.url {
        Some(_) => Vec::new(),
        None => {
            let db = match &db {
                Database::Sqlite(path) => path.display().to_string(),
                Database::Postgres(url) => url.clone(),
            };
            (0..o.servers)
                .map(|_| Server::start(&db, Some(o.workers)))
                .collect()
        }
    };
    let bases: Vec<String> = match &o.url {
        Some(url) => vec![url.trim_end_matches('/').to_string()],
        None => servers.iter().map(|server| server.base.clone()).collect(),
    };
    if let Database::Postgres(_) = db {
        println!(
            "servers={} on PostgreSQL ({}), players spread over them",
            bases.len(),
            db
        );
    }

    let clients = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    if o.friends > 0 {
        friends(&o, &bases, &clients, &db, &servers);
        return;
    }
    if o.lobby_bots + o.lobby_people > 0 {
        let passed = lobby(&o, &bases, &clients, &db, &servers);
        drop(servers);
        drop(postgres);
        if !passed {
            std::process::exit(1);
        }
        return;
    }
    let base = bases.join(" ");
    let tally = Arc::new(Tally::default());
    let started = Instant::now();
    let stop = started + Duration::from_secs(o.seconds);
    println!(
        "load: {} players x {} games against easy, thinking 0-{} ms a move, at {base}, at most {} s",
        o.players,
        o.games,
        2 * o.think_ms,
        o.seconds
    );
    clients.block_on(async {
        let tasks: Vec<_> = (0..o.players)
            .map(|n| {
                let base = bases[n % bases.len()].clone();
                tokio::spawn(player(n, base, o.clone(), tally.clone(), stop))
            })
            .collect();
        for t in tasks {
            let _ = t.await;
        }
    });
    report_players(&o, &tally, started, &db, &clients);
    report_memory(&servers);
    drop(servers);
    drop(postgres);
}

/// A line of a process's `/proc/PID/status` (`VmRSS`, `VmHWM`) in MB.
fn memory_mb(pid: u32, field: &str) -> f64 {
    std::fs::read_to_string(format!("/proc/{pid}/status"))
        .ok()
        .and_then(|status| {
            status.lines().find_map(|line| {
                let rest = line.strip_prefix(field)?.strip_prefix(':')?;
                rest.trim()
                    .trim_end_matches("kB")
                    .trim()
                    .parse::<f64>()
                    .ok()
            })
        })
        .map_or(0.0, |kb| kb / 1024.0)
}

/// Prints each server process's memory.
fn report_memory(servers: &[Server]) {
    for (n, server) in servers.iter().enumerate() {
        println!(
            "memory: server {n} VmRSS_mb={:.1} VmHWM_mb={:.1} (target: under 200 MB)",
            memory_mb(server.pid(), "VmRSS"),
            memory_mb(server.pid(), "VmHWM")
        );
    }
}

fn report_players(
    o: &Options,
    tally: &Tally,
    started: Instant,
    db: &Database,
    clients: &tokio::runtime::Runtime,
) {
    let seconds = started.elapsed().as_secs_f64();
    let requests = tally.requests.load(Ordering::Relaxed);
    println!(
        "players={} games_finished={} requests={requests} seconds={seconds:.1} requests_per_second={:.0}",
        o.players,
        tally.games_finished.load(Ordering::Relaxed),
        requests as f64 / seconds
    );
    println!(
        "move_requests={}",
        latency_figures(&tally.move_latencies_us)
    );
    let errors = tally.errors.load(Ordering::Relaxed);
    let (checked, mismatches) = check_database(o, db, &tally.games, clients);
    println!(
        "errors={errors} busy_retries={} games_checked={checked} lost_or_wrong_moves={mismatches}",
        tally.busy.load(Ordering::Relaxed)
    );
    if errors > 0 || mismatches > 0 {
        std::process::exit(1);
    }
}

/// An event stream's `state` events: (version, when it arrived, moves, the outcome's
/// reason once the game is over).
type Arrival = (i64, Instant, Vec<String>, Option<String>);

/// One Server-Sent Event: its name, its data, when it arrived.
struct Sse {
    event: String,
    data: Value,
    at: Instant,
}

/// Sends `request` (an event stream's `GET`) and forwards each event, stamped with its
/// arrival time, to the answered channel, with the `Set-Cookie` of the answer (the first
/// cookie's `name=value`), if any. `None` (counted in `errors`) unless it answers 200.
async fn sse(
    request: reqwest::RequestBuilder,
    what: &str,
    errors: &AtomicU64,
) -> Option<(Option<String>, tokio::sync::mpsc::UnboundedReceiver<Sse>)> {
    let mut response = match request.send().await {
        Ok(r) if r.status() == 200 => r,
        Ok(r) => {
            eprintln!("{what}: {}", r.status());
            errors.fetch_add(1, Ordering::Relaxed);
            return None;
        }
        Err(e) => {
            eprintln!("{what}: {e}");
            errors.fetch_add(1, Ordering::Relaxed);
            return None;
        }
    };
    let cookie = set_cookie(&response);
    let (tx, rx) = tokio::sync::mpsc::unbounded_channel();
    tokio::spawn(async move {
        let mut buffer = String::new();
        while let Ok(Some(chunk)) = response.chunk().await {
            let at = Instant::now();
            buffer.push_str(&String::from_utf8_lossy(&chunk));
            while let Some(end) = buffer.find("\n\n") {
                let block: String = buffer.drain(..end + 2).collect();
                let Some(event) = block.lines().find_map(|l| l.strip_prefix("event: ")) else {
                    continue;
                };
                let data: String = block
                    .lines()
                    .filter_map(|l| l.strip_prefix("data: "))
                    .collect();
                let data = serde_json::from_str(&data).unwrap_or(Value::Null);
                let event = event.to_string();
                if tx.send(Sse { event, data, at }).is_err() {
                    return;
                }
            }
        }
    });
    Some((cookie, rx))
}

/// The `name=value` of an answer's first `Set-Cookie`.
fn set_cookie(response: &reqwest::Response) -> Option<String> {
    response
        .headers()
        .get(reqwest::header::SET_COOKIE)
        .and_then(|c| c.to_str().ok())
        .and_then(|c| c.split(';').next())
        .map(str::to_string)
}

/// A game's event stream as its moves: each `state` or `change` event, applied to the
/// moves as the page keeps them, as an [`Arrival`].
async fn game_stream(
    request: reqwest::RequestBuilder,
    what: &str,
    errors: &AtomicU64,
) -> Option<tokio::sync::mpsc::UnboundedReceiver<Arrival>> {
    let (_, mut events) = sse(request, what, errors).await?;
    let (tx, rx) = tokio::sync::mpsc::unbounded_channel();
    tokio::spawn(async move {
        // The moves as the page keeps them: a `state` sets them, a `change` edits them.
        let mut moves: Vec<String> = vec![];
        while let Some(Sse { event, data, at }) = events.recv().await {
            match event.as_str() {
                "change" => {
                    moves.truncate(data["keep"].as_u64().unwrap_or(0) as usize);
                    moves.extend(strings(&data["added"]));
                }
                "state" => moves = strings(&data["moves"]),
                _ => continue,
            }
            let version = data["version"].as_i64().unwrap_or(-1);
            let reason = (!data["outcome"].is_null())
                .then(|| data["outcome"]["reason"].as_str().unwrap_or("").to_string());
            if tx.send((version, at, moves.clone(), reason)).is_err() {
                return;
            }
        }
    });
    Some(rx)
}

/// Opens a game's event stream at `url` with the seat's `cookie` (see [`game_stream`]).
async fn stream(
    client: &reqwest::Client,
    url: String,
    cookie: String,
    errors: Arc<AtomicU64>,
) -> Option<tokio::sync::mpsc::UnboundedReceiver<Arrival>> {
    let request = client.get(&url).header(reqwest::header::COOKIE, cookie);
    game_stream(request, &url, &errors).await
}

#[derive(Default)]
struct FriendTally {
    errors: Arc<AtomicU64>,
    moves: AtomicU64,
    lost: AtomicU64,
    duplicated: AtomicU64,
    finished: AtomicU64,
    latencies_us: Mutex<Vec<u64>>,
    games: Mutex<Vec<(String, Vec<String>, bool)>>,
}

/// One game between two simulated people: each moves when its stream shows its turn.
/// White plays on the server `bases[0]`, Black on `bases[1]` (the same with one server).
async fn pair(n: usize, bases: [String; 2], think_ms: u64, tally: Arc<FriendTally>, stop: Instant) {
    let client = reqwest::Client::new();
    let mut rng = Rng::new(n as u64 + 1);
    let errors = tally.errors.clone();
    let post = |url: String, body: Value| {
        let client = client.clone();
        let errors = errors.clone();
        async move {
            match client.post(&url).json(&body).send().await {
                Ok(r) if r.status().is_success() => r.json::<Value>().await.ok(),
                Ok(r) => {
                    let status = r.status();
                    eprintln!("{url}: {status} {}", r.text().await.unwrap_or_default());
                    errors.fetch_add(1, Ordering::Relaxed);
                    None
                }
                Err(e) => {
                    eprintln!("{url}: {e}");
                    errors.fetch_add(1, Ordering::Relaxed);
                    None
                }
            }
        }
    };
    let Some(created) = post(
        format!("{}/api/games", bases[0]),
        json!({"opponent": "friend", "side": "white", "name": format!("w{n}")}),
    )
    .await
    else {
        return;
    };
    let id = created["id"].as_str().unwrap_or_default().to_string();
    let Some(joined) = post(
        format!("{}/api/games/{id}/join", bases[1]),
        json!({"name": format!("b{n}")}),
    )
    .await
    else {
        return;
    };
    let tokens = [
        created["token"].as_str().unwrap_or_default().to_string(),
        joined["token"].as_str().unwrap_or_default().to_string(),
    ];
    let mut streams = Vec::new();
    for ((token, view), base) in tokens.iter().zip(["white", "black"]).zip(&bases) {
        // The seat's cookie, as the page asks for it: no token in the stream's address.
        let cookie = match client
            .post(format!("{base}/api/games/{id}/seat"))
            .json(&json!({ "token": token }))
            .send()
            .await
        {
            Ok(r) if r.status().is_success() => r
                .headers()
                .get(reqwest::header::SET_COOKIE)
                .and_then(|c| c.to_str().ok())
                .and_then(|c| c.split(';').next())
                .unwrap_or_default()
                .to_string(),
            _ => {
                eprintln!("game {id}: the {view} seat's cookie was refused");
                errors.fetch_add(1, Ordering::Relaxed);
                return;
            }
        };
        let url = format!("{base}/api/games/{id}/events?since=1&view={view}");
        match stream(&client, url, cookie, errors.clone()).await {
            Some(rx) => streams.push(rx),
            None => return,
        }
    }
    // Every version each stream got.
    let mut seen: [Vec<i64>; 2] = [vec![], vec![]];
    let mut state = joined["state"].clone();
    let mut moves: Vec<String> = vec![];
    let mut version = state["version"].as_i64().unwrap_or(1);
    let mut over = false;
    while !over && Instant::now() < stop {
        let mover = usize::from(state["chooser"] == "black");
        let legal = strings(&state["legal_moves"]);
        if legal.is_empty() {
            break;
        }
        let m = legal[rng.below(legal.len())].clone();
        if think_ms > 0 {
            let think = rng.below(2 * think_ms as usize + 1) as u64;
            tokio::time::sleep(Duration::from_millis(think)).await;
        }
        let started = Instant::now();
        let Some(answer) = post(
            format!("{}/api/games/{id}/moves", bases[mover]),
            json!({"token": tokens[mover], "move": m}),
        )
        .await
        else {
            break;
        };
        version = answer["version"].as_i64().unwrap_or(version);
        tally.moves.fetch_add(1, Ordering::Relaxed);
        // Both streams up to this version; the opponent's arrival is the latency.
        for (side, rx) in streams.iter_mut().enumerate() {
            loop {
                let next = tokio::time::timeout(Duration::from_secs(10), rx.recv()).await;
                let Ok(Some((v, at, seen_moves, ended))) = next else {
                    eprintln!("game {id}: stream {side} stopped before version {version}");
                    tally.lost.fetch_add(1, Ordering::Relaxed);
                    over = true;
                    break;
                };
                seen[side].push(v);
                if v == version {
                    if side != mover {
                        let us = at.saturating_duration_since(started).as_micros() as u64;
                        tally.latencies_us.lock().unwrap().push(us);
                    }
                    moves = seen_moves;
                    over |= ended.is_some();
                    break;
                }
            }
        }
        state = answer;
    }
    for (side, versions) in seen.iter().enumerate() {
        let mut duplicated = 0;
        let mut lost = 0;
        let mut last = 1;
        for &v in versions {
            if v <= last {
                duplicated += 1;
                continue;
            }
            lost += (v - last - 1) as u64;
            last = v;
        }
        lost += (version - last).max(0) as u64;
        if lost + duplicated > 0 {
            eprintln!("game {id} stream {side}: {lost} lost, {duplicated} twice");
        }
        tally.lost.fetch_add(lost, Ordering::Relaxed);
        tally.duplicated.fetch_add(duplicated, Ordering::Relaxed);
    }
    if over {
        tally.finished.fetch_add(1, Ordering::Relaxed);
    }
    tally.games.lock().unwrap().push((id, moves, over));
}

fn friends(
    o: &Options,
    bases: &[String],
    clients: &tokio::runtime::Runtime,
    db: &Database,
    servers: &[Server],
) {
    let base = bases.join(" ");
    let tally = Arc::new(FriendTally::default());
    let started = Instant::now();
    let stop = started + Duration::from_secs(o.seconds);
    println!(
        "load: {} pairs of friends over event streams, thinking 0-{} ms a move, at {base}, at most {} s",
        o.friends,
        2 * o.think_ms,
        o.seconds
    );
    let peak_streams = clients.block_on(async {
        let tasks: Vec<_> = (0..o.friends)
            .map(|n| {
                let pair_bases = [
                    bases[n % bases.len()].clone(),
                    bases[(n + 1) % bases.len()].clone(),
                ];
                tokio::spawn(pair(n, pair_bases, o.think_ms, tally.clone(), stop))
            })
            .collect();
        for t in tasks {
            let _ = t.await;
        }
        2 * o.friends
    });
    let seconds = started.elapsed().as_secs_f64();
    let moves = tally.moves.load(Ordering::Relaxed);
    println!(
        "pairs={} streams={peak_streams} games_finished={} moves={moves} seconds={seconds:.1} moves_per_second={:.0}",
        o.friends,
        tally.finished.load(Ordering::Relaxed),
        moves as f64 / seconds
    );
    println!(
        "move_to_opponent_event={} (target: p99 under 50 ms)",
        latency_figures(&tally.latencies_us)
    );
    let lost = tally.lost.load(Ordering::Relaxed);
    let duplicated = tally.duplicated.load(Ordering::Relaxed);
    let errors = tally.errors.load(Ordering::Relaxed);
    let (checked, mismatches) = check_database(o, db, &tally.games, clients);
    println!(
        "lost_events={lost} duplicated_events={duplicated} errors={errors} games_checked={checked} lost_or_wrong_moves={mismatches} (target: all 0)"
    );
    report_memory(servers);
    if errors > 0 || mismatches > 0 || lost > 0 || duplicated > 0 {
        std::process::exit(1);
    }
}

// The lobby (issue 33): bots and people pairing, and playing what they paired into.

/// The time control of every lobby game: a quick-pairing one, long enough that no
/// simulated player runs out of time.
const LOBBY_CONTROL: &str = "5+3";

/// How long after `--seconds` the players still read their streams (nobody moves any
/// more), so that each has seen the last move of its game before the replay check.
const GRACE: Duration = Duration::from_secs(5);

/// Who plays a seat: a person (the page's requests) or a bot (the Bot API).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Kind {
    Person,
    Bot,
}

impl Kind {
    fn name(self) -> &'static str {
        match self {
            Kind::Person => "person",
            Kind::Bot => "bot",
        }
    }
}

/// One half of a pairing's measure: the press that started a game (a person's quick
/// pairing, a bot's acceptance of a challenge), or the waiting side's start event.
enum Half {
    Press(Instant),
    Start(Instant, Kind),
}

/// A list of durations in microseconds.
type Micros = Mutex<Vec<u64>>;

/// A move in flight: when it was sent, by whom, from which seat.
type InFlight = (Instant, Kind, agon_core::Side);

#[derive(Default)]
struct LobbyTally {
    errors: AtomicU64,
    lost: AtomicU64,
    duplicated: AtomicU64,
    moves: AtomicU64,
    resigned: AtomicU64,
    /// Quick pairings answered `409 conflict` (the lobby busy), pressed again.
    busy: AtomicU64,
    /// `gameFinish` events on the bots' event streams.
    bot_finishes: AtomicU64,
    /// The halves of each pairing not yet matched, by game.
    pairings: Mutex<std::collections::HashMap<String, Half>>,
    /// A person's quick pairing that found an opponent waiting: the press to its answer.
    press_us: Micros,
    /// A bot's acceptance of a challenge: the request to its answer.
    accept_us: Micros,
    /// The other side's press to the waiting side's start event: a person's (the lobby
    /// stream's `gone`), a bot's (the Bot API's `gameStart`).
    start_us: [Micros; 2],
    /// A person who waited: their own press to their start event (the others' arrival,
    /// not the server's speed).
    waited_us: Micros,
    /// Each move in flight: (game, version it makes) to (sent, by whom, from which seat).
    pending: Mutex<std::collections::HashMap<(String, i64), InFlight>>,
    /// Move to the opponent's stream, by (mover, receiver): person/bot x person/bot.
    latency_us: [Micros; 4],
    /// Each game's seats seen (who played, from each side's task) and whether rated.
    seats: Mutex<std::collections::HashMap<String, (Vec<Kind>, bool)>>,
    /// (game id, the moves one side last saw, over by the rules): one a side.
    games: Mutex<Vec<(String, Vec<String>, bool)>>,
    /// Games whose end a side saw.
    ended: Mutex<std::collections::HashSet<String>>,
}

impl LobbyTally {
    fn error(&self, what: impl std::fmt::Display) {
        eprintln!("{what}");
        self.errors.fetch_add(1, Ordering::Relaxed);
    }

    /// Records one half of game's pairing; with the other half there, the waiting side's
    /// start time after the press.
    fn paired(&self, game: &str, half: Half) {
        let mut open = self.pairings.lock().unwrap();
        match (open.remove(game), half) {
            (Some(Half::Press(press)), Half::Start(at, kind))
            | (Some(Half::Start(at, kind)), Half::Press(press)) => {
                let us = at.saturating_duration_since(press).as_micros() as u64;
                self.start_us[kind as usize].lock().unwrap().push(us);
            }
            (_, half) => {
                open.insert(game.to_string(), half);
            }
        }
    }

    fn seat(&self, game: &str, kind: Kind, rated: bool) {
        let mut seats = self.seats.lock().unwrap();
        let entry = seats.entry(game.to_string()).or_default();
        entry.0.push(kind);
        entry.1 |= rated;
    }
}

fn push_us(list: &Micros, since: Instant) {
    list.lock()
        .unwrap()
        .push(since.elapsed().as_micros() as u64);
}

/// A simulated client of the lobby: its own loopback address (so that the server's limits
/// per address see 200 clients, not one), its cookies, its API token.
#[derive(Clone)]
struct Agent {
    http: reqwest::Client,
    base: String,
    cookies: Vec<String>,
    bearer: Option<String>,
}

impl Agent {
    /// Client `n` of the server at `base`, from 127.1.x.y.
    fn new(n: usize, base: &str) -> Agent {
        let address = std::net::Ipv4Addr::new(127, 1, (n / 250) as u8, (n % 250 + 1) as u8);
        let http = reqwest::Client::builder()
            .local_address(std::net::IpAddr::V4(address))
            .build()
            .expect("an HTTP client");
        Agent {
            http,
            base: base.to_string(),
            cookies: Vec::new(),
            bearer: None,
        }
    }

    /// A request as the site's own page sends it (`Sec-Fetch-Site: same-origin`, its
    /// cookies) or as a bot's program does (its token), with `extra` cookies.
    fn request(
        &self,
        method: reqwest::Method,
        path: &str,
        extra: &[&str],
    ) -> reqwest::RequestBuilder {
        let mut request = self
            .http
            .request(method, format!("{}{path}", self.base))
            .header("sec-fetch-site", "same-origin");
        let cookies: Vec<&str> = self
            .cookies
            .iter()
            .map(String::as_str)
            .chain(extra.iter().copied())
            .collect();
        if !cookies.is_empty() {
            request = request.header(reqwest::header::COOKIE, cookies.join("; "));
        }
        if let Some(token) = &self.bearer {
            request = request.header(reqwest::header::AUTHORIZATION, format!("Bearer {token}"));
        }
        request
    }

    /// POSTs `body`: the answer's JSON when its status is `expect`, else the error's text.
    async fn post(
        &self,
        path: &str,
        body: Value,
        expect: u16,
        extra: &[&str],
    ) -> Result<Value, String> {
        let response = self
            .request(reqwest::Method::POST, path, extra)
            .json(&body)
            .send()
            .await
            .map_err(|e| format!("{path}: {e}"))?;
        let status = response.status().as_u16();
        let text = response.text().await.unwrap_or_default();
        match status == expect {
            true => Ok(serde_json::from_str(&text).unwrap_or(Value::Null)),
            false => Err(format!("{path}: {status} {text}")),
        }
    }
}

/// How a seat acts in its game: a person with its seat token through the game API, a bot
/// through the Bot API.
enum Seat<'a> {
    Person(&'a Agent, String),
    Bot(&'a Agent),
}

impl Seat<'_> {
    fn kind(&self) -> Kind {
        match self {
            Seat::Person(..) => Kind::Person,
            Seat::Bot(_) => Kind::Bot,
        }
    }

    async fn play(&self, game: &str, m: &str) -> Result<Value, String> {
        match self {
            Seat::Person(agent, token) => {
                let body = json!({"token": token, "move": m});
                agent
                    .post(&format!("/api/games/{game}/moves"), body, 200, &[])
                    .await
            }
            Seat::Bot(agent) => {
                let path = format!("/api/bot/game/{game}/move/{m}");
                agent.post(&path, json!({}), 200, &[]).await
            }
        }
    }

    async fn resign(&self, game: &str) -> Result<Value, String> {
        match self {
            Seat::Person(agent, token) => {
                let body = json!({"token": token});
                agent
                    .post(&format!("/api/games/{game}/resign"), body, 200, &[])
                    .await
            }
            Seat::Bot(agent) => {
                let path = format!("/api/bot/game/{game}/resign");
                agent.post(&path, json!({}), 200, &[]).await
            }
        }
    }
}

/// The reasons of agon-core's ends (the others, `resignation`, `time-forfeit`,
/// `agreement`, `aborted`, are the server's).
fn over_by_rules(reason: Option<&str>) -> bool {
    matches!(
        reason,
        Some(
            "throne"
                | "ring-without-queen"
                | "no-legal-action"
                | "repetition"
                | "two-passes"
                | "move-limit"
        )
    )
}

/// Plays `side` of `game` by `seat`, reading the game from its stream `arrivals`: moves
/// (a random legal one after 0 to 2 `think_ms`) when the stream shows its turn, resigns
/// at ply `resign_at`, measures each opponent's move from its request to this stream, and
/// records what it last saw. Moves until `stop`, reads until `stop` + [`GRACE`].
#[allow(clippy::too_many_arguments)]
async fn play_side(
    tally: &LobbyTally,
    game: &str,
    side: agon_core::Side,
    seat: &Seat<'_>,
    mut arrivals: tokio::sync::mpsc::UnboundedReceiver<Arrival>,
    rng: &mut Rng,
    think_ms: u64,
    stop: Instant,
) {
    let kind = seat.kind();
    let resign_at = 20 + rng.below(280);
    let mut board = Game::new();
    let mut moves: Vec<String> = Vec::new();
    let mut outcome: Option<String> = None;
    let mut version: Option<i64> = None;
    // The version this seat last moved at: it waits for the next before moving again.
    let mut moved_at = -1;
    loop {
        let turn = version.is_some_and(|v| v > moved_at)
            && !board.is_over()
            && board.position().chooser() == side;
        if turn && Instant::now() < stop {
            if think_ms > 0 {
                let think = rng.below(2 * think_ms as usize + 1) as u64;
                tokio::time::sleep(Duration::from_millis(think)).await;
            }
            if Instant::now() >= stop {
                continue;
            }
            let now_version = version.unwrap_or(0);
            moved_at = now_version;
            if moves.len() >= resign_at {
                match seat.resign(game).await {
                    Ok(_) => tally.resigned.fetch_add(1, Ordering::Relaxed),
                    Err(e) => return tally.error(e),
                };
                continue;
            }
            let legal = board.legal_moves();
            let m = legal[rng.below(legal.len())].to_string();
            let key = (game.to_string(), now_version + 1);
            tally
                .pending
                .lock()
                .unwrap()
                .insert(key.clone(), (Instant::now(), kind, side));
            match seat.play(game, &m).await {
                Ok(answer) if answer["version"].as_i64() == Some(now_version + 1) => {
                    tally.moves.fetch_add(1, Ordering::Relaxed);
                }
                Ok(answer) => {
                    tally.pending.lock().unwrap().remove(&key);
                    return tally.error(format!(
                        "game {game}: a move at version {now_version} made version {}",
                        answer["version"]
                    ));
                }
                Err(e) => {
                    tally.pending.lock().unwrap().remove(&key);
                    return tally.error(e);
                }
            }
            continue;
        }
        // The opponent moves within a second or two: 30 s without an event is a fault.
        let until = (Instant::now() + Duration::from_secs(30)).min(stop + GRACE);
        let next = tokio::time::timeout_at(until.into(), arrivals.recv()).await;
        let (v, at, seen, reason) = match next {
            Ok(Some(arrival)) => arrival,
            Ok(None) => {
                tally.error(format!(
                    "game {game}: the {} stream of {} ended",
                    side.name(),
                    kind.name()
                ));
                break;
            }
            Err(_) if Instant::now() >= stop => break,
            Err(_) => {
                tally.error(format!(
                    "game {game}: no event for 30 s on {}'s stream",
                    side.name()
                ));
                break;
            }
        };
        if let Some(last) = version {
            if v <= last {
                tally.duplicated.fetch_add(1, Ordering::Relaxed);
                continue;
            }
            tally
                .lost
                .fetch_add((v - last - 1) as u64, Ordering::Relaxed);
            // A live event (not the stream's first state): the opponent's move arriving.
            let key = (game.to_string(), v);
            let mut pending = tally.pending.lock().unwrap();
            if pending.get(&key).is_some_and(|p| p.2 != side) {
                let (sent, mover, _) = pending.remove(&key).unwrap();
                let us = at.saturating_duration_since(sent).as_micros() as u64;
                tally.latency_us[2 * mover as usize + kind as usize]
                    .lock()
                    .unwrap()
                    .push(us);
            }
        }
        version = Some(v);
        if !seen.starts_with(&moves) {
            board = Game::new();
            moves.clear();
        }
        for text in &seen[moves.len()..] {
            let played = text
                .parse::<Move>()
                .ok()
                .is_some_and(|m| board.play(m).is_ok());
            if !played {
                tally.error(format!(
                    "game {game}: the stream's move {text} is not legal"
                ));
                break;
            }
        }
        moves = seen;
        outcome = reason;
        if outcome.is_some() {
            tally.ended.lock().unwrap().insert(game.to_string());
            break;
        }
    }
    tally
        .games
        .lock()
        .unwrap()
        .push((game.to_string(), moves, over_by_rules(outcome.as_deref())));
}

/// A person's game: its seat's cookie, its stream, then [`play_side`].
async fn person_game(
    agent: &Agent,
    game: &str,
    token: String,
    tally: &LobbyTally,
    rng: &mut Rng,
    think_ms: u64,
    stop: Instant,
) {
    let path = format!("/api/games/{game}/seat");
    let response = agent
        .request(reqwest::Method::POST, &path, &[])
        .json(&json!({ "token": token }))
        .send()
        .await;
    let (seat_cookie, answer) = match response {
        Ok(r) if r.status() == 200 => (set_cookie(&r), r.json::<Value>().await.unwrap_or_default()),
        Ok(r) => return tally.error(format!("{path}: {}", r.status())),
        Err(e) => return tally.error(format!("{path}: {e}")),
    };
    let side = match answer["side"].as_str() {
        Some("white") => agon_core::Side::White,
        Some("black") => agon_core::Side::Black,
        _ => return tally.error(format!("{path}: no side in {answer}")),
    };
    let cookie = seat_cookie.unwrap_or_default();
    let url = format!("/api/games/{game}/events?view={}", side.name());
    let request = agent.request(reqwest::Method::GET, &url, &[&cookie]);
    let Some(arrivals) = game_stream(request, &url, &tally.errors).await else {
        return;
    };
    let seat = Seat::Person(agent, token);
    play_side(tally, game, side, &seat, arrivals, rng, think_ms, stop).await;
}

/// A person at the lobby page: its stream open, they press quick pairing (rated when
/// signed in, as `rated` says), play the game it gives, and press again, until `stop`.
async fn person(
    n: usize,
    mut agent: Agent,
    rated: bool,
    (think_ms, arrive_ms): (u64, u64),
    tally: Arc<LobbyTally>,
    stop: Instant,
) {
    let mut rng = Rng::new(n as u64 + 1);
    let request = agent.request(reqwest::Method::GET, "/api/lobby/events", &[]);
    let Some((cookie, mut lobby)) = sse(request, "/api/lobby/events", &tally.errors).await else {
        return;
    };
    agent.cookies.extend(cookie);
    let name = (!rated).then(|| format!("Guest {n}"));
    // People come to the lobby over the first `arrive_ms`, not all at once.
    let arrive = rng.below(arrive_ms as usize + 1) as u64;
    tokio::time::sleep(Duration::from_millis(arrive)).await;
    while Instant::now() < stop {
        let press = Instant::now();
        let body = json!({"control": LOBBY_CONTROL, "rated": rated, "name": name});
        let answer = loop {
            match agent.post("/api/lobby/quick", body.clone(), 200, &[]).await {
                Ok(answer) => break answer,
                // `409 conflict`, "the lobby is busy": the person presses again.
                Err(e) if e.contains(": 409 ") && e.contains("\"conflict\"") => {
                    tally.busy.fetch_add(1, Ordering::Relaxed);
                    let pause = 100 + rng.below(200) as u64;
                    tokio::time::sleep(Duration::from_millis(pause)).await;
                }
                Err(e) => return tally.error(e),
            }
        };
        let token = answer["token"].as_str().unwrap_or_default().to_string();
        let game = match answer["status"].as_str() {
            Some("started") => {
                push_us(&tally.press_us, press);
                let game = answer["game"].as_str().unwrap_or_default().to_string();
                tally.paired(&game, Half::Press(press));
                game
            }
            Some("waiting") => {
                let seek = answer["seek"]["id"]
                    .as_str()
                    .unwrap_or_default()
                    .to_string();
                let mut started = None;
                while started.is_none() {
                    let Ok(Some(event)) = tokio::time::timeout_at(stop.into(), lobby.recv()).await
                    else {
                        break;
                    };
                    if event.event == "gone" && event.data["id"] == seek.as_str() {
                        match event.data["game"].as_str() {
                            Some(game) if event.data["reason"] == "accepted" => {
                                tally
                                    .waited_us
                                    .lock()
                                    .unwrap()
                                    .push(event.at.saturating_duration_since(press).as_micros()
                                        as u64);
                                tally.paired(game, Half::Start(event.at, Kind::Person));
                                started = Some(game.to_string());
                            }
                            _ => {
                                tally.error(format!("seek {seek}: gone: {}", event.data));
                                break;
                            }
                        }
                    }
                }
                match started {
                    Some(game) => game,
                    None => {
                        let path = format!("/api/lobby/seeks/{seek}/cancel");
                        let _ = agent.post(&path, json!({}), 200, &[]).await;
                        return;
                    }
                }
            }
            _ => return tally.error(format!("quick pairing answered {answer}")),
        };
        tally.seat(&game, Kind::Person, rated);
        person_game(&agent, &game, token, &tally, &mut rng, think_ms, stop).await;
        // A look at the result before the next game.
        tokio::time::sleep(Duration::from_millis(rng.below(1000) as u64)).await;
    }
}

/// A bot's program: its event stream open, it posts an open seek (rated as `rated`) and,
/// with `challenge`, challenges that bot (casual); it accepts every challenge, plays each
/// game that starts on its own game stream, and seeks or challenges again when the game
/// its seek or challenge started ends, until `stop`.
#[allow(clippy::too_many_arguments)]
async fn bot(
    n: usize,
    agent: Agent,
    session: String,
    rated: bool,
    challenge: Option<String>,
    think_ms: u64,
    tally: Arc<LobbyTally>,
    stop: Instant,
) {
    let agent = Arc::new(agent);
    let request = agent.request(reqwest::Method::GET, "/api/bot/stream/event", &[]);
    let Some((_, mut events)) = sse(request, "/api/bot/stream/event", &tally.errors).await else {
        return;
    };
    let seek = |agent: Arc<Agent>| async move {
        let body = json!({"control": LOBBY_CONTROL, "rated": rated});
        agent.post("/api/bot/seek", body, 201, &[]).await
    };
    // A bot program challenges with its account's session, as the page would.
    let challenge_again = |agent: Arc<Agent>, to: String, session: String| async move {
        let body = json!({"username": to, "control": LOBBY_CONTROL});
        let mut person = (*agent).clone();
        person.bearer = None;
        person
            .post("/api/lobby/challenges", body, 201, &[&session])
            .await
    };
    if let Err(e) = seek(agent.clone()).await {
        return tally.error(e);
    }
    if let Some(to) = &challenge {
        if let Err(e) = challenge_again(agent.clone(), to.clone(), session.clone()).await {
            return tally.error(e);
        }
    }
    let mut accepted = std::collections::HashSet::new();
    let (done_tx, mut done) = tokio::sync::mpsc::unbounded_channel::<bool>();
    let mut games = tokio::task::JoinSet::new();
    let mut seed = n as u64 * 1_000_003 + 7;
    loop {
        let event = tokio::select! {
            event = tokio::time::timeout_at((stop + GRACE).into(), events.recv()) => match event {
                Ok(Some(event)) => event,
                Ok(None) => {
                    tally.error(format!("bot {n}: its event stream ended"));
                    break;
                }
                Err(_) => break,
            },
            Some(against_bot) = done.recv() => {
                // The game of its seek or challenge is over: another.
                if Instant::now() < stop {
                    let again = match (&challenge, against_bot) {
                        (Some(to), true) => challenge_again(agent.clone(), to.clone(), session.clone()).await,
                        _ => seek(agent.clone()).await,
                    };
                    if let Err(e) = again {
                        tally.error(e);
                    }
                }
                continue;
            }
        };
        match event.event.as_str() {
            "challenge" if Instant::now() < stop => {
                let id = event.data["challenge"]["id"].as_str().unwrap_or_default();
                let press = Instant::now();
                match agent
                    .post(&format!("/api/challenge/{id}/accept"), json!({}), 200, &[])
                    .await
                {
                    Ok(started) => {
                        push_us(&tally.accept_us, press);
                        let game = started["game"].as_str().unwrap_or_default().to_string();
                        tally.paired(&game, Half::Press(press));
                        accepted.insert(game);
                    }
                    Err(e) => tally.error(e),
                }
            }
            "gameStart" => {
                let game = event.data["game"].clone();
                let id = game["id"].as_str().unwrap_or_default().to_string();
                let side = match game["side"].as_str() {
                    Some("white") => agon_core::Side::White,
                    _ => agon_core::Side::Black,
                };
                // Its own seek or challenge taken (not a challenge it accepted).
                let own = !accepted.contains(&id);
                if own {
                    tally.paired(&id, Half::Start(event.at, Kind::Bot));
                }
                tally.seat(&id, Kind::Bot, game["rated"] == true);
                let against_bot = game["opponent_bot"] == true;
                let (agent, tally, done) = (agent.clone(), tally.clone(), done_tx.clone());
                seed += 1;
                let mut rng = Rng::new(seed);
                games.spawn(async move {
                    let path = format!("/api/bot/game/stream/{id}");
                    let request = agent.request(reqwest::Method::GET, &path, &[]);
                    if let Some(arrivals) = game_stream(request, &path, &tally.errors).await {
                        let seat = Seat::Bot(&agent);
                        play_side(&tally, &id, side, &seat, arrivals, &mut rng, think_ms, stop)
                            .await;
                    }
                    if own {
                        let _ = done.send(against_bot);
                    }
                });
            }
            "gameFinish" => {
                tally.bot_finishes.fetch_add(1, Ordering::Relaxed);
            }
            _ => {}
        }
    }
    while games.join_next().await.is_some() {}
}

/// The accounts of the lobby's load, made in the database as the tests make them (an
/// account is made by a passkey's ceremony, which a load test has no authenticator
/// for), each with a session: the bots' made bots' and given an API token through the
/// API, as their owners would. Answers the bots' (username, session cookie, token) and the
/// signed-in people's session cookies.
async fn lobby_accounts(
    o: &Options,
    db: &Database,
    bases: &[String],
) -> (Vec<(String, String, String)>, Vec<String>) {
    let store = agon_web::Store::connect(db, 2)
        .await
        .expect("open the database");
    // Names and ids of this run (a database given with --pg may hold earlier runs').
    let run = (std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap_or_default()
        .as_micros() as u64
        ^ u64::from(std::process::id()))
        & 0xffff_ffff;
    let mut rng = Rng::new(run);
    let mut account = |n: usize, name: String| {
        let id = format!("{run:08x}{n:08x}");
        let mut handle = [0u8; 32];
        handle[..16].copy_from_slice(id.as_bytes());
        let mut secret = [0u8; 20];
        for b in &mut secret {
            *b = rng.below(256) as u8;
        }
        (
            id,
            name,
            handle,
            agon_web::game::account::Token::session(secret),
        )
    };
    let mut made: Vec<_> = (0..o.lobby_people)
        .filter(|j| j % 2 == 0)
        .map(|j| account(0x1000_0000 + j, format!("p{j}-{run:08x}")))
        .collect();
    made.extend((0..o.lobby_bots).map(|i| account(0x2000_0000 + i, format!("bot{i}-{run:08x}"))));
    let mut sessions = Vec::new();
    let mut names = Vec::new();
    for (id, name, handle, token) in made {
        let new = agon_web::store::NewAccount {
            id: id.clone(),
            username: agon_web::game::account::Username::parse(&name).expect("a username"),
            user_handle: handle,
            bot: false,
        };
        store
            .create_signed_in(&new, &token, "load", agon_web::now_ms())
            .await
            .expect("an account with a session");
        sessions.push(format!("agon_session={}", token.as_str()));
        names.push(name);
    }
    let bot_sessions = sessions.split_off(sessions.len() - o.lobby_bots);
    let bot_names = names.split_off(names.len() - o.lobby_bots);
    let mut bots = Vec::new();
    for (i, (name, session)) in bot_names.into_iter().zip(bot_sessions).enumerate() {
        let mut owner = Agent::new(i, &bases[i % bases.len()]);
        owner.cookies.push(session.clone());
        let made = owner.post("/api/account/bot", json!({}), 200, &[]).await;
        made.expect("the account made a bot's");
        let token = owner
            .post("/api/account/tokens", json!({"name": "load"}), 201, &[])
            .await
            .expect("an API token");
        let token = token["token"].as_str().unwrap_or_default().to_string();
        bots.push((name, session, token));
    }
    (bots, sessions)
}

fn lobby(
    o: &Options,
    bases: &[String],
    clients: &tokio::runtime::Runtime,
    db: &Database,
    servers: &[Server],
) -> bool {
    if o.url.is_some() && o.db.is_none() && o.pg.is_none() {
        eprintln!(
            "the lobby's load makes its accounts in the database: give --db or --pg with --url"
        );
        std::process::exit(2);
    }
    let (bots, sessions) = clients.block_on(lobby_accounts(o, db, bases));
    let tally = Arc::new(LobbyTally::default());
    println!(
        "load: {} bots (Bot API) and {} people ({} signed in, pairing rated; the others guests, casual) pairing by quick pairing {LOBBY_CONTROL}, thinking 0-{} ms a move, at {}, at most {} s",
        o.lobby_bots,
        o.lobby_people,
        sessions.len(),
        2 * o.think_ms,
        bases.join(" "),
        o.seconds
    );
    let started = Instant::now();
    let stop = started + Duration::from_secs(o.seconds);
    let bot_names: Vec<String> = bots.iter().map(|b| b.0.clone()).collect();
    clients.block_on(async {
        let mut tasks = Vec::new();
        let mut sessions = sessions.into_iter();
        for (i, (_, session, token)) in bots.into_iter().enumerate() {
            let mut agent = Agent::new(i, &bases[i % bases.len()]);
            agent.bearer = Some(token);
            // One bot in ten also challenges the next bot: bots play bots by challenge.
            let challenge = (i % 10 == 0 && bot_names.len() > 1)
                .then(|| bot_names[(i + 1) % bot_names.len()].clone());
            let rated = i % 2 == 1;
            let tally = tally.clone();
            tasks.push(tokio::spawn(bot(
                i, agent, session, rated, challenge, o.think_ms, tally, stop,
            )));
        }
        for j in 0..o.lobby_people {
            let n = o.lobby_bots + j;
            let mut agent = Agent::new(n, &bases[j % bases.len()]);
            let signed_in = j % 2 == 0;
            if signed_in {
                agent.cookies.extend(sessions.next());
            }
            let tally = tally.clone();
            tasks.push(tokio::spawn(person(
                j,
                agent,
                signed_in,
                (o.think_ms, o.arrive_ms),
                tally,
                stop,
            )));
        }
        for t in tasks {
            let _ = t.await;
        }
    });
    let mismatches = report_lobby(o, &tally, started, db, clients);
    report_memory(servers);
    let errors = tally.errors.load(Ordering::Relaxed);
    let lost = tally.lost.load(Ordering::Relaxed) + tally.duplicated.load(Ordering::Relaxed);
    errors == 0 && lost == 0 && mismatches == 0
}

/// Prints the lobby's figures and checks every game by replay: answers the games that
/// disagree.
fn report_lobby(
    o: &Options,
    tally: &LobbyTally,
    started: Instant,
    db: &Database,
    clients: &tokio::runtime::Runtime,
) -> usize {
    let seconds = started.elapsed().as_secs_f64();
    let seats = std::mem::take(&mut *tally.seats.lock().unwrap());
    let mut kinds = std::collections::BTreeMap::new();
    for (players, rated) in seats.values() {
        let bots = players.iter().filter(|k| **k == Kind::Bot).count();
        let label = match (players.len(), bots) {
            (2, 0) => "person-person",
            (2, 1) => "person-bot",
            (2, 2) => "bot-bot",
            _ => "one seat seen",
        };
        let rated = if *rated { "rated" } else { "casual" };
        *kinds.entry(format!("{label} {rated}")).or_insert(0) += 1;
    }
    let kinds: Vec<String> = kinds.iter().map(|(k, n)| format!("{k}: {n}")).collect();
    let moves = tally.moves.load(Ordering::Relaxed);
    println!(
        "games={} ({}) ended={} resigned={} moves={moves} seconds={seconds:.1} moves_per_second={:.0} bot_gameFinish_events={}",
        seats.len(),
        kinds.join(", "),
        tally.ended.lock().unwrap().len(),
        tally.resigned.load(Ordering::Relaxed),
        moves as f64 / seconds,
        tally.bot_finishes.load(Ordering::Relaxed),
    );
    println!(
        "pairing: a person's quick pairing with an opponent waiting, press to game={} (target: p99 under 100 ms)",
        latency_figures(&tally.press_us)
    );
    println!(
        "pairing: the opponent's press to the waiting person's start (lobby stream)={}",
        latency_figures(&tally.start_us[Kind::Person as usize])
    );
    println!(
        "pairing: the opponent's press to the waiting bot's gameStart (Bot API stream)={}",
        latency_figures(&tally.start_us[Kind::Bot as usize])
    );
    println!(
        "pairing: a bot accepting a challenge, request to answer={}",
        latency_figures(&tally.accept_us)
    );
    println!(
        "pairing: a person who waited, own press to start (the others' arrival)={}",
        latency_figures(&tally.waited_us)
    );
    for mover in [Kind::Person, Kind::Bot] {
        for receiver in [Kind::Person, Kind::Bot] {
            let target = match receiver {
                Kind::Bot => " (target: p99 under 50 ms)",
                Kind::Person => "",
            };
            println!(
                "move_to_opponent {}->{}={}{target}",
                mover.name(),
                receiver.name(),
                latency_figures(&tally.latency_us[2 * mover as usize + receiver as usize])
            );
        }
    }
    let (checked, mismatches) = check_database(o, db, &tally.games, clients);
    println!(
        "lost_events={} duplicated_events={} errors={} sides_checked={checked} lost_or_wrong_moves={mismatches} (target: all 0) quick_pairing_busy_retries={}",
        tally.lost.load(Ordering::Relaxed),
        tally.duplicated.load(Ordering::Relaxed),
        tally.errors.load(Ordering::Relaxed),
        tally.busy.load(Ordering::Relaxed),
    );
    mismatches
}
