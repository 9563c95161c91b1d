//! One or more tests for each rule R1 to R12 of RULES.md, on hand-built positions,
//! asserting exact move lists, positions, outcomes and `IllegalMove` reasons (every
//! variant of `IllegalMove` appears). Where RULES.md names a rejected reading beside a
//! rule, at least one test would fail under that reading.
//!
//! Positions are written in the one-line text format; the comments give the geometry
//! (cube coordinates `(q, r, s)`) that makes each one work.

mod common;

use agon_core::{Cell, EndReason, Game, IllegalMove, Move, Outcome, Position, Side};
use common::{ends_as, pos, reference_moves, to_ref};

fn mv(text: &str) -> Move {
    text.parse().unwrap_or_else(|e| panic!("{text:?}: {e}"))
}

fn cell(name: &str) -> Cell {
    name.parse().unwrap_or_else(|e| panic!("{name:?}: {e}"))
}

/// The legal moves of the piece on `from`, as text.
fn moves_from(p: &Position, from: &str) -> Vec<String> {
    p.legal_moves_from(cell(from))
        .iter()
        .map(|m| m.to_string())
        .collect()
}

/// The text of the position after `m`, which must be legal.
fn after(p: &Position, m: &str) -> String {
    p.play(mv(m))
        .unwrap_or_else(|e| panic!("{m} in {}: {e}", p.to_text()))
        .to_text()
        .to_string()
}

/// The cells captured by `m`, as sorted names.
fn captures(p: &Position, m: &str) -> Vec<String> {
    p.captures(mv(m)).iter().map(|c| c.to_string()).collect()
}

/// Also checks the reference generator on every hand-built position, so that these
/// positions double as cross-checks.
fn agrees_with_reference(p: &Position) {
    assert_eq!(common::core_moves(p), reference_moves(p), "{}", p.to_text());
    let winner = agon_reference::outcome(&to_ref(p));
    assert_eq!(
        p.outcome().map(|o| o.winner.map(|s| s as u8)),
        winner.map(Some)
    );
}

// ---------------------------------------------------------------------------------------
// R1: one action per turn, no passing.

#[test]
fn r01_every_action_hands_the_turn_to_the_opponent() {
    let start = Position::start();
    for m in start.legal_moves().iter() {
        assert_eq!(start.play(*m).unwrap().turn(), Side::Black, "{m}");
    }
    // Even a return that leaves another captured piece to return ends the turn (R8).
    let p = pos("Qf6,Ga5,Gb1,Gd9,Gh9,Gk1,Gl5/qf11,ga2*,gb7*,gd1,gh1,gk7,gl2 b");
    let next = p.play(mv("a2>a1")).unwrap();
    assert_eq!(next.turn(), Side::White);
    assert_eq!(
        next.to_text(),
        "Qf6,Ga5,Gb1,Gd9,Gh9,Gk1,Gl5/qf11,ga1,gb7*,gd1,gh1,gk7,gl2 w"
    );
    agrees_with_reference(&p);
}

#[test]
fn r01_there_is_no_pass_nor_null_move() {
    let start = Position::start();
    // A piece "moving" to its own cell is not an action of any kind.
    assert_eq!(start.play(mv("f1-f1")), Err(IllegalMove::NotAdjacent));
    assert_eq!(start.play(mv("f1>f1")), Err(IllegalMove::NotCaptured));
    assert!(start.legal_moves().iter().all(|m| m.from() != m.to()));
    // A side with no action loses rather than passes (see also R12).
    let stuck = pos("Qa3,Ga1,Ga2,Ga4,Ga5,Ga6,Gb1/qf11,gb2,gb4,gb6,gb7,gc1,gc2 w");
    assert!(stuck.legal_moves().is_empty());
    assert_eq!(
        stuck.outcome(),
        Some(Outcome::win(Side::Black, EndReason::NoLegalAction))
    );
}

// ---------------------------------------------------------------------------------------
// R2: steps go to an adjacent empty cell, sideways or inward; a side with a captured
// piece returns instead.

/// White's guard on c5 (ring 3) has six neighbours: c4 and c6 in ring 3, d5 and d6 in
/// ring 2, b4 and b5 in ring 4.
const C5: &str = "Qf1,Ga5,Gc5,Gd9,Gh9,Gk1,Gl5/qf11,ga2,gb7,gd1,gh1,gk7,gl2 w";

#[test]
fn r02_a_step_goes_sideways_or_inward_to_an_adjacent_empty_cell() {
    let p = pos(C5);
    assert_eq!(moves_from(&p, "c5"), ["c5-c4", "c5-c6", "c5-d5", "c5-d6"]);
    assert_eq!(
        after(&p, "c5-d6"),
        "Qf1,Ga5,Gd6,Gd9,Gh9,Gk1,Gl5/qf11,ga2,gb7,gd1,gh1,gk7,gl2 b"
    );
    agrees_with_reference(&p);
}

