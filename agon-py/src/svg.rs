//! `svg(...)`: pictures of positions, drawn by agon-svg (the drawing the web game uses).
//! This module only reads and checks the Python arguments.

use agon_core as ac;
use agon_svg::Svg;
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyList, PyString, PyTuple};

use crate::errors;
use crate::game::GamePy;
use crate::limits::{MAX_ARROWS, MAX_SVG_SIZE as MAX_SIZE};
use crate::position::PositionPy;
use crate::types::{is_index, CellArg, MoveArg, MovePy};

/// The width of pictures unless given, in pixels.
pub const DEFAULT_SIZE: u32 = 400;

/// The picture of `position` with the default options and the highlighted `last_move`
/// (what `_repr_svg_` shows).
pub fn draw(position: &ac::Position, last_move: Option<ac::Move>) -> String {
    Svg::new(position)
        .size(Some(DEFAULT_SIZE))
        .last_move(last_move)
        .to_string()
}

/// A move given as a `Move` or its text, read in `position`: raises `ParseError` for a text
/// that does not parse and `IllegalMoveError` (reason `"not-adjacent"`) for a step between
/// cells that are not adjacent, which no position allows. Legality in `position` is not
/// checked: a last move is not legal in the position after it, and arrows may show any
/// move.
fn drawable_move(py: Python<'_>, m: &MoveArg, position: &ac::Position) -> PyResult<ac::Move> {
    let m = m.resolve(py, position)?;
    let adjacent = m.cells().is_none_or(|(from, to)| from.is_adjacent(to));
    if !m.is_return() && !adjacent {
        return Err(errors::illegal_move(
            py,
            &m.to_string(),
            ac::IllegalMove::NotAdjacent,
        ));
    }
    Ok(m)
}

/// The position to draw and, for a game, its last move.
pub struct Drawable {
    position: ac::Position,
    last_move: Option<ac::Move>,
}

impl<'a, 'py> FromPyObject<'a, 'py> for Drawable {
    type Error = PyErr;

    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<Self> {
        if let Ok(p) = obj.cast::<PositionPy>() {
            return Ok(Drawable {
                position: p.get().0,
                last_move: None,
            });
        }
        if let Ok(g) = obj.cast::<GamePy>() {
            let g = g.get().lock(obj.py())?;
            return Ok(Drawable {
                position: *g.game.position(),
                last_move: g.game.moves().last().copied(),
            });
        }
        Err(PyTypeError::new_err(format!(
            "expected a Position or a Game, not {}",
            obj.get_type().name()?
        )))
    }
}

/// A width: `None`, or an int from 1 to `MAX_SIZE`.
pub struct SizeArg(Option<u32>);

impl<'a, 'py> FromPyObject<'a, 'py> for SizeArg {
    type Error = PyErr;

    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<Self> {
        if obj.is_none() {
            return Ok(SizeArg(None));
        }
        if !is_index(&obj) {
            return Err(PyTypeError::new_err(format!(
                "size is an int (pixels) or None, not {}",
                obj.get_type().name()?
            )));
        }
        let size = obj.extract::<i64>().ok();
        size.and_then(|s| u32::try_from(s).ok())
            .filter(|s| (1..=MAX_SIZE).contains(s))
            .map(|s| SizeArg(Some(s)))
            .ok_or_else(|| {
                let shown = size.map_or_else(|| "beyond 64 bits".to_string(), |s| s.to_string());
                PyValueError::new_err(format!(
                    "size is a width in pixels from 1 to {MAX_SIZE}, not {shown}"
                ))
            })
    }
}

/// One arrow as given: a move, a move's text (read in the position), or two cells.
enum ArrowArg {
    Move(MoveArg),
    Cells(ac::Cell, ac::Cell),
}

/// The arrows: an iterable (not a str) of at most `MAX_ARROWS` moves, move texts and
/// `(from, to)` pairs of cells (`Cell`s, names or indices), read lazily so that an
/// endless iterable fails at the first arrow too many.
pub struct ArrowsArg(Vec<ArrowArg>);

