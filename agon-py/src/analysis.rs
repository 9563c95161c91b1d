//! `agon.analyse`: the engine's analysis of a position or a game (agon-bots'
//! `Engine::analyse`), searched without the GIL, as immutable `AnalysisLine`s and `Score`s.
//! The arguments are checked here, each against its range, so that the engine (which
//! brings numbers into range silently) never sees one it would change.

use std::time::Duration;

use agon_bots::{Analysis, Engine, Evaluation, Limits};
use agon_core as ac;
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;

use crate::game::GamePy;
use crate::limits;
use crate::position::PositionPy;
use crate::types::{move_obj, Int, MovePy, Reduced};

/// A score for the side to move: `cp` centipoints (`Score(cp=123)`, shown `+1.23`), or a
/// forced result: `win_in` N moves (`Score(win_in=2)`, shown `win in 2`: the side to move
/// wins with its N-th move from now, whatever the opponent does) or `loss_in` N moves
/// (the opponent wins with its N-th move). Exactly one of the three is set; the others
/// are `None`. A score of `s` centipoints predicts an expected result of
/// `1 / (1 + 10 ** (-s / 400))` for the side to move.
///
/// Scores compare from worst to best: losses (later is better), then centipoints, then
/// wins (sooner is better), so `max(scores)` is the best. They are immutable, hash, and
/// pickle.
#[pyclass(frozen, eq, ord, hash, module = "agon._agon", name = "Score")]
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct ScorePy(pub Evaluation);

/// The arguments of `Score(cp, win_in, loss_in)`.
type ScoreParts = (Option<i32>, Option<u32>, Option<u32>);

#[pymethods]
impl ScorePy {
    /// A score from exactly one of `cp` (centipoints, -2**31 to 2**31 - 1), `win_in` or
    /// `loss_in` (moves, 1 to 2**32 - 1).
    #[new]
    #[pyo3(signature = (cp = None, win_in = None, loss_in = None))]
    fn new(
        cp: Option<Int<i64>>,
        win_in: Option<Int<i64>>,
        loss_in: Option<Int<i64>>,
    ) -> PyResult<ScorePy> {
        let moves =
            |name: &str, n: i64| limits::in_range(name, n, 1..=u32::MAX, "1 to 2**32 - 1 moves");
        match (cp, win_in, loss_in) {
            (Some(cp), None, None) => i32::try_from(cp.0)
                .map(|cp| ScorePy(Evaluation::Points(cp)))
                .map_err(|_| limits::out_of_range("cp", "-2**31 to 2**31 - 1", cp.0)),
            (None, Some(n), None) => Ok(ScorePy(Evaluation::Win(moves("win_in", n.0)?))),
            (None, None, Some(n)) => Ok(ScorePy(Evaluation::Loss(moves("loss_in", n.0)?))),
            _ => Err(PyValueError::new_err(
                "a score is exactly one of cp, win_in or loss_in",
            )),
        }
    }

    /// The score in centipoints, or `None` for a forced result.
    #[getter]
    fn cp(&self) -> Option<i32> {
        match self.0 {
            Evaluation::Points(p) => Some(p),
            _ => None,
        }
    }

    /// N when the side to move wins with its N-th move, else `None`.
    #[getter]
    fn win_in(&self) -> Option<u32> {
        match self.0 {
            Evaluation::Win(n) => Some(n),
            _ => None,
        }
    }

    /// N when the opponent wins with its N-th move, else `None`.
    #[getter]
    fn loss_in(&self) -> Option<u32> {
        match self.0 {
            Evaluation::Loss(n) => Some(n),
            _ => None,
        }
    }

    fn __str__(&self) -> String {
        self.0.to_string()
    }

    fn __repr__(&self) -> String {
        match self.0 {
            Evaluation::Points(p) => format!("Score(cp={p})"),
            Evaluation::Win(n) => format!("Score(win_in={n})"),
            Evaluation::Loss(n) => format!("Score(loss_in={n})"),
        }
    }

