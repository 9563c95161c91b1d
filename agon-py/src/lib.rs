//! The native module `agon._agon`: Python bindings of agon-core with pyo3.
//!
//! Everything of the rules comes from agon-core; this crate only converts values, names
//! errors, and lays out numpy arrays; pictures are drawn by agon-svg. The Python package
//! `agon` (in `python/agon`) re-exports all of it. How the crates fit together, and where
//! each fact lives: `ARCHITECTURE.md` at the repository root.

use agon_core as ac;
use numpy::{PyArray2, PyArrayMethods};
use pyo3::prelude::*;

mod actions;
#[cfg(feature = "bots")]
mod analysis;
#[cfg(feature = "az")]
mod az;
#[cfg(feature = "bots")]
mod bots;
mod data;
mod errors;
mod game;
mod limits;
mod lock;
mod playouts;
mod position;
#[cfg(feature = "bots")]
mod review;
mod rules;
mod svg;
mod types;
mod vecenv;

use position::PositionArg;
use types::{move_obj, Int, MoveArg, MovePy};

/// The action of a move (see `agon.ACTION_COUNT`; the pass is `agon.PASS_ACTION`). Needs
/// no position but under `guard-return=next-ring`, where a guard's return to an inner cell
/// has its own action (from `agon.NEXT_RING_RETURN_BASE`): give the `position` it is
/// played in (a `Position` or its text) to number it in the action space of that
/// position's rules. Raises `IllegalMoveError` for a step between cells that are not
/// adjacent.
#[pyfunction]
#[pyo3(signature = (r#move, position = None))]
fn move_to_action(
    py: Python<'_>,
    r#move: MoveArg,
    position: Option<PositionArg>,
) -> PyResult<usize> {
    let m = r#move.resolve_alone(py)?;
    let action = match position {
        None => actions::move_to_action(m),
        Some(p) => actions::move_to_action_in(m, &p.resolve(py, None)?),
    };
    action.ok_or_else(|| {
        errors::illegal_action(
            py,
            format!("{m} joins cells that are not adjacent"),
            "not-adjacent",
        )
    })
}

/// The move an action stands for in `position` (not checked for legality), in the action
/// space of the position's rules; raises `IllegalMoveError` (reason `"no-such-action"`)
/// for a number out of that range or a step off the board.
#[pyfunction]
fn action_to_move<'py>(
    py: Python<'py>,
    position: PositionArg,
    action: Int<i64>,
) -> PyResult<Bound<'py, MovePy>> {
    position::decode_action(py, &position.resolve(py, None)?, action.0)
        .and_then(|m| move_obj(py, m))
}

/// The number of actions of a rule set (`rules` a `Rules` or its text; standard by
/// default), the width of its masks: `ACTION_COUNT` (3337), 3338 under `stuck=pass` (the
/// pass, `PASS_ACTION`), `MAX_ACTION_COUNT` (8889) under `guard-return=next-ring`.
#[pyfunction]
#[pyo3(signature = (rules = None))]
fn action_count(rules: Option<rules::RulesArg>) -> usize {
    actions::action_count(rules.map_or(ac::Rules::STANDARD, |r| r.0))
}

/// The bytes of a bit-packed mask of a rule set (`rules` a `Rules` or its text; standard
/// by default): `PACKED_MASK_BYTES` (418, the pass in its padding), 1112 under
/// `guard-return=next-ring`.
#[pyfunction]
#[pyo3(signature = (rules = None))]
fn packed_mask_bytes(rules: Option<rules::RulesArg>) -> usize {
    actions::packed_mask_len(rules.map_or(ac::Rules::STANDARD, |r| r.0))
}

/// The action maps of the twelve symmetries: an int64 array of shape
/// (12, action_count(rules)) (`rules` standard by default: (12, ACTION_COUNT)) whose row
/// `s` maps each action to its image under symmetry `s` (the pass is its own image).
#[pyfunction]
#[pyo3(signature = (rules = None))]
fn action_symmetries(
    py: Python<'_>,
    rules: Option<rules::RulesArg>,
) -> PyResult<Bound<'_, PyArray2<i64>>> {
    let width = actions::action_count(rules.map_or(ac::Rules::STANDARD, |r| r.0));
    // The widest action space, where every number below `MAX_ACTION_COUNT` is an action.
    let widest = ac::Rules::STANDARD.with_guard_return(ac::GuardReturn::NextRing);
    let flat: Vec<i64> = ac::Symmetry::ALL
        .iter()
        .flat_map(|&s| {
            (0..width).map(move |a| {
                agon_rl::Action::new_in(a, widest)
                    .map_or(a as i64, |action| action.apply(s).index() as i64)
            })
        })
        .collect();
    numpy::PyArray1::from_vec(py, flat).reshape([ac::Symmetry::ALL.len(), width])
}

