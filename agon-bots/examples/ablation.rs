//! What each search technique brings: the engine with one of its [`Techniques`] switched
//! off, against the engine with all of them.
//!
//! ```text
//! cargo run --release -p agon-bots --example ablation -- [DEPTH] [POSITIONS] [GAMES] [MS] [TECHNIQUE...]
//! cargo run --release -p agon-bots --example ablation -- 8 40 40 20
//! cargo run --release -p agon-bots --example ablation -- 10 30 0 0 aspiration killers
//! ```
//!
//! First, time to depth: the first POSITIONS book positions (default 40) are each searched
//! to DEPTH (default 8) on one thread with a fresh table, and the nodes and time are
//! printed against those of the full engine, with how often the best move is the same.
//! Techniques meant to reach a depth sooner (the table, aspiration windows, PVS, killers
//! and history, late-move reductions) show their cost or gain here. Then, if GAMES is
//! given, each engine missing a technique plays GAMES book games (colours swapped) against
//! the full engine at MS milliseconds a move (default 20) on 2 threads: the measure of what
//! the search finds for its time, and the only one for quiescence. Naming techniques
//! (`table`, `aspiration`, `pvs`, `killers`, `lmr`, `quiescence`) measures only those.

use std::time::Duration;

use agon_bots::arena::{run_match_of, MatchOptions};
use agon_bots::{book, Bot, Engine, Limits, Technique, Techniques};

/// The full engine, then the engine missing each technique named (all when none is).
fn variants(names: &[String]) -> Vec<(String, Techniques)> {
    let chosen: Vec<Technique> = if names.is_empty() {
        Technique::ALL.to_vec()
    } else {
        names
            .iter()
            .map(|name| {
                Technique::from_name(name).unwrap_or_else(|| {
                    let known: Vec<&str> = Technique::ALL.iter().map(|t| t.name()).collect();
                    panic!("no technique {name:?}: the names are {}", known.join(", "))
                })
            })
            .collect()
    };
    let mut variants = vec![("all".to_string(), Techniques::ALL)];
    for t in chosen {
        variants.push((format!("no {t}"), Techniques::ALL.without(t)));
    }
    variants
}

fn number(args: &[String], i: usize, default: u64, what: &str) -> u64 {
    args.get(i).map_or(default, |t| {
        t.parse()
            .unwrap_or_else(|_| panic!("{what} is a number, not {t:?}"))
    })
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let depth = number(&args, 0, 8, "DEPTH").clamp(1, u64::from(Engine::MAX_DEPTH)) as u32;
    let positions = number(&args, 1, 40, "POSITIONS") as usize;
    let games = number(&args, 2, 0, "GAMES") as u32;
    let ms = number(&args, 3, 20, "MS");
    let variants = variants(args.get(4..).unwrap_or_default());
    let book = book::standard();
    let positions = &book[..positions.min(book.len())];

    println!(
        "time to depth {depth} on {} book positions (1 thread, fresh table):",
        positions.len()
    );
    println!(
        "{:<24} {:>12} {:>8} {:>10} {:>8} {:>10}",
        "engine", "nodes", "ratio", "ms", "ratio", "same move"
    );
    let mut full: Option<(u64, f64, Vec<String>)> = None;
    for (name, techniques) in &variants {
        let techniques = *techniques;
        let (mut nodes, mut ms_total, mut moves) = (0u64, 0f64, Vec::new());
        for position in positions {
            let mut engine = Engine::new(Limits::depth(depth)).with_techniques(techniques);
            let analysis = engine
                .analyse(position, Limits::depth(depth), 1)
                .expect("book positions go on");
            nodes += analysis.nodes;
            ms_total += analysis.time.as_secs_f64() * 1e3;
            moves.push(analysis.best_move().to_string());
        }
        let (base_nodes, base_ms, base_moves) =
            full.get_or_insert((nodes, ms_total, moves.clone()));
        let same = moves
            .iter()
            .zip(base_moves.iter())
            .filter(|(a, b)| a == b)
            .count();
        println!(
            "{name:<24} {nodes:>12} {:>8.2} {ms_total:>10.0} {:>8.2} {:>6}/{}",
            nodes as f64 / *base_nodes as f64,
            ms_total / *base_ms,
            same,
            positions.len()
        );
    }

    if games == 0 {
        return;
    }
    let time = Duration::from_millis(ms.max(1));
    let options = MatchOptions::new(games, 1)
        .with_book(book.clone())
        .with_concurrency(2);
    println!("\n{games} book games at {ms} ms a move against the full engine:");
    let engine = move |techniques: Techniques| {
        move |_seed: u64| {
            Box::new(Engine::new(Limits::time(time)).with_techniques(techniques))
                as Box<dyn Bot + Send>
        }
    };
    let full = engine(Techniques::ALL);
    for (name, techniques) in &variants[1..] {
        let variant = engine(*techniques);
        let report = run_match_of((name, &variant), ("all", &full), &options, |_, _, _| {})
            .unwrap_or_else(|e| {
                eprintln!("error: {e}");
                std::process::exit(1)
            });
        println!("{report}");
    }
}
