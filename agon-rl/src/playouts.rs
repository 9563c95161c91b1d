//! [`random_playouts`]: many uniformly random games, on several threads.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicU64, Ordering};

use agon_core::random::random_playout_capped;
use agon_core::{EndReason, Game, Position, Side};

use crate::game_rng;

/// The statistics of [`random_playouts`]: counts, and the lengths of the games, from which
/// [`PlayoutStats::mean_plies`] and [`PlayoutStats::median_plies`] are computed.
///
/// ```
/// use agon_core::Position;
/// use agon_rl::random_playouts;
/// let stats = random_playouts(Position::start(), 9, 1, 1);
/// assert_eq!(stats.lengths.values().sum::<u64>(), 9);
/// assert_eq!(stats.lengths.iter().map(|(plies, games)| plies * games).sum::<u64>(), stats.plies);
/// assert!(stats.min_plies as f64 <= stats.median_plies());
/// assert!(stats.median_plies() <= stats.max_plies as f64);
/// assert_eq!(stats.mean_plies(), stats.plies as f64 / 9.0);
/// ```
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
    /// Drawn games (by repetition, two passes, the move limit or, under
    /// `empty-throne-ring=draw`, the throne ring).
    pub draws: u64,
    /// Games stopped at the ply cap of [`random_playouts_capped`] before they ended: they
    /// count in `games`, `plies` and `lengths`, not as wins, draws or reasons, so
    /// `white_wins + black_wins + draws + capped == games`.
    pub capped: u64,
    /// Games by how they ended, in the order of [`EndReason::ALL`].
    pub reasons: [u64; EndReason::COUNT],
    /// The number of games of each length: plies to games, for the lengths that occurred.
    pub lengths: BTreeMap<u64, u64>,
}

impl PlayoutStats {
    /// The mean length of the games, in plies (0 without games).
    ///
    /// ```
    /// assert_eq!(agon_rl::PlayoutStats::default().mean_plies(), 0.0);
    /// let stats = agon_rl::random_playouts(agon_core::Position::start(), 4, 1, 1);
    /// assert_eq!(stats.mean_plies(), stats.plies as f64 / 4.0);
    /// ```
    pub fn mean_plies(&self) -> f64 {
        if self.games == 0 {
            0.0
        } else {
            self.plies as f64 / self.games as f64
        }
    }

    /// The median length of the games, in plies: the middle length, or the mean of the
    /// two middle lengths for an even number of games (0 without games).
    ///
    /// ```
    /// use agon_core::Position;
    /// use agon_rl::{random_playouts, PlayoutStats};
    /// assert_eq!(PlayoutStats::default().median_plies(), 0.0);
    /// let one = random_playouts(Position::start(), 1, 5, 1);
    /// assert_eq!(one.median_plies(), one.plies as f64);
    /// ```
    pub fn median_plies(&self) -> f64 {
        if self.games == 0 {
            return 0.0;
        }
        // The lengths of games `(games - 1) / 2` and `games / 2` (from 0) in length order.
        let (low, high) = ((self.games - 1) / 2, self.games / 2);
        let (mut below, mut low_len) = (0, None);
        for (&plies, &count) in &self.lengths {
            below += count;
            if low_len.is_none() && below > low {
                low_len = Some(plies);
            }
            if below > high {
                return (low_len.unwrap_or(plies) as f64 + plies as f64) / 2.0;
            }
        }
        // Only if `lengths` was changed to count fewer games than `games`.
        self.max_plies as f64
    }