#[test]
fn r02_no_piece_moves_outward() {
    let p = pos(C5);
    assert_eq!(p.play(mv("c5-b4")), Err(IllegalMove::Outward));
    assert_eq!(p.play(mv("c5-b5")), Err(IllegalMove::Outward));
    // From the outer ring a queen still has its two sideways steps and one inward.
    assert_eq!(moves_from(&p, "f1"), ["f1-e1", "f1-f2", "f1-g1"]);
}

#[test]
fn r02_no_piece_jumps() {
    let p = pos(C5);
    assert_eq!(p.play(mv("c5-c3")), Err(IllegalMove::NotAdjacent));
    assert_eq!(p.play(mv("c5-e5")), Err(IllegalMove::NotAdjacent));
    // Two cells inward along a line, over an empty cell: still a jump.
    assert_eq!(p.play(mv("c5-e6")), Err(IllegalMove::NotAdjacent));
}

#[test]
fn r02_a_step_needs_an_empty_cell() {
    // White's guard on c5 next to its own guard on c4 and Black's guard on d5.
    let p = pos("Qf1,Ga5,Gc4,Gc5,Gh9,Gk1,Gl5/qf11,ga2,gb7,gd5,gh1,gk7,gl2 w");
    assert_eq!(p.play(mv("c5-c4")), Err(IllegalMove::Occupied));
    assert_eq!(p.play(mv("c5-d5")), Err(IllegalMove::Occupied));
    assert_eq!(moves_from(&p, "c5"), ["c5-c6", "c5-d6"]);
    agrees_with_reference(&p);
}

#[test]
fn r02_a_side_with_a_captured_piece_may_not_step() {
    // Black's guard on a2 is captured: all Black's actions are returns of it.
    let p = pos("Qf6,Ga5,Gb1,Gd9,Gh9,Gk1,Gl5/qf11,ga2*,gb7,gd1,gh1,gk7,gl2 b");
    assert_eq!(p.play(mv("f11-g10")), Err(IllegalMove::MustReturn));
    let moves = p.legal_moves();
    // 30 outer cells less the 13 pieces standing there (a2 itself included).
    assert_eq!(moves.len(), 17);
    assert!(moves
        .iter()
        .all(|m| m.is_return() && m.from() == Some(cell("a2"))));
    agrees_with_reference(&p);
}

#[test]
fn r02_steps_reach_only_the_pieces_of_the_side_to_move() {
    let p = pos(C5);
    assert_eq!(p.play(mv("f11-g10")), Err(IllegalMove::NotYourPiece));
    assert_eq!(p.play(mv("f6-f5")), Err(IllegalMove::NoPiece));
}

// ---------------------------------------------------------------------------------------
// R3: only a queen enters the throne; a queen on the throne has no step.

/// White's queen on e5 and guard on g5, both in ring 1, the throne empty.
const RING1_QUEEN_AND_GUARD: &str = "Qe5,Ga5,Gb1,Gd9,Gg5,Gk1,Gl5/qf11,ga2,gb7,gd1,gh1,gk7,gl2 w";

#[test]
fn r03_a_queen_may_enter_the_throne() {
    let p = pos(RING1_QUEEN_AND_GUARD);
    assert_eq!(moves_from(&p, "e5"), ["e5-e6", "e5-f5", "e5-f6"]);
    assert_eq!(
        after(&p, "e5-f6"),
        "Qf6,Ga5,Gb1,Gd9,Gg5,Gk1,Gl5/qf11,ga2,gb7,gd1,gh1,gk7,gl2 b"
    );
    agrees_with_reference(&p);
}

#[test]
fn r03_a_guard_may_not_enter_the_throne() {
    let p = pos(RING1_QUEEN_AND_GUARD);
    assert_eq!(moves_from(&p, "g5"), ["g5-f5", "g5-g6"]);
    assert_eq!(p.play(mv("g5-f6")), Err(IllegalMove::ThroneForQueens));
}

#[test]
fn r03_a_queen_on_the_throne_has_no_step() {
    // All six ring-1 cells are empty, yet every one of them lies outward.
    let p = pos("Qf6,Ga5,Gb1,Gd9,Gh9,Gk1,Gl5/qf11,ga2,gb7,gd1,gh1,gk7,gl2 w");
    assert_eq!(moves_from(&p, "f6"), Vec::<String>::new());
    assert_eq!(p.play(mv("f6-e5")), Err(IllegalMove::Outward));
    // The other six pieces keep their 24 steps of the start position.
    assert_eq!(p.legal_moves().len(), 24);
    agrees_with_reference(&p);
}

// ---------------------------------------------------------------------------------------
// R4: a cell between two enemy pieces on a straight line is forbidden.

