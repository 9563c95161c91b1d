//! Texel tuning of the engine's evaluation weights (see `tuning/README.md`).
//!
//! ```text
//! # 1. Data: self-play games of the engine from the book, one line per quiet position:
//! #    the result for the side to move (1, 0.5 or 0), then the feature values.
//! cargo run --release -p agon-bots --example tune -- gen 600 engine:n3000 1 > tuning/data.csv
//! # 2. Fit: logistic regression of the results on the features, printing the weights.
//! cargo run --release -p agon-bots --example tune -- fit tuning/data.csv --decisive > tuning/weights.txt
//! # 3. Check: the engine with the new weights against the engine with the current ones,
//! #    node-limited, from the book, until an SPRT [0, 20] Elo (alpha = beta = 0.05) decides.
//! cargo run --release -p agon-bots --example tune -- sprt tuning/weights.txt 5000 2000
//! ```
//!
//! `--rules TEXT` (anywhere on the line, say `--rules ludii`) plays `gen` and `sprt` under
//! that rule set (`agon_core::Rules` text: `standard`, `ludii`, `standard+stuck=pass`),
//! from the book put under it; the standard rules by default.

use std::io::{BufRead, Write};

use agon_bots::arena::{game_seeds, run_match_of, MatchOptions, MAX_PLIES};
use agon_bots::engine_eval::{features, FEATURES, NUM_FEATURES, WEIGHTS};
use agon_bots::{book, bot_by_name, Bot, Engine, Limits, Sprt};
use agon_core::{Game, Rules, Side};

const USAGE: &str =
    "tune gen GAMES SPEC SEED | tune fit DATA.csv [--decisive] [--monotone] | tune sprt WEIGHTS.txt NODES MAX_GAMES; [--rules TEXT]";

fn main() {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let mut rules = Rules::STANDARD;
    if let Some(i) = args.iter().position(|a| a == "--rules") {
        let Some(text) = args.get(i + 1) else {
            eprintln!("--rules needs a value\nusage: {USAGE}");
            std::process::exit(2);
        };
        rules = text.parse().unwrap_or_else(|e| {
            eprintln!("bad --rules {text:?}: {e}\nusage: {USAGE}");
            std::process::exit(2);
        });
        args.drain(i..i + 2);
    }
    match args.first().map(String::as_str) {
        Some("gen") if args.len() == 4 => {
            let games: u32 = args[1].parse().expect(USAGE);
            let seed: u64 = args[3].parse().expect(USAGE);
            generate(games, &args[2], seed, rules);
        }
        Some("fit")
            if args.len() >= 2
                && args[2..]
                    .iter()
                    .all(|a| a == "--decisive" || a == "--monotone") =>
        {
            let flag = |f: &str| args[2..].iter().any(|a| a == f);
            fit(&args[1], flag("--decisive"), flag("--monotone"));
        }
        Some("sprt") if args.len() == 4 => {
            let nodes: u64 = args[2].parse().expect(USAGE);
            let games: u32 = args[3].parse().expect(USAGE);
            sprt(&args[1], nodes, games, rules);
        }
        _ => {
            eprintln!("usage: {USAGE}");
            std::process::exit(2);
        }
    }
}

/// Plays `games` self-play games of `spec` under `rules` from the book (a new opening each
/// game) and prints the quiet positions with the result for the side to move.
fn generate(games: u32, spec: &str, seed: u64, rules: Rules) {
    let openings = book::under_rules(&book::standard(), rules);
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    writeln!(out, "result,{}", FEATURES.join(",")).unwrap();
    for i in 0..games {
        let [white_seed, black_seed] = game_seeds(seed, i);
        let mut white = bot_by_name(spec, white_seed).expect("a bot spec");
        let mut black = bot_by_name(spec, black_seed).expect("a bot spec");
        let start = openings[(i as usize + seed as usize) % openings.len()];
        // The one game loop (agon-core's, which the arena plays through).
        let game = Game::play_out(start, MAX_PLIES, |game| {
            let bot = match game.position().chooser() {
                Side::White => &mut white,
                Side::Black => &mut black,
            };
            bot.choose_in_game(game)
        })
        .unwrap_or_else(|e| {
            eprintln!("error: game {i}: bot {spec}: {e}");
            std::process::exit(1)
        });
        let winner = game.outcome().and_then(|o| o.winner);
        for p in game.positions().iter().skip(1) {
            // Quiet positions only: no return due, no capture available to the mover.
            if p.must_return() || p.is_over() {
                continue;
            }
            let f = features(p);
            if f[15] > 0 {
                continue;
            }
            let result = match winner {
                None => 0.5,
                Some(w) if w == p.turn() => 1.0,
                Some(_) => 0.0,
            };
            let values: Vec<String> = f.iter().map(i32::to_string).collect();
            writeln!(out, "{result},{}", values.join(",")).unwrap();
        }
        eprintln!(
            "game {i}: {} plies, {}",
            game.moves().len(),
            game.outcome()
                .map_or("ply cap".to_string(), |o| o.to_string())
        );
    }
}