    fn add_game(&mut self, plies: u64, outcome: Option<(Option<Side>, EndReason)>) {
        self.min_plies = if self.games == 0 {
            plies
        } else {
            self.min_plies.min(plies)
        };
        self.games += 1;
        self.plies += plies;
        self.max_plies = self.max_plies.max(plies);
        let Some((winner, reason)) = outcome else {
            self.capped += 1;
            *self.lengths.entry(plies).or_insert(0) += 1;
            return;
        };
        match winner {
            Some(Side::White) => self.white_wins += 1,
            Some(Side::Black) => self.black_wins += 1,
            None => self.draws += 1,
        }
        self.reasons[reason.index()] += 1;
        *self.lengths.entry(plies).or_insert(0) += 1;
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
        self.capped += other.capped;
        for (a, b) in self.reasons.iter_mut().zip(other.reasons) {
            *a += b;
        }
        for (&plies, &count) in &other.lengths {
            *self.lengths.entry(plies).or_insert(0) += count;
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
/// The games are played under the rules of `start` ([`Position::rules`]) to their end.
/// Under a rule set whose games need not end (`repetition=off` without a `limit`, see
/// [`agon_core::Repetition::Off`]) use [`random_playouts_capped`]: this function would
/// then play on for as long as a game lasts.
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
    random_playouts_capped(start, games, seed, threads, usize::MAX)
}

/// [`random_playouts`] stopping each game after `max_plies` moves (counted from `start`)
/// if it has not ended by then: such a game counts in [`PlayoutStats::capped`]. The same
/// games as [`random_playouts`] (game `k` from [`game_rng`]`(seed, k)`, with
/// [`agon_core::random::random_playout_capped`]), cut at the cap.
///
/// ```
/// use agon_core::{Position, Repetition, Rules};
/// use agon_rl::{random_playouts, random_playouts_capped};
/// // Without repetition or a limit, a random game need not end: cap it.
/// let rules = Rules::STANDARD.with_repetition(Repetition::Off);
/// let stats = random_playouts_capped(Position::start_with_rules(rules), 20, 3, 2, 50);
/// assert_eq!(stats.white_wins + stats.black_wins + stats.draws + stats.capped, 20);
/// assert!(stats.max_plies <= 50 && stats.capped > 0);
/// // Under the ludii preset (pass, no repetition, 2500 plies) every game ends.
/// let ludii = random_playouts(Position::start_with_rules(Rules::LUDII), 4, 1, 1);
/// assert_eq!((ludii.games, ludii.capped), (4, 0));
/// assert!(ludii.max_plies <= 2500);
/// ```
pub fn random_playouts_capped(
    start: Position,
    games: u64,
    seed: u64,
    threads: usize,
    max_plies: usize,
) -> PlayoutStats {
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
                let outcome = random_playout_capped(&mut game, &mut game_rng(seed, k), max_plies);
                stats.add_game(
                    game.moves().len() as u64,
                    outcome.map(|o| (o.winner, o.reason)),
                );
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

#[cfg(test)]
mod tests {
    use super::*;
    use agon_core::random::random_playout;

    fn stats_of(lengths: &[u64]) -> PlayoutStats {
        let mut stats = PlayoutStats::default();
        for &plies in lengths {
            stats.add_game(plies, Some((None, EndReason::Repetition)));
        }
        stats
    }

    #[test]
    fn mean_and_median_of_known_lengths() {
        let odd = stats_of(&[7, 3, 9, 3, 12]);
        assert_eq!(
            (odd.games, odd.plies, odd.min_plies, odd.max_plies),
            (5, 34, 3, 12)
        );
        assert_eq!(
            odd.lengths,
            BTreeMap::from([(3, 2), (7, 1), (9, 1), (12, 1)])
        );
        assert_eq!(odd.mean_plies(), 6.8);
        assert_eq!(odd.median_plies(), 7.0);
        let even = stats_of(&[7, 3, 9, 3, 12, 20]);
        assert_eq!(even.mean_plies(), 9.0);
        assert_eq!(even.median_plies(), 8.0);
        // The two middle games may share a length, or be the only two.
        assert_eq!(stats_of(&[5, 1, 5, 9]).median_plies(), 5.0);
        assert_eq!(stats_of(&[4, 1]).median_plies(), 2.5);
        assert_eq!(stats_of(&[42]).median_plies(), 42.0);
        assert_eq!(stats_of(&[]).median_plies(), 0.0);
        assert_eq!(stats_of(&[]).mean_plies(), 0.0);
    }

    #[test]
    fn merged_statistics_are_those_of_all_the_games() {
        let mut merged = stats_of(&[7, 3, 9]);
        merged.merge(&stats_of(&[3, 12, 20]));
        merged.merge(&stats_of(&[]));
        assert_eq!(merged, stats_of(&[7, 3, 9, 3, 12, 20]));
        assert_eq!(merged.median_plies(), 8.0);
    }

    /// The median of `random_playouts` is that of the games replayed one by one.
    #[test]
    fn the_median_of_random_playouts_is_that_of_its_games() {
        let (games, seed) = (41, 3);
        let mut lengths: Vec<u64> = (0..games)
            .map(|k| {
                let mut game = Game::new();
                random_playout(&mut game, &mut game_rng(seed, k));
                game.moves().len() as u64
            })
            .collect();
        lengths.sort_unstable();
        let stats = random_playouts(Position::start(), games, seed, 2);
        assert_eq!(stats.median_plies(), lengths[20] as f64);
        assert_eq!(stats.plies, lengths.iter().sum::<u64>());
        assert_eq!(stats.lengths.values().sum::<u64>(), games);
    }
}
