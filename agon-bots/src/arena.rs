//! Bot-against-bot matches: games with alternating colours, scored with a confidence
//! interval and an Elo estimate. [`run_match`] plays from the start position;
//! [`run_match_with`] adds what engine authors measure with: an opening book played in
//! pairs with colours swapped ([`crate::book`]), a time control per move, several games at
//! once, and a sequential probability ratio test ([`Sprt`]) that stops the match
//! once it decides. The `arena` example is a command-line front end to both.
//!
//! # Rule sets
//!
//! Games are played under the rules of their start position ([`agon_core::Rules`]): a
//! match under [`MatchOptions::rules`] starts each game from
//! [`Position::start_with_rules`], or from a book position under those rules
//! ([`crate::book::under_rules`]), and the bot asked for each move is that of the player
//! to act, [`Position::chooser`] (under `queen-placer=captor` the captor places the
//! queen). The ply cap still applies: under `repetition=off` without a limit, a game
//! need not end.

use std::fmt;
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering as AtomicOrdering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use agon_core::random::{player_seeds, seed_of};
use agon_core::{ChoiceError, Game, Move, Outcome, Position, Record, Rules, Score, Side};

use crate::ugi::UgiSpec;
use crate::{
    bot_by_name, elo_of_score, Bot, Clock, Decision, Forfeit, ForfeitKind, SpecError, Sprt,
};

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
/// let result = play_game(&mut GreedyBot::new(1), &mut GreedyBot::new(2), MAX_PLIES)?;
/// assert!(result.plies <= MAX_PLIES);
/// # Ok::<(), agon_bots::arena::ArenaError>(())
/// ```
pub const MAX_PLIES: usize = 2000;

/// How one arena game ended.
///
/// ```
/// use agon_bots::arena::{play_game, GameResult};
/// use agon_bots::RandomBot;
///
/// let result = play_game(&mut RandomBot::new(1), &mut RandomBot::new(2), 2000)?;
/// assert!(result.plies > 0);
/// assert!(result.outcome.is_some() || result.plies == 2000);
/// assert_eq!(result.forfeit, None);
/// # Ok::<(), agon_bots::arena::ArenaError>(())
/// ```
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub struct GameResult {
    /// How the game ended by the rules, or `None` if it reached the ply cap (a draw) or a
    /// player forfeited it.
    pub outcome: Option<Outcome>,
    /// The number of plies played.
    pub plies: usize,
    /// The side that lost the game by forfeit ([`Bot::forfeit`]: a UGI engine that
    /// crashed, hung, was late or gave an illegal or unreadable move), and why.
    pub forfeit: Option<(Side, ForfeitKind)>,
}

impl GameResult {
    /// The winner, if any: the rules' winner, or the opponent of a side that forfeited (a
    /// game stopped at the cap has none).
    ///
    /// ```
    /// use agon_bots::arena::GameResult;
    /// use agon_bots::ForfeitKind;
    /// use agon_core::Side;
    /// assert_eq!(GameResult { outcome: None, plies: 2000, forfeit: None }.winner(), None);
    /// let crashed = GameResult { outcome: None, plies: 3, forfeit: Some((Side::Black, ForfeitKind::Crash)) };
    /// assert_eq!(crashed.winner(), Some(Side::White));
    /// ```
    pub fn winner(&self) -> Option<Side> {
        match self.forfeit {
            Some((side, _)) => Some(side.other()),
            None => self.outcome.and_then(|o| o.winner),
        }
    }
}

/// Plays one game from the start, `white` against `black`, through [`Game`] (so
/// repetition draws count), stopping after `max_plies` plies as a draw.
///
/// # Errors
///
/// [`ArenaError`], naming the bot, if a bot returns an illegal move, or no move while the
/// game goes on: the arena is also a check of the bots.
///
/// ```
/// use agon_bots::arena::play_game;
/// use agon_bots::{GreedyBot, RandomBot};
///
/// let result = play_game(&mut GreedyBot::new(1), &mut RandomBot::new(1), 2000)?;
/// assert!(result.outcome.is_some());
/// # Ok::<(), agon_bots::arena::ArenaError>(())
/// ```
pub fn play_game(
    white: &mut dyn Bot,
    black: &mut dyn Bot,
    max_plies: usize,
) -> Result<GameResult, ArenaError> {
    Ok(play_game_from(white, black, &Position::start(), max_plies)?.0)
}

/// A bot broke the rules in an arena game: it returned an illegal move, or no move while
/// the game went on ([`play_game`], [`play_game_from`]). The game is dropped.
///
/// ```
/// use agon_bots::arena::play_game;
/// use agon_bots::{Bot, RandomBot};
/// use agon_core::{IllegalMove, Move, Position};
///
/// /// A bot that always steps two cells at once.
/// struct Cheater;
/// impl Bot for Cheater {
///     fn name(&self) -> String {
///         "cheater".to_string()
///     }
///     fn choose(&mut self, _: &Position) -> Option<Move> {
///         "f1-f3".parse().ok()
///     }
/// }
///
/// let e = play_game(&mut Cheater, &mut RandomBot::new(1), 100).unwrap_err();
/// assert_eq!(e.bot, "cheater");
/// assert_eq!(e.error.reason(), Some(IllegalMove::NotAdjacent));
/// assert_eq!(e.to_string(), "bot cheater returned the illegal move f1-f3 at ply 0: the cells are not adjacent");
/// ```
#[derive(Clone, PartialEq, Eq, Debug)]
#[non_exhaustive]
pub struct ArenaError {
    /// The name of the bot that broke the rules ([`Bot::name`]).
    pub bot: String,
    /// What it did, at which ply.
    pub error: ChoiceError,
}

impl fmt::Display for ArenaError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (bot, ply) = (&self.bot, self.error.ply());
        match (self.error.chosen(), self.error.reason()) {
            (Some(m), Some(reason)) => {
                write!(
                    f,
                    "bot {bot} returned the illegal move {m} at ply {ply}: {reason}"
                )
            }
            _ => write!(
                f,
                "bot {bot} returned no move at ply {ply} in a game that goes on"
            ),
        }
    }
}

impl std::error::Error for ArenaError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(&self.error)
    }
}

