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
     Attributes (always present): `reason` (a name such as \"between-enemies\"), `move`\n\
     (the move's text, or None for an action that names no move), and `env` and `action`\n\
     (for `VecEnv.step`, the first game whose action was refused and that action; else\n\
     None)."
);
create_exception!(
    agon,
    ParseError,
    PyValueError,
    "A text that does not parse: a cell, move, position, rule set or game record.\n\n\
     Attributes (always present): `reason` (a name such as \"no-such-cell\"), `offset`\n\
     (the byte offset of the fault in `text`), `text` (the whole text), and `move_reason`\n\
     and `position_reason` (the reason of an illegal move or an invalid position in the\n\
     text, else None)."
);
create_exception!(
    agon,
    InvalidPositionError,
    PyValueError,
    "Pieces that do not form a position any game can reach.\n\n\
     Attribute (always present): `reason` (a name such as \"two-pieces-on-cell\")."
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
/// Every function below sets all the attributes of its class, so that each instance the
/// package raises carries them itself (and keeps them through a pickle).
fn with_attrs(py: Python<'_>, err: PyErr, attrs: &[(&str, Bound<'_, PyAny>)]) -> PyErr {
    let value = err.value(py);
    for (name, v) in attrs {
        let _ = value.setattr(*name, v);
    }
    err
}

/// Gives each exception class the defaults of its attributes, so that every instance has
/// them all (also one a caller makes by hand); the functions below set them on the
/// exceptions the package raises.
pub fn add_attribute_defaults(py: Python<'_>) -> PyResult<()> {
    let none = || py.None().into_bound(py);
    let illegal = py.get_type::<IllegalMoveError>();
    for (name, value) in [
        ("reason", obj(py, "")),
        ("move", none()),
        ("env", none()),
        ("action", none()),
    ] {
        illegal.setattr(name, value)?;
    }
    let parse = py.get_type::<ParseError>();
    for (name, value) in [
        ("reason", obj(py, "")),
        ("offset", obj(py, 0usize)),
        ("text", obj(py, "")),
        ("move_reason", none()),
        ("position_reason", none()),
    ] {
        parse.setattr(name, value)?;
    }
    py.get_type::<InvalidPositionError>()
        .setattr("reason", obj(py, ""))?;
    Ok(())
}

/// `IllegalMoveError` with every attribute set: `env` and `action` are `None` here, and
/// `VecEnv.step` sets them on the errors it raises.
fn illegal(py: Python<'_>, message: String, reason: &str, m: Option<&str>) -> PyErr {
    let none = || py.None().into_bound(py);
    let err = IllegalMoveError::new_err(message);
    with_attrs(
        py,
        err,
        &[
            ("reason", obj(py, reason)),
            ("move", m.map_or_else(none, |m| obj(py, m))),
            ("env", none()),
            ("action", none()),
        ],
    )
}

/// `IllegalMoveError` for `m` (given as text) and the core's reason.
pub fn illegal_move(py: Python<'_>, m: &str, e: ac::IllegalMove) -> PyErr {
    illegal(py, format!("illegal move {m}: {e}"), e.name(), Some(m))
}

/// `IllegalMoveError` with a reason of the bindings (an action that names no move).
pub fn illegal_action(py: Python<'_>, message: String, reason: &str) -> PyErr {
    illegal(py, message, reason, None)
}

/// The longest text quoted in full in an error message; the exception's `text` attribute
/// keeps the whole input.
const QUOTED_TEXT: usize = 80;

/// `text` as an error message quotes it: in full if short, else its start.
pub fn quoted(text: &str) -> String {
    if text.len() <= QUOTED_TEXT {
        return format!("{text:?}");
    }
    let mut end = QUOTED_TEXT;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    format!("{:?}... ({} bytes)", &text[..end], text.len())
}

/// `ParseError` for `text`, with the offset and the reason of the core's error.
pub fn parse_error(py: Python<'_>, what: &str, text: &str, e: ac::ParseError) -> PyErr {
    let err = ParseError::new_err(format!("invalid {what} {}: {e}", quoted(text)));
    let none = || py.None().into_bound(py);
    let (move_reason, position_reason) = match e.kind() {
        ac::ParseErrorKind::IllegalMove { reason, .. } => (obj(py, reason.name()), none()),
        ac::ParseErrorKind::InvalidPosition(p) => (none(), obj(py, p.name())),
        _ => (none(), none()),
    };
    with_attrs(
        py,
        err,
        &[
            ("reason", obj(py, e.kind().name())),
            ("offset", obj(py, e.offset())),
            ("text", obj(py, text)),
            ("move_reason", move_reason),
            ("position_reason", position_reason),
        ],
    )
}

/// `InvalidPositionError` with the core's reason.
pub fn invalid_position(py: Python<'_>, e: ac::PositionError) -> PyErr {
    let err = InvalidPositionError::new_err(format!("invalid position: {e}"));
    with_attrs(py, err, &[("reason", obj(py, e.name()))])
}
