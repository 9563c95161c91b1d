//! The properties agon-core's positions must have, as assertions that the cross-checks
//! share: the proptests of agon-core, the fuzz targets and the conformance generator
//! (with the feature `agon-core`). They check agon-core against the rules, using the
//! plain generator of this crate as the second opinion.
//!
//! ```
//! use agon_core::{Game, Position};
//! use agon_reference::checks::{check_against_reference, check_position, check_transition};
//!
//! let before = Position::start();
//! let m = before.legal_moves()[0];
//! let after = before.play(m).unwrap();
//! check_position(&after);
//! check_transition(&before, m, &after);
//! check_against_reference(&after);
//! let mut game = Game::new();
//! game.play(m).unwrap();
//! agon_reference::checks::check_game_against_reference(&game);
//! ```

use agon_core::{
    Between, Cell, CellSet, Game, IllegalMove, Kind, Move, Outcome, Position, Side, Stuck,
};

/// Asserts the invariants of a valid position: each side one queen and six guards on
/// distinct cells, no guard on the throne, captured pieces all of one side, a side that
/// must return has only returns (its queen's first), the incremental hash equal to the
/// hash from scratch, and legal moves consistent with `check_move`.
pub fn check_position(p: &Position) {
    let (white, black) = (p.pieces_of(Side::White), p.pieces_of(Side::Black));
    assert!(
        !white.intersects(black),
        "a cell holds two pieces: {}",
        p.to_text()
    );
    for side in Side::ALL {
        let own = p.pieces_of(side);
        assert_eq!((p.queens() & own).len(), 1, "{side} has one queen");
        assert_eq!(p.guards(side).len(), 6, "{side} has six guards");
        assert!(own.contains(p.queen(side)));
    }
    assert_eq!(p.occupied().len(), 14);
    assert_eq!(p.pieces().count(), 14);
    if let Some(piece) = p.piece_at(Cell::THRONE) {
        assert_eq!(
            piece.kind,
            Kind::Queen,
            "a guard on the throne: {}",
            p.to_text()
        );
    }
    let captured = p.captured();
    assert!(
        captured.is_subset(p.occupied()),
        "a captured mark on an empty cell"
    );
    assert!(
        captured.is_subset(white)
            || captured.is_subset(black)
            || p.rules().between() == Between::Trapped,
        "captured pieces of both sides: {}",
        p.to_text()
    );
    let rebuilt = Position::from_parts_with_rules(p.rules(), p.turn(), p.pieces(), p.captured())
        .unwrap_or_else(|e| panic!("{} fails validation: {e}", p.to_text()));
    assert_eq!(rebuilt, *p, "from_parts rebuilds another position");
    assert_eq!(
        rebuilt.hash(),
        p.hash(),
        "incremental hash != hash from scratch"
    );

    let moves = p.legal_moves();
    assert_eq!(moves.len(), p.count_legal_moves(), "count_legal_moves");
    assert_eq!(!moves.is_empty(), p.has_legal_move(), "has_legal_move");
    let mine = captured & p.pieces_of(p.turn());
    assert_eq!(p.must_return(), !mine.is_empty());
    if p.throne_ring_side().is_some() {
        assert!(moves.is_empty(), "moves after the throne ring is complete");
        assert!(p.outcome().is_some());
    } else if p.must_return() {
        assert!(
            !moves.is_empty(),
            "a side that must return can always return"
        );
        let queen = p.queen(p.turn());
        for m in moves.iter() {
            assert!(
                m.is_return(),
                "{m} is not a return though {} must return",
                p.turn()
            );
            let from = m.from().expect("a return has a from cell");
            assert!(mine.contains(from), "{m} returns a piece not captured");
            if mine.contains(queen) {
                assert_eq!(from, queen, "{m}: the queen returns first");
            }
        }
    } else {
        assert!(
            moves.iter().all(|m| !m.is_return()),
            "a return without a capture"
        );
    }
    for &m in moves.iter() {
        assert_eq!(p.check_move(m), Ok(()), "listed move {m} fails check_move");
    }
    // A pass (V7) is alone, and only where the rules pass; otherwise check_move says why not.
    if moves.contains(&Move::Pass) {
        assert_eq!(moves.len(), 1, "a pass beside other actions");
        assert_eq!(p.rules().stuck(), Stuck::Pass);
        assert!(!p.must_return(), "a pass for a side that must return");
    } else {
        let expected = if p.throne_ring_side().is_some() {
            IllegalMove::GameOver
        } else if p.rules().stuck() == Stuck::Pass {
            IllegalMove::PassWithActions
        } else {
            IllegalMove::NoPass
        };
        assert_eq!(
            p.check_move(Move::Pass),
            Err(expected),
            "a pass in {}",
            p.to_text()
        );
    }
    // Under V7 `pass` only R10 ends a position: a stuck side passes instead of losing.
    if p.rules().stuck() == Stuck::Pass && p.throne_ring_side().is_none() {
        assert!(!moves.is_empty(), "no action, not even a pass");
    }
    // The compact form lists the same moves in the same order.
    let actions = p.actions();
    assert_eq!(actions.len(), moves.len(), "MoveSet::len");
    assert_eq!(actions.is_empty(), moves.is_empty(), "MoveSet::is_empty");
    assert_eq!(actions.iter().collect::<Vec<_>>(), *moves, "MoveSet::iter");
    assert_eq!(
        actions.into_iter().collect::<Vec<_>>(),
        *moves,
        "MoveSet by value"
    );
    for (n, &m) in moves.iter().enumerate() {
        assert_eq!(actions.nth(n), Some(m), "MoveSet::nth({n})");
        assert!(actions.contains(m), "MoveSet::contains({m})");
    }
    assert_eq!(actions.nth(moves.len()), None, "MoveSet::nth past the end");
    if let Some(first) = moves.first() {
        assert_eq!(
            actions.are_returns(),
            first.is_return(),
            "MoveSet::are_returns"
        );
    }
    if !moves.is_empty() {
        assert_eq!(p.outcome(), None, "an outcome while moves remain");
    }
}