/// Why a match stopped without a report: a spec no bot answers to, or a bot that broke
/// the rules ([`ArenaError`]) in one of its games.
///
/// ```
/// use agon_bots::arena::{run_match, MatchError};
/// let e = run_match("greedy", "chess", 2, 0, |_, _, _| {}).unwrap_err();
/// assert!(matches!(e, MatchError::Spec(_)));
/// assert!(e.to_string().starts_with("unknown bot \"chess\""));
/// ```
#[derive(Clone, PartialEq, Eq, Debug)]
#[non_exhaustive]
pub enum MatchError {
    /// A spec that [`bot_by_name`] refuses (found before any game is played).
    Spec(SpecError),
    /// A bot broke the rules in game `game` (numbered from 0, as `progress` numbers
    /// them); the match stopped there, the games before it counted.
    Game {
        /// The game's number.
        game: u32,
        /// The bot and what it did.
        error: ArenaError,
    },
}

impl fmt::Display for MatchError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MatchError::Spec(e) => e.fmt(f),
            MatchError::Game { game, error } => write!(f, "game {game}: {error}"),
        }
    }
}

impl std::error::Error for MatchError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            // The spec's error is this one's text: its source is the spec's own.
            MatchError::Spec(e) => e.source(),
            MatchError::Game { error, .. } => Some(error),
        }
    }
}

