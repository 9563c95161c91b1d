//! Throughput without the GIL: perft, random playouts, and `VecEnv`, a batch of games
//! stepped by action numbers with numpy arrays in and out.

use agon_core as ac;
use agon_core::random::{random_playout, Rng};
use numpy::{
    Element, PyArray1, PyArrayDyn, PyArrayMethods, PyReadwriteArrayDyn, PyUntypedArrayMethods,
};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyDictMethods, PyTuple};

use crate::actions::{self, ACTION_COUNT};
use crate::errors;
use crate::game::GamePy;
use crate::position::{PositionArg, PositionPy};

/// The number of leaves of the tree of legal moves from `position`, `depth` plies deep,
/// computed without holding the GIL.
#[pyfunction]
pub fn perft(py: Python<'_>, position: PositionArg, depth: u32) -> u64 {
    let p = position.0;
    py.detach(move || ac::perft(&p, depth))
}

/// Plays `n` games of uniformly random legal moves from `start` (the start position by
/// default) with the core's seeded generator, without holding the GIL, and returns their
/// statistics: `games`, `plies` (total), `plies_mean`, `plies_min`, `plies_max`,
/// `white_wins`, `black_wins`, `draws`, and `reasons` (a dict from each end reason to its
/// count). The same seed gives the same games everywhere (Rust, Python, the bots).
#[pyfunction]
#[pyo3(signature = (n, seed = 0, start = None))]
pub fn random_playouts<'py>(
    py: Python<'py>,
    n: u64,
    seed: u64,
    start: Option<PositionArg>,
) -> PyResult<Bound<'py, PyDict>> {
    let start = start.map_or_else(ac::Position::start, |p| p.0);
    struct Stats {
        plies: u64,
        min: u64,
        max: u64,
        wins: [u64; 2],
        draws: u64,
        reasons: [u64; 4],
    }
    let s = py.detach(move || {
        let mut rng = Rng::new(seed);
        let mut game = ac::Game::from_position(start);
        let mut s = Stats {
            plies: 0,
            min: u64::MAX,
            max: 0,
            wins: [0; 2],
            draws: 0,
            reasons: [0; 4],
        };
        for _ in 0..n {
            game.restart(start);
            let outcome = random_playout(&mut game, &mut rng);
            let plies = game.moves().len() as u64;
            s.plies += plies;
            s.min = s.min.min(plies);
            s.max = s.max.max(plies);
            match outcome.winner {
                Some(side) => s.wins[side.index()] += 1,
                None => s.draws += 1,
            }
            if let Some(i) = ac::EndReason::ALL.iter().position(|&r| r == outcome.reason) {
                s.reasons[i] += 1;
            }
        }
        s
    });
    let d = PyDict::new(py);
    d.set_item("games", n)?;
    d.set_item("plies", s.plies)?;
    d.set_item(
        "plies_mean",
        if n > 0 {
            s.plies as f64 / n as f64
        } else {
            0.0
        },
    )?;
    d.set_item("plies_min", if n > 0 { s.min } else { 0 })?;
    d.set_item("plies_max", s.max)?;
    d.set_item("white_wins", s.wins[0])?;
    d.set_item("black_wins", s.wins[1])?;
    d.set_item("draws", s.draws)?;
    let reasons = PyDict::new(py);
    for (r, count) in ac::EndReason::ALL.iter().zip(s.reasons) {
        reasons.set_item(r.name(), count)?;
    }
    d.set_item("reasons", reasons)?;
    Ok(d)
}

