//! Load test of the web game: many simulated players at once, each playing complete games
//! against the easy level through the HTTP API, on loopback only.
//!
//! ```sh
//! cargo run --release -p agon-web --example load -- --players 200 --games 2 --seconds 120
//! ```
//!
//! It starts the server in this process on a free loopback port with a new database (or
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

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use agon_core::random::Rng;
use agon_core::{Game, Move, Position};
use serde_json::{json, Value};

struct Options {
    players: usize,
    games: usize,
    seconds: u64,
    url: Option<String>,
    db: Option<std::path::PathBuf>,
    workers: usize,
    think_ms: u64,
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

fn percentile(sorted: &[u64], p: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let rank = ((p / 100.0) * (sorted.len() - 1) as f64).round() as usize;
    sorted[rank] as f64 / 1000.0
}

/// Replays every game of the database through agon-core and compares it with what its
/// player last saw. Answers (games checked, mismatches).
fn check_database(db: &std::path::Path, seen: &[(String, Vec<String>, bool)]) -> (usize, usize) {
    let conn = rusqlite::Connection::open(db).expect("open the database");
    let mut mismatches = 0;
    for (id, moves_seen, finished) in seen {
        let start: String = conn
            .query_row("SELECT start FROM games WHERE id = ?1", [id], |r| r.get(0))
            .expect("the game is in the database");
        let mut stmt = conn
            .prepare("SELECT move FROM moves WHERE game_id = ?1 ORDER BY ply")
            .unwrap();
        let stored: Vec<String> = stmt
            .query_map([id], |r| r.get(0))
            .unwrap()
            .map(Result::unwrap)
            .collect();
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

fn main() {
    let o = Arc::new(options());
    let dir = tempfile::tempdir().expect("a temporary directory");
    let db =
        o.db.clone()
            .unwrap_or_else(|| dir.path().join("load.sqlite3"));

    // The server: its own runtime, as a separate process would have.
    let server_runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    let base = match &o.url {
        Some(url) => url.trim_end_matches('/').to_string(),
        None => {
            let config = agon_web::Config {
                db: db.clone(),
                workers: o.workers,
                // Every simulated player comes from 127.0.0.1: one address's limits
                // would measure the limits, not the server.
                limits: agon_web::limits::LimitConfig::off(),
                ..agon_web::Config::default()
            };
            let state = agon_web::AppState::open(&config).expect("open the database");
            let listener = server_runtime
                .block_on(tokio::net::TcpListener::bind("127.0.0.1:0"))
                .expect("bind a loopback port");
            let addr = listener.local_addr().unwrap();
            server_runtime.spawn(agon_web::serve_on(listener, state, std::future::pending()));
            format!("http://{addr}")
        }
    };

    let clients = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
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
            .map(|n| tokio::spawn(player(n, base.clone(), o.clone(), tally.clone(), stop)))
            .collect();
        for t in tasks {
            let _ = t.await;
        }
    });
    let seconds = started.elapsed().as_secs_f64();
    let mut latencies = std::mem::take(&mut *tally.move_latencies_us.lock().unwrap());
    latencies.sort_unstable();
    let requests = tally.requests.load(Ordering::Relaxed);
    println!(
        "players={} games_finished={} requests={requests} seconds={seconds:.1} requests_per_second={:.0}",
        o.players,
        tally.games_finished.load(Ordering::Relaxed),
        requests as f64 / seconds
    );
    println!(
        "move_requests={} p50_ms={:.2} p99_ms={:.2} max_ms={:.2}",
        latencies.len(),
        percentile(&latencies, 50.0),
        percentile(&latencies, 99.0),
        latencies.last().copied().unwrap_or(0) as f64 / 1000.0
    );
    let errors = tally.errors.load(Ordering::Relaxed);
    let games = std::mem::take(&mut *tally.games.lock().unwrap());
    let (checked, mismatches) = if o.url.is_none() || o.db.is_some() {
        check_database(&db, &games)
    } else {
        println!("database not checked: give --db with --url");
        (0, 0)
    };
    println!(
        "errors={errors} busy_retries={} games_checked={checked} lost_or_wrong_moves={mismatches}",
        tally.busy.load(Ordering::Relaxed)
    );
    drop(server_runtime);
    if errors > 0 || mismatches > 0 {
        std::process::exit(1);
    }
}
