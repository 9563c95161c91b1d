//! `VecEnv`, a batch of games stepped by action numbers with numpy arrays in and out,
//! without the GIL.

use agon_core as ac;
use numpy::{
    Element, PyArray1, PyArrayDescr, PyArrayDescrMethods, PyArrayDyn, PyArrayMethods,
    PyReadwriteArrayDyn, PyUntypedArray, PyUntypedArrayMethods,
};
use pyo3::exceptions::{PyIndexError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyString, PyTuple, PyType};

use crate::actions;
use crate::errors;
use crate::game::GamePy;
use crate::limits::{self, MAX_ENVS};
use crate::lock::{Lock, LockGuard};
use crate::position::{PositionArg, PositionPy};
use crate::types::Int;

/// A batch of `n` games for reinforcement learning, stepped by action numbers on every
/// core.
///
/// `VecEnv(n, seed=0, axial=False, start=None, *, threads=None, obs_dtype=None,
/// packed_masks=False, rules=None)`: `n` is 1 to `agon.MAX_ENVS`; the games are played
/// under `rules` (a `Rules` or its text; by default those of a `Position` start, else the
/// standard rules). `step(actions)` plays one action in every game and returns
/// `(observations, rewards, terminations, masks)`:
///
/// - `observations`: float32 `(n, 11, 91)`, or `(n, 11, 11, 11)` with `axial=True`: each
///   game's next position from the view of its player to act (`Position.observation`;
///   `player_to_act(i)`, the chooser: the side to move but for a queen placed by her
///   captor under `queen-placer=captor`); uint8
///   with `obs_dtype=numpy.uint8` (the same 0s and 1s in a quarter of the memory);
/// - `rewards`: float32 `(n,)`: +1 if the action won the game for the player that chose
///   it, -1 if it lost it (a ring of guards without the queen on the throne), 0 otherwise
///   (draws included);
/// - `terminations`: bool `(n,)`: whether the action ended the game;
/// - `masks`: the legal actions of the next position: bool `(n, action_count)` (the
///   rules' `agon.action_count(rules)`: `ACTION_COUNT` under the standard rules); or with
///   `packed_masks=True`, uint8 `(n, packed_mask_bytes)` (`PACKED_MASK_BYTES` but under
///   `guard-return=next-ring`), bit-packed as `numpy.packbits` packs them (action `a` is
///   bit `7 - a % 8` of byte `a // 8`, the padding bits are 0 but for the pass), which
///   `agon.unpack_masks(masks, rules)`, that is
///   `numpy.unpackbits(masks, axis=-1, count=action_count).view(bool)`, unpacks.
///
/// `actions` is a 1-dimensional array of shape `(n,)` of any numpy integer dtype (any
/// width and sign, either byte order), or a sequence of `n` Python ints. Anything else is
/// refused before any game changes: `TypeError` for a dtype that is not an integer (bool,
/// float, complex, str, object, datetime and timedelta included) and for masked arrays
/// (their mask would be ignored), `ValueError` for a wrong shape, and `IllegalMoveError`
/// (with `env` and `action` of the first game refused, and the reason `"illegal-action"`,
/// or `"no-such-action"` for a number that names no move) when an action is not legal in
/// its game.
///
/// A game that ends is started again at once (from `start`): its observation and mask
/// are those of the new game. Pass `out=(observations, rewards, terminations, masks)`,
/// writeable C-contiguous numpy arrays of exactly those shapes and dtypes that share no
/// memory, to have them filled in place instead of allocated; they are all checked before
/// anything is written or any game changes.
///
/// The work runs without the GIL, on `threads` threads (the calling one included). The
/// results do not depend on their number: game `i` draws its random actions from its own
/// generator, seeded from `seed` and `i`. Threads that share a `VecEnv` take turns (a call
/// waits for the one running). For the draw by repetition a game keeps its moves and a
/// table of its positions' fingerprints (11 to 22 bytes a ply, about a tenth of what a
/// `Game` holds: see agon-rl's `vecenv` module), and it ends exactly when a `Game` would.
#[pyclass(frozen, module = "agon._agon", name = "VecEnv")]
pub struct VecEnvPy {
    n: usize,
    axial: bool,
    /// Observations as uint8 rather than float32.
    obs_u8: bool,
    /// Masks bit-packed rather than one bool per action.
    packed: bool,
    /// The rule set of the games (that of the start position).
    rules: ac::Rules,
    threads: usize,
    /// What calls change, locked by one call at a time. No Python object is made and no
    /// Python code runs while it is locked.
    state: Lock<State>,
}

