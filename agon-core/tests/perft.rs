//! perft (RULES.md section 7) from the start and from documented positions, as exact
//! figures, each also computed by the independent reference generator where it is fast
//! enough (the reference is a plain list-of-pieces generator, some 100 times slower).

mod common;

use agon_core::{perft, perft_divide, Move, Position};
use common::{pos, to_ref};

/// perft(1..) from `text`, checked against the expected figures; the reference must
/// agree on the first `reference_depth` of them.
fn check(text: &str, expected: &[u64], reference_depth: usize) {
    let p = pos(text);
    let state = to_ref(&p);
    for (i, &want) in expected.iter().enumerate() {
        let depth = i as u32 + 1;
        assert_eq!(perft(&p, depth), want, "{text} depth {depth}");
        if i < reference_depth {
            assert_eq!(
                agon_reference::perft(&state, depth),
                want,
                "reference, {text} depth {depth}"
            );
        }
    }
}

/// The leaves under each first move, as `(move text, leaves)`.
fn divide(text: &str, depth: u32) -> Vec<(String, u64)> {
    perft_divide(&pos(text), depth)
        .into_iter()
        .map(|(m, n)| (m.to_string(), n))
        .collect()
}

fn mv(text: &str) -> Move {
    text.parse().unwrap()
}

#[test]
fn perft_from_the_start() {
    // Depths 1 and 2 are given by RULES.md section 7. (tests/reference.rs checks the
    // reference to depth 4.)
    check(
        "Qf1,Ga5,Gb1,Gd9,Gh9,Gk1,Gl5/qf11,ga2,gb7,gd1,gh1,gk7,gl2 w",
        &[27, 713, 18_417, 466_557, 11_662_533],
        3,
    );
    assert_eq!(perft(&Position::start(), 0), 1);
}

#[test]
fn perft_divide_sums_to_perft() {
    let start = Position::start();
    let parts = perft_divide(&start, 3);
    assert_eq!(parts.len(), 27);
    assert_eq!(parts.iter().map(|(_, n)| n).sum::<u64>(), 18_417);
    // By the mirror through the f file, f1-e1 and f1-g1 have equal subtrees.
    let leaves = |m: &str| parts.iter().find(|(x, _)| *x == mv(m)).unwrap().1;
    assert_eq!(leaves("f1-e1"), leaves("f1-g1"));
}

/// Captures: White's guard c5 may step to d5 and capture three pieces at once (Black's
/// queen e5 against White's queen f5, Black's guards d6 against d7 and c4 against b3);
/// b3-c3 captures c4 alone and d7-e7 captures d6 alone. After a capture Black must
/// return (the queen first after the triple capture: 77 empty cells), so the tree mixes
/// steps, captures and returns from ply 2.
const CAPTURES: &str = "Qf5,Gb3,Gc5,Gd7,Gh9,Gk1,Gl5/qe5,gc4,gd1,gd6,gh1,gk7,gl2 w";

#[test]
fn perft_with_single_and_multiple_captures() {
    let p = pos(CAPTURES);
    let capturing: Vec<(String, usize)> = p
        .legal_moves()
        .iter()
        .map(|&m| (m.to_string(), p.captures(m).len()))
        .filter(|(_, n)| *n > 0)
        .collect();
    assert_eq!(
        capturing,
        [
            ("b3-c3".to_string(), 1),
            ("c5-d5".to_string(), 3),
            ("d7-e7".to_string(), 1)
        ]
    );
    let parts = divide(CAPTURES, 2);
    assert!(parts.contains(&("c5-d5".to_string(), 77)));
    check(CAPTURES, &[22, 575, 12_520, 349_752], 3);
}

/// Returns: Black's queen (on f7) and guards a2 and b7 are captured. Ply 1 returns the
/// queen alone, to any of the 77 empty cells, the throne f6 included; ply 2 is White's
/// step; ply 3 returns either guard (a choice of two) to an empty outer cell; ply 4 is
/// White's step again, and ply 5 would return the last guard.
const RETURNS: &str = "Qf1,Ga5,Gb1,Gd9,Gh9,Gk1,Gl5/qf7*,ga2*,gb7*,gd1,gh1,gk7,gl2 b";

