//! [`GreedyBot`]: one ply of search with the [evaluation](crate::eval).

use agon_core::{Game, Move, Position};

use crate::eval::{evaluate, evaluate_for, WIN};
use crate::{decision_rng, Bot};

/// Plays the move whose resulting position [`evaluate`] scores best for the player that
/// chooses it ([`Position::chooser`]: the side to move, but the captor where she places
/// the queen, `queen-placer=captor`): a move that wins at once (R10, or leaving the
/// opponent no action, R12) first, a move that loses at once last; a move that draws at
/// once (a ring without its queen under `empty-throne-ring=draw`, or the game's move
/// limit) scores 0. Ties are broken at random from the seed, the position and (in a game)
/// the number of moves played. It ignores repetition. It plays every rule set, passes
/// included (a pass is the only move when it is legal).
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

/// The value of playing `m` in `position` for its chooser, the move being the game's
/// `ply + 1`-th (for the move limit).
pub(crate) fn one_ply_score(position: &Position, m: Move, ply: usize) -> i32 {
    let chooser = position.chooser();
    let next = position.play_unchecked(m);
    if next.throne_ring_side().is_none() {
        if !next.has_legal_move() {
            // R12: the side to move cannot act and loses (never under stuck=pass, which
            // passes); it is the chooser's opponent unless the chooser placed a queen.
            return evaluate_for(&next, chooser, -WIN);
        }
        if next.rules().limit().is_some_and(|n| ply + 1 >= n as usize) {
            return 0; // V9: drawn at the move limit
        }
    }
    evaluate_for(&next, chooser, evaluate(&next))
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
        let score = one_ply_score(position, m, ply);
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
