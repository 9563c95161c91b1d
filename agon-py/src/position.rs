//! `Position`: an immutable position with every rule of the core as a method.

use agon_core as ac;
use numpy::{PyArray1, PyArray2, PyArray3, PyArrayMethods};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyDictMethods, PyMapping, PyMappingMethods, PyString};

use crate::actions;
use crate::errors;
use crate::limits::{self, MAX_PERFT_DEPTH};
use crate::rules::{rules_or, RulesArg, RulesPy};
use crate::types::{
    cell_list, cell_obj, move_list, move_obj, CellArg, CellPy, Int, MoveArg, MovePy, OutcomePy,
    PieceArg, PiecePy, SidePy, SymmetryPy,
};

/// A position: where every piece stands, which are captured, and who is to move.
///
/// `Position()` is the start; `Position(text)` parses the one-line text form
/// (`"Qf1,Ga5,Gb1,Gd9,Gh9,Gk1,Gl5/qf11,ga2,gb7,gd1,gh1,gk7,gl2 w"`). Every position
/// carries its rule set (`rules`, the standard rules unless `rules=` says otherwise; the
/// text does not hold it), which its moves, captures, returns and end follow. Positions are
/// immutable: `play(move)` returns the next position. They compare by value (the rules
/// included) and hash by their pieces; `str()` draws the board and `repr()` gives the text
/// (and the rules, when not standard).
#[pyclass(frozen, module = "agon._agon", name = "Position")]
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct PositionPy(pub ac::Position);

/// A position given as a `Position` or its text; the text is read under the rules that
/// go with it (see `PositionArg::resolve`).
pub enum PositionArg {
    /// A `Position` object, with its rules.
    Position(ac::Position),
    /// A position's text.
    Text(String),
}

impl<'a, 'py> FromPyObject<'a, 'py> for PositionArg {
    type Error = PyErr;

    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<Self> {
        if let Ok(p) = obj.cast::<PositionPy>() {
            return Ok(PositionArg::Position(p.get().0));
        }
        Ok(PositionArg::Text(obj.extract()?))
    }
}

impl PositionArg {
    /// The position under `rules`: a text read under them (the standard rules if `None`),
    /// a `Position` given them (its own if `None`); raises `ParseError` or
    /// `InvalidPositionError` (pieces captured on both sides outside `between=trapped`).
    pub fn resolve(&self, py: Python<'_>, rules: Option<ac::Rules>) -> PyResult<ac::Position> {
        self.resolve_or(py, rules, ac::Rules::STANDARD)
    }

    /// As `resolve`, with `default` for a text when `rules` is `None`.
    pub fn resolve_or(
        &self,
        py: Python<'_>,
        rules: Option<ac::Rules>,
        default: ac::Rules,
    ) -> PyResult<ac::Position> {
        match self {
            PositionArg::Position(p) => match rules {
                Some(r) => with_rules(py, p, r),
                None => Ok(*p),
            },
            PositionArg::Text(t) => parse_position(py, t, rules.unwrap_or(default)),
        }
    }
}

/// A position, or the start, under `rules` (see `PositionArg::resolve`).
pub fn position_or_start(
    py: Python<'_>,
    position: Option<&PositionArg>,
    rules: Option<ac::Rules>,
) -> PyResult<ac::Position> {
    match position {
        Some(p) => p.resolve(py, rules),
        None => Ok(ac::Position::start_with_rules(
            rules.unwrap_or(ac::Rules::STANDARD),
        )),
    }
}

/// `position` under `rules`, raising `InvalidPositionError`.
pub fn with_rules(
    py: Python<'_>,
    position: &ac::Position,
    rules: ac::Rules,
) -> PyResult<ac::Position> {
    position
        .with_rules(rules)
        .map_err(|e| errors::invalid_position(py, e))
}

/// Parses a position's text under `rules`, raising `ParseError`.
pub fn parse_position(py: Python<'_>, text: &str, rules: ac::Rules) -> PyResult<ac::Position> {
    ac::Position::from_text_with_rules(text, rules)
        .map_err(|e| errors::parse_error(py, "position", text, e))
}

