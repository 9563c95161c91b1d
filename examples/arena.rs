//! Plays bots against each other with alternating colours and prints the score of the
//! first with its 95% confidence interval and Elo estimate.
//!
//! ```text
//! cargo run --release --example arena -- BOT_A BOT_B GAMES SEED [OPTIONS]
//! cargo run --release --example arena -- alphabeta:5 greedy 200 1
//! cargo run --release --example arena -- engine:100ms alphabeta:5 400 1 --book --concurrency 2
//! cargo run --release --example arena -- engine:n20000 engine:n10000 2000 1 --book --sprt 0,20
//! cargo run --release --example arena -- 'ugi:./my-engine --flag' engine 100 1 --book --tc 10+0.1 --pgn games.txt
//! ```
//!
//! Bots are specs of `agon_bots::bot_by_name`: `random`, `greedy`, `mcts:PLAYOUTS`,
//! `alphabeta:DEPTH`, `engine:100ms`, and `ugi:[100ms:][n5000:][d6:]COMMAND` for an engine
//! process that speaks UGI (`docs/UGI-HARNESS.md`): an engine that crashes, hangs, is late
//! or plays an illegal or unreadable move loses that game, the reason is listed after
//! the report (`forfeits=[...]`), and the next game gets a fresh process. Games are played through `agon_core::Game`, so
//! repetition draws count; a game reaching the ply cap counts as a draw.
//!
//! Options:
//!
//! - `--book`: start from the committed opening book (`agon_bots::book::standard`), each
//!   opening twice with colours swapped;
//! - `--tc TC`: a time control, as fastchess and cutechess give it: `10+0.1` (a game clock
//!   of 10 s per side plus 0.1 s per move, kept by the arena and passed to UGI engines in
//!   `go`; the bots of this crate think 1/40 of the base plus the increment per move),
//!   `100ms` (per move), `n5000` (nodes per move) or `d6` (depth per move), for every bot
//!   whose spec sets no limit;
//! - `--pgn FILE`: write every game's record there (agon-core's record format, with the
//!   players, the round, and a forfeit's `Termination` and `Forfeit` tags);
//! - `--sprt ELO0,ELO1[,ALPHA,BETA]`: stop once the SPRT decides (alpha and beta 0.05 by
//!   default); GAMES is then the most games;
//! - `--concurrency N`: play N games at once;
//! - `--max-plies N`: the ply cap (2000 by default);
//! - `--rules TEXT`: the rule set (`agon_core::Rules` text: `standard`, the default,
//!   `ludii`, `standard+queen-placer=captor`, ...); the book is put under it.

use std::time::Instant;

use agon_bots::arena::{run_match_with, MatchError, MatchOptions, TimeControl};
use agon_bots::{book, Sprt};
use agon_examples::{fail, parse_arg};

const USAGE: &str = "arena BOT_A BOT_B GAMES SEED [--book] [--tc 10+0.1|100ms|n5000|d6] [--pgn FILE] [--sprt ELO0,ELO1[,ALPHA,BETA]] [--concurrency N] [--max-plies N] [--rules TEXT]";

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.len() < 4 {
        fail("expected at least four arguments", USAGE);
    }
    let games: u32 = parse_arg(&args[2], "GAMES", USAGE);
    let seed: u64 = parse_arg(&args[3], "SEED", USAGE);
    let mut options = MatchOptions::new(games, seed);
    let mut pgn = None;
    let mut rest = args[4..].iter();
    while let Some(flag) = rest.next() {
        let mut value = |name: &str| {
            rest.next()
                .unwrap_or_else(|| fail(format_args!("{name} needs a value"), USAGE))
                .clone()
        };
        match flag.as_str() {
            "--book" => options = options.with_book(book::standard()),
            "--tc" => {
                let tc: TimeControl = value("--tc").parse().unwrap_or_else(|e| fail(e, USAGE));
                options = options.with_time_control(tc);
            }
            "--pgn" => {
                pgn = Some(value("--pgn"));
                options = options.with_records(true);
            }
            "--sprt" => {
                let v = value("--sprt");
                let numbers: Vec<f64> = v
                    .split(',')
                    .map(|n| parse_arg(n, "--sprt number", USAGE))
                    .collect();
                let (alpha, beta) = match numbers.len() {
                    2 => (0.05, 0.05),
                    4 => (numbers[2], numbers[3]),
                    _ => fail("--sprt takes ELO0,ELO1 or ELO0,ELO1,ALPHA,BETA", USAGE),
                };
                let sprt = Sprt::new(numbers[0], numbers[1], alpha, beta)
                    .unwrap_or_else(|e| fail(e, USAGE));
                options = options.with_sprt(sprt);
            }
            "--concurrency" => {
                options = options.with_concurrency(parse_arg(&value("--concurrency"), "N", USAGE))
            }
            "--max-plies" => {
                options = options.with_max_plies(parse_arg(&value("--max-plies"), "N", USAGE))
            }
            "--rules" => {
                let v = value("--rules");
                let rules: agon_core::Rules = v
                    .parse()
                    .unwrap_or_else(|e| fail(format_args!("bad --rules {v:?}: {e}"), USAGE));
                options = options.with_rules(rules);
            }
            other => fail(format_args!("unknown option {other:?}"), USAGE),
        }
    }
    let verbose = std::env::var_os("ARENA_VERBOSE").is_some();
    let start = Instant::now();
    let report = run_match_with(&args[0], &args[1], &options, |i, a_side, result| {
        if verbose {
            let end = result
                .outcome
                .map_or("ply cap".to_string(), |o| o.to_string());
            eprintln!("game {i}: A {a_side}, {end}, {} plies", result.plies);
        }
    })
    .unwrap_or_else(|e| match e {
        MatchError::Spec(_) => fail(e, USAGE),
        // Not a usage error: a bug of the bot.
        _ => {
            eprintln!("error: {e}");
            std::process::exit(1)
        }
    });
    println!("{report} seconds={:.1}", start.elapsed().as_secs_f64());
    if let Some(path) = pgn {
        let text: String = report.records.iter().map(|r| format!("{r}\n")).collect();
        if let Err(e) = std::fs::write(&path, text) {
            eprintln!("error: cannot write {path}: {e}");
            std::process::exit(1)
        }
    }
}
