//! The engine's speed under each rule set: nodes per second of a search to a fixed depth
//! on book positions, the presets and every single-option variant against the standard
//! rules.
//!
//! ```text
//! cargo run --release -p agon-bots --example rules_speed -- [DEPTH] [POSITIONS] [RULES...]
//! cargo run --release -p agon-bots --example rules_speed -- 7 30
//! cargo run --release -p agon-bots --example rules_speed -- 7 30 ludii standard+between=trapped
//! ```
//!
//! The first POSITIONS book positions (default 30), put under each rule set
//! (`agon_bots::book::under_rules`), are each searched to DEPTH (default 7) on one thread
//! with a fresh table; a line per rule set gives the nodes, the time and the nodes per
//! second, and their ratio to the standard rules' (measured first).

use std::time::Instant;

use agon_bots::{book, Engine, Limits};
use agon_core::Rules;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let depth: u32 = args
        .first()
        .map_or(7, |t| t.parse().expect("DEPTH is a number"));
    let positions: usize = args
        .get(1)
        .map_or(30, |t| t.parse().expect("POSITIONS is a number"));
    let mut sets: Vec<Rules> = args
        .iter()
        .skip(2)
        .map(|name| name.parse().unwrap_or_else(|e| panic!("{name}: {e}")))
        .collect();
    if sets.is_empty() {
        sets = Rules::presets_and_variants(100).collect();
    }
    if sets.first() != Some(&Rules::STANDARD) {
        sets.insert(0, Rules::STANDARD);
    }
    let openings: Vec<_> = book::standard().into_iter().take(positions).collect();
    println!(
        "depth {depth} on {} book positions (1 thread, fresh table):",
        openings.len()
    );
    println!(
        "{:<36} {:>10} {:>8} {:>10} {:>6}",
        "rules", "nodes", "ms", "nodes/s", "ratio"
    );
    let mut standard_rate = None;
    for rules in sets {
        let name = rules.to_string();
        let (mut nodes, started) = (0u64, Instant::now());
        for p in book::under_rules(&openings, rules) {
            let mut engine = Engine::new(Limits::depth(depth));
            let analysis = engine
                .analyse(&p, Limits::depth(depth), 1)
                .expect("a book position is not over");
            nodes += analysis.nodes;
        }
        let seconds = started.elapsed().as_secs_f64();
        let rate = nodes as f64 / seconds;
        let base = *standard_rate.get_or_insert(rate);
        println!(
            "{name:<36} {nodes:>10} {:>8.0} {rate:>10.0} {:>6.2}",
            seconds * 1000.0,
            rate / base
        );
    }
}
