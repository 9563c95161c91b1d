//! `agon.review`: a game reviewed by the engine (agon-bots' `review`), computed without
//! the GIL, as an immutable `Review` of `ReviewPosition`s and `ReviewPly`s. The figures
//! are agon-bots'; this module only converts them.

use agon_bots::{Judgement, PlyReview, PositionReview, Review, Tally};
use agon_core as ac;
use agon_svg::{EvaluationGraph, Mark};
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::analysis::ScorePy;
use crate::game::GamePy;
use crate::limits;
use crate::types::{move_obj, Int, MovePy, SidePy};

/// The most nodes `review` searches each position with: at about a million nodes a
/// second, a 400-ply game at this budget takes over an hour.
const MAX_REVIEW_NODES: i64 = 10_000_000;

/// One position of a reviewed game (`Review.positions`): the player to act (`side`), the
/// engine's `score` for that player and its move `best` (both `None` where the game is
/// over), its expected line `pv`, and `white`, White's expected score there from 0 to 1
/// (the evaluation's, or the result where the game is over). Immutable.
#[pyclass(frozen, module = "agon._agon", name = "ReviewPosition")]
pub struct ReviewPositionPy(PositionReview);

#[pymethods]
impl ReviewPositionPy {
    /// The player to act: the side to move, or the captor placing a queen.
    #[getter]
    fn side(&self) -> SidePy {
        self.0.side.into()
    }

    /// The engine's score for `side`, or `None` where the game is over.
    #[getter]
    fn score(&self) -> Option<ScorePy> {
        self.0.evaluation.map(ScorePy)
    }

    /// The engine's move, or `None` where the game is over.
    #[getter]
    fn best<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, MovePy>>> {
        self.0.best.map(|m| move_obj(py, m)).transpose()
    }

    /// The line the engine expects from here, a new list each time (`best` first; empty
    /// where the game is over).
    #[getter]
    fn pv<'py>(&self, py: Python<'py>) -> PyResult<Vec<Bound<'py, MovePy>>> {
        self.0.pv.iter().map(|&m| move_obj(py, m)).collect()
    }

    /// White's expected score here, from 0 to 1.
    #[getter]
    fn white(&self) -> f64 {
        self.0.white
    }

    fn __repr__(&self) -> String {
        match (self.0.evaluation, self.0.best) {
            (Some(e), Some(best)) => {
                format!(
                    "<ReviewPosition {:?}: {e}, best {best}, white {:.3}>",
                    self.0.side, self.0.white
                )
            }
            _ => format!("<ReviewPosition: game over, white {:.3}>", self.0.white),
        }
    }
}

/// One action of a reviewed game (`Review.plies`): its index `ply` (from 0), the player
/// who took it (`side`), the action (`move`), the engine's choice in the same position
/// (`best`), the player's expected score `before` and `after` it (0 to 1), what it gave
/// away (`loss`: `before - after`, at least 0, and 0 for the engine's own choice), and its
/// `judgement`: `"inaccuracy"` (a loss of at least 0.05), `"mistake"` (0.10), `"blunder"`
/// (0.15) or `None`. Immutable.
#[pyclass(frozen, module = "agon._agon", name = "ReviewPly")]
pub struct ReviewPlyPy(PlyReview);

#[pymethods]
impl ReviewPlyPy {
    /// The action's index in the game's moves, from 0.
    #[getter]
    fn ply(&self) -> usize {
        self.0.ply
    }

    /// The player who took the action.
    #[getter]
    fn side(&self) -> SidePy {
        self.0.side.into()
    }

    /// The action taken.
    #[getter]
    fn r#move<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, MovePy>> {
        move_obj(py, self.0.played)
    }

    /// The engine's choice in the same position.
    #[getter]
    fn best<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, MovePy>> {
        move_obj(py, self.0.best)
    }

    /// The player's expected score before the action, from 0 to 1.
    #[getter]
    fn before(&self) -> f64 {
        self.0.before
    }

    /// The player's expected score after the action, from 0 to 1.
    #[getter]
    fn after(&self) -> f64 {
        self.0.after
    }

    /// What the action gave away, in expected score (0 to 1).
    #[getter]
    fn loss(&self) -> f64 {
        self.0.loss
    }

    /// `"inaccuracy"`, `"mistake"`, `"blunder"`, or `None`.
    #[getter]
    fn judgement(&self) -> Option<&'static str> {
        self.0.judgement.map(|j| j.name())
    }

    fn __repr__(&self) -> String {
        let judgement = self
            .0
            .judgement
            .map(|j| format!(" ({j})"))
            .unwrap_or_default();
        format!(
            "<ReviewPly {}: {:?} {}, best {}, loss {:.3}{judgement}>",
            self.0.ply, self.0.side, self.0.played, self.0.best, self.0.loss
        )
    }
}