/// Asserts what the legal move `m` from `before` may change to give `after`: only the
/// moving piece changes cell, never outward for a step; a step marks captured only enemy
/// pieces next to its destination, a return unmarks exactly its piece; the turn passes.
pub fn check_transition(before: &Position, m: Move, after: &Position) {
    let us = before.turn();
    assert_eq!(after.turn(), us.other(), "the turn passes after {m}");
    let Some((from, to)) = m.cells() else {
        let expected = before.with_turn(us.other());
        assert_eq!(*after, expected, "a pass changes only the side to move");
        return;
    };
    assert_eq!(
        after.pieces_of(us.other()),
        before.pieces_of(us.other()),
        "{m} moved an enemy piece"
    );
    let expected = before.pieces_of(us).without(from).with(to);
    assert_eq!(after.pieces_of(us), expected, "{m} moved the wrong piece");
    assert_eq!(
        after.piece_at(to),
        before.piece_at(from),
        "{m} changed the piece"
    );
    if m.is_return() {
        assert!(
            before.is_captured(from),
            "{m} returns a piece that was not captured"
        );
        let expected = before.captured().without(from);
        assert_eq!(
            after.captured(),
            expected,
            "a return unmarks its piece only"
        );
    } else {
        assert!(to.is_adjacent(from), "{m} jumps");
        assert!(to.ring() <= from.ring(), "{m} moves outward");
        let new = after.captured() - before.captured();
        assert_eq!(
            before.captured() - after.captured(),
            CellSet::EMPTY,
            "a step unmarks"
        );
        let trapped = before.traps(m);
        assert!(
            (new - CellSet::from(to)).is_subset(before.pieces_of(us.other())),
            "{m} captured its own side"
        );
        assert_eq!(new.contains(to), trapped, "{m}: Position::traps disagrees");
        let new = new - CellSet::from(to);
        assert!(new.is_subset(to.neighbours()), "{m} captured at a distance");
        assert_eq!(
            new,
            before.captures(m),
            "Position::captures disagrees for {m}"
        );
    }
}