/// The batch itself: `agon_rl::VecEnv`, which holds the games and the step loop; this
/// class only checks and converts the Python arguments.
struct State {
    env: agon_rl::VecEnv,
    /// The actions of a step as int64 (kept to reuse its memory).
    actions: Vec<i64>,
}

type StepArrays<'py> = (
    Bound<'py, PyAny>,
    Bound<'py, PyAny>,
    Bound<'py, PyAny>,
    Bound<'py, PyAny>,
);

/// The class `numpy.ma.MaskedArray`, looked up once.
fn masked_array_type(py: Python<'_>) -> PyResult<&Bound<'_, PyType>> {
    static MASKED: PyOnceLock<Py<PyType>> = PyOnceLock::new();
    MASKED.import(py, "numpy.ma", "MaskedArray")
}

/// Whether `array` is a masked array (a subclass of ndarray whose mask we would ignore).
fn is_masked(array: &Bound<'_, PyUntypedArray>) -> PyResult<bool> {
    if array.is_exact_instance_of::<PyUntypedArray>() {
        return Ok(false);
    }
    array.is_instance(masked_array_type(array.py())?)
}

/// A shape as Python writes it: `(2,)`, `(2, 11, 91)`.
fn shape_str(shape: &[usize]) -> String {
    match shape {
        [one] => format!("({one},)"),
        _ => format!(
            "({})",
            shape
                .iter()
                .map(|d| d.to_string())
                .collect::<Vec<_>>()
                .join(", ")
        ),
    }
}

/// What an argument that should be an array is, for error messages.
fn describe(obj: &Bound<'_, PyAny>) -> PyResult<String> {
    Ok(match obj.cast::<PyUntypedArray>() {
        Ok(a) => format!(
            "an array of dtype {} and shape {}",
            a.dtype(),
            shape_str(a.shape())
        ),
        Err(_) => obj.get_type().name()?.to_string(),
    })
}

/// A new array of `shape` for results, by `numpy.empty` (so that a failed allocation is a
/// `MemoryError`); every element is written before it is returned.
fn new_array<'py, T: Element>(py: Python<'py>, shape: &[usize]) -> PyResult<Bound<'py, PyAny>> {
    static EMPTY: PyOnceLock<Py<PyAny>> = PyOnceLock::new();
    let empty = EMPTY.get_or_try_init(py, || {
        py.import("numpy")?.getattr("empty").map(Bound::unbind)
    })?;
    empty
        .bind(py)
        .call1((PyTuple::new(py, shape)?, T::get_dtype(py)))
}

/// An output array, checked and borrowed for writing; nothing is written yet.
struct Output<'py, T: Element> {
    array: Bound<'py, PyArrayDyn<T>>,
    rw: PyReadwriteArrayDyn<'py, T>,
}

impl<'py, T: Element> Output<'py, T> {
    /// The caller's `out` array if given (checked: a numpy array, not masked, of element
    /// `T`, exactly `shape`, C-contiguous and writeable), else a new one.
    fn new(
        py: Python<'py>,
        given: Option<&Bound<'py, PyAny>>,
        shape: &[usize],
        name: &str,
    ) -> PyResult<Self> {
        let dtype = || T::get_dtype(py).to_string();
        let array = match given {
            Some(obj) => {
                let typed = obj.cast::<PyArrayDyn<T>>().map_err(|_| {
                    PyTypeError::new_err(format!(
                        "out {name}: expected a numpy array of dtype {} (native byte order), \
                         not {}",
                        dtype(),
                        describe(obj).unwrap_or_default()
                    ))
                })?;
                if is_masked(typed.as_untyped())? {
                    return Err(PyTypeError::new_err(format!(
                        "out {name}: a masked array is not accepted"
                    )));
                }
                typed.clone()
            }
            None => new_array::<T>(py, shape)?.cast_into::<PyArrayDyn<T>>()?,
        };
        if array.shape() != shape || !array.is_c_contiguous() {
            return Err(PyValueError::new_err(format!(
                "out {name}: expected a C-contiguous array of shape {}, got {}shape {}",
                shape_str(shape),
                if array.is_c_contiguous() {
                    ""
                } else {
                    "a non-contiguous array of "
                },
                shape_str(array.shape())
            )));
        }
        let rw = array
            .try_readwrite()
            .map_err(|e| PyValueError::new_err(format!("out {name}: {e}")))?;
        Ok(Output { array, rw })
    }

    /// The bytes the array covers.
    fn span(&self) -> (usize, usize) {
        let start = self.array.data() as usize;
        (start, start + self.array.len() * std::mem::size_of::<T>())
    }

