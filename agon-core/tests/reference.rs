//! agon-core against the independent reference generator (`agon-reference`, a plain
//! list-of-pieces reading of RULES.md): perft, exact legal-move sets, the positions
//! moves lead to, and the end of the game, on positions from many random games.

mod common;

use agon_core::random::Rng;
use agon_core::{perft, Cell, EndReason, Game, Move, Position, Rules, Side, Stuck, CELL_COUNT};
use agon_reference::checks::{
    check_against_reference, check_game_against_reference, check_play_against_reference,
    check_position, check_transition,
};
use agon_reference::{rules_from_core, RefGame};
use common::{
    core_moves, pos, ref_move, reference_moves, rules_strategy, single_option_rule_sets, to_ref,
};
use proptest::prelude::*;

/// Compares everything the two generators say about one position; returns the number
/// of moves compared.
fn compare(p: &Position) -> usize {
    let state = to_ref(p);
    let core = core_moves(p);
    let reference = reference_moves(p);
    assert_eq!(core, reference, "legal moves differ in {}", p.to_text());
    assert_eq!(
        p.count_legal_moves(),
        core.len(),
        "count in {}",
        p.to_text()
    );
    // The list itself has no duplicates (a set would hide them).
    assert_eq!(
        p.legal_moves().len(),
        core.len(),
        "duplicates in {}",
        p.to_text()
    );
    // Playing every move through the reference is slow, so compare the results of
    // every capturing move and of a spread of the others (first, middle, last).
    let moves = p.legal_moves();
    let n = moves.len();
    for (i, m) in moves.iter().enumerate() {
        if p.captures(*m).is_empty() && i != 0 && i != n / 2 && i + 1 != n {
            continue;
        }
        let next = p.play(*m).expect("a listed move is legal");
        let rules = rules_from_core(p.rules());
        let expected = agon_reference::play_under(&state, &rules, ref_move(*m));
        assert_eq!(
            to_ref(&next),
            expected,
            "{m} from {} gives {}, the reference {}",
            p.to_text(),
            next.to_text(),
            expected.to_text()
        );
    }
    // The end of the game: R10 first, then R12 (the winner only; the reference has no
    // reasons).
    check_against_reference(p);
    let ring_winner = agon_reference::throne_ring_outcome(&state);
    let core_ring = p.throne_ring_side().map(|s| {
        if p.queen(s) == Cell::THRONE {
            s as u8
        } else {
            s.other() as u8
        }
    });
    assert_eq!(core_ring, ring_winner, "throne ring in {}", p.to_text());
    core.len()
}

/// Plays a game from `start` choosing with `rng`; with `inward` the moves towards the
/// throne are preferred, which brings the pieces together: more captures, returns,
/// forbidden cells and throne-ring finishes than uniform play.
fn biased_game(start: Position, seed: u64, inward: bool, max_plies: usize) -> Vec<Position> {
    let mut rng = Rng::new(seed);
    let mut game = Game::from_position(start);
    while !game.is_over() && game.moves().len() < max_plies {
        let moves = game.legal_moves();
        let inner: Vec<_> = moves
            .iter()
            .filter(|m| matches!(**m, Move::Step { from, to } if to.ring() < from.ring()))
            .copied()
            .collect();
        let m = if inward && !inner.is_empty() && rng.below(4) != 0 {
            inner[rng.below(inner.len())]
        } else {
            moves[rng.below(moves.len())]
        };
        game.play(m).expect("a listed move is legal");
    }
    game.positions().to_vec()
}

#[test]
fn perft_from_the_start_agrees_with_the_reference_to_depth_4() {
    let start = Position::start();
    let state = agon_reference::State::start();
    assert_eq!(to_ref(&start), state);
    for depth in 1..=4 {
        assert_eq!(
            perft(&start, depth),
            agon_reference::perft(&state, depth),
            "depth {depth}"
        );
    }
}

#[test]
fn the_start_position_is_the_same_in_both() {
    assert_eq!(
        agon_reference::State::start().to_text(),
        Position::start().to_text().to_string()
    );
    assert_eq!(compare(&Position::start()), 27);
}