/// d5 = (-2, 1, 1) lies between Black's guards d4 = (-2, 2, 0) and d6 = (-2, 0, 2).
/// White's guard on c5 could step there, and White's guards on d3 and d7 stand behind
/// d4 and d6: the step would capture both, yet it is forbidden.
const D5_BETWEEN: &str = "Qf1,Gc5,Gd3,Gd7,Gh9,Gk1,Gl5/qf11,ga2,gb7,gd4,gd6,gh1,gl2 w";

#[test]
fn r04_step_between_two_enemies_is_forbidden_even_if_it_captures() {
    let p = pos(D5_BETWEEN);
    assert!(p.forbidden_cells(Side::White).contains(cell("d5")));
    assert_eq!(p.play(mv("c5-d5")), Err(IllegalMove::BetweenEnemies));
    // c5's other steps: c4, c6 (ring 3) and d6 is taken.
    assert_eq!(moves_from(&p, "c5"), ["c5-c4", "c5-c6"]);
    agrees_with_reference(&p);
}

#[test]
fn r04_the_same_step_is_legal_and_captures_once_one_enemy_is_gone() {
    // Control for the test above: without Black's d6 guard (moved to k7), d5 is free and
    // the step captures the d4 guard (d3 stands behind it).
    let p = pos("Qf1,Gc5,Gd3,Gd7,Gh9,Gk1,Gl5/qf11,ga2,gb7,gd4,gh1,gk7,gl2 w");
    assert_eq!(moves_from(&p, "c5"), ["c5-c4", "c5-c6", "c5-d5", "c5-d6"]);
    assert_eq!(captures(&p, "c5-d5"), ["d4"]);
    agrees_with_reference(&p);
}

#[test]
fn r04_own_pieces_do_not_forbid_a_cell() {
    // d5 between two White guards is open to White.
    let p = pos("Qf1,Gc5,Gd4,Gd6,Gh9,Gk1,Gl5/qf11,ga2,gb7,gd1,gh1,gk7,gl2 w");
    assert!(p.forbidden_cells(Side::White).is_empty());
    assert!(moves_from(&p, "c5").contains(&"c5-d5".to_string()));
    // ...and it is forbidden to Black.
    assert!(p.forbidden_cells(Side::Black).contains(cell("d5")));
}

#[test]
fn r04_captured_pieces_count_for_the_forbidden_cell() {
    // Black's d4 guard is captured (Black has returned one piece already and it is
    // White's turn): it still stands on d4, so d5 stays forbidden to White.
    let p = pos("Qf1,Gc5,Gd3,Gd7,Gh9,Gk1,Gl5/qf11,ga2,gb7,gd4*,gd6,gh1,gl2 w");
    assert_eq!(p.play(mv("c5-d5")), Err(IllegalMove::BetweenEnemies));
    assert_eq!(moves_from(&p, "c5"), ["c5-c4", "c5-c6"]);
    agrees_with_reference(&p);
}

#[test]
fn r04_a_queen_is_bound_too_and_any_axis_counts() {
    // Black's guards e4 = (-1, 2, -1) and g5 = (1, 0, -1) flank f5 = (0, 1, -1) along the
    // q axis; White's queen on e5 may not step there, but may take the throne.
    let p = pos("Qe5,Ga5,Gb1,Gd9,Gh9,Gk1,Gl5/qf11,ga2,ge4,gg5,gh1,gk7,gl2 w");
    assert_eq!(p.play(mv("e5-f5")), Err(IllegalMove::BetweenEnemies));
    assert_eq!(moves_from(&p, "e5"), ["e5-e6", "e5-f6"]);
    agrees_with_reference(&p);
}

// ---------------------------------------------------------------------------------------
// R5: the stepping piece captures the enemy pieces it flanks with a piece of its side.

/// White's guard c5 steps to d5 = (-2, 1, 1). Around d5: Black's queen e5 with White's
/// queen f5 behind, Black's guard d6 with White's d7 behind, Black's guard c4 with
/// White's b3 behind. No two Black pieces face each other across d5, so it is allowed.
const TRIPLE: &str = "Qf5,Gb3,Gc5,Gd7,Gh9,Gk1,Gl5/qe5,gc4,gd1,gd6,gh1,gk7,gl2 w";

#[test]
fn r05_one_step_captures_every_flanked_enemy_queens_included() {
    let p = pos(TRIPLE);
    assert_eq!(captures(&p, "c5-d5"), ["c4", "d6", "e5"]);
    assert_eq!(
        after(&p, "c5-d5"),
        "Qf5,Gb3,Gd5,Gd7,Gh9,Gk1,Gl5/qe5*,gc4*,gd1,gd6*,gh1,gk7,gl2 b"
    );
    agrees_with_reference(&p);
}

