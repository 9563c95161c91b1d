//! Writes the conformance data of `conformance/` from agon-core, cross-checked with the
//! independent generator of `agon-reference`:
//!
//! - `perft.json`: perft figures of several positions;
//! - `games.json`: complete seeded random games, each ply with the position before it,
//!   its legal moves, the move played and what it captured, and the result.
//!
//! `cargo run --release -- [OUT_DIR]` (default `..`, the `conformance/` folder). The
//! output is deterministic. `cargo run --release -- --stats N` prints the categories
//! reached by the games of seeds 0 to N - 1 instead.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use agon_core::random::Rng;
use agon_core::{perft, Cell, CellSet, EndReason, Game, Move, Position, Side};
use serde_json::{json, Value};

mod variants;

/// The categories of RULES.md events a game covers (the README's coverage table).
const CATEGORIES: [&str; 11] = [
    "end:throne",
    "end:ring-without-queen",
    "end:no-legal-action",
    "end:repetition",
    "single capture",
    "multiple capture",
    "queen captured",
    "queen returned",
    "queen returned onto the throne",
    "guard returned",
    "choice among captured guards",
];

/// A finished game and the categories it covers.
struct Played {
    seed: u64,
    game: Game,
    captures: Vec<CellSet>,
    categories: Vec<&'static str>,
}

/// Plays a game from the start, each move drawn uniformly from the legal moves by
/// `Rng::new(seed).below(count)`.
fn play(seed: u64) -> Played {
    let mut rng = Rng::new(seed);
    let mut game = Game::new();
    let mut captures = Vec::new();
    let mut found = BTreeMap::new();
    while !game.is_over() {
        let pos = *game.position();
        let moves = game.legal_moves();
        let m = moves[rng.below(moves.len())];
        if m.is_return() {
            let guards: CellSet = moves.iter().filter_map(|m| m.from()).collect();
            if m.from().is_some_and(|c| pos.queens().contains(c)) {
                found.insert("queen returned", ());
                if m.to() == Some(Cell::THRONE) {
                    found.insert("queen returned onto the throne", ());
                }
            } else {
                found.insert("guard returned", ());
                if guards.len() > 1 {
                    found.insert("choice among captured guards", ());
                }
            }
        }
        let captured = game.play(m).expect("a listed move is legal");
        match captured.len() {
            0 => {}
            1 => {
                found.insert("single capture", ());
            }
            _ => {
                found.insert("multiple capture", ());
            }
        }
        if captured.intersects(pos.queens()) {
            found.insert("queen captured", ());
        }
        captures.push(captured);
    }
    let reason = game.outcome().expect("over").reason;
    let end = CATEGORIES
        .iter()
        .find(|c| c.strip_prefix("end:") == Some(reason.name()))
        .expect("every reason is a category");
    found.insert(end, ());
    Played {
        seed,
        game,
        captures,
        categories: found.into_keys().collect(),
    }
}

fn stats(n: u64) {
    let mut counts: BTreeMap<&str, usize> = BTreeMap::new();
    let mut plies = Vec::new();
    for seed in 0..n {
        let p = play(seed);
        plies.push(p.game.moves().len());
        for c in p.categories {
            *counts.entry(c).or_default() += 1;
        }
    }
    plies.sort_unstable();
    println!(
        "plies: median {}, max {}",
        plies[plies.len() / 2],
        plies[plies.len() - 1]
    );
    for c in CATEGORIES {
        println!("{c}: {}", counts.get(c).copied().unwrap_or(0));
    }
}

/// The games of `games.json`: uniform random games from seed 0 up, keeping those of at
/// most `MAX_PLIES` plies until `GAMES` are kept; then, for each category that fewer than
/// `MIN_COVER` kept games cover, the next such uniform games of any length.
const GAMES: usize = 200;
const MAX_PLIES: usize = 240;
const MIN_COVER: usize = 5;

fn select_games() -> Vec<Played> {
    select_by_seed(
        (GAMES, MAX_PLIES),
        (&CATEGORIES, MIN_COVER),
        |seed| Some(play(seed)),
        |p| p.game.moves().len(),
        |p, category| p.categories.contains(&category),
    )
}