impl From<SpecError> for MatchError {
    /// [`MatchError::Spec`].
    ///
    /// ```
    /// use agon_bots::arena::MatchError;
    /// let e = agon_bots::bot_by_name("chess", 0).err().unwrap();
    /// assert_eq!(MatchError::from(e.clone()), MatchError::Spec(e));
    /// ```
    fn from(e: SpecError) -> MatchError {
        MatchError::Spec(e)
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

    /// The 95% confidence interval of A's score: Wilson's score interval, extended to
    /// draws.
    ///
    /// Its bounds are the true scores `q` from which the score observed lies 1.96 standard
    /// errors away, a game's score having the variance `q(1 - q) - d/4` at a draw rate
    /// `d` (taken as draws / (games + 1.96²), so that a match of draws alone does not
    /// claim that every game will be drawn). Without draws it is Wilson's interval. Unlike
    /// the normal approximation around the score, it has a width when every game ends
    /// alike (10 wins of 10: [0.722, 1]) and never leaves `[0, 1]`.
    ///
    /// ```
    /// use agon_bots::arena::MatchStats;
    /// let even = MatchStats { games: 100, wins: 50, draws: 0, losses: 50, capped: 0, plies: 0 };
    /// let (low, high) = even.confidence_interval();
    /// assert_eq!(((low * 1000.0).round(), (high * 1000.0).round()), (404.0, 596.0));
    /// // Draws make a game's score vary less: a narrower interval.
    /// let drawn = MatchStats { games: 100, wins: 25, draws: 50, losses: 25, capped: 0, plies: 0 };
    /// let (low, high) = drawn.confidence_interval();
    /// assert_eq!(((low * 1000.0).round(), (high * 1000.0).round()), (431.0, 569.0));
    /// let swept = MatchStats { games: 10, wins: 10, draws: 0, losses: 0, capped: 0, plies: 0 };
    /// let (low, high) = swept.confidence_interval();
    /// assert_eq!(((low * 1000.0).round(), high), (722.0, 1.0));
    /// ```
    pub fn confidence_interval(&self) -> (f64, f64) {
        const Z: f64 = 1.96;
        if self.games == 0 {
            return (0.0, 1.0);
        }
        let n = f64::from(self.games);
        let score = self.score();
        let k = Z * Z / n;
        let draw_rate = f64::from(self.draws) / (n + Z * Z);
        // (score - q)² = k (q (1 - q) - draw_rate / 4), a quadratic in q.
        let a = 1.0 + k;
        let b = 2.0 * score + k;
        let c = score * score + k * draw_rate / 4.0;
        // Counts set by hand that do not add up could make it negative: no interval then
        // but the point, never a NaN.
        let root = (b * b - 4.0 * a * c).max(0.0).sqrt();
        // The interval holds the score itself (a perfect one stays 1 through rounding).
        (
            ((b - root) / (2.0 * a)).min(score).max(0.0),
            ((b + root) / (2.0 * a)).max(score).min(1.0),
        )
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
    /// let won_by_black = GameResult { outcome: Some(Outcome::win(Side::Black, EndReason::Throne)), plies: 80, forfeit: None };
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
        if result.outcome.is_none() && result.forfeit.is_none() {
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
///     "games=4 wins=3 draws=1 losses=0 capped=0 score=0.875 ci95=[0.423, 0.959] mean_plies=100.0"
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

/// The seeds of White's and Black's bots in game `game` of a match seeded `seed`, by the
/// one seeding scheme: [`player_seeds`]`(`[`seed_of`]`(seed, &[0, game]))`. A match is the
/// first pair (pair 0) of a round robin of its two bots, so Python's `agon.tournament` of
/// the same two bots with the same seed plays the same games. Each bot gets the seed of
/// the colour it plays, whether it is A or B; every game gets fresh, distinct seeds, so
/// deterministic bots still play varied games.
///
/// ```
/// use agon_bots::arena::game_seeds;
/// use agon_core::random::{player_seeds, seed_of};
/// let [white, black] = game_seeds(1, 5);
/// assert_ne!(white, black);
/// assert_eq!([white, black], player_seeds(seed_of(1, &[0, 5])));
/// assert_ne!(game_seeds(1, 5), game_seeds(1, 6));
/// ```
pub fn game_seeds(seed: u64, game: u32) -> [u64; 2] {
    player_seeds(seed_of(seed, &[0, u64::from(game)]))
}

/// The seeds of A and B in game `game` of a match seeded `seed` where A plays `a_side`.
fn bot_seeds(seed: u64, game: u32, a_side: Side) -> (u64, u64) {
    let [white, black] = game_seeds(seed, game);
    match a_side {
        Side::White => (white, black),
        Side::Black => (black, white),
    }
}

/// Plays `games` games between the bots named `a` and `b` (specs for [`bot_by_name`]), A
/// taking White in even-numbered games and Black in odd ones, each game with new bots
/// seeded by [`game_seeds`] (each bot the seed of its colour). `progress` is called after each game with its number (from
/// 0), A's colour and the result.
///
/// # Errors
///
/// [`MatchError::Spec`] for a spec that [`bot_by_name`] refuses (before any game is
/// played); [`MatchError::Game`] when a bot breaks the rules (the match stops there).
///
/// ```
/// use agon_bots::arena::run_match;
///
/// let stats = run_match("greedy", "random", 2, 7, |_, _, _| {})?;
/// assert_eq!(stats.games, 2);
/// assert_eq!(stats.wins + stats.draws + stats.losses, 2);
/// # Ok::<(), agon_bots::arena::MatchError>(())
/// ```
pub fn run_match(
    a: &str,
    b: &str,
    games: u32,
    seed: u64,
    mut progress: impl FnMut(u32, Side, &GameResult),
) -> Result<MatchStats, MatchError> {
    // Check both specs before playing anything.
    bot_by_name(a, 0)?;
    bot_by_name(b, 0)?;
    let mut stats = MatchStats::default();
    for i in 0..games {
        let a_side = if i % 2 == 0 { Side::White } else { Side::Black };
        let (seed_a, seed_b) = bot_seeds(seed, i, a_side);
        let mut bot_a = bot_by_name(a, seed_a)?;
        let mut bot_b = bot_by_name(b, seed_b)?;
        let result = match a_side {
            Side::White => play_game(bot_a.as_mut(), bot_b.as_mut(), MAX_PLIES),
            Side::Black => play_game(bot_b.as_mut(), bot_a.as_mut(), MAX_PLIES),
        }
        .map_err(|error| MatchError::Game { game: i, error })?;
        stats.record(a_side, &result);
        progress(i, a_side, &result);
    }
    Ok(stats)
}

/// How a match is played by [`run_match_with`].
///
/// ```
/// use agon_bots::arena::{MatchOptions, MAX_PLIES};
/// let options = MatchOptions::default();
/// assert_eq!((options.games, options.max_plies, options.concurrency), (2, MAX_PLIES, 1));
/// assert!(options.book.is_empty() && options.sprt.is_none() && options.time_per_move.is_none());
/// ```
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct MatchOptions {
    /// The most games (an SPRT may stop the match earlier).
    pub games: u32,
    /// The seed of the bots' seeds ([`game_seeds`]).
    pub seed: u64,
    /// Start positions: games `2i` and `2i + 1` start from `book[i % len]` with colours
    /// swapped. Empty: every game starts from the start position.
    pub book: Vec<Position>,
    /// The ply cap ([`MAX_PLIES`] by default).
    pub max_plies: usize,
    /// A time control per move, given to each bot whose spec sets no time
    /// ([`with_time_control`]).
    pub time_per_move: Option<Duration>,
    /// A time control of any kind ([`TimeControl`]: a game clock, a node or depth budget,
    /// a time per move); it replaces `time_per_move` when set.
    pub time_control: Option<TimeControl>,
    /// Whether the report keeps each game's record ([`MatchReport::records`]).
    pub records: bool,
    /// Stop when this test decides (checked after each pair of games).
    pub sprt: Option<Sprt>,
    /// Games played at once, on as many threads.
    pub concurrency: usize,
    /// The rule set of the games ([`Rules::STANDARD`] by default): each starts from
    /// [`Position::start_with_rules`], or from a book position put under these rules
    /// ([`crate::book::under_rules`]).
    pub rules: Rules,
}

impl Default for MatchOptions {
    fn default() -> MatchOptions {
        MatchOptions {
            games: 2,
            seed: 0,
            book: Vec::new(),
            max_plies: MAX_PLIES,
            time_per_move: None,
            time_control: None,
            records: false,
            sprt: None,
            concurrency: 1,
            rules: Rules::STANDARD,
        }
    }
}

impl MatchOptions {
    /// Options for `games` games from `seed`, the rest default.
    ///
    /// ```
    /// let o = agon_bots::arena::MatchOptions::new(10, 3);
    /// assert_eq!((o.games, o.seed), (10, 3));
    /// ```
    pub fn new(games: u32, seed: u64) -> MatchOptions {
        MatchOptions {
            games,
            seed,
            ..MatchOptions::default()
        }
    }

    /// These options with a book.
    ///
    /// ```
    /// let o = agon_bots::arena::MatchOptions::new(10, 3).with_book(agon_bots::book::standard());
    /// assert_eq!(o.book.len(), 300);
    /// ```
    #[must_use]
    pub fn with_book(self, book: Vec<Position>) -> MatchOptions {
        MatchOptions { book, ..self }
    }

    /// These options with a time control per move.
    ///
    /// ```
    /// use std::time::Duration;
    /// let o = agon_bots::arena::MatchOptions::new(2, 0).with_time_per_move(Duration::from_millis(50));
    /// assert_eq!(o.time_per_move, Some(Duration::from_millis(50)));
    /// ```
    #[must_use]
    pub fn with_time_per_move(self, time: Duration) -> MatchOptions {
        MatchOptions {
            time_per_move: Some(time),
            ..self
        }
    }

    /// These options with a time control ([`TimeControl`]).
    ///
    /// ```
    /// use agon_bots::arena::{MatchOptions, TimeControl};
    /// let tc: TimeControl = "10+0.1".parse()?;
    /// assert_eq!(MatchOptions::new(2, 0).with_time_control(tc).time_control, Some(tc));
    /// # Ok::<(), String>(())
    /// ```
    #[must_use]
    pub fn with_time_control(self, time_control: TimeControl) -> MatchOptions {
        MatchOptions {
            time_control: Some(time_control),
            ..self
        }
    }

    /// These options keeping (or not) each game's record in the report.
    ///
    /// ```
    /// assert!(agon_bots::arena::MatchOptions::new(2, 0).with_records(true).records);
    /// ```
    #[must_use]
    pub fn with_records(self, records: bool) -> MatchOptions {
        MatchOptions { records, ..self }
    }

    /// The time control in force: [`MatchOptions::time_control`], else the time per move.
    fn time_control(&self) -> Option<TimeControl> {
        self.time_control
            .or(self.time_per_move.map(TimeControl::PerMove))
    }

    /// These options with an SPRT.
    ///
    /// ```
    /// use agon_bots::Sprt;
    /// let o = agon_bots::arena::MatchOptions::new(2, 0).with_sprt(Sprt::new(0.0, 10.0, 0.05, 0.05).unwrap());
    /// assert!(o.sprt.is_some());
    /// ```
    #[must_use]
    pub fn with_sprt(self, sprt: Sprt) -> MatchOptions {
        MatchOptions {
            sprt: Some(sprt),
            ..self
        }
    }

    /// These options with a ply cap.
    ///
    /// ```
    /// assert_eq!(agon_bots::arena::MatchOptions::new(2, 0).with_max_plies(10).max_plies, 10);
    /// ```
    #[must_use]
    pub fn with_max_plies(self, max_plies: usize) -> MatchOptions {
        MatchOptions { max_plies, ..self }
    }

    /// These options playing under `rules`.
    ///
    /// ```
    /// use agon_bots::arena::{run_match_with, MatchOptions};
    /// use agon_core::Rules;
    /// let options = MatchOptions::new(2, 1).with_rules(Rules::LUDII).with_max_plies(60);
    /// assert_eq!(options.rules, Rules::LUDII);
    /// let report = run_match_with("greedy", "random", &options, |_, _, _| {})?;
    /// assert_eq!(report.stats.games, 2);
    /// # Ok::<(), agon_bots::arena::MatchError>(())
    /// ```
    #[must_use]
    pub fn with_rules(self, rules: Rules) -> MatchOptions {
        MatchOptions { rules, ..self }
    }

    /// These options playing `threads` games at once (at least 1).
    ///
    /// ```
    /// assert_eq!(agon_bots::arena::MatchOptions::new(2, 0).with_concurrency(0).concurrency, 1);
    /// ```
    #[must_use]
    pub fn with_concurrency(self, threads: usize) -> MatchOptions {
        MatchOptions {
            concurrency: threads.max(1),
            ..self
        }
    }
}

/// The spec with a time limit per move added when it sets none: `:TIMEms` after the
/// budget of `mcts` and `alphabeta` (with their default budget if none), a time part for
/// `engine` (replacing its default time). Specs of bots without a time limit (`random`,
/// `greedy`) and specs that already set a time are returned unchanged.
///
/// ```
/// use std::time::Duration;
/// use agon_bots::arena::with_time_control;
/// use agon_bots::MctsBot;
/// let t = Duration::from_millis(100);
/// assert_eq!(with_time_control("alphabeta:5", t), "alphabeta:5:100ms");
/// let default = format!("mcts:{}:100ms", MctsBot::DEFAULT_PLAYOUTS);
/// assert_eq!(with_time_control("mcts", t), default);
/// assert_eq!(with_time_control("engine", t), "engine:100ms");
/// assert_eq!(with_time_control("engine:n5000", t), "engine:n5000:100ms");
/// assert_eq!(with_time_control("engine:50ms", t), "engine:50ms");
/// assert_eq!(with_time_control("greedy", t), "greedy");
/// assert_eq!(with_time_control("ugi:./my-engine", t), "ugi:100ms:./my-engine");
/// assert_eq!(with_time_control("ugi:n50:./my-engine", t), "ugi:n50:./my-engine");
/// ```
pub fn with_time_control(spec: &str, time: Duration) -> String {
    let spec = spec.trim();
    let ms = time.min(crate::MAX_TIME_LIMIT).as_millis();
    if UgiSpec::is_ugi(spec) {
        return ugi_with_limit(spec, &format!("{ms}ms"));
    }
    // A spec that does not read is returned unchanged, for the match to refuse it.
    match crate::BotSpec::parse(spec) {
        Ok(parsed) if parsed.kind.takes_time() && parsed.time.is_none() => match parsed.kind {
            crate::BotKind::Engine => format!("{spec}:{ms}ms"),
            _ => parsed.with_time(time).to_string(),
        },
        _ => spec.to_string(),
    }
}

/// A `ugi:` spec with the limit `part` (`100ms`, `n5000`, `d6`) when it sets none; other
/// specs, and specs that do not read, unchanged.
fn ugi_with_limit(spec: &str, part: &str) -> String {
    match UgiSpec::parse(spec) {
        Ok(u) if u.time.is_none() && u.nodes.is_none() && u.depth.is_none() => {
            format!("ugi:{part}:{}", &u.to_string()["ugi:".len()..])
        }
        _ => spec.to_string(),
    }
}

/// A time control of a match, as fastchess and cutechess give them (`--tc` of the arena):
/// a game clock `10+0.1` (seconds per game, plus an increment per move) or `10`, a time
/// per move `100ms`, a node budget `n5000` or a depth `d6` per move.
///
/// UGI engines ([`crate::ugi::UgiBot`]) get the clock itself: the arena keeps each side's
/// time, passes both in `go p1time .. p2time .. p1inc .. p2inc ..`, and an engine whose
/// move comes after its time left loses the game (`time-forfeit`). The bots of this crate
/// get an equivalent time per move, [`TimeControl::per_move`] (they are not flagged). A
/// node or depth budget goes to the engine (`engine:nN`, `engine:dD`) and to UGI engines
/// (`nodes`, `depth`): with it, the same seeds give the same games. Specs that set their
/// own limits keep them ([`TimeControl::apply`]).
///
/// ```
/// use std::time::Duration;
/// use agon_bots::arena::TimeControl;
/// let clock: TimeControl = "10+0.1".parse()?;
/// assert_eq!(clock, TimeControl::Clock { base: Duration::from_secs(10), increment: Duration::from_millis(100) });
/// assert_eq!("100ms".parse(), Ok(TimeControl::PerMove(Duration::from_millis(100))));
/// assert_eq!("n5000".parse(), Ok(TimeControl::Nodes(5000)));
/// assert_eq!("d6".parse(), Ok(TimeControl::Depth(6)));
/// assert_eq!(clock.to_string(), "10+0.1");
/// assert!("fast".parse::<TimeControl>().is_err());
/// # Ok::<(), String>(())
/// ```
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
#[non_exhaustive]
pub enum TimeControl {
    /// A time per move.
    PerMove(Duration),
    /// A game clock: each side's time for the game and its increment per move.
    Clock {
        /// The time per side for the game.
        base: Duration,
        /// The time added after each move.
        increment: Duration,
    },
    /// A node budget per move.
    Nodes(u64),
    /// A depth per move.
    Depth(u32),
}

impl TimeControl {
    /// The moves a game clock is shared between for the bots of this crate, which think
    /// a fixed time per move: the base over this, plus the increment.
    pub const MOVES_PER_GAME: u32 = 40;

    /// The time per move the bots of this crate get: the time of [`TimeControl::PerMove`],
    /// for a clock its base over [`TimeControl::MOVES_PER_GAME`] plus its increment, and
    /// `None` for node and depth budgets.
    ///
    /// ```
    /// use std::time::Duration;
    /// use agon_bots::arena::TimeControl;
    /// let tc: TimeControl = "4+0.05".parse()?;
    /// assert_eq!(tc.per_move(), Some(Duration::from_millis(150)));
    /// # Ok::<(), String>(())
    /// ```
    pub fn per_move(&self) -> Option<Duration> {
        match *self {
            TimeControl::PerMove(t) => Some(t),
            TimeControl::Clock { base, increment } => {
                Some(base / TimeControl::MOVES_PER_GAME + increment)
            }
            TimeControl::Nodes(_) | TimeControl::Depth(_) => None,
        }
    }

    /// The game clock at the start of a game, for a clock time control.
    fn clock(&self) -> Option<Clock> {
        match *self {
            TimeControl::Clock { base, increment } => Some(Clock::new(base, increment)),
            _ => None,
        }
    }

    /// The spec with this time control applied when the spec sets no limit of its own:
    /// a time per move as [`with_time_control`] gives it (for a clock, to the bots of
    /// this crate only: UGI engines get the clock), a node or depth budget to `engine`
    /// and `ugi:` specs. Other specs, and specs that do not read, are unchanged.
    ///
    /// ```
    /// use agon_bots::arena::TimeControl;
    /// let nodes: TimeControl = "n5000".parse()?;
    /// assert_eq!(nodes.apply("engine"), "engine:n5000");
    /// assert_eq!(nodes.apply("engine:50ms"), "engine:50ms");
    /// assert_eq!(nodes.apply("ugi:./e"), "ugi:n5000:./e");
    /// assert_eq!(nodes.apply("greedy"), "greedy");
    /// let clock: TimeControl = "4+0.05".parse()?;
    /// assert_eq!(clock.apply("engine"), "engine:150ms");
    /// assert_eq!(clock.apply("ugi:./e"), "ugi:./e");
    /// # Ok::<(), String>(())
    /// ```
    pub fn apply(&self, spec: &str) -> String {
        let spec = spec.trim();
        let budget = match *self {
            TimeControl::PerMove(t) => return with_time_control(spec, t),
            TimeControl::Clock { .. } if UgiSpec::is_ugi(spec) => return spec.to_string(),
            TimeControl::Clock { .. } => {
                return with_time_control(spec, self.per_move().unwrap_or_default())
            }
            TimeControl::Nodes(n) => format!("n{n}"),
            TimeControl::Depth(d) => format!("d{d}"),
        };
        if UgiSpec::is_ugi(spec) {
            return ugi_with_limit(spec, &budget);
        }
        match crate::BotSpec::parse(spec) {
            Ok(parsed) if parsed.kind == crate::BotKind::Engine => {
                let options = parsed.engine.unwrap_or_default();
                if parsed.time.is_none() && options.nodes.is_none() && options.depth.is_none() {
                    format!("{spec}:{budget}")
                } else {
                    spec.to_string()
                }
            }
            _ => spec.to_string(),
        }
    }
}

impl std::str::FromStr for TimeControl {
    type Err = String;

    /// Reads `10+0.1`, `10` (seconds, no increment), `100ms`, `n5000` or `d6`.
    fn from_str(text: &str) -> Result<TimeControl, String> {
        let text = text.trim();
        let bad = || format!("bad time control {text:?}: expected like 10+0.1, 100ms, n5000 or d6");
        let seconds = |s: &str| {
            s.parse::<f64>()
                .ok()
                .filter(|x| x.is_finite() && *x >= 0.0 && *x < 1e9)
                .map(Duration::from_secs_f64)
        };
        if let Some(ms) = text.strip_suffix("ms") {
            return ms
                .parse()
                .map(|ms| TimeControl::PerMove(Duration::from_millis(ms)))
                .map_err(|_| bad());
        }
        if let Some(n) = text.strip_prefix('n') {
            return n
                .parse()
                .ok()
                .filter(|&n| n >= 1)
                .map(TimeControl::Nodes)
                .ok_or_else(bad);
        }
        if let Some(d) = text.strip_prefix('d') {
            let max = crate::Engine::MAX_DEPTH;
            return d
                .parse()
                .ok()
                .filter(|d| (1..=max).contains(d))
                .map(TimeControl::Depth)
                .ok_or_else(bad);
        }
        let (base, increment) = text.split_once('+').unwrap_or((text, "0"));
        match (seconds(base), seconds(increment)) {
            (Some(base), Some(increment)) if !base.is_zero() => {
                Ok(TimeControl::Clock { base, increment })
            }
            _ => Err(bad()),
        }
    }
}

impl fmt::Display for TimeControl {
    /// The form [`TimeControl`]'s `from_str` reads.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TimeControl::PerMove(t) => write!(f, "{}ms", t.as_millis()),
            TimeControl::Clock { base, increment } if increment.is_zero() => {
                write!(f, "{}", base.as_secs_f64())
            }
            TimeControl::Clock { base, increment } => {
                write!(f, "{}+{}", base.as_secs_f64(), increment.as_secs_f64())
            }
            TimeControl::Nodes(n) => write!(f, "n{n}"),
            TimeControl::Depth(d) => write!(f, "d{d}"),
        }
    }
}

/// Plays one game from `start` under its rules, `white` against `black` (whichever is to
/// act in `start` moves first), like [`play_game`]; each move is asked of the bot of the
/// player to act ([`Position::chooser`]). Also returns the longest time each bot took
/// for a move (White's first).
///
/// # Errors
///
/// As [`play_game`]: [`ArenaError`], naming the bot, if a bot returns an illegal move or
/// none.
///
/// ```
/// use agon_bots::arena::play_game_from;
/// use agon_bots::{GreedyBot, RandomBot};
/// use agon_core::Position;
/// let (result, longest) = play_game_from(&mut GreedyBot::new(1), &mut RandomBot::new(1), &Position::start(), 2000)?;
/// assert!(result.outcome.is_some());
/// assert!(longest[0] >= std::time::Duration::ZERO);
/// # Ok::<(), agon_bots::arena::ArenaError>(())
/// ```
pub fn play_game_from(
    white: &mut dyn Bot,
    black: &mut dyn Bot,
    start: &Position,
    max_plies: usize,
) -> Result<(GameResult, [Duration; 2]), ArenaError> {
    play_one(white, black, start, max_plies, None).map(|p| (p.result, p.longest))
}

/// A game played by [`play_one`].
struct Played {
    result: GameResult,
    longest: [Duration; 2],
    /// The game as played (up to the forfeit, if any).
    game: Game,
    /// The forfeit's detail.
    forfeit: Option<Forfeit>,
}

/// Plays one game as [`play_game_from`] does, under a game clock if `clock` is set; a bot
/// that gives no move or an illegal one and names a [`Forfeit`] loses the game.
fn play_one(
    white: &mut dyn Bot,
    black: &mut dyn Bot,
    start: &Position,
    max_plies: usize,
    mut clock: Option<Clock>,
) -> Result<Played, ArenaError> {
    let mut longest = [Duration::ZERO; 2];
    let (game, forfeit) = play_out_forfeiting(white, black, start, max_plies, |bot, game| {
        let side = game.position().chooser();
        bot.set_clock(clock);
        let began = Instant::now();
        let m = bot.choose_in_game(game);
        let took = began.elapsed();
        longest[side.index()] = longest[side.index()].max(took);
        if let Some(clock) = clock.as_mut() {
            let i = side.index();
            clock.remaining[i] = clock.remaining[i].saturating_sub(took) + clock.increment[i];
        }
        m
    })?;
    let result = GameResult {
        // A game stopped by a forfeit is not over by the rules: its outcome is None.
        outcome: game.outcome(),
        plies: game.moves().len(),
        forfeit: forfeit.as_ref().map(|(side, f)| (*side, f.kind)),
    };
    Ok(Played {
        result,
        longest,
        game,
        forfeit: forfeit.map(|(_, f)| f),
    })
}

/// Plays a game from `start` until it ends or `max_plies` plies, asking each move of the
/// bot of the player to act ([`Position::chooser`]) through `choose(bot, game)`, as the
/// arena and the Python package's game runners do. A bot that gives no move, or an
/// illegal one, while the game goes on forfeits it if it names a [`Forfeit`]
/// ([`Bot::forfeit`]: a UGI engine that crashed, hung, was late, or gave an illegal or
/// unreadable move): the game is returned as played up to that ply, with the side that
/// forfeited and why. The game's result is then the opponent's win, whatever the position
/// says.
///
/// # Errors
///
/// [`ArenaError`], naming the bot, when a bot that names no forfeit gives no move or an
/// illegal one (a bug of the bot: the bots of this crate always move legally).
///
/// ```
/// use agon_bots::arena::play_out_forfeiting;
/// use agon_bots::{Bot, ForfeitKind, RandomBot};
/// use agon_core::{Position, Side};
///
/// let (mut white, mut black) = (RandomBot::new(1), RandomBot::new(2));
/// let (game, forfeit) = play_out_forfeiting(&mut white, &mut black, &Position::start(), 6, |bot, game| {
///     bot.choose_in_game(game)
/// })?;
/// assert_eq!((game.moves().len(), forfeit), (6, None));
///
/// // An engine that cannot start forfeits its first move.
/// let mut engine = agon_bots::bot_by_name("ugi:/nonexistent/engine", 0).unwrap();
/// let (game, forfeit) = play_out_forfeiting(&mut white, engine.as_mut(), &Position::start(), 6, |bot, game| {
///     bot.choose_in_game(game)
/// })?;
/// let (side, forfeit) = forfeit.unwrap();
/// assert_eq!((game.moves().len(), side, forfeit.kind), (1, Side::Black, ForfeitKind::Crash));
/// # Ok::<(), agon_bots::arena::ArenaError>(())
/// ```
pub fn play_out_forfeiting(
    white: &mut dyn Bot,
    black: &mut dyn Bot,
    start: &Position,
    max_plies: usize,
    mut choose: impl FnMut(&mut dyn Bot, &Game) -> Option<Move>,
) -> Result<(Game, Option<(Side, Forfeit)>), ArenaError> {
    // The moves so far, to rebuild the game when a player forfeits it (play_out drops it).
    let mut moves: Vec<Move> = Vec::new();
    // The one loop that plays games (agon-core's, which agon-rl's replays play through
    // too), and its one answer to a bot that breaks the rules: an error, here naming it
    // unless the bot forfeits.
    let played = Game::play_out(*start, max_plies, |game| {
        let bot: &mut dyn Bot = match game.position().chooser() {
            Side::White => &mut *white,
            Side::Black => &mut *black,
        };
        let m = choose(bot, game);
        moves.extend(m);
        m
    });
    let error = match played {
        Ok(game) => return Ok((game, None)),
        Err(error) => error,
    };
    let side = error.chooser();
    let bot: &mut dyn Bot = match side {
        Side::White => &mut *white,
        Side::Black => &mut *black,
    };
    let Some(forfeit) = bot.forfeit() else {
        return Err(ArenaError {
            bot: bot.name(),
            error,
        });
    };
    // The moves before the forfeit were legal: the game replays them.
    let mut game = Game::from_position(*start);
    for &m in &moves[..error.ply()] {
        game.push_unchecked(m);
    }
    Ok((game, Some((side, forfeit))))
}

/// A game lost by forfeit in a match ([`MatchReport::forfeits`]).
///
/// ```
/// use agon_bots::arena::GameForfeit;
/// use agon_bots::{Forfeit, ForfeitKind};
/// let f = GameForfeit { game: 3, a: false, forfeit: Forfeit { kind: ForfeitKind::Hang, detail: "no bestmove in time".into() } };
/// assert_eq!(f.to_string(), "game 3: B hang: no bestmove in time");
/// ```
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct GameForfeit {
    /// The game's number.
    pub game: u32,
    /// Whether bot A forfeited it (else B).
    pub a: bool,
    /// The reason and what happened.
    pub forfeit: Forfeit,
}

impl fmt::Display for GameForfeit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let bot = if self.a { "A" } else { "B" };
        write!(f, "game {}: {bot} {}", self.game, self.forfeit)
    }
}

