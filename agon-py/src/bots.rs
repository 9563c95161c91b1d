//! The reference bots of agon-bots, as `agon.bots`: each chooses a move without holding
//! the GIL, so other Python threads run while it thinks.

use std::hash::{Hash, Hasher};
use std::sync::Mutex;
use std::time::Duration;

use agon_bots::{AlphaBetaBot, Bot, BotKind, BotSpec, GreedyBot, MctsBot, RandomBot};
use agon_core as ac;
use pyo3::exceptions::{PyRuntimeError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::game::GamePy;
use crate::limits::{self, MAX_DEPTH, MAX_PLAYOUTS, MAX_TIME_LIMIT};
use crate::position::PositionPy;
use crate::types::{move_obj, Int, MovePy, Reduced};

/// A bot: `choose(position_or_game)` returns a legal move, or `None` when there is none.
///
/// Build one with `agon.bots.Random(seed)`, `Greedy(seed)`, `MCTS(playouts, seed)`,
/// `AlphaBeta(depth, seed)` or `Bot.from_name("mcts:500", seed)`. A bot is deterministic
/// under its seed unless given a time limit. Given a `Game`, a bot sees its history (and so
/// repetition); given a `Position`, only the position. Threads may share a bot: their
/// searches take turns.
///
/// A bot is its spec (`name`) and its `seed`: bots with both equal are equal (and hash
/// alike), and a bot pickles and copies as `Bot.from_name(name, seed)`. A bot keeps
/// nothing from one choice to the next (each depends only on its settings, its seed and
/// what it is shown), so a copy or an unpickled bot chooses exactly what the original
/// would, whatever the original chose before.
#[pyclass(subclass, frozen, eq, hash, module = "agon.bots", name = "Bot")]
pub struct BotPy {
    bot: Mutex<Box<dyn Bot + Send>>,
    /// The spec, read once: reading it from the bot would wait for a search to end.
    name: String,
    /// The seed the bot was made with.
    seed: u64,
}

/// Bots are equal when they have the same spec and seed, and so choose alike.
impl PartialEq for BotPy {
    fn eq(&self, other: &BotPy) -> bool {
        self.name == other.name && self.seed == other.seed
    }
}

impl Hash for BotPy {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.name.hash(state);
        self.seed.hash(state);
    }
}

