//! Prints how long the server takes to review a 400-ply game at its fixed budget
//! (`agon_bots::Review::DEFAULT_NODES` a position), the figures made as a review task
//! makes them (`service::review::ReviewFigures`): the figure in the README's "Game
//! review". Printed, not asserted: it is this machine's.
//!
//! `cargo run --release -p agon-web --example review_time [PLIES]`

use std::time::Instant;

use agon_bots::Review;
use agon_core::Game;
use agon_web::service::review::ReviewFigures;

/// A game of `plies` moves, each drawn from the legal ones by a fixed pseudo-random
/// sequence (a game that ends sooner is drawn again from the next seed): the same game
/// every run.
fn game_of(plies: usize) -> Game {
    for seed in 1u64.. {
        let mut state = seed;
        let mut game = Game::new();
        while game.moves().len() < plies && !game.is_over() {
            let moves = game.legal_moves();
            // xorshift64: enough to wander, the same on every machine.
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            let m = moves[(state % moves.len() as u64) as usize];
            game.play(m).expect("a legal move");
        }
        if game.moves().len() == plies {
            return game;
        }
    }
    unreachable!("some seed gives a long enough game")
}

fn main() {
    let plies = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(400);
    let game = game_of(plies);
    let start = Instant::now();
    let review = agon_bots::review(&game, Review::DEFAULT_NODES);
    let figures = ReviewFigures::of(&review);
    let elapsed = start.elapsed();
    let marked = figures
        .plies
        .iter()
        .filter(|p| p.judgement.is_some())
        .count();
    println!(
        "review of a {plies}-ply game at {} nodes a position: {:.1} s ({:.0} ms a position; {marked} actions marked)",
        Review::DEFAULT_NODES,
        elapsed.as_secs_f64(),
        elapsed.as_secs_f64() * 1000.0 / (plies + 1) as f64,
    );
}
