//! The guard of the engine's speed work (issue 35): the search on a fixed set of
//! positions, to fixed depths, must visit exactly the nodes it visited before, and find
//! the same score and principal variation at every depth. The figures were recorded from
//! commit 4827b4a, before any of that work; a change that makes the engine faster without
//! changing what it searches leaves them all equal. A change meant to alter the search
//! (a new technique, new weights) records them anew, saying so.
//!
//! perft, the move generator's own guard, is checked by `agon-core/tests/perft.rs`.

use std::sync::{Arc, Mutex};

use agon_bots::{book, Engine, Limits, SearchControl};
use agon_core::{Game, Position, Rules};

/// Each completed iteration of a search of `game` to `depth` on one thread with a fresh
/// 1 MiB table, as `depth nodes score pv` (nodes counted from the search's start).
fn trace(game: &Game, depth: u32, multipv: usize) -> Vec<String> {
    let lines = Arc::new(Mutex::new(Vec::new()));
    let seen = Arc::clone(&lines);
    let mut control = SearchControl::new().with_depth(depth).on_depth(move |a| {
        let pv: Vec<String> = a.pv().iter().map(|m| m.to_string()).collect();
        let others: Vec<String> = a.lines[1..]
            .iter()
            .map(|l| format!("{}:{}", l.score, l.pv[0]))
            .collect();
        let mut line = format!("{} {} {} {}", a.depth, a.nodes, a.score(), pv.join(" "));
        if !others.is_empty() {
            line = format!("{line} | {}", others.join(" "));
        }
        seen.lock().unwrap().push(line);
    });
    let mut engine = Engine::new(Limits::depth(1)).with_hash_mib(1);
    engine
        .analyse_with(game, &mut control, multipv)
        .expect("the guard's positions go on");
    let mut lines = lines.lock().unwrap();
    std::mem::take(&mut *lines)
}

fn position(text: &str) -> Game {
    Game::from_position(text.parse::<Position>().expect("a valid position"))
}

fn check(name: &str, game: &Game, depth: u32, multipv: usize, expected: &[&str]) {
    assert_eq!(
        trace(game, depth, multipv),
        expected,
        "{name}: the search changed"
    );
}

#[test]
fn the_search_is_unchanged_on_book_positions() {
    let b = book::standard();
    check(
        "book 0",
        &Game::from_position(b[0]),
        5,
        1,
        &[
            "1 30 +0.33 f1-f2",
            "2 398 -0.36 d9-e10 a2-b2",
            "3 855 +0.09 a5-b5 i8-h8 d9-e10",
            "4 5581 -0.10 l6-k6 a2-b2 k6-i7 f11-f10",
            "5 10309 +0.23 l6-k6 h1-h2 d9-e10 l2-k2 k6-i7",
        ],
    );
    check(
        "book 7",
        &Game::from_position(b[7]),
        6,
        1,
        &[
            "1 52 +1.04 h9-h8",
            "2 166 -0.06 h9-h8 d1-d2",
            "3 402 +0.75 h9-h8 d1-d2 c2-d3",
            "4 2182 +0.40 h9-h8 d1-d2 c8-c7 h1-g2",
            "5 7279 +0.75 h9-h8 b7-c7 c8-d8 d1-d2 c2-d3",
            "6 20660 +0.46 h9-h8 d1-d2 c8-c7 b3-b2 c2>a3 h1-g2",
        ],
    );
    check(
        "book 50",
        &Game::from_position(b[50]),
        5,
        1,
        &[
            "1 55 +0.93 d9-e9",
            "2 226 -0.07 f1-e1 d1>a4",
            "3 416 +0.59 f1-e1 d1>a4 a5-b5",
            "4 9159 -0.23 c1-d2 k7-i7 h9-h8 i7-h7",
            "5 18226 +0.46 f1-e1 d1>a4 h9-i8 k7>i1 k1-i2",
        ],
    );
    check(
        "book 150",
        &Game::from_position(b[150]),
        5,
        1,
        &[
            "1 44 +0.23 d1-d2",
            "2 143 -0.75 d1-d2 k1-i2",
            "3 451 -0.07 d1-d2 b1-c2 a2-b2",
            "4 3606 -0.59 d1-d2 b1-b2 d2-c2 b2>g1",
            "5 8225 -0.18 d1-d2 e1-e2 d2-e3 b1-b2 a2-b3",
        ],
    );
}

