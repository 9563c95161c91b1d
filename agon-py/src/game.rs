//! `Game`: a position with its history, undo, repetition, and game records.

use agon_core as ac;
use numpy::PyArray1;
use pyo3::exceptions::{PyIndexError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyDictMethods, PyList, PyString, PyTuple};

use crate::errors;
use crate::lock::{Lock, LockGuard};
use crate::position::{
    actions_array, decode_action, mask_array, observation_array, position_or_start, PositionArg,
    PositionPy,
};
use crate::rules::{RulesArg, RulesPy};
use crate::types::{
    cell_list, move_list, move_obj, CellPy, Int, MoveArg, MovePy, OutcomePy, SidePy,
};

/// A game: the positions from a start, the moves between them, and how it ended.
///
/// `Game()` starts from the start position; `Game(start, moves)` from any position (or its
/// text), playing the moves given (`Move`s or texts); `Game(rules="ludii")` under a rule
/// set (a `Rules` or its text; else the start position's, standard for a text). A game
/// knows what a lone position cannot: the draw by repetition (the third occurrence of a
/// position), by two passes in a row and by the move limit, as its rules say. `push`/`play`
/// plays a move, `pop`/`undo` takes one back; a failed call leaves the game unchanged.
/// `tags` holds a record's tag pairs and `result` its written result; `variations(ply)`
/// the variations a record gave for a move of the game (kept while that move is, written
/// back by `to_record`).
///
/// Threads may share a game: its calls take turns. A finaliser that uses a game while a
/// call on that game runs in the same thread gets `RuntimeError`, and changes nothing.
#[pyclass(frozen, module = "agon._agon", name = "Game")]
pub struct GamePy {
    state: Lock<GameState>,
}

/// What a game's calls read and change.
pub struct GameState {
    pub game: ac::Game,
    tags: Py<PyDict>,
    /// The result written for a game that is not over: `*`, or a resignation or agreement.
    declared: ac::Score,
    /// `variations[ply]`: the variations a record gave instead of move `ply` (at most as
    /// many entries as moves: taking a move back drops its variations).
    variations: Vec<Vec<ac::Variation>>,
}

impl GamePy {
    pub fn wrap(py: Python<'_>, game: ac::Game) -> GamePy {
        GamePy::from_state(GameState {
            game,
            tags: PyDict::new(py).unbind(),
            declared: ac::Score::Unfinished,
            variations: Vec::new(),
        })
    }

    fn from_state(state: GameState) -> GamePy {
        GamePy {
            state: Lock::new("Game", state),
        }
    }

    /// The state, once no other call holds it.
    pub fn lock(&self, py: Python<'_>) -> PyResult<LockGuard<'_, GameState>> {
        self.state.lock(py)
    }
}

impl GameState {
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
            // A game still going takes any result, so this cannot fail.
            let set = record.set_result(self.declared);
            debug_assert!(set.is_ok(), "{set:?}");
        }
        for (name, value) in self.tags.bind(py).iter() {
            let (name, value) = match (name.cast::<PyString>(), value.cast::<PyString>()) {
                (Ok(n), Ok(v)) => (n.to_cow()?, v.to_cow()?),
                _ => return Err(PyTypeError::new_err("tags must map str to str")),
            };
            match record.set_tag(&name, &value) {
                // The record writes these two from the game and the result.
                Ok(()) | Err(ac::RecordError::ReservedTag) => {}
                Err(e) => {
                    return Err(PyValueError::new_err(format!(
                        "{e}: tag {}",
                        errors::quoted(&name)
                    )))
                }
            }
        }
        // Each was checked when read, against the same moves before it (a move taken
        // back takes its variations along), so the record takes them again.
        for (ply, variations) in self.variations.iter().enumerate() {
            for v in variations {
                record
                    .add_variation(ply, v.clone())
                    .map_err(|e| PyValueError::new_err(format!("{e}: variation of move {ply}")))?;
            }
        }
        Ok(record)
    }

    fn copy(&self, py: Python<'_>) -> PyResult<GameState> {
        Ok(GameState {
            game: self.game.clone(),
            tags: self.tags.bind(py).copy()?.unbind(),
            declared: self.declared,
            variations: self.variations.clone(),
        })
    }
}

