"""Hostile inputs for every public entry point of ``agon``: the property-based half of the
contract tests (the package docstring, section "Contract").

Every entry point (function, constructor, method, property, Python protocol method) has
an *exerciser* in ``ENTRIES``: it draws arguments with Hypothesis, mixing valid values
with hostile ones (wrong types, bools, NaN, huge and negative ints, numpy arrays of every
dtype and shape, random and mutated text, finished games, objects whose callbacks fail
or never end), calls the entry point, and checks the contract:

- it returns, or raises a documented exception (``ValueError`` and its subclasses,
  ``TypeError``, ``IndexError``, ``OverflowError``, or ``Boom`` from a hostile object's
  own callback), with all the attributes the package's exceptions promise;
- a call that fails leaves its object as it was (games compared move by move,
  environments against a twin built and stepped the same way, bots against a twin, and
  the caller's ``out`` arrays byte by byte);
- it answers in bounded time (Hypothesis' deadline).

This module is not collected by pytest: ``test_hostile.py`` runs each group of entry
points in its own Python process (``python hostile_cases.py GROUP``), so that an abort,
a crash or a hang is one failing test with its output rather than the end of the run.
``AGON_HYPOTHESIS_PROFILE=explore`` draws fresh random examples, more of them.
"""

from __future__ import annotations

import collections.abc
import copy
import datetime
import decimal
import fractions
import itertools
import operator
import os
import pickle
import random
import re
import sys
import threading
import time
import traceback
import types
from typing import Any, Callable, Dict, Iterator, List, Optional, Sequence, Tuple, Type

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import agon
import agon.bots
from conftest import (
    CAPTURE,
    NO_ACTION,
    NO_ACTION_IN_ONE,
    QUEEN_CAPTURED,
    RING_WITHOUT_QUEEN_IN_ONE,
    START,
    THRONE_IN_ONE,
    random_positions,
)

if hasattr(sys, "set_int_max_str_digits"):
    sys.set_int_max_str_digits(0)  # huge ints are among the inputs, and get printed

settings.register_profile(
    "ci",
    max_examples=25,
    deadline=2000,
    derandomize=True,
    database=None,
    print_blob=True,
    suppress_health_check=list(HealthCheck),
)
settings.register_profile(
    "explore",
    max_examples=300,
    deadline=5000,
    derandomize=False,
    database=None,
    print_blob=True,
    suppress_health_check=list(HealthCheck),
)
settings.load_profile(os.environ.get("AGON_HYPOTHESIS_PROFILE", "ci"))

Data = st.DataObject
Exerciser = Callable[[Data], None]

# ---------------------------------------------------------------------------------------
# The contract

DOCUMENTED: Tuple[Type[BaseException], ...] = (ValueError, TypeError, IndexError, OverflowError)


class Boom(Exception):
    """Raised by the callbacks of hostile objects; the contract lets it pass through."""


def check_error_attributes(error: BaseException) -> None:
    """The package's exceptions always carry all their attributes, typed."""
    if isinstance(error, agon.IllegalMoveError):
        assert isinstance(error.reason, str) and error.reason, error
        assert error.move is None or isinstance(error.move, str)
        assert error.env is None or isinstance(error.env, int)
        assert error.action is None or isinstance(error.action, int)
    if isinstance(error, agon.ParseError):
        assert isinstance(error.reason, str) and error.reason, error
        assert isinstance(error.text, str)
        assert isinstance(error.offset, int)
        assert 0 <= error.offset <= len(error.text.encode("utf-8", "surrogatepass"))
        assert error.move_reason is None or isinstance(error.move_reason, str)
        assert error.position_reason is None or isinstance(error.position_reason, str)
        assert len(str(error)) < 400, "messages quote at most 80 characters of the input"
    if isinstance(error, agon.InvalidPositionError):
        assert isinstance(error.reason, str) and error.reason, error


def attempt(call: Callable[[], Any]) -> Tuple[bool, Any]:
    """Runs ``call``: ``(True, result)``, or ``(False, error)`` for a documented error;
    anything else fails the test (a panic of the bindings is a BaseException)."""
    try:
        return True, call()
    except DOCUMENTED as error:
        check_error_attributes(error)
        return False, error
    except Boom as error:
        return False, error
    except (KeyboardInterrupt, SystemExit):
        raise
    except BaseException as error:
        raise AssertionError(
            f"undocumented exception {type(error).__module__}.{type(error).__name__}: "
            f"{str(error)[:300]}"
        ) from error


# ---------------------------------------------------------------------------------------
# Hostile objects


class BadIndex:
    """An integer whose ``__index__`` fails."""

    def __index__(self) -> int:
        raise Boom("__index__")


class HugeIndex:
    """An integer far beyond 64 bits."""

    def __index__(self) -> int:
        return 2**100


class SmallIndex:
    """A valid small integer given through ``__index__``."""

    def __init__(self, value: int) -> None:
        self.value = value

    def __index__(self) -> int:
        return self.value

    def __repr__(self) -> str:
        return f"SmallIndex({self.value})"


class BadFloat:
    def __float__(self) -> float:
        raise Boom("__float__")


class BadStr:
    def __str__(self) -> str:
        raise Boom("__str__")

    def __format__(self, spec: str) -> str:
        raise Boom("__format__")


class BadIter:
    def __iter__(self) -> Iterator[Any]:
        raise Boom("__iter__")


class FailingIter:
    """Yields ``item`` a few times, then fails."""

    def __init__(self, item: Any) -> None:
        self.item = item

    def __iter__(self) -> Iterator[Any]:
        yield self.item
        yield self.item
        raise Boom("in the middle of iteration")


class Endless:
    """An endless iterable of one item: a reader must stop at a bound."""

    def __init__(self, item: Any) -> None:
        self.item = item

    def __iter__(self) -> Iterator[Any]:
        return itertools.repeat(self.item)

    def __repr__(self) -> str:
        return f"Endless({self.item!r})"


class LyingSequence(collections.abc.Sequence):  # type: ignore[type-arg]
    """Claims 2**62 items but holds ``count``: nothing may be reserved from its length."""

    def __init__(self, item: Any, held: int) -> None:
        self.item, self.held = item, held

    def __len__(self) -> int:
        return 2**62

    def __getitem__(self, i: Any) -> Any:
        if isinstance(i, int) and 0 <= i < self.held:
            return self.item
        raise IndexError(i)

    def __repr__(self) -> str:
        return f"LyingSequence({self.item!r}, {self.held})"


class BadArray:
    def __array__(self, dtype: Any = None, copy: Any = None) -> Any:
        raise Boom("__array__")


class IntArrayLike:
    """Not an ndarray, but numpy makes an int64 array of it."""

    def __init__(self, values: Sequence[int]) -> None:
        self.values = list(values)

    def __array__(self, dtype: Any = None, copy: Any = None) -> Any:
        return np.array(self.values, dtype=np.int64)

    def __repr__(self) -> str:
        return f"IntArrayLike({self.values})"


class BadMapping(collections.abc.Mapping):  # type: ignore[type-arg]
    def __getitem__(self, key: Any) -> Any:
        raise Boom("__getitem__")

    def __iter__(self) -> Iterator[Any]:
        raise Boom("__iter__")

    def __len__(self) -> int:
        return 2**62


class EndlessMapping(collections.abc.Mapping):  # type: ignore[type-arg]
    def __getitem__(self, key: Any) -> Any:
        return "Q"

    def __iter__(self) -> Iterator[Any]:
        return itertools.repeat("f1")

    def __len__(self) -> int:
        return 2**62


class StrSubclass(str):
    pass


class DictSubclass(dict):  # type: ignore[type-arg]
    def keys(self) -> Any:
        raise Boom("keys")

    def __iter__(self) -> Iterator[Any]:
        raise Boom("__iter__")


def masked(values: Any) -> Any:
    return np.ma.masked_array(values, mask=np.zeros(np.shape(values), dtype=bool))


# ---------------------------------------------------------------------------------------
# Strategies

FINISHED_POSITION = agon.Position(THRONE_IN_ONE).play("h6-g6")
SAMPLE_TEXTS = [
    START,
    CAPTURE,
    QUEEN_CAPTURED,
    THRONE_IN_ONE,
    RING_WITHOUT_QUEEN_IN_ONE,
    NO_ACTION_IN_ONE,
    NO_ACTION,
    FINISHED_POSITION.to_text(),
]
SAMPLE_POSITIONS = [agon.Position(t) for t in SAMPLE_TEXTS] + random_positions(40, seed=5)
LIVE_POSITIONS = [p for p in SAMPLE_POSITIONS if not p.is_over()]
CELL_NAMES = [c.name for c in agon.CELLS]

def mostly(usual: st.SearchStrategy[Any], other: st.SearchStrategy[Any],
           tenths: int = 7) -> st.SearchStrategy[Any]:
    """``usual`` about ``tenths`` times in ten, else ``other``: valid inputs reach the deep
    paths of a call, hostile ones its checks; Hypothesis alone would favour neither."""
    return st.integers(0, 9).flatmap(lambda k: usual if k < tenths else other)


big_ints = st.one_of(
    st.sampled_from([2**31, 2**32, 2**63 - 1, 2**63, 2**64 - 1, 2**64, 2**100, -(2**31), -(2**63),
                     -(2**63) - 1, -(2**64), 10**30, -(10**30)]),
    st.integers(4000, 6000).map(lambda k: 10**k),  # beyond the default limit of int -> str
)
any_int = st.one_of(st.integers(-3, 100), st.integers(-(2**70), 2**70), big_ints)
floats = st.floats(allow_nan=True, allow_infinity=True)
numpy_scalars = st.sampled_from(
    [np.int8(3), np.uint8(200), np.int64(5), np.uint64(2**64 - 1), np.float32(1.5),
     np.float64("nan"), np.bool_(True), np.complex64(1 + 2j), np.str_("f1"),
     np.datetime64("2020-01-01"), np.timedelta64(5, "s")]
)
odd_objects = st.sampled_from(
    [BadIndex(), HugeIndex(), BadFloat(), BadStr(), BadIter(), BadArray(), BadMapping(),
     EndlessMapping(), object(), datetime.datetime(2020, 1, 1), datetime.timedelta(1),
     decimal.Decimal("1.5"), decimal.Decimal("NaN"), fractions.Fraction(1, 3), 1 + 2j,
     b"f1", bytearray(b"f1-e1"), Ellipsis, NotImplemented, StrSubclass("f1"),
     DictSubclass(f1="Q"), range(3), agon.WHITE, agon.QUEEN, agon.Symmetry(1),
     agon.Outcome(agon.WHITE, "throne"), agon.Piece.from_symbol("g"),
     agon.Move.parse("f1-e1"), agon.Cell("f6"), agon.Position(), agon.Game(),
     agon.bots.Random(), "\ud800", "", "\x00", "f1\x00-e1"]
)


def array_dtypes() -> st.SearchStrategy[Any]:
    return st.one_of(
        hnp.scalar_dtypes(),
        hnp.integer_dtypes(endianness="?"),
        hnp.unsigned_integer_dtypes(endianness="?"),
        hnp.floating_dtypes(endianness="?"),
        hnp.complex_number_dtypes(endianness="?"),
        hnp.datetime64_dtypes(),
        hnp.timedelta64_dtypes(),
        hnp.byte_string_dtypes(max_len=4),
        hnp.unicode_string_dtypes(max_len=4),
        hnp.nested_dtypes(max_itemsize=16),
    )


