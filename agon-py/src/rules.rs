//! `Rules`: the rule set of a game (RULES.md section 8), a value of agon-core's
//! `agon_core::Rules`, and the `rules=` argument that accepts it or its text.

use agon_core as ac;
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyDictMethods, PyString};

use crate::errors;
use crate::types::is_index;

/// A rule set: one value for each option of RULES.md section 8 (V1-V9).
///
/// `Rules()` is the standard rule set (R1-R12); `Rules("ludii")` or
/// `Rules("standard+capture=same-ring+limit=300")` parses the text form (a preset, then
/// `+option=value` for each option that differs from it); keywords override options:
/// `Rules("ludii", limit=None)`, `Rules.STANDARD.replace(between="trapped")`. The presets
/// are `Rules.STANDARD` and `Rules.LUDII`. `str()` gives the canonical text (the nearest
/// preset, then the options that differ from it, in `Rules.OPTIONS` order). Rules are
/// immutable, compare and hash by value, and pickle as their text. A bad text or value
/// raises `ParseError` (a `ValueError`) with the reason (`"unknown-preset"`,
/// `"unknown-rule-option"`, `"unknown-rule-value"`, `"duplicate-rule-option"`,
/// `"limit-out-of-range"`) and the byte offset of the fault.
#[pyclass(
    frozen,
    eq,
    hash,
    from_py_object,
    module = "agon._agon",
    name = "Rules"
)]
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct RulesPy(pub ac::Rules);

/// A rule set given as a `Rules` or its text.
#[derive(Clone, Copy)]
pub struct RulesArg(pub ac::Rules);

impl<'a, 'py> FromPyObject<'a, 'py> for RulesArg {
    type Error = PyErr;

    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<Self> {
        if let Ok(r) = obj.cast::<RulesPy>() {
            return Ok(RulesArg(r.get().0));
        }
        if let Ok(s) = obj.cast::<PyString>() {
            return parse_rules(obj.py(), &s.to_cow()?).map(RulesArg);
        }
        Err(PyTypeError::new_err(format!(
            "rules are a Rules or its text, not {}",
            obj.get_type().name()?
        )))
    }
}

/// The rules of an optional `rules=` argument.
pub fn rules_or(rules: Option<RulesArg>, default: ac::Rules) -> ac::Rules {
    rules.map_or(default, |r| r.0)
}

/// Parses the text form of a rule set, raising `ParseError`.
pub fn parse_rules(py: Python<'_>, text: &str) -> PyResult<ac::Rules> {
    ac::Rules::from_text(text).map_err(|e| errors::parse_error(py, "rules", text, e))
}

/// `ParseError` for a keyword value of option `option`: the value is the error's text.
fn bad_value(
    py: Python<'_>,
    option: &str,
    value: &str,
    offset: usize,
    kind: ac::ParseErrorKind,
) -> PyErr {
    let what = format!("value of the rule option {option}");
    errors::parse_error(py, &what, value, ac::ParseError::new(offset, kind))
}

/// A keyword value of an option: not given, `None` (for `limit`: no limit), or a value.
pub enum OptionArg<'py> {
    /// Not given: the option keeps its value.
    Unset,
    /// `None`.
    Null,
    /// Any other object, checked by `set_option`.
    Value(Bound<'py, PyAny>),
}

impl<'a, 'py> FromPyObject<'a, 'py> for OptionArg<'py> {
    type Error = PyErr;

    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<Self> {
        Ok(if obj.is_none() {
            OptionArg::Null
        } else {
            OptionArg::Value(obj.to_owned())
        })
    }
}

