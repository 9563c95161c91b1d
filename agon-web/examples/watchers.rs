//! The cost of many pages watching one long game: 1,000 event streams open on a game of
//! 10,000 plies, then 10 draw offers (each offered and declined: 20 versions), as a
//! popular game watched live.
//!
//! ```sh
//! cargo run --release -p agon-web --example watchers
//! cargo run --release -p agon-web --example watchers -- --watchers 200 --plies 2000 --offers 5
//! ```
//!
//! The game is written straight into a new SQLite database (under the rules
//! `standard+repetition=off+limit=none`, random moves that end nothing), then a server
//! process (this example started again with `--serve`, as `examples/load.rs` does) serves
//! it on a loopback port, so that the clients' work is not counted as the server's. Each
//! watcher opens `GET /api/games/{id}/events?since=V` at the game's current version, as a
//! page does once it has the state. The example prints the server process's CPU seconds
//! (user + system, `/proc/PID/stat`) from before the streams open until every stream
//! received the last version, and the bytes the streams carried.

mod common;

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use agon_core::random::Rng;
use agon_core::{Game, Rules, Side};
use agon_web::game::{Opponent, WebGame};
use agon_web::{Level, Store};
use serde_json::json;
use sha2::Digest;

struct Options {
    watchers: usize,
    plies: usize,
    offers: usize,
}

fn options() -> Options {
    let mut o = Options {
        watchers: 1000,
        plies: 10_000,
        offers: 10,
    };
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut it = args.iter();
    while let Some(flag) = it.next() {
        let value = it.next().and_then(|v| v.parse::<usize>().ok());
        let Some(value) = value else {
            eprintln!("usage: watchers [--watchers N] [--plies N] [--offers N]");
            std::process::exit(2)
        };
        match flag.as_str() {
            "--watchers" => o.watchers = value,
            "--plies" => o.plies = value,
            "--offers" => o.offers = value,
            _ => {
                eprintln!("unknown flag {flag}");
                std::process::exit(2)
            }
        }
    }
    o
}

/// A friend game of `plies` random moves that end nothing, with both seats taken.
fn long_game(plies: usize, white: &str, black: &str) -> WebGame {
    let rules: Rules = "standard+repetition=off+limit=none"
        .parse()
        .expect("a rule set");
    let mut game = WebGame::new(
        "00112233445566ff".into(),
        sha2::Sha256::digest(white.as_bytes()).into(),
        Side::White,
        Level::Easy,
        1,
        agon_core::Position::start()
            .with_rules(rules)
            .expect("the start under these rules"),
    );
    game.opponent = Opponent::Friend;
    game.guest_sha256 = Some(sha2::Sha256::digest(black.as_bytes()).into());
    let mut rng = Rng::new(7);
    let mut played: Game = game.game.clone();
    for _ in 0..plies {
        let legal = played.legal_moves();
        let start = rng.below(legal.len());
        // The first move from a random one that leaves the game going.
        let next = (0..legal.len())
            .map(|k| legal[(start + k) % legal.len()])
            .find(|&m| {
                let mut after = played.clone();
                after.play(m).is_ok() && !after.is_over()
            })
            .expect("a move that ends nothing");
        played.play(next).expect("a legal move");
    }
    game.game = played;
    game.version = 1;
    game
}

fn main() {
    if common::serve_if_asked() {
        return;
    }
    let o = options();
    let dir = tempfile::tempdir().expect("a temporary directory");
    let path = dir.path().join("watchers.sqlite3");
    let (white, black) = (
        "white-token-of-the-watched-game",
        "black-token-of-the-watched-game",
    );
    let game = long_game(o.plies, white, black);
    let id = game.id.clone();
    let clients = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a runtime");
    clients.block_on(async {
        let store = Store::open(&path).expect("a new database");
        // Stored now: a game idle for days would be pruned as the server starts.
        let now = agon_web::now_ms();
        store.insert(&game, now).await.expect("the game stored");
    });

    let server = common::Server::start(&path.display().to_string(), None);
    let base = server.base.clone();
    let pid = server.pid();

    let (cpu, bytes, seconds, last) = clients.block_on(async {
        let client = reqwest::Client::new();
        let state: serde_json::Value = client
            .get(format!("{base}/api/games/{id}"))
            .send()
            .await
            .expect("the state")
            .json()
            .await
            .expect("the state's JSON");
        let version = state["version"].as_i64().expect("a version");
        let last = version + 2 * o.offers as i64;
        let bytes = Arc::new(AtomicU64::new(0));
        let cpu_before = common::cpu_seconds(pid);
        let started = Instant::now();
        let mut streams = Vec::new();
        for _ in 0..o.watchers {
            let response = client
                .get(format!("{base}/api/games/{id}/events?since={version}"))
                .send()
                .await
                .expect("a stream");
            assert_eq!(response.status(), 200, "a stream opens");
            streams.push(tokio::spawn(watch(response, last, bytes.clone())));
        }
        for n in 0..o.offers {
            let (offer, answer) = if n % 2 == 0 {
                (white, black)
            } else {
                (black, white)
            };
            for (token, what) in [(offer, "offer"), (answer, "decline")] {
                let r = client
                    .post(format!("{base}/api/games/{id}/draw"))
                    .json(&json!({"token": token, "answer": what}))
                    .send()
                    .await
                    .expect("an offer");
                assert_eq!(
                    r.status(),
                    200,
                    "{what}: {}",
                    r.text().await.unwrap_or_default()
                );
            }
        }
        for stream in streams {
            tokio::time::timeout(Duration::from_secs(300), stream)
                .await
                .expect("every stream gets the last version within 300 s")
                .expect("a watcher");
        }
        let seconds = started.elapsed().as_secs_f64();
        (
            common::cpu_seconds(pid) - cpu_before,
            bytes.load(Ordering::Relaxed),
            seconds,
            last,
        )
    });
    println!(
        "watchers={} plies={} offers={} (versions {}..={last}): server_cpu_s={cpu:.2} bytes_sent={bytes} ({:.1} MB) wall_s={seconds:.1}",
        o.watchers,
        o.plies,
        o.offers,
        last - 2 * o.offers as i64 + 1,
        bytes as f64 / 1e6
    );
    drop(server);
}

/// Reads a stream until it carries version `last` (an `id: last` line), counting its
/// bytes.
async fn watch(mut response: reqwest::Response, last: i64, bytes: Arc<AtomicU64>) {
    let marker = format!("\nid: {last}\n");
    let mut tail = String::new();
    while let Ok(Some(chunk)) = response.chunk().await {
        bytes.fetch_add(chunk.len() as u64, Ordering::Relaxed);
        tail.push_str(&String::from_utf8_lossy(&chunk));
        if tail.contains(&marker) {
            return;
        }
        // Only the end can hold the start of the marker.
        if tail.len() > marker.len() {
            let mut cut = tail.len() - marker.len();
            while !tail.is_char_boundary(cut) {
                cut -= 1;
            }
            tail.drain(..cut);
        }
    }
    panic!("a stream ended before version {last}");
}