def any_array(shape: Optional[st.SearchStrategy[Tuple[int, ...]]] = None) -> st.SearchStrategy[Any]:
    shapes = shape if shape is not None else hnp.array_shapes(min_dims=0, max_dims=3, min_side=0, max_side=4)
    plain = hnp.arrays(dtype=array_dtypes(), shape=shapes)
    return st.one_of(
        plain,
        plain.map(lambda a: a[::-1] if a.ndim else a),
        plain.map(masked),
        st.lists(st.sampled_from([None, "x", 1, 2.5]), max_size=4).map(
            lambda v: np.array(v, dtype=object)
        ),
    )


# Anything but an int that a size argument would accept (those can ask for long work).
hostile_values = st.one_of(
    st.none(),
    st.booleans(),
    big_ints,
    floats,
    st.text(max_size=8),
    st.binary(max_size=8),
    st.complex_numbers(allow_nan=True),
    numpy_scalars,
    odd_objects,
    any_array(),
    st.lists(st.integers(-5, 5), max_size=4),
    st.tuples(st.integers(-5, 5), st.text(max_size=3)),
    st.dictionaries(st.text(max_size=3), st.integers(), max_size=3),
)
hostile = st.one_of(hostile_values, any_int)


def hashable(value: Any) -> bool:
    try:
        hash(value)
    except Exception:
        return False
    return True


hashable_hostile = hostile.filter(hashable)

text_with_surrogates = st.text(
    alphabet=st.characters(exclude_categories=()), max_size=40
)
move_regex = st.from_regex(r"\A[a-m][0-9]{1,2}[-> ]?[a-m][0-9]{1,2}\Z")
cell_regex = st.from_regex(r"\A[a-m][0-9]{1,2}\Z")


def positions() -> st.SearchStrategy[agon.Position]:
    return st.sampled_from(SAMPLE_POSITIONS)


@st.composite
def mutated(draw: st.DrawFn, texts: st.SearchStrategy[str]) -> str:
    """A text with a few random edits: the inputs a parser meets most often."""
    text: str = draw(texts)
    for _ in range(draw(st.integers(0, 4))):
        i = draw(st.integers(0, len(text)))
        j = draw(st.integers(i, min(len(text), i + 6)))
        edit = draw(st.sampled_from(["delete", "insert", "replace", "repeat", "cut"]))
        piece = draw(st.text(alphabet="abcdefghiklmQGqg0123456789-> */,\n[]\"\\.", max_size=4))
        if edit == "delete":
            text = text[:i] + text[j:]
        elif edit == "insert":
            text = text[:i] + piece + text[i:]
        elif edit == "replace":
            text = text[:i] + piece + text[j:]
        elif edit == "repeat":
            text = text[:j] + text[i:j] * draw(st.integers(1, 3)) + text[j:]
        else:
            text = text[:i]
    return text


def position_texts() -> st.SearchStrategy[str]:
    return st.one_of(
        st.sampled_from(SAMPLE_TEXTS),
        mutated(st.sampled_from(SAMPLE_TEXTS)),
        text_with_surrogates,
    )


def position_like() -> st.SearchStrategy[Any]:
    return mostly(st.one_of(positions(), positions().map(lambda p: p.to_text())),
                  st.one_of(position_texts(), hostile))


def cell_like() -> st.SearchStrategy[Any]:
    return mostly(
        st.one_of(st.sampled_from(CELL_NAMES), st.sampled_from(agon.CELLS), st.integers(0, 90)),
        st.one_of(st.integers(-3, 95), st.integers(0, 90).map(np.int64),
                  st.integers(0, 90).map(SmallIndex), cell_regex, hostile),
    )


@st.composite
def move_like(draw: st.DrawFn, position: Optional[agon.Position] = None) -> Any:
    """A move for ``position``: mostly legal ones (as Moves, texts and pairs), then
    plausible text, Moves between any cells, and anything."""
    legal = position.legal_moves() if position is not None else []
    other = st.one_of(
        move_regex,
        st.builds(agon.Move, st.sampled_from(agon.CELLS), st.sampled_from(agon.CELLS), st.booleans()),
        mutated(st.sampled_from(["f1-e1", "d1>a1", "f1e1", "f10>f6"])),
        hostile,
    )
    if not legal:
        return draw(other)
    m = draw(st.sampled_from(legal))
    return draw(mostly(st.sampled_from([m, str(m), m.pair]), other, 6))


def side_like() -> st.SearchStrategy[Any]:
    return mostly(st.sampled_from([agon.WHITE, agon.BLACK]), hostile)


def bool_like() -> st.SearchStrategy[Any]:
    return mostly(st.booleans(), st.one_of(st.just(np.bool_(True)), hostile))


def action_like() -> st.SearchStrategy[Any]:
    return mostly(
        st.integers(-2, agon.ACTION_COUNT + 2),
        st.one_of(st.integers(0, agon.ACTION_COUNT - 1).map(np.int32),
                  st.integers(0, agon.ACTION_COUNT - 1).map(SmallIndex), hostile),
    )


def symmetry_like() -> st.SearchStrategy[Any]:
    return mostly(st.sampled_from(agon.Symmetry.all()), hostile)


def bounded(valid: st.SearchStrategy[int], bound: int, low: int = 0) -> st.SearchStrategy[Any]:
    """A size argument: small valid values (fast to run), values just outside the range,
    huge ones, and anything."""
    return mostly(valid, st.one_of(
        st.sampled_from([low - 1, bound + 1, -(2**63), 2**63, 2**64, 2**100]),
        st.integers(bound + 1, 2**70),
        st.integers(-(2**70), low - 1),
        hostile_values,
    ), 5)


@st.composite
def games(draw: st.DrawFn, finished: Optional[bool] = None) -> agon.Game:
    """A game from a sample position, a few random moves in, or played to its end."""
    start: agon.Position = draw(st.sampled_from(LIVE_POSITIONS))
    rng = random.Random(draw(st.integers(0, 2**32)))
    game = agon.Game(start)
    to_end = draw(st.booleans()) if finished is None else finished
    plies = 10_000 if to_end else draw(st.integers(0, 12))
    for _ in range(plies):
        if game.is_over():
            break
        game.push(rng.choice(game.legal_moves()))
    if draw(st.booleans()):
        game.tags = {"Event": draw(st.text(alphabet="abc XYZ", max_size=6)), "Round": "1"}
    return game


def record_texts() -> st.SearchStrategy[str]:
    valid = games().map(lambda g: g.to_record())
    return mostly(valid, st.one_of(mutated(valid), text_with_surrogates,
                                   mutated(st.just('[Event "x"]\n\n1. f1-e1 *'))), 4)


def arguments(*strategies: st.SearchStrategy[Any]) -> st.SearchStrategy[Tuple[Any, ...]]:
    """Positional arguments: mostly of the intended arity, else 0-3 hostile ones."""
    return mostly(st.tuples(*strategies), st.lists(hostile_values, max_size=3).map(tuple), 8)


# ---------------------------------------------------------------------------------------
# Snapshots: what "unchanged" means for each mutable object


def game_state(game: agon.Game) -> Tuple[Any, ...]:
    return (
        game.start.to_text(),
        [str(m) for m in game.moves],
        list(game.tags.items()),
        game.result,
        game.position.to_text(),
        game.repetitions(),
        game.is_over(),
        [p.to_text() for p in game.positions],
    )


def env_state(env: agon.VecEnv) -> Tuple[Any, ...]:
    obs, masks = env.observe()
    return (
        [(env.game(i).start.to_text(), [str(m) for m in env.game(i).moves]) for i in range(len(env))],
        obs.tobytes(),
        masks.tobytes(),
    )


def arrays_state(arrays: Any) -> Any:
    """The bytes of the caller's arrays in ``out`` (whatever ``out`` is)."""
    if isinstance(arrays, (tuple, list)):
        return [arrays_state(a) for a in arrays]
    if isinstance(arrays, np.ndarray):
        return (arrays.tobytes(), arrays.dtype.str, arrays.shape)
    return None


# ---------------------------------------------------------------------------------------
# The registry of entry points

ENTRIES: Dict[str, Tuple[str, Exerciser]] = {}


def entry(group: str, *names: str) -> Callable[[Exerciser], Exerciser]:
    def register(fn: Exerciser) -> Exerciser:
        for name in names:
            assert name not in ENTRIES, name
            ENTRIES[name] = (group, fn)
        return fn

    return register


def kwargs_maybe(data: Data) -> Dict[str, Any]:
    """Sometimes an unknown keyword argument (a TypeError)."""
    return {"bogus": 1} if data.draw(st.integers(0, 19)) == 17 else {}


def call_immutable(data: Data, obj: Any, name: str, args: Tuple[Any, ...]) -> Tuple[bool, Any]:
    """Calls a method of an immutable value; the value must not change."""
    before = repr(obj)
    result = attempt(lambda: getattr(obj, name)(*args, **kwargs_maybe(data)))
    assert repr(obj) == before
    return result


def immutable_methods(group: str, cls_name: str, instances: st.SearchStrategy[Any],
                      table: Dict[str, Callable[[Any], st.SearchStrategy[Tuple[Any, ...]]]]) -> None:
    """Registers ``Class.method`` for each method of ``table``: the arguments come from
    ``table[method](instance)``."""
    for method, args_of in table.items():
        def exercise(data: Data, method: str = method,
                     args_of: Callable[[Any], st.SearchStrategy[Tuple[Any, ...]]] = args_of) -> None:
            obj = data.draw(instances)
            args = data.draw(args_of(obj))
            call_immutable(data, obj, method, args)

        entry(group, f"{cls_name}.{method}")(exercise)


def properties(group: str, cls_name: str, instances: st.SearchStrategy[Any], names: Sequence[str]) -> None:
    """Registers getters, which must never fail."""
    for name in names:
        def exercise(data: Data, name: str = name) -> None:
            obj = data.draw(instances)
            getattr(obj, name)

        entry(group, f"{cls_name}.{name}")(exercise)


def no_args(obj: Any) -> st.SearchStrategy[Tuple[Any, ...]]:
    return arguments()


PROTOCOL = ["__repr__", "__str__", "__hash__", "__eq__", "__ne__", "__lt__", "__le__", "__gt__",
            "__ge__", "__reduce__", "__copy__", "__deepcopy__", "__int__", "__index__", "__invert__",
            "__len__", "__setstate__"]


