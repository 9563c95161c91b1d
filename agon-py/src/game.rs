//! `Game`: a position with its history, undo, repetition, and game records.

use agon_core as ac;
use numpy::PyArray1;
use pyo3::exceptions::{PyIndexError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyDictMethods, PyList, PyString};

use crate::errors;
use crate::position::{
    actions_array, decode_action, mask_array, observation_array, PositionArg, PositionPy,
};
use crate::types::{cell_list, move_list, move_obj, CellPy, MoveArg, MovePy, OutcomePy, SidePy};

/// A game: the positions from a start, the moves between them, and how it ended.
///
/// `Game()` starts from the start position; `Game(start, moves)` from any position (or its
/// text), playing the moves given (`Move`s or texts). A game knows what a lone position
/// cannot: the draw by repetition (the third occurrence of a position). `push`/`play`
/// plays a move, `pop`/`undo` takes one back; a failed call leaves the game unchanged.
/// `tags` holds a record's tag pairs and `result` its written result.
#[pyclass(module = "agon._agon", name = "Game")]
pub struct GamePy {
    pub game: ac::Game,
    tags: Py<PyDict>,
    /// The result written for a game that is not over: `*`, or a resignation or agreement.
    declared: ac::Score,
}

impl GamePy {
    pub fn wrap(py: Python<'_>, game: ac::Game) -> GamePy {
        GamePy {
            game,
            tags: PyDict::new(py).unbind(),
            declared: ac::Score::Unfinished,
        }
    }

    fn play_move(&mut self, py: Python<'_>, m: ac::Move) -> PyResult<ac::CellSet> {
        let captured = self
            .game
            .play(m)
            .map_err(|e| errors::illegal_move(py, &m.to_string(), e))?;
        self.declared = ac::Score::Unfinished;
        Ok(captured)
    }

    fn record(&self, py: Python<'_>) -> PyResult<ac::Record> {
        let mut record = ac::Record::new(self.game.clone());
        if !self.game.is_over() {
            record.result = self.declared;
        }
        for (name, value) in self.tags.bind(py).iter() {
            let (name, value) = match (name.cast::<PyString>(), value.cast::<PyString>()) {
                (Ok(n), Ok(v)) => (n.to_cow()?.into_owned(), v.to_cow()?.into_owned()),
                _ => return Err(PyTypeError::new_err("tags must map str to str")),
            };
            let valid_name =
                !name.is_empty() && name.bytes().all(|c| c.is_ascii_alphanumeric() || c == b'_');
            if !valid_name || value.contains('\n') {
                return Err(PyValueError::new_err(format!(
                    "a tag name is letters, digits and '_', and a value has no newline: {name:?}"
                )));
            }
            if name == "Position" || name == "Result" {
                continue;
            }
            record.tags.push((name, value));
        }
        Ok(record)
    }
}

fn parse_score(text: &str) -> PyResult<ac::Score> {
    text.parse::<ac::Score>().map_err(|_| {
        PyValueError::new_err(format!("a result is 1-0, 0-1, 1/2-1/2 or *, not {text:?}"))
    })
}

#[pymethods]
impl GamePy {
    /// A game from `start` (a `Position`, its text, or the start position if omitted),
    /// playing `moves`.
    #[new]
    #[pyo3(signature = (start = None, moves = Vec::new()))]
    fn new(py: Python<'_>, start: Option<PositionArg>, moves: Vec<MoveArg>) -> PyResult<GamePy> {
        let start = start.map_or_else(ac::Position::start, |p| p.0);
        let mut game = GamePy::wrap(py, ac::Game::from_position(start));
        for m in &moves {
            let m = m.resolve(py, game.game.position())?;
            game.play_move(py, m)?;
        }
        Ok(game)
    }

    /// Parses and replays a game record (tags, numbered moves, result); raises
    /// `ParseError` (reason `"illegal-move"` for an illegal move, with `move_reason`).
    #[staticmethod]
    fn from_record(py: Python<'_>, text: &str) -> PyResult<GamePy> {
        let record: ac::Record = text
            .parse()
            .map_err(|e| errors::parse_error(py, "game record", text, e))?;
        let tags = PyDict::new(py);
        for (name, value) in &record.tags {
            tags.set_item(name, value)?;
        }
        Ok(GamePy {
            declared: if record.game.is_over() {
                ac::Score::Unfinished
            } else {
                record.result
            },
            game: record.game,
            tags: tags.unbind(),
        })
    }

