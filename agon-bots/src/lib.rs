//! Reference bots for **Agon** and an arena to measure
//! them, built on the public API of [`agon_core`] only (how the crates fit together, and
//! where each fact lives: `ARCHITECTURE.md` at the repository root).
//!
//! | bot | spec for [`bot_by_name`] | how it plays |
//! |---|---|---|
//! | [`RandomBot`] | `random` | a uniformly random legal move |
//! | [`GreedyBot`] | `greedy` | one ply: the move whose result [`eval::evaluate`] likes best |
//! | [`MctsBot`] | `mcts:PLAYOUTS` | UCT with uniformly random playouts to the end of the game (repetition included, R11) |
//! | [`AlphaBetaBot`] | `alphabeta:DEPTH` | iterative-deepening alpha-beta with a transposition table |
//! | [`ugi::UgiBot`] | `ugi:n5000:./my-engine` ([`ugi::UgiSpec`]) | any engine process that speaks UGI, checked move by move |
//! | [`Engine`] | `engine:100ms`, `engine:n50000` ([`Engine::from_spec`]) | the strong player: principal-variation search under a clock or a node budget, with an analysis API ([`analyse`], [`Engine::analyse`]) |
//! | `AzBot` (cargo feature `az`) | `az:MODEL:VISITS` ([`AzSpec`]) | AlphaZero's PUCT search guided by a policy-value network read from safetensors |
//!
//! Every bot is deterministic under its seed: the same seed and the same position (or
//! game) give the same move, whatever the bot was asked before, unless a time limit is
//! set. Implement [`Bot`] to measure your own bot against these in the [`arena`].
//!
//! ```
//! use agon_bots::{bot_by_name, Bot};
//! use agon_core::Game;
//!
//! let mut bot = bot_by_name("alphabeta:2", 7)?;
//! let game = Game::new();
//! let m = bot.choose_in_game(&game).expect("the start has legal moves");
//! assert!(game.is_legal(m));
//! # Ok::<(), agon_bots::SpecError>(())
//! ```
//!
//! # What is where
//!
//! Each type and function has one path. The types are at the crate root; a module is
//! public only where it groups a family of items that you browse together, and whose
//! names would be vague at the root (`standard`, `evaluate`, `WEIGHTS`):
//!
//! - [`arena`]: playing games and matches between bots, with their options, statistics
//!   and reports ([`arena::run_match_with`], [`arena::MatchOptions`],
//!   [`arena::MatchReport`]);
//! - [`book`]: opening books of balanced start positions ([`book::standard`]);
//! - [`eval`]: the evaluation of the greedy and alpha-beta bots, term by term;
//! - [`engine_eval`]: the engine's evaluation, its features and fitted weights.
//!
//! | concept | items | source |
//! |---|---|---|
//! | a player, its search statistics, and building one from its spec | [`Bot`], [`SearchStats`], [`bot_by_name`], [`BotSpec`], [`BotKind`], [`EngineOptions`], [`SpecError`], [`SpecNumber`], [`MAX_SPEC_LEN`], [`MAX_TIME_LIMIT`] | `lib.rs`, `spec.rs` |
//! | the reference bots | [`RandomBot`], [`GreedyBot`], [`MctsBot`], [`AlphaBetaBot`] | `random_bot.rs`, `greedy.rs`, `mcts.rs`, `alphabeta.rs` |
//! | the engine, its limits and its search techniques | [`Engine`], [`Limits`], [`Technique`], [`Techniques`] | `engine/` |
//! | the analysis API | [`analyse`], [`Analysis`], [`Line`], [`Evaluation`], [`Analysable`], [`AnalysisError`] | `engine/analysis.rs`, `engine/mod.rs` |
//! | game review: each position's evaluation, each action judged | [`review()`], [`review_with_progress`], [`Review`], [`PositionReview`], [`PlyReview`], [`Judgement`], [`Tally`] | `review.rs` |
//! | the sequential probability ratio test, and Elo | [`Sprt`], [`Decision`], [`SprtError`], [`expected_score`], [`elo_of_score`] | `sprt.rs` |
//! | matches between bots | [`arena`] | `arena.rs` |
//! | engine processes that speak UGI, their forfeits and clocks | [`ugi`], [`Forfeit`], [`ForfeitKind`], [`Clock`] | `ugi.rs` |
//! | opening books | [`book`] | `book.rs` |
//! | the evaluations | [`eval`], [`engine_eval`] | `eval.rs`, `engine/eval.rs` |
//!
//! # Errors, budgets and bounds
//!
//! No input makes a constructor, a builder or [`bot_by_name`] panic, and a bot that was
//! built returns a legal move in every position that has one (`None` once the game is
//! over), whatever its budget, seed or time limit:
//!
//! - [`bot_by_name`] returns a [`SpecError`] for a spec it cannot read: an unknown bot,
//!   a number out of range, an extra part, or a spec longer than [`MAX_SPEC_LEN`] bytes
//!   (refused before it is read).
//! - Out-of-range numbers given to the constructors are brought into range, as their
//!   docs say: at least one playout ([`MctsBot::new`]), a depth from 1 to
//!   [`AlphaBetaBot::MAX_DEPTH`] ([`AlphaBetaBot::new`]).
//! - **Memory** is bounded whatever the budget: an [`MctsBot`] tree holds at most
//!   [`MctsBot::MAX_TREE_NODES`] nodes ([`MctsBot::MAX_TREE_BYTES`], 64 MiB; past it the
//!   search goes on with playouts from the leaves it has), an [`AlphaBetaBot`] uses a
//!   fixed table of [`AlphaBetaBot::TABLE_BYTES`] (3 MiB) and a search path of at most
//!   [`AlphaBetaBot::MAX_DEPTH`] plies.
//! - **Time** grows with the budget, in proportion to the playouts and exponentially
//!   with the depth: `alphabeta:64` or `mcts:4294967295` would think for days, so give
//!   them a time limit (`with_time_limit`, or `:500ms` in a spec). Any [`Duration`] is
//!   accepted: a limit above [`MAX_TIME_LIMIT`] is lowered to it, and a deadline too far
//!   for the clock to represent means no deadline.
//!
//! ```
//! use std::time::Duration;
//! use agon_bots::{bot_by_name, AlphaBetaBot, Bot, MctsBot};
//! use agon_core::Position;
//!
//! // Absurd limits are accepted and change nothing that matters.
//! let bot = AlphaBetaBot::new(u32::MAX, 1).with_time_limit(Duration::MAX);
//! assert_eq!(bot.name(), "alphabeta:64:18446744073709551615ms");
//! let mut bot = AlphaBetaBot::new(2, 1).with_time_limit(Duration::MAX);
//! assert_eq!(bot.choose(&Position::start()), AlphaBetaBot::new(2, 1).choose(&Position::start()));
//! let mut bot = MctsBot::new(u32::MAX, 1).with_time_limit(Duration::from_millis(5));
//! assert!(bot.choose(&Position::start()).is_some());
//! // Specs out of range are errors, not panics.
//! assert!(bot_by_name("mcts:99999999999999999999", 1).is_err());
//! assert!(bot_by_name(&"mcts:1".repeat(1000), 1).is_err());
//! ```
#![forbid(unsafe_code)]
#![warn(missing_docs)]