#[test]
fn r05_a_queen_captures_like_a_guard() {
    // White's queen e4 = (-1, 2, -1) steps to e5 = (-1, 1, 0); Black's guard
    // f5 = (0, 1, -1) sits between e5 and White's guard g4 = (1, 1, -2) and is captured.
    let p = pos("Qe4,Ga5,Gb1,Gd9,Gg4,Gk1,Gl5/qf11,ga2,gb7,gd1,gf5,gk7,gl2 w");
    assert_eq!(captures(&p, "e4-e5"), ["f5"]);
    assert_eq!(
        after(&p, "e4-e5"),
        "Qe5,Ga5,Gb1,Gd9,Gg4,Gk1,Gl5/qf11,ga2,gb7,gd1,gf5*,gk7,gl2 b"
    );
    agrees_with_reference(&p);
}

#[test]
fn r05_no_capture_without_a_partner_behind() {
    // Same as above with a Black guard on g4 instead of White's: two Black pieces in a
    // row are not captured.
    let p = pos("Qe4,Ga5,Gb1,Gd9,Gh9,Gk1,Gl5/qf11,ga2,gb7,gd1,gf5,gg4,gl2 w");
    assert_eq!(captures(&p, "e4-e5"), Vec::<String>::new());
    agrees_with_reference(&p);
}

#[test]
fn r05_an_empty_throne_takes_no_part() {
    // White's guard c4 steps to d4 = (-2, 2, 0); Black's guard e5 = (-1, 1, 0) is between
    // d4 and the throne. The empty throne does not capture it.
    let p = pos("Qf1,Ga5,Gc4,Gd9,Gh9,Gk1,Gl5/qf11,ga2,gb7,gd1,ge5,gh1,gl2 w");
    assert_eq!(captures(&p, "c4-d4"), Vec::<String>::new());
    assert_eq!(
        after(&p, "c4-d4"),
        "Qf1,Ga5,Gd4,Gd9,Gh9,Gk1,Gl5/qf11,ga2,gb7,gd1,ge5,gh1,gl2 b"
    );
    agrees_with_reference(&p);
}

#[test]
fn r05_a_queen_on_the_throne_captures_like_any_piece() {
    // The same with White's queen on the throne: now e5 is flanked and captured.
    let p = pos("Qf6,Ga5,Gc4,Gd9,Gh9,Gk1,Gl5/qf11,ga2,gb7,gd1,ge5,gh1,gl2 w");
    assert_eq!(captures(&p, "c4-d4"), ["e5"]);
    agrees_with_reference(&p);
}

// ---------------------------------------------------------------------------------------
// R6: only the piece that stepped captures.

#[test]
fn r06_an_enemy_already_flanked_is_not_captured_by_a_step_elsewhere() {
    // Black returns its captured guard to d1 = (-2, 5, -3), between White's guards c1 and
    // e1 on the outer ring (R9 allows it). White then steps elsewhere: d1 stays free.
    let p = pos("Qf1,Ga5,Gc1,Ge1,Gh9,Gk1,Gl5/qf11,ga2*,gb7,gd9,gh1,gk7,gl2 b");
    let mut game = Game::from_position(p);
    game.play(mv("a2>d1")).unwrap();
    assert_eq!(
        game.position().to_text(),
        "Qf1,Ga5,Gc1,Ge1,Gh9,Gk1,Gl5/qf11,gb7,gd1,gd9,gh1,gk7,gl2 w"
    );
    let captured = game.play(mv("k1-k2")).unwrap();
    assert!(captured.is_empty());
    assert_eq!(
        game.position().to_text(),
        "Qf1,Ga5,Gc1,Ge1,Gh9,Gk2,Gl5/qf11,gb7,gd1,gd9,gh1,gk7,gl2 b"
    );
    agrees_with_reference(game.position());
}

#[test]
fn r06_a_step_captures_only_along_its_own_lines() {
    // Black's guard d1 stands between White's c1 and e1 (after a return). White's guard
    // b4 steps to c4 = (-3, 2, 1), flanking Black's d4 with e4 = (-1, 2, -1): only d4 is
    // captured, d1 is not.
    let p = pos("Qf1,Gb4,Gc1,Ge1,Ge4,Gk1,Gl5/qf11,gb7,gd1,gd4,gh1,gk7,gl2 w");
    assert_eq!(captures(&p, "b4-c4"), ["d4"]);
    assert_eq!(
        after(&p, "b4-c4"),
        "Qf1,Gc1,Gc4,Ge1,Ge4,Gk1,Gl5/qf11,gb7,gd1,gd4*,gh1,gk7,gl2 b"
    );
    agrees_with_reference(&p);
}

// ---------------------------------------------------------------------------------------
// R7: a captured piece stays, occupies its cell, cannot step, cannot be captured again.

/// Black's guards d4 (captured) and d6 (free); White to move.
const CAPTURED_D4: &str = "Qf1,Gc5,Gd3,Gd7,Gh9,Gk1,Gl5/qf11,ga2,gb7,gd4*,gd6,gh1,gl2 w";