/// Games chosen by seed, for `games.json` and each rule set's games: the games `play`
/// gives for seeds 0, 1, ... (`None`: a seed without a usable game) of at most `max_plies`
/// plies (`plies` of a game) until `games` are kept; then, for each target that fewer than
/// `min_cover` kept games cover, the next games of any length covering it, searched from
/// the first seed not yet tried (skipping the kept ones), so that each target gets the
/// first seeds that cover it.
fn select_by_seed<P>(
    (games, max_plies): (usize, usize),
    (targets, min_cover): (&[&'static str], usize),
    mut play: impl FnMut(u64) -> Option<P>,
    plies: impl Fn(&P) -> usize,
    covers: impl Fn(&P, &'static str) -> bool,
) -> Vec<P> {
    let mut kept: Vec<(u64, P)> = Vec::new();
    let mut seed = 0;
    while kept.len() < games {
        if let Some(p) = play(seed).filter(|p| plies(p) <= max_plies) {
            kept.push((seed, p));
        }
        seed += 1;
    }
    for &target in targets {
        let covered = |kept: &[(u64, P)]| kept.iter().filter(|(_, p)| covers(p, target)).count();
        let mut next = seed;
        while covered(&kept) < min_cover {
            assert!(next < seed + 100_000, "no game covers {target}");
            if !kept.iter().any(|&(s, _)| s == next) {
                if let Some(p) = play(next).filter(|p| covers(p, target)) {
                    kept.push((next, p));
                }
            }
            next += 1;
        }
    }
    kept.into_iter().map(|(_, p)| p).collect()
}

fn cells_text(cells: CellSet) -> String {
    let names: Vec<String> = cells.iter().map(|c| c.to_string()).collect();
    names.join(" ")
}

/// One game as JSON, checking every position against the reference generator.
fn game_json(id: usize, p: &Played) -> Value {
    let game = &p.game;
    let plies: Vec<Value> = game
        .moves()
        .iter()
        .zip(game.positions())
        .zip(&p.captures)
        .map(|((m, pos), captured)| {
            let moves = pos.legal_moves();
            cross_check(pos, &moves);
            let legal: Vec<String> = moves.iter().map(|m| m.to_string()).collect();
            json!({
                "position": pos.to_text().to_string(),
                "legal": legal.join(" "),
                "move": m.to_string(),
                "captures": cells_text(*captured),
            })
        })
        .collect();
    let last = game.position();
    cross_check(last, &last.legal_moves());
    let outcome = game.outcome().expect("a finished game");
    json!({
        "id": id,
        "seed": p.seed,
        "policy": "uniform",
        "start": game.start().to_text().to_string(),
        "plies": plies,
        "final": last.to_text().to_string(),
        "result": {
            "winner": outcome.winner.map(Side::name),
            "reason": outcome.reason.name(),
            "score": outcome.score(),
        },
        "categories": p.categories,
    })
}

/// Asserts that the reference generator lists the same moves and prints the same text.
fn cross_check(pos: &Position, moves: &[Move]) {
    let state = agon_reference::from_core(pos);
    assert_eq!(state.to_text(), pos.to_text().to_string());
    let rules = agon_reference::rules_from_core(pos.rules());
    let mut core: Vec<_> = moves
        .iter()
        .map(|&m| {
            let r = agon_reference::checks::ref_move(m);
            (r.from, r.to, r.is_return)
        })
        .collect();
    let mut reference: Vec<_> = agon_reference::legal_moves_under(&state, &rules)
        .iter()
        .map(|m| (m.from, m.to, m.is_return))
        .collect();
    core.sort_unstable();
    reference.sort_unstable();
    assert_eq!(core, reference, "legal moves of {}", pos.to_text());
}

/// A position of the perft table: a name, a note on what it exercises, the position, and
/// the deepest depth to compute.
struct PerftCase {
    name: &'static str,
    note: &'static str,
    position: Position,
    depth: u32,
}

/// The first position of the selected games (or of their ends) that satisfies `test`.
fn find_position(games: &[Played], test: impl Fn(&Position) -> bool) -> Position {
    games
        .iter()
        .flat_map(|p| p.game.positions())
        .copied()
        .find(|pos| test(pos))
        .expect("some game has such a position")
}

fn perft_cases(games: &[Played]) -> Vec<PerftCase> {
    let own_captured = |pos: &Position| pos.captured() & pos.pieces_of(pos.turn());
    let ends = |reason: EndReason| {
        games
            .iter()
            .find(|p| p.game.outcome().map(|o| o.reason) == Some(reason))
            .map(|p| *p.game.position())
            .expect("every end reason occurs")
    };
    let text = |t: &str| Position::from_text(t).expect("a valid position");
    vec![
        PerftCase {
            name: "start",
            note: "the start position (RULES.md section 2)",
            position: Position::start(),
            depth: 5,
        },
        PerftCase {
            name: "start-black",
            note: "the start position with Black to move",
            position: Position::start().with_turn(Side::Black),
            depth: 5,
        },
        PerftCase {
            name: "capture-ahead",
            note: "from a game: the side to move has a step capturing two pieces at once (R5)",
            position: find_position(games, |pos| {
                !pos.must_return()
                    && pos.captured().is_empty()
                    && pos.legal_moves().iter().any(|&m| pos.captures(m).len() >= 2)
            }),
            depth: 5,
        },
        PerftCase {
            name: "queen-captured",
            note: "from a game: the side to move must return its captured queen first (R8)",
            position: find_position(games, |pos| {
                let mine = own_captured(pos);
                mine.intersects(pos.queens()) && mine.has_several()
            }),
            depth: 4,
        },
        PerftCase {
            name: "guards-captured",
            note: "from a game: the side to move chooses among several captured guards",
            position: find_position(games, |pos| {
                let mine = own_captured(pos);
                mine.len() >= 2 && !mine.intersects(pos.queens())
            }),
            depth: 4,
        },
        PerftCase {
            name: "opponent-captured",
            note: "from a game: the side to move steps while the opponent still has captured pieces",
            position: find_position(games, |pos| {
                !pos.captured().is_empty() && !pos.must_return() && pos.has_legal_move()
            }),
            depth: 5,
        },
        PerftCase {
            name: "queen-on-throne",
            note: "White's queen on the throne has no step (R3); Black's captured queen may return anywhere",
            position: text("Qf6,Ga5,Gb1,Ge5,Gf7,Gk1,Gl5/qf11*,ga2,gb7,gd1,gh1,gk7,gl2 b"),
            depth: 4,
        },
        PerftCase {
            name: "forbidden-capture",
            note: "from a game: a step that would capture is forbidden, its cell lying between two enemy pieces (R4)",
            position: find_position(games, |pos| {
                !pos.must_return() && pos.captured().is_empty() && forbidden_capture(pos)
            }),
            depth: 5,
        },
        PerftCase {
            name: "end-throne",
            note: "the final position of a game won on the throne (R10): no actions",
            position: ends(EndReason::Throne),
            depth: 2,
        },
        PerftCase {
            name: "end-ring-without-queen",
            note: "the final position of a game lost by completing the ring without the queen (R10)",
            position: ends(EndReason::RingWithoutQueen),
            depth: 2,
        },
        PerftCase {
            name: "end-no-legal-action",
            note: "the final position of a game lost for want of an action (R12)",
            position: ends(EndReason::NoLegalAction),
            depth: 2,
        },
        PerftCase {
            name: "end-repetition",
            note: "the final position of a drawn game: perft ignores repetition (section 7)",
            position: ends(EndReason::Repetition),
            depth: 6,
        },
    ]
}

/// Whether some step that would capture is forbidden by R4 (its cell is between two enemy
/// pieces), all other rules of a step being met.
fn forbidden_capture(pos: &Position) -> bool {
    let forbidden = pos.forbidden_cells(pos.turn());
    pos.pieces_of(pos.turn()).iter().any(|from| {
        (from.neighbours() & forbidden & pos.empty())
            .iter()
            .any(|to| {
                let m = Move::Step { from, to };
                to != Cell::THRONE && to.ring() <= from.ring() && !pos.captures(m).is_empty()
            })
    })
}

/// Perft by the reference generator is checked while the tree stays below this size.
const REFERENCE_LEAVES: u64 = 20_000_000;

fn perft_json(cases: &[PerftCase]) -> Value {
    let entries: Vec<Value> = cases
        .iter()
        .map(|case| {
            let counts: Vec<u64> = (1..=case.depth).map(|d| perft(&case.position, d)).collect();
            let state = agon_reference::from_core(&case.position);
            for (d, &n) in (1..).zip(&counts) {
                if n <= REFERENCE_LEAVES {
                    let r = agon_reference::perft(&state, d);
                    assert_eq!(r, n, "perft({}, {d}): reference {r}, core {n}", case.name);
                }
            }
            eprintln!("perft {}: {counts:?}", case.name);
            json!({
                "name": case.name,
                "note": case.note,
                "position": case.position.to_text().to_string(),
                "perft": counts,
            })
        })
        .collect();
    json!({ "schema": 1, "positions": entries })
}

/// JSON with one game (or perft entry) per line: small diffs, easy to read.
fn write_lines(path: &std::path::Path, head: &str, key: &str, items: &[Value]) {
    let mut out = String::new();
    let _ = writeln!(out, "{{{head}, \"{key}\": [");
    for (i, item) in items.iter().enumerate() {
        let sep = if i + 1 < items.len() { "," } else { "" };
        let _ = writeln!(out, "{item}{sep}");
    }
    out.push_str("]}\n");
    std::fs::write(path, out).unwrap_or_else(|e| panic!("writing {}: {e}", path.display()));
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.first().map(String::as_str) == Some("--variants") {
        let out = std::path::PathBuf::from(args.get(1).map_or("..", String::as_str));
        variants::write(&out);
        return;
    }
    if args.first().map(String::as_str) == Some("--stats") {
        stats(args.get(1).and_then(|n| n.parse().ok()).unwrap_or(200));
        return;
    }
    let out = std::path::PathBuf::from(args.first().map_or("..", String::as_str));
    let games = select_games();
    let mut coverage: BTreeMap<&str, usize> = BTreeMap::new();
    for p in &games {
        for c in &p.categories {
            *coverage.entry(c).or_default() += 1;
        }
    }
    let items: Vec<Value> = games
        .iter()
        .enumerate()
        .map(|(i, p)| game_json(i, p))
        .collect();
    write_lines(
        &out.join("games.json"),
        "\"schema\": 1, \"generator\": \"conformance/generate\"",
        "games",
        &items,
    );
    let perft = perft_json(&perft_cases(&games));
    let perft_items = perft["positions"].as_array().cloned().unwrap_or_default();
    write_lines(
        &out.join("perft.json"),
        "\"schema\": 1, \"generator\": \"conformance/generate\"",
        "positions",
        &perft_items,
    );
    let plies: usize = games.iter().map(|p| p.game.moves().len()).sum();
    println!("games: {} ({plies} plies)", games.len());
    for c in CATEGORIES {
        println!("| {c} | {} |", coverage.get(c).copied().unwrap_or(0));
    }
}
