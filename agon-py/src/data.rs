//! The native half of `agon.data`: games stored as action numbers, checked, replayed and
//! turned into training arrays by agon-rl (`agon_rl::batch`, `agon_rl::replay`), and games
//! played by the bots and flattened by agon-rl, all without the GIL. This module only
//! converts: arrays and lists in, arrays and games out.
//!
//! A batch of games comes as Arrow lays out a list column: `offsets` (int64, one more than
//! the games) into `actions` (uint16), game `i` being `actions[offsets[i]:offsets[i + 1]]`,
//! and the start position of each game as its text.

use agon_core as ac;
use agon_rl::batch::{self, BatchError, GameBatch, PlayedGames, PlyStats};
use agon_rl::replay::{self, PlyVisits};
use numpy::{PyArray1, PyArrayMethods, PyReadonlyArray1};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyDictMethods, PyList};

use crate::actions;
use crate::game::GamePy;
use crate::limits;
use crate::position::parse_position;
#[cfg(feature = "bots")]
use crate::{position::PositionArg, types::Int};

/// The most samples one call of `_training_arrays` writes (positions times the 12
/// symmetries): about 480 MB of float32 observations and masks.
pub const MAX_TRAINING_SAMPLES: usize = 1 << 16;

/// The longest game `_play_games` plays, in plies.
#[cfg(feature = "bots")]
pub const MAX_GAME_PLIES: usize = 1_000_000;

/// The most games one call of `_play_games` plays.
#[cfg(feature = "bots")]
pub const MAX_GAMES_PER_CALL: usize = 1 << 16;

/// Reads a batch: one start per game (parsed under its rules), offsets checked by agon-rl
/// ([`GameBatch::new`]).
fn read_batch(
    py: Python<'_>,
    starts: &[String],
    rules: Option<&[String]>,
    offsets: &PyReadonlyArray1<'_, i64>,
    actions: &PyReadonlyArray1<'_, u16>,
) -> PyResult<GameBatch> {
    if let Some(rules) = rules {
        if rules.len() != starts.len() {
            return Err(PyValueError::new_err(format!(
                "rules must have one entry per game ({}), not {}",
                starts.len(),
                rules.len()
            )));
        }
    }
    let offsets = offsets.as_slice()?;
    let actions = actions.as_slice()?;
    if offsets.len() != starts.len() + 1 {
        return Err(value_error(BatchError::OffsetCount {
            games: starts.len(),
            offsets: offsets.len(),
        }));
    }
    let rules_of = |i: usize| rules.map(|r| r[i].as_str());
    let mut parsed: Vec<ac::Position> = Vec::with_capacity(starts.len());
    for (i, text) in starts.iter().enumerate() {
        // Most games of a dataset share their start and rules: parse each once in a row.
        let position = match (i.checked_sub(1), parsed.last()) {
            (Some(prev), Some(&p)) if starts[prev] == *text && rules_of(prev) == rules_of(i) => p,
            _ => {
                let game_rules = match rules_of(i) {
                    None => ac::Rules::STANDARD,
                    Some(r) => ac::Rules::from_text(r).map_err(|e| {
                        PyValueError::new_err(format!("game {i}: rules {r:?}: {e}"))
                    })?,
                };
                parse_position(py, text, game_rules)
                    .map_err(|e| PyValueError::new_err(format!("game {i}: start: {e}")))?
            }
        };
        parsed.push(position);
    }
    GameBatch::new(parsed, offsets, actions).map_err(value_error)
}

/// `ValueError` with the message of a batch's error.
fn value_error(e: BatchError) -> PyErr {
    PyValueError::new_err(e.to_string())
}

/// The games of a batch (start texts, int64 offsets into uint16 actions) replayed through
/// `Game`, each move checked, under `rules` (one rule set's text per game; the standard
/// rules for all if None); raises `ValueError` naming the first game, ply and action that
/// cannot be played.
#[pyfunction]
#[pyo3(signature = (starts, offsets, actions, rules = None))]
pub fn _replay_games(
    py: Python<'_>,
    starts: Vec<String>,
    offsets: PyReadonlyArray1<'_, i64>,
    actions: PyReadonlyArray1<'_, u16>,
    rules: Option<Vec<String>>,
) -> PyResult<Vec<GamePy>> {
    let batch = read_batch(py, &starts, rules.as_deref(), &offsets, &actions)?;
    let games = py.detach(|| batch.replay_all()).map_err(value_error)?;
    Ok(games.into_iter().map(|g| GamePy::wrap(py, g)).collect())
}

