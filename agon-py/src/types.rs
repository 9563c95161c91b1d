//! The small value types: `Cell`, `Side`, `Kind`, `Piece`, `Move`, `Outcome`, `Symmetry`,
//! and the conversions of arguments that accept several forms (a `Cell`, a name or an
//! index; a `Move` or its text).

use agon_core as ac;
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyBool, PyInt, PyString, PyTuple};

use crate::errors;

// ---------------------------------------------------------------------------------------
// Integer arguments

/// An integer argument: an `int` or any object with `__index__` (numpy integers), but not
/// a `bool` (a bool where a number is expected is almost always a mistake). Raises
/// `TypeError` for anything else (pyo3 names the argument) and `OverflowError` for an int
/// outside the range of `T`; callers check the values their argument allows.
#[derive(Clone, Copy, Debug)]
pub struct Int<T>(pub T);

impl<'a, 'py, T> FromPyObject<'a, 'py> for Int<T>
where
    T: FromPyObject<'a, 'py>,
{
    type Error = PyErr;

    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<Self> {
        if obj.is_instance_of::<PyBool>() {
            return Err(PyTypeError::new_err("expected an int, not bool"));
        }
        obj.extract::<T>().map(Int).map_err(Into::into)
    }
}

/// Whether `obj` is an integer that may stand for a number: an `int` (not a `bool`) or an
/// object with `__index__` (numpy integers).
#[allow(unsafe_code)] // One FFI call: pyo3 has no safe `PyIndex_Check`.
pub fn is_index(obj: &Borrowed<'_, '_, PyAny>) -> bool {
    if obj.is_instance_of::<PyBool>() {
        return false;
    }
    // SAFETY: `PyIndex_Check` only reads the type of a live object.
    obj.is_instance_of::<PyInt>() || unsafe { pyo3::ffi::PyIndex_Check(obj.as_ptr()) != 0 }
}

/// What `__reduce__` returns: a callable and its arguments.
pub type Reduced<'py, A> = (Bound<'py, PyAny>, A);

// ---------------------------------------------------------------------------------------
// Cell

/// One of the 91 cells of the board.
///
/// Build one from its name or its index: `Cell("f6")`, `Cell(45)`. Cells are named like
/// Glinski's hexagonal chess: eleven files `a`-`l` (no `j`), ranks from 1 at the bottom of
/// each file; `f6` is the throne. The index counts file by file, `a1 = 0` to `l6 = 90`.
/// Cells compare and sort by index, hash, and convert to their index with `int()` (so they
/// index numpy arrays directly).
#[pyclass(frozen, eq, ord, hash, module = "agon._agon", name = "Cell")]
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct CellPy(pub ac::Cell);

static CELL_OBJECTS: PyOnceLock<Vec<Py<CellPy>>> = PyOnceLock::new();

