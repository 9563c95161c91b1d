//! The exceptions of the package and the conversion of the core's errors into them.
//!
//! Every error the core reports reaches Python as one of three exceptions, all subclasses
//! of `ValueError`, each carrying the core's reason as a short lowercase name in `.reason`
//! (the same names the rules and the core use, like `"between-enemies"`), so that callers
//! can branch on it without parsing messages.

use agon_core as ac;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::{create_exception, BoundObject, PyErr};

create_exception!(
    agon,
    IllegalMoveError,
    PyValueError,
    "A move that the rules forbid in the position (or after the end of the game).\n\n\
     Attributes: `reason` (a name such as \"between-enemies\"), `move` (the move's text)."
);
create_exception!(
    agon,
    ParseError,
    PyValueError,
    "A text that does not parse: a cell, move, position or game record.\n\n\
     Attributes: `reason` (a name such as \"no-such-cell\"), `offset` (the byte offset of \
     the fault in `text`), `text`."
);
create_exception!(
    agon,
    InvalidPositionError,
    PyValueError,
    "Pieces that do not form a position any game can reach.\n\n\
     Attribute: `reason` (a name such as \"two-pieces-on-cell\")."
);

/// A Python object from a value whose conversion cannot fail.
fn obj<'py, T>(py: Python<'py>, value: T) -> Bound<'py, PyAny>
where
    T: IntoPyObject<'py, Error = std::convert::Infallible>,
{
    match value.into_pyobject(py) {
        Ok(o) => o.into_bound().into_any(),
        Err(never) => match never {},
    }
}

/// Sets attributes on a freshly made exception; setting attributes on an exception
/// instance cannot fail in practice, and an error here must not hide the original one.
fn with_attrs(py: Python<'_>, err: PyErr, attrs: &[(&str, Bound<'_, PyAny>)]) -> PyErr {
    let value = err.value(py);
    for (name, v) in attrs {
        let _ = value.setattr(*name, v);
    }
    err
}

/// `IllegalMoveError` for `m` (given as text) and the core's reason.
pub fn illegal_move(py: Python<'_>, m: &str, e: ac::IllegalMove) -> PyErr {
    let err = IllegalMoveError::new_err(format!("illegal move {m}: {e}"));
    with_attrs(
        py,
        err,
        &[("reason", obj(py, e.name())), ("move", obj(py, m))],
    )
}

/// `IllegalMoveError` with a reason of the bindings (an action that names no move).
pub fn illegal_action(py: Python<'_>, message: String, reason: &str) -> PyErr {
    let err = IllegalMoveError::new_err(message);
    with_attrs(
        py,
        err,
        &[
            ("reason", obj(py, reason)),
            ("move", py.None().into_bound(py)),
        ],
    )
}

/// `ParseError` for `text`, with the offset and the reason of the core's error.
pub fn parse_error(py: Python<'_>, what: &str, text: &str, e: ac::ParseError) -> PyErr {
    let err = ParseError::new_err(format!("invalid {what} {text:?}: {e}"));
    let mut attrs = vec![
        ("reason", obj(py, e.kind().name())),
        ("offset", obj(py, e.offset())),
        ("text", obj(py, text)),
    ];
    match e.kind() {
        ac::ParseErrorKind::IllegalMove { reason, .. } => {
            attrs.push(("move_reason", obj(py, reason.name())))
        }
        ac::ParseErrorKind::InvalidPosition(p) => {
            attrs.push(("position_reason", obj(py, p.name())))
        }
        _ => {}
    }
    with_attrs(py, err, &attrs)
}

/// `InvalidPositionError` with the core's reason.
pub fn invalid_position(py: Python<'_>, e: ac::PositionError) -> PyErr {
    let err = InvalidPositionError::new_err(format!("invalid position: {e}"));
    with_attrs(py, err, &[("reason", obj(py, e.name()))])
}
