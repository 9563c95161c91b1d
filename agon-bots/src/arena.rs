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
use agon_core::{ChoiceError, Game, Outcome, Position, Rules, Side};

use crate::{bot_by_name, elo_of_score, Bot, Decision, SpecError, Sprt};

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
/// # Ok::<(), agon_bots::arena::ArenaError>(())
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
/// ```
pub fn with_time_control(spec: &str, time: Duration) -> String {
    let spec = spec.trim();
    let ms = time.min(crate::MAX_TIME_LIMIT).as_millis();
    // A spec that does not read is returned unchanged, for the match to refuse it.
    match crate::BotSpec::parse(spec) {
        Ok(parsed) if parsed.kind.takes_time() && parsed.time.is_none() => match parsed.kind {
            crate::BotKind::Engine => format!("{spec}:{ms}ms"),
            _ => parsed.with_time(time).to_string(),
        },
        _ => spec.to_string(),
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
    let mut longest = [Duration::ZERO; 2];
    // The one loop that plays games (agon-core's, which agon-rl's datasets play through
    // too), and its one answer to a bot that breaks the rules: an error, here naming it.
    let played = Game::play_out(*start, max_plies, |game| {
        let side = game.position().chooser();
        let bot: &mut dyn Bot = match side {
            Side::White => &mut *white,
            Side::Black => &mut *black,
        };
        let began = Instant::now();
        let m = bot.choose_in_game(game);
        longest[side.index()] = longest[side.index()].max(began.elapsed());
        m
    });
    let game = played.map_err(|error| ArenaError {
        bot: match error.chooser() {
            Side::White => white.name(),
            Side::Black => black.name(),
        },
        error,
    })?;
    Ok((
        GameResult {
            outcome: game.outcome(),
            plies: game.moves().len(),
        },
        longest,
    ))
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
}

impl MatchReport {
    /// A's Elo advantage over B (logistic), with the bounds of its 95% interval, from the
    /// score and its interval ([`MatchStats::confidence_interval`]).
    ///
    /// ```
    /// use agon_bots::arena::{MatchReport, MatchStats};
    /// let stats = MatchStats { games: 100, wins: 50, draws: 0, losses: 50, capped: 0, plies: 0 };
    /// let report = MatchReport { a: "x".into(), b: "y".into(), stats, longest_move: Default::default(), sprt: None };
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

/// `A=.. B=.. <stats> elo=E [LOW, HIGH] capped%=.. longest_move_ms=[A, B]`, and the SPRT's
/// `llr=.. (LOWER, UPPER) decision` if one ran.
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
    let (a, b) = match options.time_per_move {
        Some(t) => (with_time_control(a, t), with_time_control(b, t)),
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
/// not applied (the factories set their own limits).
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
    };
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
                let played = match a_side {
                    Side::White => {
                        play_game_from(bot_a.as_mut(), bot_b.as_mut(), &start, options.max_plies)
                    }
                    Side::Black => {
                        play_game_from(bot_b.as_mut(), bot_a.as_mut(), &start, options.max_plies)
                            .map(|(r, l)| (r, [l[1], l[0]]))
                    }
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
                let (result, longest) = match played {
                    Ok(played) => played,
                    Err(error) => {
                        failed = Some(MatchError::Game {
                            game: counted,
                            error,
                        });
                        break 'games;
                    }
                };
                report.stats.record(a_side, &result);
                report.longest_move[0] = report.longest_move[0].max(longest[0]);
                report.longest_move[1] = report.longest_move[1].max(longest[1]);
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
