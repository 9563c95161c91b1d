//! Steps per second of the Rust batch environment, with random legal actions, and the
//! memory a game holds.
//!
//! ```sh
//! cargo run --release -p agon-rl --example vecenv -- 256 1024 8192
//! cargo run --release -p agon-rl --example vecenv -- --quick 256 8192
//! cargo run --release -p agon-rl --example vecenv -- --rules ludii 256 1024
//! ```
//!
//! `--rules TEXT` measures the batch and the playouts under that rule set
//! (`agon_core::Rules` text; standard by default): masks are then the rule set's width,
//! and playouts stop at 100 000 plies if its games need not end.
//!
//! For each batch size, in each output format (float32 observations in the flat layout
//! with bool masks, and uint8 observations with bit-packed masks), on one thread and on
//! every core, the batch draws random actions and steps, into the same buffers each time,
//! for several rounds; a line gives the best round (the one least disturbed by other work
//! on the machine) and the median: `n=1024 format=f32/bool threads=2 best=...
//! median=... per_thread=...`. A step is one action in one game. Then the memory of a
//! game at the 99th percentile of the length of random games, and the speed of
//! `random_playouts` on one thread and on every core. The targets of the project's
//! machine (2 cores) are checked at the end; nothing is asserted.

use std::time::Instant;

use agon_core::random::random_playout;
use agon_core::{Game, Position, Rules};
use agon_rl::{
    game_rng, random_playouts, random_playouts_capped, Action, Layout, Masks, Observations,
    StepBuffers, VecEnv, ACTION_COUNT, PACKED_MASK_LEN,
};

#[derive(Copy, Clone, PartialEq, Eq)]
enum Format {
    /// float32 observations, bool masks.
    Wide,
    /// uint8 observations, bit-packed masks.
    Compact,
}

impl Format {
    fn name(self) -> &'static str {
        match self {
            Format::Wide => "f32/bool",
            Format::Compact => "u8/packed",
        }
    }
}

/// The CPU time of this process so far (all its threads), in seconds, where Linux tells
/// it (`/proc/self/stat`, in hundredths of a second).
fn cpu_seconds() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    let fields: Vec<&str> = stat.rsplit(')').next()?.split_whitespace().collect();
    let ticks: f64 = fields.get(11)?.parse::<f64>().ok()? + fields.get(12)?.parse::<f64>().ok()?;
    Some(ticks / 100.0)
}

/// The load average of the last minute, where Linux tells it.
fn load() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .ok()
        .and_then(|l| l.split_whitespace().next().map(str::to_string))
        .unwrap_or_else(|| "?".into())
}

/// Steps per second of `VecEnv(n)`: the best and the median of `rounds` rounds, and the
/// steps per second of CPU time over all of them (what one thread would do if it had a
/// core to itself: a figure less disturbed by other work on the machine).
///
/// With `step` false, the batch only writes its outputs (`observe`) without playing: what
/// the output format costs alone.
fn measure(
    n: usize,
    format: Format,
    threads: usize,
    rounds: usize,
    seconds: f64,
    step: bool,
    rules: Rules,
) -> (f64, f64, Option<f64>) {
    let layout = Layout::Flat;
    let mut env = VecEnv::with_rules(n, 1, layout, rules).expect("a batch size from 1 to MAX_ENVS");
    env.set_threads(threads).expect("1 to MAX_THREADS threads");
    let len = n * layout.observation_len();
    let (mut obs32, mut obs8) = match format {
        Format::Wide => (vec![0.0f32; len], Vec::new()),
        Format::Compact => (Vec::new(), vec![0u8; len]),
    };
    let (mut masks, mut packed) = match format {
        Format::Wide => (vec![false; n * env.action_count()], Vec::new()),
        Format::Compact => (Vec::new(), vec![0u8; n * env.packed_mask_len()]),
    };
    let (mut rewards, mut terms) = (vec![0.0f32; n], vec![false; n]);
    let mut actions = vec![0i64; n];
    let mut round = |seconds: f64| {
        let started = Instant::now();
        let mut steps = 0u64;
        while steps == 0 || started.elapsed().as_secs_f64() < seconds {
            let (observations, masks) = match format {
                Format::Wide => (Observations::F32(&mut obs32), Masks::Bool(&mut masks)),
                Format::Compact => (Observations::U8(&mut obs8), Masks::Packed(&mut packed)),
            };
            if !step {
                env.observe(observations, masks).unwrap();
                steps += n as u64;
                continue;
            }
            env.random_actions(&mut actions).unwrap();
            let out = StepBuffers {
                observations,
                rewards: &mut rewards,
                terminations: &mut terms,
                masks,
            };
            env.step(&actions, out).unwrap();
            steps += n as u64;
        }
        (steps as f64, started.elapsed().as_secs_f64())
    };
    // Warm up: the games reach typical lengths, the buffers are touched.
    let _ = round(seconds / 2.0);
    let cpu = cpu_seconds();
    let results: Vec<(f64, f64)> = (0..rounds).map(|_| round(seconds)).collect();
    let steps: f64 = results.iter().map(|r| r.0).sum();
    let per_cpu = cpu
        .zip(cpu_seconds())
        .map(|(a, b)| b - a)
        .filter(|&c| c > 0.0)
        .map(|c| steps / c);
    let mut rates: Vec<f64> = results.iter().map(|(steps, secs)| steps / secs).collect();
    rates.sort_by(f64::total_cmp);
    (rates[rates.len() - 1], rates[rates.len() / 2], per_cpu)
}

