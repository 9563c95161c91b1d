"""Benchmark of the Python bindings: prints figures, asserts nothing.

Run from the repository root after installing the package:

    python agon-py/bench.py [--quick]

Targets on the reference machine (one thread): ``legal_moves()`` under 2 us per call,
``play()`` under 0.5 us per call, and ``VecEnv(1024)`` writing observations and masks at
500,000 steps per second or more.
"""

from __future__ import annotations

import argparse
import sys
import time
from typing import Callable, List, Tuple

import numpy as np

import agon

MIDGAME = agon.Game(
    moves=["f1-f2", "f11-f10", "a5-b5", "a2-b3", "k1-k2", "l2-k3", "d9-d8", "b7-c7"]
).position


def per_call(fn: Callable[[], object], seconds: float) -> Tuple[float, int]:
    """Seconds per call of ``fn``: the best of a few timed batches."""
    calls = 1
    while True:  # find a batch that takes about 50 ms
        t = time.perf_counter()
        for _ in range(calls):
            fn()
        if time.perf_counter() - t > 0.05:
            break
        calls *= 2
    best = float("inf")
    deadline = time.perf_counter() + seconds
    total = 0
    while time.perf_counter() < deadline or total == 0:
        t = time.perf_counter()
        for _ in range(calls):
            fn()
        best = min(best, (time.perf_counter() - t) / calls)
        total += calls
    return best, total


def line(name: str, value: str, target: str = "", ok: bool = True) -> None:
    verdict = "" if not target else ("  ok" if ok else "  MISSED")
    print(f"{name:<46} {value:>18}  {target}{verdict}")


def bench_calls(seconds: float) -> None:
    start = agon.Position()
    m = agon.Move.parse("f1-e1")
    cases: List[Tuple[str, Callable[[], object], float]] = [
        ("Position.legal_moves() (start, 27 moves)", start.legal_moves, 2e-6),
        (f"Position.legal_moves() (midgame, {len(MIDGAME.legal_moves())} moves)",
         MIDGAME.legal_moves, 2e-6),
        ("Position.play(Move)", lambda: start.play(m), 0.5e-6),
        ("Position.play('f1-e1') (text parsed)", lambda: start.play("f1-e1"), 0.0),
        ("Position.is_legal(Move)", lambda: start.is_legal(m), 0.0),
        ("Position.legal_actions()", start.legal_actions, 0.0),
        ("Position.action_mask()", start.action_mask, 0.0),
        ("Position.observation()", start.observation, 0.0),
        ("Position.zobrist_hash", lambda: start.zobrist_hash, 0.0),
        ("Position.to_text()", start.to_text, 0.0),
        ("Position(text)", lambda: agon.Position(agon.STARTING_TEXT), 0.0),
    ]
    for name, fn, target in cases:
        seconds_per_call, _ = per_call(fn, seconds)
        us = seconds_per_call * 1e6
        if target:
            line(name, f"{us:.3f} us/call", f"(target < {target * 1e6:g} us)", seconds_per_call < target)
        else:
            line(name, f"{us:.3f} us/call")
    game = agon.Game()
    moves = [agon.Move.parse(t) for t in ["f1-e1", "f11-g10", "e1-f1", "g10-f11"]]

    def push_pop() -> None:
        game.push(moves[0])
        game.pop()

    seconds_per_call, _ = per_call(push_pop, seconds)
    line("Game.push(Move) + Game.pop()", f"{seconds_per_call * 1e6:.3f} us/pair")


def bench_vecenv(n: int, rounds: int, steps: int) -> None:
    """Steps per second of ``VecEnv(n)``: the best of ``rounds`` rounds of ``steps`` calls
    (the best round is the figure least disturbed by other work on the machine)."""
    for axial in (False, True):
        env = agon.VecEnv(n, seed=1, axial=axial)
        env.reset()
        out = (
            np.empty((n, *env.observation_shape), dtype=np.float32),
            np.empty(n, dtype=np.float32),
            np.empty(n, dtype=bool),
            np.empty((n, agon.ACTION_COUNT), dtype=bool),
        )
        best = best_with_sampling = 0.0
        finished = 0
        for _ in range(rounds):
            stepping = sampling = 0.0
            for _ in range(steps):
                t0 = time.perf_counter()
                actions = env.random_actions()
                t1 = time.perf_counter()
                _, _, terms, _ = env.step(actions, out=out)
                t2 = time.perf_counter()
                sampling += t1 - t0
                stepping += t2 - t1
                finished += int(terms.sum())
            best = max(best, n * steps / stepping)
            best_with_sampling = max(best_with_sampling, n * steps / (stepping + sampling))
        layout = "(C, 11, 11)" if axial else "(C, 91)"
        line(f"VecEnv({n}).step(out=...) obs {layout}", f"{best:,.0f} steps/s",
             "(target >= 500,000)", best >= 500_000)
        line("  with random_actions() each step", f"{best_with_sampling:,.0f} steps/s")
        line(f"  games finished in {n * steps * rounds:,} steps", f"{finished:,}")
        if not axial:
            best = 0.0
            for _ in range(rounds):
                t = time.perf_counter()
                for _ in range(max(1, steps // 4)):
                    env.step(env.random_actions())
                best = max(best, n * max(1, steps // 4) / (time.perf_counter() - t))
            line(f"VecEnv({n}).step() new arrays, with sampling", f"{best:,.0f} steps/s")


def bench_throughput(depth: int, games: int) -> None:
    start = agon.Position()
    t = time.perf_counter()
    leaves = agon.perft(start, depth)
    dt = time.perf_counter() - t
    line(f"agon.perft(start, {depth}) = {leaves:,}", f"{leaves / dt:,.0f} leaves/s")
    t = time.perf_counter()
    stats = agon.random_playouts(games, seed=1)
    dt = time.perf_counter() - t
    line(f"agon.random_playouts({games})", f"{games / dt:,.0f} games/s")
    line(f"  plies per second (mean {stats['plies_mean']:.1f} per game)",
         f"{stats['plies'] / dt:,.0f} plies/s")
    line("  white / black / draws",
         f"{stats['white_wins']} / {stats['black_wins']} / {stats['draws']}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="shorter runs (for a smoke test)")
    args = parser.parse_args()
    quick: bool = args.quick
    print(f"agon {agon.__version__}, Python {sys.version.split()[0]}, numpy {np.__version__}")
    bench_calls(0.05 if quick else 0.5)
    bench_vecenv(1024, 3 if quick else 8, 10 if quick else 50)
    bench_throughput(4 if quick else 5, 50 if quick else 1000)
    return 0


if __name__ == "__main__":
    sys.exit(main())
