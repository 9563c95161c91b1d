//! perft: the number of leaves of the tree of legal actions, for testing move generation
//! and measuring its speed.

use crate::Position;

/// The deepest [`perft()`]: its recursion goes `depth` calls deep (under a kilobyte of
/// stack each), and lines of play need not end, so a larger depth could overflow the
/// stack, which aborts the process (`perft(&Position::start(), 1_000_000)` did). No such
/// depth could finish anyway: the leaves grow about 25-fold per ply.
///
/// ```
/// assert_eq!(agon_core::MAX_PERFT_DEPTH, 64);
/// ```
pub const MAX_PERFT_DEPTH: u32 = 64;

/// The number of leaves of the tree of legal actions `depth` plies deep (RULES.md section
/// 7). A position decided by the throne ring has no actions; repetition is a property of
/// games, not positions, and is ignored. The last ply is counted in bulk, without playing
/// its moves; at the ply before it, under the standard rules, a step that captures nothing
/// and cannot end the game is not played either: the replies after it are those before
/// it, corrected on the cells the step changes.
///
/// From the start position, depths 1 to 7: 27, 713, 18 417, 466 557, 11 662 533,
/// 287 983 241, 7 058 228 245.
///
/// # Panics
///
/// If `depth` exceeds [`MAX_PERFT_DEPTH`] (it used to overflow the stack and abort the
/// process instead). Check the depth first when it comes from outside.
///
/// ```
/// use agon_core::{perft, Position};
/// assert_eq!(perft(&Position::start(), 1), 27);
/// assert_eq!(perft(&Position::start(), 2), 713);
/// ```
pub fn perft(position: &Position, depth: u32) -> u64 {
    assert!(
        depth <= MAX_PERFT_DEPTH,
        "perft depth {depth} exceeds MAX_PERFT_DEPTH ({MAX_PERFT_DEPTH})"
    );
    leaves(position, depth)
}

fn leaves(position: &Position, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => position.count_legal_moves() as u64,
        2 => position.count_after_each_move(),
        _ => position
            .legal_moves()
            .iter()
            .map(|&m| leaves(&position.play_unchecked(m), depth - 1))
            .sum(),
    }
}

/// perft split by the first move: each legal move with the leaves below it, in
/// [`Position::legal_moves`] order. For finding where two move generators disagree.
///
/// # Panics
///
/// If `depth` exceeds [`MAX_PERFT_DEPTH`], as [`perft()`].
///
/// ```
/// use agon_core::{perft, perft_divide, Position};
/// let start = Position::start();
/// let total: u64 = perft_divide(&start, 3).iter().map(|(_, n)| n).sum();
/// assert_eq!(total, perft(&start, 3));
/// ```
#[cfg(feature = "alloc")]
pub fn perft_divide(position: &Position, depth: u32) -> alloc::vec::Vec<(crate::Move, u64)> {
    assert!(
        depth <= MAX_PERFT_DEPTH,
        "perft depth {depth} exceeds MAX_PERFT_DEPTH ({MAX_PERFT_DEPTH})"
    );
    position
        .legal_moves()
        .iter()
        .map(|&m| {
            (
                m,
                leaves(&position.play_unchecked(m), depth.saturating_sub(1)),
            )
        })
        .collect()
}