def protocol(group: str, cls_name: str, instances: st.SearchStrategy[Any]) -> None:
    """Registers the Python protocol methods a class defines: comparisons with anything,
    hash, repr, str, int, copies and a pickle round trip."""
    cls = getattr(agon, cls_name)
    defined = [name for name in PROTOCOL if name in vars(cls)]

    def exercise(data: Data) -> None:
        obj = data.draw(instances)
        other = data.draw(st.one_of(instances, hostile))
        before = repr(obj) if cls_name != "Game" else game_state(obj)
        for op in ("__eq__", "__ne__", "__lt__", "__le__", "__gt__", "__ge__"):
            if op in defined:
                attempt(lambda: getattr(obj, op)(other))
        for op in ("__lt__", "__le__", "__gt__", "__ge__"):
            if op in defined:
                attempt(lambda: {"__lt__": lambda: obj < other, "__le__": lambda: obj <= other,
                                 "__gt__": lambda: obj > other, "__ge__": lambda: obj >= other}[op]())
        ok, h = attempt(lambda: hash(obj))
        if ok:
            assert isinstance(h, int)
        for conv in (repr, str):
            ok, text = attempt(lambda: conv(obj))
            assert ok and isinstance(text, str)
        for op in ("__int__", "__index__"):
            if op in defined:
                ok, value = attempt(lambda: getattr(obj, op)())
                assert ok and isinstance(value, int)
        if "__invert__" in defined:
            assert attempt(lambda: ~obj)[0]
        if "__len__" in defined:
            ok, n = attempt(lambda: len(obj))
            assert ok and n >= 0
        if "__reduce__" in defined:
            ok, clone = attempt(lambda: pickle.loads(pickle.dumps(obj)))
            assert ok and type(clone) is type(obj) and clone == obj
            for dup in (copy.copy, copy.deepcopy):
                ok, clone = attempt(lambda: dup(obj))
                assert ok and clone == obj
        if "__setstate__" in defined:
            state = data.draw(st.one_of(
                st.tuples(st.dictionaries(st.text(max_size=3), st.text(max_size=3), max_size=2),
                          st.sampled_from(["*", "1-0", "0-1", "1/2-1/2", "2-0", ""])),
                hostile,
            ))
            snapshot = game_state(obj)
            ok, _ = attempt(lambda: obj.__setstate__(state))
            if not ok:
                assert game_state(obj) == snapshot
            return
        after = repr(obj) if cls_name != "Game" else game_state(obj)
        assert after == before

    for name in defined:
        entry(group, f"{cls_name}.{name}")(exercise)


# ---------------------------------------------------------------------------------------
# Module functions


@entry("functions", "perft")
def _perft(data: Data) -> None:
    position = data.draw(position_like())
    depth = data.draw(bounded(st.integers(0, 2), agon.MAX_PERFT_DEPTH))
    ok, leaves = attempt(lambda: agon.perft(position, depth, **kwargs_maybe(data)))
    if ok:
        assert isinstance(leaves, int) and leaves >= 0


def threads_like() -> st.SearchStrategy[Any]:
    """A ``threads`` argument: None (every core), 1 to a few, and out of range or hostile."""
    return mostly(st.one_of(st.none(), st.integers(1, 4)),
                  st.one_of(st.sampled_from([0, -1, 257, 2**63, 2**64]), bounded(st.just(2), 256, low=1)), 6)


@entry("functions", "random_playouts")
def _random_playouts(data: Data) -> None:
    n = data.draw(bounded(st.integers(0, 2), agon.MAX_RANDOM_PLAYOUTS))
    seed = data.draw(st.one_of(st.integers(0, 2**64 - 1), any_int, hostile))
    start = data.draw(st.one_of(st.none(), position_like()))
    threads = data.draw(threads_like())
    extra: Dict[str, Any] = {}
    if data.draw(st.booleans()):
        extra["rules"] = data.draw(st.one_of(st.none(), rules_like()))
    if data.draw(st.booleans()):
        extra["max_plies"] = data.draw(st.one_of(st.none(), st.integers(-1, 300), any_int, hostile))
    if extra.get("rules") is not None and extra.get("max_plies") is None:
        extra["max_plies"] = 500  # under some rule sets a random game need not end
    ok, stats = attempt(lambda: agon.random_playouts(n, seed=seed, start=start, threads=threads, **extra))
    if ok:
        assert stats["games"] == n == (stats["white_wins"] + stats["black_wins"] + stats["draws"]
                                       + stats["capped"])
        assert isinstance(threads, int) or threads is None
        assert threads is None or 1 <= threads <= 256
        # The games depend on the seed only, not on the number of threads.
        assert stats == agon.random_playouts(n, seed=seed, start=start, threads=1, **extra)


@entry("functions", "action_count", "packed_mask_bytes")
def _action_count(data: Data) -> None:
    args = data.draw(st.one_of(arguments(), arguments(rules_like())))
    for fn in (agon.action_count, agon.packed_mask_bytes):
        ok, count = attempt(lambda: fn(*args, **kwargs_maybe(data)))
        if ok:
            assert count in (agon.ACTION_COUNT, agon.ACTION_COUNT + 1, agon.MAX_ACTION_COUNT,
                             agon.PACKED_MASK_BYTES, 1112)
        else:
            assert isinstance(count, (TypeError, ValueError, Boom)), count


@entry("functions", "unpack_masks")
def _unpack_masks(data: Data) -> None:
    if data.draw(st.booleans()):
        rules: Any = data.draw(st.sampled_from(RULE_TEXTS))
        extra: Dict[str, Any] = {"rules": rules}
    else:
        rules, extra = None, {}
    width = agon.packed_mask_bytes(rules)
    count = agon.action_count(rules)
    valid = hnp.arrays(np.uint8, hnp.array_shapes(min_dims=0, max_dims=2, min_side=0, max_side=3).map(
        lambda s: (*s, width)))
    packed = data.draw(mostly(st.one_of(valid, valid.map(lambda a: a[::-1]),
                                        valid.map(lambda a: np.asfortranarray(a))),
                              st.one_of(any_array(), valid.map(masked), valid.map(lambda a: a.astype(np.int16)),
                                        valid.map(lambda a: a[..., :-1]), valid.map(lambda a: a.tolist()),
                                        hostile), 6))
    before = arrays_state(packed)
    ok, unpacked = attempt(lambda: agon.unpack_masks(packed, **extra, **kwargs_maybe(data)))
    assert arrays_state(packed) == before
    if ok:
        assert isinstance(packed, np.ndarray) and packed.dtype == np.uint8
        expected = np.unpackbits(packed, axis=-1, count=count).view(bool)
        assert unpacked.dtype == np.bool_ and np.array_equal(unpacked, expected)
        assert unpacked.shape == (*packed.shape[:-1], count)
    else:
        assert isinstance(unpacked, (TypeError, ValueError, Boom)), unpacked


@entry("functions", "move_to_action")
def _move_to_action(data: Data) -> None:
    move = data.draw(move_like(data.draw(positions())))
    ok, action = attempt(lambda: agon.move_to_action(move))
    if ok:
        assert 0 <= action < agon.ACTION_COUNT


@entry("functions", "action_to_move")
def _action_to_move(data: Data) -> None:
    args = data.draw(arguments(position_like(), action_like()))
    ok, move = attempt(lambda: agon.action_to_move(*args))
    if ok:
        assert agon.move_to_action(move) == int(args[1])


@entry("functions", "action_symmetries", "cell_symmetries", "axial_coordinates")
def _tables(data: Data) -> None:
    for fn in (agon.cell_symmetries, agon.axial_coordinates):
        args = data.draw(st.lists(hostile, max_size=1))
        ok, table = attempt(lambda: fn(*args))
        assert ok == (not args)
        if ok:
            assert table.dtype == np.int64 and table.ndim == 2
    args = data.draw(st.one_of(arguments(), arguments(rules_like())))
    ok, table = attempt(lambda: agon.action_symmetries(*args))
    if ok:
        assert table.dtype == np.int64 and table.shape == (12, agon.action_count(*args))
    else:
        assert isinstance(table, (TypeError, ValueError, Boom)), table


# ---------------------------------------------------------------------------------------
# svg


@entry("svg", "svg")
def _svg(data: Data) -> None:
    position = data.draw(positions())
    target = data.draw(mostly(st.one_of(st.just(position), games()), hostile, 8))
    kwargs: Dict[str, Any] = {}
    if data.draw(st.booleans()):
        kwargs["size"] = data.draw(st.one_of(st.none(), bounded(st.integers(1, 2000), agon.MAX_SVG_SIZE, low=1)))
    if data.draw(st.booleans()):
        kwargs["last_move"] = data.draw(st.one_of(st.none(), move_like(position)))
    if data.draw(st.booleans()):
        arrow = st.one_of(move_like(position), st.tuples(cell_like(), cell_like()),
                          st.lists(cell_like(), max_size=3))
        kwargs["arrows"] = data.draw(st.one_of(
            st.lists(arrow, max_size=4),
            st.lists(arrow, max_size=4).map(iter),
            arrow.map(Endless),
            arrow.map(FailingIter),
            arrow.map(lambda a: LyingSequence(a, 3)),
            hostile,
        ))
    for flag in ("flipped", "coordinates"):
        if data.draw(st.booleans()):
            kwargs[flag] = data.draw(bool_like())
    ok, picture = attempt(lambda: agon.svg(target, **kwargs, **kwargs_maybe(data)))
    if ok:
        assert picture.startswith("<svg")


# ---------------------------------------------------------------------------------------
# The small values

cells = st.sampled_from(agon.CELLS)
properties("values", "Cell", cells, ["cube", "file", "ring", "index", "rank", "name"])
immutable_methods("values", "Cell", cells, {
    "neighbour": lambda c: arguments(st.one_of(st.integers(-2, 7), hostile)),
    "neighbours": no_args,
    "is_adjacent": lambda c: arguments(cell_like()),
    "distance": lambda c: arguments(cell_like()),
    "from_cube": lambda c: arguments(*[st.one_of(st.integers(-6, 6), any_int, hostile)] * 3),
    "from_file_rank": lambda c: arguments(st.one_of(st.integers(-1, 11), hostile),
                                          st.one_of(st.integers(-1, 12), hostile)),
    "between": lambda c: arguments(cell_like(), cell_like()),
    "all": no_args,
})
protocol("values", "Cell", cells)


@entry("values", "Cell")
def _cell(data: Data) -> None:
    arg = data.draw(cell_like())
    ok, cell = attempt(lambda: agon.Cell(arg))
    if ok:
        assert 0 <= cell.index <= 90
        assert not isinstance(arg, (bool, float, np.bool_))


sides = st.sampled_from([agon.WHITE, agon.BLACK])
properties("values", "Side", sides, ["name", "char"])
immutable_methods("values", "Side", sides, {
    "other": no_args,
    "from_char": lambda s: arguments(st.one_of(st.sampled_from(["w", "b", "W", "x", "wb", ""]), hostile)),
})
protocol("values", "Side", sides)

kinds = st.sampled_from([agon.QUEEN, agon.GUARD])
properties("values", "Kind", kinds, ["name"])
protocol("values", "Kind", kinds)


@entry("values", "Side", "Kind")
def _enums(data: Data) -> None:
    # The members are the only values: no constructor.
    for cls in (agon.Side, agon.Kind):
        args = data.draw(st.lists(st.one_of(st.integers(-1, 2), hostile), max_size=2))
        ok, _ = attempt(lambda: cls(*args))
        assert not ok

pieces = st.builds(agon.Piece, sides, kinds)
properties("values", "Piece", pieces, ["kind", "symbol", "side"])
immutable_methods("values", "Piece", pieces, {
    "from_symbol": lambda p: arguments(st.one_of(st.sampled_from(["Q", "G", "q", "g", "K", "QQ", ""]), hostile)),
})
protocol("values", "Piece", pieces)


@entry("values", "Piece")
def _piece(data: Data) -> None:
    args = data.draw(arguments(st.one_of(sides, hostile), st.one_of(kinds, hostile)))
    attempt(lambda: agon.Piece(*args))