/// Plays `m` in `position`, raising `IllegalMoveError` with the core's reason.
pub fn play_checked(
    py: Python<'_>,
    position: &ac::Position,
    m: ac::Move,
) -> PyResult<ac::Position> {
    position
        .play(m)
        .map_err(|e| errors::illegal_move(py, &m.to_string(), e))
}

/// The legal actions of a position (none if `over`) as a numpy array, in the action
/// space of its rules.
pub fn actions_array<'py>(
    py: Python<'py>,
    position: &ac::Position,
    over: bool,
) -> Bound<'py, PyArray1<i64>> {
    let mut v: Vec<i64> = if over {
        Vec::new()
    } else {
        position
            .actions()
            .into_iter()
            .filter_map(|m| actions::move_to_action_in(m, position).map(|a| a as i64))
            .collect()
    };
    v.sort_unstable();
    PyArray1::from_vec(py, v)
}

/// The action mask of a position (all false if `over`) as a numpy array, the width of its
/// rules' action space.
pub fn mask_array<'py>(
    py: Python<'py>,
    position: &ac::Position,
    over: bool,
) -> Bound<'py, PyArray1<bool>> {
    PyArray1::from_vec(py, actions::position_mask(position, over))
}

/// The observation of a position as a numpy array, (C, 91) or (C, 11, 11).
pub fn observation_array<'py>(
    py: Python<'py>,
    position: &ac::Position,
    axial: bool,
) -> PyResult<Bound<'py, PyAny>> {
    let mut v = vec![0.0f32; actions::observation_len(axial)];
    actions::write_observation(position, axial, &mut v);
    let flat = PyArray1::from_vec(py, v);
    if axial {
        let shaped: Bound<'py, PyArray3<f32>> = flat.reshape([
            actions::CHANNEL_COUNT,
            actions::AXIAL_SIDE,
            actions::AXIAL_SIDE,
        ])?;
        Ok(shaped.into_any())
    } else {
        let shaped: Bound<'py, PyArray2<f32>> =
            flat.reshape([actions::CHANNEL_COUNT, actions::FLAT])?;
        Ok(shaped.into_any())
    }
}

/// The move an action stands for, raising `IllegalMoveError` for a number that names no move.
pub fn decode_action(py: Python<'_>, position: &ac::Position, action: i64) -> PyResult<ac::Move> {
    usize::try_from(action)
        .ok()
        .and_then(|a| actions::action_to_move(position, a))
        .ok_or_else(|| {
            let count = actions::action_count(position.rules());
            let message = if (0..count as i64).contains(&action) {
                format!("action {action} is a step off the board")
            } else {
                format!(
                    "action {action} is out of range 0-{} (the actions of {})",
                    count - 1,
                    position.rules()
                )
            };
            errors::illegal_action(py, message, "no-such-action")
        })
}

/// A perft depth: 0 to `MAX_PERFT_DEPTH` (from 1 with `min` = 1).
pub fn perft_depth(depth: Int<i64>, min: u32) -> PyResult<u32> {
    limits::bounded(
        "depth",
        depth.0,
        min,
        MAX_PERFT_DEPTH,
        Some("MAX_PERFT_DEPTH"),
    )
}

/// perft of `position` (under its rules), `depth` checked (0 to `MAX_PERFT_DEPTH`), without
/// the GIL: the one implementation behind `Position.perft` and `agon.perft`.
pub fn perft(py: Python<'_>, position: ac::Position, depth: Int<i64>) -> PyResult<u64> {
    let depth = perft_depth(depth, 0)?;
    Ok(py.detach(move || ac::perft(&position, depth)))
}

/// The cells of an iterable of at most `CELL_COUNT` cells (not one str); read lazily, so
/// an endless iterable fails at the 92nd item.
fn cells_of(obj: &Bound<'_, PyAny>, name: &str) -> PyResult<ac::CellSet> {
    if obj.is_instance_of::<PyString>() {
        return Err(PyTypeError::new_err(format!(
            "{name} is an iterable of cells, not one str"
        )));
    }
    let mut set = ac::CellSet::EMPTY;
    for (i, item) in obj.try_iter()?.enumerate() {
        if i == ac::CELL_COUNT {
            return Err(PyValueError::new_err(format!(
                "{name} holds at most {} cells",
                ac::CELL_COUNT
            )));
        }
        set.insert(item?.extract::<CellArg>()?.0);
    }
    Ok(set)
}

