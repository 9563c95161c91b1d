//! Plays bots against each other with alternating colours and prints the score of the
//! first with its 95% confidence interval.
//!
//! ```text
//! cargo run --release --example arena -- BOT_A BOT_B GAMES SEED
//! cargo run --release --example arena -- alphabeta:5 greedy 200 1
//! ```
//!
//! Bots are specs of `agon_bots::bot_by_name`: `random`, `greedy`, `mcts:PLAYOUTS`,
//! `alphabeta:DEPTH`. Games are played through `agon_core::Game`, so repetition draws
//! count; a game reaching `agon_bots::arena::MAX_PLIES` plies would count as a draw.

use std::time::Instant;

use agon_bots::arena::run_match;
use agon_examples::{fail, parse_arg};

const USAGE: &str = "arena BOT_A BOT_B GAMES SEED";

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.len() != 4 {
        fail("expected four arguments", USAGE);
    }
    let games: u32 = parse_arg(&args[2], "GAMES", USAGE);
    let seed: u64 = parse_arg(&args[3], "SEED", USAGE);
    let verbose = std::env::var_os("ARENA_VERBOSE").is_some();
    let start = Instant::now();
    let stats = run_match(&args[0], &args[1], games, seed, |i, a_side, result| {
        if verbose {
            let end = result
                .outcome
                .map_or("ply cap".to_string(), |o| o.to_string());
            eprintln!("game {i}: A {a_side}, {end}, {} plies", result.plies);
        }
    })
    .unwrap_or_else(|e| fail(e, USAGE));
    println!(
        "A={} B={} {stats} seconds={:.1}",
        args[0],
        args[1],
        start.elapsed().as_secs_f64()
    );
}
