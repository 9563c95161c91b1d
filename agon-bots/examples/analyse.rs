//! Analyses a position with the engine and prints one line per principal variation.
//!
//! ```text
//! cargo run --release -p agon-bots --example analyse -- [SPEC] [MULTIPV] [POSITION]
//! cargo run --release -p agon-bots --example analyse -- engine:1000ms 3
//! ```
//!
//! SPEC is an engine spec (`engine:1000ms`, `engine:d10`, `engine:n1000000:t2`); the
//! position is in the text form of `agon_core::Position` (the start by default).

use agon_bots::Engine;
use agon_core::Position;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let spec = args.first().map_or("engine:1000ms", String::as_str);
    let multipv: usize = args
        .get(1)
        .map_or(1, |t| t.parse().expect("MULTIPV is a number"));
    let position: Position = match args.get(2) {
        Some(text) => text.parse().expect("a position text"),
        None => Position::start(),
    };
    let mut engine = Engine::from_spec(spec).unwrap_or_else(|e| panic!("{e}"));
    let limits = engine.limits();
    match engine.analyse(&position, limits, multipv) {
        Ok(analysis) => println!("{analysis}"),
        Err(e) => println!("{e}"),
    }
}