impl BotPy {
    fn new(bot: Box<dyn Bot + Send>, seed: u64) -> BotPy {
        BotPy {
            name: bot.name(),
            bot: Mutex::new(bot),
            seed,
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

/// A time limit in seconds: see [`limits::seconds`].
pub struct TimeLimit(Duration);

impl<'a, 'py> FromPyObject<'a, 'py> for TimeLimit {
    type Error = PyErr;

    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<Self> {
        limits::seconds(obj, "time_limit").map(TimeLimit)
    }
}

/// A playout budget: 1 to `MAX_PLAYOUTS`.
fn playout_budget(playouts: i64) -> PyResult<u32> {
    u32::try_from(playouts)
        .ok()
        .filter(|p| (1..=MAX_PLAYOUTS).contains(p))
        .ok_or_else(|| {
            limits::out_of_range(
                "playouts",
                &format!("1 to MAX_PLAYOUTS ({MAX_PLAYOUTS})"),
                playouts,
            )
        })
}

/// A search depth: 1 to `MAX_DEPTH`.
fn search_depth(depth: i64) -> PyResult<u32> {
    u32::try_from(depth)
        .ok()
        .filter(|d| (1..=MAX_DEPTH).contains(d))
        .ok_or_else(|| {
            limits::out_of_range("depth", &format!("1 to MAX_DEPTH ({MAX_DEPTH})"), depth)
        })
}

/// Reads a bot spec with agon-bots' reader ([`agon_bots::BotSpec`]) and checks its
/// numbers against the bounds of the Python package (`MAX_PLAYOUTS`, `MAX_DEPTH`,
/// `MAX_TIME_LIMIT`, which are tighter than agon-bots'). `ValueError` for a spec agon-bots
/// refuses, or out of these bounds.
pub(crate) fn check_spec(spec: &str) -> PyResult<BotSpec> {
    let parsed = BotSpec::parse(spec).map_err(|e| PyValueError::new_err(e.to_string()))?;
    match (parsed.kind, parsed.budget) {
        (BotKind::Mcts, Some(playouts)) => {
            playout_budget(i64::from(playouts))?;
        }
        (BotKind::AlphaBeta, Some(depth)) => {
            search_depth(i64::from(depth))?;
        }
        _ => {}
    }
    if let Some(time) = parsed.time {
        if time.as_secs_f64() > MAX_TIME_LIMIT {
            return Err(limits::out_of_range(
                "the time limit",
                &format!("at most MAX_TIME_LIMIT ({MAX_TIME_LIMIT}) seconds"),
                format!("{}ms", time.as_millis()),
            ));
        }
    }
    Ok(parsed)
}

/// Checks any spec a bot can be made from: an `az` spec by making its bot (which reads its
/// network, so a missing or corrupt model is a `ValueError` here), any other with
/// [`check_spec`].
pub(crate) fn check_any_spec(spec: &str) -> PyResult<()> {
    // Neither reads a process or a file here: a `ugi:` spec's engine starts at its first
    // move.
    if agon_bots::AzSpec::is_az(spec) || agon_bots::ugi::UgiSpec::is_ugi(spec) {
        agon_bots::bot_by_name(spec, 0).map_err(|e| PyValueError::new_err(e.to_string()))?;
        Ok(())
    } else {
        check_spec(spec).map(|_| ())
    }
}

#[pymethods]
impl BotPy {
    /// A reference bot from its spec: `random`, `greedy`, `mcts:PLAYOUTS` or
    /// `alphabeta:DEPTH`, optionally followed by a time limit like `:500ms`; an instance of
    /// `Random`, `Greedy`, `MCTS` or `AlphaBeta`; or the network player
    /// `az:MODEL:VISITS[:noise][:tPLIES][:bBATCH][:cPERMILLE][:gK][:sPERMILLE]` (a `Bot`; MODEL a safetensors file of
    /// `agon.az` or a shipped network, `agon-az-2x32` or `agon-az-2x32-gumbel`); or a UGI engine process
    /// `ugi:[TIMEms:][nNODES:][dDEPTH:]COMMAND` (a `Bot`, see `agon.engine`). Raises `ValueError` for a spec it cannot
    /// read or out of the package's bounds, and for a model file that is missing, corrupt
    /// or of the wrong shape.
    #[staticmethod]
    #[pyo3(signature = (spec, seed = Int(0)), text_signature = "(spec, seed=0)")]
    fn from_name<'py>(py: Python<'py>, spec: &str, seed: Int<u64>) -> PyResult<Bound<'py, BotPy>> {
        if agon_bots::AzSpec::is_az(spec) || agon_bots::ugi::UgiSpec::is_ugi(spec) {
            // The network player, or a UGI engine process: a `Bot` of no subclass.
            let bot = agon_bots::bot_by_name(spec, seed.0)
                .map_err(|e| PyValueError::new_err(e.to_string()))?;
            return Bound::new(py, BotPy::new(bot, seed.0));
        }
        let spec = check_spec(spec)?;
        let base = BotPy::new(spec.bot(seed.0), seed.0);
        // The class of the bot's kind, so that `type(bot)` does not depend on how it was made.
        let base = PyClassInitializer::from(base);
        let made = match spec.kind {
            BotKind::Random => Bound::new(py, base.add_subclass(RandomPy))?.into_any(),
            BotKind::Greedy => Bound::new(py, base.add_subclass(GreedyPy))?.into_any(),
            BotKind::Mcts => Bound::new(py, base.add_subclass(MctsPy))?.into_any(),
            BotKind::AlphaBeta => Bound::new(py, base.add_subclass(AlphaBetaPy))?.into_any(),
            _ => Bound::new(py, base)?.into_any(),
        };
        Ok(made.cast_into::<BotPy>()?)
    }

    /// The bot's spec, like `"mcts:2000"` or `"alphabeta:5:500ms"`: every setting but the
    /// seed.
    #[getter]
    fn name(&self) -> String {
        self.name.clone()
    }

    /// The seed the bot was made with.
    #[getter]
    fn seed(&self) -> u64 {
        self.seed
    }

    /// Chooses a legal move in a `Position` or in the current position of a `Game`, or
    /// returns `None` when there is none. Thinks without holding the GIL. A UGI engine
    /// (a `ugi:` spec) that gives no legal move in time raises `RuntimeError` naming its
    /// forfeit (`crash`, `hang`, `time-forfeit`, `illegal-move`, `unreadable-move`).
    fn choose<'py>(
        &self,
        py: Python<'py>,
        position: &Bound<'py, PyAny>,
    ) -> PyResult<Option<Bound<'py, MovePy>>> {
        // A UGI engine that gives no move says why (`Bot::forfeit`): that is an error.
        let with_forfeit = |b: &mut dyn Bot, m: Option<ac::Move>| {
            let forfeit = if m.is_none() { b.forfeit() } else { None };
            (m, forfeit)
        };
        let (chosen, forfeit) = if let Ok(p) = position.cast::<PositionPy>() {
            let p = p.get().0;
            py.detach(|| {
                self.with(|b| {
                    let m = b.choose(&p);
                    with_forfeit(b, m)
                })
            })?
        } else if let Ok(g) = position.cast::<GamePy>() {
            let game = g.get().lock(py)?.game.clone();
            py.detach(|| {
                self.with(|b| {
                    let m = b.choose_in_game(&game);
                    with_forfeit(b, m)
                })
            })?
        } else {
            return Err(PyTypeError::new_err("choose() takes a Position or a Game"));
        };
        if let Some(forfeit) = forfeit {
            return Err(PyRuntimeError::new_err(format!(
                "bot {} forfeits: {forfeit}",
                self.name
            )));
        }
        chosen.map(|m| move_obj(py, m)).transpose()
    }

    fn __repr__(&self) -> String {
        format!("Bot.from_name('{}', seed={})", self.name, self.seed)
    }

    /// Pickles as `Bot.from_name(name, seed)`, which reads (and so checks) the spec again
    /// on load. A copy is a new bot with the same settings.
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<Reduced<'py, (String, u64)>> {
        let from_name = slf.py().get_type::<BotPy>().getattr("from_name")?;
        let bot = slf.get();
        Ok((from_name, (bot.name.clone(), bot.seed)))
    }
}