/// Positions 20 plies into games from the book (engine moves and random ones).
#[test]
fn the_search_is_unchanged_in_mid_game_positions() {
    check(
        "mid1",
        &position("Qf2,Ga5,Gb3,Gd2,Gg8,Gk1,Gk5/qf10,ga1,ge9,gg3,gi7,gk3,gl5 b"),
        6,
        1,
        &[
            "1 25 -0.17 f10-f9",
            "2 460 -0.07 k3-i4 k1-k2",
            "3 1297 -0.17 a1-b2 k1-k2 g3-g4",
            "4 3823 -0.17 a1-b2 k5-i5 f10-g9 a5-b5",
            "5 7760 -0.11 a1-b2 k1-k2 k3-i4 a5-b5 f10-f9",
            "6 21737 -0.17 a1-b2 a5-b5 k3-i4 k5-i6 f10-f9 i6-h7",
        ],
    );
    check(
        "mid2",
        &position("Qg2,Gb4,Gc2,Gc7,Gf8,Gi2,Gk4/qg10,gd2,gd8,ge4,gg3,gi7,gk2 w"),
        6,
        1,
        &[
            "1 28 +0.35 g2-f3",
            "2 422 +0.19 f8-e7 d2-e2",
            "3 608 +0.37 f8-e7 d2-e2 g2-f2",
            "4 1686 +0.28 f8-e7 d2-e2 g2-f2 g3-g4",
            "5 5688 +0.35 f8-e7 g3-g4 k4-i4 d8-e9 g2-f2",
            "6 14919 +0.29 f8-e7 g3-g4 b4-c4 k2-i3 k4-i4 i3>a2",
        ],
    );
    check(
        "mid3",
        &position("Qg2,Ga2,Gd3,Ge7,Gf10,Gk2,Gk4/qf11,gb3,gc6,gd2,ge1,gf3,gi7 b"),
        5,
        1,
        &[
            "1 33 -0.52 f3-f4",
            "2 171 -1.10 f3-f4 d3-e4",
            "3 396 -0.52 f3-f4 d3-e4 f4-f5",
            "4 2235 -0.75 f3-f4 d3-e4 f4-f5 e4-d4",
            "5 7420 -0.69 f3-f4 d3-e4 f4-f5 a2-b2 c6-d6",
        ],
    );
    check(
        "mid4",
        &position("Qg2,Gd5,Ge2,Gf9,Gh9,Gi2,Gk6/qf10,gb3,gc7,gd3,gg3,gk3,gk7 w"),
        5,
        1,
        &[
            "1 28 +1.09 h9-h8",
            "2 146 +0.81 h9-h8 d3-e4",
            "3 334 +0.81 h9-h8 d3-e4 d5-e5",
            "4 2221 +0.75 h9-h8 d3-e3 f9-f8 k3-k4",
            "5 6724 +0.74 h9-h8 g3-g4 e2-d2 d3-e4 f9-f8",
        ],
    );
}