    /// Pickles as `Score(cp, win_in, loss_in)`.
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<Reduced<'py, ScoreParts>> {
        let s = slf.get();
        Ok((slf.get_type().into_any(), (s.cp(), s.win_in(), s.loss_in())))
    }

    /// Itself: the value is immutable.
    fn __copy__(slf: Bound<'_, Self>) -> Bound<'_, Self> {
        slf
    }

    /// Itself: the value is immutable.
    fn __deepcopy__<'py>(slf: Bound<'py, Self>, _memo: Bound<'py, PyAny>) -> Bound<'py, Self> {
        slf
    }
}

/// One line of an analysis (`agon.analyse`): its first move (`move`), its `score` for the
/// side to move, and its principal variation `pv` (the move, then the expected
/// continuation, possibly short); `multipv` is its rank, 1 for the best line. The search's
/// statistics are the same on every line of one analysis: `depth` (the deepest iteration
/// completed, 0 if none finished), `seldepth` (the deepest ply reached), `nodes`
/// (positions visited, on all threads), `nps` (nodes per second) and `time` (seconds).
/// Immutable.
#[pyclass(frozen, module = "agon._agon", name = "AnalysisLine")]
pub struct AnalysisLinePy {
    multipv: usize,
    /// The first move of `pv`.
    first: ac::Move,
    score: Evaluation,
    pv: Vec<ac::Move>,
    depth: u32,
    seldepth: u32,
    nodes: u64,
    nps: u64,
    time: f64,
}

#[pymethods]
impl AnalysisLinePy {
    /// The first move of the line: the move the line is about.
    #[getter]
    fn r#move<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, MovePy>> {
        move_obj(py, self.first)
    }

    /// The score of the line for the side to move.
    #[getter]
    fn score(&self) -> ScorePy {
        ScorePy(self.score)
    }

    /// The moves of the line from the analysed position, a new list each time: a legal
    /// sequence, `move` first.
    #[getter]
    fn pv<'py>(&self, py: Python<'py>) -> PyResult<Vec<Bound<'py, MovePy>>> {
        self.pv.iter().map(|&m| move_obj(py, m)).collect()
    }

    /// The rank of the line: 1 for the best, then 2, ...
    #[getter]
    fn multipv(&self) -> usize {
        self.multipv
    }

    /// The deepest iteration the search completed, in plies (0 if none finished).
    #[getter]
    fn depth(&self) -> u32 {
        self.depth
    }

    /// The deepest ply the search reached, quiescence included.
    #[getter]
    fn seldepth(&self) -> u32 {
        self.seldepth
    }

    /// The positions the search visited, on all threads.
    #[getter]
    fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Nodes per second (0 for a search too short to time).
    #[getter]
    fn nps(&self) -> u64 {
        self.nps
    }

    /// How long the search took, in seconds.
    #[getter]
    fn time(&self) -> f64 {
        self.time
    }

    fn __repr__(&self) -> String {
        let pv: Vec<String> = self.pv.iter().map(ToString::to_string).collect();
        format!(
            "<AnalysisLine {}: {}, depth {}, nodes {}, pv {}>",
            self.multipv,
            self.score,
            self.depth,
            self.nodes,
            pv.join(" ")
        )
    }
}

/// A time in seconds: see [`limits::seconds`].
pub struct Seconds(Duration);

impl<'a, 'py> FromPyObject<'a, 'py> for Seconds {
    type Error = PyErr;

    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<Self> {
        limits::seconds(obj, "time").map(Seconds)
    }
}

/// `value` if it is within `low..=high`, else a `ValueError` naming `name`.
fn within(name: &str, value: i64, low: i64, high: i64) -> PyResult<i64> {
    limits::bounded(name, value, low, high, None)
}