/// The record of a game of a match: the players (`White`, `Black`, by name), the game's
/// number (`Round`, from 1), the result (a forfeit is the opponent's win, the ply cap a
/// draw), and for a forfeit `Termination` as PGN has it (`rules infraction` for an
/// illegal or unreadable move, `time forfeit` for a late move or a hang, `abandoned` for
/// a crash) and `Forfeit`, the reason's name and what happened.
fn game_record(played: &Played, game_number: u32, names: [&str; 2]) -> Record {
    let mut record = Record::new(played.game.clone());
    // Names and texts of the harness hold no line break; a tag refused is left out.
    let _ = record.set_tag("White", names[0]);
    let _ = record.set_tag("Black", names[1]);
    let _ = record.set_tag("Round", &(u64::from(game_number) + 1).to_string());
    if let Some(forfeit) = &played.forfeit {
        let termination = match forfeit.kind {
            ForfeitKind::IllegalMove | ForfeitKind::UnreadableMove => "rules infraction",
            ForfeitKind::TimeForfeit | ForfeitKind::Hang => "time forfeit",
            ForfeitKind::Crash => "abandoned",
        };
        let _ = record.set_tag("Termination", termination);
        let _ = record.set_tag("Forfeit", &forfeit.to_string().replace(['\n', '\r'], " "));
    } else if played.result.outcome.is_none() {
        let _ = record.set_tag("Termination", "unterminated");
    }
    let score = match played.result.winner() {
        Some(Side::White) => Score::WhiteWins,
        Some(Side::Black) => Score::BlackWins,
        None => Score::Draw,
    };
    if played.result.outcome.is_none() {
        let _ = record.set_result(score);
    }
    record
}