    /// The elements, to be written.
    fn slice(&mut self) -> PyResult<&mut [T]> {
        self.rw
            .as_slice_mut()
            .map_err(|e| PyValueError::new_err(e.to_string()))
    }
}

/// The observations of a call: float32 or uint8.
enum ObsOut<'py> {
    F32(Output<'py, f32>),
    U8(Output<'py, u8>),
}

impl<'py> ObsOut<'py> {
    fn new(
        py: Python<'py>,
        given: Option<&Bound<'py, PyAny>>,
        shape: &[usize],
        u8: bool,
    ) -> PyResult<Self> {
        Ok(if u8 {
            ObsOut::U8(Output::new(py, given, shape, "observations")?)
        } else {
            ObsOut::F32(Output::new(py, given, shape, "observations")?)
        })
    }

    fn span(&self) -> (usize, usize) {
        match self {
            ObsOut::F32(o) => o.span(),
            ObsOut::U8(o) => o.span(),
        }
    }

    fn buffer(&mut self) -> PyResult<agon_rl::Observations<'_>> {
        Ok(match self {
            ObsOut::F32(o) => agon_rl::Observations::F32(o.slice()?),
            ObsOut::U8(o) => agon_rl::Observations::U8(o.slice()?),
        })
    }

    fn into_any(self) -> Bound<'py, PyAny> {
        match self {
            ObsOut::F32(o) => o.array.into_any(),
            ObsOut::U8(o) => o.array.into_any(),
        }
    }
}

/// The masks of a call: one bool per action, or bit-packed.
enum MaskOut<'py> {
    Bool(Output<'py, bool>),
    Packed(Output<'py, u8>),
}

impl<'py> MaskOut<'py> {
    fn new(
        py: Python<'py>,
        given: Option<&Bound<'py, PyAny>>,
        n: usize,
        packed: bool,
        rules: ac::Rules,
    ) -> PyResult<Self> {
        Ok(if packed {
            let len = actions::packed_mask_len(rules);
            MaskOut::Packed(Output::new(py, given, &[n, len], "masks")?)
        } else {
            let width = actions::action_count(rules);
            MaskOut::Bool(Output::new(py, given, &[n, width], "masks")?)
        })
    }

    fn span(&self) -> (usize, usize) {
        match self {
            MaskOut::Bool(m) => m.span(),
            MaskOut::Packed(m) => m.span(),
        }
    }

    fn buffer(&mut self) -> PyResult<agon_rl::Masks<'_>> {
        Ok(match self {
            MaskOut::Bool(m) => agon_rl::Masks::Bool(m.slice()?),
            MaskOut::Packed(m) => agon_rl::Masks::Packed(m.slice()?),
        })
    }

    fn into_any(self) -> Bound<'py, PyAny> {
        match self {
            MaskOut::Bool(m) => m.array.into_any(),
            MaskOut::Packed(m) => m.array.into_any(),
        }
    }
}

/// Refuses output arrays that share memory with each other or with the actions read in
/// place (numpy's own borrow check sees views of one base array; this sees any overlap of
/// the bytes).
fn disjoint(spans: &[(usize, usize)]) -> PyResult<()> {
    for (i, a) in spans.iter().enumerate() {
        for b in &spans[i + 1..] {
            if a.0 < b.1 && b.0 < a.1 {
                return Err(PyValueError::new_err(
                    "out: the arrays must not share memory",
                ));
            }
        }
    }
    Ok(())
}

/// The `out` tuple as `len` optional arrays.
fn unpack_out<'py>(
    out: Option<&Bound<'py, PyTuple>>,
    len: usize,
) -> PyResult<Vec<Option<Bound<'py, PyAny>>>> {
    match out {
        None => Ok(vec![None; len]),
        Some(t) if t.len() == len => Ok(t.iter().map(Some).collect()),
        Some(t) => Err(PyValueError::new_err(format!(
            "out must be a tuple of {len} arrays, not of {}",
            t.len()
        ))),
    }
}

/// The actions of a step, checked for type and shape.
enum ActionBatch<'py> {
    /// An int64 array, read in place (what `random_actions` returns).
    Int64(numpy::PyReadonlyArray1<'py, i64>),
    /// Another integer dtype, converted exactly.
    Wide(Vec<i128>),
}

