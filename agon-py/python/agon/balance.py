"""How balanced each rule set is: ``python -m agon.balance [--rules TEXT ...]
[--spec engine:n2000] [--games 200] [--random-games 100000] [--workers N | --ray [ADDRESS]]``.

For each rule set (by default: ``standard``, ``ludii`` and each single-option variant of
the standard rules, ``limit`` at ``--limit`` plies), the engine plays itself from agon-bots'
opening book (``agon.bots.opening_book``, opening ``k mod 300`` for game ``k``) at a fixed
budget (``--spec``, so that the games do not depend on the machine), and ``--random-games``
games of uniformly random legal moves are played from the start (``agon.random_playouts``).
Every game is seeded from ``--seed``, the rule set's number and the game's number alone,
so the figures are the same on any number of threads (``--workers``) or Ray workers
(``--ray``, extra ``ray``).

The output is a Markdown table, one row per rule set and kind of play: the games, White's
score (wins plus half the draws, over the games) with its 95% interval (the arena's:
Wilson's score interval, extended to draws), the draw rate, the mean and the
90th percentile of the length in plies, and the games that reached the rule set's move
limit or the cap of ``--max-plies`` (a game still going at the cap counts as a draw); then
the exact command line that produced it.
"""

from __future__ import annotations

import argparse
import math
import shlex
import sys
import time
from dataclasses import dataclass
from typing import Any, Dict, Iterator, List, Mapping, Optional, Sequence, Tuple

import numpy as np

from . import _agon, _games
from ._agon import Rules

DEFAULT_SPEC = "engine:n2000"
DEFAULT_GAMES = 200
DEFAULT_RANDOM_GAMES = 100_000
DEFAULT_LIMIT = 300
DEFAULT_MAX_PLIES = 3000


def default_rule_sets(limit: int = DEFAULT_LIMIT) -> List[Rules]:
    """``standard``, ``ludii``, then each single-option variant of the standard rules in
    ``Rules.OPTIONS`` order (every value but the standard one; ``limit`` at ``limit``):
    ``Rules.presets_and_variants``, agon-core's list."""
    return Rules.presets_and_variants(limit)


@dataclass(frozen=True)
class Row:
    """The figures of one rule set and one kind of play (``"engine"`` or ``"random"``)."""

    rules: str
    play: str
    games: int
    white_wins: int
    draws: int
    black_wins: int
    mean_plies: float
    p90_plies: float
    at_limit: int

    @property
    def white_score(self) -> Tuple[float, float, float]:
        """White's score with its 95% interval."""
        return _games.score_interval(self.white_wins, self.draws, self.black_wins)

    @property
    def draw_rate(self) -> float:
        return self.draws / self.games if self.games else 0.0

    def line(self) -> str:
        score, low, high = self.white_score
        return (
            f"| `{self.rules}` | {self.play} | {self.games} | {score:.3f} [{low:.3f}, {high:.3f}] "
            f"| {self.draw_rate:.3f} | {self.mean_plies:.1f} | {_number(self.p90_plies)} | {self.at_limit} |"
        )


def _number(x: float) -> str:
    return "n/a" if math.isnan(x) else f"{x:.0f}"


HEADER = (
    "| rule set | play | games | White's score [95%] | draw rate | mean plies "
    "| 90th pct plies | at limit/cap |\n"
    "|---|---|---|---|---|---|---|---|"
)


@dataclass(frozen=True)
class Balance:
    """The settings of a run: they, and nothing else, fix its games."""

    rule_sets: Tuple[str, ...]
    spec: str = DEFAULT_SPEC
    games: int = DEFAULT_GAMES
    random_games: int = DEFAULT_RANDOM_GAMES
    seed: int = 0
    max_plies: int = DEFAULT_MAX_PLIES