/// Counts of what the random games went through, so that the test fails if the games
/// stop exercising a rule (for instance if they all end early).
#[derive(Default, Debug)]
struct Seen {
    positions: usize,
    moves: usize,
    with_captured: usize,
    queen_captured: usize,
    captures_of_two: usize,
    ends: [usize; 4],
}

fn run_games(seeds: std::ops::Range<u64>, inward: bool, seen: &mut Seen) {
    for seed in seeds {
        let positions = biased_game(Position::start(), seed, inward, 400);
        for (i, p) in positions.iter().enumerate() {
            seen.positions += 1;
            seen.moves += compare(p);
            if !p.captured().is_empty() {
                seen.with_captured += 1;
                if !(p.captured() & p.queens()).is_empty() {
                    seen.queen_captured += 1;
                }
            }
            if i > 0 {
                let before = p.captured().len() as i64 - positions[i - 1].captured().len() as i64;
                if before >= 2 {
                    seen.captures_of_two += 1;
                }
            }
        }
        let mut game = Game::from_position(Position::start());
        for w in positions.windows(2) {
            let m = w[0]
                .legal_moves()
                .iter()
                .copied()
                .find(|&m| w[0].play(m).unwrap() == w[1])
                .expect("consecutive positions are one move apart");
            game.play(m).unwrap();
        }
        if let Some(o) = game.outcome() {
            seen.ends[o.reason as usize] += 1;
        }
    }
}

#[test]
fn uniform_random_games_agree_with_the_reference() {
    let mut seen = Seen::default();
    run_games(0..8, false, &mut seen);
    assert!(seen.positions >= 1500, "{seen:?}");
    assert!(seen.with_captured >= 50, "{seen:?}");
}

#[test]
fn inward_biased_random_games_agree_with_the_reference() {
    let mut seen = Seen::default();
    run_games(100..130, true, &mut seen);
    assert!(seen.positions >= 4000, "{seen:?}");
    assert!(seen.with_captured >= 100, "{seen:?}");
    assert!(seen.queen_captured >= 5, "{seen:?}");
    assert!(seen.captures_of_two >= 1, "{seen:?}");
    let finished: usize = seen.ends.iter().sum();
    assert!(finished >= 10, "{seen:?}");
    assert!(
        seen.ends[EndReason::Throne as usize] + seen.ends[EndReason::RingWithoutQueen as usize]
            >= 1,
        "{seen:?}"
    );
    eprintln!("{seen:?}");
}

#[test]
fn documented_positions_agree_with_the_reference_to_depth_3() {
    for text in [
        // A captured queen and a captured guard: the queen first, anywhere.
        "Qf1,Ga5,Gb1,Gd9,Gh9,Gk1,Gl5/qf6*,ga2*,gb7,gd1,gh1,gk7,gl2 b",
        // Two captured guards, a choice between them.
        "Qf6,Ga5,Gb1,Gd9,Gh9,Gk1,Gl5/qf11,ga2*,gb7*,gd1,gh1,gk7,gl2 b",
        // Five white guards around the throne with the queen on it; the sixth is near.
        "Qf6,Ge5,Ge6,Gf5,Gf7,Gg5,Gh4/qa1,ga2,gb7,gd1,gh1,gk7,gl2 w",
    ] {
        let p = pos(text);
        let state = to_ref(&p);
        for depth in 1..=3 {
            assert_eq!(
                perft(&p, depth),
                agon_reference::perft(&state, depth),
                "{text} depth {depth}"
            );
        }
    }
}

#[test]
fn each_side_can_be_to_move_in_a_compared_position() {
    // The colour-swapped half turn of a position is the same game with sides swapped:
    // the reference and agon-core must agree on both.
    let p = pos("Qf6,Ge5,Ge6,Gf5,Gf7,Gg5,Gh4/qa1,ga2,gb7,gd1,gh1,gk7,gl2 w");
    let swapped: Vec<_> = p
        .pieces()
        .map(|(c, piece)| {
            let cell = Cell::from_index(90 - c.index()).unwrap();
            (cell, agon_core::Piece::new(piece.side.other(), piece.kind))
        })
        .collect();
    let q = Position::from_parts(Side::Black, swapped, agon_core::CellSet::EMPTY).unwrap();
    assert_eq!(compare(&p), compare(&q));
}

