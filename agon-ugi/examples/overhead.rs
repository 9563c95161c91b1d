//! The cost of speaking UGI: the engine's nodes per second through an `agon-ugi` process
//! (wall time from `go` written to `bestmove` read) against in-process
//! ([`Engine::analyse`], timed the same way) on the same positions and node budgets.
//! Both searches are deterministic (one thread, a node budget), so they visit the same
//! nodes; the difference is the protocol's cost. On a shared machine the wall times carry
//! the other programs' load, so the CPU times are printed too (Linux: the searching
//! thread's in process, the whole `agon-ugi` process's through UGI, reader thread and
//! all), in ticks of 10 ms: precise over the whole run, not per position. Each position is
//! searched three times by each side in turn, and the wall times are the fastest of each.
//!
//! ```text
//! cargo build --release -p agon-ugi && cargo run --release -p agon-ugi --example overhead [NODES] [PATH-TO-agon-ugi]
//! ```

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use agon_bots::{Bot, Engine, Limits, RandomBot};
use agon_core::Game;

/// The searches of each position by each side; the fastest counts.
const ROUNDS: usize = 3;

mod common;

fn main() {
    let mut args = std::env::args().skip(1);
    let nodes: u64 = args.next().and_then(|a| a.parse().ok()).unwrap_or(300_000);
    let path = common::agon_ugi_path(args.next());

    // Ten positions: the start and nine reached by random moves.
    let mut games = vec![Game::new()];
    for seed in 1..10u64 {
        let mut game = Game::new();
        let mut bot = RandomBot::new(seed);
        for _ in 0..(4 * seed) {
            match bot.choose_in_game(&game) {
                Some(m) if !game.is_over() => game.play(m).expect("a legal move"),
                _ => break,
            };
        }
        if !game.is_over() {
            games.push(game);
        }
    }

    let mut child = Command::new(&path)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot start {}: {e}", path.display()));
    let mut stdin = child.stdin.take().unwrap();
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let mut read_until = |prefix: &str| -> String {
        let mut line = String::new();
        loop {
            line.clear();
            if stdout.read_line(&mut line).unwrap() == 0 {
                panic!("agon-ugi ended");
            }
            if line.starts_with(prefix) {
                return line.trim_end().to_string();
            }
        }
    };
    writeln!(stdin, "isready").unwrap();
    read_until("readyok");

    let mut engine = Engine::new(Limits::nodes(nodes));
    let (mut ugi_time, mut local_time) = (Duration::ZERO, Duration::ZERO);
    let (mut ugi_cpu, mut local_cpu) = (Duration::ZERO, Duration::ZERO);
    let child_stat = child.id().to_string();
    let (mut ugi_nodes, mut local_nodes, mut cpu_nodes) = (0u64, 0u64, 0u64);
    println!("position  nodes     in-process nps  through UGI nps  overhead");
    for (k, game) in games.iter().enumerate() {
        let mut line = String::from("position startpos moves");
        for m in game.moves() {
            line += &format!(" {m}");
        }
        // Each side searches the position ROUNDS times, in turn; the fastest of each
        // counts (the others carry the machine's other load).
        let (mut local, mut ugi, mut searched) = (Duration::MAX, Duration::MAX, 0);
        for _ in 0..ROUNDS {
            let cpu = common::cpu_time("thread-self", false);
            let start = Instant::now();
            let analysis = engine
                .analyse(game, Limits::nodes(nodes), 1)
                .expect("a game not over");
            local = local.min(start.elapsed());
            local_cpu += common::cpu_time("thread-self", false).saturating_sub(cpu);

            writeln!(stdin, "{line}").unwrap();
            writeln!(stdin, "isready").unwrap();
            read_until("readyok");
            let cpu = common::cpu_time(&child_stat, false);
            let start = Instant::now();
            writeln!(stdin, "go nodes {nodes}").unwrap();
            stdin.flush().unwrap();
            let best = read_until("bestmove ");
            ugi = ugi.min(start.elapsed());
            ugi_cpu += common::cpu_time(&child_stat, false).saturating_sub(cpu);
            assert_eq!(best, format!("bestmove {}", analysis.best_move()));
            searched = analysis.nodes;
            cpu_nodes += analysis.nodes;
        }

        let nps = |n: u64, t: Duration| n as f64 / t.as_secs_f64();
        println!(
            "{k:>8}  {:>8}  {:>14.0}  {:>15.0}  {:>7.2}%",
            searched,
            nps(searched, local),
            nps(searched, ugi),
            100.0 * (ugi.as_secs_f64() / local.as_secs_f64() - 1.0)
        );
        ugi_time += ugi;
        local_time += local;
        ugi_nodes += searched;
        local_nodes += searched;
    }
    println!(
        "all       {:>8}  {:>14.0}  {:>15.0}  {:>7.2}%",
        local_nodes,
        local_nodes as f64 / local_time.as_secs_f64(),
        ugi_nodes as f64 / ugi_time.as_secs_f64(),
        100.0 * (ugi_time.as_secs_f64() / local_time.as_secs_f64() - 1.0)
    );
    println!(
        "CPU time  {:>8}  {:>14.0}  {:>15.0}  {:>7.2}%  ({} ms in process, {} ms through UGI)",
        cpu_nodes,
        cpu_nodes as f64 / local_cpu.as_secs_f64(),
        cpu_nodes as f64 / ugi_cpu.as_secs_f64(),
        100.0 * (ugi_cpu.as_secs_f64() / local_cpu.as_secs_f64() - 1.0),
        local_cpu.as_millis(),
        ugi_cpu.as_millis()
    );
    writeln!(stdin, "quit").unwrap();
    let _ = child.wait();
}