/// The shared Python object of a cell (the 91 cells are made once).
pub fn cell_obj(py: Python<'_>, cell: ac::Cell) -> PyResult<Bound<'_, CellPy>> {
    let table = CELL_OBJECTS.get_or_try_init(py, || {
        ac::Cell::all()
            .map(|c| Py::new(py, CellPy(c)))
            .collect::<PyResult<Vec<_>>>()
    })?;
    Ok(table[cell.index()].bind(py).clone())
}

/// The cells of a set as a list of shared cell objects, in index order.
pub fn cell_list(py: Python<'_>, set: ac::CellSet) -> PyResult<Vec<Bound<'_, CellPy>>> {
    set.iter().map(|c| cell_obj(py, c)).collect()
}

/// A cell given as a `Cell`, a name (`"f6"`) or an index (`45`).
#[derive(Clone, Copy)]
pub struct CellArg(pub ac::Cell);

impl<'a, 'py> FromPyObject<'a, 'py> for CellArg {
    type Error = PyErr;

    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<Self> {
        if let Ok(c) = obj.cast::<CellPy>() {
            return Ok(CellArg(c.get().0));
        }
        let py = obj.py();
        if let Ok(s) = obj.cast::<PyString>() {
            let text = s.to_cow()?;
            return text
                .parse::<ac::Cell>()
                .map(CellArg)
                .map_err(|e| errors::parse_error(py, "cell", &text, e));
        }
        if is_index(&obj) {
            // An int beyond i64 is not printed: printing a huge int may itself fail.
            let index = obj.extract::<i64>().ok();
            return index
                .and_then(|i| usize::try_from(i).ok())
                .and_then(ac::Cell::from_index)
                .map(CellArg)
                .ok_or_else(|| {
                    let shown =
                        index.map_or_else(|| "beyond 64 bits".to_string(), |i| i.to_string());
                    PyValueError::new_err(format!("no cell has index {shown} (0-90)"))
                });
        }
        Err(PyTypeError::new_err(format!(
            "expected a Cell, a cell name or a cell index, not {}",
            obj.get_type().name()?
        )))
    }
}

#[pymethods]
impl CellPy {
    /// The cell with this name (`"f6"`) or index (`45`).
    #[new]
    fn new(cell: CellArg) -> CellPy {
        CellPy(cell.0)
    }

    /// The cell at cube coordinates `(q, r, s)`, or `None` off the board.
    #[staticmethod]
    fn from_cube(
        py: Python<'_>,
        q: Int<i64>,
        r: Int<i64>,
        s: Int<i64>,
    ) -> PyResult<Option<Bound<'_, CellPy>>> {
        let (q, r, s) = (q.0, r.0, s.0);
        let small = |x: i64| i8::try_from(x).ok();
        let cell = match (small(q), small(r), small(s)) {
            (Some(q), Some(r), Some(s)) => ac::Cell::from_cube(q, r, s),
            _ => None,
        };
        cell.map(|c| cell_obj(py, c)).transpose()
    }

    /// The cell of a file (0-10, `a` to `l`) and rank (from 1), or `None`.
    #[staticmethod]
    fn from_file_rank(
        py: Python<'_>,
        file: Int<i64>,
        rank: Int<i64>,
    ) -> PyResult<Option<Bound<'_, CellPy>>> {
        let cell = match (u8::try_from(file.0), u8::try_from(rank.0)) {
            (Ok(file), Ok(rank)) => ac::Cell::from_file_rank(file, rank),
            _ => None,
        };
        cell.map(|c| cell_obj(py, c)).transpose()
    }

    /// The name, like `"f6"`.
    #[getter]
    fn name(&self) -> String {
        self.0.to_string()
    }

    /// The index, 0-90, file by file (`a1` = 0, the throne `f6` = 45, `l6` = 90).
    #[getter]
    fn index(&self) -> usize {
        self.0.index()
    }

    /// The file, 0-10 (`a` = 0, ..., `l` = 10).
    #[getter]
    fn file(&self) -> u8 {
        self.0.file()
    }

    /// The rank, from 1 at the bottom of the file.
    #[getter]
    fn rank(&self) -> u8 {
        self.0.rank()
    }

    /// The ring: the distance from the throne, 0 (the throne) to 5 (the outer ring).
    #[getter]
    fn ring(&self) -> u8 {
        self.0.ring().distance()
    }

    /// The cube coordinates `(q, r, s)`, with `q + r + s == 0`.
    #[getter]
    fn cube(&self) -> (i8, i8, i8) {
        self.0.cube()
    }

    /// The adjacent cell in `direction` (0-5 clockwise from north, see `agon.NORTH`...),
    /// or `None` off the board.
    fn neighbour<'py>(
        &self,
        py: Python<'py>,
        direction: Int<i64>,
    ) -> PyResult<Option<Bound<'py, CellPy>>> {
        let d = usize::try_from(direction.0)
            .ok()
            .and_then(ac::Direction::from_index)
            .ok_or_else(|| {
                PyValueError::new_err(format!(
                    "a direction is 0-5, clockwise from north, not {}",
                    direction.0
                ))
            })?;
        self.0.neighbour(d).map(|c| cell_obj(py, c)).transpose()
    }

    /// The adjacent cells (3, 4 or 6), in index order.
    fn neighbours<'py>(&self, py: Python<'py>) -> PyResult<Vec<Bound<'py, CellPy>>> {
        cell_list(py, self.0.neighbours())
    }

    /// Whether `other` is adjacent to this cell.
    fn is_adjacent(&self, other: CellArg) -> bool {
        self.0.is_adjacent(other.0)
    }

    /// The distance to `other`, in steps.
    fn distance(&self, other: CellArg) -> u8 {
        self.0.distance(other.0)
    }

    /// The middle cell of the straight line from `a` to `b`, if they are its two ends.
    #[staticmethod]
    fn between(py: Python<'_>, a: CellArg, b: CellArg) -> PyResult<Option<Bound<'_, CellPy>>> {
        ac::Cell::between(a.0, b.0)
            .map(|c| cell_obj(py, c))
            .transpose()
    }

    /// All 91 cells in index order.
    #[staticmethod]
    fn all(py: Python<'_>) -> PyResult<Vec<Bound<'_, CellPy>>> {
        ac::Cell::all().map(|c| cell_obj(py, c)).collect()
    }

    fn __index__(&self) -> usize {
        self.0.index()
    }

    fn __int__(&self) -> usize {
        self.0.index()
    }

    fn __str__(&self) -> String {
        self.0.to_string()
    }

    fn __repr__(&self) -> String {
        format!("Cell('{}')", self.0)
    }

    /// Pickles as the cell's name.
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<(Bound<'py, PyAny>, (String,))> {
        Ok((slf.get_type().into_any(), (slf.get().0.to_string(),)))
    }
}

// ---------------------------------------------------------------------------------------
// Side and Kind

/// One of the two sides: `Side.WHITE` (moves first) or `Side.BLACK`. Compares equal to 0
/// and 1 respectively.
#[pyclass(
    frozen,
    eq,
    eq_int,
    hash,
    from_py_object,
    module = "agon._agon",
    name = "Side"
)]
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum SidePy {
    /// White, who moves first.
    #[pyo3(name = "WHITE")]
    White = 0,
    /// Black.
    #[pyo3(name = "BLACK")]
    Black = 1,
}