#[test]
fn r07_a_captured_piece_keeps_its_cell_occupied() {
    // White's guard c3 = (-3, 3, 0) could step inward to d4 = (-2, 2, 0), but the
    // captured Black guard still stands there.
    let p = pos("Qf1,Gc3,Gd2,Gd7,Gh9,Gk1,Gl5/qf11,ga2,gb7,gd4*,gd6,gh1,gl2 w");
    assert_eq!(p.play(mv("c3-d4")), Err(IllegalMove::Occupied));
    assert!(!moves_from(&p, "c3").contains(&"c3-d4".to_string()));
    agrees_with_reference(&p);
}

#[test]
fn r07_a_captured_piece_cannot_be_captured_again() {
    // White's guard d2 steps to d3 = (-2, 3, -1): Black's captured d4 lies between d3
    // and White's d5. It is not captured a second time (the step captures nothing).
    let p = pos("Qf1,Gd2,Gd5,Gd7,Gh9,Gk1,Gl5/qf11,ga2,gb7,gd4*,gh1,gk7,gl2 w");
    assert_eq!(captures(&p, "d2-d3"), Vec::<String>::new());
    let next = p.play(mv("d2-d3")).unwrap();
    assert_eq!(
        next.to_text(),
        "Qf1,Gd3,Gd5,Gd7,Gh9,Gk1,Gl5/qf11,ga2,gb7,gd4*,gh1,gk7,gl2 b"
    );
    agrees_with_reference(&p);
    // Control: the same step captures the d4 guard while it is free.
    let free = pos("Qf1,Gd2,Gd5,Gd7,Gh9,Gk1,Gl5/qf11,ga2,gb7,gd4,gh1,gk7,gl2 w");
    assert_eq!(captures(&free, "d2-d3"), ["d4"]);
}

#[test]
fn r07_a_captured_piece_cannot_step() {
    // Black to move with its d4 guard captured: stepping it (or anything) is refused,
    // and no action of Black is a step.
    let p = pos("Qf1,Gc5,Gd3,Gd7,Gh9,Gk1,Gl5/qf11,ga2,gb7,gd4*,gd6,gh1,gl2 b");
    assert_eq!(p.play(mv("d4-e5")), Err(IllegalMove::MustReturn));
    assert!(p
        .legal_moves()
        .iter()
        .all(|m| m.is_return() && m.from() == Some(cell("d4"))));
    agrees_with_reference(&p);
    agrees_with_reference(&pos(CAPTURED_D4));
}

// ---------------------------------------------------------------------------------------
// R8: returns: the queen first, then any guard; guards to the outer ring, the queen
// anywhere empty, the throne included.

/// Black's queen (on f7) and guard (on a2) are captured; Black to move. The throne is
/// empty.
const QUEEN_AND_GUARD_CAPTURED: &str =
    "Qf1,Ga5,Gb1,Gd9,Gh9,Gk1,Gl5/qf7*,ga2*,gb7,gd1,gh1,gk7,gl2 b";

#[test]
fn r08_the_captured_queen_is_returned_first() {
    let p = pos(QUEEN_AND_GUARD_CAPTURED);
    assert_eq!(p.play(mv("a2>a1")), Err(IllegalMove::QueenFirst));
    let moves = p.legal_moves();
    // Every empty cell: 91 cells less the 14 pieces.
    assert_eq!(moves.len(), 77);
    assert!(moves
        .iter()
        .all(|m| m.is_return() && m.from() == Some(cell("f7"))));
    agrees_with_reference(&p);
}

#[test]
fn r08_the_queen_may_be_returned_to_the_throne() {
    let p = pos(QUEEN_AND_GUARD_CAPTURED);
    assert!(p.legal_moves().contains(&mv("f7>f6")));
    assert_eq!(
        after(&p, "f7>f6"),
        "Qf1,Ga5,Gb1,Gd9,Gh9,Gk1,Gl5/qf6,ga2*,gb7,gd1,gh1,gk7,gl2 w"
    );
    // ...and to any other empty cell, inner or outer, but not onto a piece.
    assert_eq!(
        after(&p, "f7>c6"),
        "Qf1,Ga5,Gb1,Gd9,Gh9,Gk1,Gl5/qc6,ga2*,gb7,gd1,gh1,gk7,gl2 w"
    );
    assert_eq!(p.play(mv("f7>f1")), Err(IllegalMove::Occupied));
}

