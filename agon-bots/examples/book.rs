//! Prints an opening book of COUNT positions from SEED, one position text per line (see
//! `agon_bots::book`).
//!
//! ```text
//! cargo run --release -p agon-bots --example book -- 300 1 > agon-bots/book/openings.txt
//! ```

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let count: usize = args.first().map_or(300, |t| t.parse().expect("COUNT"));
    let seed: u64 = args.get(1).map_or(1, |t| t.parse().expect("SEED"));
    println!("# Agon opening book: {count} positions from seed {seed}, made by");
    println!("# cargo run --release -p agon-bots --example book -- {count} {seed}");
    for position in agon_bots::book::generate(count, seed) {
        println!("{}", position.to_text());
    }
}
