//! [`RandomBot`]: a uniformly random legal move, the weakest baseline.

use agon_core::{Game, Move, Position};

use crate::{decision_rng, Bot};

/// Plays a legal move chosen uniformly at random.
///
/// The choice is drawn from a generator seeded by the bot's seed, the position's hash and
/// (in a game) the number of moves played, so the same seed in the same position of the
/// same game always gives the same move, while a position that comes back later in a game
/// gets a fresh draw.
///
/// ```
/// use agon_bots::{Bot, RandomBot};
/// use agon_core::Position;
///
/// let start = Position::start();
/// let m = RandomBot::new(3).choose(&start).unwrap();
/// assert!(start.is_legal(m));
/// assert_eq!(RandomBot::new(3).choose(&start), Some(m));
/// ```
#[derive(Clone, Debug)]
pub struct RandomBot {
    seed: u64,
}

impl RandomBot {
    /// A random bot with this seed.
    ///
    /// ```
    /// use agon_bots::{Bot, RandomBot};
    /// assert_eq!(RandomBot::new(0).name(), "random");
    /// ```
    pub fn new(seed: u64) -> Self {
        RandomBot { seed }
    }
}

impl Bot for RandomBot {
    fn name(&self) -> String {
        "random".to_string()
    }

    fn choose(&mut self, position: &Position) -> Option<Move> {
        pick(self.seed, position, 0)
    }

    fn choose_in_game(&mut self, game: &Game) -> Option<Move> {
        crate::unless_over(game, |position, ply| pick(self.seed, position, ply))
    }
}

fn pick(seed: u64, position: &Position, ply: usize) -> Option<Move> {
    let moves = position.legal_moves();
    if moves.is_empty() {
        return None;
    }
    Some(moves[decision_rng(seed, position, ply).below(moves.len())])
}