fn verdict(ok: bool) -> &'static str {
    if ok {
        "ok"
    } else {
        "MISSED"
    }
}

/// The memory of a game of the batch at the 99th percentile of game length.
fn memory() {
    let games = 4000u64;
    let mut lengths: Vec<(usize, u64)> = (0..games)
        .map(|k| {
            let mut game = Game::new();
            random_playout(&mut game, &mut game_rng(1, k));
            (game.moves().len(), k)
        })
        .collect();
    lengths.sort_unstable();
    let (p99, k) = lengths[lengths.len() * 99 / 100];
    let (p50, _) = lengths[lengths.len() / 2];
    // Replay that game in a batch of one, up to its last move (which ends it).
    let mut game = Game::new();
    random_playout(&mut game, &mut game_rng(1, k));
    let mut env = VecEnv::new(1, 0, Layout::Flat, None).unwrap();
    env.set_threads(1).unwrap();
    let (mut obs, mut rewards, mut terms, mut masks) = (
        vec![0u8; Layout::Flat.observation_len()],
        [0.0f32],
        [false],
        vec![0u8; PACKED_MASK_LEN],
    );
    let mut most = 0;
    for &m in &game.moves()[..p99 - 1] {
        let action = Action::from_move(m).unwrap().index() as i64;
        let out = StepBuffers {
            observations: Observations::U8(&mut obs),
            rewards: &mut rewards,
            terminations: &mut terms,
            masks: Masks::Packed(&mut masks),
        };
        env.step(&[action], out).unwrap();
        most = most.max(env.game_bytes(0));
    }
    assert!(!terms[0] && env.moves(0).len() == p99 - 1);
    // What `agon_core::Game` holds for the same game (its fields are private, so from its
    // growth rules): every position (80 bytes), every move, and a table of (hash, count)
    // slots of 16 bytes, at least 256 and at most half full.
    let position = std::mem::size_of::<Position>();
    let core_game = std::mem::size_of::<Game>()
        + p99.next_power_of_two().max(64) * (position + 3)
        + (2 * (p99 + 1)).next_power_of_two().max(256) * 16;
    println!(
        "memory per game: random games of {games}: median {p50} plies, 99th percentile {p99} \
         plies; at {p99} plies a game of the batch holds {most} bytes ({:.1} per ply; \
         agon_core::Game about {core_game}); output per step {} bytes in f32/bool, {} in \
         u8/packed",
        most as f64 / p99 as f64,
        Layout::Flat.observation_len() * 4 + ACTION_COUNT + 5,
        Layout::Flat.observation_len() + PACKED_MASK_LEN + 5,
    );
}