#[test]
fn r08_the_side_chooses_which_captured_guard_returns_to_the_outer_ring() {
    // Two captured guards: 2 x 17 returns (30 outer cells, 13 of them occupied).
    let p = pos("Qf6,Ga5,Gb1,Gd9,Gh9,Gk1,Gl5/qf11,ga2*,gb7*,gd1,gh1,gk7,gl2 b");
    let moves = p.legal_moves();
    assert_eq!(moves.len(), 34);
    assert_eq!(
        moves
            .iter()
            .filter(|m| m.from() == Some(cell("a2")))
            .count(),
        17
    );
    assert_eq!(
        moves
            .iter()
            .filter(|m| m.from() == Some(cell("b7")))
            .count(),
        17
    );
    assert!(moves
        .iter()
        .all(|m| m.is_return() && m.to().is_some_and(|c| c.ring().distance() == 5)));
    assert_eq!(
        after(&p, "b7>l6"),
        "Qf6,Ga5,Gb1,Gd9,Gh9,Gk1,Gl5/qf11,ga2*,gd1,gh1,gk7,gl2,gl6 w"
    );
    // A guard does not return inside the outer ring, nor onto a piece, nor is a free
    // piece "returned".
    assert_eq!(p.play(mv("a2>b2")), Err(IllegalMove::GuardToOuterRing));
    assert_eq!(p.play(mv("a2>f5")), Err(IllegalMove::GuardToOuterRing));
    assert_eq!(p.play(mv("a2>a5")), Err(IllegalMove::Occupied));
    assert_eq!(p.play(mv("d1>c1")), Err(IllegalMove::NotCaptured));
    agrees_with_reference(&p);
}

#[test]
fn r08_several_captured_pieces_take_several_turns() {
    let mut game = Game::from_position(pos(QUEEN_AND_GUARD_CAPTURED));
    game.play(mv("f7>f6")).unwrap();
    // White steps in between.
    assert_eq!(game.play(mv("a2>a1")), Err(IllegalMove::NotYourPiece));
    game.play(mv("f1-e1")).unwrap();
    // Black's second return.
    assert_eq!(game.legal_moves().len(), 30 - 13);
    game.play(mv("a2>a3")).unwrap();
    assert_eq!(
        game.position().to_text(),
        "Qe1,Ga5,Gb1,Gd9,Gh9,Gk1,Gl5/qf6,ga3,gb7,gd1,gh1,gk7,gl2 w"
    );
    assert!(game.position().captured().is_empty());
}

#[test]
fn r08_without_captured_pieces_there_is_nothing_to_return() {
    let p = Position::start();
    assert_eq!(p.play(mv("f1>f6")), Err(IllegalMove::NotCaptured));
    assert!(p.legal_moves().iter().all(|m| !m.is_return()));
}

// ---------------------------------------------------------------------------------------
// R9: a return is a placement: not restricted by R4, captures nothing.

#[test]
fn r09_a_return_is_not_restricted_by_the_forbidden_cell() {
    // d1 = (-2, 5, -3) lies between White's c1 and e1: forbidden to Black's steps, open
    // to its return.
    let p = pos("Qf1,Ga5,Gc1,Ge1,Gh9,Gk1,Gl5/qf11,ga2*,gb7,gd9,gh1,gk7,gl2 b");
    assert!(p.forbidden_cells(Side::Black).contains(cell("d1")));
    assert!(p.legal_moves().contains(&mv("a2>d1")));
    assert_eq!(p.check_move(mv("a2>d1")), Ok(()));
    agrees_with_reference(&p);
}

#[test]
fn r09_a_return_captures_nothing() {
    // Black returns its guard to d1 = (-2, 5, -3). Along the outer edge, White's queen
    // e1 lies between d1 and Black's f1, and White's c1 between d1 and Black's b1: a
    // step to d1 would capture both (were it allowed), the return captures neither.
    let p = pos("Qe1,Ga5,Gc1,Gd9,Gh9,Gk1,Gl5/qf11,ga2*,gb1,gb7,gf1,gk7,gl2 b");
    assert_eq!(p.captures(mv("a2>d1")).len(), 0);
    assert_eq!(
        after(&p, "a2>d1"),
        "Qe1,Ga5,Gc1,Gd9,Gh9,Gk1,Gl5/qf11,gb1,gb7,gd1,gf1,gk7,gl2 w"
    );
    agrees_with_reference(&p);
}

#[test]
fn r09_a_returned_queen_captures_nothing_either() {
    // Black's queen returns to d5 = (-2, 1, 1): White's e5 lies between d5 and Black's
    // f5, and d5 itself lies between White's c5 and e5 (forbidden to a Black step).
    let p = pos("Qf1,Ga5,Gc5,Ge5,Gh9,Gk1,Gl5/qa1*,ga2,gb7,gd1,gf5,gh1,gl2 b");
    assert!(p.forbidden_cells(Side::Black).contains(cell("d5")));
    assert!(p.legal_moves().contains(&mv("a1>d5")));
    assert!(p.captures(mv("a1>d5")).is_empty());
    assert_eq!(
        after(&p, "a1>d5"),
        "Qf1,Ga5,Gc5,Ge5,Gh9,Gk1,Gl5/qd5,ga2,gb7,gd1,gf5,gh1,gl2 w"
    );
    agrees_with_reference(&p);
}