fn parse_score(text: &str) -> PyResult<ac::Score> {
    text.parse::<ac::Score>().map_err(|_| {
        PyValueError::new_err(format!(
            "a result is 1-0, 0-1, 1/2-1/2 or *, not {}",
            errors::quoted(text)
        ))
    })
}

#[pymethods]
impl GamePy {
    /// A game from `start` (a `Position`, its text, or the start position if omitted),
    /// playing `moves` (an iterable of `Move`s or texts, read one at a time; not one str),
    /// under `rules` (a `Rules` or its text; if omitted, those of a `Position` start, else
    /// the standard rules).
    #[new]
    #[pyo3(signature = (start = None, moves = None, rules = None))]
    fn new(
        py: Python<'_>,
        start: Option<PositionArg>,
        moves: Option<&Bound<'_, PyAny>>,
        rules: Option<RulesArg>,
    ) -> PyResult<GamePy> {
        let start = position_or_start(py, start.as_ref(), rules.map(|r| r.0))?;
        let mut game = GameState {
            game: ac::Game::from_position(start),
            tags: PyDict::new(py).unbind(),
            declared: ac::Score::Unfinished,
            variations: Vec::new(),
        };
        let Some(moves) = moves else {
            return Ok(GamePy::from_state(game));
        };
        if moves.is_instance_of::<PyString>() {
            return Err(PyTypeError::new_err(
                "moves is an iterable of moves or move texts, not one str",
            ));
        }
        // One move at a time: an endless iterable stops at the first illegal move (every
        // game ends), and nothing is reserved from a length the iterable claims.
        for m in moves.try_iter()? {
            let m: MoveArg = m?.extract()?;
            let m = m.resolve(py, game.game.position())?;
            game.play_move(py, m)?;
        }
        Ok(GamePy::from_state(game))
    }

    /// Parses and replays a game record (tags, numbered moves with their variations,
    /// result); raises `ParseError` (reason `"illegal-move"` for an illegal move, with
    /// `move_reason`). The variations are kept (`variations(ply)`) and written back by
    /// `to_record`: reading a canonical record and writing it gives the same text.
    #[staticmethod]
    fn from_record(py: Python<'_>, text: &str) -> PyResult<GamePy> {
        let record: ac::Record = text
            .parse()
            .map_err(|e| errors::parse_error(py, "game record", text, e))?;
        let tags = PyDict::new(py);
        for (name, value) in record.tags() {
            tags.set_item(name, value)?;
        }
        let mut variations: Vec<Vec<ac::Variation>> = (0..record.game().moves().len())
            .map(|ply| record.variations(ply).to_vec())
            .collect();
        while variations.last().is_some_and(Vec::is_empty) {
            variations.pop();
        }
        Ok(GamePy::from_state(GameState {
            variations,
            declared: if record.game().is_over() {
                ac::Score::Unfinished
            } else {
                record.result()
            },
            game: record.into_game(),
            tags: tags.unbind(),
        }))
    }

    /// The game record: tags, `Rules` (if not standard), `Position` (if not the standard
    /// start), `Result`, moves with their variations.
    fn to_record(&self, py: Python<'_>) -> PyResult<String> {
        let record = self.lock(py)?.record(py)?;
        Ok(record.to_string())
    }