/// A move of agon-core as the reference writes it ([`crate::RefMove::PASS`] for a pass).
pub fn ref_move(m: Move) -> crate::RefMove {
    match m.cells() {
        Some((from, to)) => crate::RefMove {
            from: from.index(),
            to: to.index(),
            is_return: m.is_return(),
        },
        None => crate::RefMove::PASS,
    }
}

/// The legal moves of agon-core as `(from index, to index, is_return)`, sorted; a pass
/// is `(91, 91, false)`, as [`crate::RefMove::PASS`] writes it.
pub fn core_moves(p: &Position) -> Vec<(usize, usize, bool)> {
    let mut v: Vec<_> = p
        .legal_moves()
        .iter()
        .map(|&m| {
            let r = ref_move(m);
            (r.from, r.to, r.is_return)
        })
        .collect();
    v.sort_unstable();
    v
}

/// The side as the reference numbers it.
fn side_index(s: Side) -> u8 {
    match s {
        Side::White => crate::WHITE,
        Side::Black => crate::BLACK,
    }
}

/// An agon-core outcome as the reference writes it.
pub fn ref_end(o: Outcome) -> crate::RefEnd {
    crate::RefEnd {
        winner: o.winner.map(side_index),
        reason: o.reason.name(),
    }
}

/// Asserts that agon-core and the reference generator agree on the position under its
/// rule set: the same legal moves (a pass included), the same end by R10 (as V6 sets it)
/// and R12 (as V7 sets it), the same chooser (V5), the same canonical text.
pub fn check_against_reference(p: &Position) {
    let state = crate::from_core(p);
    let rules = crate::rules_from_core(p.rules());
    let text = p.to_text().to_string();
    assert_eq!(state.to_text(), text, "the reference prints another text");
    let mut reference: Vec<_> = crate::legal_moves_under(&state, &rules)
        .into_iter()
        .map(|m| (m.from, m.to, m.is_return))
        .collect();
    reference.sort_unstable();
    assert_eq!(
        core_moves(p),
        reference,
        "legal moves differ from the reference in {text} under {}",
        p.rules()
    );
    assert_eq!(
        p.outcome().map(ref_end),
        crate::outcome_under(&state, &rules),
        "outcome differs in {text} under {}",
        p.rules()
    );
    if !reference.is_empty() {
        assert_eq!(
            side_index(p.chooser()),
            crate::chooser(&state, &rules),
            "chooser differs in {text} under {}",
            p.rules()
        );
    }
    for &m in p.legal_moves().iter() {
        assert_eq!(
            p.traps(m),
            crate::traps(&state, &rules, ref_move(m)),
            "traps({m}) differs in {text} under {}",
            p.rules()
        );
    }
}

/// Asserts that the reference generator, playing `m` from `before` under its rules,
/// reaches `after`: the same piece moved, the same pieces captured (R5, R6, V1) or
/// trapped (V2) or returned (R8, R9), the same side to move after a pass.
pub fn check_play_against_reference(before: &Position, m: Move, after: &Position) {
    let rules = crate::rules_from_core(before.rules());
    let next = crate::play_under(&crate::from_core(before), &rules, ref_move(m));
    assert_eq!(
        next.to_text(),
        after.to_text().to_string(),
        "{m} from {} reaches another position in the reference under {}",
        before.to_text(),
        before.rules()
    );
}

/// Asserts that the game ended (or goes on) as the reference's reading of its history
/// says: R10, R11 (V8), R12 (V7), the two-pass draw and the move limit (V9); and that
/// its legal moves are those of its position while it goes on, none after.
pub fn check_game_against_reference(game: &Game) {
    let rules = crate::rules_from_core(game.rules());
    let states: Vec<crate::State> = game.positions().iter().map(crate::from_core).collect();
    let moves: Vec<crate::RefMove> = game.moves().iter().map(|&m| ref_move(m)).collect();
    let expected = crate::game_end(&rules, &states, &moves);
    assert_eq!(
        game.outcome().map(ref_end),
        expected,
        "game outcome after {} moves from {} under {}",
        moves.len(),
        game.start().to_text(),
        game.rules()
    );
    if game.is_over() {
        assert!(game.legal_moves().is_empty(), "moves after the end");
    } else {
        assert_eq!(game.legal_moves(), game.position().legal_moves());
    }
}