/// The results of [`run_match_with`].
///
/// ```
/// use agon_bots::arena::{run_match_with, MatchOptions};
/// let report = run_match_with("greedy", "random", &MatchOptions::new(2, 1), |_, _, _| {})?;
/// assert_eq!(report.stats.games, 2);
/// assert!(report.to_string().contains("elo="));
/// # Ok::<(), agon_bots::arena::MatchError>(())
/// ```
#[derive(Clone, Debug)]
pub struct MatchReport {
    /// Bot A's spec, with the time control applied.
    pub a: String,
    /// Bot B's spec, with the time control applied.
    pub b: String,
    /// The games, from A's point of view.
    pub stats: MatchStats,
    /// The longest time A and B took for one move.
    pub longest_move: [Duration; 2],
    /// The SPRT's LLR and decision, if one was run.
    pub sprt: Option<(Sprt, f64, Decision)>,
    /// The games lost by forfeit, in game order.
    pub forfeits: Vec<GameForfeit>,
    /// Each game's record, in game order, when [`MatchOptions::records`] is set: the
    /// players, the game's number, the moves, the result, and a forfeit's reason (tags
    /// `White`, `Black`, `Round`, `Termination`, `Forfeit`).
    pub records: Vec<Record>,
}

impl MatchReport {
    /// A's Elo advantage over B (logistic), with the bounds of its 95% interval, from the
    /// score and its interval ([`MatchStats::confidence_interval`]).
    ///
    /// ```
    /// use agon_bots::arena::{MatchReport, MatchStats};
    /// let stats = MatchStats { games: 100, wins: 50, draws: 0, losses: 50, capped: 0, plies: 0 };
    /// let report = MatchReport { a: "x".into(), b: "y".into(), stats, longest_move: Default::default(), sprt: None, forfeits: Vec::new(), records: Vec::new() };
    /// let (elo, low, high) = report.elo();
    /// assert_eq!((elo, low.round(), high.round()), (0.0, -68.0, 68.0));
    /// ```
    pub fn elo(&self) -> (f64, f64, f64) {
        let (low, high) = self.stats.confidence_interval();
        (
            elo_of_score(self.stats.score()),
            elo_of_score(low),
            elo_of_score(high),
        )
    }
}

