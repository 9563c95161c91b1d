//! Helpers shared by the integration tests: conversions between agon-core and the
//! independent reference generator (`agon-reference`), and random games.

#![allow(dead_code)] // Each test crate uses a different subset.

use std::collections::BTreeSet;

use agon_core::random::{random_move, Rng};
use agon_core::{Game, Move, Position};
use agon_reference::{RefMove, State};

/// A position from its one-line text, panicking with the text on error.
pub fn pos(text: &str) -> Position {
    Position::from_text(text).unwrap_or_else(|e| panic!("{text:?}: {e}"))
}

/// The reference's view of an agon-core position, built from its piece list (not its
/// text, so that the two text parsers are not trusted here).
pub fn to_ref(p: &Position) -> State {
    agon_reference::from_core(p)
}

/// A move as the reference writes it.
pub fn ref_move(m: Move) -> RefMove {
    let (from, to) = m.cells().expect("a step or a return");
    RefMove {
        from: from.index(),
        to: to.index(),
        is_return: m.is_return(),
    }
}

/// agon-core's legal moves as a set of `(from, to, is_return)` reference moves.
pub fn core_moves(p: &Position) -> BTreeSet<RefMove> {
    p.legal_moves().iter().map(|&m| ref_move(m)).collect()
}

/// The reference's legal moves as a set.
pub fn reference_moves(p: &Position) -> BTreeSet<RefMove> {
    agon_reference::legal_moves(&to_ref(p))
        .into_iter()
        .collect()
}

/// The positions of a whole random game from `start` (the start included, and the
/// final position), stopping at the end of the game (repetition included) or after
/// `max_plies` plies.
pub fn random_game(start: Position, seed: u64, max_plies: usize) -> Vec<Position> {
    let mut rng = Rng::new(seed);
    let mut game = Game::from_position(start);
    while !game.is_over() && game.moves().len() < max_plies {
        let m = random_move(game.position(), &mut rng).expect("a game going on has a move");
        game.play(m).expect("a listed move is legal");
    }
    game.positions().to_vec()
}