/// A Python enum wrapping one of agon-core's: the conversions both ways, and pickling as
/// the member of its name (`getattr(cls, "WHITE")`, documented by the given text), for
/// `$py` whose variants are named as those of the core's enum, each with its Python
/// member name.
macro_rules! core_enum {
    ($py:ident <=> $core:ty, $reduce_doc:literal { $($variant:ident => $member:literal),+ $(,)? }) => {
        impl From<$core> for $py {
            fn from(v: $core) -> $py {
                match v {
                    $(<$core>::$variant => $py::$variant),+
                }
            }
        }

        impl From<$py> for $core {
            fn from(v: $py) -> $core {
                match v {
                    $($py::$variant => <$core>::$variant),+
                }
            }
        }

        #[pymethods]
        impl $py {
            #[doc = $reduce_doc]
            fn __reduce__<'py>(
                slf: &Bound<'py, Self>,
            ) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyTuple>)> {
                let name = match slf.get() {
                    $($py::$variant => $member),+
                };
                reduce_member(slf.as_any().get_type().into_any(), name)
            }
        }
    };
}

core_enum!(SidePy <=> ac::Side, "Pickles as the member `Side.WHITE` or `Side.BLACK`." { White => "WHITE", Black => "BLACK" });
core_enum!(KindPy <=> ac::Kind, "Pickles as the member `Kind.QUEEN` or `Kind.GUARD`." { Queen => "QUEEN", Guard => "GUARD" });

/// `getattr(cls, name)`: how enum members pickle.
fn reduce_member<'py>(
    cls: Bound<'py, PyAny>,
    name: &str,
) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyTuple>)> {
    let py = cls.py();
    let getattr = py.import("builtins")?.getattr("getattr")?;
    let args = PyTuple::new(py, [cls, PyString::new(py, name).into_any()])?;
    Ok((getattr, args))
}

#[pymethods]
impl SidePy {
    /// The opponent.
    fn other(&self) -> SidePy {
        ac::Side::from(*self).other().into()
    }

    fn __invert__(&self) -> SidePy {
        self.other()
    }

    /// The letter in position text: `"w"` or `"b"`.
    #[getter]
    fn char(&self) -> char {
        ac::Side::from(*self).char()
    }

    /// The name, `"White"` or `"Black"`.
    #[getter]
    fn name(&self) -> String {
        ac::Side::from(*self).to_string()
    }