use std::time::{Duration, Instant};

use agon_core::{Game, Move, Position};

mod alphabeta;
pub mod arena;
#[cfg(feature = "az")]
mod az;
mod az_spec;
pub mod book;
mod engine;
pub mod eval;
mod greedy;
mod mcts;
mod random_bot;
mod review;
mod search_core;
mod spec;
mod sprt;
pub mod ugi;

pub use alphabeta::AlphaBetaBot;
#[cfg(feature = "az")]
pub use az::{AzBot, Network, NetworkError, Prediction, MAX_MODEL_BYTES};
pub use az_spec::AzSpec;
pub use engine::eval as engine_eval;
#[allow(deprecated)]
pub use engine::Score;
pub use engine::{
    analyse, Analysable, Analysis, AnalysisError, Engine, Evaluation, Limits, Line, MoveBudget,
    SearchControl, Technique, Techniques,
};
pub use greedy::GreedyBot;
pub use mcts::MctsBot;
pub use random_bot::RandomBot;
pub use review::{
    review, review_with_progress, Judgement, PlyReview, PositionReview, Review, Tally,
};
pub use spec::{bot_by_name, BotKind, BotSpec, EngineOptions, SpecError, SpecNumber, MAX_SPEC_LEN};
pub use sprt::{elo_of_score, expected_score, Decision, Sprt, SprtError};
pub use ugi::{Clock, Forfeit, ForfeitKind};