move_values = st.builds(agon.Move, cells, cells, st.booleans())
properties("values", "Move", move_values, ["is_step", "is_return", "is_pass", "to_cell", "pair", "from_cell"])
immutable_methods("values", "Move", move_values, {
    "step": lambda m: arguments(cell_like(), cell_like()),
    "returning": lambda m: arguments(cell_like(), cell_like()),
    "parse": lambda m: arguments(st.one_of(move_regex, mutated(st.just("f1-e1")), text_with_surrogates, hostile)),
    "transform": lambda m: arguments(symmetry_like()),
})
protocol("values", "Move", move_values)


@entry("values", "Move")
def _move(data: Data) -> None:
    args = data.draw(arguments(cell_like(), cell_like(), bool_like()))
    attempt(lambda: agon.Move(*args))


outcomes = st.sampled_from([agon.Outcome(agon.WHITE, "throne"), agon.Outcome(None, "repetition"),
                            agon.Outcome(agon.BLACK, "no-legal-action")])
properties("values", "Outcome", outcomes, ["winner", "reason", "is_draw", "score"])
protocol("values", "Outcome", outcomes)


@entry("values", "Outcome")
def _outcome(data: Data) -> None:
    reasons = st.one_of(st.sampled_from(["throne", "ring-without-queen", "no-legal-action", "repetition",
                                         "two-passes", "move-limit", "x"]),
                        hostile)
    args = data.draw(arguments(st.one_of(st.none(), sides, hostile), reasons))
    attempt(lambda: agon.Outcome(*args))


RULE_TEXTS = ["standard", "ludii", "standard+between=trapped", "standard+capture=same-ring+limit=300",
              "ludii+limit=none", "standard+queen-placer=captor+guard-return=next-ring+stuck=pass"]
rule_sets = st.sampled_from([agon.Rules(t) for t in RULE_TEXTS])


def rules_like() -> st.SearchStrategy[Any]:
    """A ``rules=`` argument: a Rules, its text, a mutated text, or anything."""
    return st.one_of(rule_sets, st.sampled_from(RULE_TEXTS), st.text(max_size=12), hostile)


def rule_keywords() -> st.SearchStrategy[Dict[str, Any]]:
    """Keyword overrides of ``Rules``: valid names and values, wrong ones, hostile ones."""
    names = st.sampled_from(["capture", "between", "guard_return", "queen_return", "queen_placer",
                             "empty_throne_ring", "stuck", "repetition", "limit", "bogus"])
    values = st.one_of(st.sampled_from(["any", "same-ring", "trapped", "pass", "off", "none", "300",
                                        "captor", "draw", "next-ring", "not-throne", "x+y"]),
                       st.none(), st.integers(-2, 100002), any_int, hostile)
    return st.dictionaries(names, values, max_size=3)


properties("values", "Rules", rule_sets, ["capture", "between", "guard_return", "queen_return",
                                          "queen_placer", "empty_throne_ring", "stuck", "repetition",
                                          "limit", "preset", "is_standard"])
immutable_methods("values", "Rules", rule_sets, {
    "standard": no_args,
    "ludii": no_args,
    "parse": lambda r: arguments(st.one_of(st.sampled_from(RULE_TEXTS), st.text(max_size=20),
                                           text_with_surrogates, hostile)),
    "values": no_args,
    "to_text": no_args,
    "to_dict": no_args,
})
protocol("values", "Rules", rule_sets)


@entry("values", "Rules")
def _rules(data: Data) -> None:
    text = data.draw(st.one_of(st.none(), rules_like()))
    keywords = data.draw(rule_keywords())
    ok, rules = attempt(lambda: agon.Rules(text, **keywords))
    if ok:
        assert agon.Rules(str(rules)) == rules


@entry("values", "Rules.replace")
def _rules_replace(data: Data) -> None:
    rules = data.draw(rule_sets)
    keywords = data.draw(rule_keywords())
    ok, replaced = attempt(lambda: rules.replace(**keywords))
    if ok:
        assert agon.Rules(str(replaced)) == replaced


@entry("values", "Rules.presets_and_variants")
def _rules_presets_and_variants(data: Data) -> None:
    limit = data.draw(st.one_of(st.integers(-3, agon.Rules.MAX_LIMIT + 3), any_int, hostile))
    ok, sets = attempt(lambda: agon.Rules.presets_and_variants(limit))
    if ok:
        assert len(sets) == 12 and sets[-1].limit == limit


symmetries = st.sampled_from(agon.Symmetry.all())
properties("values", "Symmetry", symmetries, ["rotation", "is_mirror", "index"])
immutable_methods("values", "Symmetry", symmetries, {
    "from_rotation": lambda s: arguments(st.one_of(st.integers(-13, 13), any_int, hostile), bool_like()),
    "all": no_args,
    "cell": lambda s: arguments(cell_like()),
    "move": lambda s: arguments(move_like(None)),
    "position": lambda s: arguments(st.one_of(positions(), hostile)),
    "inverse": no_args,
    "then": lambda s: arguments(symmetry_like()),
})
protocol("values", "Symmetry", symmetries)


@entry("values", "Symmetry")
def _symmetry(data: Data) -> None:
    arg = data.draw(st.one_of(st.integers(-2, 14), any_int, hostile))
    ok, sym = attempt(lambda: agon.Symmetry(arg))
    if ok:
        assert 0 <= sym.index < 12


@entry("values", "IllegalMoveError", "ParseError", "InvalidPositionError")
def _errors(data: Data) -> None:
    # Exceptions made by hand carry every attribute too (class defaults).
    for cls in (agon.IllegalMoveError, agon.ParseError, agon.InvalidPositionError):
        error = cls(data.draw(st.text(max_size=5)))
        assert isinstance(error, ValueError) and isinstance(error.reason, str)
    made = agon.IllegalMoveError("x")
    assert (made.move, made.env, made.action) == (None, None, None)
    parse = agon.ParseError("x")
    assert (parse.offset, parse.text, parse.move_reason, parse.position_reason) == (0, "", None, None)


# ---------------------------------------------------------------------------------------
# Position

properties("position", "Position", positions(), ["captured_side", "turn", "zobrist_hash", "rules", "chooser"])
immutable_methods("position", "Position", positions(), {
    "start": no_args,
    "to_text": no_args,
    "with_turn": lambda p: arguments(side_like()),
    "piece_at": lambda p: arguments(cell_like()),
    "pieces": no_args,
    "queen": lambda p: arguments(side_like()),
    "guards": lambda p: arguments(side_like()),
    "pieces_of": lambda p: arguments(side_like()),
    "occupied": no_args,
    "empty": no_args,
    "captured": no_args,
    "is_captured": lambda p: arguments(cell_like()),
    "forbidden_cells": lambda p: arguments(side_like()),
    "must_return": no_args,
    "legal_moves": no_args,
    "legal_moves_from": lambda p: arguments(cell_like()),
    "count_legal_moves": no_args,
    "has_legal_move": no_args,
    "parse_move": lambda p: arguments(st.one_of(move_like(p).filter(lambda m: isinstance(m, str)),
                                                text_with_surrogates, hostile)),
    "is_legal": lambda p: arguments(move_like(p)),
    "check_move": lambda p: arguments(move_like(p)),
    "play": lambda p: arguments(move_like(p)),
    "captures": lambda p: arguments(move_like(p)),
    "traps": lambda p: arguments(move_like(p)),
    "with_rules": lambda p: arguments(rules_like()),
    "outcome": no_args,
    "is_over": no_args,
    "throne_ring_side": no_args,
    "perft": lambda p: arguments(bounded(st.integers(0, 2), agon.MAX_PERFT_DEPTH)),
    "transform": lambda p: arguments(symmetry_like()),
    "symmetries": no_args,
    "canonical": no_args,
    "legal_actions": no_args,
    "action_mask": no_args,
    "observation": lambda p: st.one_of(arguments(), arguments(bool_like())),
    "observation_axial": no_args,
    "action_to_move": lambda p: arguments(action_like()),
    "play_action": lambda p: arguments(st.one_of(st.sampled_from(list(p.legal_actions()) or [0]), action_like())),
    "_repr_svg_": no_args,
})
protocol("position", "Position", positions())


@entry("position", "Position.perft_divide")
def _perft_divide(data: Data) -> None:
    position = data.draw(positions())
    depth = data.draw(bounded(st.integers(0, 2), agon.MAX_PERFT_DEPTH))
    ok, split = attempt(lambda: position.perft_divide(depth))
    if ok:
        assert sum(split.values()) == position.perft(depth)
    elif type(depth) is int and depth == 0:
        assert isinstance(split, ValueError)


@entry("position", "Position")
def _position(data: Data) -> None:
    args = data.draw(st.one_of(arguments(), arguments(position_like())))
    ok, position = attempt(lambda: agon.Position(*args))
    if ok:
        assert agon.Position(position.to_text()) == position


@entry("position", "Position.from_text")
def _from_text(data: Data) -> None:
    text = data.draw(st.one_of(position_texts(), hostile))
    ok, position = attempt(lambda: agon.Position.from_text(text))
    if ok:
        assert agon.Position.from_text(position.to_text()) == position


@entry("position", "Position.from_pieces")
def _from_pieces(data: Data) -> None:
    base = {str(c): p.symbol for c, p in data.draw(positions()).pieces().items()}
    entries = st.dictionaries(cell_like().filter(lambda c: isinstance(c, (str, int))), st.one_of(
        st.sampled_from(["Q", "G", "q", "g"]), hostile), max_size=16)
    pieces = data.draw(mostly(
        st.one_of(st.just(base), st.just(base).map(lambda b: collections.OrderedDict(b)),
                  st.just(base).map(lambda b: types.MappingProxyType(b))),
        st.one_of(entries, entries.map(lambda d: {**base, **d}),
                  st.just(dict.fromkeys(range(-5, 200), "G")), hostile)))
    captured = data.draw(mostly(
        st.one_of(st.none(), st.lists(st.sampled_from(list(base)), max_size=2)),
        st.one_of(st.lists(cell_like(), max_size=4), st.lists(cell_like(), max_size=4).map(iter),
                  cell_like().map(Endless), cell_like().map(lambda c: LyingSequence(c, 2)),
                  cell_like().map(FailingIter), hostile)))
    turn = data.draw(mostly(sides, hostile, 8))
    ok, position = attempt(lambda: agon.Position.from_pieces(pieces, turn, captured))
    if ok:
        assert agon.Position(position.to_text()) == position


# ---------------------------------------------------------------------------------------
# Game


def game_call(data: Data, game: agon.Game, call: Callable[[], Any]) -> Tuple[bool, Any]:
    """Calls ``call`` on ``game``; a failure must leave the game as it was."""
    before = game_state(game)
    ok, result = attempt(call)
    if not ok:
        assert game_state(game) == before, f"a failed call changed the game: {result!r}"
    return ok, result


GAME_METHODS: Dict[str, Callable[[agon.Game], st.SearchStrategy[Tuple[Any, ...]]]] = {
    "to_record": no_args,
    "legal_moves": no_args,
    "is_legal": lambda g: arguments(move_like(g.position)),
    "push": lambda g: arguments(move_like(g.position)),
    "play": lambda g: arguments(move_like(g.position)),
    "push_action": lambda g: arguments(st.one_of(st.sampled_from(list(g.legal_actions()) or [0]), action_like())),
    "pop": no_args,
    "undo": no_args,
    "restart": lambda g: st.one_of(arguments(), arguments(position_like())),
    "outcome": no_args,
    "is_over": no_args,
    "repetitions": no_args,
    "legal_actions": no_args,
    "action_mask": no_args,
    "observation": lambda g: st.one_of(arguments(), arguments(bool_like())),
    "copy": no_args,
    "_repr_svg_": no_args,
    "variations": lambda g: arguments(st.integers(-3, g.ply + 3)),
}