    /// The variations a record gave instead of move `ply` of the game (from 0), in their
    /// order: a list of `Variation`s, empty if none. Raises `IndexError` if the game has
    /// no move `ply`.
    fn variations(&self, py: Python<'_>, ply: Int<i64>) -> PyResult<Vec<VariationPy>> {
        let st = self.lock(py)?;
        let plies = st.game.moves().len();
        let ply = usize::try_from(ply.0)
            .ok()
            .filter(|&p| p < plies)
            .ok_or_else(|| PyIndexError::new_err(format!("the game has no move {}", ply.0)))?;
        Ok(st
            .variations
            .get(ply)
            .map_or(&[][..], Vec::as_slice)
            .iter()
            .map(|v| VariationPy(v.clone()))
            .collect())
    }

    /// The tag pairs of the record (a dict of str to str, kept in order).
    #[getter]
    fn tags<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        Ok(self.lock(py)?.tags.bind(py).clone())
    }

    #[setter]
    fn set_tags(&self, py: Python<'_>, tags: Bound<'_, PyDict>) -> PyResult<()> {
        // Copied before the game is locked: copying a dict subclass may run its code.
        let tags = tags.copy()?.unbind();
        let old = std::mem::replace(&mut self.lock(py)?.tags, tags);
        drop(old); // after the lock: the old tags' finalisers may run Python code
        Ok(())
    }

    /// The result: `"1-0"`, `"0-1"`, `"1/2-1/2"` when the game is over; else `"*"` or a
    /// result set by hand (a resignation or an agreement), cleared by the next move.
    #[getter]
    fn result(&self, py: Python<'_>) -> PyResult<&'static str> {
        let st = self.lock(py)?;
        Ok(match st.game.outcome() {
            Some(o) => o.score(),
            None => st.declared.as_str(),
        })
    }

    #[setter]
    fn set_result(&self, py: Python<'_>, result: &str) -> PyResult<()> {
        let score = parse_score(result)?;
        let mut st = self.lock(py)?;
        match st.game.outcome() {
            Some(o) if ac::Score::from_outcome(Some(o)) != score => Err(PyValueError::new_err(
                format!("the game is over and its result is {}", o.score()),
            )),
            Some(_) => Ok(()),
            None => {
                st.declared = score;
                Ok(())
            }
        }
    }

    /// The current position.
    #[getter]
    fn position(&self, py: Python<'_>) -> PyResult<PositionPy> {
        Ok(PositionPy(*self.lock(py)?.game.position()))
    }

    /// The rule set the game follows.
    #[getter]
    fn rules(&self, py: Python<'_>) -> PyResult<RulesPy> {
        Ok(RulesPy(self.lock(py)?.game.rules()))
    }

    /// The side that chooses the next action (see `Position.chooser`).
    #[getter]
    fn chooser(&self, py: Python<'_>) -> PyResult<SidePy> {
        Ok(self.lock(py)?.game.position().chooser().into())
    }

    /// The position the game started from.
    #[getter]
    fn start(&self, py: Python<'_>) -> PyResult<PositionPy> {
        Ok(PositionPy(*self.lock(py)?.game.start()))
    }

    /// The side to move.
    #[getter]
    fn turn(&self, py: Python<'_>) -> PyResult<SidePy> {
        Ok(self.lock(py)?.game.position().turn().into())
    }

    /// The moves played so far.
    #[getter]
    fn moves<'py>(&self, py: Python<'py>) -> PyResult<Vec<Bound<'py, MovePy>>> {
        let moves = self.lock(py)?.game.moves().to_vec();
        move_list(py, &moves)
    }

    /// Every position of the game, the start first and the current one last.
    #[getter]
    fn positions(&self, py: Python<'_>) -> PyResult<Vec<PositionPy>> {
        let st = self.lock(py)?;
        Ok(st.game.positions().iter().map(|&p| PositionPy(p)).collect())
    }

    /// The last move played, or `None` at the start.
    #[getter]
    fn last_move<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, MovePy>>> {
        let last = self.lock(py)?.game.moves().last().copied();
        last.map(|m| move_obj(py, m)).transpose()
    }

    /// The number of moves played.
    #[getter]
    fn ply(&self, py: Python<'_>) -> PyResult<usize> {
        Ok(self.lock(py)?.game.moves().len())
    }

    fn __len__(&self, py: Python<'_>) -> PyResult<usize> {
        self.ply(py)
    }

    /// The legal moves: empty once the game is over (repetition included).
    fn legal_moves<'py>(&self, py: Python<'py>) -> PyResult<Vec<Bound<'py, MovePy>>> {
        let moves = self.lock(py)?.game.legal_moves();
        move_list(py, &moves)
    }

    /// Whether `move` is legal now (false once the game is over).
    fn is_legal(&self, py: Python<'_>, r#move: MoveArg) -> PyResult<bool> {
        let st = self.lock(py)?;
        Ok(r#move
            .resolve(py, st.game.position())
            .is_ok_and(|m| st.game.is_legal(m)))
    }

    /// Plays `move` (a `Move` or its text), returning the cells of the pieces it
    /// captured; raises `IllegalMoveError` (reason `"game-over"` after the end), leaving
    /// the game unchanged.
    fn push<'py>(&self, py: Python<'py>, r#move: MoveArg) -> PyResult<Vec<Bound<'py, CellPy>>> {
        let captured = {
            let mut st = self.lock(py)?;
            let m = r#move.resolve(py, st.game.position())?;
            st.play_move(py, m)?
        };
        cell_list(py, captured)
    }

    /// The same as `push`.
    fn play<'py>(&self, py: Python<'py>, r#move: MoveArg) -> PyResult<Vec<Bound<'py, CellPy>>> {
        self.push(py, r#move)
    }

    /// Plays an action (see `agon.ACTION_COUNT`), returning the captured cells.
    fn push_action<'py>(
        &self,
        py: Python<'py>,
        action: Int<i64>,
    ) -> PyResult<Vec<Bound<'py, CellPy>>> {
        let captured = {
            let mut st = self.lock(py)?;
            let m = decode_action(py, st.game.position(), action.0)?;
            st.play_move(py, m)?
        };
        cell_list(py, captured)
    }

    /// Takes back the last move and returns it; raises `IndexError` at the start.
    fn pop<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, MovePy>> {
        self.undo(py)?
            .ok_or_else(|| PyIndexError::new_err("pop from a game with no moves"))
    }

    /// Takes back the last move and returns it, or returns `None` at the start.
    fn undo<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, MovePy>>> {
        let undone = {
            let mut st = self.lock(py)?;
            let undone = st.game.undo();
            if undone.is_some() {
                st.declared = ac::Score::Unfinished;
                // The move taken back takes its variations along.
                let plies = st.game.moves().len();
                st.variations.truncate(plies);
            }
            undone
        };
        undone.map(|m| move_obj(py, m)).transpose()
    }

    /// Starts again from `start` (the start position if omitted), keeping the tags, under
    /// `rules` if given (else those of a `Position` start, or the game's own for a text or
    /// no start).
    #[pyo3(signature = (start = None, rules = None))]
    fn restart(
        &self,
        py: Python<'_>,
        start: Option<PositionArg>,
        rules: Option<RulesArg>,
    ) -> PyResult<()> {
        // The start is read while the game is not locked: a failure changes nothing.
        let current = self.lock(py)?.game.rules();
        let rules = rules.map(|r| r.0);
        let start = match &start {
            Some(p) => p.resolve_or(py, rules, current)?,
            None => ac::Position::start_with_rules(rules.unwrap_or(current)),
        };
        let mut st = self.lock(py)?;
        st.game.restart(start);
        st.declared = ac::Score::Unfinished;
        st.variations.clear();
        Ok(())
    }

    /// How the game ended, or `None` while it goes on.
    fn outcome(&self, py: Python<'_>) -> PyResult<Option<OutcomePy>> {
        Ok(self.lock(py)?.game.outcome().map(OutcomePy))
    }

    /// Whether the game is over.
    fn is_over(&self, py: Python<'_>) -> PyResult<bool> {
        Ok(self.lock(py)?.game.is_over())
    }

    /// How many times the current position has occurred (1 the first time).
    fn repetitions(&self, py: Python<'_>) -> PyResult<usize> {
        Ok(self.lock(py)?.game.repetitions())
    }

    /// The legal actions now, ascending (empty once the game is over).
    fn legal_actions<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray1<i64>>> {
        let (position, over) = {
            let st = self.lock(py)?;
            (*st.game.position(), st.game.is_over())
        };
        Ok(actions_array(py, &position, over))
    }

    /// The mask of legal actions now (all false once the game is over).
    fn action_mask<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray1<bool>>> {
        let (position, over) = {
            let st = self.lock(py)?;
            (*st.game.position(), st.game.is_over())
        };
        Ok(mask_array(py, &position, over))
    }

    /// The observation planes of the current position (see `Position.observation`).
    #[pyo3(signature = (axial = false))]
    fn observation<'py>(&self, py: Python<'py>, axial: bool) -> PyResult<Bound<'py, PyAny>> {
        let position = *self.lock(py)?.game.position();
        observation_array(py, &position, axial)
    }

    /// A copy of the game (tags included).
    fn copy(&self, py: Python<'_>) -> PyResult<GamePy> {
        let copied = self.lock(py)?.copy(py)?;
        Ok(GamePy::from_state(copied))
    }

    /// A copy of the game, as `copy()`.
    fn __copy__(&self, py: Python<'_>) -> PyResult<GamePy> {
        self.copy(py)
    }

    /// A copy of the game, as `copy()` (moves, positions and tags are values).
    fn __deepcopy__(&self, py: Python<'_>, _memo: Bound<'_, PyAny>) -> PyResult<GamePy> {
        self.copy(py)
    }

    /// Pickles as the start position's text, the moves' texts, the rules' text, and the
    /// tags, the result and the variations (the record's text if there are any, else "").
    #[allow(clippy::type_complexity)]
    fn __reduce__<'py>(
        slf: &Bound<'py, Self>,
    ) -> PyResult<(
        Bound<'py, PyAny>,
        (String, Vec<String>, String),
        (Bound<'py, PyDict>, &'static str, String),
    )> {
        let py = slf.py();
        let (start, moves, rules, state) = {
            let st = slf.get().lock(py)?;
            let start = st.game.start().to_text().to_string();
            let moves = st.game.moves().iter().map(|m| m.to_string()).collect();
            let variations = if st.variations.iter().any(|v| !v.is_empty()) {
                st.record(py)?.to_string()
            } else {
                String::new()
            };
            (
                start,
                moves,
                st.game.rules().to_string(),
                (st.tags.bind(py).copy()?, st.declared.as_str(), variations),
            )
        };
        Ok((slf.get_type().into_any(), (start, moves, rules), state))
    }

    /// Restores the tags, the result and the variations of a pickled game (see
    /// `__reduce__`; a state of two items, tags and result, has no variations).
    fn __setstate__(&self, py: Python<'_>, state: &Bound<'_, PyTuple>) -> PyResult<()> {
        // Everything is read and checked before anything changes.
        if !(2..=3).contains(&state.len()) {
            return Err(PyTypeError::new_err(
                "a game's state is (tags, result) or (tags, result, record)",
            ));
        }
        let tags = state.get_item(0)?.cast_into::<PyDict>()?.copy()?.unbind();
        let score = parse_score(&state.get_item(1)?.extract::<String>()?)?;
        let record = match state.get_item(2) {
            Ok(text) => Some(text.extract::<String>()?).filter(|t| !t.is_empty()),
            Err(_) => None,
        };
        let record: Option<ac::Record> = record
            .map(|text| {
                text.parse()
                    .map_err(|e| errors::parse_error(py, "game record", &text, e))
            })
            .transpose()?;
        let old = {
            let mut st = self.lock(py)?;
            if let Some(record) = &record {
                // The variations belong to these moves only.
                if record.game().start() != st.game.start()
                    || record.game().moves() != st.game.moves()
                {
                    return Err(PyValueError::new_err(
                        "the state's record does not play the game's moves",
                    ));
                }
                st.variations = (0..st.game.moves().len())
                    .map(|ply| record.variations(ply).to_vec())
                    .collect();
            }
            if !st.game.is_over() {
                st.declared = score;
            }
            std::mem::replace(&mut st.tags, tags)
        };
        drop(old);
        Ok(())
    }

    /// Games are equal when they start from the same position under the same rules and
    /// play the same moves.
    fn __eq__(slf: &Bound<'_, Self>, other: &Bound<'_, PyAny>) -> PyResult<bool> {
        let py = slf.py();
        let Ok(other) = other.cast::<GamePy>() else {
            return Ok(false);
        };
        if other.is(slf) {
            return Ok(true);
        }
        // One game locked at a time, so that two threads comparing a == b and b == a
        // cannot wait for each other.
        let theirs = other.get().lock(py)?.game.clone();
        let equal = slf.get().lock(py)?.game == theirs;
        Ok(equal)
    }

    fn __ne__(slf: &Bound<'_, Self>, other: &Bound<'_, PyAny>) -> PyResult<bool> {
        GamePy::__eq__(slf, other).map(|e| !e)
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        let (start, moves, rules) = {
            let st = self.lock(py)?;
            let moves: Vec<String> = st.game.moves().iter().map(|m| m.to_string()).collect();
            (
                st.game.start().to_text().to_string(),
                moves,
                st.game.rules(),
            )
        };
        let moves = PyList::new(py, moves)
            .and_then(|l| l.repr().map(|r| r.to_string()))
            .unwrap_or_default();
        if rules.is_standard() {
            Ok(format!("Game('{start}', {moves})"))
        } else {
            Ok(format!("Game('{start}', {moves}, rules='{rules}')"))
        }
    }

    fn __str__(&self, py: Python<'_>) -> PyResult<String> {
        self.to_record(py)
    }

    /// The current position as SVG with the last move marked, for notebooks (see `agon.svg`).
    fn _repr_svg_(&self, py: Python<'_>) -> PyResult<String> {
        let (position, last) = {
            let st = self.lock(py)?;
            (*st.game.position(), st.game.moves().last().copied())
        };
        Ok(crate::svg::draw(&position, last))
    }
}