#[pymethods]
impl PositionPy {
    /// The start position, or the position of a text, under `rules` (a `Rules` or its
    /// text; the standard rules if omitted).
    #[new]
    #[pyo3(signature = (text = None, rules = None))]
    fn new(py: Python<'_>, text: Option<&str>, rules: Option<RulesArg>) -> PyResult<PositionPy> {
        let rules = rules_or(rules, ac::Rules::STANDARD);
        match text {
            None => Ok(PositionPy(ac::Position::start_with_rules(rules))),
            Some(t) => parse_position(py, t, rules).map(PositionPy),
        }
    }

    /// The start position (White to move) under `rules` (the standard rules if omitted).
    #[staticmethod]
    #[pyo3(signature = (rules = None))]
    fn start(rules: Option<RulesArg>) -> PositionPy {
        PositionPy(ac::Position::start_with_rules(rules_or(
            rules,
            ac::Rules::STANDARD,
        )))
    }

    /// Parses the one-line text form under `rules` (the text does not carry them; the
    /// standard rules if omitted), raising `ParseError`.
    #[staticmethod]
    #[pyo3(signature = (text, rules = None))]
    fn from_text(py: Python<'_>, text: &str, rules: Option<RulesArg>) -> PyResult<PositionPy> {
        parse_position(py, text, rules_or(rules, ac::Rules::STANDARD)).map(PositionPy)
    }

    /// The rule set the position follows (its moves, captures, returns and end).
    #[getter]
    fn rules(&self) -> RulesPy {
        RulesPy(self.0.rules())
    }

    /// The same pieces and side to move under other rules (a `Rules` or its text); raises
    /// `InvalidPositionError` (reason `"captured-both-sides"`) when both sides hold
    /// captured pieces and the new rules do not trap (`between` other than `"trapped"`).
    fn with_rules(&self, py: Python<'_>, rules: RulesArg) -> PyResult<PositionPy> {
        with_rules(py, &self.0, rules.0).map(PositionPy)
    }

    /// The side that chooses the next action: the side to move, except under
    /// `queen_placer="captor"` when it must return its captured queen: its opponent then
    /// chooses where she goes (the turn is still the owner's). Bots and environments name
    /// it "the player to act".
    #[getter]
    fn chooser(&self) -> SidePy {
        self.0.chooser().into()
    }

    /// Builds a position from a mapping of cells to pieces (`{"f1": "Q", ...}` or `Cell`
    /// and `Piece` objects; at most 91 entries), the side to move and the captured cells
    /// (an iterable of at most 91); raises `InvalidPositionError` for what no game can
    /// reach under `rules` (the standard rules if omitted).
    #[staticmethod]
    #[pyo3(signature = (pieces, turn = SidePy::White, captured = None, rules = None))]
    fn from_pieces(
        py: Python<'_>,
        pieces: &Bound<'_, PyAny>,
        turn: SidePy,
        captured: Option<&Bound<'_, PyAny>>,
        rules: Option<RulesArg>,
    ) -> PyResult<PositionPy> {
        let too_many =
            || PyValueError::new_err(format!("pieces holds at most {} entries", ac::CELL_COUNT));
        let mut list = Vec::new();
        let mut add = |cell: &Bound<'_, PyAny>, piece: &Bound<'_, PyAny>| -> PyResult<()> {
            if list.len() == ac::CELL_COUNT {
                return Err(too_many());
            }
            let cell: CellArg = cell.extract()?;
            let piece: PieceArg = piece.extract()?;
            list.push((cell.0, piece.0));
            Ok(())
        };
        if let Ok(dict) = pieces.cast::<PyDict>() {
            if dict.len() > ac::CELL_COUNT {
                return Err(too_many());
            }
            for (cell, piece) in dict.iter() {
                add(&cell, &piece)?;
            }
        } else if let Ok(mapping) = pieces.cast::<PyMapping>() {
            for item in mapping.items()?.try_iter()? {
                let (cell, piece): (Bound<'_, PyAny>, Bound<'_, PyAny>) = item?.extract()?;
                add(&cell, &piece)?;
            }
        } else {
            return Err(PyTypeError::new_err(format!(
                "pieces is a mapping of cells to pieces, not {}",
                pieces.get_type().name()?
            )));
        }
        let captured = match captured {
            Some(c) => cells_of(c, "captured")?,
            None => ac::CellSet::EMPTY,
        };
        let rules = rules_or(rules, ac::Rules::STANDARD);
        ac::Position::from_parts_with_rules(rules, turn.into(), list, captured)
            .map(PositionPy)
            .map_err(|e| errors::invalid_position(py, e))
    }