    /// The side of a letter `"w"` or `"b"`.
    #[staticmethod]
    fn from_char(c: char) -> PyResult<SidePy> {
        ac::Side::from_char(c)
            .map(SidePy::from)
            .ok_or_else(|| PyValueError::new_err(format!("a side is 'w' or 'b', not {c:?}")))
    }

    fn __str__(&self) -> String {
        ac::Side::from(*self).to_string()
    }
}

/// The kind of a piece: `Kind.QUEEN` or `Kind.GUARD`.
#[pyclass(
    frozen,
    eq,
    eq_int,
    hash,
    from_py_object,
    module = "agon._agon",
    name = "Kind"
)]
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum KindPy {
    /// The queen (one per side).
    #[pyo3(name = "QUEEN")]
    Queen = 0,
    /// A guard (six per side).
    #[pyo3(name = "GUARD")]
    Guard = 1,
}

#[pymethods]
impl KindPy {
    /// The name, `"queen"` or `"guard"`.
    #[getter]
    fn name(&self) -> String {
        ac::Kind::from(*self).to_string()
    }

    fn __str__(&self) -> String {
        ac::Kind::from(*self).to_string()
    }
}

// ---------------------------------------------------------------------------------------
// Piece

/// A piece: its side and kind. Its symbol is `Q`/`G` for White, `q`/`g` for Black.
#[pyclass(
    frozen,
    eq,
    hash,
    from_py_object,
    module = "agon._agon",
    name = "Piece"
)]
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct PiecePy(pub ac::Piece);

/// A piece given as a `Piece` or its symbol (`"Q"`, `"G"`, `"q"`, `"g"`).
#[derive(Clone, Copy)]
pub struct PieceArg(pub ac::Piece);

impl<'a, 'py> FromPyObject<'a, 'py> for PieceArg {
    type Error = PyErr;

    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<Self> {
        if let Ok(p) = obj.cast::<PiecePy>() {
            return Ok(PieceArg(p.get().0));
        }
        if let Ok(s) = obj.cast::<PyString>() {
            return piece_from_symbol(&s.to_cow()?).map(PieceArg);
        }
        Err(PyTypeError::new_err(
            "expected a Piece or a piece symbol (Q, G, q, g)",
        ))
    }
}

fn piece_from_symbol(symbol: &str) -> PyResult<ac::Piece> {
    let mut chars = symbol.chars();
    match (chars.next(), chars.next()) {
        (Some(c), None) => ac::Piece::from_char(c),
        _ => None,
    }
    .ok_or_else(|| PyValueError::new_err(format!("a piece symbol is Q, G, q or g, not {symbol:?}")))
}

#[pymethods]
impl PiecePy {
    /// The piece of `side` and `kind`.
    #[new]
    fn new(side: SidePy, kind: KindPy) -> PiecePy {
        PiecePy(ac::Piece::new(side.into(), kind.into()))
    }

    /// The piece of a symbol: `Q`, `G` (White), `q`, `g` (Black).
    #[staticmethod]
    fn from_symbol(symbol: &str) -> PyResult<PiecePy> {
        piece_from_symbol(symbol).map(PiecePy)
    }

    /// The side of the piece.
    #[getter]
    fn side(&self) -> SidePy {
        self.0.side.into()
    }

    /// The kind of the piece.
    #[getter]
    fn kind(&self) -> KindPy {
        self.0.kind.into()
    }

    /// The symbol: `Q`, `G`, `q` or `g`.
    #[getter]
    fn symbol(&self) -> char {
        self.0.char()
    }

    fn __str__(&self) -> String {
        self.0.to_string()
    }

    fn __repr__(&self) -> String {
        format!("Piece.from_symbol('{}')", self.0.char())
    }

    /// Pickles as the side and the kind.
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<(Bound<'py, PyAny>, (SidePy, KindPy))> {
        let p = slf.get().0;
        Ok((slf.get_type().into_any(), (p.side.into(), p.kind.into())))
    }
}

// ---------------------------------------------------------------------------------------
// Move