impl ActionBatch<'_> {
    /// The bytes an int64 array read in place covers (a converted one is a copy).
    fn span(&self) -> Option<(usize, usize)> {
        let ActionBatch::Int64(a) = self else {
            return None;
        };
        let view = a.as_array();
        let first = view.as_ptr() as usize;
        let size = std::mem::size_of::<i64>();
        let last = match view.len() {
            0 => first,
            len => {
                (first as isize + (len as isize - 1) * view.strides()[0] * size as isize) as usize
            }
        };
        Some((first.min(last), first.max(last) + size))
    }

    /// Each action, exactly.
    fn for_each_until<E>(&self, mut f: impl FnMut(usize, i128) -> Result<(), E>) -> Result<(), E> {
        match self {
            ActionBatch::Int64(a) => a
                .as_array()
                .iter()
                .enumerate()
                .try_for_each(|(i, &x)| f(i, i128::from(x))),
            ActionBatch::Wide(v) => v.iter().enumerate().try_for_each(|(i, &x)| f(i, x)),
        }
    }
}

/// Reads `actions`: an array of an integer dtype and shape `(n,)`, or what `numpy.asarray`
/// makes one of (a list of ints). Nothing is coerced: see `VecEnv`.
fn read_actions<'py>(actions: &Bound<'py, PyAny>, n: usize) -> PyResult<ActionBatch<'py>> {
    let py = actions.py();
    let array: Bound<'py, PyUntypedArray> = match actions.cast::<PyUntypedArray>() {
        Ok(a) => a.clone(),
        Err(_) => {
            static ASARRAY: PyOnceLock<Py<PyAny>> = PyOnceLock::new();
            let asarray = ASARRAY.get_or_try_init(py, || {
                py.import("numpy")?.getattr("asarray").map(Bound::unbind)
            })?;
            asarray
                .bind(py)
                .call1((actions,))?
                .cast_into::<PyUntypedArray>()
                .map_err(|_| {
                    PyTypeError::new_err(format!(
                        "actions: expected an integer array, not {}",
                        describe(actions).unwrap_or_default()
                    ))
                })?
        }
    };
    if is_masked(&array)? {
        return Err(PyTypeError::new_err(
            "actions: a masked array is not accepted (its mask would be ignored); pass a \
             plain integer array",
        ));
    }
    let dtype = array.dtype();
    let kind = dtype.kind();
    // The dtype first (a str is one, not a shape problem), but an empty array is only too
    // short (`numpy.asarray([])` is float64).
    if kind != b'i' && kind != b'u' && !array.is_empty() {
        return Err(PyTypeError::new_err(format!(
            "actions: expected an array of integers, not of dtype {dtype}"
        )));
    }
    if array.ndim() != 1 || array.len() != n {
        return Err(PyValueError::new_err(format!(
            "actions: expected shape ({n},), got {}",
            shape_str(array.shape())
        )));
    }
    let borrow = |e: numpy::BorrowError| PyValueError::new_err(format!("actions: {e}"));
    if let Ok(a) = array.cast::<PyArray1<i64>>() {
        return Ok(ActionBatch::Int64(a.try_readonly().map_err(borrow)?));
    }
    macro_rules! wide {
        ($($t:ty),*) => {
            $(
                if let Ok(a) = array.cast::<PyArray1<$t>>() {
                    let a = a.try_readonly().map_err(borrow)?;
                    let wide = a.as_array().iter().map(|&x| i128::from(x)).collect();
                    return Ok(ActionBatch::Wide(wide));
                }
            )*
        };
    }
    wide!(i8, i16, i32, u8, u16, u32, u64);
    // Only a byte order other than the machine's is left: convert it, exactly.
    let native = array
        .call_method1("astype", (dtype.call_method1("newbyteorder", ("=",))?,))?
        .cast_into::<PyUntypedArray>()?;
    if native.dtype().is_native_byteorder() == Some(false) {
        return Err(PyTypeError::new_err(format!(
            "actions: unsupported dtype {dtype}"
        )));
    }
    read_actions(native.as_any(), n)
}

/// An action that was refused: the first game whose action is not legal.
struct Refused {
    env: usize,
    action: i128,
    position: ac::Position,
    /// The move the action names in that game, if it names one.
    names: Option<ac::Move>,
}

impl Refused {
    fn error(self, py: Python<'_>) -> PyErr {
        let (message, reason) = match self.names {
            Some(m) => (
                format!(
                    "action {} ({m}) is not legal in game {} (position {})",
                    self.action,
                    self.env,
                    self.position.to_text()
                ),
                "illegal-action",
            ),
            None => (
                format!(
                    "action {} in game {} names no move (actions are 0 to {}, and a step must \
                     stay on the board)",
                    self.action,
                    self.env,
                    actions::action_count(self.position.rules()) - 1
                ),
                "no-such-action",
            ),
        };
        let err = errors::illegal_action(py, message, reason);
        let value = err.value(py);
        let _ = value.setattr("env", self.env);
        let _ = value.setattr("action", self.action);
        if let Some(m) = self.names {
            let _ = value.setattr("move", m.to_string());
        }
        err
    }
}