/// A random valid position, not necessarily reachable: 14 distinct cells (no guard on
/// the throne), sometimes a full or nearly full ring 1 of one side's guards, captured
/// marks on some pieces of one side, either side to move.
fn random_position(rng: &mut Rng) -> Position {
    use agon_core::{CellSet, Kind, Piece};
    let ring1: Vec<Cell> = Cell::all().filter(|c| c.ring().distance() == 1).collect();
    let mut used = CellSet::EMPTY;
    let mut pieces = Vec::new();
    // With probability 1/4, five or six guards of one side in ring 1.
    let ring_side = Side::ALL[rng.below(2)];
    let preset = if rng.below(4) == 0 {
        5 + rng.below(2)
    } else {
        0
    };
    for &c in ring1.iter().take(preset) {
        used.insert(c);
        pieces.push((c, Piece::new(ring_side, Kind::Guard)));
    }
    for side in Side::ALL {
        let guards_left = 6 - pieces.iter().filter(|(_, p)| p.side == side).count();
        let kinds =
            std::iter::once(Kind::Queen).chain(std::iter::repeat_n(Kind::Guard, guards_left));
        for kind in kinds {
            loop {
                let c = Cell::from_index(rng.below(CELL_COUNT)).unwrap();
                if used.contains(c) || (c == Cell::THRONE && kind == Kind::Guard) {
                    continue;
                }
                used.insert(c);
                pieces.push((c, Piece::new(side, kind)));
                break;
            }
        }
    }
    let victim = Side::ALL[rng.below(2)];
    let captured: CellSet = pieces
        .iter()
        .filter(|(_, p)| p.side == victim && rng.below(5) == 0)
        .map(|(c, _)| *c)
        .collect();
    let turn = Side::ALL[rng.below(2)];
    Position::from_parts(turn, pieces, captured).expect("valid by construction")
}

#[test]
fn random_set_positions_agree_with_the_reference() {
    let mut rng = Rng::new(0x5eed);
    let (mut rings, mut returns) = (0, 0);
    for _ in 0..3000 {
        let p = random_position(&mut rng);
        compare(&p);
        rings += usize::from(p.throne_ring_side().is_some());
        returns += usize::from(p.must_return());
    }
    // The sample reaches what it is meant to.
    assert!(rings >= 50, "{rings}");
    assert!(returns >= 300, "{returns}");
}

/// Plays a game under `start`'s rules, checking at every ply against the reference: the
/// position (legal moves, outcome, chooser, traps), the move's result, and the game's end
/// as the reference's own game reads its history. No piece ever steps outward. Returns
/// the game.
fn checked_game(start: Position, seed: u64, inward: usize, max_plies: usize) -> Game {
    let mut rng = Rng::new(seed);
    let mut game = Game::from_position(start);
    let mut reference = RefGame::new(to_ref(&start), rules_from_core(start.rules()));
    loop {
        let p = *game.position();
        check_position(&p);
        check_against_reference(&p);
        assert_eq!(
            game.outcome().map(agon_reference::checks::ref_end),
            reference.end(),
            "game end after {} plies under {}",
            game.moves().len(),
            p.rules()
        );
        if game.is_over() || game.moves().len() >= max_plies {
            break;
        }
        let m = common::leaning_move(&game, &mut rng, inward);
        game.play(m).expect("a listed move is legal");
        let after = *game.position();
        if let Move::Step { from, to } = m {
            assert!(
                to.ring() <= from.ring(),
                "{m} steps outward under {}",
                p.rules()
            );
        }
        check_transition(&p, m, &after);
        check_play_against_reference(&p, m, &after);
        reference.play(ref_move(m));
    }
    check_game_against_reference(&game);
    game
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// Any rule set, any seed, uniform or inward-biased play: every position, move and
    /// end agrees with the reference.
    #[test]
    fn random_rule_sets_and_games_agree_with_the_reference(
        rules in rules_strategy(),
        seed in any::<u64>(),
        inward in 0usize..4,
    ) {
        checked_game(Position::start_with_rules(rules), seed, inward, 400);
    }

    /// Set positions (crowded, captured marks, nearly complete rings) under any rule set.
    #[test]
    fn random_set_positions_under_random_rules_agree_with_the_reference(
        rules in rules_strategy(),
        seed in any::<u64>(),
    ) {
        let mut rng = Rng::new(seed);
        let p = random_position(&mut rng);
        let p = p.with_rules(rules).unwrap_or(p);
        compare(&p);
        checked_game(p, seed, 2, 60);
    }
}

