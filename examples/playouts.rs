//! Plays uniformly random full games (repetition included) and prints their statistics
//! and the speed of the engine.
//!
//! ```text
//! cargo run --release --example playouts -- GAMES SEED [THREADS]
//! ```
//!
//! The games and their statistics are those of `agon_rl::random_playouts` (game `k` draws
//! its moves from `agon_rl::game_rng(SEED, k)`), on one thread unless THREADS is given;
//! the same SEED gives the same statistics on any number of threads.

use std::io::Write;
use std::time::Instant;

use agon_core::{EndReason, Position};
use agon_examples::{fail, parse_arg};
use agon_rl::random_playouts;

const USAGE: &str = "playouts GAMES SEED [THREADS]";

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if !(2..=3).contains(&args.len()) {
        fail("expected two or three arguments", USAGE);
    }
    let games: u64 = parse_arg(&args[0], "GAMES", USAGE);
    let seed: u64 = parse_arg(&args[1], "SEED", USAGE);
    let threads: usize = args.get(2).map_or(1, |t| parse_arg(t, "THREADS", USAGE));
    let start = Instant::now();
    let stats = random_playouts(Position::start(), games, seed, threads);
    let seconds = start.elapsed().as_secs_f64();
    let rate = if seconds > 0.0 {
        stats.games as f64 / seconds
    } else {
        0.0
    };
    let mut report = format!(
        "games={} plies_mean={:.1} plies_median={:.1} white_wins={} black_wins={} draws={} \
         seconds={seconds:.3} playouts_per_second={rate:.0}\n",
        stats.games,
        stats.mean_plies(),
        stats.median_plies(),
        stats.white_wins,
        stats.black_wins,
        stats.draws,
    );
    for (reason, count) in EndReason::ALL.iter().zip(stats.reasons) {
        report.push_str(&format!("reason={reason} games={count}\n"));
    }
    // A closed pipe (`| head`) is not an error worth a panic.
    let _ = std::io::stdout().lock().write_all(report.as_bytes());
}