/// Sets one option of `rules` from a keyword value: a str naming the value (for `limit`
/// also `None` or an int). `None` leaves the other options unchanged.
fn set_option(
    py: Python<'_>,
    rules: ac::Rules,
    option: &'static str,
    value: &OptionArg<'_>,
) -> PyResult<ac::Rules> {
    let value = match value {
        OptionArg::Unset => return Ok(rules),
        OptionArg::Null if option == "limit" => return Ok(rules.without_limit()),
        OptionArg::Null => return Ok(rules),
        OptionArg::Value(v) => v,
    };
    if option == "limit" && is_index(&value.as_borrowed()) {
        let n = value.extract::<i64>().ok();
        return n
            .and_then(|n| u32::try_from(n).ok())
            .and_then(|n| rules.with_limit(n))
            .ok_or_else(|| {
                let shown = n.map_or_else(|| "beyond 64 bits".to_string(), |n| n.to_string());
                bad_value(py, option, &shown, 0, ac::ParseErrorKind::LimitOutOfRange)
            });
    }
    let Ok(text) = value.cast::<PyString>() else {
        let expected = if option == "limit" {
            "an int, None or a str"
        } else {
            "a str"
        };
        return Err(PyTypeError::new_err(format!(
            "the rule option {option} is {expected}, not {}",
            value.get_type().name()?
        )));
    };
    let text = text.to_cow()?;
    if let Some(at) = text.find('+') {
        // `+` would start another option in the text form.
        return Err(bad_value(
            py,
            option,
            &text,
            at,
            ac::ParseErrorKind::UnknownRuleValue,
        ));
    }
    // The core reads the value as the text form does: `standard+option=value`, of which
    // only the verdict on the value is kept.
    let probe = format!("standard+{option}={text}");
    let offset = probe.len() - text.len();
    match ac::Rules::from_text(&probe) {
        Ok(parsed) => Ok(copy_option(rules, parsed, option)),
        Err(e) => Err(bad_value(
            py,
            option,
            &text,
            e.offset().saturating_sub(offset),
            e.kind(),
        )),
    }
}

/// `rules` with option `option` taken from `from`.
fn copy_option(rules: ac::Rules, from: ac::Rules, option: &str) -> ac::Rules {
    match option {
        "capture" => rules.with_capture(from.capture()),
        "between" => rules.with_between(from.between()),
        "guard-return" => rules.with_guard_return(from.guard_return()),
        "queen-return" => rules.with_queen_return(from.queen_return()),
        "queen-placer" => rules.with_queen_placer(from.queen_placer()),
        "empty-throne-ring" => rules.with_empty_throne_ring(from.empty_throne_ring()),
        "stuck" => rules.with_stuck(from.stuck()),
        "repetition" => rules.with_repetition(from.repetition()),
        _ => match from.limit() {
            None => rules.without_limit(),
            Some(n) => rules.with_limit(n).unwrap_or(rules),
        },
    }
}

