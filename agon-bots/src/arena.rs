//! Bot-against-bot matches: games with alternating colours, scored with a confidence
//! interval. The `arena` example is a command-line front end to [`run_match`].

use std::fmt;

use agon_core::{Game, Outcome, Side};

use crate::{bot_by_name, Bot};

/// The longest game the arena plays, in plies; a game still going then counts as a draw
/// (and is counted in [`MatchStats::capped`]).
///
/// Repetition (R11) ends most games, but not all: two bots that both avoid repeating
/// (the alpha-beta bot values a draw below an even position) can go on capturing and
/// returning pieces without ever repeating a position. In the measured matches only
/// alpha-beta against alpha-beta reached the cap (18 of 100 games of depth 5 against
/// depth 3); games against random, greedy or MCTS bots never did.
///
/// ```
/// use agon_bots::arena::{play_game, MAX_PLIES};
/// use agon_bots::GreedyBot;
/// let result = play_game(&mut GreedyBot::new(1), &mut GreedyBot::new(2), MAX_PLIES);
/// assert!(result.plies <= MAX_PLIES);
/// ```
pub const MAX_PLIES: usize = 2000;

/// How one arena game ended.
///
/// ```
/// use agon_bots::arena::{play_game, GameResult};
/// use agon_bots::RandomBot;
///
/// let result = play_game(&mut RandomBot::new(1), &mut RandomBot::new(2), 2000);
/// assert!(result.plies > 0);
/// assert!(result.outcome.is_some() || result.plies == 2000);
/// ```
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub struct GameResult {
    /// How the game ended by the rules, or `None` if it reached the ply cap (a draw).
    pub outcome: Option<Outcome>,
    /// The number of plies played.
    pub plies: usize,
}

impl GameResult {
    /// The winner, if any (a game stopped at the cap has none).
    ///
    /// ```
    /// use agon_bots::arena::GameResult;
    /// assert_eq!(GameResult { outcome: None, plies: 2000 }.winner(), None);
    /// ```
    pub fn winner(&self) -> Option<Side> {
        self.outcome.and_then(|o| o.winner)
    }
}

/// Plays one game from the start, `white` against `black`, through [`Game`] (so
/// repetition draws count), stopping after `max_plies` plies as a draw.
///
/// # Panics
///
/// If a bot returns an illegal move, or no move while the game goes on: the arena is also
/// a check of the bots.
///
/// ```
/// use agon_bots::arena::play_game;
/// use agon_bots::{GreedyBot, RandomBot};
///
/// let result = play_game(&mut GreedyBot::new(1), &mut RandomBot::new(1), 2000);
/// assert!(result.outcome.is_some());
/// ```
pub fn play_game(white: &mut dyn Bot, black: &mut dyn Bot, max_plies: usize) -> GameResult {
    let mut game = Game::new();
    while !game.is_over() && game.moves().len() < max_plies {
        let bot: &mut dyn Bot = match game.position().turn() {
            Side::White => &mut *white,
            Side::Black => &mut *black,
        };
        let name = bot.name();
        let m = bot
            .choose_in_game(&game)
            .unwrap_or_else(|| panic!("bot {name} returned no move in a game that goes on"));
        if let Err(e) = game.play(m) {
            panic!("bot {name} returned the illegal move {m}: {e}");
        }
    }
    GameResult {
        outcome: game.outcome(),
        plies: game.moves().len(),
    }
}

/// The results of a match, from the point of view of its first bot (A).
///
/// ```
/// use agon_bots::arena::MatchStats;
///
/// let stats = MatchStats { games: 4, wins: 3, draws: 1, losses: 0, capped: 0, plies: 400 };
/// assert_eq!(stats.score(), 0.875);
/// assert_eq!(stats.mean_plies(), 100.0);
/// ```
#[derive(Copy, Clone, PartialEq, Eq, Debug, Default)]
pub struct MatchStats {
    /// Games played.
    pub games: u32,
    /// Games A won.
    pub wins: u32,
    /// Games drawn (by repetition, or at the ply cap).
    pub draws: u32,
    /// Of the draws, the games stopped at the ply cap ([`MAX_PLIES`]).
    pub capped: u32,
    /// Games A lost.
    pub losses: u32,
    /// Plies played in all games.
    pub plies: u64,
}

impl MatchStats {
    /// A's score: wins plus half the draws, over games (0 when no game was played).
    ///
    /// ```
    /// use agon_bots::arena::MatchStats;
    /// let stats = MatchStats { games: 2, wins: 1, draws: 1, losses: 0, capped: 0, plies: 10 };
    /// assert_eq!(stats.score(), 0.75);
    /// ```
    pub fn score(&self) -> f64 {
        if self.games == 0 {
            return 0.0;
        }
        (f64::from(self.wins) + 0.5 * f64::from(self.draws)) / f64::from(self.games)
    }

