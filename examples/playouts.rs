//! Plays uniformly random full games (repetition included) and prints their statistics
//! and the speed of the engine.
//!
//! ```text
//! cargo run --release --example playouts -- GAMES SEED
//! ```

use std::io::Write;
use std::time::Instant;

use agon_core::random::{random_playout, Rng};
use agon_core::{EndReason, Game, Side};
use agon_examples::{fail, parse_arg};

const USAGE: &str = "playouts GAMES SEED";

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.len() != 2 {
        fail("expected two arguments", USAGE);
    }
    let games: usize = parse_arg(&args[0], "GAMES", USAGE);
    let seed: u64 = parse_arg(&args[1], "SEED", USAGE);
    let mut rng = Rng::new(seed);
    let mut game = Game::new();
    let mut plies = Vec::with_capacity(games);
    let (mut white, mut black, mut draws) = (0, 0, 0);
    let mut reasons = [0usize; 4];
    let start = Instant::now();
    for _ in 0..games {
        game.restart(agon_core::Position::start());
        let outcome = random_playout(&mut game, &mut rng);
        plies.push(game.moves().len());
        match outcome.winner {
            Some(Side::White) => white += 1,
            Some(Side::Black) => black += 1,
            None => draws += 1,
        }
        reasons[EndReason::ALL
            .iter()
            .position(|r| *r == outcome.reason)
            .unwrap_or(0)] += 1;
    }
    let seconds = start.elapsed().as_secs_f64();
    plies.sort_unstable();
    let mean = plies.iter().sum::<usize>() as f64 / games.max(1) as f64;
    let median = match games {
        0 => 0.0,
        n if n % 2 == 1 => plies[n / 2] as f64,
        n => (plies[n / 2 - 1] + plies[n / 2]) as f64 / 2.0,
    };
    let rate = if seconds > 0.0 {
        games as f64 / seconds
    } else {
        0.0
    };
    let mut report = format!(
        "games={games} plies_mean={mean:.1} plies_median={median:.1} white_wins={white} \
         black_wins={black} draws={draws} seconds={seconds:.3} playouts_per_second={rate:.0}\n"
    );
    for (reason, count) in EndReason::ALL.iter().zip(reasons) {
        report.push_str(&format!("reason={reason} games={count}\n"));
    }
    // A closed pipe (`| head`) is not an error worth a panic.
    let _ = std::io::stdout().lock().write_all(report.as_bytes());
}
