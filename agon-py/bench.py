"""Benchmark of the Python bindings: prints figures, asserts nothing.

Run from the repository root after installing the package:

    python agon-py/bench.py [--quick]

Targets on the reference machine (2 cores): ``legal_moves()`` under 2 us per call,
``play()`` under 0.5 us per call, ``VecEnv(1024)`` writing observations and masks at
500,000 steps per second or more on one thread; at training scale, ``VecEnv(8192)`` on 2
threads at 3,000,000 steps per second or more with compact outputs (uint8 observations,
bit-packed masks) and 1,500,000 with float32 observations and bool masks, a thread's rate
at n=8192 within 20% of its rate at n=256, and ``random_playouts`` on 2 threads within 10%
of twice its rate on one. A step is one action in one game, with ``random_actions()``
drawing the actions; the figure of each case is the best of several rounds (the one least
disturbed by other work on the machine), with the median and the steps per second of CPU
time beside it (on a busy machine, the closest to what a thread does with a core to
itself). The load average is printed at the start and the end.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from typing import Callable, Dict, List, Tuple

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


def line(name: str, value: str, target: str = "", ok: bool = True, note: str = "") -> None:
    """One figure; with a target, whether it is met; a note after it."""
    verdict = "" if not target else ("  ok" if ok else "  MISSED")
    print(f"{name:<46} {value:>18}  {target}{verdict}{note}")


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


def vecenv_rates(n: int, rounds: int, seconds: float, threads: int, compact: bool,
                 axial: bool = False) -> Tuple[float, float, float, float]:
    """Steps per second of ``VecEnv(n)`` stepping into the caller's arrays with random
    actions: the best and the median of ``rounds`` rounds of about ``seconds`` each, the
    best without the time of ``random_actions()``, and the steps per second of CPU time of
    the process over all rounds (what a thread does with a core to itself: the figure
    least disturbed by other work on the machine)."""
    env = agon.VecEnv(n, seed=1, axial=axial, threads=threads,
                      obs_dtype=np.uint8 if compact else np.float32, packed_masks=compact)
    env.reset()
    out = (
        np.empty((n, *env.observation_shape), dtype=env.obs_dtype),
        np.empty(n, dtype=np.float32),
        np.empty(n, dtype=bool),
        np.empty((n, *env.mask_shape), dtype=np.uint8 if compact else bool),
    )

    def one_round(seconds: float) -> Tuple[float, float, int]:
        steps = 0
        stepping = 0.0
        started = time.perf_counter()
        while steps == 0 or time.perf_counter() - started < seconds:
            actions = env.random_actions()
            t = time.perf_counter()
            env.step(actions, out=out)
            stepping += time.perf_counter() - t
            steps += n
        return steps / (time.perf_counter() - started), steps / stepping, steps

    one_round(seconds / 2)  # warm up: the games reach their usual lengths
    cpu = time.process_time()
    results = sorted(one_round(seconds) for _ in range(rounds))
    per_cpu = sum(r[2] for r in results) / max(time.process_time() - cpu, 1e-9)
    return results[-1][0], results[len(results) // 2][0], max(r[1] for r in results), per_cpu


def bench_vecenv(sizes: List[int], rounds: int, seconds: float) -> None:
    cores = os.cpu_count() or 1
    rates: Dict[Tuple[int, bool, int], float] = {}
    # The reference figure of earlier versions: VecEnv(1024), float32 and bool, one thread.
    for axial in (False, True):
        best, median, stepping, _ = vecenv_rates(1024, rounds, seconds, 1, False, axial)
        layout = "(C, 11, 11)" if axial else "(C, 91)"
        line(f"VecEnv(1024).step(out=...) obs {layout}, 1 thread", f"{stepping:,.0f} steps/s",
             "(target >= 500,000)", stepping >= 500_000)
        line("  with random_actions() each step", f"{best:,.0f} steps/s",
             note=f"(median {median:,.0f})")
    for n in sizes:
        for compact in (False, True):
            for threads in sorted({1, cores}):
                best, median, _, per_cpu = vecenv_rates(n, rounds, seconds, threads, compact)
                rates[(n, compact, threads)] = best
                name = "u8/packed" if compact else "f32/bool"
                line(f"VecEnv({n}) {name}, {threads} thread{'s' if threads > 1 else ''}",
                     f"{best:,.0f} steps/s",
                     note=f"(median {median:,.0f}; {per_cpu:,.0f} per CPU-second)")
    print("targets (2 cores):")
    for compact, target in ((True, 3_000_000), (False, 1_500_000)):
        name = "u8/packed" if compact else "f32/bool"
        if (8192, compact, 2) in rates:
            rate = rates[(8192, compact, 2)]
            line(f"  VecEnv(8192) {name}, 2 threads", f"{rate:,.0f} steps/s",
                 f"(target >= {target:,})", rate >= target)
        if (8192, compact, 1) in rates and (256, compact, 1) in rates:
            ratio = rates[(8192, compact, 1)] / rates[(256, compact, 1)]
            line(f"  a thread at n=8192 vs n=256, {name}", f"{100 * ratio:.0f}%",
                 "(target >= 80%)", ratio >= 0.8)


def bench_throughput(depth: int, games: int, rounds: int) -> None:
    start = agon.Position()
    t = time.perf_counter()
    leaves = agon.perft(start, depth)
    dt = time.perf_counter() - t
    line(f"agon.perft(start, {depth}) = {leaves:,}", f"{leaves / dt:,.0f} leaves/s")
    cores = os.cpu_count() or 1
    best: Dict[int, float] = {}
    stats = agon.random_playouts(games, seed=1, threads=1)
    for threads in sorted({1, cores}):
        for _ in range(rounds):
            t = time.perf_counter()
            again = agon.random_playouts(games, seed=1, threads=threads)
            dt = time.perf_counter() - t
            assert again == stats  # the same games on any number of threads
            best[threads] = max(best.get(threads, 0.0), games / dt)
        line(f"agon.random_playouts({games}, threads={threads})", f"{best[threads]:,.0f} games/s")
    line(f"  plies per second on 1 thread (mean {stats['plies_mean']:.1f} a game)",
         f"{best[1] * stats['plies_mean']:,.0f} plies/s")
    line("  white / black / draws",
         f"{stats['white_wins']} / {stats['black_wins']} / {stats['draws']}")
    if cores > 1:
        scaling = best[cores] / (cores * best[1])
        line(f"  on {cores} threads, of linear", f"{100 * scaling:.0f}%", "(target >= 90%)",
             scaling >= 0.9)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="shorter runs (for a smoke test)")
    args = parser.parse_args()
    quick: bool = args.quick
    print(f"agon {agon.__version__}, Python {sys.version.split()[0]}, numpy {np.__version__}")
    print(f"{os.cpu_count()} cores; load average {os.getloadavg()[0]:.2f} (1 minute) at the start")
    bench_calls(0.05 if quick else 0.5)
    bench_vecenv([256, 1024, 8192], 3 if quick else 7, 0.1 if quick else 0.4)
    bench_throughput(4 if quick else 5, 100 if quick else 2000, 2 if quick else 3)
    print(f"load average {os.getloadavg()[0]:.2f} (1 minute) at the end")
    return 0


if __name__ == "__main__":
    sys.exit(main())