/// Plays a uniformly random legal move.
#[pyclass(extends = BotPy, frozen, module = "agon.bots", name = "Random")]
pub struct RandomPy;

#[pymethods]
impl RandomPy {
    /// A random bot with this seed.
    #[new]
    #[pyo3(signature = (seed = Int(0)), text_signature = "(seed=0)")]
    fn new(seed: Int<u64>) -> PyClassInitializer<RandomPy> {
        PyClassInitializer::from(BotPy::new(Box::new(RandomBot::new(seed.0)), seed.0))
            .add_subclass(RandomPy)
    }
}

/// Looks one ply ahead and plays the move whose result the evaluation likes best.
#[pyclass(extends = BotPy, frozen, module = "agon.bots", name = "Greedy")]
pub struct GreedyPy;

#[pymethods]
impl GreedyPy {
    /// A greedy bot with this seed (for breaking ties).
    #[new]
    #[pyo3(signature = (seed = Int(0)), text_signature = "(seed=0)")]
    fn new(seed: Int<u64>) -> PyClassInitializer<GreedyPy> {
        PyClassInitializer::from(BotPy::new(Box::new(GreedyBot::new(seed.0)), seed.0))
            .add_subclass(GreedyPy)
    }
}

/// Monte Carlo tree search (UCT) with `playouts` random playouts per move (1 to
/// `agon.MAX_PLAYOUTS`), optionally stopped after `time_limit` seconds (0 to
/// `agon.MAX_TIME_LIMIT`, rounded to the millisecond).
#[pyclass(extends = BotPy, frozen, module = "agon.bots", name = "MCTS")]
pub struct MctsPy;

