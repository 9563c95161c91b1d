//! How long the computer takes a move at each level, over positions from real games.
//!
//! ```sh
//! cargo run --release -p agon-web --example levels -- 40
//! ```
//!
//! Plays `N` games (default 20) of the easy level against itself from the start, and asks
//! each level for a move in every position of them (the hard level in every eighth, to
//! keep the run short), timing it; prints per level the mean, p99 and largest time a
//! move, and how far the largest is over the level's budget; the same for a hint (every
//! eighth position), against the time the search queue and the rate limit count for it.
//! Also times what every move request costs besides the search: drawing the state (with its
//! SVG) and serializing it.

use std::time::{Duration, Instant};

use agon_core::{Game, Position, Side};
use agon_web::game::WebGame;
use agon_web::{GameState, Level};

fn main() {
    let games: usize = std::env::args()
        .nth(1)
        .map(|n| n.parse().expect("a number of games"))
        .unwrap_or(20);
    for level in Level::ALL {
        let mut times = Vec::new();
        for g in 0..games {
            let mut game = Game::new();
            // Bounded: a long game is cut at 300 plies.
            while !game.is_over() && game.moves().len() < 300 {
                let every = if level == Level::Hard { 8 } else { 1 };
                if game.moves().len() % every == 0 {
                    let started = Instant::now();
                    let m = level
                        .choose(&game, g as u64)
                        .expect("a move while not over");
                    times.push(started.elapsed());
                    assert!(game.is_legal(m));
                }
                let m = Level::Easy
                    .choose(&game, g as u64)
                    .expect("a move while not over");
                game.play(m).expect("the bot plays legal moves");
            }
        }
        times.sort_unstable();
        let mean = times.iter().sum::<Duration>() / times.len().max(1) as u32;
        let p99 = times[(times.len() - 1) * 99 / 100];
        let max = *times.last().unwrap();
        let budget = match level {
            Level::Hard => format!(
                " budget_ms={} over_budget_ms={:.1}",
                Level::HARD_BUDGET.as_millis(),
                max.as_secs_f64() * 1000.0 - Level::HARD_BUDGET.as_secs_f64() * 1000.0
            ),
            _ => String::new(),
        };
        println!(
            "level={level} moves={} mean_ms={:.2} p99_ms={:.2} max_ms={:.2}{budget}",
            times.len(),
            mean.as_secs_f64() * 1000.0,
            p99.as_secs_f64() * 1000.0,
            max.as_secs_f64() * 1000.0,
        );
    }
    // A hint (`api::hint_for`) in every eighth position of the same games: what the rate
    // limit's weight of a hint (`limits::cost(api::HINT_COST_MS)`) stands for.
    let mut times = Vec::new();
    for g in 0..games {
        let mut game = Game::new();
        while !game.is_over() && game.moves().len() < 300 {
            if game.moves().len() % 8 == 0 {
                let started = Instant::now();
                assert!(agon_web::api::hint_for(&game).is_some());
                times.push(started.elapsed());
            }
            let m = Level::Easy
                .choose(&game, g as u64)
                .expect("a move while not over");
            game.play(m).expect("the bot plays legal moves");
        }
    }
    times.sort_unstable();
    let mean = times.iter().sum::<Duration>() / times.len().max(1) as u32;
    println!(
        "hint moves={} mean_ms={:.2} p99_ms={:.2} max_ms={:.2} counted_ms={}",
        times.len(),
        mean.as_secs_f64() * 1000.0,
        times[(times.len() - 1) * 99 / 100].as_secs_f64() * 1000.0,
        times.last().unwrap().as_secs_f64() * 1000.0,
        agon_web::api::HINT_COST_MS
    );
    let game = WebGame::new(
        "0011223344556677".into(),
        [0; 32],
        Side::White,
        Level::Easy,
        1,
        Position::start(),
    );
    let n = 2000;
    let started = Instant::now();
    let mut bytes = 0;
    for _ in 0..n {
        bytes += serde_json::to_string(&GameState::of(&game)).unwrap().len();
    }
    let state_us = started.elapsed().as_secs_f64() * 1e6 / n as f64;
    let started = Instant::now();
    let mut svg_bytes = 0;
    for _ in 0..n {
        svg_bytes += agon_svg::Svg::new(&Position::start()).to_string().len();
    }
    println!(
        "svg_us={:.1} svg_bytes={}",
        started.elapsed().as_secs_f64() * 1e6 / n as f64,
        svg_bytes / n
    );
    println!("state_json_us={state_us:.1} state_bytes={}", bytes / n);
}