/// The model's expected result for the side to move at `eval` centipoints.
fn sigmoid(eval: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-eval / 400.0))
}

/// Fits the weights by gradient descent on the cross-entropy, from the current weights,
/// and prints them with the loss before and after. With `decisive`, positions of drawn
/// games are left out. Features that do not vary in the data keep their weights. With
/// `monotone`, the ring weights are kept non-increasing outward after each step
/// ([`MONOTONE_CHAINS`]).
fn fit(path: &str, decisive: bool, monotone: bool) {
    let file = std::fs::File::open(path).expect("the data file");
    let mut rows: Vec<(f64, [f64; NUM_FEATURES])> = Vec::new();
    for line in std::io::BufReader::new(file).lines().skip(1) {
        let line = line.expect("a line");
        let mut values = line.split(',').map(|v| v.parse::<f64>().expect("a number"));
        let result = values.next().expect("a result");
        if decisive && result == 0.5 {
            continue;
        }
        let mut f = [0.0; NUM_FEATURES];
        for (slot, v) in f.iter_mut().zip(values) {
            *slot = v;
        }
        rows.push((result, f));
    }
    let n = rows.len() as f64;
    eprintln!("{} positions", rows.len());
    let loss = |w: &[f64; NUM_FEATURES]| -> f64 {
        rows.iter()
            .map(|(r, f)| {
                let e: f64 = f.iter().zip(w).map(|(a, b)| a * b).sum();
                let p = sigmoid(e).clamp(1e-9, 1.0 - 1e-9);
                -(r * p.ln() + (1.0 - r) * (1.0 - p).ln())
            })
            .sum::<f64>()
            / n
    };
    let mut w: [f64; NUM_FEATURES] = WEIGHTS.map(f64::from);
    let before = loss(&w);
    // Per-feature scale, so that one learning rate suits features of any spread.
    let mut scale = [0.0f64; NUM_FEATURES];
    for (_, f) in &rows {
        for (s, v) in scale.iter_mut().zip(f) {
            *s += v * v;
        }
    }
    for s in &mut scale {
        *s = (*s / n).sqrt();
    }
    // A feature that is always 0 here carries no information: its weight is kept (Adam
    // would otherwise turn the tiny L2 gradient into full steps toward 0).
    let trained: Vec<bool> = scale.iter().map(|&s| s > 1e-9).collect();
    let k = 10f64.ln() / 400.0;
    // Adam on the cross-entropy, with a small L2 pull toward zero.
    let (mut m, mut v) = ([0.0f64; NUM_FEATURES], [0.0f64; NUM_FEATURES]);
    let (b1, b2, rate) = (0.9, 0.999, 2.0);
    for step in 1..=3000 {
        let mut grad = [0.0f64; NUM_FEATURES];
        for (r, f) in &rows {
            let e: f64 = f.iter().zip(&w).map(|(a, b)| a * b).sum();
            let err = sigmoid(e) - r;
            for (g, x) in grad.iter_mut().zip(f) {
                *g += err * k * x;
            }
        }
        for i in (0..NUM_FEATURES).filter(|&i| trained[i]) {
            let g = grad[i] / n + 1e-7 * w[i];
            m[i] = b1 * m[i] + (1.0 - b1) * g;
            v[i] = b2 * v[i] + (1.0 - b2) * g * g;
            let mh = m[i] / (1.0 - f64::powi(b1, step));
            let vh = v[i] / (1.0 - f64::powi(b2, step));
            w[i] -= rate * mh / (vh.sqrt() + 1e-12) / scale[i].max(0.05);
        }
        if monotone {
            for chain in MONOTONE_CHAINS {
                project_non_increasing(&mut w, chain);
            }
        }
        if step % 500 == 0 {
            eprintln!("step {step}: loss {:.5}", loss(&w));
        }
    }
    println!("# loss before {before:.5}, after {:.5}", loss(&w));
    for (name, x) in FEATURES.iter().zip(&w) {
        println!("{:>5}, // {name}", x.round() as i32);
    }
}

