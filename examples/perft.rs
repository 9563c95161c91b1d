//! Counts perft leaves from a position and prints the speed of move generation.
//!
//! ```text
//! cargo run --release --example perft -- [--rules RULES] [--position TEXT] DEPTH
//! ```
//!
//! Prints, for each depth 1..=DEPTH: `depth=D leaves=N seconds=S leaves_per_second=R`.
//! `--rules` takes a rule set's text (`ludii`, `standard+capture=same-ring`); the
//! position is read under it.

use std::io::Write;
use std::time::Instant;

use agon_core::{perft, Position, Rules};
use agon_examples::{fail, parse_arg};

const USAGE: &str = "perft [--rules RULES] [--position TEXT] DEPTH";

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut rules = Rules::STANDARD;
    let mut text = None;
    let mut depth = None;
    let mut i = 0;
    while i < args.len() {
        match args[i].as_str() {
            "--position" => {
                text = Some(
                    args.get(i + 1)
                        .unwrap_or_else(|| fail("--position needs a value", USAGE)),
                );
                i += 1;
            }
            "--rules" => {
                let value = args
                    .get(i + 1)
                    .unwrap_or_else(|| fail("--rules needs a value", USAGE));
                rules = parse_arg(value, "rules", USAGE);
                i += 1;
            }
            arg if depth.is_none() => depth = Some(parse_arg::<u32>(arg, "depth", USAGE)),
            arg => fail(format_args!("unexpected argument {arg:?}"), USAGE),
        }
        i += 1;
    }
    let depth = depth.unwrap_or_else(|| fail("missing DEPTH", USAGE));
    let position = match text {
        Some(text) => Position::from_text_with_rules(text, rules)
            .unwrap_or_else(|e| fail(format_args!("bad position: {e}"), USAGE)),
        None => Position::start_with_rules(rules),
    };
    let mut out = std::io::stdout().lock();
    for d in 1..=depth {
        let start = Instant::now();
        let leaves = perft(&position, d);
        let seconds = start.elapsed().as_secs_f64();
        let rate = if seconds > 0.0 {
            leaves as f64 / seconds
        } else {
            0.0
        };
        let line =
            format!("depth={d} leaves={leaves} seconds={seconds:.3} leaves_per_second={rate:.0}");
        // A closed pipe (`| head`) ends the run quietly.
        if writeln!(out, "{line}").and_then(|()| out.flush()).is_err() {
            return;
        }
    }
}