fn playouts(games: u64, cores: usize, rules: Rules) -> (f64, f64) {
    let rate = |threads| {
        let started = Instant::now();
        let start = Position::start_with_rules(rules);
        let stats = if rules.is_standard() {
            random_playouts(start, games, 1, threads)
        } else {
            random_playouts_capped(start, games, 1, threads, 100_000)
        };
        stats.games as f64 / started.elapsed().as_secs_f64()
    };
    rate(1); // warm up
    let best = |threads| (0..3).map(|_| rate(threads)).fold(0.0, f64::max);
    let (one, all) = (best(1), best(cores));
    println!(
        "random_playouts({games}): 1 thread {one:.0} games/s, {cores} threads {all:.0} games/s \
         ({:.0}% of linear)",
        100.0 * all / (one * cores as f64)
    );
    (one, all)
}

fn main() {
    let mut quick = false;
    let mut rules = Rules::STANDARD;
    let mut sizes: Vec<usize> = Vec::new();
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        if arg == "--quick" {
            quick = true;
        } else if arg == "--rules" {
            let text = args.next().expect("--rules needs a rule set");
            rules = text.parse().expect("a rule set text");
            println!("rules {rules}");
        } else {
            sizes.push(arg.parse().expect("batch sizes are numbers"));
        }
    }
    if sizes.is_empty() {
        sizes = vec![256, 1024, 8192];
    }
    let (rounds, seconds) = if quick { (3, 0.2) } else { (7, 0.5) };
    let cores = VecEnv::default_threads();
    println!(
        "{cores} cores; load average {} (1 minute) at the start",
        load()
    );
    let mut results = Vec::new();
    for &n in &sizes {
        for format in [Format::Wide, Format::Compact] {
            for threads in [1, cores] {
                if threads == 1 && cores == 1 && !results.is_empty() {
                    continue;
                }
                let (best, median, per_cpu) =
                    measure(n, format, threads, rounds, seconds, true, rules);
                println!(
                    "n={n} format={} threads={threads} best={best:.0} median={median:.0} \
                     per_thread={:.0} per_cpu_second={} steps/s",
                    format.name(),
                    best / threads as f64,
                    per_cpu.map_or("?".into(), |r| format!("{r:.0}")),
                );
                results.push((n, format, threads, best));
            }
        }
    }
    memory();
    let (one, all) = playouts(if quick { 400 } else { 4000 }, cores, rules);
    let find = |n, format, threads| {
        results
            .iter()
            .find(|r| r.0 == n && r.1 == format && r.2 == threads)
            .map(|r| r.3)
    };
    println!("targets (2 cores):");
    for (format, target) in [(Format::Compact, 3e6), (Format::Wide, 1.5e6)] {
        if let Some(rate) = find(8192, format, 2) {
            println!(
                "  n=8192 {} 2 threads: {rate:.0} steps/s, target {target:.0}: {}",
                format.name(),
                verdict(rate >= target)
            );
        }
        if let (Some(large), Some(small)) = (find(8192, format, 1), find(256, format, 1)) {
            println!(
                "  per thread, n=8192 vs n=256 ({}): {:.0}%, target at least 80%: {}",
                format.name(),
                100.0 * large / small,
                verdict(large >= 0.8 * small)
            );
            // What writing the outputs alone costs a game more in the large batch (its
            // buffers no longer fit in the caches) bounds that ratio, however fast the
            // step itself: a step at n=8192 costs at least the step at n=256 plus it.
            let write = |n| 1e6 / measure(n, format, 1, rounds, seconds, false, rules).0;
            let (write_small, write_large) = (write(256), write(8192));
            let step_small = 1e6 / small;
            println!(
                "    writing the outputs alone (observe): {write_small:.3} us a game at n=256, \
                 {write_large:.3} at n=8192; so at most {:.0}% whatever the step does",
                100.0 * step_small / (step_small + (write_large - write_small).max(0.0))
            );
        }
        if let (Some(large), Some(small)) = (find(8192, format, cores), find(256, format, cores)) {
            println!(
                "  on {cores} threads, n=8192 vs n=256 ({}): {:.0}%",
                format.name(),
                100.0 * large / small,
            );
        }
    }
    println!(
        "  random_playouts on {cores} threads: {:.0}% of linear, target at least 90%: {}",
        100.0 * all / (one * cores as f64),
        verdict(all >= 0.9 * one * cores as f64)
    );
    println!("load average {} (1 minute) at the end", load());
}