impl VecEnvPy {
    fn obs_shape(&self) -> Vec<usize> {
        if self.axial {
            vec![
                self.n,
                actions::CHANNEL_COUNT,
                actions::AXIAL_SIDE,
                actions::AXIAL_SIDE,
            ]
        } else {
            vec![self.n, actions::CHANNEL_COUNT, actions::FLAT]
        }
    }

    /// The state, once no other call holds it (see `Lock::lock`).
    fn lock(&self, py: Python<'_>) -> PyResult<LockGuard<'_, State>> {
        self.state.lock(py)
    }

    /// The index of game `i`, or `IndexError`.
    fn index(&self, i: Int<i64>) -> PyResult<usize> {
        usize::try_from(i.0)
            .ok()
            .filter(|&i| i < self.n)
            .ok_or_else(|| {
                PyIndexError::new_err(format!(
                    "no game {}: the games are numbered 0 to {}",
                    i.0,
                    self.n - 1
                ))
            })
    }

    /// The observation and mask outputs of `reset` and `observe`, checked.
    fn observation_outputs<'py>(
        &self,
        py: Python<'py>,
        out: Option<&Bound<'py, PyTuple>>,
    ) -> PyResult<(ObsOut<'py>, MaskOut<'py>)> {
        let given = unpack_out(out, 2)?;
        let obs = ObsOut::new(py, given[0].as_ref(), &self.obs_shape(), self.obs_u8)?;
        let masks = MaskOut::new(py, given[1].as_ref(), self.n, self.packed, self.rules)?;
        disjoint(&[obs.span(), masks.span()])?;
        Ok((obs, masks))
    }

    /// Reads the actions as int64 for the batch; an action out of that range names no
    /// move, and is refused as such.
    fn int64_actions(state: &mut State, actions: &ActionBatch<'_>) -> Result<(), Refused> {
        let State { env, actions: out } = state;
        out.clear();
        actions.for_each_until(|i, a| match i64::try_from(a) {
            Ok(a) => {
                out.push(a);
                Ok(())
            }
            Err(_) => Err(Refused {
                env: i,
                action: a,
                position: *env.position(i),
                names: None,
            }),
        })
    }

    /// The refusal of the batch's first illegal action, with what it names.
    fn refused(env: &agon_rl::VecEnv, error: agon_rl::VecEnvError) -> PyResult<Refused> {
        match error {
            agon_rl::VecEnvError::IllegalAction { env: i, action } => {
                let position = *env.position(i);
                let names = usize::try_from(action)
                    .ok()
                    .and_then(|a| actions::action_to_move(&position, a));
                Ok(Refused {
                    env: i,
                    action: i128::from(action),
                    position,
                    names,
                })
            }
            // The outputs were checked for shape before: any other refusal is a bug here.
            other => Err(PyValueError::new_err(other.to_string())),
        }
    }
}

/// Whether `obs_dtype=` asks for uint8 observations (else float32, also for `None`): a
/// dtype, a type or a str, read by `numpy.dtype`.
fn obs_dtype_is_u8(py: Python<'_>, obs_dtype: Option<&Bound<'_, PyAny>>) -> PyResult<bool> {
    let Some(given) = obs_dtype else {
        return Ok(false);
    };
    if given.is_none() {
        return Ok(false);
    }
    let readable = given.cast::<PyArrayDescr>().is_ok()
        || given.cast::<PyType>().is_ok()
        || given.cast::<PyString>().is_ok();
    if !readable {
        return Err(PyTypeError::new_err(format!(
            "obs_dtype: expected numpy.float32 or numpy.uint8 (a dtype, a type or a str), \
             not {}",
            given.get_type().name()?
        )));
    }
    static DTYPE: PyOnceLock<Py<PyAny>> = PyOnceLock::new();
    let dtype = DTYPE
        .get_or_try_init(py, || {
            py.import("numpy")?.getattr("dtype").map(Bound::unbind)
        })?
        .bind(py)
        .call1((given,))?
        .cast_into::<PyArrayDescr>()?;
    if dtype.is_equiv_to(&numpy::dtype::<f32>(py)) {
        Ok(false)
    } else if dtype.is_equiv_to(&numpy::dtype::<u8>(py)) {
        Ok(true)
    } else {
        Err(PyValueError::new_err(format!(
            "obs_dtype must be float32 or uint8 (native byte order), not {dtype}"
        )))
    }
}

