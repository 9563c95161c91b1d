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
        let every = if level == Level::Hard { 8 } else { 1 };
        let times = timed(games, every, |game, seed| {
            let m = level.choose(game, seed).expect("a move while not over");
            assert!(game.is_legal(m));
        });
        let max = times.last().copied().unwrap_or_default();
        let budget = match level {
            Level::Hard => format!(
                " budget_ms={} over_budget_ms={:.1}",
                Level::HARD_BUDGET.as_millis(),
                max.as_secs_f64() * 1000.0 - Level::HARD_BUDGET.as_secs_f64() * 1000.0
            ),
            _ => String::new(),
        };
        println!("level={level} {}{budget}", figures(&times));
    }
    // A hint (`api::hint_for`) in every eighth position of the same games: what the rate
    // limit's weight of a hint (`limits::cost(api::HINT_COST_MS)`) stands for.
    let times = timed(games, 8, |game, _| {
        assert!(agon_web::api::hint_for(game).is_some());
    });
    println!(
        "hint {} counted_ms={}",
        figures(&times),
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

/// Plays `games` games of easy against itself (game `g` with seed `g`), each cut at 300
/// plies, and times `measure` in every `every`-th position: the times, sorted.
fn timed(games: usize, every: usize, mut measure: impl FnMut(&Game, u64)) -> Vec<Duration> {
    let mut times = Vec::new();
    for g in 0..games {
        let mut game = Game::new();
        while !game.is_over() && game.moves().len() < 300 {
            if game.moves().len() % every == 0 {
                let started = Instant::now();
                measure(&game, g as u64);
                times.push(started.elapsed());
            }
            let m = Level::Easy
                .choose(&game, g as u64)
                .expect("a move while not over");
            game.play(m).expect("the bot plays legal moves");
        }
    }
    times.sort_unstable();
    times
}

/// The count, mean, 99th percentile and maximum of sorted `times`, in milliseconds.
fn figures(times: &[Duration]) -> String {
    let ms = |d: Duration| d.as_secs_f64() * 1000.0;
    let mean = times.iter().sum::<Duration>() / times.len().max(1) as u32;
    let p99 = times.get(times.len().saturating_sub(1) * 99 / 100);
    let max = times.last();
    format!(
        "moves={} mean_ms={:.2} p99_ms={:.2} max_ms={:.2}",
        times.len(),
        ms(mean),
        ms(p99.copied().unwrap_or_default()),
        ms(max.copied().unwrap_or_default())
    )
}
