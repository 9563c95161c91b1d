//! The network player's helpers for `agon.az`: the Rust evaluation of a model file (to
//! check it against JAX's) and the gating match (the arena's SPRT with the book).

use numpy::{PyArray1, PyArrayMethods, PyReadonlyArray4, PyUntypedArrayMethods};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::types::Int;

/// Evaluates the network of the safetensors file `model` with agon-bots' Rust inference
/// (`agon_bots::Network`) on a batch of axial observations, float32 `(B, 11, 11, 11)`.
/// Returns `(logits, values)`: float32 `(B, 3337)` and `(B,)`. Raises `ValueError` for a
/// file that is missing, corrupt or of the wrong shape, or observations of another shape.
#[pyfunction]
pub fn _az_evaluate<'py>(
    py: Python<'py>,
    model: &str,
    observations: PyReadonlyArray4<'py, f32>,
) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyArray1<f32>>)> {
    let shape = observations.shape().to_vec();
    let side = agon_rl::AXIAL_SIDE;
    if shape[1..] != [agon_rl::CHANNEL_COUNT, side, side] {
        return Err(PyValueError::new_err(format!(
            "observations must have shape (B, {}, {side}, {side}), not {shape:?}",
            agon_rl::CHANNEL_COUNT
        )));
    }
    let planes: Vec<f32> = observations.as_array().iter().copied().collect();
    let network =
        agon_bots::Network::load(model).map_err(|e| PyValueError::new_err(e.to_string()))?;
    let (logits, values) = py
        .detach(|| network.evaluate_planes(&planes))
        .map_err(|e| PyValueError::new_err(e.to_string()))?;
    let logits = PyArray1::from_vec(py, logits)
        .reshape([shape[0], agon_rl::ACTION_COUNT])?
        .into_any();
    Ok((logits, PyArray1::from_vec(py, values)))
}

/// Plays a match of the arena for `agon.az.loop` (its gating and its learning curve):
/// bot `a` against bot `b` (any specs), pairs of games from the arena's opening book with
/// colours swapped, at most `games` games on `concurrency` threads; with `sprt`
/// (`(elo0, elo1, alpha, beta)`, `agon_bots::Sprt`), stopped once the test decides.
/// Returns a dict: `games`, `wins`, `draws`, `losses` (for A), `score`, `elo`, `elo_low`,
/// `elo_high` (a 95% interval), `llr` and `decision` (`"H1"`: A is stronger, `"H0"`: it
/// is not, `"continue"`: undecided or no test). Without the GIL.
#[pyfunction]
#[pyo3(
    signature = (a, b, games, seed, sprt = None, concurrency = Int(1)),
    text_signature = "(a, b, games, seed, sprt=None, concurrency=1)"
)]
pub fn _book_match<'py>(
    py: Python<'py>,
    a: &str,
    b: &str,
    games: u32,
    seed: Int<u64>,
    sprt: Option<(f64, f64, f64, f64)>,
    concurrency: Int<u32>,
) -> PyResult<Bound<'py, PyDict>> {
    let sprt = sprt
        .map(|(elo0, elo1, alpha, beta)| agon_bots::Sprt::new(elo0, elo1, alpha, beta))
        .transpose()
        .map_err(|e| PyValueError::new_err(e.to_string()))?;
    for spec in [a, b] {
        crate::bots::check_any_spec(spec)?;
    }
    if !(1..=65_536).contains(&games) || !(1..=64).contains(&concurrency.0) {
        return Err(PyValueError::new_err(
            "games must be 1 to 65536 and concurrency 1 to 64",
        ));
    }
    let mut options = agon_bots::arena::MatchOptions::new(games, seed.0)
        .with_book(agon_bots::book::standard())
        .with_concurrency(concurrency.0 as usize);
    if let Some(sprt) = sprt {
        options = options.with_sprt(sprt);
    }
    let report = py
        .detach(|| agon_bots::arena::run_match_with(a, b, &options, |_, _, _| {}))
        .map_err(crate::bots::match_error)?;
    let s = &report.stats;
    let (elo, low, high) = report.elo();
    let d = PyDict::new(py);
    d.set_item("games", s.games)?;
    d.set_item("wins", s.wins)?;
    d.set_item("draws", s.draws)?;
    d.set_item("losses", s.losses)?;
    d.set_item("score", s.score())?;
    d.set_item("elo", elo)?;
    d.set_item("elo_low", low)?;
    d.set_item("elo_high", high)?;
    let (llr, decision) = match report.sprt {
        Some((_, llr, agon_bots::Decision::AcceptH1)) => (llr, "H1"),
        Some((_, llr, agon_bots::Decision::AcceptH0)) => (llr, "H0"),
        Some((_, llr, _)) => (llr, "continue"),
        None => (0.0, "continue"),
    };
    d.set_item("llr", llr)?;
    d.set_item("decision", decision)?;
    Ok(d)
}

/// Adds the functions to the native module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(_az_evaluate, m)?)?;
    m.add_function(wrap_pyfunction!(_book_match, m)?)?;
    Ok(())
}