// ---------------------------------------------------------------------------------------
// R10: the throne ring.

/// White's guards hold five ring-1 cells (e5 e6 f5 f7 g5); the guard on h5 can step to
/// the sixth, g6.
fn ring_position(white_queen: &str, black_queen: &str) -> Position {
    pos(&format!(
        "Q{white_queen},Ge5,Ge6,Gf5,Gf7,Gg5,Gh5/q{black_queen},ga2,gb7,gd1,gh1,gk7,gl2 w"
    ))
}

#[test]
fn r10_completing_the_ring_with_own_queen_on_the_throne_wins() {
    let p = ring_position("f6", "f11");
    assert_eq!(p.outcome(), None);
    let next = ends_as(
        p,
        mv("h5-g6"),
        Some(Outcome::win(Side::White, EndReason::Throne)),
    );
    assert_eq!(next.throne_ring_side(), Some(Side::White));
    agrees_with_reference(&p);
    agrees_with_reference(&next);
}

#[test]
fn r10_completing_the_ring_without_own_queen_on_the_throne_loses() {
    let p = ring_position("a1", "f11");
    // In a game too: R10 comes before R12, so Black, left without actions by the
    // finished ring, is not the loser.
    let next = ends_as(
        p,
        mv("h5-g6"),
        Some(Outcome::win(Side::Black, EndReason::RingWithoutQueen)),
    );
    agrees_with_reference(&next);
}

#[test]
fn r10_completing_the_ring_around_the_enemy_queen_loses() {
    // Black's queen sits on the throne (and is captured by the completing step, flanked
    // by g6 and e5): White's ring still loses, since White's queen is elsewhere.
    let p = ring_position("f1", "f6");
    assert_eq!(captures(&p, "h5-g6"), ["f6"]);
    let next = ends_as(
        p,
        mv("h5-g6"),
        Some(Outcome::win(Side::Black, EndReason::RingWithoutQueen)),
    );
    agrees_with_reference(&next);
}

#[test]
fn r10_a_decided_position_has_no_actions() {
    let done = ring_position("f6", "f11").play(mv("h5-g6")).unwrap();
    assert_eq!(done.legal_moves().len(), 0);
    assert_eq!(done.count_legal_moves(), 0);
    assert_eq!(done.play(mv("f11-g10")), Err(IllegalMove::GameOver));
    assert_eq!(agon_core::perft(&done, 1), 0);
    assert_eq!(agon_core::perft(&done, 3), 0);
}

#[test]
fn r10_a_queen_in_the_ring_does_not_complete_it() {
    // Five White guards and White's queen hold ring 1: not a throne ring of guards.
    let p = pos("Qg6,Ge5,Ge6,Gf5,Gf7,Gg5,Gh5/qf11,ga2,gb7,gd1,gh1,gk7,gl2 b");
    assert_eq!(p.throne_ring_side(), None);
    assert_eq!(p.outcome(), None);
    // Nor do guards of both sides: Black's guard on g6 instead.
    let q = pos("Qf6,Ge5,Ge6,Gf5,Gf7,Gg5,Gh5/qf11,ga2,gb7,gd1,gg6,gk7,gl2 w");
    assert_eq!(q.throne_ring_side(), None);
    agrees_with_reference(&p);
    agrees_with_reference(&q);
}

#[test]
fn r10_black_wins_the_same_way() {
    // The half turn of the White win above with the colours swapped ((q, r, s) ->
    // (-q, -r, -s)): Black's guards hold e6 f5 f7 g5 g6 and d5 steps to e5.
    let p = pos("Qf1,Ga5,Gb1,Gd9,Gh9,Gk1,Gl5/qf6,gd5,ge6,gf5,gf7,gg5,gg6 b");
    assert_eq!(p.outcome(), None);
    let next = p.play(mv("d5-e5")).unwrap();
    assert_eq!(next.throne_ring_side(), Some(Side::Black));
    assert_eq!(
        next.outcome(),
        Some(Outcome::win(Side::Black, EndReason::Throne))
    );
    agrees_with_reference(&p);
}

// ---------------------------------------------------------------------------------------
// R11: repetition.

/// White's queen and Black's queen step aside and back: four plies that restore the
/// start position.
const SHUFFLE: [&str; 4] = ["f1-e1", "f11-g10", "e1-f1", "g10-f11"];

#[test]
fn r11_the_third_occurrence_draws_and_the_start_counts() {
    let mut game = Game::new();
    for (ply, m) in SHUFFLE.iter().chain(SHUFFLE.iter()).enumerate() {
        assert_eq!(game.outcome(), None, "over before ply {}", ply + 1);
        game.play(mv(m)).unwrap();
    }
    // The start position occurred at plies 0, 4 and 8: the third time draws. (Had the
    // start not counted, this would be only the second occurrence.)
    assert_eq!(game.repetitions(), 3);
    assert_eq!(game.outcome(), Some(Outcome::draw()));
    assert_eq!(game.outcome().unwrap().reason, EndReason::Repetition);
    assert_eq!(game.play(mv("f1-e1")), Err(IllegalMove::GameOver));
    assert!(game.legal_moves().is_empty());
}