/// Chains of features whose weights `fit --monotone` keeps non-increasing, in this order:
/// a piece is worth at least as much one ring further in.
const MONOTONE_CHAINS: [&[&str]; 2] = [
    &[
        "queen_throne",
        "queen_ring1",
        "queen_ring2",
        "queen_ring3",
        "queen_ring4",
    ],
    &[
        "guards_ring1",
        "guards_ring2",
        "guards_ring3",
        "guards_ring4",
    ],
];

/// Replaces the weights of `chain` by their closest non-increasing sequence (least
/// squares; pool adjacent violators).
fn project_non_increasing(w: &mut [f64; NUM_FEATURES], chain: &[&str]) {
    let index: Vec<usize> = chain
        .iter()
        .map(|name| FEATURES.iter().position(|f| f == name).expect("a feature"))
        .collect();
    // Blocks of (sum, count), each block's mean no greater than the previous one's.
    let mut blocks: Vec<(f64, f64)> = Vec::new();
    for &i in &index {
        blocks.push((w[i], 1.0));
        while blocks.len() >= 2 {
            let (s1, c1) = blocks[blocks.len() - 1];
            let (s0, c0) = blocks[blocks.len() - 2];
            if s1 / c1 <= s0 / c0 {
                break;
            }
            blocks.pop();
            let last = blocks.len() - 1;
            blocks[last] = (s0 + s1, c0 + c1);
        }
    }
    let mut k = 0;
    for (s, c) in blocks {
        for _ in 0..c as usize {
            w[index[k]] = s / c;
            k += 1;
        }
    }
}

/// Reads weights as `fit` prints them: the first number of each line not starting `#`.
fn read_weights(path: &str) -> [i32; NUM_FEATURES] {
    let text = std::fs::read_to_string(path).expect("the weights file");
    let values: Vec<i32> = text
        .lines()
        .filter(|l| !l.trim_start().starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let n = l.split(',').next().unwrap_or("").trim();
            n.parse().expect("a weight")
        })
        .collect();
    values.try_into().expect("one weight per feature")
}

/// The engine with the weights of `path` (A) against the engine with [`WEIGHTS`] (B), both
/// limited to `nodes` nodes a move, from the book, until the SPRT decides.
fn sprt(path: &str, nodes: u64, games: u32, rules: Rules) {
    let weights = read_weights(path);
    let tuned = move |_| {
        Box::new(Engine::new(Limits::nodes(nodes)).with_weights(weights)) as Box<dyn Bot + Send>
    };
    let current = move |_| Box::new(Engine::new(Limits::nodes(nodes))) as Box<dyn Bot + Send>;
    let options = MatchOptions::new(games, 1)
        .with_book(book::standard())
        .with_sprt(Sprt::new(0.0, 20.0, 0.05, 0.05).expect("valid bounds"))
        .with_concurrency(2)
        .with_rules(rules);
    let report = run_match_of(
        ("tuned", &tuned),
        ("current", &current),
        &options,
        |i, _, r| {
            eprintln!(
                "game {i}: {} plies, {}",
                r.plies,
                r.outcome.map_or("ply cap".to_string(), |o| o.to_string())
            )
        },
    )
    .unwrap_or_else(|e| {
        eprintln!("error: {e}");
        std::process::exit(1)
    });
    println!("{report}");
}