/// A side to move that must return a guard (quiescence searches the returns), and a
/// forced win through the throne ring.
#[test]
fn the_search_is_unchanged_where_pieces_return_and_games_end() {
    check(
        "ret1",
        &position("Qf2,Ga5,Gd2,Ge9,Gg8,Gk1,Gk6/qf10,ga1,gc7,ge2*,gg3,gi8,gl2 b"),
        5,
        1,
        &[
            "1 28 -0.73 e2>i1",
            "2 353 -0.84 e2>l5 k6-i6",
            "3 1265 -0.79 e2>l5 k6-k5 i8-i7",
            "4 3153 -0.69 e2>l5 k6-k5 i8-i7 e9-e8",
            "5 7607 -0.40 e2>l5 k6-k5 c7-d8 e9>k7 a1-b2",
        ],
    );
    check(
        "ret2",
        &position("Qf4,Gb5,Gc6,Gc7,Gg7,Gh2*,Gl6/qf10,gb1,gb3,gd3,gh1,gh3,gl1 w"),
        6,
        1,
        &[
            "1 29 +0.13 h2>d1",
            "2 119 -0.27 h2>d1 h1-g2",
            "3 302 +0.59 h2>d1 h1-g2 f4-f5",
            "4 2490 +0.19 h2>d1 h1-g2 f4-f5 l1-k2",
            "5 4766 +0.88 h2>d1 h1-g2 f4-f5 l1-k2 c6-d6",
            "6 7897 +0.71 h2>d1 h1-g2 f4-f5 l1-k2 c6-d6 b1-c2",
        ],
    );
    check(
        "ret3",
        &position("Qg2,Gb2,Gc7,Ge6*,Gg5,Gi7,Gk5/qf7,gc2,gd5,ge2,gh6,gh8,gi3 w"),
        5,
        1,
        &[
            "1 34 -1.80 e6>g10",
            "2 226 -1.80 e6>d1 e2-d2",
            "3 1263 -1.76 e6>d1 i3-h4 g2-f3",
            "4 3792 -1.41 e6>d1 c2-c3 i7-i6 h6-g6",
            "5 11153 -1.74 e6>d1 c2-c3 d1-d2 e2-e3 g2-g3",
        ],
    );
    check(
        "win",
        &position("Qf6,Ge5,Ge6,Gf5,Gf7,Gh4,Gh6/qa1,ga2,gb1,gb2,gc1,gd1,gc2 w"),
        5,
        1,
        &[
            "1 11 +8.75 f5-g5",
            "2 75 win in 2 h4-g5 c2-c3",
            "3 95 win in 2 h4-g5 c2-c3 h6-g6",
            "4 115 win in 2 h4-g5 c2-c3 h6-g6",
            "5 135 win in 2 h4-g5 c2-c3 h6-g6",
        ],
    );
}

/// History (a line that repeats the start twice), several lines (multi-PV), and rule sets
/// other than the standard one (the variant paths of move generation and of the search).
#[test]
fn the_search_is_unchanged_with_history_several_lines_and_other_rules() {
    let b = book::standard();
    let mut game = Game::new();
    for m in ["f1-e1", "f11-g10", "e1-f1", "g10-f11", "f1-e1", "f11-g10"] {
        game.play(m.parse().unwrap()).unwrap();
    }
    check(
        "repeat",
        &game,
        5,
        1,
        &[
            "1 50 +1.04 h9-g9",
            "2 178 +0.06 h9-g9 d1-e2",
            "3 472 +0.59 b1-c1 d1>a4 a5-b5",
            "4 7617 +0.06 h9-g9 d1-e2 d9-e9 a2-b3",
            "5 11516 +0.46 h9-g9 d1-e2 d9-e9 h1-h2 a5-b5",
        ],
    );
    check(
        "multipv",
        &Game::from_position(b[3]),
        5,
        3,
        &[
            "1 80 +1.67 d1-d2 | +1.50:f11-e10 +1.50:f11-g10",
            "2 463 +1.04 d1-d2 h9-h8 | +0.86:k7-i7 +0.81:d1-e2",
            "3 1094 +1.50 d1-d2 h9-h8 f11-e10 | +1.27:d1-e2 +1.15:b7-c7",
            "4 5077 +0.81 d1-d2 h9-h8 l2-k3 d9-d8 | +0.81:l2-k3 +0.75:f11-g10",
            "5 11159 +1.15 d1-d2 h9-h8 b7-c7 d9-d8 c7-d7 | +1.15:b7-c7 +1.04:l2-k3",
        ],
    );
    let ludii = b[11].with_rules(Rules::LUDII).unwrap();
    check(
        "ludii",
        &Game::from_position(ludii),
        5,
        1,
        &[
            "1 29 +0.81 d9-d8",
            "2 145 +0.35 d9-d8 c7-d7",
            "3 954 +0.52 d9-d8 h1-h2 k2-k3",
            "4 3563 +0.23 d9-d8 h1-h2 l5-k6 c7-d7",
            "5 7741 +0.69 d9-d8 c7-d7 l5-k6 h1-h2 k2-k3",
        ],
    );
    let rules: Rules = "standard+capture=same-ring+between=trapped"
        .parse()
        .unwrap();
    let variant = b[20].with_rules(rules).unwrap();
    check(
        "variant",
        &Game::from_position(variant),
        5,
        1,
        &[
            "1 31 -0.06 d1-e2",
            "2 152 -0.46 d1-e2 b1-b2",
            "3 306 -0.06 d1-e2 b1-b2 h1-g2",
            "4 2395 -0.46 d1-e2 b1-b2 h1-g2 d9-d8",
            "5 6210 -0.29 d1-e2 e1-d1 c2-d3 d9-d8 h1-g2",
        ],
    );
}