/// A player of Agon: given a position (or a whole game, for bots that care about
/// repetition), it chooses a legal move.
///
/// Implementations must return a legal move whenever there is one, and `None` only when
/// there is none (the game is over). A bot plays for the player to act, the chooser
/// ([`Position::chooser`]): the side to move, but under `queen-placer=captor` the
/// opponent of a side that must return its captured queen, who places her. Positions
/// and games carry their rule set ([`agon_core::Rules`]); every bot of this crate plays
/// every rule set, passes included, and scores the ends the rules give (the two-pass
/// draw, the move limit counted from the game's start, no repetition draw under
/// `repetition=off`).
///
/// ```
/// use agon_bots::Bot;
/// use agon_core::{Move, Position};
///
/// /// Always plays the first legal move.
/// struct FirstMove;
///
/// impl Bot for FirstMove {
///     fn name(&self) -> String {
///         "first".to_string()
///     }
///     fn choose(&mut self, position: &Position) -> Option<Move> {
///         position.legal_moves().first().copied()
///     }
/// }
///
/// let m = FirstMove.choose(&Position::start());
/// assert_eq!(m.map(|m| m.to_string()).as_deref(), Some("a5-a4"));
/// ```
pub trait Bot {
    /// A short name, the spec [`bot_by_name`] reads for the reference bots
    /// (`"mcts:2000"`).
    fn name(&self) -> String;

    /// Chooses a legal move in `position`, or returns `None` when there is none.
    fn choose(&mut self, position: &Position) -> Option<Move>;

    /// Chooses a legal move in the current position of `game`, which knows the history
    /// (and so repetition, R11). The default ignores the history and calls
    /// [`Bot::choose`]; it returns `None` when the game is over.
    ///
    /// ```
    /// use agon_bots::{Bot, RandomBot};
    /// use agon_core::Game;
    /// let m = RandomBot::new(1).choose_in_game(&Game::new());
    /// assert!(m.is_some());
    /// ```
    fn choose_in_game(&mut self, game: &Game) -> Option<Move> {
        unless_over(game, |position, _| self.choose(position))
    }

    /// Chooses a move as [`Bot::choose_in_game`] does, with the statistics of the search
    /// that chose it when the bot has them (what a dataset stores next to the move to
    /// train a policy and a value); `None` once the game is over. The default has no
    /// statistics; [`MctsBot`] gives its root's visit counts and value, [`AlphaBetaBot`]
    /// its move and score.
    ///
    /// ```
    /// use agon_bots::{Bot, MctsBot, RandomBot};
    /// use agon_core::Game;
    ///
    /// let game = Game::new();
    /// let (m, stats) = RandomBot::new(1).choose_with_stats(&game).unwrap();
    /// assert_eq!((Some(m), stats), (RandomBot::new(1).choose_in_game(&game), None));
    /// let (m, stats) = MctsBot::new(100, 1).choose_with_stats(&game).unwrap();
    /// let stats = stats.expect("MCTS has statistics");
    /// assert_eq!(stats.visits.iter().map(|&(_, n)| n).sum::<u32>(), 100);
    /// assert_eq!(Some(m), MctsBot::new(100, 1).choose_in_game(&game));
    /// ```
    fn choose_with_stats(&mut self, game: &Game) -> Option<(Move, Option<SearchStats>)> {
        self.choose_in_game(game).map(|m| (m, None))
    }

    /// Gives the bot the game clock before a move (`None`: no clock), as the arena does
    /// under a clock time control. The default ignores it: the bots of this crate think
    /// under their own limits; a UGI engine ([`ugi::UgiBot`]) passes it in `go`.
    ///
    /// ```
    /// use std::time::Duration;
    /// use agon_bots::{Bot, Clock, RandomBot};
    /// let mut bot = RandomBot::new(1);
    /// bot.set_clock(Some(Clock::new(Duration::from_secs(1), Duration::ZERO)));
    /// assert!(bot.choose(&agon_core::Position::start()).is_some());
    /// ```
    fn set_clock(&mut self, clock: Option<Clock>) {
        let _ = clock;
    }

    /// Why the bot gave no move in a game that goes on, when that loses the game rather
    /// than stops the match: a UGI engine that crashed, hung, answered late or with an
    /// illegal or unreadable move ([`Forfeit`]). Taken once: the next call returns `None`.
    /// The default, for bots that never forfeit, is `None`.
    ///
    /// ```
    /// use agon_bots::{Bot, RandomBot};
    /// assert_eq!(RandomBot::new(1).forfeit(), None);
    /// ```
    fn forfeit(&mut self) -> Option<Forfeit> {
        None
    }
}