/// One action: a step (`f1-e1`), the return of a captured piece (`f4>l1`), or a pass
/// (`pass`, `Move.PASS`: only under `stuck="pass"`, for a side with no other action).
///
/// `Move(from_cell, to_cell, is_return=False)`, `Move.step(a, b)`, `Move.returning(a, b)`
/// or `Move.parse("f1-e1")`. For a return, `from_cell` is the cell where the captured piece
/// stands; a pass has no cells (`None`). Moves are immutable, compare, sort and hash by value; `str()` gives the
/// notation and `pair` the from-to pair engines exchange (`f1e1`).
#[pyclass(frozen, eq, ord, hash, module = "agon._agon", name = "Move")]
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct MovePy(pub ac::Move);

/// Every from-to pair of either kind, then the pass.
const MOVE_TABLE: usize = 2 * ac::CELL_COUNT * ac::CELL_COUNT + 1;
static MOVE_OBJECTS: PyOnceLock<Vec<Py<MovePy>>> = PyOnceLock::new();

/// The shared Python object of a move: every from-to pair of either kind is made once, so
/// listing legal moves allocates nothing but the list.
pub fn move_obj(py: Python<'_>, m: ac::Move) -> PyResult<Bound<'_, MovePy>> {
    let table = MOVE_OBJECTS.get_or_try_init(py, || -> PyResult<Vec<Py<MovePy>>> {
        let mut v = Vec::with_capacity(MOVE_TABLE);
        for ret in [false, true] {
            for from in ac::Cell::all() {
                for to in ac::Cell::all() {
                    let m = if ret {
                        ac::Move::Return { from, to }
                    } else {
                        ac::Move::Step { from, to }
                    };
                    v.push(Py::new(py, MovePy(m))?);
                }
            }
        }
        v.push(Py::new(py, MovePy(ac::Move::Pass))?);
        Ok(v)
    })?;
    let i = m.cells().map_or(MOVE_TABLE - 1, |(from, to)| {
        usize::from(m.is_return()) * ac::CELL_COUNT * ac::CELL_COUNT
            + from.index() * ac::CELL_COUNT
            + to.index()
    });
    Ok(table[i].bind(py).clone())
}

/// The legal moves of a list as shared move objects.
pub fn move_list<'py>(py: Python<'py>, moves: &[ac::Move]) -> PyResult<Vec<Bound<'py, MovePy>>> {
    moves.iter().map(|&m| move_obj(py, m)).collect()
}

/// A move given as a `Move` or as text: a step `f1-e1`, a return `f4>l1`, or (where a
/// position is known) a pair `f1e1`.
pub enum MoveArg {
    /// A `Move` object.
    Move(ac::Move),
    /// Text, parsed against a position when one is known.
    Text(String),
}

impl<'a, 'py> FromPyObject<'a, 'py> for MoveArg {
    type Error = PyErr;

    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<Self> {
        if let Ok(m) = obj.cast::<MovePy>() {
            return Ok(MoveArg::Move(m.get().0));
        }
        if let Ok(s) = obj.cast::<PyString>() {
            return Ok(MoveArg::Text(s.to_cow()?.into_owned()));
        }
        Err(PyTypeError::new_err(format!(
            "expected a Move or a move's text, not {}",
            obj.get_type().name()?
        )))
    }
}

impl MoveArg {
    /// The move, reading text in `position` (so pairs are understood).
    pub fn resolve(&self, py: Python<'_>, position: &ac::Position) -> PyResult<ac::Move> {
        match self {
            MoveArg::Move(m) => Ok(*m),
            MoveArg::Text(t) => position
                .parse_move(t)
                .map_err(|e| errors::parse_error(py, "move", t, e)),
        }
    }

    /// The move without a position: steps and returns only.
    pub fn resolve_alone(&self, py: Python<'_>) -> PyResult<ac::Move> {
        match self {
            MoveArg::Move(m) => Ok(*m),
            MoveArg::Text(t) => t
                .parse::<ac::Move>()
                .map_err(|e| errors::parse_error(py, "move", t, e)),
        }
    }
}

#[pymethods]
impl MovePy {
    /// A step (or, with `is_return=True`, a return) from `from_cell` to `to_cell`.
    #[new]
    #[pyo3(signature = (from_cell, to_cell, is_return = false))]
    fn new(from_cell: CellArg, to_cell: CellArg, is_return: bool) -> MovePy {
        let (from, to) = (from_cell.0, to_cell.0);
        MovePy(if is_return {
            ac::Move::Return { from, to }
        } else {
            ac::Move::Step { from, to }
        })
    }