for _method, _args_of in GAME_METHODS.items():
    def _exercise(data: Data, method: str = _method,
                  args_of: Callable[[agon.Game], st.SearchStrategy[Tuple[Any, ...]]] = _args_of) -> None:
        game = data.draw(games())
        args = data.draw(args_of(game))
        ok, result = game_call(data, game, lambda: getattr(game, method)(*args, **kwargs_maybe(data)))
        if ok and method in ("push", "play", "push_action"):
            assert game.ply >= 1 and (not game.is_over() or game.legal_moves() == [])

    entry("game", f"Game.{_method}")(_exercise)

properties("game", "Game", games(), ["position", "moves", "ply", "turn", "last_move", "positions", "start",
                                     "rules", "chooser"])
protocol("game", "Game", games())


# Records with variations (agon-core's Record docs), nested too: Variation's instances.
VARIATION_RECORDS = [
    '[Result "*"]\n\n1. f1-e1 (1. f1-g1 f11-e10) (1. a5-b5) 1... f11-g10 2. e1-f1 *\n',
    '[Result "*"]\n\n1. f1-e1 f11-g10 (1... f11-e10 (1... l2-l1)) *\n',
]


@st.composite
def variations(draw: st.DrawFn) -> agon.Variation:
    game = agon.Game.from_record(draw(st.sampled_from(VARIATION_RECORDS)))
    found = [v for ply in range(game.ply) for v in game.variations(ply)]
    found += [w for v in found for i in range(len(v.moves)) for w in v.variations(i)]
    return draw(st.sampled_from(found))


immutable_methods("game", "Variation", variations(), {
    "variations": lambda v: arguments(st.integers(-3, len(v.moves) + 3)),
})
properties("game", "Variation", variations(), ["moves"])


@entry("game", "Variation", "Variation.__repr__")
def _variation_made(data: Data) -> None:
    # Variations come from records only: the class refuses to be made from Python.
    args = data.draw(st.lists(hostile_values, max_size=3))
    ok, made = attempt(lambda: agon.Variation(*args))
    assert not ok and isinstance(made, TypeError), made
    variation = data.draw(variations())
    assert repr(variation).startswith("Variation(")


@entry("game", "Game.tags", "Game.result")
def _game_setters(data: Data) -> None:
    game = data.draw(games())
    assert isinstance(game.tags, dict) and isinstance(game.result, str)
    tags = data.draw(st.one_of(
        st.dictionaries(st.text(max_size=6), st.text(max_size=6), max_size=3),
        st.dictionaries(hashable_hostile, hostile, max_size=2),
        st.just(DictSubclass(a="b")),
        hostile,
    ))
    ok, _ = game_call(data, game, lambda: setattr(game, "tags", tags))
    if ok:
        # A record is written, or the tags are refused, and the game stays as it was.
        game_call(data, game, game.to_record)
    result = data.draw(st.one_of(st.sampled_from(["*", "1-0", "0-1", "1/2-1/2", "2-0", ""]), hostile))
    game_call(data, game, lambda: setattr(game, "result", result))


@entry("game", "Game")
def _game(data: Data) -> None:
    replay = data.draw(games())
    texts = [str(m) for m in replay.moves]
    start: Any
    moves: Any
    if data.draw(st.integers(0, 9)) < 6:
        # The moves of a game from its start, in any iterable form: this must work.
        start = data.draw(st.sampled_from([replay.start, replay.start.to_text()]))
        moves = data.draw(st.sampled_from([
            texts, tuple(replay.moves), iter(replay.moves), (m for m in texts),
            LyingSequence(replay.moves[0], 1) if replay.moves else [],
        ]))
    else:
        start = data.draw(st.one_of(st.none(), position_like()))
        moves = data.draw(st.one_of(
            st.none(),
            st.lists(move_like(None), max_size=4),
            st.just(itertools.cycle(["f1-e1", "f11-g10", "e1-f1", "g10-f11"])),
            move_like(None).map(Endless),
            move_like(None).map(FailingIter),
            st.just(LyingSequence("f1-e1", 1)),
            hostile,
        ))
    ok, game = attempt(lambda: agon.Game(start, moves))
    if ok:
        assert agon.Game.from_record(game.to_record()) == game


@entry("game", "Game.from_record")
def _from_record(data: Data) -> None:
    text = data.draw(mostly(record_texts(), hostile, 8))
    ok, game = attempt(lambda: agon.Game.from_record(text))
    if ok:
        again = agon.Game.from_record(game.to_record())
        assert again == game and again.tags == game.tags and again.result == game.result


# ---------------------------------------------------------------------------------------
# VecEnv


@st.composite
def env_twins(draw: st.DrawFn) -> Tuple[agon.VecEnv, agon.VecEnv]:
    """Two environments built and stepped alike: a failed call on the first must leave it
    equal to the second (games, observations, and the random generator). They may differ
    in their number of threads, which changes nothing; sometimes they are large enough for
    several threads to share a step."""
    n = draw(st.one_of(st.integers(1, 4), st.integers(1, 4), st.sampled_from([130, 300])))
    seed = draw(st.integers(0, 2**64 - 1))
    axial = draw(st.booleans())
    start = draw(st.sampled_from([None, *LIVE_POSITIONS[:8]]))
    formats: Dict[str, Any] = dict(obs_dtype=draw(st.sampled_from([None, np.float32, np.uint8, "uint8", "f4"])),
                                   packed_masks=draw(st.booleans()),
                                   rules=draw(st.sampled_from([None, "ludii", "standard+between=trapped",
                                                               "standard+guard-return=next-ring"])))
    a = agon.VecEnv(n, seed=seed, axial=axial, start=start, threads=draw(st.integers(1, 3)), **formats)
    b = agon.VecEnv(n, seed=seed, axial=axial, start=start, threads=draw(st.integers(1, 3)), **formats)
    for _ in range(draw(st.integers(0, 6))):
        actions = a.random_actions()
        assert np.array_equal(actions, b.random_actions())
        a.step(actions)
        b.step(actions)
    return a, b


def assert_twins(a: agon.VecEnv, b: agon.VecEnv, error: Any) -> None:
    assert env_state(a) == env_state(b), f"a failed call changed the environment: {error!r}"
    assert np.array_equal(a.random_actions(), b.random_actions()), "the generator moved"


@st.composite
def actions_for(draw: st.DrawFn, env: agon.VecEnv) -> Any:
    """Actions for ``env``: legal ones in many integer forms, one bad entry, and arrays of
    every dtype and shape."""
    n = len(env)
    legal = [int(draw(st.sampled_from(list(env.position(i).legal_actions())))) for i in range(n)]
    int_dtype = draw(st.one_of(hnp.integer_dtypes(endianness="?"), hnp.unsigned_integer_dtypes(endianness="?")))
    fits = np.iinfo(int_dtype).max >= max(legal)
    bad = list(legal)
    bad[draw(st.integers(0, n - 1))] = draw(st.one_of(st.integers(-(2**63), 2**63 - 1), st.sampled_from(
        [-1, agon.ACTION_COUNT, 5, agon.move_to_action("f6-f7")])))
    options: List[st.SearchStrategy[Any]] = [
        st.just(np.array(legal, dtype=np.int64)),
        st.just(legal),
        st.just(tuple(legal)),
        st.just(IntArrayLike(legal)),
        st.just(np.array(legal * 2, dtype=np.int64)[::2]),
        st.just(np.array(bad, dtype=np.int64)),
        st.just(bad),
        st.just(np.array(legal, dtype=np.float64)),
        st.just(np.array(legal, dtype=np.float32) + 0.5),
        st.just([float(a) for a in legal]),
        st.just([str(a) for a in legal]),
        st.just(np.array(legal, dtype=np.complex128)),
        st.just(np.array(legal, dtype="datetime64[s]")),
        st.just(np.array(legal, dtype="timedelta64[s]")),
        st.just(np.array(legal, dtype=object)),
        st.just(np.array([a % 2 == 0 for a in legal])),
        st.just(masked(np.array(legal, dtype=np.int64))),
        st.just(np.array(legal, dtype=np.int64).reshape(n, 1)),
        st.just(np.array(legal + [0], dtype=np.int64)),
        st.just([2**64 + a for a in legal]),
        st.just(np.array([2**64 - 1] * n, dtype=np.uint64)),
        st.just(BadArray()),
        any_array(st.one_of(st.just((n,)), hnp.array_shapes(min_dims=0, max_dims=2, max_side=5))),
        hostile,
    ]
    if fits:
        options.append(st.just(np.array(legal, dtype=int_dtype)))
    return draw(st.one_of(options))


def out_arrays(env: agon.VecEnv, kinds: Sequence[Tuple[Tuple[int, ...], Any]]) -> st.SearchStrategy[Any]:
    """``out`` for ``env``: correct arrays, then each fault alone (dtype, shape, order,
    read-only, masked, shared memory, a list...), and anything."""

    def correct() -> List[Any]:
        return [np.full(shape, 7, dtype=dtype) for shape, dtype in kinds]

    @st.composite
    def faulty(draw: st.DrawFn) -> Any:
        arrays: List[Any] = correct()
        i = draw(st.integers(0, len(arrays) - 1))
        shape, dtype = kinds[i]
        fault = draw(st.sampled_from(["dtype", "shape", "fortran", "strided", "readonly", "masked",
                                      "byteorder", "shared", "object", "list", "short"]))
        if fault == "dtype":
            arrays[i] = np.zeros(shape, dtype=draw(array_dtypes()))
        elif fault == "shape":
            arrays[i] = np.zeros(draw(hnp.array_shapes(min_dims=0, max_dims=4, max_side=4)), dtype=dtype)
        elif fault == "fortran":
            arrays[i] = np.asfortranarray(np.zeros(shape + (2,), dtype=dtype))[..., 0]
        elif fault == "strided":
            arrays[i] = np.zeros(shape[:-1] + (shape[-1] * 2,), dtype=dtype)[..., ::2]
        elif fault == "readonly":
            arrays[i].setflags(write=False)
        elif fault == "masked":
            arrays[i] = masked(arrays[i])
        elif fault == "byteorder":
            arrays[i] = arrays[i].astype(arrays[i].dtype.newbyteorder(">" if sys.byteorder == "little" else "<"))
        elif fault == "shared":
            # Two outputs over the same bytes, without a common base array.
            j = (i + 1) % len(arrays)
            size = max(arrays[i].nbytes, arrays[j].nbytes)
            buffer = bytearray(size)
            arrays[i] = np.frombuffer(memoryview(buffer), dtype=dtype, count=arrays[i].size).reshape(shape)
            shape_j, dtype_j = kinds[j]
            arrays[j] = np.frombuffer(memoryview(buffer), dtype=dtype_j, count=arrays[j].size).reshape(shape_j)
        elif fault == "object":
            arrays[i] = draw(hostile)
        elif fault == "list":
            return arrays
        elif fault == "short":
            return tuple(arrays[:-1])
        return tuple(arrays)

    return mostly(st.one_of(st.none(), st.builds(lambda: tuple(correct()))),
                  st.one_of(faulty(), hostile), 5)