def _engine_unit(b: Balance, payload: Tuple[int, int, Sequence[int]]) -> List[Tuple[int, Optional[str], str, int]]:
    """Plays engine games ``ks`` of rule set ``r`` from opening ``opening``: (k, winner,
    reason, plies) for each; what a worker thread or a Ray task runs."""
    r, opening, ks = payload
    rules = Rules(b.rule_sets[r])
    start = _agon.opening_book(rules)[opening]
    seeds = [_games.player_seeds(_games.game_seed(b.seed, r, k)) for k in ks]
    chunk = _games.play_games(b.spec, b.spec, seeds, start.to_text(), b.max_plies, rules=rules)
    plies = chunk.plies
    return [(k, chunk.winners[n], chunk.reasons[n], int(plies[n])) for n, k in enumerate(ks)]


def _engine_rows(b: Balance, workers: int, ray: bool, progress: bool) -> List[Row]:
    book = len(_agon.opening_book())
    units: List[Tuple[Tuple[int, int], Tuple[int, int, Sequence[int]]]] = []
    for r in range(len(b.rule_sets)):
        by_opening: Dict[int, List[int]] = {}
        for k in range(b.games):
            by_opening.setdefault(k % book, []).append(k)
        for opening, ks in by_opening.items():
            units.append(((r, opening), (r, opening, ks)))
    results: Iterator[Any]
    if ray:
        from . import cluster

        results = cluster.run_units(_engine_unit, b, units)
    else:
        results = _games.run_threads(_engine_unit, b, units, workers)
    bar = _games.Progress(b.games * len(b.rule_sets), enabled=progress)
    games: Dict[int, List[Tuple[int, Optional[str], str, int]]] = {r: [] for r in range(len(b.rule_sets))}
    for (key, _), part in results:
        games[key[0]].extend(part)
        bar.advance(len(part))
    bar.close()
    rows = []
    for r, text in enumerate(b.rule_sets):
        played = sorted(games[r])
        lengths = np.array([g[3] for g in played], dtype=np.int64)
        rows.append(Row(
            text, f"engine ({b.spec})", len(played),
            sum(g[1] == "white" for g in played),
            sum(g[1] is None for g in played),
            sum(g[1] == "black" for g in played),
            float(lengths.mean()) if len(lengths) else math.nan,
            float(np.percentile(lengths, 90)) if len(lengths) else math.nan,
            sum(g[2] in ("move-limit", "unfinished") for g in played),
        ))
    return rows


def _p90(lengths: Mapping[int, int]) -> float:
    """The 90th percentile of game lengths given as a histogram (plies to games), as
    ``numpy.percentile`` computes it (linear interpolation) on the lengths themselves."""
    total = sum(lengths.values())
    if total == 0:
        return math.nan
    rank = 0.9 * (total - 1)
    below, above = math.floor(rank), math.ceil(rank)
    values: Dict[int, int] = {}
    seen = 0
    for plies in sorted(lengths):
        count = lengths[plies]
        for k in (below, above):
            if seen <= k < seen + count:
                values[k] = plies
        seen += count
    return values[below] + (values[above] - values[below]) * (rank - below)


def _random_rows(b: Balance) -> List[Row]:
    rows = []
    for r, text in enumerate(b.rule_sets):
        if b.random_games == 0:
            continue
        # Under some rule sets (repetition off without a limit) a random game need not
        # end: the playouts stop it at the cap, and it counts as a draw at the cap.
        stats = _agon.random_playouts(
            b.random_games, seed=_games.game_seed(b.seed, r, 1 << 32), rules=text,
            max_plies=b.max_plies,
        )
        reasons = stats["reasons"]
        rows.append(Row(
            text, "random", stats["games"], stats["white_wins"],
            stats["draws"] + stats["capped"], stats["black_wins"],
            stats["plies_mean"], _p90(stats["lengths"]),
            reasons.get("move-limit", 0) + stats["capped"],
        ))
    return rows


@dataclass(frozen=True)
class BalanceResult:
    balance: Balance
    rows: Tuple[Row, ...]
    command: str
    seconds: float = 0.0

    def table(self) -> str:
        """The Markdown table and the command line that produced it."""
        lines = [HEADER] + [row.line() for row in self.rows]
        lines += ["", f"Produced by: `{self.command}`"]
        return "\n".join(lines)


