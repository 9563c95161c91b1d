//! [`random_playouts`]: many uniformly random games, on several threads.

use std::sync::atomic::{AtomicU64, Ordering};

use agon_core::random::random_playout;
use agon_core::{EndReason, Game, Position, Side};

use crate::game_rng;

/// The statistics of [`random_playouts`].
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PlayoutStats {
    /// The number of games.
    pub games: u64,
    /// The plies of all the games.
    pub plies: u64,
    /// The plies of the shortest game (0 if there is none).
    pub min_plies: u64,
    /// The plies of the longest game.
    pub max_plies: u64,
    /// Games won by White.
    pub white_wins: u64,
    /// Games won by Black.
    pub black_wins: u64,
    /// Drawn games (by repetition).
    pub draws: u64,
    /// Games by how they ended, in the order of [`EndReason::ALL`].
    pub reasons: [u64; 4],
}

impl PlayoutStats {
    fn add_game(&mut self, plies: u64, winner: Option<Side>, reason: EndReason) {
        self.min_plies = if self.games == 0 {
            plies
        } else {
            self.min_plies.min(plies)
        };
        self.games += 1;
        self.plies += plies;
        self.max_plies = self.max_plies.max(plies);
        match winner {
            Some(Side::White) => self.white_wins += 1,
            Some(Side::Black) => self.black_wins += 1,
            None => self.draws += 1,
        }
        if let Some(i) = EndReason::ALL.iter().position(|&r| r == reason) {
            self.reasons[i] += 1;
        }
    }

    fn merge(&mut self, other: &PlayoutStats) {
        if other.games == 0 {
            return;
        }
        self.min_plies = if self.games == 0 {
            other.min_plies
        } else {
            self.min_plies.min(other.min_plies)
        };
        self.games += other.games;
        self.plies += other.plies;
        self.max_plies = self.max_plies.max(other.max_plies);
        self.white_wins += other.white_wins;
        self.black_wins += other.black_wins;
        self.draws += other.draws;
        for (a, b) in self.reasons.iter_mut().zip(other.reasons) {
            *a += b;
        }
    }
}

/// Games a thread takes at a time.
const BLOCK: u64 = 16;

/// Plays `games` games of uniformly random legal moves from `start` (repetition
/// included), on up to `threads` threads (the caller's included; 0 counts as 1), and
/// returns their statistics. Game `k` draws its moves from [`game_rng`]`(seed, k)` with
/// [`agon_core::random::random_playout`], so the statistics depend on the seed only, not
/// on the number of threads.
///
/// ```
/// use agon_core::Position;
/// use agon_rl::random_playouts;
/// let one = random_playouts(Position::start(), 40, 7, 1);
/// assert_eq!(one.games, 40);
/// assert_eq!(one.white_wins + one.black_wins + one.draws, 40);
/// assert_eq!(random_playouts(Position::start(), 40, 7, 2), one);
/// ```
pub fn random_playouts(start: Position, games: u64, seed: u64, threads: usize) -> PlayoutStats {
    let next = AtomicU64::new(0);
    let play = || {
        let mut stats = PlayoutStats::default();
        let mut game = Game::from_position(start);
        loop {
            let first = next.fetch_add(BLOCK, Ordering::Relaxed);
            if first >= games {
                return stats;
            }
            for k in first..games.min(first + BLOCK) {
                game.restart(start);
                let outcome = random_playout(&mut game, &mut game_rng(seed, k));
                stats.add_game(game.moves().len() as u64, outcome.winner, outcome.reason);
            }
        }
    };
    let threads = (threads.max(1) as u64).min(games.div_ceil(BLOCK).max(1)) as usize;
    std::thread::scope(|s| {
        let helpers: Vec<_> = (1..threads)
            .filter_map(|_| std::thread::Builder::new().spawn_scoped(s, play).ok())
            .collect();
        let mut total = play();
        for h in helpers {
            match h.join() {
                Ok(stats) => total.merge(&stats),
                Err(panic) => std::panic::resume_unwind(panic),
            }
        }
        total
    })
}