#[pymethods]
impl MctsPy {
    /// A bot of `playouts` playouts per move (1 to `agon.MAX_PLAYOUTS`), stopped after
    /// `time_limit` seconds if given (0 to `agon.MAX_TIME_LIMIT`).
    #[new]
    // The text signature repeats the default, which a test checks against the Rust bot's.
    #[pyo3(
        signature = (playouts = Int(i64::from(MctsBot::DEFAULT_PLAYOUTS)), seed = Int(0), time_limit = None),
        text_signature = "(playouts=2000, seed=0, time_limit=None)"
    )]
    fn new(
        playouts: Int<i64>,
        seed: Int<u64>,
        time_limit: Option<TimeLimit>,
    ) -> PyResult<PyClassInitializer<MctsPy>> {
        let mut bot = MctsBot::new(playout_budget(playouts.0)?, seed.0);
        if let Some(limit) = time_limit {
            bot = bot.with_time_limit(limit.0);
        }
        Ok(PyClassInitializer::from(BotPy::new(Box::new(bot), seed.0)).add_subclass(MctsPy))
    }

    /// Chooses a move as `choose` does, with the statistics of its search: returns `(move,
    /// visits, value)`. `visits` maps the action (`agon.move_to_action(move, position)`) of each move the
    /// search visited to its visit count, in the order of `legal_moves()`: the counts sum
    /// to the playouts run (`playouts`, unless the time limit stopped the search first),
    /// and the move is the most visited. `value` is the mean result of the playouts for
    /// the side to move, from -1 (all lost) to 1 (all won). Unlike `choose`, it searches
    /// also when a single move is legal. An `agon.data.StatsPlayer`: `agon.data.play_record`
    /// and `python -m agon.generate` record these statistics. Raises `ValueError` when the
    /// game is over. Thinks without holding the GIL.
    fn choose_with_stats<'py>(
        slf: &Bound<'py, Self>,
        position: &Bound<'py, PyAny>,
    ) -> PyResult<(Bound<'py, MovePy>, Bound<'py, PyDict>, f64)> {
        choose_with_stats(slf.as_super().get(), position)
    }
}

/// `choose_with_stats` of the bots that have statistics (`MCTS`, `AlphaBeta`): the move,
/// its search's visits by action, and its value.
fn choose_with_stats<'py>(
    bot: &BotPy,
    position: &Bound<'py, PyAny>,
) -> PyResult<(Bound<'py, MovePy>, Bound<'py, PyDict>, f64)> {
    let py = position.py();
    let game = if let Ok(p) = position.cast::<PositionPy>() {
        ac::Game::from_position(p.get().0)
    } else if let Ok(g) = position.cast::<GamePy>() {
        g.get().lock(py)?.game.clone()
    } else {
        return Err(PyTypeError::new_err(
            "choose_with_stats() takes a Position or a Game",
        ));
    };
    if let Some(outcome) = game.outcome() {
        return Err(PyValueError::new_err(format!(
            "the game is over ({outcome}): there is no move to choose"
        )));
    }
    let chosen = py.detach(|| bot.with(|b| b.choose_with_stats(&game)))?;
    // A search always has statistics (but for a time limit), and a move in a game
    // that goes on.
    let Some((m, Some(stats))) = chosen else {
        return Err(PyRuntimeError::new_err(
            "the search gave no statistics (its time limit stopped it before its first result)",
        ));
    };
    let visits = PyDict::new(py);
    let position = *game.position();
    for &(v, n) in &stats.visits {
        let action = crate::actions::move_to_action_in(v, &position);
        // Every legal move has an action: a table bug must not hide.
        debug_assert!(action.is_some(), "the legal move {v} has no action");
        if let Some(a) = action {
            visits.set_item(a, n)?;
        }
    }
    Ok((move_obj(py, m)?, visits, stats.value))
}

/// Iterative-deepening alpha-beta search to `depth` plies (1 to `agon.MAX_DEPTH`),
/// optionally stopped after `time_limit` seconds (0 to `agon.MAX_TIME_LIMIT`, rounded to
/// the millisecond).
#[pyclass(extends = BotPy, frozen, module = "agon.bots", name = "AlphaBeta")]
pub struct AlphaBetaPy;