    /// A step of the piece on `from_cell` to `to_cell`.
    #[staticmethod]
    fn step(py: Python<'_>, from_cell: CellArg, to_cell: CellArg) -> PyResult<Bound<'_, MovePy>> {
        move_obj(
            py,
            ac::Move::Step {
                from: from_cell.0,
                to: to_cell.0,
            },
        )
    }

    /// The return of the captured piece on `from_cell` to `to_cell`.
    #[staticmethod]
    fn returning(
        py: Python<'_>,
        from_cell: CellArg,
        to_cell: CellArg,
    ) -> PyResult<Bound<'_, MovePy>> {
        move_obj(
            py,
            ac::Move::Return {
                from: from_cell.0,
                to: to_cell.0,
            },
        )
    }

    /// The pass (`"pass"`): the only action of a side with no other under `stuck="pass"`.
    #[classattr]
    #[pyo3(name = "PASS")]
    fn pass_const() -> MovePy {
        MovePy(ac::Move::Pass)
    }

    /// Parses a step (`"f1-e1"`), a return (`"f4>l1"`) or a pass (`"pass"`). A bare pair
    /// (`"f1e1"`) needs a position to tell its kind: use `Position.parse_move`.
    #[staticmethod]
    fn parse<'py>(py: Python<'py>, text: &str) -> PyResult<Bound<'py, MovePy>> {
        text.parse::<ac::Move>()
            .map_err(|e| errors::parse_error(py, "move", text, e))
            .and_then(|m| move_obj(py, m))
    }

    /// The cell the piece leaves (for a return: where the captured piece stands; `None`
    /// for a pass).
    #[getter(from_cell)]
    fn origin<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, CellPy>>> {
        self.0.from().map(|c| cell_obj(py, c)).transpose()
    }

    /// The cell the piece enters (`None` for a pass).
    #[getter(to_cell)]
    fn destination<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, CellPy>>> {
        self.0.to().map(|c| cell_obj(py, c)).transpose()
    }

    /// Whether this is a return.
    #[getter]
    fn is_return(&self) -> bool {
        self.0.is_return()
    }

    /// Whether this is a step.
    #[getter]
    fn is_step(&self) -> bool {
        matches!(self.0, ac::Move::Step { .. })
    }

    /// Whether this is a pass (only rule sets where a stuck side passes have one).
    #[getter]
    fn is_pass(&self) -> bool {
        self.0.is_pass()
    }

    /// The from-to pair, like `"f1e1"` (`"pass"` for a pass).
    #[getter]
    fn pair(&self) -> String {
        self.0.pair().to_string()
    }

    /// The image of the move under a symmetry.
    fn transform<'py>(
        &self,
        py: Python<'py>,
        symmetry: &SymmetryPy,
    ) -> PyResult<Bound<'py, MovePy>> {
        move_obj(py, symmetry.0.apply_move(self.0))
    }

    fn __str__(&self) -> String {
        self.0.to_string()
    }

    fn __repr__(&self) -> String {
        format!("Move.parse('{}')", self.0)
    }

    /// Pickles as its cells and kind, read back by the constructor; a pass as its text,
    /// read back by `Move.parse`.
    fn __reduce__<'py>(
        slf: &Bound<'py, Self>,
    ) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyTuple>)> {
        let py = slf.py();
        let m = slf.get().0;
        match m.cells() {
            Some((from, to)) => Ok((
                slf.get_type().into_any(),
                PyTuple::new(
                    py,
                    [
                        from.to_string().into_pyobject(py)?.into_any(),
                        to.to_string().into_pyobject(py)?.into_any(),
                        PyBool::new(py, m.is_return()).to_owned().into_any(),
                    ],
                )?,
            )),
            None => Ok((
                slf.get_type().getattr("parse")?,
                PyTuple::new(py, [m.to_string()])?,
            )),
        }
    }
}

// ---------------------------------------------------------------------------------------
// Outcome