    /// The 95% confidence interval of A's score, by the normal approximation with the
    /// sample variance of the per-game scores (1, ½ or 0), clamped to `[0, 1]`.
    ///
    /// Games that all end alike give an interval of width zero; that says the games
    /// varied too little to estimate it, not that the score is certain.
    ///
    /// ```
    /// use agon_bots::arena::MatchStats;
    /// let stats = MatchStats { games: 100, wins: 50, draws: 0, losses: 50, capped: 0, plies: 0 };
    /// let (low, high) = stats.confidence_interval();
    /// assert_eq!((low * 1000.0).round(), 402.0);
    /// assert_eq!((high * 1000.0).round(), 598.0);
    /// ```
    pub fn confidence_interval(&self) -> (f64, f64) {
        if self.games < 2 {
            return (0.0, 1.0);
        }
        let n = f64::from(self.games);
        let mean = self.score();
        let sum_sq = f64::from(self.wins) * (1.0 - mean).powi(2)
            + f64::from(self.draws) * (0.5 - mean).powi(2)
            + f64::from(self.losses) * mean.powi(2);
        let variance = sum_sq / (n - 1.0);
        let half = 1.96 * (variance / n).sqrt();
        ((mean - half).max(0.0), (mean + half).min(1.0))
    }

    /// The average game length in plies.
    ///
    /// ```
    /// use agon_bots::arena::MatchStats;
    /// assert_eq!(MatchStats::default().mean_plies(), 0.0);
    /// ```
    pub fn mean_plies(&self) -> f64 {
        if self.games == 0 {
            return 0.0;
        }
        self.plies as f64 / f64::from(self.games)
    }

    /// Counts one game, given the colour A played and how it ended.
    ///
    /// ```
    /// use agon_bots::arena::{GameResult, MatchStats};
    /// use agon_core::{EndReason, Outcome, Side};
    /// let mut stats = MatchStats::default();
    /// let won_by_black = GameResult { outcome: Some(Outcome::win(Side::Black, EndReason::Throne)), plies: 80 };
    /// stats.record(Side::Black, &won_by_black);
    /// assert_eq!((stats.wins, stats.games, stats.plies), (1, 1, 80));
    /// ```
    pub fn record(&mut self, a_side: Side, result: &GameResult) {
        // Saturating, so that counts set by hand near their maximum cannot overflow.
        self.games = self.games.saturating_add(1);
        self.plies = self.plies.saturating_add(result.plies as u64);
        let count = match result.winner() {
            Some(side) if side == a_side => &mut self.wins,
            Some(_) => &mut self.losses,
            None => &mut self.draws,
        };
        *count = count.saturating_add(1);
        if result.outcome.is_none() {
            self.capped = self.capped.saturating_add(1);
        }
    }
}

/// One line: `games=N wins=W draws=D losses=L capped=C score=S ci95=[LOW, HIGH]
/// mean_plies=P`.
///
/// ```
/// use agon_bots::arena::MatchStats;
/// let stats = MatchStats { games: 4, wins: 3, draws: 1, losses: 0, capped: 0, plies: 400 };
/// assert_eq!(
///     stats.to_string(),
///     "games=4 wins=3 draws=1 losses=0 capped=0 score=0.875 ci95=[0.630, 1.000] mean_plies=100.0"
/// );
/// ```
impl fmt::Display for MatchStats {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (low, high) = self.confidence_interval();
        write!(
            f,
            "games={} wins={} draws={} losses={} capped={} score={:.3} ci95=[{low:.3}, {high:.3}] mean_plies={:.1}",
            self.games,
            self.wins,
            self.draws,
            self.losses,
            self.capped,
            self.score(),
            self.mean_plies()
        )
    }
}

/// The seed of bot `which` (0 for A, 1 for B) in game `game` of a match seeded `seed`:
/// every game gets fresh, distinct seeds, so deterministic bots still play varied games.
///
/// ```
/// use agon_bots::arena::game_seed;
/// assert_ne!(game_seed(1, 0, 0), game_seed(1, 0, 1));
/// assert_eq!(game_seed(1, 5, 1), game_seed(1, 5, 1));
/// ```
pub fn game_seed(seed: u64, game: u32, which: u32) -> u64 {
    let mut rng = agon_core::random::Rng::new(seed ^ (u64::from(game) << 1 | u64::from(which)));
    rng.next_u64()
}

/// Plays `games` games between the bots named `a` and `b` (specs for [`bot_by_name`]), A
/// taking White in even-numbered games and Black in odd ones, each game with new bots
/// seeded by [`game_seed`]. `progress` is called after each game with its number (from
/// 0), A's colour and the result.
///
/// ```
/// use agon_bots::arena::run_match;
///
/// let stats = run_match("greedy", "random", 2, 7, |_, _, _| {})?;
/// assert_eq!(stats.games, 2);
/// assert_eq!(stats.wins + stats.draws + stats.losses, 2);
/// # Ok::<(), String>(())
/// ```
pub fn run_match(
    a: &str,
    b: &str,
    games: u32,
    seed: u64,
    mut progress: impl FnMut(u32, Side, &GameResult),
) -> Result<MatchStats, String> {
    // Check both specs before playing anything.
    bot_by_name(a, 0)?;
    bot_by_name(b, 0)?;
    let mut stats = MatchStats::default();
    for i in 0..games {
        let mut bot_a = bot_by_name(a, game_seed(seed, i, 0))?;
        let mut bot_b = bot_by_name(b, game_seed(seed, i, 1))?;
        let a_side = if i % 2 == 0 { Side::White } else { Side::Black };
        let result = match a_side {
            Side::White => play_game(bot_a.as_mut(), bot_b.as_mut(), MAX_PLIES),
            Side::Black => play_game(bot_b.as_mut(), bot_a.as_mut(), MAX_PLIES),
        };
        stats.record(a_side, &result);
        progress(i, a_side, &result);
    }
    Ok(stats)
}
