//! [`GreedyBot`]: one ply of search with the [evaluation](crate::eval).

use agon_core::{Game, Move, Position};

use crate::eval::{evaluate, WIN};
use crate::{decision_rng, Bot};

/// Plays the move whose resulting position [`evaluate`] scores best for the mover: a move
/// that wins at once (R10, or leaving the opponent no action, R12) first, a move that
/// loses at once last. Ties are broken at random from the seed, the position and (in a
/// game) the number of moves played. It ignores repetition.
///
/// ```
/// use agon_bots::{Bot, GreedyBot};
/// use agon_core::Position;
///
/// let start = Position::start();
/// let m = GreedyBot::new(5).choose(&start).unwrap();
/// assert!(start.is_legal(m));
/// // Every first move of the start leaves the same material, so it steps inward.
/// assert!(m.to().unwrap().ring() < m.from().unwrap().ring());
/// ```
#[derive(Clone, Debug)]
pub struct GreedyBot {
    seed: u64,
}

impl GreedyBot {
    /// A greedy bot with this seed (for tie-breaking).
    ///
    /// ```
    /// use agon_bots::{Bot, GreedyBot};
    /// assert_eq!(GreedyBot::new(0).name(), "greedy");
    /// ```
    pub fn new(seed: u64) -> Self {
        GreedyBot { seed }
    }
}

/// The value for the mover of playing `m` in `position`.
pub(crate) fn one_ply_score(position: &Position, m: Move) -> i32 {
    let next = position.play_unchecked(m);
    if next.throne_ring_side().is_none() && !next.has_legal_move() {
        // R12: the opponent cannot act and loses.
        return WIN;
    }
    -evaluate(&next)
}

impl Bot for GreedyBot {
    fn name(&self) -> String {
        "greedy".to_string()
    }

    fn choose(&mut self, position: &Position) -> Option<Move> {
        greedy_move(self.seed, position, 0)
    }

    fn choose_in_game(&mut self, game: &Game) -> Option<Move> {
        crate::unless_over(game, |position, ply| greedy_move(self.seed, position, ply))
    }
}

fn greedy_move(seed: u64, position: &Position, ply: usize) -> Option<Move> {
    let moves = position.legal_moves();
    let mut rng = decision_rng(seed, position, ply);
    let mut best: Option<(i32, Move)> = None;
    let mut ties = 0;
    for &m in moves.iter() {
        let score = one_ply_score(position, m);
        match best {
            Some((b, _)) if score < b => {}
            Some((b, _)) if score == b => {
                // Reservoir sampling: each of the tied moves is kept with equal chance.
                ties += 1;
                if rng.below(ties) == 0 {
                    best = Some((score, m));
                }
            }
            _ => {
                best = Some((score, m));
                ties = 1;
            }
        }
    }
    best.map(|(_, m)| m)
}