#[test]
fn r11_the_second_occurrence_does_not_draw() {
    let mut game = Game::new();
    for m in SHUFFLE {
        game.play(mv(m)).unwrap();
    }
    assert_eq!(game.repetitions(), 2);
    assert_eq!(game.outcome(), None);
    // Undoing the last ply and replaying it keeps the count right.
    game.undo();
    assert_eq!(game.repetitions(), 1);
    game.play(mv("g10-f11")).unwrap();
    assert_eq!(game.repetitions(), 2);
    assert_eq!(game.outcome(), None);
}

#[test]
fn r11_a_game_from_a_set_position_counts_that_position_once() {
    let start = pos(C5);
    let mut game = Game::from_position(start);
    for m in [
        "c5-c4", "f11-g10", "c4-c5", "g10-f11", "c5-c4", "f11-g10", "c4-c5",
    ] {
        game.play(mv(m)).unwrap();
        assert_eq!(game.outcome(), None);
    }
    game.play(mv("g10-f11")).unwrap();
    assert_eq!(game.outcome(), Some(Outcome::draw()));
}

#[test]
fn r11_a_position_includes_the_side_to_move_and_the_captured_marks() {
    let start = Position::start();
    let black_to_move = start.with_turn(Side::Black);
    assert_ne!(start, black_to_move);
    assert_ne!(start.hash(), black_to_move.hash());
    let free = pos("Qf6,Ga5,Gb1,Gd9,Gh9,Gk1,Gl5/qf11,ga2,gb7,gd1,gh1,gk7,gl2 w");
    let marked = pos("Qf6,Ga5,Gb1,Gd9,Gh9,Gk1,Gl5/qf11,ga2*,gb7,gd1,gh1,gk7,gl2 w");
    assert_ne!(free, marked);
    assert_ne!(free.hash(), marked.hash());
}

// ---------------------------------------------------------------------------------------
// R12: no action loses.

/// White's pieces on a1-a6 and b1 are hemmed in: Black's b2, b4, b6, b7, c1, c2 fill or
/// forbid every cell they could step to (b3 lies between b2 and b4, b5 between b4 and
/// b6).
const STUCK: &str = "Qa3,Ga1,Ga2,Ga4,Ga5,Ga6,Gb1/qf11,gb2,gb4,gb6,gb7,gc1,gc2 w";

#[test]
fn r12_a_side_with_no_legal_action_loses() {
    let p = pos(STUCK);
    assert!(p.legal_moves().is_empty());
    assert!(!p.has_legal_move());
    assert_eq!(
        p.outcome(),
        Some(Outcome::win(Side::Black, EndReason::NoLegalAction))
    );
    assert_eq!(p.play(mv("a3-b3")), Err(IllegalMove::BetweenEnemies));
    assert_eq!(p.play(mv("a2-b2")), Err(IllegalMove::Occupied));
    assert_eq!(agon_core::perft(&p, 1), 0);
    agrees_with_reference(&p);
}

#[test]
fn r12_a_game_ends_when_the_side_to_move_is_stuck() {
    // One ply before, Black's guard stands on d2 and steps to c2. (While d2 and b2 are
    // Black's, c2 is forbidden to White anyway: the wall holds either way.)
    let before = pos("Qa3,Ga1,Ga2,Ga4,Ga5,Ga6,Gb1/qf11,gb2,gb4,gb6,gb7,gc1,gd2 b");
    let mut game = Game::from_position(before);
    assert_eq!(game.outcome(), None);
    game.play(mv("d2-c2")).unwrap();
    assert_eq!(
        game.outcome(),
        Some(Outcome::win(Side::Black, EndReason::NoLegalAction))
    );
    agrees_with_reference(&before);
}

#[test]
fn r12_a_side_that_must_return_is_never_stuck() {
    // The same cage, but White's a4 guard is captured: White returns it to any empty
    // outer cell (30 less the 10 pieces on the outer ring), and the game goes on.
    let p = pos("Qa3,Ga1,Ga2,Ga4*,Ga5,Ga6,Gb1/qf11,gb2,gb4,gb6,gb7,gc1,gc2 w");
    assert_eq!(p.outcome(), None);
    assert_eq!(p.legal_moves().len(), 20);
    agrees_with_reference(&p);
}

#[test]
fn r12_the_stuck_side_loses_whichever_it_is() {
    // Swap the side to move: Black has plenty of steps, so nothing ends.
    let p = pos(STUCK).with_turn(Side::Black);
    assert_eq!(p.outcome(), None);
    assert!(!p.legal_moves().is_empty());
}
