//! The upper bounds of the arguments that size work or memory, each checked before
//! anything is allocated or started, and exported to Python as module constants (see the
//! package docstring, "Contract"). The bindings check them themselves, so they hold
//! whatever the crates below accept.

use std::ops::RangeInclusive;
use std::time::Duration;

use agon_core as ac;
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyBool;
use pyo3::PyErr;

/// The most games in one `VecEnv`: agon-rl's bound.
pub const MAX_ENVS: usize = agon_rl::VecEnv::MAX_ENVS;

/// The deepest perft: agon-core's bound (deeper ones would overflow the stack). The number
/// of leaves grows about 25-fold per ply (depth 6 is already about 10^8 leaves), so this
/// bound guards the stack, not the time.
pub const MAX_PERFT_DEPTH: u32 = ac::MAX_PERFT_DEPTH;

/// The most games one call of `random_playouts` plays (about a day of work).
pub const MAX_RANDOM_PLAYOUTS: u64 = 1_000_000_000;

/// The most playouts of an MCTS bot per move (over a minute of search; agon-bots caps the
/// memory of its tree whatever the budget).
pub const MAX_PLAYOUTS: u32 = 1_000_000;

/// The deepest alpha-beta search.
pub const MAX_DEPTH: u32 = 64;

// The bindings' bounds never exceed what the crates below accept.
#[cfg(feature = "bots")]
const _: () = assert!(MAX_DEPTH <= agon_bots::AlphaBetaBot::MAX_DEPTH);

/// The longest time limit of a bot, in seconds: one day.
pub const MAX_TIME_LIMIT: f64 = 86_400.0;

/// The widest picture, in pixels.
pub const MAX_SVG_SIZE: u32 = 100_000;

/// The most arrows in one picture (one for each ordered pair of cells, and more).
pub const MAX_ARROWS: usize = 10_000;

/// `ValueError` for an argument outside its range.
pub fn out_of_range(name: &str, range: &str, value: impl std::fmt::Display) -> PyErr {
    PyValueError::new_err(format!("{name} must be {range}, not {value}"))
}

/// The argument `name`, `value`, as a `T` within `range`, else [`out_of_range`] with
/// `range_text` (how the message words the range, say `"1 to MAX_ENVS (4096)"`).
pub fn in_range<T, V>(
    name: &str,
    value: V,
    range: RangeInclusive<T>,
    range_text: &str,
) -> PyResult<T>
where
    T: TryFrom<V> + PartialOrd,
    V: Copy + std::fmt::Display,
{
    T::try_from(value)
        .ok()
        .filter(|v| range.contains(v))
        .ok_or_else(|| out_of_range(name, range_text, value))
}

/// [`in_range`] for `low..=high`, the message saying the range from its bounds:
/// `"{low} to {high}"`, or with `high_name` (the Python constant that holds `high`)
/// `"{low} to {high_name} ({high})"`.
pub fn bounded<T, V>(name: &str, value: V, low: T, high: T, high_name: Option<&str>) -> PyResult<T>
where
    T: TryFrom<V> + PartialOrd + std::fmt::Display,
    V: Copy + std::fmt::Display,
{
    let text = match high_name {
        Some(constant) => format!("{low} to {constant} ({high})"),
        None => format!("{low} to {high}"),
    };
    in_range(name, value, low..=high, &text)
}

/// The number of threads of `threads=`: 1 to `agon_rl::VecEnv::MAX_THREADS`, all cores if
/// `None`.
pub fn threads(threads: Option<crate::types::Int<i64>>) -> PyResult<usize> {
    let max = agon_rl::VecEnv::MAX_THREADS;
    match threads {
        None => Ok(agon_rl::VecEnv::default_threads()),
        Some(t) => bounded("threads", t.0, 1, max, None),
    }
}

/// A time in seconds, the argument `name`: an int or a float (not a bool) from 0 to
/// `MAX_TIME_LIMIT`, rounded to the nearest millisecond (the resolution of a bot spec, so
/// that a bot's name, and so its pickle, keeps its limit exactly: at most 86 400 000 ms,
/// exact in an f64 and a u64).
pub fn seconds(obj: Borrowed<'_, '_, PyAny>, name: &str) -> PyResult<Duration> {
    if obj.is_instance_of::<PyBool>() {
        return Err(PyTypeError::new_err(format!(
            "{name} is a number of seconds or None, not bool"
        )));
    }
    let seconds: f64 = obj.extract()?;
    // NaN fails the range test.
    if !(0.0..=MAX_TIME_LIMIT).contains(&seconds) {
        return Err(out_of_range(
            name,
            &format!("0 to MAX_TIME_LIMIT ({MAX_TIME_LIMIT}) seconds"),
            seconds,
        ));
    }
    Ok(Duration::from_millis((seconds * 1000.0).round() as u64))
}