def step_kinds(env: agon.VecEnv) -> List[Tuple[Tuple[int, ...], Any]]:
    n = len(env)
    return [((n, *env.observation_shape), env.obs_dtype), ((n,), np.float32), ((n,), np.bool_),
            ((n, *env.mask_shape), np.uint8 if env.packed_masks else np.bool_)]


def observe_kinds(env: agon.VecEnv) -> List[Tuple[Tuple[int, ...], Any]]:
    kinds = step_kinds(env)
    return [kinds[0], kinds[3]]


@entry("vecenv", "VecEnv.step")
def _step(data: Data) -> None:
    a, b = data.draw(env_twins())
    actions = data.draw(actions_for(a))
    out = data.draw(out_arrays(a, step_kinds(a)))
    out_before = arrays_state(out)
    ok, result = attempt(lambda: a.step(actions, out=out))
    if not ok:
        assert arrays_state(out) == out_before, "a failed step wrote into out"
        assert_twins(a, b, result)
        return
    # Accepted: an integer array (or list of ints) played exactly, never a coercion.
    plain = np.asarray(actions)
    assert plain.dtype.kind in "iu" and not isinstance(actions, np.ma.MaskedArray), plain.dtype
    expected = b.step(plain.astype(np.int64))
    for got, want in zip(result, expected):
        assert np.array_equal(got, want)
    if out is not None:
        assert all(r is o for r, o in zip(result, out))
    assert env_state(a) == env_state(b)


@entry("vecenv", "VecEnv.reset")
def _reset(data: Data) -> None:
    a, b = data.draw(env_twins())
    seed = data.draw(st.one_of(st.none(), st.integers(0, 2**64 - 1), any_int, hostile))
    out = data.draw(out_arrays(a, observe_kinds(a)))
    out_before = arrays_state(out)
    ok, result = attempt(lambda: a.reset(seed, out=out))
    if not ok:
        assert arrays_state(out) == out_before, "a failed reset wrote into out"
        assert_twins(a, b, result)
        return
    b.reset(seed)
    assert_twins(a, b, None)


@entry("vecenv", "VecEnv.observe")
def _observe(data: Data) -> None:
    a, b = data.draw(env_twins())
    out = data.draw(out_arrays(a, observe_kinds(a)))
    out_before = arrays_state(out)
    ok, result = attempt(lambda: a.observe(out=out))
    if not ok:
        assert arrays_state(out) == out_before, "a failed observe wrote into out"
    else:
        expected = b.observe()
        assert all(np.array_equal(r, e) for r, e in zip(result, expected))
    assert_twins(a, b, result)


@entry("vecenv", "VecEnv.random_actions")
def _random_actions(data: Data) -> None:
    a, b = data.draw(env_twins())
    args = data.draw(st.one_of(arguments(), arguments(hostile)))
    ok, actions = attempt(lambda: a.random_actions(*args))
    if ok:
        assert all(a.position(i).is_legal(agon.action_to_move(a.position(i), int(x)))
                   for i, x in enumerate(actions))
        b.random_actions()
    assert_twins(a, b, actions)


@entry("vecenv", "VecEnv.position", "VecEnv.game")
def _env_index(data: Data) -> None:
    a, b = data.draw(env_twins())
    i = data.draw(st.one_of(st.integers(-2, 6), st.integers(0, 3).map(np.int64), any_int, hostile))
    for method in ("position", "game"):
        ok, result = attempt(lambda: getattr(a, method)(i))
        if ok:
            assert 0 <= int(i) < len(a)
        elif isinstance(i, int) and not isinstance(i, bool) and -(2**63) <= i < 2**63:
            assert isinstance(result, IndexError)
    assert_twins(a, b, None)


properties("vecenv", "VecEnv", env_twins().map(lambda t: t[0]),
           ["observation_shape", "num_envs", "action_count", "threads", "obs_dtype",
            "packed_masks", "mask_shape", "rules", "packed_mask_bytes"])


@entry("vecenv", "VecEnv.player_to_act", "VecEnv.players_to_act")
def _env_player_to_act(data: Data) -> None:
    a, b = data.draw(env_twins())
    i = data.draw(st.one_of(st.integers(-2, 6), st.integers(0, 3).map(np.int64), any_int, hostile))
    ok, side = attempt(lambda: a.player_to_act(i))  # type: ignore[arg-type]
    if ok:
        assert 0 <= int(i) < len(a) and side == a.position(int(i)).chooser
    elif isinstance(i, int) and not isinstance(i, bool) and -(2**63) <= i < 2**63:
        assert isinstance(side, IndexError)
    args = data.draw(st.one_of(arguments(), arguments(hostile)))
    ok, players = attempt(lambda: a.players_to_act(*args))
    if ok:
        assert players.dtype == np.int8 and players.shape == (len(a),)
        assert [int(p) for p in players] == [int(a.position(j).chooser) for j in range(len(a))]
    assert_twins(a, b, None)
protocol("vecenv", "VecEnv", env_twins().map(lambda t: t[0]))


@entry("vecenv", "VecEnv")
def _vecenv(data: Data) -> None:
    n = data.draw(st.one_of(bounded(st.integers(1, 3), agon.MAX_ENVS, low=1),
                            st.sampled_from([agon.MAX_ENVS])))
    kwargs: Dict[str, Any] = {}
    if data.draw(st.booleans()):
        kwargs["seed"] = data.draw(st.one_of(st.integers(0, 2**64 - 1), any_int, hostile))
    if data.draw(st.booleans()):
        kwargs["axial"] = data.draw(bool_like())
    if data.draw(st.booleans()):
        kwargs["start"] = data.draw(st.one_of(st.none(), position_like()))
    if data.draw(st.booleans()):
        kwargs["threads"] = data.draw(threads_like())
    if data.draw(st.booleans()):
        kwargs["obs_dtype"] = data.draw(mostly(
            st.sampled_from([None, np.float32, np.uint8, "float32", "uint8", "u1", np.dtype("f4")]),
            st.one_of(st.sampled_from([np.float64, np.int8, bool, float, int, object, "bogus", ">f4",
                                       np.dtype(">f4"), "(2,)u1", "u1,u1", "", "O", str]),
                      hostile)))
    if data.draw(st.booleans()):
        kwargs["packed_masks"] = data.draw(bool_like())
    ok, env = attempt(lambda: agon.VecEnv(n, **kwargs, **kwargs_maybe(data)))
    if ok:
        assert len(env) == n and 1 <= n <= agon.MAX_ENVS
        threads = kwargs.get("threads")
        assert env.threads >= 1 and (threads is None or env.threads == threads)
        assert env.obs_dtype in (np.dtype(np.float32), np.dtype(np.uint8))
        assert env.mask_shape == ((agon.PACKED_MASK_BYTES,) if env.packed_masks else (agon.ACTION_COUNT,))
        if n <= 8:
            obs, _, _, masks = env.step(env.random_actions())
            assert obs.dtype == env.obs_dtype and masks.shape == (n, *env.mask_shape)


# ---------------------------------------------------------------------------------------
# Bots


def cheap(name: str) -> bool:
    """Whether a bot of this spec thinks briefly enough to try it here."""
    parts = name.split(":")
    if len(parts) == 3 and int(parts[2][:-2]) <= 30:
        return True
    if parts[0] == "mcts":
        return int(parts[1]) <= 60
    if parts[0] == "alphabeta":
        return int(parts[1]) <= 2
    return True


def try_bot(data: Data, bot: Any) -> None:
    assert isinstance(bot.name, str) and repr(bot).startswith("Bot.from_name(")
    assert isinstance(bot.seed, int) and 0 <= bot.seed < 2**64
    # A bot is its spec and its seed: they make it again, of the same class.
    twin = agon.bots.Bot.from_name(bot.name, bot.seed)
    assert twin == bot and type(twin) is type(bot) and hash(twin) == hash(bot)
    if cheap(bot.name):
        position = data.draw(positions())
        ok, move = attempt(lambda: bot.choose(position))
        assert ok and (move is None) == (not position.legal_moves())
        if move is not None:
            assert position.is_legal(move)


def time_limits() -> st.SearchStrategy[Any]:
    return mostly(st.one_of(st.none(), st.floats(0, 0.02)), st.one_of(
        st.sampled_from([0, 0.0, agon.MAX_TIME_LIMIT + 1, -1.0, float("nan"), float("inf"), 1e18,
                         1.8e19, 10**400]), floats, hostile), 5)


@entry("bots", "bots.Random", "bots.Greedy")
def _simple_bots(data: Data) -> None:
    cls = data.draw(st.sampled_from([agon.bots.Random, agon.bots.Greedy]))
    args = data.draw(st.one_of(arguments(), arguments(st.one_of(st.integers(0, 2**64 - 1), any_int, hostile))))
    ok, bot = attempt(lambda: cls(*args, **kwargs_maybe(data)))
    if ok:
        try_bot(data, bot)


@entry("bots", "bots.MCTS")
def _mcts(data: Data) -> None:
    playouts = data.draw(bounded(st.integers(1, 40), agon.MAX_PLAYOUTS, low=1))
    seed = data.draw(mostly(st.integers(0, 9), hostile, 8))
    ok, bot = attempt(lambda: agon.bots.MCTS(playouts, seed, data.draw(time_limits())))
    if ok:
        assert 1 <= playouts <= agon.MAX_PLAYOUTS
        try_bot(data, bot)


@entry("bots", "bots.AlphaBeta")
def _alphabeta(data: Data) -> None:
    depth = data.draw(bounded(st.integers(1, 2), agon.MAX_DEPTH, low=1))
    ok, bot = attempt(lambda: agon.bots.AlphaBeta(depth=depth, time_limit=data.draw(time_limits())))
    if ok:
        assert 1 <= depth <= agon.MAX_DEPTH
        try_bot(data, bot)


@entry("bots", "bots.opening_book")
def _opening_book(data: Data) -> None:
    rules = data.draw(st.one_of(st.none(), rules_like()))
    ok, book = attempt(lambda: agon.bots.opening_book(rules, **kwargs_maybe(data)))
    if ok:
        assert len(book) == 300 and all(not p.is_over() for p in book)


@entry("bots", "bots.Bot.from_name")
def _from_name(data: Data) -> None:
    number = st.one_of(st.integers(-3, 70), any_int).map(str)
    part = st.one_of(number, st.text(alphabet="0123456789ms-:x ", max_size=6), text_with_surrogates)
    spec = data.draw(st.one_of(
        st.builds(lambda k, b: f"{k}:{b}", st.sampled_from(["mcts", "alphabeta"]), st.integers(1, 40)),
        st.builds(lambda k, b: f"{k}:{b}", st.sampled_from(["mcts", "alphabeta", "random", "greedy"]), part),
        st.builds(lambda k, b, t: f"{k}:{b}:{t}", st.sampled_from(["mcts", "alphabeta", "random"]), number,
                  st.one_of(number.map(lambda s: s + "ms"), part)),
        st.sampled_from(["random", "greedy", "mcts", "alphabeta", " mcts:5 ", "mcts:5:1ms:2", ""]),
        text_with_surrogates,
        hostile,
    ))
    seed = data.draw(mostly(st.integers(0, 2**64 - 1), st.one_of(any_int, hostile)))
    ok, bot = attempt(lambda: agon.bots.Bot.from_name(spec, seed))
    if ok:
        try_bot(data, bot)