/// A variation of a game record: moves played instead of a move of the line it branches
/// from (the position before that move is its start), each move with the variations that
/// replace it in turn. A record's variations come from `Game.from_record` and are read
/// with `Game.variations(ply)`; `moves` are the variation's moves, `variations(i)` those
/// that replace its move `i`.
#[pyclass(frozen, module = "agon._agon", name = "Variation")]
pub struct VariationPy(ac::Variation);

#[pymethods]
impl VariationPy {
    /// The variation's moves, in order (a list of `Move`s, never empty).
    #[getter]
    fn moves<'py>(&self, py: Python<'py>) -> PyResult<Vec<Bound<'py, MovePy>>> {
        move_list(py, self.0.moves())
    }

    /// The variations that replace move `i` of this one (from 0): a list of
    /// `Variation`s, empty if none. Raises `IndexError` if it has no move `i`.
    fn variations(&self, i: Int<i64>) -> PyResult<Vec<VariationPy>> {
        let i = usize::try_from(i.0)
            .ok()
            .filter(|&i| i < self.0.moves().len())
            .ok_or_else(|| PyIndexError::new_err(format!("the variation has no move {}", i.0)))?;
        Ok(self
            .0
            .variations(i)
            .iter()
            .map(|v| VariationPy(v.clone()))
            .collect())
    }

    fn __repr__(&self) -> String {
        let moves: Vec<String> = self.0.moves().iter().map(|m| m.to_string()).collect();
        format!("Variation({})", moves.join(" "))
    }
}
