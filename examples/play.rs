//! Play Agon against the computer in the terminal.
//!
//! ```text
//! cargo run --release --example play
//! cargo run --release --example play -- --side black --bot mcts:2000
//! cargo run --release --example play -- --auto --bot alphabeta:5 --opponent greedy
//! ```
//!
//! Everything happens in `agon_examples::terminal`; this file only reads the arguments and
//! connects standard input and output.

use agon_examples::fail;
use agon_examples::terminal::{parse_args, run, USAGE};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.iter().any(|a| a == "--help" || a == "-h") {
        println!("usage: {USAGE}");
        return;
    }
    let mut options = parse_args(args).unwrap_or_else(|e| fail(e, USAGE));
    if options.seed.is_none() {
        // A fresh seed each run, so the computer's equal choices vary between games.
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos() as u64);
        options.seed = Some(nanos);
    }
    let stdin = std::io::stdin();
    if let Err(e) = run(stdin.lock(), std::io::stdout().lock(), &options) {
        eprintln!("error: {e}");
        std::process::exit(1);
    }
}
