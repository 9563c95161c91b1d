//! Reference bots for **Agon** and an arena to measure
//! them, built on the public API of [`agon_core`] only.
//!
//! | bot | spec for [`bot_by_name`] | how it plays |
//! |---|---|---|
//! | [`RandomBot`] | `random` | a uniformly random legal move |
//! | [`GreedyBot`] | `greedy` | one ply: the move whose result [`eval::evaluate`] likes best |
//! | [`MctsBot`] | `mcts:PLAYOUTS` | UCT with uniformly random playouts to the end of the game |
//! | [`AlphaBetaBot`] | `alphabeta:DEPTH` | iterative-deepening alpha-beta with a transposition table |
//! | [`Engine`] | `engine:100ms`, `engine:n50000` ([`Engine::from_spec`]) | the strong player: principal-variation search under a clock or a node budget, with an [`analysis`] API |
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
//! # Ok::<(), String>(())
//! ```
//!
//! # Errors, budgets and bounds
//!
//! No input makes a constructor, a builder or [`bot_by_name`] panic, and a bot that was
//! built returns a legal move in every position that has one (`None` once the game is
//! over), whatever its budget, seed or time limit:
//!
//! - [`bot_by_name`] returns an error message for a spec it cannot read: an unknown bot,
//!   a number out of range, a missing or extra part, or a spec longer than
//!   [`MAX_SPEC_LEN`] bytes (refused before it is read).
//! - Out-of-range numbers given to the constructors are brought into range, as their
//!   docs say: at least one playout ([`MctsBot::new`]), a depth from 1 to
//!   [`AlphaBetaBot::MAX_DEPTH`] ([`AlphaBetaBot::new`]).
//! - **Memory** is bounded whatever the budget: an [`MctsBot`] tree holds at most
//!   [`MctsBot::MAX_TREE_NODES`] nodes (about 64 MiB; past it the search goes on with
//!   playouts from the leaves it has), an [`AlphaBetaBot`] uses a fixed table of about
//!   3 MiB and a search path of at most [`AlphaBetaBot::MAX_DEPTH`] plies.
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

pub mod alphabeta;
pub mod analysis;
pub mod arena;
pub mod book;
pub mod engine;
pub mod eval;
pub mod greedy;
pub mod mcts;
pub mod random_bot;
pub mod sprt;

pub use alphabeta::AlphaBetaBot;
pub use engine::Engine;
pub use greedy::GreedyBot;
pub use mcts::MctsBot;
pub use random_bot::RandomBot;

/// A player of Agon: given a position (or a whole game, for bots that care about
/// repetition), it chooses a legal move.
///
/// Implementations must return a legal move whenever there is one, and `None` only when
/// there is none (the game is over).
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
    /// statistics; [`MctsBot`] gives its root's visit counts and value.
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
    /// least 1), in the order of `legal_moves`; moves not visited are left out.
    pub visits: Vec<(Move, u32)>,
    /// The search's value of the position for the side to move, from -1 (a sure loss)
    /// to 1 (a sure win).
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

/// The longest spec [`bot_by_name`] reads, in bytes: longer ones are refused before they
/// are read (the longest meaningful spec, `alphabeta:64:18446744073709551615ms`, has 35).
///
/// ```
/// use agon_bots::{bot_by_name, MAX_SPEC_LEN};
/// let padded = format!("mcts:{:0>1$}", 7, MAX_SPEC_LEN - 5);
/// assert_eq!(bot_by_name(&padded, 0)?.name(), "mcts:7");
/// let too_long = format!("mcts:{:0>1$}", 7, MAX_SPEC_LEN - 4);
/// assert_eq!(
///     bot_by_name(&too_long, 0).err().as_deref(),
///     Some("bot spec too long: 65 bytes, at most 64")
/// );
/// # Ok::<(), String>(())
/// ```
pub const MAX_SPEC_LEN: usize = 64;

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