/// `A=.. B=.. <stats> elo=E [LOW, HIGH] capped%=.. longest_move_ms=[A, B]`, the SPRT's
/// `llr=.. (LOWER, UPPER) decision` if one ran, and `forfeits=[game N: A|B REASON: ...; ...]`
/// if a game was lost by forfeit.
impl fmt::Display for MatchReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (elo, low, high) = self.elo();
        write!(
            f,
            "A={} B={} {} elo={elo:.0} [{low:.0}, {high:.0}] capped%={:.1} longest_move_ms=[{}, {}]",
            self.a,
            self.b,
            self.stats,
            100.0 * f64::from(self.stats.capped) / f64::from(self.stats.games.max(1)),
            self.longest_move[0].as_millis(),
            self.longest_move[1].as_millis()
        )?;
        if let Some((sprt, llr, decision)) = &self.sprt {
            let (lower, upper) = sprt.bounds();
            write!(
                f,
                " {sprt} llr={llr:.2} ({lower:.2}, {upper:.2}) {decision}"
            )?;
        }
        if !self.forfeits.is_empty() {
            f.write_str(" forfeits=[")?;
            for (i, forfeit) in self.forfeits.iter().enumerate() {
                if i > 0 {
                    f.write_str("; ")?;
                }
                write!(f, "{forfeit}")?;
            }
            f.write_str("]")?;
        }
        Ok(())
    }
}