/// A batch of `n` games for reinforcement learning, stepped by action numbers.
///
/// `step(actions)` plays one action in every game (an int array of `n` actions, each legal
/// in its game, else `IllegalMoveError` is raised and no game changes) and returns
/// `(observations, rewards, terminations, masks)`:
///
/// - `observations`: float32 `(n, 11, 91)`, or `(n, 11, 11, 11)` with `axial=True`: each
///   game's next position from its side to move's view (`Position.observation`);
/// - `rewards`: float32 `(n,)`: +1 if the action won the game for the side that played
///   it, -1 if it lost it (a ring of guards without the queen on the throne), 0 otherwise
///   (draws included);
/// - `terminations`: bool `(n,)`: whether the action ended the game;
/// - `masks`: bool `(n, ACTION_COUNT)`: the legal actions of the next position.
///
/// A game that ends is started again at once (from `start`): its observation and mask
/// are those of the new game. Pass `out=(observations, rewards, terminations, masks)`,
/// C-contiguous arrays of those shapes and dtypes, to have them filled in place instead of
/// allocated. The work runs without the GIL.
#[pyclass(module = "agon._agon", name = "VecEnv")]
pub struct VecEnv {
    games: Vec<ac::Game>,
    start: ac::Position,
    rng: Rng,
    axial: bool,
    moves: Vec<ac::Move>,
}

type StepArrays<'py> = (
    Bound<'py, PyAny>,
    Bound<'py, PyAny>,
    Bound<'py, PyAny>,
    Bound<'py, PyAny>,
);

/// A C-contiguous array of element `T` and exactly `shape`, borrowed for writing: the
/// caller's `out` array if given (checked), else a new one.
fn output<'py, T: Element>(
    py: Python<'py>,
    given: Option<&Bound<'py, PyAny>>,
    shape: &[usize],
    name: &str,
) -> PyResult<(Bound<'py, PyAny>, PyReadwriteArrayDyn<'py, T>)> {
    let array: Bound<'py, PyArrayDyn<T>> = match given {
        Some(obj) => obj
            .cast::<PyArrayDyn<T>>()
            .map_err(|_| {
                PyTypeError::new_err(format!(
                    "out {name}: expected a numpy array of dtype {}",
                    T::get_dtype(py)
                ))
            })?
            .clone(),
        None => PyArrayDyn::<T>::zeros(py, shape, false),
    };
    if array.shape() != shape || !array.is_c_contiguous() {
        return Err(PyValueError::new_err(format!(
            "out {name}: expected a C-contiguous array of shape {shape:?}, got shape {:?}",
            array.shape()
        )));
    }
    let rw = array
        .try_readwrite()
        .map_err(|e| PyValueError::new_err(format!("out {name}: {e}")))?;
    Ok((array.into_any(), rw))
}

impl VecEnv {
    fn obs_shape(&self) -> Vec<usize> {
        let n = self.games.len();
        if self.axial {
            vec![
                n,
                actions::CHANNEL_COUNT,
                actions::AXIAL_SIDE,
                actions::AXIAL_SIDE,
            ]
        } else {
            vec![n, actions::CHANNEL_COUNT, actions::FLAT]
        }
    }

    /// Writes the observations and masks of every game.
    fn write_all(games: &[ac::Game], axial: bool, obs: &mut [f32], masks: &mut [bool]) {
        let len = actions::observation_len(axial);
        for ((g, o), m) in games
            .iter()
            .zip(obs.chunks_exact_mut(len))
            .zip(masks.chunks_exact_mut(ACTION_COUNT))
        {
            actions::write_observation(g.position(), axial, o);
            actions::write_mask(g.actions().iter(), m);
        }
    }

    fn unpack_out<'py>(
        out: Option<&Bound<'py, PyTuple>>,
        n: usize,
    ) -> PyResult<Vec<Option<Bound<'py, PyAny>>>> {
        match out {
            None => Ok(vec![None; n]),
            Some(t) if t.len() == n => Ok(t.iter().map(Some).collect()),
            Some(_) => Err(PyValueError::new_err(format!(
                "out must be a tuple of {n} arrays"
            ))),
        }
    }
}