impl<'a, 'py> FromPyObject<'a, 'py> for ArrowsArg {
    type Error = PyErr;

    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<Self> {
        if obj.is_instance_of::<PyString>() {
            return Err(PyTypeError::new_err(
                "arrows is an iterable of moves, move texts or (from, to) pairs, not one str",
            ));
        }
        let items = obj.try_iter().map_err(|_| {
            PyTypeError::new_err(format!(
                "arrows is an iterable of moves, move texts or (from, to) pairs, not {}",
                obj.get_type()
                    .name()
                    .map(|n| n.to_string())
                    .unwrap_or_default()
            ))
        })?;
        let mut arrows = Vec::new();
        for item in items {
            if arrows.len() == MAX_ARROWS {
                return Err(PyValueError::new_err(format!(
                    "arrows holds at most MAX_ARROWS ({MAX_ARROWS}) arrows"
                )));
            }
            let item = item?;
            if item.is_instance_of::<MovePy>() || item.is_instance_of::<PyString>() {
                arrows.push(ArrowArg::Move(item.extract()?));
                continue;
            }
            let pair_len = if let Ok(t) = item.cast::<PyTuple>() {
                Some(t.len())
            } else if let Ok(l) = item.cast::<PyList>() {
                Some(l.len())
            } else {
                None
            };
            if pair_len != Some(2) {
                return Err(PyTypeError::new_err(format!(
                    "an arrow is a Move, a move's text or a (from, to) pair of cells, not {}",
                    match pair_len {
                        Some(len) => format!("a sequence of {len}"),
                        None => item.get_type().name()?.to_string(),
                    }
                )));
            }
            let from: CellArg = item.get_item(0)?.extract()?;
            let to: CellArg = item.get_item(1)?.extract()?;
            arrows.push(ArrowArg::Cells(from.0, to.0));
        }
        Ok(ArrowsArg(arrows))
    }
}

/// Draws a position (or a game's current position) as SVG text.
///
/// - ``size``: the width in pixels (the height follows the board's shape); ``None``
///   leaves the size to the container.
/// - ``last_move``: a move (``Move`` or text) whose two cells are highlighted; for a
///   ``Game`` it defaults to the game's last move.
/// - ``arrows``: moves, texts or ``(from, to)`` pairs of cells to draw as arrows.
/// - ``flipped``: turn the board half round (Black at the bottom).
/// - ``coordinates``: write each empty cell's name in it.
///
/// Raises ``TypeError`` for an argument of the wrong type, ``ValueError`` for a size that
/// is not 1 to 100000 (``agon.MAX_SVG_SIZE``) or more than ``agon.MAX_ARROWS`` arrows,
/// ``ParseError`` for a move or cell text that does not parse, and
/// ``IllegalMoveError`` for a step between cells that are not adjacent. Moves are not
/// otherwise checked against the position. The drawing is the Rust crate agon-svg's, the
/// same as the web game's.
#[pyfunction]
#[pyo3(
    signature = (
        position,
        *,
        size = SizeArg(Some(DEFAULT_SIZE)),
        last_move = None,
        arrows = ArrowsArg(Vec::new()),
        flipped = false,
        coordinates = true,
    ),
    text_signature = "(position, *, size=400, last_move=None, arrows=(), flipped=False, coordinates=True)"
)]
pub fn svg(
    py: Python<'_>,
    position: Drawable,
    size: SizeArg,
    last_move: Option<MoveArg>,
    arrows: ArrowsArg,
    flipped: bool,
    coordinates: bool,
) -> PyResult<String> {
    let pos = position.position;
    let last_move = match last_move {
        Some(m) => Some(drawable_move(py, &m, &pos)?),
        None => position.last_move,
    };
    let mut picture = Svg::new(&pos)
        .size(size.0)
        .last_move(last_move)
        .flipped(flipped)
        .coordinates(coordinates);
    for arrow in arrows.0 {
        let (from, to) = match arrow {
            ArrowArg::Move(m) => {
                let m = drawable_move(py, &m, &pos)?;
                match m.cells() {
                    Some(cells) => cells,
                    None => continue, // a pass has no arrow
                }
            }
            ArrowArg::Cells(from, to) => (from, to),
        };
        picture = picture.arrow(from, to);
    }
    Ok(picture.to_string())
}
