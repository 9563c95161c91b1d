"""The hostile-input suite: the contract of the package docstring ("Contract"), checked.

- Every group of entry points of ``hostile_cases.py`` (property-based tests with
  Hypothesis over every public function, method, property and protocol method) runs in
  its own Python process: a crash, an abort or a hang is one failing test with its
  output, not the end of the run.
- A test fails if a public callable appears that the suite does not exercise.
- Every bug the suite found has a regression test below, also run in its own process
  (several of them used to kill the interpreter).
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Dict, List

import pytest

import agon
import agon.bots
import hostile_cases

TESTS = Path(__file__).resolve().parent
GROUP_TIMEOUT = 300
SNIPPET_TIMEOUT = 120


def run_isolated(args: List[str], timeout: float) -> subprocess.CompletedProcess[str]:
    """Runs ``python ARGS`` in the tests directory; a hang is a failure, not a stuck run."""
    env = dict(os.environ, PYTHONFAULTHANDLER="1", RUST_BACKTRACE="1")
    try:
        return subprocess.run(
            [sys.executable, *args],
            cwd=TESTS,
            env=env,
            capture_output=True,
            text=True,
            timeout=timeout,
        )
    except subprocess.TimeoutExpired as error:
        output = error.stderr.decode(errors="replace") if isinstance(error.stderr, bytes) else error.stderr
        pytest.fail(f"hung: no answer within {timeout} s\n{(output or '')[-4000:]}")


def assert_survived(proc: subprocess.CompletedProcess[str], what: str) -> None:
    if proc.returncode == 0:
        return
    if proc.returncode < 0:
        how = f"killed by {signal.Signals(-proc.returncode).name}"
    else:
        how = f"exit status {proc.returncode}"
    pytest.fail(f"{what}: {how}\n--- stdout\n{proc.stdout[-3000:]}\n--- stderr\n{proc.stderr[-8000:]}")


def test_every_public_entry_point_is_covered() -> None:
    public = hostile_cases.public_entry_points()
    missing = [name for name in public if name not in hostile_cases.ENTRIES]
    assert not missing, f"public callables without a hostile-input exerciser: {missing}"
    # The introspection itself sees what it should.
    for name in ["VecEnv.step", "Game.push", "Position.perft_divide", "svg", "bots.MCTS",
                 "bots.Bot.from_name", "Cell.__index__", "Game.__setstate__"]:
        assert name in public


def test_bounds_are_documented() -> None:
    """Every bound is a module constant, in the stubs, in the README, and in the package
    docstring's contract with its value."""
    bounds = sorted(n for n in agon.__all__ if n.startswith("MAX_") and n not in ("MAX_LEGAL_MOVES", "MAX_ACTION_COUNT", "MAX_GAME_PLIES"))
    assert bounds == ["MAX_ARROWS", "MAX_DEPTH", "MAX_ENVS", "MAX_PERFT_DEPTH", "MAX_PLAYOUTS",
                      "MAX_RANDOM_PLAYOUTS", "MAX_SVG_SIZE", "MAX_TIME_LIMIT"]
    readme = (TESTS.parent / "README.md").read_text()
    stub = (TESTS.parent / "python" / "agon" / "_agon.pyi").read_text()
    doc = agon.__doc__ or ""
    documented = {
        name: value for name, value in re.findall(r"``(MAX_\w+)`` = ([0-9*]+)", doc)
    }
    for name in bounds:
        assert f"\n{name}: " in stub and f"agon.{name}" in readme, name
        base, _, power = documented[name].partition("**")
        assert getattr(agon, name) == (int(base) ** int(power) if power else int(base)), name
    for name in ("MAX_PLAYOUTS", "MAX_DEPTH", "MAX_TIME_LIMIT"):
        assert getattr(agon.bots, name) == getattr(agon, name)


@pytest.mark.parametrize("group", hostile_cases.GROUPS)
def test_hostile_inputs(group: str) -> None:
    proc = run_isolated(["hostile_cases.py", group], GROUP_TIMEOUT)
    assert_survived(proc, f"hostile inputs, group {group!r}")


# ---------------------------------------------------------------------------------------
# Regressions: each snippet runs in a fresh interpreter, with `raises` and `agon` at hand.

