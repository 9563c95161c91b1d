//! The reference bots of agon-bots, as `agon.bots`: each chooses a move without holding
//! the GIL, so other Python threads run while it thinks.

use std::sync::Mutex;
use std::time::Duration;

use agon_bots::{AlphaBetaBot, Bot, GreedyBot, MctsBot, RandomBot};
use agon_core as ac;
use pyo3::exceptions::{PyRuntimeError, PyTypeError, PyValueError};
use pyo3::prelude::*;

use crate::game::GamePy;
use crate::position::PositionPy;
use crate::types::{move_obj, MovePy};

/// A bot: `choose(position_or_game)` returns a legal move, or `None` when there is none.
///
/// Build one with `agon.bots.Random(seed)`, `Greedy(seed)`, `MCTS(playouts, seed)`,
/// `AlphaBeta(depth, seed)` or `Bot.from_name("mcts:500", seed)`. A bot is deterministic
/// under its seed unless given a time limit. Given a `Game`, a bot sees its history (and so
/// repetition); given a `Position`, only the position.
#[pyclass(subclass, module = "agon.bots", name = "Bot")]
pub struct BotPy {
    bot: Mutex<Box<dyn Bot + Send>>,
}

impl BotPy {
    fn new(bot: Box<dyn Bot + Send>) -> BotPy {
        BotPy {
            bot: Mutex::new(bot),
        }
    }

    fn with<R>(&self, f: impl FnOnce(&mut dyn Bot) -> R) -> PyResult<R> {
        let mut bot = self
            .bot
            .lock()
            .map_err(|_| PyRuntimeError::new_err("the bot failed in an earlier call"))?;
        Ok(f(bot.as_mut()))
    }
}

fn time_limit(seconds: Option<f64>) -> PyResult<Option<Duration>> {
    seconds
        .map(|s| {
            Duration::try_from_secs_f64(s).map_err(|_| {
                PyValueError::new_err("time_limit is a non-negative number of seconds")
            })
        })
        .transpose()
}

#[pymethods]
impl BotPy {
    /// A reference bot from its spec: `random`, `greedy`, `mcts:PLAYOUTS` or
    /// `alphabeta:DEPTH`, optionally followed by a time limit like `:500ms`.
    #[staticmethod]
    #[pyo3(signature = (spec, seed = 0))]
    fn from_name(spec: &str, seed: u64) -> PyResult<BotPy> {
        agon_bots::bot_by_name(spec, seed)
            .map(BotPy::new)
            .map_err(PyValueError::new_err)
    }

    /// The bot's spec, like `"mcts:2000"`.
    #[getter]
    fn name(&self) -> PyResult<String> {
        self.with(|b| b.name())
    }

    /// Chooses a legal move in a `Position` or in the current position of a `Game`, or
    /// returns `None` when there is none. Thinks without holding the GIL.
    fn choose<'py>(
        &self,
        py: Python<'py>,
        position: &Bound<'py, PyAny>,
    ) -> PyResult<Option<Bound<'py, MovePy>>> {
        let chosen: Option<ac::Move> = if let Ok(p) = position.cast::<PositionPy>() {
            let p = p.get().0;
            py.detach(|| self.with(|b| b.choose(&p)))?
        } else if let Ok(g) = position.cast::<GamePy>() {
            let game = g.try_borrow()?.game.clone();
            py.detach(|| self.with(|b| b.choose_in_game(&game)))?
        } else {
            return Err(PyTypeError::new_err("choose() takes a Position or a Game"));
        };
        chosen.map(|m| move_obj(py, m)).transpose()
    }

    fn __repr__(&self) -> PyResult<String> {
        Ok(format!("Bot.from_name('{}')", self.name()?))
    }
}

/// Plays a uniformly random legal move.
#[pyclass(extends = BotPy, module = "agon.bots", name = "Random")]
pub struct RandomPy;

#[pymethods]
impl RandomPy {
    #[new]
    #[pyo3(signature = (seed = 0))]
    fn new(seed: u64) -> PyClassInitializer<RandomPy> {
        PyClassInitializer::from(BotPy::new(Box::new(RandomBot::new(seed)))).add_subclass(RandomPy)
    }
}

/// Looks one ply ahead and plays the move whose result the evaluation likes best.
#[pyclass(extends = BotPy, module = "agon.bots", name = "Greedy")]
pub struct GreedyPy;

#[pymethods]
impl GreedyPy {
    #[new]
    #[pyo3(signature = (seed = 0))]
    fn new(seed: u64) -> PyClassInitializer<GreedyPy> {
        PyClassInitializer::from(BotPy::new(Box::new(GreedyBot::new(seed)))).add_subclass(GreedyPy)
    }
}

/// Monte Carlo tree search (UCT) with `playouts` random playouts per move, optionally
/// stopped after `time_limit` seconds.
#[pyclass(extends = BotPy, module = "agon.bots", name = "MCTS")]
pub struct MctsPy;

#[pymethods]
impl MctsPy {
    #[new]
    #[pyo3(signature = (playouts = 2000, seed = 0, time_limit = None))]
    fn new(
        playouts: u32,
        seed: u64,
        time_limit: Option<f64>,
    ) -> PyResult<PyClassInitializer<MctsPy>> {
        let mut bot = MctsBot::new(playouts, seed);
        if let Some(limit) = self::time_limit(time_limit)? {
            bot = bot.with_time_limit(limit);
        }
        Ok(PyClassInitializer::from(BotPy::new(Box::new(bot))).add_subclass(MctsPy))
    }
}

/// Iterative-deepening alpha-beta search to `depth` plies, optionally stopped after
/// `time_limit` seconds.
#[pyclass(extends = BotPy, module = "agon.bots", name = "AlphaBeta")]
pub struct AlphaBetaPy;

#[pymethods]
impl AlphaBetaPy {
    #[new]
    #[pyo3(signature = (depth = 4, seed = 0, time_limit = None))]
    fn new(
        depth: u32,
        seed: u64,
        time_limit: Option<f64>,
    ) -> PyResult<PyClassInitializer<AlphaBetaPy>> {
        let mut bot = AlphaBetaBot::new(depth, seed);
        if let Some(limit) = self::time_limit(time_limit)? {
            bot = bot.with_time_limit(limit);
        }
        Ok(PyClassInitializer::from(BotPy::new(Box::new(bot))).add_subclass(AlphaBetaPy))
    }
}

/// Adds the bot classes to the native module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<BotPy>()?;
    m.add_class::<RandomPy>()?;
    m.add_class::<GreedyPy>()?;
    m.add_class::<MctsPy>()?;
    m.add_class::<AlphaBetaPy>()?;
    Ok(())
}