/// What games under the one-option rule sets went through, so that the comparison above
/// is known to reach what each option is about.
#[test]
fn single_option_games_reach_what_each_option_changes() {
    let (mut passes, mut traps, mut trapped_queens, mut returns_off_outer) = (0, 0, 0, 0);
    let mut ends = [0usize; EndReason::COUNT];
    for rules in single_option_rule_sets(60) {
        for seed in 0..6 {
            let game = checked_game(
                Position::start_with_rules(rules),
                seed,
                (seed % 4) as usize,
                600,
            );
            if let Some(o) = game.outcome() {
                ends[o.reason.index()] += 1;
            }
            for (p, m) in game.positions().iter().zip(game.moves()) {
                passes += usize::from(m.is_pass());
                if p.traps(*m) {
                    traps += 1;
                    trapped_queens += usize::from(p.queens().contains(m.to().unwrap()));
                }
                if let Move::Return { from, to } = *m {
                    returns_off_outer +=
                        usize::from(!p.queens().contains(from) && to.ring().distance() < 5);
                }
            }
        }
    }
    assert!(traps >= 5, "traps {traps}");
    assert!(
        returns_off_outer >= 5,
        "next-ring returns {returns_off_outer}"
    );
    assert!(ends[EndReason::MoveLimit.index()] >= 6, "{ends:?}");
    eprintln!("passes {passes}, traps {traps} ({trapped_queens} queens), next-ring {returns_off_outer}, ends {ends:?}");
}

/// White hemmed in (no step), Black with two or three: found by a local search.
pub const WHITE_STUCK: [&str; 5] = [
    "Qf7,Ge4,Ge5,Ge6,Gf4,Gg4,Gg5/qf6,gd4,gd5,gf5,gg6,gh4,gh5 w",
    "Qf6,Ge4,Ge6,Gf4,Gf5,Gg5,Gh4/qf7,gd4,gd5,ge5,gg4,gg6,gh5 w",
    "Qh4,Gd4,Gd5,Gd6,Gf5,Gf7,Gh5/qe7,ge4,ge5,gf4,gg4,gg6,gh6 w",
    "Qe5,Gd4,Gd6,Ge4,Ge7,Gg5,Gg7/qf7,gd5,gf4,gf5,gf8,gh5,gh6 w",
    "Qh5,Gd4,Gd5,Ge6,Gf5,Gf7,Gh4/qh6,gd6,ge4,ge5,gf4,gg4,gg6 w",
];

/// Stuck positions under stuck=pass (and the ludii preset), and the games from them:
/// the pass, the replies and what follows agree with the reference; under the standard
/// rules the same positions are lost (R12).
#[test]
fn passes_agree_with_the_reference() {
    let mut passes = 0;
    for text in WHITE_STUCK {
        let standard = pos(text);
        assert!(standard.legal_moves().is_empty(), "{text}");
        compare(&standard);
        for rules in [Rules::STANDARD.with_stuck(Stuck::Pass), Rules::LUDII] {
            let p = standard.with_rules(rules).unwrap();
            assert_eq!(p.legal_moves().to_vec(), [Move::Pass], "{text}");
            compare(&p);
            for seed in 0..8 {
                let game = checked_game(p, seed, seed as usize % 4, 80);
                passes += game.moves().iter().filter(|m| m.is_pass()).count();
            }
        }
    }
    assert!(passes >= 80, "{passes}");
}