/// The cell maps of the twelve symmetries: an int64 array of shape (12, 91) whose row `s`
/// maps each cell index to the index of its image under symmetry `s`.
#[pyfunction]
fn cell_symmetries(py: Python<'_>) -> PyResult<Bound<'_, PyArray2<i64>>> {
    let flat: Vec<i64> = ac::Symmetry::ALL
        .iter()
        .flat_map(|s| ac::Cell::all().map(move |c| s.cell(c).index() as i64))
        .collect();
    numpy::PyArray1::from_vec(py, flat).reshape([ac::Symmetry::ALL.len(), ac::CELL_COUNT])
}

/// The (row, column) of each cell in the axial (11, 11) layout of observations: an int64
/// array of shape (91, 2), with row = r + 5 and column = q + 5 for cube coordinates
/// (q, r, s).
#[pyfunction]
fn axial_coordinates(py: Python<'_>) -> PyResult<Bound<'_, PyArray2<i64>>> {
    let flat: Vec<i64> = ac::Cell::all()
        .flat_map(|c| {
            let at = actions::axial_offset(c);
            [
                (at / actions::AXIAL_SIDE) as i64,
                (at % actions::AXIAL_SIDE) as i64,
            ]
        })
        .collect();
    numpy::PyArray1::from_vec(py, flat).reshape([ac::CELL_COUNT, 2])
}

/// The seed of an item numbered by `path` in a run seeded `run_seed`: agon-core's one
/// seeding scheme (`agon_core::random::seed_of`), shared by agon-rl's random games, the
/// arena and the Python tools (`agon._games`).
#[pyfunction]
fn _seed_of(run_seed: u64, path: Vec<u64>) -> u64 {
    ac::random::seed_of(run_seed, &path)
}

/// The seeds of White's and Black's bots in a game seeded `seed`
/// (`agon_core::random::player_seeds`).
#[pyfunction]
fn _player_seeds(seed: u64) -> (u64, u64) {
    let [white, black] = ac::random::player_seeds(seed);
    (white, black)
}

/// The native module.
#[pymodule]
fn _agon(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add_class::<types::CellPy>()?;
    m.add_class::<types::SidePy>()?;
    m.add_class::<types::KindPy>()?;
    m.add_class::<types::PiecePy>()?;
    m.add_class::<types::MovePy>()?;
    m.add_class::<types::OutcomePy>()?;
    m.add_class::<types::SymmetryPy>()?;
    m.add_class::<rules::RulesPy>()?;
    m.add_class::<position::PositionPy>()?;
    m.add_class::<game::GamePy>()?;
    m.add_class::<game::VariationPy>()?;
    m.add_class::<vecenv::VecEnvPy>()?;
    m.add(
        "IllegalMoveError",
        py.get_type::<errors::IllegalMoveError>(),
    )?;
    m.add("ParseError", py.get_type::<errors::ParseError>())?;
    errors::add_attribute_defaults(py)?;
    m.add(
        "InvalidPositionError",
        py.get_type::<errors::InvalidPositionError>(),
    )?;
    m.add_function(wrap_pyfunction!(move_to_action, m)?)?;
    m.add_function(wrap_pyfunction!(action_to_move, m)?)?;
    m.add_function(wrap_pyfunction!(action_symmetries, m)?)?;
    m.add_function(wrap_pyfunction!(action_count, m)?)?;
    m.add_function(wrap_pyfunction!(packed_mask_bytes, m)?)?;
    m.add_function(wrap_pyfunction!(cell_symmetries, m)?)?;
    m.add_function(wrap_pyfunction!(axial_coordinates, m)?)?;
    m.add_function(wrap_pyfunction!(svg::svg, m)?)?;
    m.add_function(wrap_pyfunction!(playouts::perft, m)?)?;
    m.add_function(wrap_pyfunction!(playouts::random_playouts, m)?)?;
    m.add_function(wrap_pyfunction!(vecenv::unpack_masks, m)?)?;
    m.add_function(wrap_pyfunction!(_seed_of, m)?)?;
    m.add_function(wrap_pyfunction!(_player_seeds, m)?)?;
    m.add("CELL_COUNT", ac::CELL_COUNT)?;
    m.add("ACTION_COUNT", actions::ACTION_COUNT)?;
    m.add("STEP_ACTIONS", actions::STEP_ACTIONS)?;
    m.add("OUTER_RETURN_BASE", actions::OUTER_RETURN_BASE)?;
    m.add("INNER_RETURN_BASE", actions::INNER_RETURN_BASE)?;
    m.add("PACKED_MASK_BYTES", actions::PACKED_MASK_LEN)?;
    m.add("PASS_ACTION", actions::PASS_ACTION)?;
    m.add("NEXT_RING_RETURN_BASE", actions::NEXT_RING_RETURN_BASE)?;
    m.add("MAX_ACTION_COUNT", actions::MAX_ACTION_COUNT)?;
    m.add("MAX_LEGAL_MOVES", ac::MAX_LEGAL_MOVES)?;
    m.add("OBSERVATION_CHANNELS", actions::CHANNELS.to_vec())?;
    m.add("MAX_ENVS", limits::MAX_ENVS)?;
    m.add("MAX_PERFT_DEPTH", limits::MAX_PERFT_DEPTH)?;
    m.add("MAX_RANDOM_PLAYOUTS", limits::MAX_RANDOM_PLAYOUTS)?;
    m.add("MAX_PLAYOUTS", limits::MAX_PLAYOUTS)?;
    m.add("MAX_DEPTH", limits::MAX_DEPTH)?;
    m.add("MAX_TIME_LIMIT", limits::MAX_TIME_LIMIT)?;
    m.add("MAX_SVG_SIZE", limits::MAX_SVG_SIZE)?;
    m.add("MAX_ARROWS", limits::MAX_ARROWS)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add(
        "END_REASONS",
        ac::EndReason::ALL.map(ac::EndReason::name).to_vec(),
    )?;
    #[cfg(feature = "bots")]
    bots::register(m)?;
    #[cfg(feature = "az")]
    az::register(m)?;
    data::register(m)?;
    #[cfg(feature = "bots")]
    analysis::register(m)?;
    #[cfg(feature = "bots")]
    review::register(m)?;
    Ok(())
}