@entry("bots", "bots.Bot")
def _bot(data: Data) -> None:
    args = data.draw(st.lists(hostile, max_size=2))
    ok, _ = attempt(lambda: agon.bots.Bot(*args))
    assert not ok  # made by its subclasses or from_name only


@entry("bots", "bots.Bot.choose", "bots.Bot.name", "bots.Bot.__repr__")
def _choose(data: Data) -> None:
    spec = data.draw(st.sampled_from(["random", "greedy", "mcts:30", "alphabeta:2"]))
    seed = data.draw(st.integers(0, 99))
    bot, twin = agon.bots.Bot.from_name(spec, seed), agon.bots.Bot.from_name(spec, seed)
    assert bot.name == spec and repr(bot) == f"Bot.from_name('{spec}', seed={seed})"
    target = data.draw(st.one_of(positions(), games(), games(finished=True), hostile))
    before = game_state(target) if isinstance(target, agon.Game) else None
    ok, move = attempt(lambda: bot.choose(target))
    if isinstance(target, agon.Game):
        assert game_state(target) == before
    if ok:
        position = target if isinstance(target, agon.Position) else target.position
        if move is None:
            assert isinstance(target, agon.Game) and target.is_over() or not position.legal_moves()
        else:
            assert position.is_legal(move)
    # The bot is as it was: it chooses what its twin chooses.
    start = agon.Position()
    assert bot.choose(start) == twin.choose(start)


def _stats_of(data: Data, bot: Any, twin: Any) -> Optional[Tuple[Any, Any, Dict[int, int], float]]:
    """Calls ``bot.choose_with_stats`` on hostile input and checks what any search bot
    promises: a legal move, the one ``choose`` gives, visits of legal actions only, a value
    in [-1, 1], ``ValueError`` for a finished game, a game left as it was, and the bot
    unchanged (it chooses what its twin chooses). Returns (position, move, visits, value)
    when it chose."""
    target = data.draw(st.one_of(positions(), games(), games(finished=True), hostile))
    before = game_state(target) if isinstance(target, agon.Game) else None
    ok, result = attempt(lambda: bot.choose_with_stats(target, **kwargs_maybe(data)))
    if isinstance(target, agon.Game):
        assert game_state(target) == before
    chosen = None
    if ok:
        move, visits, value = result
        position = target if isinstance(target, agon.Position) else target.position
        assert position.is_legal(move) and move == bot.choose(target)
        legal = {agon.move_to_action(m) for m in position.legal_moves()}
        assert set(visits) <= legal
        assert visits[agon.move_to_action(move)] == max(visits.values())
        assert isinstance(value, float) and -1.0 <= value <= 1.0
        chosen = (position, move, visits, value)
    elif isinstance(target, (agon.Position, agon.Game)):
        assert target.is_over() and isinstance(result, ValueError)
    start = agon.Position()
    assert bot.choose_with_stats(start) == twin.choose_with_stats(start)
    return chosen


@entry("bots", "bots.MCTS.choose_with_stats")
def _choose_with_stats(data: Data) -> None:
    playouts, seed = data.draw(st.integers(1, 30)), data.draw(st.integers(0, 99))
    chosen = _stats_of(data, agon.bots.MCTS(playouts, seed), agon.bots.MCTS(playouts, seed))
    if chosen is not None:
        assert sum(chosen[2].values()) == playouts


@entry("bots", "bots.AlphaBeta.choose_with_stats")
def _alphabeta_choose_with_stats(data: Data) -> None:
    depth, seed = data.draw(st.integers(1, 2)), data.draw(st.integers(0, 99))
    chosen = _stats_of(data, agon.bots.AlphaBeta(depth, seed), agon.bots.AlphaBeta(depth, seed))
    if chosen is not None:
        _, move, visits, _ = chosen
        assert visits == {agon.move_to_action(move): 1}


def bots() -> st.SearchStrategy[Any]:
    """Cheap bots of every class, made by their constructors or from a spec."""
    seeds = st.integers(0, 2**64 - 1)
    limits = st.one_of(st.none(), st.floats(0, 0.02))
    return st.one_of(
        st.builds(agon.bots.Random, seeds),
        st.builds(agon.bots.Greedy, seeds),
        st.builds(agon.bots.MCTS, st.integers(1, 30), seeds, limits),
        st.builds(agon.bots.AlphaBeta, st.integers(1, 2), seeds, limits),
        st.builds(agon.bots.Bot.from_name,
                  st.sampled_from(["random", "greedy", "mcts:7", "alphabeta:1:5ms"]), seeds),
    )


@entry("bots", "bots.Bot.__eq__", "bots.Bot.__ne__", "bots.Bot.__lt__", "bots.Bot.__le__",
       "bots.Bot.__gt__", "bots.Bot.__ge__", "bots.Bot.__hash__", "bots.Bot.__reduce__",
       "bots.Bot.seed")
def _bot_protocol(data: Data) -> None:
    bot = data.draw(bots())
    other = data.draw(st.one_of(bots(), hostile))
    for name in ("__eq__", "__ne__", "__lt__", "__le__", "__gt__", "__ge__"):
        ok, result = attempt(lambda: getattr(bot, name)(other))
        assert ok and (isinstance(result, bool) or result is NotImplemented)
    equality: List[Callable[[Any, Any], Any]] = [operator.eq, operator.ne]
    order: List[Callable[[Any, Any], Any]] = [operator.lt, operator.le, operator.gt, operator.ge]
    for op in equality:
        ok, result = attempt(lambda: op(bot, other))
        if isinstance(other, agon.bots.Bot):  # else the other's reflected method answers
            assert ok and isinstance(result, bool)
    for op in order:
        ok, _ = attempt(lambda: op(bot, other))
        if isinstance(other, agon.bots.Bot):
            assert not ok  # bots do not order
    if isinstance(other, agon.bots.Bot):
        assert (bot == other) == ((bot.name, bot.seed) == (other.name, other.seed))
    ok, h = attempt(lambda: hash(bot))
    assert ok and isinstance(h, int)
    assert isinstance(bot.seed, int) and 0 <= bot.seed < 2**64
    # Pickles and copies are equal bots of the same class.
    dups: List[Callable[[Any], Any]] = [lambda b: pickle.loads(pickle.dumps(b)), copy.copy,
                                        copy.deepcopy]
    for dup in dups:
        ok, clone = attempt(lambda: dup(bot))
        assert ok and clone == bot and type(clone) is type(bot) and hash(clone) == h
    # A tampered pickle fails as from_name does, or makes a valid bot.
    rebuild: Callable[..., Any]
    rebuild, (spec, seed) = bot.__reduce__()
    bad = data.draw(st.one_of(
        st.tuples(st.one_of(st.just(spec), st.text(max_size=12), hostile),
                  st.one_of(st.just(seed), any_int, hostile)),
        st.lists(hostile, max_size=3).map(tuple),
    ))
    ok, made = attempt(lambda: rebuild(*bad))
    if ok:
        try_bot(data, made)
    try_bot(data, bot)


# ---------------------------------------------------------------------------------------
# Threads

THREAD_SECONDS = 0.6


def run_threads(workers: Sequence[Callable[[], None]]) -> List[BaseException]:
    """Runs ``workers`` at once, each repeatedly until the time is up; returns what they
    raised that the contract does not allow."""
    stop = time.monotonic() + THREAD_SECONDS
    failures: List[BaseException] = []

    def loop(work: Callable[[], None]) -> None:
        while time.monotonic() < stop:
            try:
                work()
            except DOCUMENTED:
                pass
            except BaseException as error:  # recorded, the test fails below
                failures.append(error)
                return

    threads = [threading.Thread(target=loop, args=(w,)) for w in workers]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return failures


@entry("threads", "threads")
def _threads(data: Data) -> None:
    # Sometimes large enough for the batch's own threads to share each step.
    n = data.draw(st.one_of(st.integers(1, 64), st.just(200)))
    env = agon.VecEnv(n, seed=data.draw(st.integers(0, 99)), axial=data.draw(st.booleans()),
                      threads=data.draw(st.integers(1, 3)), obs_dtype=data.draw(st.sampled_from(["f4", "u1"])),
                      packed_masks=data.draw(st.booleans()))
    game = agon.Game()
    bot = agon.bots.Bot.from_name(data.draw(st.sampled_from(["random", "mcts:20", "alphabeta:1"])))
    out = (np.zeros((n, *env.observation_shape), env.obs_dtype),
           np.zeros((n, *env.mask_shape), np.uint8 if env.packed_masks else bool))
    rng = random.Random(data.draw(st.integers(0, 99)))

    def stepper() -> None:
        env.step(env.random_actions())

    def bad_stepper() -> None:
        env.step(np.full(n, -1))

    def resetter() -> None:
        env.reset(seed=rng.randrange(3), out=out) if rng.random() < 0.1 else env.observe(out=out)

    def reader() -> None:
        i = rng.randrange(n)
        env.game(i)
        env.position(i)

    def player() -> None:
        moves = game.legal_moves()
        if moves and rng.random() < 0.7:
            game.push(rng.choice(moves))
        else:
            game.undo()
        game.to_record()

    def thinker() -> None:
        bot.choose(game)
        bot.choose(env.position(0))

    failures = run_threads([stepper, stepper, bad_stepper, resetter, reader, player, player, thinker])
    assert not failures, failures
    # Afterwards every game of the batch is consistent with its observation and mask.
    obs, masks = env.observe()
    if env.packed_masks:
        masks = agon.unpack_masks(masks)
    for i in range(n):
        position = env.position(i)
        assert np.array_equal(masks[i], position.action_mask())
        assert np.array_equal(obs[i], position.observation(axial=len(env.observation_shape) == 3))
    assert agon.Game.from_record(game.to_record()) == game


# ---------------------------------------------------------------------------------------
# Parsers: linear time


def timed(fn: Callable[[], Any]) -> float:
    best = float("inf")
    for _ in range(3):
        t = time.perf_counter()
        attempt(fn)
        best = min(best, time.perf_counter() - t)
    return best


