//! Throughput without the GIL: perft and random playouts, computed by agon-core and
//! agon-rl; this module only converts their arguments and statistics.

use agon_core as ac;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyDictMethods};

use crate::limits::{self, MAX_RANDOM_PLAYOUTS};
use crate::position::PositionArg;
use crate::types::Int;

/// The number of leaves of the tree of legal moves from `position`, `depth` plies deep
/// (0 to `MAX_PERFT_DEPTH`), computed without holding the GIL, under `rules` (a `Rules`
/// or its text) if given, else the position's (standard for a text). Passes count;
/// repetition, two passes and the move limit belong to games and do not apply.
#[pyfunction]
#[pyo3(signature = (position, depth, rules = None))]
pub fn perft(
    py: Python<'_>,
    position: PositionArg,
    depth: Int<i64>,
    rules: Option<crate::rules::RulesArg>,
) -> PyResult<u64> {
    let position = position.resolve(py, rules.map(|r| r.0))?;
    crate::position::perft(py, position, depth)
}

/// Plays `n` games (0 to `MAX_RANDOM_PLAYOUTS`) of uniformly random legal moves from
/// `start` (the start position by default), on `threads` threads (1 to 256; all cores by
/// default), without holding the GIL, and returns their statistics: `games`, `plies`
/// (total), `plies_mean`, `plies_median`, `plies_min`, `plies_max`, `white_wins`,
/// `black_wins`, `draws`, `capped` (the games stopped at `max_plies` before they ended),
/// `reasons` (a dict from each end reason to its count) and `lengths` (a dict from each
/// length that occurred, in plies, to its number of games). Game `k` draws its moves from
/// its own generator, seeded from `seed` and `k` (Rust's `agon_rl::game_rng`), so the same
/// seed gives the same games on any number of threads, in Python and in Rust
/// (`agon_rl::random_playouts_capped`, which computes these statistics). The games are
/// played under `rules` (a `Rules` or its text) if given, else those of `start` (standard
/// for a text or no start). `max_plies` (1 or more; None for no cap) stops a game that has
/// not ended after that many moves: give it for rule sets where a game need not end
/// (`repetition=off` without a `limit`); a capped game counts in `games`, `plies` and the
/// lengths, not as a win, a draw or a reason.
#[pyfunction]
#[pyo3(
    signature = (n, seed = Int(0), start = None, threads = None, *, rules = None, max_plies = None),
    text_signature = "(n, seed=0, start=None, threads=None, *, rules=None, max_plies=None)"
)]
pub fn random_playouts<'py>(
    py: Python<'py>,
    n: Int<i64>,
    seed: Int<u64>,
    start: Option<PositionArg>,
    threads: Option<Int<i64>>,
    rules: Option<crate::rules::RulesArg>,
    max_plies: Option<Int<i64>>,
) -> PyResult<Bound<'py, PyDict>> {
    let n = limits::bounded(
        "n",
        n.0,
        0,
        MAX_RANDOM_PLAYOUTS,
        Some("MAX_RANDOM_PLAYOUTS"),
    )?;
    let threads = limits::threads(threads)?;
    let max_plies = match max_plies {
        None => usize::MAX,
        Some(Int(m)) => limits::in_range("max_plies", m, 1..=usize::MAX, "1 or more")?,
    };
    let seed = seed.0;
    let start = crate::position::position_or_start(py, start.as_ref(), rules.map(|r| r.0))?;
    let s = py.detach(move || agon_rl::random_playouts_capped(start, n, seed, threads, max_plies));
    let d = PyDict::new(py);
    d.set_item("games", s.games)?;
    d.set_item("plies", s.plies)?;
    d.set_item("plies_mean", s.mean_plies())?;
    d.set_item("plies_median", s.median_plies())?;
    d.set_item("plies_min", s.min_plies)?;
    d.set_item("plies_max", s.max_plies)?;
    d.set_item("white_wins", s.white_wins)?;
    d.set_item("black_wins", s.black_wins)?;
    d.set_item("draws", s.draws)?;
    d.set_item("capped", s.capped)?;
    let reasons = PyDict::new(py);
    for (r, count) in ac::EndReason::ALL.iter().zip(s.reasons) {
        reasons.set_item(r.name(), count)?;
    }
    d.set_item("reasons", reasons)?;
    let lengths = PyDict::new(py);
    for (plies, games) in &s.lengths {
        lengths.set_item(plies, games)?;
    }
    d.set_item("lengths", lengths)?;
    Ok(d)
}