PRELUDE = """
import gc, itertools, sys, threading, time, types
import numpy as np
import agon, agon.bots

def raises(kind, call):
    try:
        call()
    except kind as error:
        return error
    raise AssertionError(f"expected {kind.__name__}")

class LyingSequence(__import__("collections.abc").abc.Sequence):
    def __init__(self, item, count):
        self.item, self.count = item, count
    def __len__(self):
        return 2**62
    def __getitem__(self, i):
        if 0 <= i < self.count:
            return self.item
        raise IndexError(i)

def env_state(env):
    return ([(env.game(i).start, env.game(i).moves) for i in range(len(env))],
            [a.tobytes() for a in env.observe()])
"""

REGRESSIONS: Dict[str, str] = {
    # VecEnv(n) with a huge n aborted the interpreter (a failed allocation of hundreds of
    # gigabytes) or raised PanicException (capacity overflow).
    "vecenv_huge_n": """
        for n in [2**31, 2**40, 10**18, agon.MAX_ENVS + 1, 0, -1]:
            error = raises(ValueError, lambda: agon.VecEnv(n))
            assert "MAX_ENVS" in str(error), error
        raises(OverflowError, lambda: agon.VecEnv(2**70))
        assert len(agon.VecEnv(agon.MAX_ENVS)) == agon.MAX_ENVS
    """,
    # perft with a huge depth overflowed the stack: a segmentation fault.
    "perft_deep": """
        for depth in [100_000, 2**31, agon.MAX_PERFT_DEPTH + 1, -1]:
            raises(ValueError, lambda: agon.perft(agon.Position(), depth))
            raises(ValueError, lambda: agon.Position().perft(depth))
            raises(ValueError, lambda: agon.Position().perft_divide(depth))
    """,
    # perft_divide(0) gave each legal move 1 leaf, summing to 27, where perft(0) is 1.
    "perft_divide_zero": """
        start = agon.Position()
        raises(ValueError, lambda: start.perft_divide(0))
        assert start.perft(0) == agon.perft(start, 0) == 1
        for depth in (1, 2, 3):
            assert sum(start.perft_divide(depth).values()) == start.perft(depth)
    """,
    # A bot with a huge time limit panicked (`Instant + Duration` overflow) and was
    # unusable afterwards; absurd limits in specs were accepted.
    "bot_time_limit": """
        for limit in [1.8e19, 1e18, agon.MAX_TIME_LIMIT + 1, -1.0, float("nan"), float("inf")]:
            raises(ValueError, lambda: agon.bots.AlphaBeta(time_limit=limit))
            raises(ValueError, lambda: agon.bots.MCTS(time_limit=limit))
        raises(OverflowError, lambda: agon.bots.MCTS(time_limit=10**400))
        for spec in ["alphabeta:2:18446744073709551615ms", "mcts:5:86400001ms"]:
            raises(ValueError, lambda: agon.bots.Bot.from_name(spec))
        bot = agon.bots.AlphaBeta(depth=2, time_limit=agon.MAX_TIME_LIMIT)
        assert agon.Position().is_legal(bot.choose(agon.Position()))
        assert agon.bots.Bot.from_name("mcts:50:86400000ms").name == "mcts:50:86400000ms"
    """,
    # Budgets were silently clamped (MCTS(0) ran 1 playout, AlphaBeta(10**9) depth 64) and
    # a bool was taken for a number of seconds.
    "bot_budgets": """
        for playouts in [0, -1, agon.MAX_PLAYOUTS + 1, 2**32]:
            raises(ValueError, lambda: agon.bots.MCTS(playouts))
            raises(ValueError, lambda: agon.bots.Bot.from_name(f"mcts:{playouts}"))
        for depth in [0, -1, agon.MAX_DEPTH + 1, 10**9]:
            raises(ValueError, lambda: agon.bots.AlphaBeta(depth))
        raises(TypeError, lambda: agon.bots.MCTS(time_limit=True))
        raises(TypeError, lambda: agon.bots.MCTS(playouts=True))
        raises(OverflowError, lambda: agon.bots.Random(seed=-1))
        assert agon.bots.MCTS(agon.MAX_PLAYOUTS, time_limit=0.01).name.startswith("mcts:1000000")
        assert agon.bots.AlphaBeta(agon.MAX_DEPTH, time_limit=0.01).choose(agon.Position())
    """,
    # step() converted anything to int64: floats truncated, strings of digits, complex
    # numbers, datetimes, bools, and masked arrays (mask ignored) were played as actions.
    "step_coercions": """
        env, twin = agon.VecEnv(2, seed=3), agon.VecEnv(2, seed=3)
        legal = [agon.move_to_action("f1-e1")] * 2
        for actions in [
            np.array(legal, dtype=np.float64), [float(a) for a in legal], [str(a) for a in legal],
            np.array(legal, dtype=np.complex128), np.array(legal, dtype="datetime64[s]"),
            np.array(legal, dtype="timedelta64[s]"), np.array([True, False]),
            np.array(legal, dtype=object), np.ma.masked_array(legal, mask=[True, False]),
            np.array([str(a) for a in legal]), np.array([str(a).encode() for a in legal]),
            "%d %d" % tuple(legal),
        ]:
            error = raises(TypeError, lambda: env.step(actions))
            assert "actions" in str(error), error
            assert env_state(env) == env_state(twin)
        for actions in [np.array(legal).reshape(2, 1), legal[:1], np.int64(legal[0])]:
            raises(ValueError, lambda: env.step(actions))
        assert env_state(env) == env_state(twin)
        assert np.array_equal(env.random_actions(), twin.random_actions())
        # Every integer form is played exactly.
        for dtype in [np.int16, np.int32, np.int64, np.uint16, np.uint32, np.uint64, ">i8", "<u4"]:
            game = agon.VecEnv(2)
            game.step(np.array(legal, dtype=dtype))
            assert game.position(0) == agon.Position().play("f1-e1")
        agon.VecEnv(2).step(legal)
        agon.VecEnv(2).step(np.array(legal * 2)[::2])
        error = raises(agon.IllegalMoveError, lambda: agon.VecEnv(2).step(np.array([legal[0], 2**64 - 1], dtype=np.uint64)))
        assert (error.env, error.action, error.reason) == (1, 2**64 - 1, "no-such-action")
    """,
    # reset(seed, out=...) with a wrong out array raised, but had already restarted every
    # game and reseeded the generator.
    "reset_bad_out": """
        env, twin = agon.VecEnv(3, seed=1), agon.VecEnv(3, seed=1)
        for e in (env, twin):
            e.step(np.array([agon.move_to_action("f1-e1")] * 3))
        good_obs = np.zeros((3, 11, 91), np.float32)
        for out in [(np.zeros((3, 11, 91), np.float64), np.zeros((3, agon.ACTION_COUNT), bool)),
                    (good_obs, np.zeros((3, agon.ACTION_COUNT), np.uint8)),
                    (good_obs, np.zeros((3, agon.ACTION_COUNT), bool)[:, ::-1]),
                    (good_obs,), [good_obs, np.zeros((3, agon.ACTION_COUNT), bool)]]:
            raises((TypeError, ValueError), lambda: env.reset(seed=99, out=out))
            assert env_state(env) == env_state(twin)
            assert not good_obs.any(), "a failed reset wrote into out"
        assert np.array_equal(env.random_actions(), twin.random_actions())
    """,
    # Output arrays are checked, all of them, before anything is written; two outputs over
    # the same memory (without a common base array) used to be accepted and written.
    "step_out_checked_first": """
        n = 2
        env, twin = agon.VecEnv(n), agon.VecEnv(n)
        actions = np.array([agon.move_to_action("f1-e1")] * n)
        obs = np.full((n, 11, 91), 7, np.float32)
        rewards = np.full(n, 7, np.float32)
        terms = np.zeros(n, bool)
        readonly = np.zeros((n, agon.ACTION_COUNT), bool)
        readonly.setflags(write=False)
        raises(ValueError, lambda: env.step(actions, out=(obs, rewards, terms, readonly)))
        assert (obs == 7).all() and (rewards == 7).all() and env_state(env) == env_state(twin)
        buffer = bytearray(n * agon.ACTION_COUNT)
        shared_terms = np.frombuffer(memoryview(buffer), dtype=bool, count=n)
        shared_masks = np.frombuffer(memoryview(buffer), dtype=bool).reshape(n, agon.ACTION_COUNT)
        error = raises(ValueError, lambda: env.step(actions, out=(obs, rewards, shared_terms, shared_masks)))
        assert "share memory" in str(error)
        # Actions read in place may not share the outputs' memory either.
        buffer = bytearray(n * 11 * 91 * 4)
        aliased_obs = np.frombuffer(memoryview(buffer), dtype=np.float32).reshape(n, 11, 91)
        aliased_actions = np.frombuffer(memoryview(buffer), dtype=np.int64, count=n)
        error = raises(ValueError, lambda: env.step(aliased_actions, out=(aliased_obs, rewards, terms, np.zeros((n, agon.ACTION_COUNT), bool))))
        assert "share memory" in str(error)
        raises(TypeError, lambda: env.step(actions, out=(obs, rewards, terms, np.ma.masked_array(np.zeros((n, agon.ACTION_COUNT), bool)))))
        assert (obs == 7).all() and env_state(env) == env_state(twin)
    """,
    # Threads sharing a VecEnv got RuntimeError("Already mutably borrowed") while another
    # thread's step ran without the GIL; now calls take turns.
    "vecenv_threads": """
        env = agon.VecEnv(256, seed=1)
        errors = []
        stop = time.monotonic() + 1.0
        def work(call):
            while time.monotonic() < stop:
                try:
                    call()
                except BaseException as error:
                    errors.append(repr(error))
                    return
        calls = [lambda: env.step(env.random_actions()), lambda: env.step(env.random_actions()),
                 lambda: (env.position(0), env.game(1), env.observe()), lambda: env.reset(seed=1)]
        threads = [threading.Thread(target=work, args=(c,)) for c in calls]
        [t.start() for t in threads]
        [t.join() for t in threads]
        assert not errors, errors[:3]
        obs, masks = env.observe()
        assert all(np.array_equal(masks[i], env.position(i).action_mask()) for i in range(256))
    """,
    # Threads sharing a Game got RuntimeError("Already mutably borrowed") when one thread
    # ran Python code (a collection's finalisers) in the middle of a call.
    "game_threads": """
        import random
        game = agon.Game()
        errors = []
        stop = time.monotonic() + 1.0
        def work(seed):
            rng = random.Random(seed)
            while time.monotonic() < stop:
                try:
                    moves = game.legal_moves()
                    if moves and rng.random() < 0.6:
                        game.push(rng.choice(moves))
                    else:
                        game.undo()
                    game.to_record(); game == game.copy(); game.positions
                    agon.bots.Random(seed).choose(game)
                except agon.IllegalMoveError:
                    pass  # another thread moved first
                except BaseException as error:
                    errors.append(repr(error))
                    return
        threads = [threading.Thread(target=work, args=(s,)) for s in range(6)]
        [t.start() for t in threads]
        [t.join() for t in threads]
        assert not errors, errors[:3]
        assert agon.Game.from_record(game.to_record()) == game
    """,
    # A callback of the caller's that used the same Game during argument reading got
    # RuntimeError("Already borrowed"); arguments are now read before the game is used.
    "game_reentrant_callbacks": """
        game = agon.Game()
        class Sneaky:
            def __index__(self):
                game.push("f1-e1")
                return agon.move_to_action("f11-g10")
        game.push_action(Sneaky())
        assert [str(m) for m in game.moves] == ["f1-e1", "f11-g10"]
        env = agon.VecEnv(1)
        class Array:
            def __array__(self, dtype=None, copy=None):
                env.step([agon.move_to_action("f1-e1")])
                return np.array([agon.move_to_action("f11-g10")])
        env.step(Array())
        assert [str(m) for m in env.game(0).moves] == ["f1-e1", "f11-g10"]
    """,
    # A finaliser that uses a game in the middle of a call on it gets RuntimeError (the
    # documented case), never a deadlock, and the outer call is unaffected.
    "game_finaliser_reentry": """
        game = agon.Game()
        seen = []
        class Cycle:
            def __init__(self):
                self.me = self
            def __del__(self):
                try:
                    seen.append(len(game.legal_moves()))
                except RuntimeError as error:
                    seen.append("RuntimeError")
        gc.set_threshold(1)
        for _ in range(300):
            Cycle()
            raises(agon.ParseError, lambda: game.push("zz"))
            game.push("f1-e1"); game.pop()
        gc.set_threshold(700)
        gc.collect()
        assert seen and all(s == "RuntimeError" or isinstance(s, int) for s in seen), set(seen)
        assert game.moves == [] and len(game.legal_moves()) == 27
    """,
    # Sequences that claim a huge length made the bindings reserve it: PanicException
    # (capacity overflow) for Game(moves=...), an abort for from_pieces(captured=...).
    "lying_sequences": """
        game = agon.Game(moves=LyingSequence("f1-e1", 1))
        assert [str(m) for m in game.moves] == ["f1-e1"]
        pieces = {str(c): p.symbol for c, p in agon.Position().pieces().items()}
        raises(ValueError, lambda: agon.Position.from_pieces(pieces, captured=LyingSequence("f1", 200)))
        raises(ValueError, lambda: agon.Position.from_pieces(pieces, captured=itertools.repeat("f1")))
        assert agon.Game(moves=iter(["f1-e1"])).ply == 1
        raises(agon.IllegalMoveError, lambda: agon.Game(moves=itertools.cycle(["f1-e1", "f11-g10", "e1-f1", "g10-f11"])))
    """,
    # An endless iterable of arrows ran until memory ran out.
    "endless_arrows": """
        error = raises(ValueError, lambda: agon.svg(agon.Position(), arrows=itertools.repeat("f1-e1")))
        assert "MAX_ARROWS" in str(error)
        agon.svg(agon.Position(), arrows=["f1-e1"] * agon.MAX_ARROWS)
    """,
    # __setstate__ with a bad result replaced the tags, then raised.
    "setstate_changes_nothing": """
        game = agon.Game()
        game.tags["Event"] = "kept"
        raises(ValueError, lambda: game.__setstate__(({"Event": "new"}, "2-0")))
        assert game.tags == {"Event": "kept"}
    """,
    # bool was taken for an int (Cell(True) was a2, push_action(True) played action 1);
    # numpy integers were refused as cell indices and picture sizes.
    "bools_and_numpy_ints": """
        for call in [lambda: agon.Cell(True), lambda: agon.Game().push_action(True),
                     lambda: agon.VecEnv(True), lambda: agon.Symmetry(True),
                     lambda: agon.perft(agon.Position(), True), lambda: agon.Cell("f6").neighbour(True),
                     lambda: agon.random_playouts(True), lambda: agon.VecEnv(1).position(False)]:
            raises(TypeError, call)
        assert agon.Cell(np.int64(5)) == agon.Cell(5) == agon.Cell(np.uint8(5))
        assert agon.svg(agon.Position(), size=np.int64(100)).startswith("<svg")
        assert agon.VecEnv(np.int32(2)).position(np.int64(1)) == agon.Position()
        raises(IndexError, lambda: agon.VecEnv(2).position(-1))
        raises(IndexError, lambda: agon.VecEnv(2).game(2))
    """,
    # IllegalMoveError.env/.action and ParseError.move_reason/.position_reason existed
    # only on some instances: AttributeError for the others.
    "exception_attributes": """
        error = raises(agon.IllegalMoveError, lambda: agon.Position().play("f1-f3"))
        assert (error.env, error.action, error.move, error.reason) == (None, None, "f1-f3", "not-adjacent")
        error = raises(agon.ParseError, lambda: agon.Cell("z9"))
        assert (error.move_reason, error.position_reason) == (None, None)
        assert agon.InvalidPositionError("made by hand").reason == ""
    """,
    # A parse error quoted its whole input: a 10 MB text made a 10 MB message.
    "long_input_message": """
        text = "x" * 10**7
        error = raises(agon.ParseError, lambda: agon.Position(text))
        assert len(str(error)) < 300 and error.text == text
        raises(agon.ParseError, lambda: agon.Game.from_record(text))
    """,
    # A huge int in a message could not be printed: "Exception ignored" on stderr.
    "huge_int_in_message": """
        raises(ValueError, lambda: agon.Cell(10**5000))
        raises(ValueError, lambda: agon.svg(agon.Position(), size=10**5000))
    """,
    # random_playouts had no bound on its count; MCTS playouts none below 2**32.
    "random_playouts_bound": """
        for n in [agon.MAX_RANDOM_PLAYOUTS + 1, -1, 2**62]:
            raises(ValueError, lambda: agon.random_playouts(n))
        raises(OverflowError, lambda: agon.random_playouts(2**63))
        assert agon.random_playouts(0)["games"] == 0
    """,
    # from_pieces refused mappings that are not dicts, though its stub takes a Mapping.
    "from_pieces_mapping": """
        pieces = {str(c): p.symbol for c, p in agon.Position().pieces().items()}
        assert agon.Position.from_pieces(types.MappingProxyType(pieces)) == agon.Position()
        raises(ValueError, lambda: agon.Position.from_pieces(dict.fromkeys(range(92), "G")))
    """,
    # Reading a record was quadratic in its number of tags (fixed in agon-core); the
    # Python entry point must stay linear.
    "record_tags_linear": """
        text = "".join(f'[Tag{i} "value"]\\n' for i in range(60_000)) + "\\n*"
        started = time.perf_counter()
        game = agon.Game.from_record(text)
        assert len(game.tags) == 60_000
        assert time.perf_counter() - started < 5, time.perf_counter() - started
    """,
}


@pytest.mark.parametrize("name", sorted(REGRESSIONS))
def test_regression(name: str) -> None:
    code = PRELUDE + textwrap.dedent(REGRESSIONS[name])
    proc = run_isolated(["-c", code], SNIPPET_TIMEOUT)
    assert_survived(proc, f"regression {name}")
    assert "Exception ignored" not in proc.stderr, proc.stderr[-3000:]
