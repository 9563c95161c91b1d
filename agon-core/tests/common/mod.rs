//! Helpers shared by the integration tests: conversions between agon-core and the
//! independent reference generator (`agon-reference`), and random games.

#![allow(dead_code)] // Each test crate uses a different subset.

use std::collections::BTreeSet;

use agon_core::random::{random_move, Rng};
use agon_core::{
    Between, Capture, EmptyThroneRing, Game, GuardReturn, Move, Outcome, Position, QueenPlacer,
    QueenReturn, Repetition, Rules, Stuck,
};
use agon_reference::{RefMove, State};
use proptest::prelude::*;

/// Any rule set: every option at any of its values, and a move limit or none.
pub fn rules_strategy() -> impl Strategy<Value = Rules> {
    (
        (
            0..Capture::ALL.len(),
            0..Between::ALL.len(),
            0..GuardReturn::ALL.len(),
        ),
        (0..QueenReturn::ALL.len(), 0..QueenPlacer::ALL.len()),
        (
            0..EmptyThroneRing::ALL.len(),
            0..Stuck::ALL.len(),
            0..Repetition::ALL.len(),
        ),
        prop_oneof![Just(0u32), 1u32..400],
    )
        .prop_map(|((c, b, g), (q, p), (e, s, r), limit)| {
            let rules = Rules::STANDARD
                .with_capture(Capture::ALL[c])
                .with_between(Between::ALL[b])
                .with_guard_return(GuardReturn::ALL[g])
                .with_queen_return(QueenReturn::ALL[q])
                .with_queen_placer(QueenPlacer::ALL[p])
                .with_empty_throne_ring(EmptyThroneRing::ALL[e])
                .with_stuck(Stuck::ALL[s])
                .with_repetition(Repetition::ALL[r]);
            rules.with_limit(limit).unwrap_or(rules)
        })
}

/// The rule sets that differ from the standard one by one option, each at each of its
/// other values, with `limit` for V9; then the ludii preset.
pub fn single_option_rule_sets(limit: u32) -> Vec<Rules> {
    let s = Rules::STANDARD;
    vec![
        s.with_capture(Capture::SameRing),
        s.with_between(Between::Allowed),
        s.with_between(Between::Trapped),
        s.with_guard_return(GuardReturn::NextRing),
        s.with_queen_return(QueenReturn::NotThrone),
        s.with_queen_placer(QueenPlacer::Captor),
        s.with_empty_throne_ring(EmptyThroneRing::Draw),
        s.with_stuck(Stuck::Pass),
        s.with_repetition(Repetition::Off),
        s.with_limit(limit).expect("a limit in range"),
        Rules::LUDII,
    ]
}

/// A position under `rules` from its one-line text, panicking with the text on error.
pub fn pos_with(text: &str, rules: Rules) -> Position {
    Position::from_text_with_rules(text, rules).unwrap_or_else(|e| panic!("{text:?}: {e}"))
}

/// A position from its one-line text, panicking with the text on error.
pub fn pos(text: &str) -> Position {
    Position::from_text(text).unwrap_or_else(|e| panic!("{text:?}: {e}"))
}

/// Plays `m` from `before` both as a [`Position`] and in a [`Game`] started there, checks
/// that each ends (or goes on) with `outcome`, and answers the position after the move.
///
/// A position knows the ends that depend on the board alone (R10, R12) and a game those
/// that depend on the history too, so a rule of the first kind must hold in both.
pub fn ends_as(before: Position, m: Move, outcome: Option<Outcome>) -> Position {
    let after = before
        .play(m)
        .unwrap_or_else(|e| panic!("{m} from {before}: {e}"));
    assert_eq!(after.outcome(), outcome, "the position after {m}");
    let mut game = Game::from_position(before);
    game.play(m)
        .unwrap_or_else(|e| panic!("{m} in a game from {before}: {e}"));
    assert_eq!(game.outcome(), outcome, "the game after {m}");
    assert_eq!(game.position(), &after);
    after
}

/// The reference's view of an agon-core position, built from its piece list (not its
/// text, so that the two text parsers are not trusted here).
pub fn to_ref(p: &Position) -> State {
    agon_reference::from_core(p)
}

/// A move as the reference writes it (a pass as `RefMove::PASS`).
pub fn ref_move(m: Move) -> RefMove {
    agon_reference::checks::ref_move(m)
}

/// agon-core's legal moves as a set of `(from, to, is_return)` reference moves.
pub fn core_moves(p: &Position) -> BTreeSet<RefMove> {
    p.legal_moves().iter().map(|&m| ref_move(m)).collect()
}

/// The reference's legal moves as a set, under the position's rules.
pub fn reference_moves(p: &Position) -> BTreeSet<RefMove> {
    let rules = agon_reference::rules_from_core(p.rules());
    agon_reference::legal_moves_under(&to_ref(p), &rules)
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

/// A random legal move of `game` (not over) that prefers the moves towards the throne in
/// `inward` (0-3) of four plies, which brings pieces together: more captures, returns and
/// throne-ring finishes.
pub fn leaning_move(game: &Game, rng: &mut Rng, inward: usize) -> Move {
    let moves = game.legal_moves();
    let inner: Vec<Move> = moves
        .iter()
        .copied()
        .filter(|m| matches!(*m, Move::Step { from, to } if to.ring() < from.ring()))
        .collect();
    if !inner.is_empty() && rng.below(4) < inward {
        inner[rng.below(inner.len())]
    } else {
        moves[rng.below(moves.len())]
    }
}