def long_inputs(size: int) -> Dict[str, Tuple[Callable[[str], Any], str]]:
    """Inputs of about ``size`` bytes that make a parser read all of them."""
    game = agon.Game()
    rng = random.Random(3)
    while not game.is_over():
        game.push(rng.choice(game.legal_moves()))
    record = game.to_record()
    tags = "".join(f'[Tag{i} "value {i}"]\n' for i in range(size // 20)) + "\n*"
    return {
        "record with many tags": (agon.Game.from_record, tags),
        "record with a long tag value": (agon.Game.from_record, '[Event "' + "x" * size + '"]\n\n*'),
        "record with many comments": (agon.Game.from_record, "{c} " * (size // 4) + "*"),
        "long record": (agon.Game.from_record, record * max(1, size // len(record))),
        "record of spaces": (agon.Game.from_record, " " * size + "*"),
        "record of move numbers": (agon.Game.from_record, "1. " * (size // 3)),
        "position text": (agon.Position.from_text, START.replace(",", "," * (size // 14))),
        "position of pieces": (agon.Position.from_text, "Qf1," + "Gf2," * (size // 4) + "/qf11 w"),
        "move text": (agon.Move.parse, "f1-" + "1" * size),
        "cell name": (agon.Cell, "f" + "0" * size),
        "parse_move": (agon.Position().parse_move, "f" + "1" * size + "e1"),
        "bot spec": (agon.bots.Bot.from_name, "mcts:" + "1" * size),
        "result": (lambda t: setattr(agon.Game(), "result", t), "1" * size),
    }


@entry("parsers", "linear-time")
def _linear_time(data: Data) -> None:
    small, large = 25_000, 200_000
    for name, (parse, text) in long_inputs(small).items():
        t_small = timed(lambda: parse(text))
        big = long_inputs(large)[name][1]
        t_large = timed(lambda: parse(big))
        ratio = len(big) / max(1, len(text))
        # Linear: 8 times the input takes about 8 times as long; quadratic would be 64.
        assert t_large < max(0.05, 3 * ratio * t_small), (name, t_small, t_large, ratio)


@entry("parsers", "fuzz-parsers")
def _fuzz_parsers(data: Data) -> None:
    text = data.draw(st.one_of(record_texts(), position_texts(), move_regex, text_with_surrogates,
                               mutated(st.sampled_from(["f1-e1", "f4>l1", "f6", "mcts:500:20ms"]))))
    for parse in (agon.Game.from_record, agon.Position.from_text, agon.Position, agon.Move.parse,
                  agon.Cell, agon.Position().parse_move, agon.move_to_action, agon.Side.from_char,
                  agon.Piece.from_symbol, agon.bots.Bot.from_name):
        ok, value = attempt(lambda: parse(text))
        if not ok and isinstance(value, agon.ParseError):
            assert value.text == text


# ---------------------------------------------------------------------------------------
# Analysis

# Valid arguments of agon.analyse that keep a search short.
ANALYSIS_ARGUMENTS: Dict[str, st.SearchStrategy[Any]] = {
    "time": st.floats(0, 0.02),
    "nodes": st.integers(1, 2000),
    "depth": st.integers(1, 2),
    "multipv": st.integers(1, 3),
    "threads": st.integers(1, 2),
    "hash_mib": st.integers(1, 4),
}


@entry("analysis", "analyse")
def _analyse(data: Data) -> None:
    target = data.draw(mostly(st.one_of(positions(), games(), games(finished=True)), hostile, 8))
    kwargs = {name: data.draw(valid) for name, valid in ANALYSIS_ARGUMENTS.items()
              if data.draw(st.booleans())}
    if data.draw(st.booleans()):
        # One hostile argument; a small limit besides it keeps the search short whatever
        # it is (a valid value of it may be huge).
        name = data.draw(st.sampled_from(sorted(ANALYSIS_ARGUMENTS)))
        kwargs[name] = data.draw(hostile)
        backstop = "depth" if name == "nodes" else "nodes"
        kwargs.setdefault(backstop, data.draw(ANALYSIS_ARGUMENTS[backstop]))
    before = game_state(target) if isinstance(target, agon.Game) else None
    ok, lines = attempt(lambda: agon.analyse(target, **kwargs, **kwargs_maybe(data)))
    if isinstance(target, agon.Game):
        assert game_state(target) == before
    if not ok:
        return
    position = target if isinstance(target, agon.Position) else target.position
    assert isinstance(lines, list) and 1 <= len(lines) <= kwargs.get("multipv", 1)
    assert len({line.move for line in lines}) == len(lines)
    for k, line in enumerate(lines):
        assert line.multipv == k + 1 and line.pv[0] == line.move
        agon.Game(position, line.pv)  # a legal sequence
        assert isinstance(line.score, agon.Score) and line.nodes >= 1


def score_values() -> st.SearchStrategy[Any]:
    return st.one_of(
        st.integers(-(2**31), 2**31 - 1).map(lambda cp: agon.Score(cp=cp)),
        st.integers(1, 2**32 - 1).map(lambda n: agon.Score(win_in=n)),
        st.integers(1, 2**32 - 1).map(lambda n: agon.Score(loss_in=n)),
    )


properties("analysis", "Score", score_values(), ["cp", "win_in", "loss_in"])
protocol("analysis", "Score", score_values())


@entry("analysis", "Score")
def _score(data: Data) -> None:
    args = data.draw(st.one_of(st.just(()), st.lists(st.one_of(st.none(), any_int, hostile), max_size=4).map(tuple)))
    kwargs = {name: data.draw(mostly(st.integers(-3, 10), st.one_of(any_int, hostile)))
              for name in ("cp", "win_in", "loss_in") if data.draw(st.booleans())}
    ok, score = attempt(lambda: agon.Score(*args, **kwargs))
    if ok:
        parts = (score.cp, score.win_in, score.loss_in)
        assert sum(p is not None for p in parts) == 1
        assert agon.Score(*parts) == score and score.win_in != 0 and score.loss_in != 0


ANALYSIS_LINES = (
    agon.analyse(agon.Position(), depth=2, multipv=3)
    + agon.analyse(agon.Position(THRONE_IN_ONE), depth=1)
    + agon.analyse(agon.Position(), nodes=1)
    + agon.analyse(agon.Position(CAPTURE).play("f1-e1"), depth=1, multipv=2)
)
analysis_lines = st.sampled_from(ANALYSIS_LINES)
properties("analysis", "AnalysisLine", analysis_lines,
           ["move", "score", "pv", "multipv", "depth", "seldepth", "nodes", "nps", "time"])
protocol("analysis", "AnalysisLine", analysis_lines)


@entry("analysis", "AnalysisLine")
def _analysis_line(data: Data) -> None:
    args = data.draw(st.lists(hostile, max_size=2))
    ok, _ = attempt(lambda: agon.AnalysisLine(*args))
    assert not ok  # made by analyse only


# ---------------------------------------------------------------------------------------
# Review


@entry("analysis", "review")
def _review(data: Data) -> None:
    target = data.draw(mostly(st.one_of(games(), games(finished=True)), hostile, 8))
    # A small budget: a finished game has hundreds of positions to search.
    nodes = data.draw(mostly(st.integers(1, 40), st.one_of(any_int, hostile)))
    kwargs = {"nodes": nodes} if data.draw(st.booleans()) else {"nodes": 20}
    before = game_state(target) if isinstance(target, agon.Game) else None
    ok, review = attempt(lambda: agon.review(target, **kwargs, **kwargs_maybe(data)))
    if isinstance(target, agon.Game):
        assert game_state(target) == before
    if not ok:
        return
    assert len(review) == len(review.plies) == len(target.moves)
    assert len(review.positions) == len(target.moves) + 1
    for ply in review.plies:
        assert 0.0 <= ply.after <= 1.0 and 0.0 <= ply.loss <= ply.before <= 1.0
        assert ply.judgement in (None, "inaccuracy", "mistake", "blunder")


def review_values() -> st.SearchStrategy[Any]:
    return st.sampled_from(REVIEWS)


REVIEWS = [
    agon.review(agon.Game(agon.Position(START), ["f1-e1", "f11-g10"]), nodes=200),
    agon.review(agon.Game(agon.Position(THRONE_IN_ONE)), nodes=200),
    agon.review(agon.Game(agon.Position(CAPTURE), ["f1-e1"]), nodes=200),
]
properties("analysis", "Review", review_values(), ["nodes", "positions", "plies"])
protocol("analysis", "Review", review_values())
REVIEW_POSITIONS = [p for r in REVIEWS for p in r.positions]
properties("analysis", "ReviewPosition", st.sampled_from(REVIEW_POSITIONS), ["side", "score", "best", "pv", "white"])
protocol("analysis", "ReviewPosition", st.sampled_from(REVIEW_POSITIONS))
REVIEW_PLIES = [p for r in REVIEWS for p in r.plies]
properties("analysis", "ReviewPly", st.sampled_from(REVIEW_PLIES),
           ["ply", "side", "move", "best", "before", "after", "loss", "judgement"])
protocol("analysis", "ReviewPly", st.sampled_from(REVIEW_PLIES))


@entry("analysis", "Review._repr_svg_")
def _review_svg(data: Data) -> None:
    review = data.draw(review_values())
    text = review._repr_svg_()
    assert text.startswith("<svg") and text.endswith("</svg>")
    assert text.count('class="mark ') == sum(p.judgement is not None for p in review.plies)


@entry("analysis", "Review.tally")
def _review_tally(data: Data) -> None:
    review = data.draw(review_values())
    side = data.draw(mostly(st.sampled_from([agon.WHITE, agon.BLACK]), hostile, 4))
    ok, tally = attempt(lambda: review.tally(side))
    if ok:
        assert set(tally) == {"actions", "inaccuracies", "mistakes", "blunders", "mean_loss"}
        assert tally["inaccuracies"] + tally["mistakes"] + tally["blunders"] <= tally["actions"]


@entry("analysis", "Review", "ReviewPosition", "ReviewPly")
def _review_constructors(data: Data) -> None:
    args = data.draw(st.lists(hostile, max_size=2))
    for cls in (agon.Review, agon.ReviewPosition, agon.ReviewPly):
        ok, _ = attempt(lambda: cls(*args))
        assert not ok  # made by review only


# ---------------------------------------------------------------------------------------
# Coverage and running


def public_entry_points() -> List[str]:
    """Every public callable of the package: the functions and classes of ``agon.__all__``
    and ``agon.bots.__all__``, the public methods and properties of the classes, and the
    Python protocol methods they define."""
    found: List[str] = []
    for module, prefix in ((agon, ""), (agon.bots, "bots.")):
        for name in module.__all__:
            obj = getattr(module, name)
            if isinstance(obj, type):
                found.append(prefix + name)
                if issubclass(obj, BaseException):
                    continue  # their attributes are data, checked on every error
                for attr in vars(obj):
                    public = not attr.startswith("_") and not attr.isupper()  # not enum members
                    if public or attr == "_repr_svg_" or attr in PROTOCOL:
                        found.append(f"{prefix}{name}.{attr}")
            elif callable(obj):
                found.append(prefix + name)
    return sorted(set(found))


GROUPS = sorted({group for group, _ in ENTRIES.values()})


def run_entry(name: str, examples: Optional[int] = None) -> None:
    _, exercise = ENTRIES[name]

    def test(data: Data) -> None:
        exercise(data)

    test.__name__ = test.__qualname__ = "hostile_" + re.sub(r"\W", "_", name)
    configured = settings(max_examples=examples) if examples else settings()
    configured(given(st.data())(test))()


# Entries whose every example runs a lot of work: fewer examples.
HEAVY = {"threads": 3, "linear-time": 1, "bots.MCTS": 10, "bots.AlphaBeta": 10,
         "bots.Bot.from_name": 15, "bots.Bot.choose": 12, "bots.MCTS.choose_with_stats": 12,
         "bots.AlphaBeta.choose_with_stats": 12,
         "analyse": 15, "fuzz-parsers": 60}


def run_group(group: str) -> None:
    failed: List[str] = []
    for name, (g, _) in sorted(ENTRIES.items()):
        if g != group:
            continue
        started = time.monotonic()
        try:
            run_entry(name, HEAVY.get(name))
        except BaseException as error:
            failed.append(name)
            report = "".join(traceback.format_exception(type(error), error, error.__traceback__))
            if len(report) > 8000:
                report = report[:4000] + "\n[...]\n" + report[-4000:]
            print(f"FAILED {name}:\n{report}", file=sys.stderr)
        print(f"{name}: {time.monotonic() - started:.2f}s", file=sys.stderr)
    if failed:
        raise SystemExit(f"{len(failed)} entry points broke the contract: {failed}")


if __name__ == "__main__":
    run_group(sys.argv[1])