/// `rules` with the keyword overrides, given in `Rules.OPTIONS` order.
fn apply(
    py: Python<'_>,
    mut rules: ac::Rules,
    overrides: [&OptionArg<'_>; 9],
) -> PyResult<ac::Rules> {
    for (option, value) in ac::Rules::OPTIONS.into_iter().zip(overrides) {
        rules = set_option(py, rules, option, value)?;
    }
    Ok(rules)
}

#[pymethods]
impl RulesPy {
    /// The rules of `text` (a preset with options, or a `Rules`; the standard rules if
    /// omitted), with the options given as keywords replaced (see `replace`).
    #[new]
    #[pyo3(signature = (
        text = None, *, capture = OptionArg::Unset, between = OptionArg::Unset,
        guard_return = OptionArg::Unset, queen_return = OptionArg::Unset,
        queen_placer = OptionArg::Unset, empty_throne_ring = OptionArg::Unset,
        stuck = OptionArg::Unset, repetition = OptionArg::Unset, limit = OptionArg::Unset
    ))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        py: Python<'_>,
        text: Option<RulesArg>,
        capture: OptionArg<'_>,
        between: OptionArg<'_>,
        guard_return: OptionArg<'_>,
        queen_return: OptionArg<'_>,
        queen_placer: OptionArg<'_>,
        empty_throne_ring: OptionArg<'_>,
        stuck: OptionArg<'_>,
        repetition: OptionArg<'_>,
        limit: OptionArg<'_>,
    ) -> PyResult<RulesPy> {
        let base = rules_or(text, ac::Rules::STANDARD);
        let overrides = [
            &capture,
            &between,
            &guard_return,
            &queen_return,
            &queen_placer,
            &empty_throne_ring,
            &stuck,
            &repetition,
            &limit,
        ];
        apply(py, base, overrides).map(RulesPy)
    }

    /// The standard rules (R1-R12), as `Rules()` and `Rules.STANDARD`.
    #[staticmethod]
    fn standard() -> RulesPy {
        RulesPy(ac::Rules::STANDARD)
    }

    /// The rules of Ludii 1.3's Agon.lud, as `Rules("ludii")` and `Rules.LUDII`: a stuck
    /// side passes and two passes draw, no draw by repetition, a draw after 2500 plies.
    #[staticmethod]
    fn ludii() -> RulesPy {
        RulesPy(ac::Rules::LUDII)
    }

    /// The rule sets a study of the variants compares: the presets, then every
    /// single-option variant of the standard rules, in `Rules.OPTIONS` order, the move
    /// limit at `limit` plies (1 to `Rules.MAX_LIMIT`, else `ValueError`).
    #[staticmethod]
    #[pyo3(signature = (limit = 300))]
    fn presets_and_variants(limit: i64) -> PyResult<Vec<RulesPy>> {
        let max = ac::Rules::MAX_LIMIT;
        let limit = crate::limits::bounded("limit", limit, 1, max, Some("Rules.MAX_LIMIT"))?;
        Ok(ac::Rules::presets_and_variants(limit)
            .map(RulesPy)
            .collect())
    }

    /// Parses the text form (`"ludii"`, `"standard+capture=same-ring"`), raising
    /// `ParseError`.
    #[staticmethod]
    fn parse(py: Python<'_>, text: &str) -> PyResult<RulesPy> {
        parse_rules(py, text).map(RulesPy)
    }

    /// The standard rules (R1-R12).
    #[classattr]
    #[pyo3(name = "STANDARD")]
    fn standard_const() -> RulesPy {
        RulesPy(ac::Rules::STANDARD)
    }

    /// The rules of Ludii 1.3's Agon.lud.
    #[classattr]
    #[pyo3(name = "LUDII")]
    fn ludii_const() -> RulesPy {
        RulesPy(ac::Rules::LUDII)
    }

    /// The option names of the text form, in its order.
    #[classattr]
    #[pyo3(name = "OPTIONS")]
    fn options_const() -> Vec<&'static str> {
        ac::Rules::OPTIONS.to_vec()
    }

    /// The preset names of the text form.
    #[classattr]
    #[pyo3(name = "PRESET_NAMES")]
    fn preset_names() -> Vec<&'static str> {
        ac::Rules::PRESETS.iter().map(|(n, _)| *n).collect()
    }

    /// The largest move limit (V9): 100000 plies.
    #[classattr]
    #[pyo3(name = "MAX_LIMIT")]
    fn max_limit() -> u32 {
        ac::Rules::MAX_LIMIT
    }

    /// The values each option may take (the limit: `"none"` or a number of plies), by
    /// option name of the text form, the standard value first.
    #[staticmethod]
    fn values(py: Python<'_>) -> PyResult<Bound<'_, PyDict>> {
        fn names<T: Copy>(all: &[T], name: fn(T) -> &'static str) -> Vec<&'static str> {
            all.iter().map(|&v| name(v)).collect()
        }
        let d = PyDict::new(py);
        d.set_item("capture", names(ac::Capture::ALL, ac::Capture::name))?;
        d.set_item("between", names(ac::Between::ALL, ac::Between::name))?;
        d.set_item(
            "guard-return",
            names(ac::GuardReturn::ALL, ac::GuardReturn::name),
        )?;
        d.set_item(
            "queen-return",
            names(ac::QueenReturn::ALL, ac::QueenReturn::name),
        )?;
        d.set_item(
            "queen-placer",
            names(ac::QueenPlacer::ALL, ac::QueenPlacer::name),
        )?;
        d.set_item(
            "empty-throne-ring",
            names(ac::EmptyThroneRing::ALL, ac::EmptyThroneRing::name),
        )?;
        d.set_item("stuck", names(ac::Stuck::ALL, ac::Stuck::name))?;
        d.set_item(
            "repetition",
            names(ac::Repetition::ALL, ac::Repetition::name),
        )?;
        d.set_item("limit", vec!["none", "1-100000"])?;
        Ok(d)
    }

    /// The same rules with the options given as keywords replaced: a value's name as a str
    /// (`capture="same-ring"`), and for `limit` a number of plies (1 to `MAX_LIMIT`), or
    /// `None` for no limit. Raises `ParseError` for an unknown value or a limit out of
    /// range, `TypeError` for a value of the wrong type.
    #[pyo3(signature = (
        *, capture = OptionArg::Unset, between = OptionArg::Unset,
        guard_return = OptionArg::Unset, queen_return = OptionArg::Unset,
        queen_placer = OptionArg::Unset, empty_throne_ring = OptionArg::Unset,
        stuck = OptionArg::Unset, repetition = OptionArg::Unset, limit = OptionArg::Unset
    ))]
    #[allow(clippy::too_many_arguments)]
    fn replace(
        &self,
        py: Python<'_>,
        capture: OptionArg<'_>,
        between: OptionArg<'_>,
        guard_return: OptionArg<'_>,
        queen_return: OptionArg<'_>,
        queen_placer: OptionArg<'_>,
        empty_throne_ring: OptionArg<'_>,
        stuck: OptionArg<'_>,
        repetition: OptionArg<'_>,
        limit: OptionArg<'_>,
    ) -> PyResult<RulesPy> {
        let overrides = [
            &capture,
            &between,
            &guard_return,
            &queen_return,
            &queen_placer,
            &empty_throne_ring,
            &stuck,
            &repetition,
            &limit,
        ];
        apply(py, self.0, overrides).map(RulesPy)
    }

    /// V1, which lines capture: `"any"` (standard) or `"same-ring"`.
    #[getter]
    fn capture(&self) -> &'static str {
        self.0.capture().name()
    }

    /// V2, a step between two enemy pieces: `"forbidden"` (standard), `"allowed"` or
    /// `"trapped"`.
    #[getter]
    fn between(&self) -> &'static str {
        self.0.between().name()
    }

    /// V3, where a captured guard returns: `"outer"` (standard) or `"next-ring"`.
    #[getter]
    fn guard_return(&self) -> &'static str {
        self.0.guard_return().name()
    }

    /// V4, where a captured queen returns: `"any"` (standard) or `"not-throne"`.
    #[getter]
    fn queen_return(&self) -> &'static str {
        self.0.queen_return().name()
    }

    /// V5, who places a returning queen: `"owner"` (standard) or `"captor"`.
    #[getter]
    fn queen_placer(&self) -> &'static str {
        self.0.queen_placer().name()
    }

    /// V6, guards on the throne ring without their queen on the throne: `"loses"`
    /// (standard) or `"draw"`.
    #[getter]
    fn empty_throne_ring(&self) -> &'static str {
        self.0.empty_throne_ring().name()
    }

    /// V7, a side with no legal action: `"loses"` (standard) or `"pass"`.
    #[getter]
    fn stuck(&self) -> &'static str {
        self.0.stuck().name()
    }

    /// V8, the draw by repetition: `"third"` (standard) or `"off"`.
    #[getter]
    fn repetition(&self) -> &'static str {
        self.0.repetition().name()
    }

    /// V9, the move limit in plies (a draw after that many actions), or `None`.
    #[getter]
    fn limit(&self) -> Option<u32> {
        self.0.limit()
    }

    /// The name of the preset these rules are (`"standard"`, `"ludii"`), or `None`.
    #[getter]
    fn preset(&self) -> Option<&'static str> {
        self.0.preset()
    }

    /// Whether these are the standard rules.
    #[getter]
    fn is_standard(&self) -> bool {
        self.0.is_standard()
    }

    /// The canonical text form.
    #[pyo3(name = "to_text")]
    fn text(&self) -> String {
        self.0.to_string()
    }

    /// Every option's value by its name in the text form (`"guard-return"`...), in
    /// `OPTIONS` order; the limit as an int or `None`.
    #[pyo3(name = "to_dict")]
    fn dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let r = self.0;
        let d = PyDict::new(py);
        d.set_item("capture", r.capture().name())?;
        d.set_item("between", r.between().name())?;
        d.set_item("guard-return", r.guard_return().name())?;
        d.set_item("queen-return", r.queen_return().name())?;
        d.set_item("queen-placer", r.queen_placer().name())?;
        d.set_item("empty-throne-ring", r.empty_throne_ring().name())?;
        d.set_item("stuck", r.stuck().name())?;
        d.set_item("repetition", r.repetition().name())?;
        d.set_item("limit", r.limit())?;
        Ok(d)
    }

    fn __str__(&self) -> String {
        self.0.to_string()
    }

    fn __repr__(&self) -> String {
        format!("Rules('{}')", self.0)
    }

    /// Pickles as the canonical text.
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<(Bound<'py, PyAny>, (String,))> {
        Ok((slf.get_type().into_any(), (slf.get().0.to_string(),)))
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