/// Analyses a `Position` or the current position of a `Game` (whose history counts for
/// repetition) with the engine, without holding the GIL, and returns its best `multipv`
/// lines as `AnalysisLine`s, best first (the first is the engine's choice; fewer lines
/// only if a time or node limit stopped the search before it found them all).
///
/// The search stops at the first of its limits, of which at least one is needed: `time`
/// (seconds, 0 to `MAX_TIME_LIMIT`), `nodes` (at least 1) and `depth` (plies, 1 to 100).
/// `multipv` is 1 to the number of legal moves; `threads` (1 to 64) search together, and
/// `hash_mib` (1 to 4096) sizes the engine's transposition table, made for the call. With
/// one thread and no time limit the analysis is deterministic: the same call gives the
/// same lines and node count.
///
/// Raises `ValueError` for a finished game, no limit, or a number out of its range
/// (before any search), and `TypeError` for a position that is neither a `Position` nor
/// a `Game`.
#[pyfunction]
#[pyo3(
    signature = (
        position, *, time = None, nodes = None, depth = None, multipv = Int(1),
        threads = Int(1), hash_mib = Int(Engine::DEFAULT_HASH_MIB as i64)
    ),
    text_signature = "(position, *, time=None, nodes=None, depth=None, multipv=1, threads=1, hash_mib=16)"
)]
#[allow(clippy::too_many_arguments)]
pub fn analyse(
    py: Python<'_>,
    position: &Bound<'_, PyAny>,
    time: Option<Seconds>,
    nodes: Option<Int<i64>>,
    depth: Option<Int<i64>>,
    multipv: Int<i64>,
    threads: Int<i64>,
    hash_mib: Int<i64>,
) -> PyResult<Vec<AnalysisLinePy>> {
    let game = if let Ok(p) = position.cast::<PositionPy>() {
        ac::Game::from_position(p.get().0)
    } else if let Ok(g) = position.cast::<GamePy>() {
        g.get().lock(py)?.game.clone()
    } else {
        return Err(PyTypeError::new_err(format!(
            "analyse() takes a Position or a Game, not {}",
            position.get_type().name()?
        )));
    };
    let mut limits = Limits::default();
    if let Some(t) = time {
        limits = limits.with_time(t.0);
    }
    if let Some(n) = nodes {
        if n.0 < 1 {
            return Err(limits::out_of_range("nodes", "at least 1", n.0));
        }
        limits = limits.with_nodes(n.0 as u64);
    }
    if let Some(d) = depth {
        limits = limits.with_depth(within("depth", d.0, 1, i64::from(Engine::MAX_DEPTH))? as u32);
    }
    if !limits.is_bounded() {
        return Err(PyValueError::new_err(
            "give a time, nodes or depth limit: without one the analysis would not end",
        ));
    }
    let threads = within("threads", threads.0, 1, Engine::MAX_THREADS as i64)? as usize;
    let hash_mib = within("hash_mib", hash_mib.0, 1, Engine::MAX_HASH_MIB as i64)? as usize;
    if let Some(outcome) = game.outcome() {
        return Err(PyValueError::new_err(format!(
            "the game is over ({outcome}): there is nothing to analyse"
        )));
    }
    let legal = game.legal_moves().len();
    let multipv = limits::in_range(
        "multipv",
        multipv.0,
        1..=legal,
        &format!("1 to {legal} (the legal moves)"),
    )?;
    let analysis: Analysis = py
        .detach(|| {
            Engine::new(limits)
                .with_threads(threads)
                .with_hash_mib(hash_mib)
                .analyse(&game, limits, multipv)
        })
        // Refused only for a finished game or no limit, both checked above.
        .map_err(|e| PyValueError::new_err(e.to_string()))?;
    let nps = analysis.nps();
    let time = analysis.time.as_secs_f64();
    // Every line has a move (its principal variation is never empty).
    Ok(analysis
        .lines
        .into_iter()
        .filter_map(|line| Some((*line.pv.first()?, line)))
        .enumerate()
        .map(|(k, (first, line))| AnalysisLinePy {
            multipv: k + 1,
            first,
            score: line.score,
            pv: line.pv,
            depth: analysis.depth,
            seldepth: analysis.seldepth,
            nodes: analysis.nodes,
            nps,
            time,
        })
        .collect())
}

/// Adds the analysis to the native module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<ScorePy>()?;
    m.add_class::<AnalysisLinePy>()?;
    m.add_function(wrap_pyfunction!(analyse, m)?)?;
    Ok(())
}