/// The action numbers of a game's moves: a uint16 array (what a dataset stores).
#[pyfunction]
pub fn _game_actions<'py>(py: Python<'py>, game: &GamePy) -> PyResult<Bound<'py, PyArray1<u16>>> {
    let actions = replay::game_actions(&game.lock(py)?.game);
    Ok(PyArray1::from_vec(py, actions))
}

/// The search statistics of one game as lists: per ply, `None` or the actions and their
/// visit counts.
type GameVisits = Option<Vec<Option<Vec<u16>>>>;
type GameCounts = Option<Vec<Option<Vec<u32>>>>;

/// The training arrays of a batch of games (start texts, int64 offsets into uint16
/// actions), replayed in Rust without the GIL: for each game `i`, the positions before its
/// moves `ply_begin[i]` to `ply_end[i] - 1` (all of them when both are None), under the
/// twelve symmetries if `symmetries`. Returns a dict of numpy arrays: `observations`
/// (float32, (B, 11, 91) or (B, 11, 11, 11) with `axial`), `masks` (bool, (B,
/// action_count(rules))), `actions`, `games` (the game's number in the batch), `plies`,
/// `symmetries` (int64, (B,)), `results` (float32, (B,): +1 if the mover won the game, -1
/// if it lost, 0 for a draw or an unfinished game) and, with `policy`, `policies` (float32,
/// (B, action_count(rules)): the visit counts over their sum) and `has_policy` (bool, (B,)) from
/// `visit_actions` and `visit_counts` (per game None or, per ply, None or a list); and the
/// replayed games' `winners` and `reasons` (lists). `rules` gives each game's rule set (its
/// text; all standard if None): the games of one call share one. At most
/// MAX_TRAINING_SAMPLES samples;
/// raises `ValueError` for a game that does not replay or statistics that do not fit it.
#[pyfunction]
#[pyo3(signature = (
    starts, offsets, actions, ply_begin = None, ply_end = None, *, axial = false,
    symmetries = false, policy = false, visit_actions = None, visit_counts = None,
    rules = None
))]
#[allow(clippy::too_many_arguments)]
pub fn _training_arrays<'py>(
    py: Python<'py>,
    starts: Vec<String>,
    offsets: PyReadonlyArray1<'py, i64>,
    actions: PyReadonlyArray1<'py, u16>,
    ply_begin: Option<PyReadonlyArray1<'py, i64>>,
    ply_end: Option<PyReadonlyArray1<'py, i64>>,
    axial: bool,
    symmetries: bool,
    policy: bool,
    visit_actions: Option<Vec<GameVisits>>,
    visit_counts: Option<Vec<GameCounts>>,
    rules: Option<Vec<String>>,
) -> PyResult<Bound<'py, PyDict>> {
    let batch = read_batch(py, &starts, rules.as_deref(), &offsets, &actions)?;
    let n = batch.len();
    // One rule set, so one width of masks and policies, for the whole call.
    let batch_rules = batch.common_rules().map_err(value_error)?;
    let (begin, end) = (
        ply_begin.as_ref().map(|b| b.as_slice()).transpose()?,
        ply_end.as_ref().map(|e| e.as_slice()).transpose()?,
    );
    let plies = batch.ply_ranges(begin, end).map_err(value_error)?;
    let samples = batch::sample_count(&plies, symmetries);
    if samples > MAX_TRAINING_SAMPLES as u64 {
        return Err(limits::out_of_range(
            "the samples of one call",
            &format!("at most MAX_TRAINING_SAMPLES ({MAX_TRAINING_SAMPLES})"),
            samples,
        ));
    }
    let visits: Vec<Vec<PlyVisits>> = if policy {
        match (visit_actions, visit_counts) {
            (None, None) => vec![Vec::new(); n],
            (Some(a), Some(c)) if a.len() == n && c.len() == n => a
                .iter()
                .zip(&c)
                .enumerate()
                .map(|(i, (a, c))| batch::ply_visits(i, batch_rules, a.as_deref(), c.as_deref()))
                .collect::<Result<_, _>>()
                .map_err(value_error)?,
            _ => return Err(value_error(BatchError::VisitsPaired { games: n })),
        }
    } else {
        vec![Vec::new(); n]
    };
    let layout = actions::layout(axial);
    let (arrays, outcomes) = py
        .detach(|| batch::training_arrays(&batch, &plies, &visits, layout, symmetries, policy))
        .map_err(value_error)?;
    let b = arrays.len();
    let width = arrays.width();
    let d = PyDict::new(py);
    let observations = PyArray1::from_vec(py, arrays.observations);
    let observations = if axial {
        observations
            .reshape([
                b,
                actions::CHANNEL_COUNT,
                actions::AXIAL_SIDE,
                actions::AXIAL_SIDE,
            ])?
            .into_any()
    } else {
        observations
            .reshape([b, actions::CHANNEL_COUNT, actions::FLAT])?
            .into_any()
    };
    d.set_item("observations", observations)?;
    d.set_item(
        "masks",
        PyArray1::from_vec(py, arrays.masks).reshape([b, width])?,
    )?;
    let ints = |v: Vec<i64>| PyArray1::from_vec(py, v);
    d.set_item(
        "actions",
        ints(arrays.actions.iter().map(|&a| i64::from(a)).collect()),
    )?;
    d.set_item("results", PyArray1::from_vec(py, arrays.results))?;
    d.set_item(
        "games",
        ints(arrays.games.iter().map(|&g| i64::from(g)).collect()),
    )?;
    d.set_item(
        "plies",
        ints(arrays.plies.iter().map(|&p| i64::from(p)).collect()),
    )?;
    d.set_item(
        "symmetries",
        ints(
            arrays
                .symmetries_applied
                .iter()
                .map(|&s| i64::from(s))
                .collect(),
        ),
    )?;
    if policy {
        d.set_item(
            "policies",
            PyArray1::from_vec(py, arrays.policies).reshape([b, width])?,
        )?;
        d.set_item("has_policy", PyArray1::from_vec(py, arrays.has_policy))?;
    }
    let (winners, reasons): (Vec<_>, Vec<_>) = outcomes.into_iter().unzip();
    d.set_item("winners", PyList::new(py, winners)?)?;
    d.set_item("reasons", PyList::new(py, reasons)?)?;
    Ok(d)
}

