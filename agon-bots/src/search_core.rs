//! What the two searches share, the readable [`AlphaBetaBot`](crate::AlphaBetaBot) and
//! the [`Engine`](crate::Engine): one scale of won and lost scores, the bound a stored
//! score stands for and its conversion to and from a transposition table, and the step
//! that picks the best remaining move. Each search keeps its own table (a plain array for
//! the bot, a lock-free one shared by threads for the engine) and its own node logic.

use agon_core::Move;

/// The value of a won position, for the side that wins (a lost one is `-WIN`): the one
/// scale of won scores of every bot of the crate ([`evaluate`](crate::eval::evaluate)
/// gives it to a complete throne ring, R10). Searches subtract the distance in plies, a
/// win `n` plies from the root scoring `WIN - n`, so that sooner wins and later losses
/// score higher. The evaluations stay far below it (hundreds of points), and the
/// engine's table stores scores in 16 bits, so it stays below `i16::MAX`.
///
/// ```
/// use agon_bots::eval::{evaluate, WIN};
/// let won: agon_core::Position = "Qf6,Ge5,Ge6,Gf5,Gf7,Gg5,Gg6/qa1,ga2,gb1,gb2,gc1,gc2,gd1 w".parse().unwrap();
/// assert_eq!(evaluate(&won), WIN);
/// assert!(WIN < i32::from(i16::MAX));
/// ```
pub const WIN: i32 = 30_000;

/// Scores at least this far from zero are forced wins or losses (no search reaches 1000
/// plies, and no evaluation 29000 points).
pub(crate) const WIN_BOUND: i32 = WIN - 1_000;

/// Beyond every score: the open window of a search.
pub(crate) const INF: i32 = WIN + 1_000;

/// The score, for the side that wins, of a win `ply` plies from the root.
#[inline]
pub(crate) fn win_at(ply: usize) -> i32 {
    WIN - ply as i32
}

/// The score, for the side that loses, of a loss `ply` plies from the root.
#[inline]
pub(crate) fn loss_at(ply: usize) -> i32 {
    -win_at(ply)
}

/// What a stored score means relative to the true value of its position.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub(crate) enum Bound {
    /// The score is the value.
    Exact = 0,
    /// The true value is at least the score (a beta cutoff).
    Lower = 1,
    /// The true value is at most the score (no move raised alpha).
    Upper = 2,
}

impl Bound {
    /// The bound of `best`, the best score of a node searched with the window
    /// `alpha..beta` (`alpha` as it was on entering the node).
    #[inline]
    pub(crate) fn of(best: i32, alpha: i32, beta: i32) -> Bound {
        if best >= beta {
            Bound::Lower
        } else if best > alpha {
            Bound::Exact
        } else {
            Bound::Upper
        }
    }

    /// The score a table entry of this bound, storing `stored` ([`to_table`]), gives a
    /// node at `ply` searched with the window `alpha..beta`, when it settles the node (a
    /// deep enough entry whose bound lies on the window's far side); `None` when the node
    /// must be searched.
    #[inline]
    pub(crate) fn cutoff(self, stored: i32, ply: usize, alpha: i32, beta: i32) -> Option<i32> {
        let score = from_table(stored, ply);
        let settles = match self {
            Bound::Exact => true,
            Bound::Lower => score >= beta,
            Bound::Upper => score <= alpha,
        };
        settles.then_some(score)
    }
}

/// `score` at `ply` from the root as a table stores it: win scores count plies from the
/// root, the table counts them from the position itself, so that a stored distance to
/// the end stays right when the position is reached at another ply.
#[inline]
pub(crate) fn to_table(score: i32, ply: usize) -> i32 {
    if score >= WIN_BOUND {
        score + ply as i32
    } else if score <= -WIN_BOUND {
        score - ply as i32
    } else {
        score
    }
}

/// A stored score ([`to_table`]) as a score at `ply` from the root.
#[inline]
pub(crate) fn from_table(score: i32, ply: usize) -> i32 {
    if score >= WIN_BOUND {
        score - ply as i32
    } else if score <= -WIN_BOUND {
        score + ply as i32
    } else {
        score
    }
}

/// One step of a selection sort: swaps the move of the highest key among `moves[i..]`
/// (the first of equals) to `i`, with its key, and returns it. Searches pick moves one at
/// a time rather than sorting them all, since a cutoff often comes after the first few.
#[inline]
pub(crate) fn pick_best(moves: &mut [Move], keys: &mut [i32], i: usize) -> Move {
    let mut j = i;
    for k in i + 1..moves.len() {
        if keys[k] > keys[j] {
            j = k;
        }
    }
    moves.swap(i, j);
    keys.swap(i, j);
    moves[i]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_scores_count_win_distances_from_the_position() {
        // A win 3 plies below a node at ply 5 is stored as a win in 3 and read back at
        // ply 2 as a win 5 plies from that root.
        let stored = to_table(win_at(8), 5);
        assert_eq!(stored, win_at(3));
        assert_eq!(from_table(stored, 2), win_at(5));
        assert_eq!(from_table(to_table(loss_at(8), 5), 2), loss_at(5));
        // Other scores are stored as they are.
        for score in [-WIN_BOUND + 1, -100, 0, 250, WIN_BOUND - 1] {
            assert_eq!((to_table(score, 7), from_table(score, 7)), (score, score));
        }
        assert!(loss_at(0) > -INF && win_at(0) < INF);
    }

    #[test]
    fn bounds_settle_only_on_the_far_side_of_the_window() {
        assert_eq!(Bound::of(50, 10, 50), Bound::Lower);
        assert_eq!(Bound::of(30, 10, 50), Bound::Exact);
        assert_eq!(Bound::of(10, 10, 50), Bound::Upper);
        assert_eq!(Bound::Exact.cutoff(30, 0, 10, 50), Some(30));
        assert_eq!(Bound::Lower.cutoff(60, 0, 10, 50), Some(60));
        assert_eq!(Bound::Lower.cutoff(40, 0, 10, 50), None);
        assert_eq!(Bound::Upper.cutoff(5, 0, 10, 50), Some(5));
        assert_eq!(Bound::Upper.cutoff(20, 0, 10, 50), None);
        // A stored win is read at the node's ply.
        assert_eq!(Bound::Exact.cutoff(win_at(2), 4, 0, 1), Some(win_at(6)));
    }

    #[test]
    fn picking_takes_the_highest_key_first_and_the_first_of_equals() {
        let mut moves = agon_core::Position::start().legal_moves();
        let moves = &mut moves.as_mut_slice()[..4];
        let original: Vec<Move> = moves.to_vec();
        let mut keys = [1, 3, 3, 2];
        let picked: Vec<Move> = (0..4).map(|i| pick_best(moves, &mut keys, i)).collect();
        assert_eq!(
            picked,
            [original[1], original[2], original[3], original[0]],
            "3, the first 3, then 2, then 1"
        );
        assert_eq!(keys, [3, 3, 2, 1]);
    }
}
