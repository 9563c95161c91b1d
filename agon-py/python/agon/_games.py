"""What generation and tournaments share, without pyarrow or Ray: the seeds of each game,
playing a chunk of games in Rust, running chunks on threads, and a progress line.

Every game of a run is fixed by the run's seed and the game's number alone (never by how
the games are split into chunks, shards, threads or Ray tasks), so that a run gives the
same games on one core, on many, or on a cluster.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import math
import sys
import threading
import time
from dataclasses import dataclass, field
from typing import Any, Callable, Dict, Iterable, Iterator, List, Optional, Sequence, TextIO, Tuple, TypeVar

import numpy as np
import numpy.typing as npt

from . import _agon

T = TypeVar("T")
R = TypeVar("R")
C = TypeVar("C")
K = TypeVar("K")
P = TypeVar("P")
F = TypeVar("F")


def game_seed(run_seed: int, *path: int) -> int:
    """The seed of a game (or of any item) numbered by ``path`` in a run seeded
    ``run_seed``: agon-core's one seeding scheme (``agon_core::random::seed_of``), which
    agon-rl's random games and agon-bots' arena use too; so a tournament of two players
    plays the games of an arena match with the same seed (pair 0, game ``k``).

    >>> game_seed(7, 3) == game_seed(7, 3) != game_seed(7, 4)
    True
    """
    return _agon._seed_of(run_seed, list(path))


def player_seeds(seed: int) -> Tuple[int, int]:
    """The seeds of White's and Black's bots in a game seeded ``seed``
    (``agon_core::random::player_seeds``)."""
    white, black = _agon._player_seeds(seed)
    return white, black


@dataclass(frozen=True)
class Stats:
    """The search statistics of games played in Rust, one entry per ply of their actions
    end to end: whether the ply's player gave statistics (``has_stats``), its value
    (float32, NaN where none), and ``visit_offsets`` (int64, one more than the plies) into
    the visited actions (uint16) and their counts (uint32)."""

    has_stats: npt.NDArray[np.bool_]
    values: npt.NDArray[np.float32]
    visit_offsets: npt.NDArray[np.int64]
    visit_actions: npt.NDArray[np.uint16]
    visit_counts: npt.NDArray[np.uint32]


@dataclass(frozen=True)
class Chunk:
    """Games played in Rust: their actions end to end (uint16) with int64 offsets, each
    game's winner (``"white"``, ``"black"`` or None) and end reason, and the statistics of
    the players' searches when they were asked for. A game a UGI engine forfeits (a crash,
    a hang, a late, illegal or unreadable move) stops there: it is the other side's win,
    its reason the forfeit's (``_agon.FORFEIT_REASONS``), and ``forfeits`` says what
    happened (None for the other games)."""

    actions: npt.NDArray[np.uint16]
    offsets: npt.NDArray[np.int64]
    winners: List[Optional[str]]
    reasons: List[str]
    stats: Optional[Stats] = None
    forfeits: List[Optional[str]] = field(default_factory=list)

    @property
    def plies(self) -> npt.NDArray[np.int64]:
        """The length of each game."""
        return np.diff(self.offsets)


def play_games(
    white: str,
    black: str,
    seeds: Sequence[Tuple[int, int]],
    start: Optional[str],
    max_plies: int,
    *,
    stats: bool = False,
    rules: Optional[Any] = None,
) -> Chunk:
    """Plays one game per (white seed, black seed) pair between the bots of two specs, in
    Rust without the GIL; with ``stats``, the bots' search statistics too (MCTS gives its
    root's visit counts and value). A UGI engine's forfeit is scored, not raised (see
    ``Chunk``); each game starts fresh bots, so an engine process that failed is replaced."""
    out = _agon._play_games(
        white, black, list(seeds), start, max_plies, stats=stats,
        rules=None if rules is None else str(rules),
    )
    played = None
    if stats:
        played = Stats(
            out["has_stats"], out["values"], out["visit_offsets"], out["visit_actions"],
            out["visit_counts"],
        )
    return Chunk(out["actions"], out["offsets"], out["winners"], out["reasons"], played, out["forfeits"])


def split(items: Sequence[T], size: int) -> List[Sequence[T]]:
    """``items`` in consecutive pieces of at most ``size``.

    >>> split([1, 2, 3, 4, 5], 2)
    [[1, 2], [3, 4], [5]]
    """
    return [items[i : i + size] for i in range(0, len(items), size)]


def chunk_size(games: int, workers: int, cap: int) -> int:
    """A chunk size that gives each worker several chunks (for balance and progress),
    at most ``cap`` games.

    >>> chunk_size(1000, 2, 64), chunk_size(10, 4, 64), chunk_size(0, 1, 64)
    (64, 1, 1)
    """
    return max(1, min(cap, math.ceil(games / max(1, 4 * workers))))


def run_windowed(
    submit: Callable[[P], F],
    wait_any: Callable[[List[F]], Iterable[F]],
    result: Callable[[F], R],
    units: Iterable[Tuple[K, P]],
    limit: int,
) -> Iterator[Tuple[Tuple[K, P], R]]:
    """The windowed submission the thread and Ray schedulers share: ``submit(payload)``
    for each unit ``(key, payload)``, at most ``limit`` in flight, yielding (unit,
    ``result(handle)``) for each handle that ``wait_any(pending handles)`` gives as
    finished, and submitting more as they finish.

    >>> list(run_windowed(lambda p: p * 10, lambda hs: hs[:1], lambda h: h + 1, [("a", 1), ("b", 2)], 1))
    [(('a', 1), 11), (('b', 2), 21)]
    """
    pending: Dict[F, Tuple[K, P]] = {}
    todo = iter(units)

    def fill() -> None:
        while len(pending) < limit:
            unit = next(todo, None)
            if unit is None:
                return
            pending[submit(unit[1])] = unit

    fill()
    while pending:
        for handle in wait_any(list(pending)):
            unit = pending.pop(handle)
            yield unit, result(handle)
        fill()


def run_threads(
    work: Callable[[C, P], R], context: C, units: Iterable[Tuple[K, P]], workers: int
) -> Iterator[Tuple[Tuple[K, P], R]]:
    """``work(context, payload)`` for each unit ``(key, payload)`` on ``workers`` threads
    (the bots think without the GIL, so threads use every core), yielding (unit, result)
    as each finishes. At most a few units per worker are in flight, so results wait in
    memory only briefly. An exception of a unit is raised here."""
    with concurrent.futures.ThreadPoolExecutor(max_workers=workers) as pool:

        def submit(payload: P) -> "concurrent.futures.Future[R]":
            return pool.submit(work, context, payload)

        def wait_any(
            futures: List["concurrent.futures.Future[R]"],
        ) -> Iterable["concurrent.futures.Future[R]"]:
            done, _ = concurrent.futures.wait(
                futures, return_when=concurrent.futures.FIRST_COMPLETED
            )
            return done

        def result(future: "concurrent.futures.Future[R]") -> R:
            return future.result()

        yield from run_windowed(submit, wait_any, result, units, 2 * workers)


class Progress:
    """A progress line on ``stream`` (stderr by default): done/total games, games per
    second and the time left, redrawn at most five times a second; silent when
    ``enabled`` is false."""

    def __init__(
        self, total: int, *, enabled: bool = True, stream: Optional[TextIO] = None, what: str = "games"
    ) -> None:
        self.total = total
        self.done = 0
        self.enabled = enabled
        self.stream = stream if stream is not None else sys.stderr
        self.what = what
        self.started = time.monotonic()
        self._drawn = 0.0
        self._width = 0
        self._lock = threading.Lock()

    def line(self) -> str:
        """The progress line as it stands."""
        elapsed = max(time.monotonic() - self.started, 1e-9)
        rate = self.done / elapsed
        left = (self.total - self.done) / rate if rate > 0 else float("nan")
        width = 24
        filled = int(width * self.done / self.total) if self.total else width
        eta = "--:--" if math.isnan(left) else format_duration(left)
        return (
            f"[{'#' * filled}{'.' * (width - filled)}] {self.done}/{self.total} {self.what}"
            f"  {rate:.1f} {self.what}/s  ETA {eta}"
        )

    def advance(self, n: int) -> None:
        """Counts ``n`` more games done."""
        with self._lock:
            self.done += n
            now = time.monotonic()
            if self.enabled and (now - self._drawn >= 0.2 or self.done >= self.total):
                self._drawn = now
                self._draw("")

    def close(self) -> None:
        """Ends the line."""
        if self.enabled:
            self._draw("\n")

    def _draw(self, end: str) -> None:
        line = self.line()
        # Spaces over what a longer earlier line left.
        self.stream.write("\r" + line.ljust(self._width) + end)
        self.stream.flush()
        self._width = len(line)


def format_duration(seconds: float) -> str:
    """``h:mm:ss`` or ``m:ss``.

    >>> format_duration(75), format_duration(3725)
    ('1:15', '1:02:05')
    """
    s = int(round(seconds))
    h, rest = divmod(s, 3600)
    m, s = divmod(rest, 60)
    return f"{h}:{m:02d}:{s:02d}" if h else f"{m}:{s:02d}"


def score_interval(wins: int, draws: int, losses: int) -> Tuple[float, float, float]:
    """A score (wins plus half the draws, over the games) with its 95% interval, as the
    arena computes it (Wilson's score interval, extended to draws: ``_agon._score_interval``);
    (0, 0, 1) without games.

    >>> [round(x, 3) for x in score_interval(50, 0, 50)]
    [0.5, 0.404, 0.596]
    >>> [round(x, 3) for x in score_interval(10, 0, 0)]
    [1.0, 0.722, 1.0]
    """
    return _agon._score_interval(wins, draws, losses)


PLAYERS_HELP = (
    "bot specs: random, greedy, mcts:PLAYOUTS, alphabeta:DEPTH (optionally :TIMEms), "
    "engine:TIME, or a UGI engine process ugi:[LIMITS:]COMMAND (its forfeits are losses)"
)
"""What ``--players`` takes, for both commands."""


def add_run_options(p: "argparse.ArgumentParser", what: str, max_plies: int, capped: str) -> None:
    """The options ``agon.generate`` and ``agon.tournament`` share: ``--seed``,
    ``--workers``, ``--max-plies``, ``--start``, ``--ray`` and ``--no-progress``."""
    p.add_argument("--seed", type=int, default=0, help=f"{what} seed (default 0)")
    p.add_argument("--workers", type=int, default=1, help="threads playing games (default 1)")
    p.add_argument("--max-plies", type=int, default=max_plies,
                   help=f"{capped} (default {max_plies})")
    p.add_argument("--start", default=None, help="start position text (default: the standard start)")
    p.add_argument("--ray", nargs="?", const="", default=None, metavar="ADDRESS",
                   help="run the games as Ray tasks (no address: local Ray or RAY_ADDRESS; 'auto': running cluster)")
    p.add_argument("--no-progress", action="store_true", help="no progress line")


def run_options(args: "argparse.Namespace") -> Dict[str, Any]:
    """The keyword arguments of ``generate`` and ``tournament`` that the options of
    ``add_run_options`` give."""
    return dict(
        seed=args.seed,
        workers=args.workers,
        max_plies=args.max_plies,
        start=args.start,
        ray=args.ray is not None,
        ray_address=args.ray or None,
        progress=not args.no_progress,
    )


def run_command(command: Callable[[], str]) -> int:
    """Runs one of the commands and prints what it returns; a bad argument (or a missing
    extra) is one line on stderr and exit status 2, never a traceback."""
    try:
        text = command()
    except (ValueError, TypeError, ImportError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    print(text)
    return 0