/// Plays a match as set by `options` between the bots named `a` and `b`: book openings
/// played in pairs with colours swapped, a time control per move, several games at once,
/// and an SPRT that stops the match once it decides (checked after each finished pair).
/// `progress` is called after each game (in order) with its number, A's colour and the
/// result.
///
/// # Errors
///
/// As [`run_match`]: [`MatchError::Spec`] for a spec that [`bot_by_name`] refuses (before
/// any game is played), [`MatchError::Game`] when a bot breaks the rules.
///
/// ```
/// use agon_bots::arena::{run_match_with, MatchOptions};
/// use agon_bots::book;
/// let options = MatchOptions::new(4, 1).with_book(book::standard()).with_concurrency(2);
/// let report = run_match_with("greedy", "random", &options, |_, _, _| {})?;
/// assert_eq!(report.stats.games, 4);
/// # Ok::<(), agon_bots::arena::MatchError>(())
/// ```
pub fn run_match_with(
    a: &str,
    b: &str,
    options: &MatchOptions,
    progress: impl FnMut(u32, Side, &GameResult),
) -> Result<MatchReport, MatchError> {
    let (a, b) = match options.time_control() {
        Some(tc) => (tc.apply(a), tc.apply(b)),
        None => (a.trim().to_string(), b.trim().to_string()),
    };
    bot_by_name(&a, 0)?;
    bot_by_name(&b, 0)?;
    let make = |spec: &str, seed: u64| -> Box<dyn Bot + Send> {
        bot_by_name(spec, seed).unwrap_or_else(|e| unreachable!("checked above: {e}"))
    };
    run_match_of(
        (&a, &|seed| make(&a, seed)),
        (&b, &|seed| make(&b, seed)),
        options,
        progress,
    )
}