/// The statistics of the search that chose a move ([`Bot::choose_with_stats`]): the
/// visit counts of the root's moves (a policy target) and the search's value of the
/// position (a value target).
///
/// ```
/// use agon_bots::{Bot, MctsBot};
/// use agon_core::Game;
///
/// let game = Game::new();
/// let (m, stats) = MctsBot::new(300, 4).choose_with_stats(&game).unwrap();
/// let stats = stats.unwrap();
/// // Each visited move once, legal; the move played is the most visited.
/// assert!(stats.visits.iter().all(|&(v, n)| game.is_legal(v) && n > 0));
/// let most = stats.visits.iter().map(|&(_, n)| n).max();
/// assert_eq!(stats.visits.iter().find(|&&(v, _)| v == m).map(|&(_, n)| n), most);
/// assert!((-1.0..=1.0).contains(&stats.value));
/// ```
#[derive(Clone, PartialEq, Debug)]
pub struct SearchStats {
    /// Each move of the position that the search visited, with its visit count (at
    /// least 1), in the order of `legal_moves`; moves not visited are left out. For the
    /// az bot's Gumbel search (`gK`), the weight of each move in its improved policy, in
    /// millionths (moves that round to 0 left out): a policy target, as visit counts are
    /// once normalised.
    pub visits: Vec<(Move, u32)>,
    /// The search's value of the position for the player to act (the chooser,
    /// [`Position::chooser`]: the side to move but for a queen placed by her captor), from
    /// -1 (a sure loss) to 1 (a sure win).
    pub value: f64,
}

/// `choose(position, ply)` for the game's current position and move count, or `None` once
/// the game is over (its position may still have moves: repetition is the game's rule).
pub(crate) fn unless_over(
    game: &Game,
    choose: impl FnOnce(&Position, usize) -> Option<Move>,
) -> Option<Move> {
    if game.is_over() {
        None
    } else {
        choose(game.position(), game.moves().len())
    }
}

/// The longest time limit a bot keeps: `u64::MAX` milliseconds (about 585 million
/// years), the largest that [`bot_by_name`] reads. `with_time_limit` lowers a longer limit
/// to this one, so that every bot's name is a spec [`bot_by_name`] reads.
///
/// ```
/// use std::time::Duration;
/// use agon_bots::{Bot, MctsBot, MAX_TIME_LIMIT};
/// assert_eq!(MAX_TIME_LIMIT.as_millis(), u128::from(u64::MAX));
/// let bot = MctsBot::new(10, 0).with_time_limit(Duration::MAX);
/// assert_eq!(bot.name(), "mcts:10:18446744073709551615ms");
/// ```
pub const MAX_TIME_LIMIT: Duration = Duration::from_millis(u64::MAX);

/// The Rust examples of the crate's README, run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;

/// A generator for one decision: mixes the bot's seed with the position's hash and the
/// number of moves played before it (0 for a lone position), so a bot's choice depends
/// only on its seed and what it is shown, not on earlier calls. The ply matters: were it
/// left out, a position that comes back would get the same move again, and games would
/// fall into cycles that end in repetition draws.
pub(crate) fn decision_rng(seed: u64, position: &Position, ply: usize) -> agon_core::random::Rng {
    // One SplitMix64 step scrambles the inputs so that nearby seeds and plies give
    // unrelated streams.
    let mixed =
        position.hash() ^ seed.rotate_left(32) ^ (ply as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    let mut mixer = agon_core::random::Rng::new(mixed);
    agon_core::random::Rng::new(mixer.next_u64() ^ seed)
}

/// The name of a searching bot with its budget and optional time limit.
pub(crate) fn spec_name(kind: &str, budget: u32, limit: Option<Duration>) -> String {
    match limit {
        Some(d) => format!("{kind}:{budget}:{}ms", d.as_millis()),
        None => format!("{kind}:{budget}"),
    }
}

/// The deadline of a search started now with this time limit: `None` without a limit, and
/// also when the clock cannot represent the instant (a limit of centuries, which no search
/// reaches). `Instant::now() + limit` panicked there.
pub(crate) fn deadline(limit: Option<Duration>) -> Option<Instant> {
    limit.and_then(|limit| Instant::now().checked_add(limit))
}