/// A game reviewed by the engine (`agon.review`): `positions`, one `ReviewPosition` per
/// position of the game (the start first, one more than its actions), `plies`, one
/// `ReviewPly` per action, and `nodes`, the budget each position was searched with.
/// `tally(side)` counts a player's inaccuracies, mistakes and blunders. Immutable.
#[pyclass(frozen, module = "agon._agon", name = "Review")]
pub struct ReviewPy(Review);

#[pymethods]
impl ReviewPy {
    /// The node budget each position was searched with.
    #[getter]
    fn nodes(&self) -> u64 {
        self.0.nodes
    }

    /// Every position of the game, the start first, a new list each time.
    #[getter]
    fn positions(&self) -> Vec<ReviewPositionPy> {
        self.0
            .positions
            .iter()
            .cloned()
            .map(ReviewPositionPy)
            .collect()
    }

    /// Every action of the game, in order, a new list each time.
    #[getter]
    fn plies(&self) -> Vec<ReviewPlyPy> {
        self.0.plies.iter().cloned().map(ReviewPlyPy).collect()
    }

    /// A player's tally, as a dict: `actions`, `inaccuracies`, `mistakes`, `blunders`
    /// (each action counted once, under its judgement) and `mean_loss` (the mean loss per
    /// action in expected score, 0 without actions).
    fn tally<'py>(&self, py: Python<'py>, side: SidePy) -> PyResult<Bound<'py, PyDict>> {
        let Tally {
            actions,
            inaccuracies,
            mistakes,
            blunders,
            mean_loss,
            ..
        } = self.0.tally(side.into());
        let dict = PyDict::new(py);
        dict.set_item("actions", actions)?;
        dict.set_item("inaccuracies", inaccuracies)?;
        dict.set_item("mistakes", mistakes)?;
        dict.set_item("blunders", blunders)?;
        dict.set_item("mean_loss", mean_loss)?;
        Ok(dict)
    }

    fn __len__(&self) -> usize {
        self.0.plies.len()
    }

    /// The evaluation graph as SVG, for notebooks: White's expected score from the start
    /// to the end, each judged action a dot (drawn by agon-svg, as the web game's review).
    fn _repr_svg_(&self) -> String {
        let white: Vec<f64> = self.0.positions.iter().map(|p| p.white).collect();
        let mut graph = EvaluationGraph::new(&white);
        for ply in &self.0.plies {
            let mark = match ply.judgement {
                Some(Judgement::Inaccuracy) => Mark::Inaccuracy,
                Some(Judgement::Mistake) => Mark::Mistake,
                Some(Judgement::Blunder) => Mark::Blunder,
                _ => continue,
            };
            graph = graph.mark(ply.ply + 1, mark);
        }
        graph.to_string()
    }

    fn __repr__(&self) -> String {
        let count = |side| {
            let t = self.0.tally(side);
            format!("{}/{}/{}", t.inaccuracies, t.mistakes, t.blunders)
        };
        format!(
            "<Review of {} plies at {} nodes: inaccuracies/mistakes/blunders White {}, Black {}>",
            self.0.plies.len(),
            self.0.nodes,
            count(ac::Side::White),
            count(ac::Side::Black)
        )
    }
}

/// Reviews a `Game` with the engine, without holding the GIL: each of its positions is
/// searched by a fresh single-threaded engine to `nodes` nodes (1 to 10,000,000; the
/// default is agon-bots' `Review::DEFAULT_NODES`, 50,000), and each action is judged by
/// the expected score it cost its player. The same game and budget give the same review
/// on any machine. The time grows with the game's length times `nodes`: about a second
/// per 20 plies at the default on one core.
///
/// Raises `TypeError` for anything but a `Game`, and `ValueError` for `nodes` out of its
/// range.
#[pyfunction]
#[pyo3(
    signature = (game, *, nodes = Int(Review::DEFAULT_NODES as i64)),
    text_signature = "(game, *, nodes=50000)"
)]
pub fn review(py: Python<'_>, game: &Bound<'_, PyAny>, nodes: Int<i64>) -> PyResult<ReviewPy> {
    let Ok(game) = game.cast::<GamePy>() else {
        return Err(PyTypeError::new_err(format!(
            "review() takes a Game, not {}",
            game.get_type().name()?
        )));
    };
    let nodes: i64 = limits::bounded("nodes", nodes.0, 1, MAX_REVIEW_NODES, None)?;
    let game = game.get().lock(py)?.game.clone();
    Ok(ReviewPy(
        py.detach(|| agon_bots::review(&game, nodes as u64)),
    ))
}

/// Adds the review to the native module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<ReviewPy>()?;
    m.add_class::<ReviewPositionPy>()?;
    m.add_class::<ReviewPlyPy>()?;
    m.add_function(wrap_pyfunction!(review, m)?)?;
    Ok(())
}