    /// The one-line text form.
    #[pyo3(name = "to_text")]
    fn text(&self) -> String {
        self.0.to_text().to_string()
    }

    /// The side to move.
    #[getter]
    fn turn(&self) -> SidePy {
        self.0.turn().into()
    }

    /// The 64-bit Zobrist hash (stable across runs and platforms).
    #[getter]
    fn zobrist_hash(&self) -> u64 {
        self.0.hash()
    }

    /// The same position with `turn` to move (a null move, for analysis).
    fn with_turn(&self, turn: SidePy) -> PositionPy {
        PositionPy(self.0.with_turn(turn.into()))
    }

    // ---- pieces

    /// The piece on `cell` (captured or not), or `None`.
    fn piece_at(&self, cell: CellArg) -> Option<PiecePy> {
        self.0.piece_at(cell.0).map(PiecePy)
    }

    /// Every piece by its cell, in cell index order.
    fn pieces<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        for (c, p) in self.0.pieces() {
            d.set_item(cell_obj(py, c)?, PiecePy(p))?;
        }
        Ok(d)
    }

    /// The cell of `side`'s queen.
    fn queen<'py>(&self, py: Python<'py>, side: SidePy) -> PyResult<Bound<'py, CellPy>> {
        cell_obj(py, self.0.queen(side.into()))
    }

    /// The cells of `side`'s guards (captured or not).
    fn guards<'py>(&self, py: Python<'py>, side: SidePy) -> PyResult<Vec<Bound<'py, CellPy>>> {
        cell_list(py, self.0.guards(side.into()))
    }

    /// The cells of `side`'s pieces (captured or not).
    fn pieces_of<'py>(&self, py: Python<'py>, side: SidePy) -> PyResult<Vec<Bound<'py, CellPy>>> {
        cell_list(py, self.0.pieces_of(side.into()))
    }

    /// The cells holding a piece.
    fn occupied<'py>(&self, py: Python<'py>) -> PyResult<Vec<Bound<'py, CellPy>>> {
        cell_list(py, self.0.occupied())
    }

    /// The empty cells.
    fn empty<'py>(&self, py: Python<'py>) -> PyResult<Vec<Bound<'py, CellPy>>> {
        cell_list(py, self.0.empty())
    }

    /// The cells of the captured pieces (all of one side, except under
    /// `between="trapped"`).
    fn captured<'py>(&self, py: Python<'py>) -> PyResult<Vec<Bound<'py, CellPy>>> {
        cell_list(py, self.0.captured())
    }

    /// The side whose pieces are captured, if any (under `between="trapped"`, where both
    /// may be, the side to move if it has some).
    #[getter]
    fn captured_side(&self) -> Option<SidePy> {
        self.0.captured_side().map(SidePy::from)
    }

    /// Whether the piece on `cell` is captured.
    fn is_captured(&self, cell: CellArg) -> bool {
        self.0.is_captured(cell.0)
    }

    /// The cells between two opponent pieces on a line (R4): those `side` may not step to
    /// under the standard `between="forbidden"` (under `"trapped"`, a step there traps the
    /// stepping piece unless it captures; under `"allowed"` they are no different).
    fn forbidden_cells<'py>(
        &self,
        py: Python<'py>,
        side: SidePy,
    ) -> PyResult<Vec<Bound<'py, CellPy>>> {
        cell_list(py, self.0.forbidden_cells(side.into()))
    }

    /// Whether the side to move must return a captured piece instead of stepping.
    fn must_return(&self) -> bool {
        self.0.must_return()
    }

    // ---- moves

    /// The legal moves, steps by the cell moved from then the cell moved to (returns
    /// alike); empty when the game is over.
    fn legal_moves<'py>(&self, py: Python<'py>) -> PyResult<Vec<Bound<'py, MovePy>>> {
        move_list(py, &self.0.legal_moves())
    }

    /// The legal moves of the piece on `cell`.
    fn legal_moves_from<'py>(
        &self,
        py: Python<'py>,
        cell: CellArg,
    ) -> PyResult<Vec<Bound<'py, MovePy>>> {
        move_list(py, &self.0.legal_moves_from(cell.0))
    }

    /// The number of legal moves.
    fn count_legal_moves(&self) -> usize {
        self.0.count_legal_moves()
    }

    /// Whether the side to move has a legal move.
    fn has_legal_move(&self) -> bool {
        self.0.has_legal_move()
    }

    /// Reads a move in any form: a step `"f1-e1"`, a return `"f4>l1"`, or a pair `"f1e1"`
    /// (a return when the piece on its first cell is captured). Not checked for legality.
    fn parse_move<'py>(&self, py: Python<'py>, text: &str) -> PyResult<Bound<'py, MovePy>> {
        self.0
            .parse_move(text)
            .map_err(|e| errors::parse_error(py, "move", text, e))
            .and_then(|m| move_obj(py, m))
    }

    /// Whether `move` (a `Move` or its text) is legal.
    fn is_legal(&self, py: Python<'_>, r#move: MoveArg) -> bool {
        r#move
            .resolve(py, &self.0)
            .is_ok_and(|m| self.0.is_legal(m))
    }

    /// Raises `IllegalMoveError` with the reason if `move` is illegal; returns `None` if it
    /// is legal.
    fn check_move(&self, py: Python<'_>, r#move: MoveArg) -> PyResult<()> {
        let m = r#move.resolve(py, &self.0)?;
        self.0
            .check_move(m)
            .map_err(|e| errors::illegal_move(py, &m.to_string(), e))
    }

    /// The next position after `move` (a `Move` or its text); raises `IllegalMoveError`.
    fn play(&self, py: Python<'_>, r#move: MoveArg) -> PyResult<PositionPy> {
        let m = r#move.resolve(py, &self.0)?;
        play_checked(py, &self.0, m).map(PositionPy)
    }

    /// The cells of the pieces that the legal `move` captures (empty for a return); raises
    /// `IllegalMoveError` if it is illegal.
    fn captures<'py>(&self, py: Python<'py>, r#move: MoveArg) -> PyResult<Vec<Bound<'py, CellPy>>> {
        let m = r#move.resolve(py, &self.0)?;
        play_checked(py, &self.0, m)?;
        cell_list(py, self.0.captures(m))
    }

    /// Whether the legal `move` traps the piece that steps (under `between="trapped"`: a
    /// step between two enemy pieces that captures nothing); raises `IllegalMoveError` if
    /// it is illegal.
    fn traps(&self, py: Python<'_>, r#move: MoveArg) -> PyResult<bool> {
        let m = r#move.resolve(py, &self.0)?;
        play_checked(py, &self.0, m)?;
        Ok(self.0.traps(m))
    }

    // ---- the end

    /// The end of the game in this position (throne ring, then no legal action), or
    /// `None`. Repetition, two passes and the move limit need a game's history: see
    /// `Game.outcome()`.
    fn outcome(&self) -> Option<OutcomePy> {
        self.0.outcome().map(OutcomePy)
    }

    /// Whether the game is over in this position.
    fn is_over(&self) -> bool {
        self.0.is_over()
    }

    /// The side whose guards hold all six ring-1 cells, if one does.
    fn throne_ring_side(&self) -> Option<SidePy> {
        self.0.throne_ring_side().map(SidePy::from)
    }

    // ---- perft and symmetries

    /// The number of leaves of the tree of legal moves `depth` plies deep (0 to
    /// `agon.MAX_PERFT_DEPTH`; computed without holding the GIL), under the position's
    /// rules or `rules` if given (passes count; repetition, two passes and the move limit
    /// do not apply).
    #[pyo3(signature = (depth, rules = None))]
    fn perft(&self, py: Python<'_>, depth: Int<i64>, rules: Option<RulesArg>) -> PyResult<u64> {
        let position = match rules {
            Some(r) => with_rules(py, &self.0, r.0)?,
            None => self.0,
        };
        perft(py, position, depth)
    }

    /// perft split by the first move: a dict from each legal move to its leaves, which
    /// sum to `perft(depth)`. `depth` is 1 to `agon.MAX_PERFT_DEPTH`: perft(0) = 1 counts
    /// the position itself, which has no first move to split by.
    fn perft_divide<'py>(&self, py: Python<'py>, depth: Int<i64>) -> PyResult<Bound<'py, PyDict>> {
        let depth = perft_depth(depth, 1)?;
        let p = self.0;
        let split = py.detach(move || ac::perft_divide(&p, depth));
        let d = PyDict::new(py);
        for (m, n) in split {
            d.set_item(move_obj(py, m)?, n)?;
        }
        Ok(d)
    }

    /// The image of the position under a symmetry.
    fn transform(&self, symmetry: &SymmetryPy) -> PositionPy {
        PositionPy(symmetry.0.position(&self.0))
    }

    /// The twelve images of the position, by symmetry number.
    fn symmetries(&self) -> Vec<PositionPy> {
        ac::Symmetry::ALL
            .into_iter()
            .map(|s| PositionPy(s.position(&self.0)))
            .collect()
    }

    /// The canonical image among the twelve and the symmetry that gives it.
    fn canonical(&self) -> (PositionPy, SymmetryPy) {
        let (p, s) = ac::Symmetry::canonical(&self.0);
        (PositionPy(p), SymmetryPy(s))
    }

    // ---- actions and observations

    /// The legal actions (see `agon.ACTION_COUNT`), ascending, as an int64 array, in the
    /// action space of the position's rules (`agon.action_count(rules)`: the pass is
    /// `agon.PASS_ACTION`).
    fn legal_actions<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<i64>> {
        actions_array(py, &self.0, false)
    }

    /// The mask of legal actions: a bool array of `agon.action_count(self.rules)` entries
    /// (`agon.ACTION_COUNT` under the standard rules).
    fn action_mask<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<bool>> {
        mask_array(py, &self.0, false)
    }

    /// The observation planes from the side to move's view, float32: shape (11, 91), or
    /// (11, 11, 11) with `axial=True` (see `agon.OBSERVATION_CHANNELS`).
    #[pyo3(signature = (axial = false))]
    fn observation<'py>(&self, py: Python<'py>, axial: bool) -> PyResult<Bound<'py, PyAny>> {
        observation_array(py, &self.0, axial)
    }

    /// The observation in the axial (11, 11, 11) layout.
    fn observation_axial<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        observation_array(py, &self.0, true)
    }

    /// The move an action stands for here (not checked for legality).
    fn action_to_move<'py>(
        &self,
        py: Python<'py>,
        action: Int<i64>,
    ) -> PyResult<Bound<'py, MovePy>> {
        decode_action(py, &self.0, action.0).and_then(|m| move_obj(py, m))
    }

    /// The next position after an action; raises `IllegalMoveError`.
    fn play_action(&self, py: Python<'_>, action: Int<i64>) -> PyResult<PositionPy> {
        let m = decode_action(py, &self.0, action.0)?;
        play_checked(py, &self.0, m).map(PositionPy)
    }

    // ---- Python protocol

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other
            .cast::<PositionPy>()
            .is_ok_and(|o| o.get().0 == self.0)
    }

    fn __ne__(&self, other: &Bound<'_, PyAny>) -> bool {
        !self.__eq__(other)
    }

    fn __hash__(&self) -> u64 {
        self.0.hash()
    }

    fn __str__(&self) -> String {
        self.0.to_string()
    }

    fn __repr__(&self) -> String {
        let rules = self.0.rules();
        if rules.is_standard() {
            format!("Position('{}')", self.0.to_text())
        } else {
            format!("Position('{}', rules='{rules}')", self.0.to_text())
        }
    }

    /// Pickles as the position's text and its rules' text, parsed (and so checked) again
    /// on load.
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<(Bound<'py, PyAny>, (String, String))> {
        let p = slf.get().0;
        Ok((
            slf.get_type().into_any(),
            (p.to_text().to_string(), p.rules().to_string()),
        ))
    }

    /// The board as SVG, for notebooks (see `agon.svg`).
    fn _repr_svg_(&self) -> String {
        crate::svg::draw(&self.0, None)
    }
}