/// How a game ended: the `winner` (`None` for a draw) and the `reason`: `"throne"`,
/// `"ring-without-queen"` (a draw under `empty_throne_ring="draw"`), `"no-legal-action"`,
/// `"repetition"`, `"two-passes"` or `"move-limit"` (always draws).
#[pyclass(frozen, eq, hash, module = "agon._agon", name = "Outcome")]
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct OutcomePy(pub ac::Outcome);

fn end_reason(name: &str) -> PyResult<ac::EndReason> {
    ac::EndReason::from_name(name).ok_or_else(|| {
        let names: Vec<&str> = ac::EndReason::ALL.iter().map(|r| r.name()).collect();
        PyValueError::new_err(format!(
            "an end reason is one of {}, not {}",
            names.join(", "),
            errors::quoted(name)
        ))
    })
}

/// Whether a game may end drawn for `reason` (under some rule set).
fn draws(reason: ac::EndReason) -> bool {
    matches!(
        reason,
        ac::EndReason::Repetition
            | ac::EndReason::TwoPasses
            | ac::EndReason::MoveLimit
            | ac::EndReason::RingWithoutQueen
    )
}

/// Whether a game may end won for `reason`.
fn wins(reason: ac::EndReason) -> bool {
    matches!(
        reason,
        ac::EndReason::Throne | ac::EndReason::RingWithoutQueen | ac::EndReason::NoLegalAction
    )
}

#[pymethods]
impl OutcomePy {
    /// An outcome: `Outcome(Side.WHITE, "throne")`, or `Outcome(None, "repetition")`.
    /// Repetition, two passes and the move limit are draws (winner `None`); the throne and
    /// no legal action have a winner; the ring without the queen either (a draw under
    /// `empty_throne_ring="draw"`).
    #[new]
    fn new(winner: Option<SidePy>, reason: &str) -> PyResult<OutcomePy> {
        let reason = end_reason(reason)?;
        match winner {
            None if draws(reason) => Ok(OutcomePy(ac::Outcome::drawn(reason))),
            Some(w) if wins(reason) => Ok(OutcomePy(ac::Outcome::win(w.into(), reason))),
            None => Err(PyValueError::new_err(format!(
                "{} has a winner: it is never a draw",
                reason.name()
            ))),
            Some(_) => Err(PyValueError::new_err(format!(
                "{} is a draw: its winner is None",
                reason.name()
            ))),
        }
    }

    /// The side that won, or `None` for a draw.
    #[getter]
    fn winner(&self) -> Option<SidePy> {
        self.0.winner.map(SidePy::from)
    }

    /// Why the game ended: `"throne"`, `"ring-without-queen"`, `"no-legal-action"`,
    /// `"repetition"`, `"two-passes"` or `"move-limit"`.
    #[getter]
    fn reason(&self) -> &'static str {
        self.0.reason.name()
    }

    /// The result as records write it: `"1-0"`, `"0-1"` or `"1/2-1/2"`.
    #[getter]
    fn score(&self) -> &'static str {
        self.0.score()
    }

    /// Whether the game was drawn.
    #[getter]
    fn is_draw(&self) -> bool {
        self.0.winner.is_none()
    }

    fn __str__(&self) -> String {
        self.0.to_string()
    }

    fn __repr__(&self) -> String {
        let winner = match self.0.winner {
            Some(ac::Side::White) => "Side.WHITE",
            Some(ac::Side::Black) => "Side.BLACK",
            None => "None",
        };
        format!("Outcome({winner}, '{}')", self.0.reason.name())
    }

    /// Pickles as the winner and the reason.
    fn __reduce__<'py>(
        slf: &Bound<'py, Self>,
    ) -> PyResult<Reduced<'py, (Option<SidePy>, &'static str)>> {
        let o = slf.get().0;
        Ok((
            slf.get_type().into_any(),
            (o.winner.map(SidePy::from), o.reason.name()),
        ))
    }
}

// ---------------------------------------------------------------------------------------
// Symmetry

/// One of the twelve symmetries of the board: a mirror through the f file (if
/// `is_mirror`), then a clockwise rotation by `rotation` sixths of a turn. Numbered 0-11
/// as `rotation + 6 * mirror`; 0 is the identity, 3 the half turn. Colours are not
/// swapped.
#[pyclass(frozen, eq, ord, hash, module = "agon._agon", name = "Symmetry")]
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct SymmetryPy(pub ac::Symmetry);