#[test]
fn perft_with_returns() {
    let p = pos(RETURNS);
    let moves = p.legal_moves();
    assert_eq!(moves.len(), 77);
    assert!(moves
        .iter()
        .all(|m| m.is_return() && m.from().map(|c| c.to_string()) == Some("f7".into())));
    assert!(moves.contains(&mv("f7>f6")));
    // After the queen's return to the throne, White steps as from the start: 14 steps
    // sideways along the outer ring and 13 inward, off it. Black then chooses between
    // a2 and b7, each to any empty outer cell: 30 - 13 after a sideways step, 30 - 12
    // after an inward one.
    let throne = p.play(mv("f7>f6")).unwrap();
    assert_eq!(perft(&throne, 1), 27);
    assert_eq!(perft(&throne, 2), 14 * 2 * 17 + 13 * 2 * 18);
    check(RETURNS, &[77, 2_048, 70_710, 1_793_035], 3);
}

/// The throne ring: White's guards hold e5 e6 f5 f7 g5 around White's queen on the
/// throne, and h5-g6 completes the ring and wins. The other four White moves (f7-g6 and
/// g5-g6 leave a gap elsewhere; h5-h4 and h5-h6 wait) are each answered by Black's 27
/// steps of the start, so perft(2) = 4 x 27: the finished branch has no actions.
const THRONE_RING: &str = "Qf6,Ge5,Ge6,Gf5,Gf7,Gg5,Gh5/qf11,ga2,gb7,gd1,gh1,gk7,gl2 w";

#[test]
fn perft_with_a_throne_ring_finish() {
    assert_eq!(
        divide(THRONE_RING, 2),
        [
            ("f7-g6".to_string(), 27),
            ("g5-g6".to_string(), 27),
            ("h5-g6".to_string(), 0),
            ("h5-h4".to_string(), 27),
            ("h5-h6".to_string(), 27),
        ]
    );
    check(THRONE_RING, &[5, 108, 486, 11_568], 3);
}

/// No action: White's pieces on a1-a6 and b1 are walled in by Black's guards b2 b4 b6
/// b7 c1 and d2 (b3, b5 and c2 are forbidden cells). Black to move: any Black move that
/// keeps the wall leaves White with no action, a leaf of depth 1 with no children (R12),
/// so several first moves have no leaves at depth 2; moving a wall piece lets White out.
const NO_ACTION: &str = "Qa3,Ga1,Ga2,Ga4,Ga5,Ga6,Gb1/qf11,gb2,gb4,gb6,gb7,gc1,gd2 b";

#[test]
fn perft_with_a_side_left_without_action() {
    let parts = divide(NO_ACTION, 2);
    let dead: Vec<&str> = parts
        .iter()
        .filter(|(_, n)| *n == 0)
        .map(|(m, _)| m.as_str())
        .collect();
    // The queen's three moves change nothing near the wall; d2-c2 fills c2 instead of
    // forbidding it; after b6-b5 the cell b6 lies between b5 and b7, still forbidden.
    assert_eq!(dead, ["b6-b5", "d2-c2", "f11-e10", "f11-f10", "f11-g10"]);
    check(NO_ACTION, &[21, 49, 981, 8_040], 3);
}

/// Regression: `perft(&Position::start(), 1_000_000)` recursed a million calls deep along
/// a line that never ends (perft ignores repetition) and aborted the process with a stack
/// overflow. Depths past the bound now panic, before any recursion; at the bound, a
/// finished position still counts at once.
#[test]
fn perft_depth_is_bounded() {
    use agon_core::MAX_PERFT_DEPTH;
    let won = pos("Qf6,Ge5,Ge6,Gf5,Gf7,Gg5,Gg6/qa1,ga2,gb1,gb2,gc1,gc2,gd1 b");
    assert_eq!(perft(&won, MAX_PERFT_DEPTH), 0);
    assert!(perft_divide(&won, MAX_PERFT_DEPTH).is_empty());
    for depth in [MAX_PERFT_DEPTH + 1, 1_000_000, u32::MAX] {
        let panic = std::panic::catch_unwind(|| perft(&Position::start(), depth));
        let message = *panic.unwrap_err().downcast::<String>().unwrap();
        assert_eq!(
            message,
            format!("perft depth {depth} exceeds MAX_PERFT_DEPTH (64)")
        );
        assert!(std::panic::catch_unwind(|| perft_divide(&Position::start(), depth)).is_err());
    }
}