/// Builds a reference bot from its spec: `random`, `greedy`, `mcts:PLAYOUTS` or
/// `alphabeta:DEPTH` (`mcts` alone means 2000 playouts, `alphabeta` alone depth 5), or the
/// [`Engine`] from an `engine` spec (read by [`Engine::from_spec`]: `engine:100ms`). A
/// time limit in milliseconds may follow for the searching bots: `mcts:100000:500ms`,
/// `alphabeta:20:1000ms`; the bot then stops at whichever limit comes first, and is no
/// longer deterministic.
///
/// # Errors
///
/// A message naming the fault, for a spec longer than [`MAX_SPEC_LEN`] bytes, an unknown
/// bot, a budget to a bot that takes none, too many parts, or a number that is not a
/// decimal in range: PLAYOUTS from 1 to `u32::MAX`, DEPTH from 1 to
/// [`AlphaBetaBot::MAX_DEPTH`], a time limit from `0ms` to `18446744073709551615ms`
/// (`u64::MAX`). Reading a spec never panics, and reads at most [`MAX_SPEC_LEN`] bytes.
///
/// ```
/// use agon_bots::bot_by_name;
///
/// assert_eq!(bot_by_name("mcts:500", 1)?.name(), "mcts:500");
/// assert_eq!(bot_by_name("alphabeta", 1)?.name(), "alphabeta:5");
/// assert_eq!(bot_by_name("alphabeta:9:250ms", 1)?.name(), "alphabeta:9:250ms");
/// assert_eq!(bot_by_name("mcts:4294967295:18446744073709551615ms", 1)?.name(), "mcts:4294967295:18446744073709551615ms");
/// assert_eq!(
///     bot_by_name("minimax", 1).err().as_deref(),
///     Some("unknown bot \"minimax\": expected random, greedy, mcts:PLAYOUTS, alphabeta:DEPTH or engine:TIME")
/// );
/// assert_eq!(
///     bot_by_name("mcts:lots", 1).err().as_deref(),
///     Some("bad number \"lots\" in bot \"mcts:lots\"")
/// );
/// assert!(bot_by_name("mcts:4294967296", 1).is_err());
/// assert!(bot_by_name("alphabeta:5:18446744073709551616ms", 1).is_err());
/// # Ok::<(), String>(())
/// ```
pub fn bot_by_name(spec: &str, seed: u64) -> Result<Box<dyn Bot + Send>, String> {
    if spec.len() > MAX_SPEC_LEN {
        return Err(format!(
            "bot spec too long: {} bytes, at most {MAX_SPEC_LEN}",
            spec.len()
        ));
    }
    if spec.trim().split(':').next() == Some("engine") {
        return Ok(Box::new(Engine::from_spec(spec.trim())?));
    }
    let mut parts = spec.trim().split(':');
    let kind = parts.next().unwrap_or("");
    let number = |text: Option<&str>, default: u32| -> Result<u32, String> {
        match text {
            None => Ok(default),
            Some(t) => t
                .parse::<u32>()
                .map_err(|_| format!("bad number {t:?} in bot {spec:?}")),
        }
    };
    let budget = parts.next();
    let time = match parts.next() {
        None => None,
        Some(t) => {
            let ms = t
                .strip_suffix("ms")
                .and_then(|n| n.parse::<u64>().ok())
                .ok_or_else(|| {
                    format!("bad time limit {t:?} in bot {spec:?}: expected like 500ms")
                })?;
            Some(Duration::from_millis(ms))
        }
    };
    if parts.next().is_some() {
        return Err(format!("too many parts in bot {spec:?}"));
    }
    let no_budget = |name: &str| -> Result<(), String> {
        if budget.is_some() {
            Err(format!("bot {name} takes no budget, in {spec:?}"))
        } else {
            Ok(())
        }
    };
    match kind {
        "random" => {
            no_budget("random")?;
            Ok(Box::new(RandomBot::new(seed)))
        }
        "greedy" => {
            no_budget("greedy")?;
            Ok(Box::new(GreedyBot::new(seed)))
        }
        "mcts" => {
            let playouts = number(budget, MctsBot::DEFAULT_PLAYOUTS)?;
            if playouts == 0 {
                return Err(format!("bot {spec:?} needs at least one playout"));
            }
            let bot = MctsBot::new(playouts, seed);
            Ok(Box::new(match time {
                Some(d) => bot.with_time_limit(d),
                None => bot,
            }))
        }
        "alphabeta" => {
            let depth = number(budget, AlphaBetaBot::DEFAULT_DEPTH)?;
            if depth == 0 || depth > AlphaBetaBot::MAX_DEPTH {
                return Err(format!(
                    "bot {spec:?} needs a depth from 1 to {}",
                    AlphaBetaBot::MAX_DEPTH
                ));
            }
            let bot = AlphaBetaBot::new(depth, seed);
            Ok(Box::new(match time {
                Some(d) => bot.with_time_limit(d),
                None => bot,
            }))
        }
        _ => Err(format!(
            "unknown bot {spec:?}: expected random, greedy, mcts:PLAYOUTS, alphabeta:DEPTH or engine:TIME"
        )),
    }
}

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