#[pymethods]
impl SymmetryPy {
    /// The symmetry with this number (0-11).
    #[new]
    fn new(index: Int<i64>) -> PyResult<SymmetryPy> {
        usize::try_from(index.0)
            .ok()
            .and_then(ac::Symmetry::from_index)
            .map(SymmetryPy)
            .ok_or_else(|| {
                PyValueError::new_err(format!(
                    "a symmetry is numbered 0-{}, not {}",
                    ac::Symmetry::ALL.len() - 1,
                    index.0
                ))
            })
    }

    /// The symmetry that mirrors (if `mirror`), then rotates clockwise by `rotation`
    /// sixths of a turn (any int: taken modulo 6, so -1 is 5).
    #[staticmethod]
    #[pyo3(signature = (rotation, mirror = false))]
    fn from_rotation(rotation: Int<i64>, mirror: bool) -> SymmetryPy {
        // rem_euclid(6) is 0 to 5, so the cast cannot truncate.
        SymmetryPy(ac::Symmetry::new(rotation.0.rem_euclid(6) as u8, mirror))
    }

    /// All twelve symmetries, by number.
    #[staticmethod]
    fn all() -> Vec<SymmetryPy> {
        ac::Symmetry::ALL.into_iter().map(SymmetryPy).collect()
    }

    /// The number, `rotation + 6 * mirror`.
    #[getter]
    fn index(&self) -> usize {
        self.0.index()
    }

    /// The clockwise rotation in sixths of a turn.
    #[getter]
    fn rotation(&self) -> u8 {
        self.0.rotation()
    }

    /// Whether the symmetry mirrors the board.
    #[getter]
    fn is_mirror(&self) -> bool {
        self.0.is_mirror()
    }

    /// The image of a cell.
    fn cell<'py>(&self, py: Python<'py>, cell: CellArg) -> PyResult<Bound<'py, CellPy>> {
        cell_obj(py, self.0.cell(cell.0))
    }

    /// The image of a move (given as a `Move` or a step or return text).
    #[pyo3(name = "move")]
    fn move_<'py>(&self, py: Python<'py>, r#move: MoveArg) -> PyResult<Bound<'py, MovePy>> {
        move_obj(py, self.0.apply_move(r#move.resolve_alone(py)?))
    }

    /// The image of a position.
    fn position(&self, position: &crate::position::PositionPy) -> crate::position::PositionPy {
        crate::position::PositionPy(self.0.position(&position.0))
    }

    /// The symmetry that undoes this one.
    fn inverse(&self) -> SymmetryPy {
        SymmetryPy(self.0.inverse())
    }

    /// The symmetry that applies this one, then `then`.
    fn then(&self, then: &SymmetryPy) -> SymmetryPy {
        SymmetryPy(self.0.then(then.0))
    }

    fn __int__(&self) -> usize {
        self.0.index()
    }

    fn __repr__(&self) -> String {
        format!("Symmetry({})", self.0.index())
    }

    /// Pickles as the symmetry's number.
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<(Bound<'py, PyAny>, (usize,))> {
        Ok((slf.get_type().into_any(), (slf.get().0.index(),)))
    }
}

/// `__copy__` and `__deepcopy__` of the immutable value types, written once: a copy of an
/// immutable value is the value itself. (A second `#[pymethods]` block per type, which
/// pyo3's `multiple-pymethods` feature allows.)
macro_rules! immutable_copies {
    ($($value:ty),* $(,)?) => {$(
        #[pymethods]
        impl $value {
            /// Itself: the value is immutable.
            fn __copy__(slf: Bound<'_, Self>) -> Bound<'_, Self> {
                slf
            }

            /// Itself: the value is immutable.
            fn __deepcopy__<'py>(
                slf: Bound<'py, Self>,
                _memo: Bound<'py, PyAny>,
            ) -> Bound<'py, Self> {
                slf
            }
        }
    )*};
}

immutable_copies!(
    CellPy,
    SidePy,
    KindPy,
    PiecePy,
    MovePy,
    OutcomePy,
    SymmetryPy,
    crate::position::PositionPy,
);