    /// The game record: tags, `Position` (if not the standard start), `Result`, moves.
    fn to_record(&self, py: Python<'_>) -> PyResult<String> {
        Ok(self.record(py)?.to_string())
    }

    /// The tag pairs of the record (a dict of str to str, kept in order).
    #[getter]
    fn tags<'py>(&self, py: Python<'py>) -> Bound<'py, PyDict> {
        self.tags.bind(py).clone()
    }

    #[setter]
    fn set_tags(&mut self, tags: Bound<'_, PyDict>) -> PyResult<()> {
        self.tags = tags.copy()?.unbind();
        Ok(())
    }

    /// The result: `"1-0"`, `"0-1"`, `"1/2-1/2"` when the game is over; else `"*"` or a
    /// result set by hand (a resignation or an agreement), cleared by the next move.
    #[getter]
    fn result(&self) -> &'static str {
        match self.game.outcome() {
            Some(o) => o.score(),
            None => self.declared.as_str(),
        }
    }

    #[setter]
    fn set_result(&mut self, result: &str) -> PyResult<()> {
        let score = parse_score(result)?;
        match self.game.outcome() {
            Some(o) if ac::Score::from_outcome(Some(o)) != score => Err(PyValueError::new_err(
                format!("the game is over and its result is {}", o.score()),
            )),
            Some(_) => Ok(()),
            None => {
                self.declared = score;
                Ok(())
            }
        }
    }

    /// The current position.
    #[getter]
    fn position(&self) -> PositionPy {
        PositionPy(*self.game.position())
    }

    /// The position the game started from.
    #[getter]
    fn start(&self) -> PositionPy {
        PositionPy(*self.game.start())
    }

    /// The side to move.
    #[getter]
    fn turn(&self) -> SidePy {
        self.game.position().turn().into()
    }

    /// The moves played so far.
    #[getter]
    fn moves<'py>(&self, py: Python<'py>) -> PyResult<Vec<Bound<'py, MovePy>>> {
        move_list(py, self.game.moves())
    }

    /// Every position of the game, the start first and the current one last.
    #[getter]
    fn positions(&self) -> Vec<PositionPy> {
        self.game
            .positions()
            .iter()
            .map(|&p| PositionPy(p))
            .collect()
    }

    /// The last move played, or `None` at the start.
    #[getter]
    fn last_move<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, MovePy>>> {
        self.game
            .moves()
            .last()
            .map(|&m| move_obj(py, m))
            .transpose()
    }

    /// The number of moves played.
    #[getter]
    fn ply(&self) -> usize {
        self.game.moves().len()
    }

    fn __len__(&self) -> usize {
        self.game.moves().len()
    }

    /// The legal moves: empty once the game is over (repetition included).
    fn legal_moves<'py>(&self, py: Python<'py>) -> PyResult<Vec<Bound<'py, MovePy>>> {
        move_list(py, &self.game.legal_moves())
    }

    /// Whether `move` is legal now (false once the game is over).
    fn is_legal(&self, py: Python<'_>, r#move: MoveArg) -> bool {
        r#move
            .resolve(py, self.game.position())
            .is_ok_and(|m| self.game.is_legal(m))
    }

    /// Plays `move` (a `Move` or its text), returning the cells of the pieces it
    /// captured; raises `IllegalMoveError` (reason `"game-over"` after the end), leaving
    /// the game unchanged.
    fn push<'py>(&mut self, py: Python<'py>, r#move: MoveArg) -> PyResult<Vec<Bound<'py, CellPy>>> {
        let m = r#move.resolve(py, self.game.position())?;
        cell_list(py, self.play_move(py, m)?)
    }

    /// The same as `push`.
    fn play<'py>(&mut self, py: Python<'py>, r#move: MoveArg) -> PyResult<Vec<Bound<'py, CellPy>>> {
        self.push(py, r#move)
    }

    /// Plays an action (see `agon.ACTION_COUNT`), returning the captured cells.
    fn push_action<'py>(
        &mut self,
        py: Python<'py>,
        action: i64,
    ) -> PyResult<Vec<Bound<'py, CellPy>>> {
        let m = decode_action(py, self.game.position(), action)?;
        cell_list(py, self.play_move(py, m)?)
    }

    /// Takes back the last move and returns it; raises `IndexError` at the start.
    fn pop<'py>(&mut self, py: Python<'py>) -> PyResult<Bound<'py, MovePy>> {
        self.undo(py)?
            .ok_or_else(|| PyIndexError::new_err("pop from a game with no moves"))
    }

    /// Takes back the last move and returns it, or returns `None` at the start.
    fn undo<'py>(&mut self, py: Python<'py>) -> PyResult<Option<Bound<'py, MovePy>>> {
        let Some(m) = self.game.undo() else {
            return Ok(None);
        };
        self.declared = ac::Score::Unfinished;
        move_obj(py, m).map(Some)
    }

    /// Starts again from `start` (the start position if omitted), keeping the tags.
    #[pyo3(signature = (start = None))]
    fn restart(&mut self, start: Option<PositionArg>) {
        self.game
            .restart(start.map_or_else(ac::Position::start, |p| p.0));
        self.declared = ac::Score::Unfinished;
    }

    /// How the game ended, or `None` while it goes on.
    fn outcome(&self) -> Option<OutcomePy> {
        self.game.outcome().map(OutcomePy)
    }

    /// Whether the game is over.
    fn is_over(&self) -> bool {
        self.game.is_over()
    }

    /// How many times the current position has occurred (1 the first time).
    fn repetitions(&self) -> usize {
        self.game.repetitions()
    }

    /// The legal actions now, ascending (empty once the game is over).
    fn legal_actions<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<i64>> {
        actions_array(py, *self.game.actions())
    }

    /// The mask of legal actions now (all false once the game is over).
    fn action_mask<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<bool>> {
        mask_array(py, *self.game.actions())
    }

    /// The observation planes of the current position (see `Position.observation`).
    #[pyo3(signature = (axial = false))]
    fn observation<'py>(&self, py: Python<'py>, axial: bool) -> PyResult<Bound<'py, PyAny>> {
        observation_array(py, self.game.position(), axial)
    }

    /// A copy of the game (tags included).
    fn copy(&self, py: Python<'_>) -> PyResult<GamePy> {
        Ok(GamePy {
            game: self.game.clone(),
            tags: self.tags.bind(py).copy()?.unbind(),
            declared: self.declared,
        })
    }

    fn __copy__(&self, py: Python<'_>) -> PyResult<GamePy> {
        self.copy(py)
    }

    fn __deepcopy__(&self, py: Python<'_>, _memo: Bound<'_, PyAny>) -> PyResult<GamePy> {
        self.copy(py)
    }

    /// Pickles as the start position's text, the moves' texts, and the tags and result.
    #[allow(clippy::type_complexity)]
    fn __reduce__<'py>(
        slf: &Bound<'py, Self>,
    ) -> PyResult<(
        Bound<'py, PyAny>,
        (String, Vec<String>),
        (Bound<'py, PyDict>, &'static str),
    )> {
        let py = slf.py();
        let this = slf.try_borrow()?;
        let start = this.game.start().to_text().to_string();
        let moves = this.game.moves().iter().map(|m| m.to_string()).collect();
        let state = (this.tags.bind(py).copy()?, this.declared.as_str());
        Ok((slf.get_type().into_any(), (start, moves), state))
    }

    fn __setstate__(&mut self, state: (Bound<'_, PyDict>, String)) -> PyResult<()> {
        self.tags = state.0.copy()?.unbind();
        if !self.game.is_over() {
            self.declared = parse_score(&state.1)?;
        }
        Ok(())
    }

    /// Games are equal when they start from the same position and play the same moves.
    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other
            .cast::<GamePy>()
            .ok()
            .and_then(|o| o.try_borrow().ok().map(|o| o.game == self.game))
            .unwrap_or(false)
    }

    fn __ne__(&self, other: &Bound<'_, PyAny>) -> bool {
        !self.__eq__(other)
    }

    fn __repr__(&self, py: Python<'_>) -> String {
        let moves = PyList::new(py, self.game.moves().iter().map(|m| m.to_string()))
            .and_then(|l| l.repr().map(|r| r.to_string()))
            .unwrap_or_default();
        format!("Game('{}', {moves})", self.game.start().to_text())
    }

    fn __str__(&self, py: Python<'_>) -> PyResult<String> {
        self.to_record(py)
    }

    fn _repr_svg_(&self) -> String {
        crate::svg::draw(self.game.position(), self.game.moves().last().copied())
    }
}
