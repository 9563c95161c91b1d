//! Reference bots for **Agon**, a terminal game against them, and an arena to measure
//! them, built on the public API of [`agon_core`] only.
//!
//! | bot | spec for [`bot_by_name`] | how it plays |
//! |---|---|---|
//! | [`RandomBot`] | `random` | a uniformly random legal move |
//! | [`GreedyBot`] | `greedy` | one ply: the move whose result [`eval::evaluate`] likes best |
//! | [`MctsBot`] | `mcts:PLAYOUTS` | UCT with uniformly random playouts to the end of the game |
//! | [`AlphaBetaBot`] | `alphabeta:DEPTH` | iterative-deepening alpha-beta with a transposition table |
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
#![forbid(unsafe_code)]
#![warn(missing_docs)]

use agon_core::{Game, Move, Position};

pub mod alphabeta;
pub mod arena;
pub mod eval;
pub mod greedy;
pub mod mcts;
pub mod random_bot;
pub mod terminal;

pub use alphabeta::AlphaBetaBot;
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

/// Builds a reference bot from its spec: `random`, `greedy`, `mcts:PLAYOUTS` or
/// `alphabeta:DEPTH` (`mcts` alone means 2000 playouts, `alphabeta` alone depth 5). A
/// time limit in milliseconds may follow for the searching bots: `mcts:100000:500ms`,
/// `alphabeta:20:1000ms`; the bot then stops at whichever limit comes first, and is no
/// longer deterministic.
///
/// ```
/// use agon_bots::bot_by_name;
///
/// assert_eq!(bot_by_name("mcts:500", 1)?.name(), "mcts:500");
/// assert_eq!(bot_by_name("alphabeta", 1)?.name(), "alphabeta:5");
/// assert_eq!(bot_by_name("alphabeta:9:250ms", 1)?.name(), "alphabeta:9:250ms");
/// assert_eq!(
///     bot_by_name("minimax", 1).err().as_deref(),
///     Some("unknown bot \"minimax\": expected random, greedy, mcts:PLAYOUTS or alphabeta:DEPTH")
/// );
/// assert_eq!(
///     bot_by_name("mcts:lots", 1).err().as_deref(),
///     Some("bad number \"lots\" in bot \"mcts:lots\"")
/// );
/// # Ok::<(), String>(())
/// ```
pub fn bot_by_name(spec: &str, seed: u64) -> Result<Box<dyn Bot + Send>, String> {
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
            Some(std::time::Duration::from_millis(ms))
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
            "unknown bot {spec:?}: expected random, greedy, mcts:PLAYOUTS or alphabeta:DEPTH"
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
pub(crate) fn spec_name(kind: &str, budget: u32, limit: Option<std::time::Duration>) -> String {
    match limit {
        Some(d) => format!("{kind}:{budget}:{}ms", d.as_millis()),
        None => format!("{kind}:{budget}"),
    }
}
