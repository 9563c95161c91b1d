//! What the arena costs with UGI engine processes, printed (not asserted):
//!
//! 1. **Moves late under a clock**: GAMES games (default 100) of `agon-ugi` against
//!    `agon-ugi` through the arena at 1 s a game + 10 ms a move (`--tc 1+0.01`), from the
//!    opening book; a move that comes after its side's time left (plus the harness's 50 ms
//!    margin) loses the game as a `time-forfeit`, one with no answer as a `hang`.
//! 2. **The arena's cost per game with two UGI processes**: the same match at a node budget
//!    (`n2000`, deterministic: the processes play the in-process engine's moves, so both
//!    runs play the same games) with two `agon-ugi` processes, then with both engines in
//!    process: wall time and CPU time (this process and its children) per game.
//!
//! ```text
//! cargo build --release -p agon-ugi
//! cargo run --release -p agon-ugi --example arena_cost [GAMES] [COST-GAMES] [PATH-TO-agon-ugi]
//! ```
//!
//! Linux only for the CPU times (`/proc/self/stat`). It takes about two minutes per 100
//! clock games; run it on an otherwise quiet machine, or bound it (`timeout 900 ...`).

use std::time::{Duration, Instant};

use agon_bots::arena::{run_match_with, MatchOptions, MatchReport, TimeControl};
use agon_bots::ForfeitKind;

mod common;

fn main() {
    let mut args = std::env::args().skip(1);
    let games: u32 = args.next().and_then(|a| a.parse().ok()).unwrap_or(100);
    let cost_games: u32 = args.next().and_then(|a| a.parse().ok()).unwrap_or(20);
    let path = common::agon_ugi_path(args.next());
    assert!(path.exists(), "no agon-ugi at {}", path.display());
    let ugi = format!("ugi:'{}'", path.display());

    if games > 0 {
        clock_games(&ugi, games);
    }
    if cost_games > 0 {
        cost(&ugi, cost_games);
    }
}

/// 1. Clock games.
fn clock_games(ugi: &str, games: u32) {
    let tc: TimeControl = "1+0.01".parse().expect("a time control");
    let options = MatchOptions::new(games, 1)
        .with_time_control(tc)
        .with_book(agon_bots::book::standard());
    let began = Instant::now();
    let report = run(ugi, ugi, &options);
    let late = |kind| {
        report
            .forfeits
            .iter()
            .filter(|f| f.forfeit.kind == kind)
            .count()
    };
    println!(
        "clock games, --tc {tc}: {} games, {} moves, {} moves late (time-forfeit), {} hangs, {} other forfeits, longest move {} ms (A) / {} ms (B), {:.0} s",
        report.stats.games,
        report.stats.plies,
        late(ForfeitKind::TimeForfeit),
        late(ForfeitKind::Hang),
        report.forfeits.len() - late(ForfeitKind::TimeForfeit) - late(ForfeitKind::Hang),
        report.longest_move[0].as_millis(),
        report.longest_move[1].as_millis(),
        began.elapsed().as_secs_f64()
    );
    for f in &report.forfeits {
        println!("  {f}");
    }
}

/// 2. The cost of the processes: the same games, through UGI and in process.
fn cost(ugi: &str, cost_games: u32) {
    let options = MatchOptions::new(cost_games, 1)
        .with_time_control(TimeControl::Nodes(2000))
        .with_book(agon_bots::book::standard());
    let (through, ugi_wall, ugi_cpu) = measure(|| run(ugi, ugi, &options));
    let (local, local_wall, local_cpu) = measure(|| run("engine", "engine", &options));
    assert!(through.forfeits.is_empty(), "{through}");
    assert_eq!(
        (
            through.stats.plies,
            through.stats.wins,
            through.stats.losses
        ),
        (local.stats.plies, local.stats.wins, local.stats.losses),
        "the same games"
    );
    let per_game = |d: Duration| d.as_secs_f64() * 1000.0 / f64::from(cost_games);
    println!(
        "cost per game, {cost_games} games at n2000 ({:.1} plies a game): two UGI processes {:.1} ms wall, {:.1} ms CPU; in process {:.1} ms wall, {:.1} ms CPU; UGI costs {:+.1} ms wall ({:+.1}%), {:+.1} ms CPU ({:+.1}%) a game",
        through.stats.plies as f64 / f64::from(cost_games),
        per_game(ugi_wall),
        per_game(ugi_cpu),
        per_game(local_wall),
        per_game(local_cpu),
        per_game(ugi_wall) - per_game(local_wall),
        100.0 * (ugi_wall.as_secs_f64() / local_wall.as_secs_f64() - 1.0),
        per_game(ugi_cpu) - per_game(local_cpu),
        100.0 * (ugi_cpu.as_secs_f64() / local_cpu.as_secs_f64() - 1.0),
    );
}

fn run(a: &str, b: &str, options: &MatchOptions) -> MatchReport {
    run_match_with(a, b, options, |_, _, _| {}).expect("the match plays")
}

/// The result of `f`, its wall time, and the CPU time it used in this process and in the
/// children it waited for.
fn measure<T>(f: impl FnOnce() -> T) -> (T, Duration, Duration) {
    let cpu = common::cpu_time("self", true);
    let began = Instant::now();
    let out = f();
    let used = common::cpu_time("self", true).saturating_sub(cpu);
    (out, began.elapsed(), used)
}