#[pymethods]
impl VecEnvPy {
    /// `n` games (1 to `agon.MAX_ENVS`) from `start` (the start position by default; not
    /// a decided one); `seed` seeds `random_actions`; `axial` selects the (11, 11, 11)
    /// observation layout; `threads` (1 to 256, all cores by default) step the batch;
    /// `obs_dtype` is `numpy.float32` (the default) or `numpy.uint8`; `packed_masks`
    /// packs the masks 8 actions a byte; `rules` (a `Rules` or its text) is the rule set
    /// of the games if given, else that of `start` (standard for a text or no start).
    #[new]
    #[pyo3(
        signature = (
            n, seed = Int(0), axial = false, start = None, *, threads = None,
            obs_dtype = None, packed_masks = false, rules = None
        ),
        text_signature = "(n, seed=0, axial=False, start=None, *, threads=None, \
                          obs_dtype=None, packed_masks=False, rules=None)"
    )]
    #[allow(clippy::too_many_arguments)]
    fn new(
        py: Python<'_>,
        n: Int<i64>,
        seed: Int<u64>,
        axial: bool,
        start: Option<PositionArg>,
        threads: Option<Int<i64>>,
        obs_dtype: Option<Bound<'_, PyAny>>,
        packed_masks: bool,
        rules: Option<crate::rules::RulesArg>,
    ) -> PyResult<VecEnvPy> {
        let n = limits::bounded("n", n.0, 1, MAX_ENVS, Some("MAX_ENVS"))?;
        let threads = limits::threads(threads)?;
        let obs_u8 = obs_dtype_is_u8(py, obs_dtype.as_ref())?;
        let start = crate::position::position_or_start(py, start.as_ref(), rules.map(|r| r.0))?;
        let mut env = agon_rl::VecEnv::new(n, seed.0, actions::layout(axial), Some(start))
            .map_err(|e| PyValueError::new_err(e.to_string()))?;
        env.set_threads(threads)
            .map_err(|e| PyValueError::new_err(e.to_string()))?;
        Ok(VecEnvPy {
            n,
            axial,
            obs_u8,
            packed: packed_masks,
            rules: start.rules(),
            threads,
            state: Lock::new(
                "VecEnv",
                State {
                    env,
                    actions: Vec::with_capacity(n),
                },
            ),
        })
    }

    /// The number of games.
    #[getter]
    fn num_envs(&self) -> usize {
        self.n
    }

    fn __len__(&self) -> usize {
        self.n
    }

    /// The shape of one game's observation.
    #[getter]
    fn observation_shape<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        PyTuple::new(py, &self.obs_shape()[1..])
    }

    /// The dtype of the observations: `numpy.float32` or `numpy.uint8`.
    #[getter]
    fn obs_dtype<'py>(&self, py: Python<'py>) -> Bound<'py, PyArrayDescr> {
        if self.obs_u8 {
            numpy::dtype::<u8>(py)
        } else {
            numpy::dtype::<f32>(py)
        }
    }

    /// Whether the masks are bit-packed (uint8, 8 actions a byte) rather than one bool
    /// per action.
    #[getter]
    fn packed_masks(&self) -> bool {
        self.packed
    }

    /// The shape of one game's mask: `(action_count,)`, or `(packed_mask_bytes,)` when
    /// packed (`(ACTION_COUNT,)` and `(PACKED_MASK_BYTES,)` under the standard rules).
    #[getter]
    fn mask_shape<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        PyTuple::new(
            py,
            [if self.packed {
                actions::packed_mask_len(self.rules)
            } else {
                actions::action_count(self.rules)
            }],
        )
    }

    /// The rule set of the games.
    #[getter]
    fn rules(&self) -> crate::rules::RulesPy {
        crate::rules::RulesPy(self.rules)
    }

    /// The bytes of a game's bit-packed mask: `agon.packed_mask_bytes(self.rules)`.
    #[getter]
    fn packed_mask_bytes(&self) -> usize {
        actions::packed_mask_len(self.rules)
    }

    /// The player to act in game `i` (0 to `n - 1`, else `IndexError`): the side that
    /// chooses its next action (`Position.chooser`), whose view the observation takes and
    /// whose reward the next step gives.
    fn player_to_act(&self, py: Python<'_>, i: Int<i64>) -> PyResult<crate::types::SidePy> {
        let i = self.index(i)?;
        let side = self.lock(py)?.env.player_to_act(i);
        Ok(side.into())
    }

    /// The players to act of every game, as an int8 array of shape `(n,)`: 0 where White
    /// chooses the next action, 1 where Black does (`player_to_act`).
    fn players_to_act<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray1<i8>>> {
        let guard = self.lock(py)?;
        let v: Vec<i8> = (0..self.n)
            .map(|i| guard.env.player_to_act(i).index() as i8)
            .collect();
        drop(guard);
        Ok(PyArray1::from_vec(py, v))
    }

    /// The number of threads that step the batch (the calling one included).
    #[getter]
    fn threads(&self) -> usize {
        self.threads
    }

    /// The number of actions of the games' rule set (`agon.action_count(self.rules)`; the
    /// width of a bool mask).
    #[getter]
    fn action_count(&self) -> usize {
        actions::action_count(self.rules)
    }

    /// Starts every game again (reseeding `random_actions` if `seed` is given) and
    /// returns `(observations, masks)`; `out=(observations, masks)` fills arrays in place.
    /// The arrays are checked before anything changes.
    #[pyo3(signature = (seed = None, out = None))]
    fn reset<'py>(
        &self,
        py: Python<'py>,
        seed: Option<Int<u64>>,
        out: Option<Bound<'py, PyTuple>>,
    ) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyAny>)> {
        let (mut obs, mut masks) = self.observation_outputs(py, out.as_ref())?;
        let (o, m) = (obs.buffer()?, masks.buffer()?);
        let mut guard = self.lock(py)?;
        let env = &mut guard.env;
        let written = py.detach(move || {
            env.reset(seed.map(|s| s.0));
            env.observe(o, m)
        });
        drop(guard);
        written.map_err(|e| PyValueError::new_err(e.to_string()))?;
        Ok((obs.into_any(), masks.into_any()))
    }

    /// The current `(observations, masks)`; `out=(observations, masks)` fills arrays in
    /// place.
    #[pyo3(signature = (out = None))]
    fn observe<'py>(
        &self,
        py: Python<'py>,
        out: Option<Bound<'py, PyTuple>>,
    ) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyAny>)> {
        let (mut obs, mut masks) = self.observation_outputs(py, out.as_ref())?;
        let (o, m) = (obs.buffer()?, masks.buffer()?);
        let guard = self.lock(py)?;
        let env = &guard.env;
        let written = py.detach(move || env.observe(o, m));
        drop(guard);
        written.map_err(|e| PyValueError::new_err(e.to_string()))?;
        Ok((obs.into_any(), masks.into_any()))
    }

    /// Plays one action in every game: `actions` of shape `(n,)` and an integer dtype
    /// (see the class and the package's "Contract").
    #[pyo3(signature = (actions, out = None))]
    fn step<'py>(
        &self,
        py: Python<'py>,
        actions: Bound<'py, PyAny>,
        out: Option<Bound<'py, PyTuple>>,
    ) -> PyResult<StepArrays<'py>> {
        let n = self.n;
        // Every argument is checked, and every output borrowed, before any game changes.
        let actions = read_actions(&actions, n)?;
        let given = unpack_out(out.as_ref(), 4)?;
        let mut obs = ObsOut::new(py, given[0].as_ref(), &self.obs_shape(), self.obs_u8)?;
        let mut rewards = Output::<f32>::new(py, given[1].as_ref(), &[n], "rewards")?;
        let mut terms = Output::<bool>::new(py, given[2].as_ref(), &[n], "terminations")?;
        let mut masks = MaskOut::new(py, given[3].as_ref(), n, self.packed, self.rules)?;
        let mut spans = vec![obs.span(), rewards.span(), terms.span(), masks.span()];
        spans.extend(actions.span());
        disjoint(&spans)?;
        let out = agon_rl::StepBuffers {
            observations: obs.buffer()?,
            rewards: rewards.slice()?,
            terminations: terms.slice()?,
            masks: masks.buffer()?,
        };
        let mut guard = self.lock(py)?;
        let state = &mut *guard;
        // A contiguous int64 array (what `random_actions` returns) is read in place.
        let in_place = match &actions {
            ActionBatch::Int64(a) => a.as_slice().ok(),
            ActionBatch::Wide(_) => None,
        };
        if in_place.is_none() {
            if let Err(refused) = VecEnvPy::int64_actions(state, &actions) {
                drop(guard);
                return Err(refused.error(py));
            }
        }
        let State { env, actions } = state;
        let actions = in_place.unwrap_or(actions);
        let played = py.detach(|| env.step(actions, out));
        let refused = played.err().map(|e| VecEnvPy::refused(env, e));
        drop(guard);
        if let Some(refused) = refused {
            return Err(refused?.error(py));
        }
        Ok((
            obs.into_any(),
            rewards.array.into_any(),
            terms.array.into_any(),
            masks.into_any(),
        ))
    }

    /// A uniformly random legal action for every game (int64 `(n,)`): game `i`'s from its
    /// own generator, seeded from `seed` and `i`.
    fn random_actions<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray1<i64>>> {
        let mut guard = self.lock(py)?;
        let env = &mut guard.env;
        let mut v = vec![0i64; self.n];
        let written = py.detach(|| env.random_actions(&mut v));
        drop(guard);
        written.map_err(|e| PyValueError::new_err(e.to_string()))?;
        Ok(PyArray1::from_vec(py, v))
    }

    /// The current position of game `i` (0 to `n - 1`, else `IndexError`).
    fn position(&self, py: Python<'_>, i: Int<i64>) -> PyResult<PositionPy> {
        let i = self.index(i)?;
        let position = *self.lock(py)?.env.position(i);
        Ok(PositionPy(position))
    }

    /// A copy of game `i` since its last start (0 to `n - 1`, else `IndexError`).
    fn game(&self, py: Python<'_>, i: Int<i64>) -> PyResult<GamePy> {
        let i = self.index(i)?;
        let game = {
            let guard = self.lock(py)?;
            let env = &guard.env;
            py.detach(|| env.game(i))
        };
        Ok(GamePy::wrap(py, game))
    }
}