/// Plays one game per pair of `seeds` (white's seed, black's seed) between the reference
/// bots of the specs `white` and `black` (as `Bot.from_name`), from `start` (the start
/// position by default) until the game ends or `max_plies` plies (1 to 1000000), without
/// the GIL. Returns a dict: `actions` (uint16, all games' actions end to end), `offsets`
/// (int64, one more than the games), and each game's `winners` (`"white"`, `"black"` or
/// None), `reasons` (the end reason, or `"unfinished"`) and `forfeits` (None, or what a
/// UGI engine (`ugi:` spec) did to lose the game without the rules ending it: a crash, a
/// hang, a late, illegal or unreadable move; the game stops there, is the opponent's win,
/// its reason the forfeit's: `"crash"`, `"hang"`, `"time-forfeit"`, `"illegal-move"`,
/// `"unreadable-move"`; the next game starts a fresh process). With `stats`, the bots give
/// the statistics of their searches (MCTS: its root's visit counts and value), and the
/// dict also holds, for each ply of `actions`: `has_stats` (bool: whether its player gave
/// statistics), `values` (float32, NaN where none) and `visit_offsets` (int64, one more
/// than the plies) into `visit_actions` (uint16) and `visit_counts` (uint32). At most
/// 65536 games a call. The games are played under `rules` (a `Rules` or its text) if given,
/// else those of `start` (standard for a text or no start); each ply's bot is that of the
/// player to act, `Position.chooser`.
#[cfg(feature = "bots")]
#[pyfunction]
#[allow(clippy::too_many_arguments)]
#[pyo3(
    signature = (white, black, seeds, start = None, max_plies = Int(2000), *, stats = false, rules = None),
    text_signature = "(white, black, seeds, start=None, max_plies=2000, *, stats=False, rules=None)"
)]
pub fn _play_games<'py>(
    py: Python<'py>,
    white: &str,
    black: &str,
    seeds: Vec<(u64, u64)>,
    start: Option<PositionArg>,
    max_plies: Int<i64>,
    stats: bool,
    rules: Option<crate::rules::RulesArg>,
) -> PyResult<Bound<'py, PyDict>> {
    use agon_bots::Bot;

    let max_plies = limits::bounded("max_plies", max_plies.0, 1, MAX_GAME_PLIES, None)?;
    if seeds.len() > MAX_GAMES_PER_CALL {
        return Err(limits::out_of_range(
            "the number of games",
            &format!("at most {MAX_GAMES_PER_CALL}"),
            seeds.len(),
        ));
    }
    let start = crate::position::position_or_start(py, start.as_ref(), rules.map(|r| r.0))?;
    if start.outcome().is_some() {
        return Err(PyValueError::new_err(
            "the start position is already decided: no game can be played from it",
        ));
    }
    for spec in [white, black] {
        crate::bots::check_any_spec(spec)?;
        agon_bots::bot_by_name(spec, 0).map_err(|e| PyValueError::new_err(e.to_string()))?;
    }
    let played = py.detach(|| -> Result<(PlayedGames, Vec<Option<String>>), String> {
        let mut played = PlayedGames::new(stats);
        let mut forfeits = Vec::with_capacity(seeds.len());
        for &(white_seed, black_seed) in &seeds {
            // Fresh bots each game: a UGI engine that failed in one starts anew in the next.
            let mut white_bot =
                agon_bots::bot_by_name(white, white_seed).map_err(|e| e.to_string())?;
            let mut black_bot =
                agon_bots::bot_by_name(black, black_seed).map_err(|e| e.to_string())?;
            let mut game_stats = Vec::new();
            let (game, forfeit) = agon_bots::arena::play_out_forfeiting(
                white_bot.as_mut(),
                black_bot.as_mut(),
                &start,
                max_plies,
                |bot: &mut dyn Bot, game| {
                    if stats {
                        let (m, s) = bot.choose_with_stats(game)?;
                        game_stats.push(s);
                        Some(m)
                    } else {
                        bot.choose_in_game(game)
                    }
                },
            )
            .map_err(|e| e.to_string())?;
            let ply_stats: Vec<PlyStats<'_>> = game_stats
                .iter()
                .take(game.moves().len())
                .map(|s| s.as_ref().map(|s| (s.value, s.visits.as_slice())))
                .collect();
            played.push(&game, &ply_stats);
            // A forfeit (a UGI engine that crashed, hung, was late or moved illegally) is
            // the opponent's win, its reason the forfeit's.
            forfeits.push(forfeit.map(|(side, f)| {
                let i = played.winners.len() - 1;
                played.winners[i] = Some(side.other().name());
                played.reasons[i] = f.kind.name();
                let bot = if side == ac::Side::White {
                    white
                } else {
                    black
                };
                format!("{side} ({bot}) forfeits: {f}")
            }));
        }
        Ok((played, forfeits))
    });
    // The reference bots always choose a legal move: an error here is a bug of theirs.
    let (played, forfeits) = played.map_err(pyo3::exceptions::PyRuntimeError::new_err)?;
    let d = PyDict::new(py);
    d.set_item("actions", PyArray1::from_vec(py, played.actions))?;
    d.set_item("offsets", PyArray1::from_vec(py, played.offsets))?;
    d.set_item("winners", PyList::new(py, played.winners)?)?;
    d.set_item("reasons", PyList::new(py, played.reasons)?)?;
    d.set_item("forfeits", PyList::new(py, forfeits)?)?;
    if let Some(flat) = played.stats {
        d.set_item("has_stats", PyArray1::from_vec(py, flat.has_stats))?;
        d.set_item("values", PyArray1::from_vec(py, flat.values))?;
        d.set_item("visit_offsets", PyArray1::from_vec(py, flat.visit_offsets))?;
        d.set_item("visit_actions", PyArray1::from_vec(py, flat.visit_actions))?;
        d.set_item("visit_counts", PyArray1::from_vec(py, flat.visit_counts))?;
    }
    Ok(d)
}

/// Adds the functions and bounds of this module to the native module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(_replay_games, m)?)?;
    m.add_function(wrap_pyfunction!(_game_actions, m)?)?;
    m.add_function(wrap_pyfunction!(_training_arrays, m)?)?;
    #[cfg(feature = "bots")]
    m.add_function(wrap_pyfunction!(_play_games, m)?)?;
    m.add("MAX_TRAINING_SAMPLES", MAX_TRAINING_SAMPLES)?;
    Ok(())
}