#[pymethods]
impl AlphaBetaPy {
    /// A bot searching `depth` plies (1 to `agon.MAX_DEPTH`), stopped after `time_limit`
    /// seconds if given (0 to `agon.MAX_TIME_LIMIT`).
    #[new]
    // The defaults are the Rust bots' own, so `AlphaBeta()` and `from_name("alphabeta")` agree.
    // The text signature repeats the default, which a test checks against the Rust bot's.
    #[pyo3(
        signature = (depth = Int(i64::from(AlphaBetaBot::DEFAULT_DEPTH)), seed = Int(0), time_limit = None),
        text_signature = "(depth=5, seed=0, time_limit=None)"
    )]
    fn new(
        depth: Int<i64>,
        seed: Int<u64>,
        time_limit: Option<TimeLimit>,
    ) -> PyResult<PyClassInitializer<AlphaBetaPy>> {
        let mut bot = AlphaBetaBot::new(search_depth(depth.0)?, seed.0);
        if let Some(limit) = time_limit {
            bot = bot.with_time_limit(limit.0);
        }
        Ok(PyClassInitializer::from(BotPy::new(Box::new(bot), seed.0)).add_subclass(AlphaBetaPy))
    }

    /// Chooses a move as `choose` does, with the statistics of its search: returns `(move,
    /// visits, value)`. `visits` is `{action: 1}` for the move chosen (an alpha-beta search
    /// ranks only its best move), `value` the search's score for the side to move as a
    /// value from -1 to 1 (`tanh(score / 300)`, ±1 for a forced win or loss). Unlike
    /// `choose`, it searches also when a single move is legal. An
    /// `agon.data.StatsPlayer`: `agon.data.play_record` and `python -m agon.generate`
    /// record these statistics (the targets of `agon.az.pretrain --value-target search`).
    /// Raises `ValueError` when the game is over, `RuntimeError` if the time limit stopped
    /// the first iteration. Thinks without holding the GIL.
    fn choose_with_stats<'py>(
        slf: &Bound<'py, Self>,
        position: &Bound<'py, PyAny>,
    ) -> PyResult<(Bound<'py, MovePy>, Bound<'py, PyDict>, f64)> {
        choose_with_stats(slf.as_super().get(), position)
    }
}

/// The opening book of agon-bots (`agon_bots::book::standard`): 300 varied, balanced
/// start positions (a few plies in, nothing captured, not over), in file order, under
/// `rules` (a `Rules` or its text; the standard rules if omitted). Arena matches play
/// each twice, colours swapped.
#[pyfunction]
#[pyo3(signature = (rules = None))]
fn opening_book(
    rules: Option<crate::rules::RulesArg>,
) -> PyResult<Vec<crate::position::PositionPy>> {
    let rules = crate::rules::rules_or(rules, agon_core::Rules::STANDARD);
    agon_bots::book::standard()
        .into_iter()
        .map(|p| {
            // Book positions hold no captured piece: any rule set takes them.
            p.with_rules(rules)
                .map(crate::position::PositionPy)
                .map_err(|e| pyo3::exceptions::PyValueError::new_err(e.to_string()))
        })
        .collect()
}

/// One game of an arena match: whether bot A had White, the winner (`"white"`, `"black"`
/// or None), the end reason (or `"unfinished"` at the ply cap) and the plies.
type ArenaGame = (bool, Option<&'static str>, &'static str, usize);