#[pymethods]
impl VecEnv {
    /// `n` games from `start` (the start position by default); `seed` seeds
    /// `random_actions`; `axial` selects the (11, 11, 11) observation layout.
    #[new]
    #[pyo3(signature = (n, seed = 0, axial = false, start = None))]
    fn new(n: usize, seed: u64, axial: bool, start: Option<PositionArg>) -> PyResult<VecEnv> {
        if n == 0 {
            return Err(PyValueError::new_err("a VecEnv needs at least one game"));
        }
        let start = start.map_or_else(ac::Position::start, |p| p.0);
        if start.is_over() {
            return Err(PyValueError::new_err(
                "the start position is already decided",
            ));
        }
        Ok(VecEnv {
            games: (0..n).map(|_| ac::Game::from_position(start)).collect(),
            start,
            rng: Rng::new(seed),
            axial,
            moves: Vec::with_capacity(n),
        })
    }

    /// The number of games.
    #[getter]
    fn num_envs(&self) -> usize {
        self.games.len()
    }

    fn __len__(&self) -> usize {
        self.games.len()
    }

    /// The shape of one game's observation.
    #[getter]
    fn observation_shape<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        PyTuple::new(py, &self.obs_shape()[1..])
    }

    /// The number of actions (`agon.ACTION_COUNT`).
    #[getter]
    fn action_count(&self) -> usize {
        ACTION_COUNT
    }

    /// Starts every game again (reseeding `random_actions` if `seed` is given) and
    /// returns `(observations, masks)`; `out=(observations, masks)` fills arrays in place.
    #[pyo3(signature = (seed = None, out = None))]
    fn reset<'py>(
        &mut self,
        py: Python<'py>,
        seed: Option<u64>,
        out: Option<Bound<'py, PyTuple>>,
    ) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyAny>)> {
        if let Some(s) = seed {
            self.rng = Rng::new(s);
        }
        for g in &mut self.games {
            g.restart(self.start);
        }
        self.observe(py, out)
    }

    /// The current `(observations, masks)`; `out=(observations, masks)` fills arrays in
    /// place.
    #[pyo3(signature = (out = None))]
    fn observe<'py>(
        &self,
        py: Python<'py>,
        out: Option<Bound<'py, PyTuple>>,
    ) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyAny>)> {
        let given = VecEnv::unpack_out(out.as_ref(), 2)?;
        let n = self.games.len();
        let (obs, mut obs_rw) =
            output::<f32>(py, given[0].as_ref(), &self.obs_shape(), "observations")?;
        let (masks, mut masks_rw) =
            output::<bool>(py, given[1].as_ref(), &[n, ACTION_COUNT], "masks")?;
        let o = obs_rw
            .as_slice_mut()
            .map_err(|e| PyValueError::new_err(e.to_string()))?;
        let m = masks_rw
            .as_slice_mut()
            .map_err(|e| PyValueError::new_err(e.to_string()))?;
        let (games, axial) = (&self.games, self.axial);
        py.detach(move || VecEnv::write_all(games, axial, o, m));
        Ok((obs, masks))
    }

    /// Plays one action in every game; see the class documentation.
    #[pyo3(signature = (actions, out = None))]
    fn step<'py>(
        &mut self,
        py: Python<'py>,
        actions: Bound<'py, PyAny>,
        out: Option<Bound<'py, PyTuple>>,
    ) -> PyResult<StepArrays<'py>> {
        let n = self.games.len();
        let actions = match actions.cast::<PyArray1<i64>>() {
            Ok(a) => a.clone(),
            Err(_) => py
                .import("numpy")?
                .call_method1("ascontiguousarray", (actions, "int64"))?
                .cast_into::<PyArray1<i64>>()
                .map_err(|_| PyValueError::new_err("actions must be a 1-dimensional int array"))?,
        };
        let actions = actions
            .try_readonly()
            .map_err(|e| PyValueError::new_err(e.to_string()))?;
        let actions = actions.as_array();
        if actions.len() != n {
            return Err(PyValueError::new_err(format!(
                "expected {n} actions, got {}",
                actions.len()
            )));
        }
        // Check every action before changing any game.
        self.moves.clear();
        for (i, (&a, g)) in actions.iter().zip(&self.games).enumerate() {
            let m = usize::try_from(a)
                .ok()
                .and_then(|a| actions::action_to_move(g.position(), a))
                .filter(|&m| g.is_legal(m));
            match m {
                Some(m) => self.moves.push(m),
                None => {
                    let err = errors::illegal_action(
                        py,
                        format!(
                            "action {a} is not legal in game {i} (position {})",
                            g.position().to_text()
                        ),
                        "illegal-action",
                    );
                    let value = err.value(py);
                    value.setattr("env", i)?;
                    value.setattr("action", a)?;
                    return Err(err);
                }
            }
        }
        let given = VecEnv::unpack_out(out.as_ref(), 4)?;
        let (obs, mut obs_rw) =
            output::<f32>(py, given[0].as_ref(), &self.obs_shape(), "observations")?;
        let (rewards, mut rewards_rw) = output::<f32>(py, given[1].as_ref(), &[n], "rewards")?;
        let (terms, mut terms_rw) = output::<bool>(py, given[2].as_ref(), &[n], "terminations")?;
        let (masks, mut masks_rw) =
            output::<bool>(py, given[3].as_ref(), &[n, ACTION_COUNT], "masks")?;
        let err = |e: numpy::AsSliceError| PyValueError::new_err(e.to_string());
        let o = obs_rw.as_slice_mut().map_err(err)?;
        let r = rewards_rw.as_slice_mut().map_err(err)?;
        let t = terms_rw.as_slice_mut().map_err(err)?;
        let m = masks_rw.as_slice_mut().map_err(err)?;
        let (games, moves, start, axial) = (&mut self.games, &self.moves, self.start, self.axial);
        py.detach(move || {
            let len = actions::observation_len(axial);
            let rows = games
                .iter_mut()
                .zip(moves)
                .zip(o.chunks_exact_mut(len))
                .zip(m.chunks_exact_mut(ACTION_COUNT))
                .zip(r.iter_mut().zip(t.iter_mut()));
            for ((((g, &mv), obs), mask), (reward, term)) in rows {
                let mover = g.position().turn();
                g.push_unchecked(mv);
                match g.outcome() {
                    Some(outcome) => {
                        *reward = match outcome.winner {
                            Some(w) if w == mover => 1.0,
                            Some(_) => -1.0,
                            None => 0.0,
                        };
                        *term = true;
                        g.restart(start);
                    }
                    None => {
                        *reward = 0.0;
                        *term = false;
                    }
                }
                actions::write_observation(g.position(), axial, obs);
                actions::write_mask(g.actions().iter(), mask);
            }
        });
        Ok((obs, rewards, terms, masks))
    }

    /// A uniformly random legal action for every game (int64 `(n,)`), from the seeded
    /// generator.
    fn random_actions<'py>(&mut self, py: Python<'py>) -> Bound<'py, PyArray1<i64>> {
        let (games, rng) = (&self.games, &mut self.rng);
        let v: Vec<i64> = py.detach(move || {
            games
                .iter()
                .map(|g| {
                    // A game in the batch is never over (it restarts when it ends), so it
                    // always has a legal move; -1 would mark one without.
                    let legal = g.actions();
                    let count = legal.len();
                    if count == 0 {
                        return -1;
                    }
                    legal
                        .nth(rng.below(count))
                        .and_then(actions::move_to_action)
                        .map_or(-1, |a| a as i64)
                })
                .collect()
        });
        PyArray1::from_vec(py, v)
    }

    /// The current position of game `i`.
    fn position(&self, i: usize) -> PyResult<PositionPy> {
        self.games
            .get(i)
            .map(|g| PositionPy(*g.position()))
            .ok_or_else(|| pyo3::exceptions::PyIndexError::new_err("no such game"))
    }

    /// A copy of game `i` since its last start.
    fn game(&self, py: Python<'_>, i: usize) -> PyResult<GamePy> {
        self.games
            .get(i)
            .map(|g| GamePy::wrap(py, g.clone()))
            .ok_or_else(|| pyo3::exceptions::PyIndexError::new_err("no such game"))
    }
}