/// A factory of bots: called with the seed of the bot's colour in each game ([`game_seeds`]).
pub type BotFactory<'a> = &'a (dyn Fn(u64) -> Box<dyn Bot + Send> + Sync);

/// [`run_match_with`] for bots that have no spec (say, engines with other evaluation
/// weights): each bot is a name and a [`BotFactory`]. The time control of `options` is
/// not applied to the specs (the factories set their own limits), but a game clock is
/// kept and given to the bots ([`Bot::set_clock`]).
///
/// # Errors
///
/// [`MatchError::Game`] when a bot breaks the rules: the first such game in game order,
/// whatever the concurrency (the games before it are counted and passed to `progress`,
/// the games after it dropped).
///
/// ```
/// use agon_bots::arena::{run_match_of, MatchOptions};
/// use agon_bots::{Bot, GreedyBot, RandomBot};
/// let greedy = |seed| Box::new(GreedyBot::new(seed)) as Box<dyn Bot + Send>;
/// let random = |seed| Box::new(RandomBot::new(seed)) as Box<dyn Bot + Send>;
/// let report = run_match_of(("greedy", &greedy), ("random", &random), &MatchOptions::new(2, 1), |_, _, _| {})?;
/// assert_eq!(report.stats.games, 2);
/// # Ok::<(), agon_bots::arena::MatchError>(())
/// ```
pub fn run_match_of(
    (a, make_a): (&str, BotFactory<'_>),
    (b, make_b): (&str, BotFactory<'_>),
    options: &MatchOptions,
    mut progress: impl FnMut(u32, Side, &GameResult),
) -> Result<MatchReport, MatchError> {
    let next = AtomicU32::new(0);
    let stop = AtomicBool::new(false);
    let first_failure = AtomicU32::new(u32::MAX);
    let (sender, receiver) = mpsc::channel();
    let mut report = MatchReport {
        a: a.to_string(),
        b: b.to_string(),
        stats: MatchStats::default(),
        longest_move: [Duration::ZERO; 2],
        sprt: None,
        forfeits: Vec::new(),
        records: Vec::new(),
    };
    let clock = options.time_control().and_then(|tc| tc.clock());
    let mut failed = None;
    std::thread::scope(|scope| {
        for _ in 0..options.concurrency.max(1) {
            let sender = sender.clone();
            let (next, stop, first_failure) = (&next, &stop, &first_failure);
            scope.spawn(move || loop {
                let i = next.fetch_add(1, AtomicOrdering::Relaxed);
                // Games before a failed one are still played, for the failure reported
                // to be the first in game order.
                if i >= options.games
                    || i > first_failure.load(AtomicOrdering::Relaxed)
                    || stop.load(AtomicOrdering::Relaxed)
                {
                    break;
                }
                let start = if options.book.is_empty() {
                    Position::start_with_rules(options.rules)
                } else {
                    let opening = options.book[(i / 2) as usize % options.book.len()];
                    // A book position that cannot be put under the rules (both sides
                    // holding captured pieces, under rules without traps) starts nothing:
                    // the start position stands in.
                    crate::book::under_rules(&[opening], options.rules)
                        .first()
                        .copied()
                        .unwrap_or_else(|| Position::start_with_rules(options.rules))
                };
                // A plays the side to move in even games, the other in odd ones.
                let a_side = if i % 2 == 0 {
                    start.turn()
                } else {
                    start.turn().other()
                };
                let (seed_a, seed_b) = bot_seeds(options.seed, i, a_side);
                let mut bot_a = make_a(seed_a);
                let mut bot_b = make_b(seed_b);
                let max = options.max_plies;
                let played = match a_side {
                    Side::White => play_one(bot_a.as_mut(), bot_b.as_mut(), &start, max, clock),
                    Side::Black => play_one(bot_b.as_mut(), bot_a.as_mut(), &start, max, clock),
                };
                if played.is_err() {
                    // The match ends at its first failed game: none after it is started.
                    first_failure.fetch_min(i, AtomicOrdering::Relaxed);
                }
                if sender.send((i, a_side, played)).is_err() {
                    break;
                }
            });
        }
        drop(sender);
        // Results arrive in any order; they are counted in game order.
        // Every game before a failed one is played and arrives: the failure reported is
        // the first in game order.
        let mut pending = std::collections::BTreeMap::new();
        let mut counted = 0;
        'games: for (i, a_side, played) in receiver {
            pending.insert(i, (a_side, played));
            while let Some((a_side, played)) = pending.remove(&counted) {
                let played = match played {
                    Ok(played) => played,
                    Err(error) => {
                        failed = Some(MatchError::Game {
                            game: counted,
                            error,
                        });
                        break 'games;
                    }
                };
                let result = played.result;
                report.stats.record(a_side, &result);
                // Longest moves by colour, turned to A's and B's.
                let (la, lb) = match a_side {
                    Side::White => (played.longest[0], played.longest[1]),
                    Side::Black => (played.longest[1], played.longest[0]),
                };
                report.longest_move[0] = report.longest_move[0].max(la);
                report.longest_move[1] = report.longest_move[1].max(lb);
                if let (Some((side, _)), Some(forfeit)) = (result.forfeit, &played.forfeit) {
                    report.forfeits.push(GameForfeit {
                        game: counted,
                        a: side == a_side,
                        forfeit: forfeit.clone(),
                    });
                }
                if options.records {
                    let names = match a_side {
                        Side::White => [a, b],
                        Side::Black => [b, a],
                    };
                    report.records.push(game_record(&played, counted, names));
                }
                progress(counted, a_side, &result);
                counted += 1;
                if let Some(sprt) = options.sprt {
                    let s = &report.stats;
                    let llr = sprt.llr(s.wins, s.draws, s.losses);
                    let decision = sprt.decision(s.wins, s.draws, s.losses);
                    report.sprt = Some((sprt, llr, decision));
                    // Decided after a whole pair: the games still being played are
                    // dropped.
                    if counted % 2 == 0 && decision != Decision::Continue {
                        stop.store(true, AtomicOrdering::Relaxed);
                        break 'games;
                    }
                }
            }
        }
        // Breaking out drops the receiver: the threads stop at their next send.
    });
    failed.map_or(Ok(report), Err)
}