def balance(
    rule_sets: Optional[Sequence[str]] = None,
    *,
    spec: str = DEFAULT_SPEC,
    games: int = DEFAULT_GAMES,
    random_games: int = DEFAULT_RANDOM_GAMES,
    seed: int = 0,
    max_plies: int = DEFAULT_MAX_PLIES,
    limit: int = DEFAULT_LIMIT,
    workers: int = 1,
    ray: bool = False,
    ray_address: Optional[str] = None,
    progress: bool = False,
    command: Optional[str] = None,
) -> BalanceResult:
    """Plays a balance run (see the module's docstring)."""
    texts = tuple(str(Rules(r)) for r in rule_sets) if rule_sets else tuple(
        str(r) for r in default_rule_sets(limit)
    )
    for name, value, low in (("games", games, 0), ("random_games", random_games, 0),
                             ("workers", workers, 1), ("max_plies", max_plies, 1)):
        if not isinstance(value, int) or isinstance(value, bool) or value < low:
            raise ValueError(f"{name} must be an int of at least {low}, not {value!r}")
    spec = _agon.Bot.from_name(spec).name
    b = Balance(texts, spec, games, random_games, seed, max_plies)
    started = time.monotonic()
    if ray:
        from . import cluster

        cluster.connect(ray_address)
        workers = max(workers, cluster.cpus())
    rows: List[Row] = []
    engine = _engine_rows(b, workers, ray, progress) if games else []
    randoms = _random_rows(b)
    for r in range(len(texts)):
        rows += [row for row in engine if row.rules == texts[r]]
        rows += [row for row in randoms if row.rules == texts[r]]
    if command is None:
        command = "python -m agon.balance " + " ".join(shlex.quote(a) for a in sys.argv[1:])
    return BalanceResult(b, tuple(rows), command, time.monotonic() - started)


def parser() -> argparse.ArgumentParser:
    """The command line of ``python -m agon.balance``."""
    p = argparse.ArgumentParser(
        prog="python -m agon.balance",
        description="White's score, draws and game lengths under each rule set, "
                    "for the engine against itself and for random play.",
    )
    p.add_argument("--rules", nargs="+", default=None, metavar="TEXT",
                   help="rule sets (default: standard, ludii and every single-option variant)")
    p.add_argument("--spec", default=DEFAULT_SPEC, help=f"the engine's spec (default {DEFAULT_SPEC})")
    p.add_argument("--games", type=int, default=DEFAULT_GAMES,
                   help=f"engine games per rule set (default {DEFAULT_GAMES})")
    p.add_argument("--random-games", type=int, default=DEFAULT_RANDOM_GAMES,
                   help=f"random games per rule set (default {DEFAULT_RANDOM_GAMES})")
    p.add_argument("--limit", type=int, default=DEFAULT_LIMIT,
                   help=f"the move limit of the default limit=N variant (default {DEFAULT_LIMIT})")
    p.add_argument("--seed", type=int, default=0, help="run seed (default 0)")
    p.add_argument("--workers", type=int, default=1, help="threads playing games (default 1)")
    p.add_argument("--max-plies", type=int, default=DEFAULT_MAX_PLIES,
                   help=f"a game still going after this many plies is a draw (default {DEFAULT_MAX_PLIES})")
    p.add_argument("--ray", nargs="?", const="", default=None, metavar="ADDRESS",
                   help="run the engine games as Ray tasks")
    p.add_argument("--no-progress", action="store_true", help="no progress line")
    return p


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Runs the command; returns its exit status (0, or 2 for bad arguments)."""
    args = parser().parse_args(argv)
    shown = list(sys.argv[1:] if argv is None else argv)
    command = "python -m agon.balance" + "".join(" " + shlex.quote(a) for a in shown)
    return _games.run_command(lambda: balance(
        args.rules,
        spec=args.spec,
        games=args.games,
        random_games=args.random_games,
        seed=args.seed,
        max_plies=args.max_plies,
        limit=args.limit,
        workers=args.workers,
        ray=args.ray is not None,
        ray_address=args.ray or None,
        progress=not args.no_progress,
        command=command,
    ).table())


__all__ = ["Balance", "BalanceResult", "Row", "balance", "default_rule_sets", "main"]

if __name__ == "__main__":
    sys.exit(main())