/// Plays a match of agon-bots' arena (`agon_bots::arena::run_match_with`) between the bots
/// of the specs `a` and `b`: `games` games (A has White in even ones) from the start
/// position of `rules` (standard if omitted), seeded `seed` by the one seeding scheme
/// (`agon_core::random::seed_of`), each capped at `max_plies` (`MAX_GAME_PLIES` if None).
/// Returns one tuple per game: (A had White, winner, end reason or `"unfinished"`, plies);
/// a game a UGI engine forfeits is won by the other side, its reason the forfeit's
/// (`"crash"`, `"hang"`, `"time-forfeit"`, `"illegal-move"`, `"unreadable-move"`).
/// Without the GIL. For tests that a Python tournament plays the arena's games. Raises
/// `ValueError` for a bad spec or limit, `RuntimeError` (naming the game and the bot) if
/// a bot breaks the rules.
#[pyfunction]
#[pyo3(signature = (a, b, games, seed, max_plies = None, rules = None))]
fn _arena_match(
    py: Python<'_>,
    a: &str,
    b: &str,
    games: u32,
    seed: u64,
    max_plies: Option<usize>,
    rules: Option<crate::rules::RulesArg>,
) -> PyResult<Vec<ArenaGame>> {
    let max_plies = max_plies.unwrap_or(agon_bots::arena::MAX_PLIES);
    check_any_spec(a)?;
    check_any_spec(b)?;
    if !(1..=agon_bots::arena::MAX_PLIES).contains(&max_plies) || games > 65_536 {
        return Err(PyValueError::new_err(format!(
            "max_plies must be 1 to {}, games at most 65536",
            agon_bots::arena::MAX_PLIES
        )));
    }
    let rules = crate::rules::rules_or(rules, agon_core::Rules::STANDARD);
    let options = agon_bots::arena::MatchOptions::new(games, seed)
        .with_max_plies(max_plies)
        .with_rules(rules);
    let mut played = Vec::new();
    py.detach(|| {
        agon_bots::arena::run_match_with(a, b, &options, |_, a_side, result| {
            let outcome = result.outcome;
            let reason = match result.forfeit {
                Some((_, kind)) => kind.name(),
                None => outcome.map_or("unfinished", |o| o.reason.name()),
            };
            played.push((
                a_side == ac::Side::White,
                result.winner().map(ac::Side::name),
                reason,
                result.plies,
            ));
        })
    })
    .map_err(match_error)?;
    Ok(played)
}

/// A's score over `wins`, `draws` and `losses`, with its 95% interval as the arena reports
/// it (`agon_bots::arena::MatchStats::confidence_interval`: Wilson's score interval,
/// extended to draws): `(score, low, high)`, `(0, 0, 1)` without games. The Python
/// tournaments and balance tables report their scores by it, so that they and the arena
/// agree.
#[pyfunction]
fn _score_interval(wins: u32, draws: u32, losses: u32) -> PyResult<(f64, f64, f64)> {
    let games = wins
        .checked_add(draws)
        .and_then(|n| n.checked_add(losses))
        .ok_or_else(|| PyValueError::new_err("more than 4294967295 games"))?;
    let stats = agon_bots::arena::MatchStats {
        games,
        wins,
        draws,
        losses,
        capped: 0,
        plies: 0,
    };
    let (low, high) = stats.confidence_interval();
    Ok((stats.score(), low, high))
}

/// A match that failed, as Python sees it: `ValueError` for a bad spec, `RuntimeError` for
/// a game a bot broke (the reference bots always choose a legal move: a game they break is
/// a bug of theirs, as in `_play_games`).
pub(crate) fn match_error(e: agon_bots::arena::MatchError) -> PyErr {
    match e {
        agon_bots::arena::MatchError::Spec(_) => PyValueError::new_err(e.to_string()),
        _ => PyRuntimeError::new_err(e.to_string()),
    }
}

/// Adds the bot classes to the native module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<BotPy>()?;
    m.add_class::<RandomPy>()?;
    m.add_class::<GreedyPy>()?;
    m.add_class::<MctsPy>()?;
    m.add_class::<AlphaBetaPy>()?;
    m.add_function(wrap_pyfunction!(opening_book, m)?)?;
    m.add_function(wrap_pyfunction!(_arena_match, m)?)?;
    m.add_function(wrap_pyfunction!(_score_interval, m)?)?;
    // The ply cap of the arena, which the Python tournaments and datasets share.
    m.add("MAX_GAME_PLIES", agon_bots::arena::MAX_PLIES)?;
    // Why a UGI engine lost a game outside the rules: end reasons of the datasets too.
    m.add(
        "FORFEIT_REASONS",
        agon_bots::ForfeitKind::ALL
            .map(agon_bots::ForfeitKind::name)
            .to_vec(),
    )?;
    Ok(())
}
