"""Runs agon's games as Ray tasks, on one machine or a cluster (extra ``ray``:
``pip install "agon-rules[ray]"``). ``agon.generate --ray`` and ``agon.tournament --ray``
use it; nothing here is specific to a machine: the same code runs after ``ray.init()``
on a laptop and against a cluster's address.

A unit of work ships only settings and game ids (each game's seeds come from the run's
seed and the game's id), and returns its result: an Arrow table of games for the
generator, game results for a tournament. Results are gathered by the driver, one per
unit: a task whose worker dies is retried by Ray (``max_retries``), and only the result
of the attempt that finished is counted, so no game is counted twice. Every node needs
``agon-rules`` installed (the same version as the driver).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator, List, Optional, Tuple, TypeVar

from ._extras import require
from ._games import run_windowed

ray = require("ray", "ray", "agon.cluster")

C = TypeVar("C")
K = TypeVar("K")
P = TypeVar("P")
R = TypeVar("R")

MAX_RETRIES = 3
"""How many times Ray runs a unit again after its worker died."""

FAIL_ONCE = "AGON_RAY_FAIL_ONCE"
"""Fault injection for tests: when this environment variable names a directory holding a
file ``armed``, the first task to start renames it to ``fired`` and kills its own worker
process, as a crashed node would."""


def connect(address: Optional[str] = None) -> None:
    """``ray.init(address)`` unless Ray is already initialised: no address starts a
    local Ray (or joins the cluster of ``RAY_ADDRESS``), ``"auto"`` joins the running
    cluster, ``"ray://HOST:10001"`` a remote one."""
    if not ray.is_initialized():
        ray.init(address=address or None)


def cpus() -> int:
    """The CPUs of the cluster (at least 1)."""
    return max(1, int(ray.cluster_resources().get("CPU", 1)))


def _maybe_fail() -> None:
    directory = os.environ.get(FAIL_ONCE)
    if not directory:
        return
    try:
        os.rename(Path(directory) / "armed", Path(directory) / "fired")
    except OSError:
        return
    os._exit(1)


def _run(work: Callable[[Any, Any], Any], context: Any, payload: Any) -> Any:
    _maybe_fail()
    return work(context, payload)


# A task whose worker dies is run again, up to MAX_RETRIES times.
_task = ray.remote(max_retries=MAX_RETRIES)(_run)


def run_units(
    work: Callable[[C, P], R], context: C, units: Iterable[Tuple[K, P]]
) -> Iterator[Tuple[Tuple[K, P], R]]:
    """``work(context, payload)`` for each unit ``(key, payload)`` as a Ray task (``work``
    a module-level function, ``context`` and ``payload`` picklable), yielding (unit,
    result) as each finishes. At most twice the cluster's CPUs are in flight. A task that
    fails with an exception of ``work`` raises it here; one whose worker dies is retried."""
    shared = ray.put(context)

    def submit(payload: P) -> Any:
        return _task.remote(work, shared, payload)

    def wait_any(refs: List[Any]) -> Iterable[Any]:
        done: List[Any] = ray.wait(refs, num_returns=1)[0]
        return done

    def result(ref: Any) -> R:
        value: R = ray.get(ref)
        return value

    yield from run_windowed(submit, wait_any, result, units, 2 * cpus())

__all__ = ["FAIL_ONCE", "MAX_RETRIES", "connect", "cpus", "run_units"]
