//! `Position`: an immutable position with every rule of the core as a method.

use agon_core as ac;
use numpy::{PyArray1, PyArray2, PyArray3, PyArrayMethods};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyDictMethods, PyMapping, PyMappingMethods, PyString};

use crate::actions;
use crate::errors;
use crate::limits::{self, MAX_PERFT_DEPTH};
use crate::types::{
    cell_list, cell_obj, move_list, move_obj, CellArg, CellPy, Int, MoveArg, MovePy, OutcomePy,
    PieceArg, PiecePy, SidePy, SymmetryPy,
};

/// A position: where every piece stands, which are captured, and who is to move.
///
/// `Position()` is the start; `Position(text)` parses the one-line text form
/// (`"Qf1,Ga5,Gb1,Gd9,Gh9,Gk1,Gl5/qf11,ga2,gb7,gd1,gh1,gk7,gl2 w"`). Positions are
/// immutable: `play(move)` returns the next position. They compare and hash by value;
/// `str()` draws the board and `repr()` gives the text.
#[pyclass(frozen, module = "agon._agon", name = "Position")]
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct PositionPy(pub ac::Position);

/// A position given as a `Position` or its text.
pub struct PositionArg(pub ac::Position);

impl<'a, 'py> FromPyObject<'a, 'py> for PositionArg {
    type Error = PyErr;

    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<Self> {
        if let Ok(p) = obj.cast::<PositionPy>() {
            return Ok(PositionArg(p.get().0));
        }
        let text: String = obj.extract()?;
        parse_position(obj.py(), &text).map(PositionArg)
    }
}

/// Parses a position's text, raising `ParseError`.
pub fn parse_position(py: Python<'_>, text: &str) -> PyResult<ac::Position> {
    ac::Position::from_text(text).map_err(|e| errors::parse_error(py, "position", text, e))
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

/// The legal actions of a position as a numpy array.
pub fn actions_array<'py>(
    py: Python<'py>,
    moves: impl IntoIterator<Item = ac::Move>,
) -> Bound<'py, PyArray1<i64>> {
    let mut v: Vec<i64> = moves
        .into_iter()
        .filter_map(|m| actions::move_to_action(m).map(|a| a as i64))
        .collect();
    v.sort_unstable();
    PyArray1::from_vec(py, v)
}

/// The action mask of a list of legal moves as a numpy array.
pub fn mask_array<'py>(
    py: Python<'py>,
    moves: impl IntoIterator<Item = ac::Move>,
) -> Bound<'py, PyArray1<bool>> {
    let mut v = vec![false; actions::ACTION_COUNT];
    actions::write_mask(moves, &mut v);
    PyArray1::from_vec(py, v)
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
            let message = if (0..actions::ACTION_COUNT as i64).contains(&action) {
                format!("action {action} is a step off the board")
            } else {
                format!(
                    "action {action} is out of range 0-{}",
                    actions::ACTION_COUNT - 1
                )
            };
            errors::illegal_action(py, message, "no-such-action")
        })
}

/// A perft depth: 0 to `MAX_PERFT_DEPTH` (from 1 with `min` = 1).
pub fn perft_depth(depth: Int<i64>, min: u32) -> PyResult<u32> {
    u32::try_from(depth.0)
        .ok()
        .filter(|d| (min..=MAX_PERFT_DEPTH).contains(d))
        .ok_or_else(|| {
            limits::out_of_range(
                "depth",
                &format!("{min} to MAX_PERFT_DEPTH ({MAX_PERFT_DEPTH})"),
                depth.0,
            )
        })
}

/// perft of `position`, `depth` checked (0 to `MAX_PERFT_DEPTH`), without the GIL: the
/// one implementation behind `Position.perft` and `agon.perft`.
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
    /// The start position, or the position of a text.
    #[new]
    #[pyo3(signature = (text = None))]
    fn new(py: Python<'_>, text: Option<&str>) -> PyResult<PositionPy> {
        match text {
            None => Ok(PositionPy(ac::Position::start())),
            Some(t) => parse_position(py, t).map(PositionPy),
        }
    }

    /// The start position (White to move).
    #[staticmethod]
    fn start() -> PositionPy {
        PositionPy(ac::Position::start())
    }

    /// Parses the one-line text form, raising `ParseError`.
    #[staticmethod]
    fn from_text(py: Python<'_>, text: &str) -> PyResult<PositionPy> {
        parse_position(py, text).map(PositionPy)
    }

    /// Builds a position from a mapping of cells to pieces (`{"f1": "Q", ...}` or `Cell`
    /// and `Piece` objects; at most 91 entries), the side to move and the captured cells
    /// (an iterable of at most 91); raises `InvalidPositionError` for what no game can
    /// reach.
    #[staticmethod]
    #[pyo3(signature = (pieces, turn = SidePy::White, captured = None))]
    fn from_pieces(
        py: Python<'_>,
        pieces: &Bound<'_, PyAny>,
        turn: SidePy,
        captured: Option<&Bound<'_, PyAny>>,
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
        ac::Position::from_parts(turn.into(), list, captured)
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

    /// The cells of the captured pieces (all of one side).
    fn captured<'py>(&self, py: Python<'py>) -> PyResult<Vec<Bound<'py, CellPy>>> {
        cell_list(py, self.0.captured())
    }

    /// The side whose pieces are captured, if any.
    #[getter]
    fn captured_side(&self) -> Option<SidePy> {
        self.0.captured_side().map(SidePy::from)
    }

    /// Whether the piece on `cell` is captured.
    fn is_captured(&self, cell: CellArg) -> bool {
        self.0.is_captured(cell.0)
    }

    /// The cells `side` may not step to: between two opponent pieces on a line (R4).
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

    // ---- the end

    /// The end of the game in this position (throne ring, then no legal action), or
    /// `None`. Repetition needs a game's history: see `Game.outcome()`.
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
    /// `agon.MAX_PERFT_DEPTH`; computed without holding the GIL).
    fn perft(&self, py: Python<'_>, depth: Int<i64>) -> PyResult<u64> {
        perft(py, self.0, depth)
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

    /// The legal actions (see `agon.ACTION_COUNT`), ascending, as an int64 array.
    fn legal_actions<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<i64>> {
        actions_array(py, self.0.actions())
    }

    /// The mask of legal actions: a bool array of `agon.ACTION_COUNT` entries.
    fn action_mask<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<bool>> {
        mask_array(py, self.0.actions())
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
        format!("Position('{}')", self.0.to_text())
    }

    /// Pickles as the position's text, parsed (and so checked) again on load.
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<(Bound<'py, PyAny>, (String,))> {
        Ok((
            slf.get_type().into_any(),
            (slf.get().0.to_text().to_string(),),
        ))
    }

    /// The board as SVG, for notebooks (see `agon.svg`).
    fn _repr_svg_(&self) -> String {
        crate::svg::draw(&self.0, None)
    }
}
