//! How many engine requests the analysis board gets answered per core at its default
//! budget: the figure in the README's "Analysis board". Printed, not asserted: it is this
//! machine's.
//!
//! ```sh
//! cargo run --release -p agon-web --example analysis_rate
//! cargo run --release -p agon-web --example analysis_rate -- --clients 4 --requests 40
//! ```
//!
//! A server process (this example started again with `--serve`, as `examples/load.rs`
//! does) runs on one runtime thread with one search worker, on a new SQLite database;
//! `--clients` clients send, each after its last answer, what the board sends for the
//! engine's line at a node: `POST /api/analysis` with the rules, the moves from the start
//! and `multipv: 1`, no budget (so the default, `http::analysis::DEFAULT_NODES`), until
//! `--requests` are answered. The positions are those of a fixed pseudo-random game,
//! one a request. It prints the requests a second (wall clock), the latency's median and
//! 99th percentile, and the server process's CPU seconds a request (user + system,
//! `/proc/PID/stat`): its inverse is the requests one fully busy core answers a second,
//! the "per core" figure, whatever else the machine runs.

mod common;

use std::time::{Duration, Instant};

use agon_core::random::{random_move, Rng};
use agon_core::Game;
use serde_json::json;

struct Options {
    clients: usize,
    requests: usize,
}

fn options() -> Options {
    let mut o = Options {
        clients: 4,
        requests: 40,
    };
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut it = args.iter();
    while let Some(flag) = it.next() {
        let value = it.next().and_then(|v| v.parse::<usize>().ok());
        let (Some(value), true) = (value, matches!(flag.as_str(), "--clients" | "--requests"))
        else {
            eprintln!("usage: analysis_rate [--clients N] [--requests N]");
            std::process::exit(2)
        };
        match flag.as_str() {
            "--clients" => o.clients = value.max(1),
            _ => o.requests = value.max(1),
        }
    }
    o
}

/// The moves of a fixed pseudo-random game of at most `plies` plies (agon-core's
/// `random_move`, seed 7), as texts: request `i` analyses the position after its first
/// `i % len` moves.
fn line(plies: usize) -> Vec<String> {
    let mut rng = Rng::new(7);
    let mut game = Game::new();
    while game.moves().len() < plies && !game.is_over() {
        let Some(m) = random_move(game.position(), &mut rng) else {
            break;
        };
        game.play(m).expect("a legal move");
    }
    game.moves().iter().map(|m| m.to_string()).collect()
}

/// The `q` quantile (0 to 1) of sorted `xs`.
fn quantile(xs: &[Duration], q: f64) -> Duration {
    xs[((xs.len() - 1) as f64 * q).round() as usize]
}

fn main() {
    if common::serve_if_asked() {
        return;
    }
    let o = options();
    let dir = tempfile::tempdir().expect("a temporary directory");
    let path = dir.path().join("analysis.sqlite3");
    let server = common::Server::start_with(&path.display().to_string(), Some(1), Some(1));
    let url = format!("{}/api/analysis", server.base);
    let moves = line(60);
    let runtime = tokio::runtime::Runtime::new().expect("a runtime");
    let client = reqwest::Client::new();
    // One request first, out of the count: the server's first search sets things up.
    let warm = json!({"rules": "standard", "moves": [], "multipv": 1});
    runtime.block_on(async {
        let answer = client
            .post(&url)
            .json(&warm)
            .send()
            .await
            .expect("a server");
        assert!(answer.status().is_success(), "{}", answer.status());
    });
    let next = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let cpu_before = common::cpu_seconds(server.pid());
    let start = Instant::now();
    let mut latencies: Vec<Duration> = runtime.block_on(async {
        let tasks: Vec<_> = (0..o.clients)
            .map(|_| {
                let (client, url, moves, next) =
                    (client.clone(), url.clone(), moves.clone(), next.clone());
                tokio::spawn(async move {
                    let mut seen = Vec::new();
                    loop {
                        let i = next.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
                        if i >= o.requests {
                            return seen;
                        }
                        let body = json!({
                            "rules": "standard",
                            "moves": moves[..i % moves.len()],
                            "multipv": 1,
                        });
                        let sent = Instant::now();
                        let answer = client.post(&url).json(&body).send().await.expect("sent");
                        let status = answer.status();
                        let text = answer.text().await.expect("an answer");
                        assert!(status.is_success(), "{status} {text}");
                        seen.push(sent.elapsed());
                    }
                })
            })
            .collect();
        let mut all = Vec::new();
        for task in tasks {
            all.extend(task.await.expect("a client"));
        }
        all
    });
    let wall = start.elapsed().as_secs_f64();
    let cpu = common::cpu_seconds(server.pid()) - cpu_before;
    latencies.sort();
    let n = latencies.len();
    println!(
        "{n} analysis requests at the default budget ({} nodes), {} clients, a server of 1 runtime thread and 1 search worker:",
        agon_web::http::analysis::DEFAULT_NODES,
        o.clients
    );
    println!(
        "  {:.2} requests/s (wall clock, {wall:.1} s); latency p50 {} ms, p99 {} ms",
        n as f64 / wall,
        quantile(&latencies, 0.5).as_millis(),
        quantile(&latencies, 0.99).as_millis(),
    );
    println!(
        "  server CPU {cpu:.1} s: {:.0} ms a request, {:.2} requests/s per fully busy core",
        cpu * 1000.0 / n as f64,
        n as f64 / cpu.max(1e-9),
    );
}