/// Unpacks bit-packed masks (`VecEnv(..., packed_masks=True)`): a uint8 numpy array of
/// shape `(..., packed_mask_bytes(rules))` into a bool array of shape `(...,
/// action_count(rules))` (`rules` a `Rules` or its text, standard by default: then
/// `(..., PACKED_MASK_BYTES)` into `(..., ACTION_COUNT)`), the same as
/// `numpy.unpackbits(packed, axis=-1, count=action_count(rules)).view(bool)`: action `a`
/// is bit `7 - a % 8` of byte `a // 8`, and the bits after the last action are ignored.
/// Raises `TypeError` for anything but a uint8 array (masked arrays included) and
/// `ValueError` for another last dimension.
#[pyfunction]
#[pyo3(signature = (packed, rules = None))]
pub fn unpack_masks<'py>(
    py: Python<'py>,
    packed: Bound<'py, PyAny>,
    rules: Option<crate::rules::RulesArg>,
) -> PyResult<Bound<'py, PyAny>> {
    let rules = rules.map_or(ac::Rules::STANDARD, |r| r.0);
    let (bytes_len, width) = (
        actions::packed_mask_len(rules),
        actions::action_count(rules),
    );
    let array = packed.cast::<PyUntypedArray>().map_err(|_| {
        PyTypeError::new_err(format!(
            "packed: expected a uint8 numpy array, not {}",
            describe(&packed).unwrap_or_default()
        ))
    })?;
    if is_masked(array)? {
        return Err(PyTypeError::new_err(
            "packed: a masked array is not accepted (its mask would be ignored)",
        ));
    }
    let typed = array.cast::<PyArrayDyn<u8>>().map_err(|_| {
        PyTypeError::new_err(format!(
            "packed: expected an array of dtype uint8, not {}",
            array.dtype()
        ))
    })?;
    let shape = typed.shape().to_vec();
    if shape.last() != Some(&bytes_len) {
        return Err(PyValueError::new_err(format!(
            "packed: expected a shape (..., {bytes_len}), got {}",
            shape_str(&shape)
        )));
    }
    let borrowed = typed
        .try_readonly()
        .map_err(|e| PyValueError::new_err(format!("packed: {e}")))?;
    let view = borrowed.as_array();
    let mut out_shape = shape.clone();
    if let Some(last) = out_shape.last_mut() {
        *last = width;
    }
    let out = new_array::<bool>(py, &out_shape)?.cast_into::<PyArrayDyn<bool>>()?;
    let mut rw = out
        .try_readwrite()
        .map_err(|e| PyValueError::new_err(e.to_string()))?;
    let unpacked = rw
        .as_slice_mut()
        .map_err(|e| PyValueError::new_err(e.to_string()))?;
    match view.as_slice() {
        Some(bytes) => py.detach(|| {
            for (p, u) in bytes
                .chunks_exact(bytes_len)
                .zip(unpacked.chunks_exact_mut(width))
            {
                agon_rl::unpack_mask(p, u);
            }
        }),
        None => {
            // Not C-contiguous: row by row through a copy.
            let mut row = vec![0u8; bytes_len];
            let rows = view.rows();
            for (r, u) in rows.into_iter().zip(unpacked.chunks_exact_mut(width)) {
                for (b, &x) in row.iter_mut().zip(r.iter()) {
                    *b = x;
                }
                agon_rl::unpack_mask(&row, u);
            }
        }
    }
    drop(rw);
    Ok(out.into_any())
}
