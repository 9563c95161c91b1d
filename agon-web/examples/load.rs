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

/// An event stream's `state` events: (version, when it arrived, moves, outcome over).
type Arrival = (i64, Instant, Vec<String>, bool);

/// Opens a game's event stream with `token` and forwards each `state` event, stamped with
/// its arrival time, to the answered channel.
async fn stream(
    client: &reqwest::Client,
    url: String,
    cookie: String,
    errors: Arc<AtomicU64>,
) -> Option<tokio::sync::mpsc::UnboundedReceiver<Arrival>> {
    let request = client.get(&url).header(reqwest::header::COOKIE, cookie);
    let mut response = match request.send().await {
        Ok(r) if r.status() == 200 => r,
        Ok(r) => {
            eprintln!("{url}: {}", r.status());
            errors.fetch_add(1, Ordering::Relaxed);
            return None;
        }
        Err(e) => {
            eprintln!("{url}: {e}");
            errors.fetch_add(1, Ordering::Relaxed);
            return None;
        }
    };
    let (tx, rx) = tokio::sync::mpsc::unbounded_channel();
    tokio::spawn(async move {
        let mut buffer = String::new();
        // The moves as the page keeps them: a `state` sets them, a `change` edits them.
        let mut moves: Vec<String> = vec![];
        while let Ok(Some(chunk)) = response.chunk().await {
            let at = Instant::now();
            buffer.push_str(&String::from_utf8_lossy(&chunk));
            while let Some(end) = buffer.find("\n\n") {
                let block: String = buffer.drain(..end + 2).collect();
                let change = block.lines().any(|l| l == "event: change");
                if !change && !block.lines().any(|l| l == "event: state") {
                    continue;
                }
                let data: String = block
                    .lines()
                    .filter_map(|l| l.strip_prefix("data: "))
                    .collect();
                let Ok(state) = serde_json::from_str::<Value>(&data) else {
                    continue;
                };
                let version = state["version"].as_i64().unwrap_or(-1);
                if change {
                    moves.truncate(state["keep"].as_u64().unwrap_or(0) as usize);
                    moves.extend(strings(&state["added"]));
                } else {
                    moves = strings(&state["moves"]);
                }
                let arrival = (version, at, moves.clone(), !state["outcome"].is_null());
                if tx.send(arrival).is_err() {
                    return;
                }
            }
        }
    });
    Some(rx)
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
                    over |= ended;
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
