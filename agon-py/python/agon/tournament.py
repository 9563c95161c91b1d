"""A round robin between bots: ``python -m agon.tournament --players A B C ...
--games-per-pair N [--ray [ADDRESS]]``.

Every pair of players plays ``N`` games, alternating colours (the first of the pair has
White in even-numbered games), each game seeded from ``--seed``, the pair and the game's
number alone, so that the results are the same on any number of threads (``--workers``)
or Ray workers (``--ray``, extra ``ray``). The games are played in Rust without the GIL.

The table gives each player's games, score (wins plus half the draws, over the games)
with its 95% interval (the arena's: Wilson's score interval, extended to draws),
and an Elo estimate with its 95% uncertainty. The Elo ratings are the maximum-likelihood
Bradley-Terry ratings of all games at once (a draw counting half a win to each side),
centred on a mean of 0, with one virtual draw added between every two players who met
so that a perfect score has a finite estimate; the uncertainty is 1.96 standard errors
from the inverse of the likelihood's curvature (the Fisher information) under the
mean-zero constraint. A matrix of the pairwise scores follows.

A player may be a UGI engine (``ugi:[LIMITS:]COMMAND``, see ``agon.engine``): a game it
forfeits (a crash, a hang, a late, illegal or unreadable move) is its loss, its reason
named in ``GameResult.reason`` and listed under the table, and the next game starts a
fresh engine process.
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from dataclasses import dataclass
from typing import Any, Dict, Iterator, List, Optional, Sequence, Tuple

import numpy as np
import numpy.typing as npt

from . import _agon, _games
from ._agon import Position, Rules

DEFAULT_MAX_PLIES = _agon.MAX_GAME_PLIES
Floats = npt.NDArray[np.float64]

ELO_SCALE = 400 / math.log(10)
"""Elo points per natural-log unit of odds."""


@dataclass(frozen=True)
class Tournament:
    """The settings of a round robin: they, and nothing else, fix its games."""

    players: Tuple[str, ...]
    games_per_pair: int
    seed: int = 0
    max_plies: int = DEFAULT_MAX_PLIES
    start: str = Position().to_text()
    rules: str = "standard"

    @property
    def pairs(self) -> List[Tuple[int, int]]:
        """The pairs of player indices (i < j), in order."""
        n = len(self.players)
        return [(i, j) for i in range(n) for j in range(i + 1, n)]

    def game(self, pair: int, k: int) -> Tuple[str, str, bool, int, int]:
        """Game ``k`` of pair ``pair``: (White's spec, Black's spec, whether the pair's first
        player has White, White's seed, Black's seed)."""
        i, j = self.pairs[pair]
        first_white = k % 2 == 0
        a, b = self.players[i], self.players[j]
        white_seed, black_seed = _games.player_seeds(_games.game_seed(self.seed, pair, k))
        return (a, b, True, white_seed, black_seed) if first_white else (b, a, False, white_seed, black_seed)


@dataclass(frozen=True, order=True)
class GameResult:
    """One game of a round robin: its pair and number, whether the pair's first player had
    White, the winner (``"white"``, ``"black"`` or None), the end reason and the plies; for
    a game a UGI engine forfeited (its reason one of ``agon.FORFEIT_REASONS``, the winner
    its opponent), what happened."""

    pair: int
    k: int
    first_white: bool
    winner: Optional[str]
    reason: str
    plies: int
    forfeit: Optional[str] = None

    @property
    def first_score(self) -> float:
        """The score of the pair's first player: 1, 1/2 or 0."""
        if self.winner is None:
            return 0.5
        return 1.0 if (self.winner == "white") == self.first_white else 0.0


def play_unit(t: Tournament, payload: Tuple[int, Sequence[int]]) -> List[GameResult]:
    """Plays games ``ks`` of pair ``pair`` (payload ``(pair, ks)``) in Rust: what a worker
    thread or a Ray task runs."""
    pair, ks = payload
    results: List[GameResult] = []
    for first_white in (True, False):
        part = [k for k in ks if (k % 2 == 0) == first_white]
        if not part:
            continue
        games = [t.game(pair, k) for k in part]
        chunk = _games.play_games(
            games[0][0], games[0][1], [(g[3], g[4]) for g in games], t.start, t.max_plies,
            rules=t.rules,
        )
        plies = chunk.plies
        for n, k in enumerate(part):
            results.append(
                GameResult(pair, k, first_white, chunk.winners[n], chunk.reasons[n], int(plies[n]),
                           chunk.forfeits[n])
            )
    return sorted(results)


@dataclass(frozen=True)
class Standing:
    """A player's line of the table."""

    player: str
    games: int
    wins: int
    draws: int
    losses: int
    score: float
    low: float
    high: float
    elo: float
    elo_error: float


@dataclass(frozen=True)
class TournamentResult:
    """The games of a round robin, sorted, and what follows from them."""

    tournament: Tournament
    games: Tuple[GameResult, ...]
    seconds: float = 0.0

    def __eq__(self, other: object) -> bool:
        # The time taken is not part of the result.
        return isinstance(other, TournamentResult) and (self.tournament, self.games) == (
            other.tournament,
            other.games,
        )

    def __hash__(self) -> int:
        return hash((self.tournament, self.games))

    def points(self) -> Tuple[Floats, Floats]:
        """(points, games): ``points[i, j]`` is what player i scored against player j in
        ``games[i, j]`` games."""
        n = len(self.tournament.players)
        points = np.zeros((n, n))
        games = np.zeros((n, n))
        for g in self.games:
            i, j = self.tournament.pairs[g.pair]
            points[i, j] += g.first_score
            points[j, i] += 1 - g.first_score
            games[i, j] += 1
            games[j, i] += 1
        return points, games

    def elo(self) -> Tuple[Floats, Floats]:
        """(ratings, standard errors) in Elo points, mean 0 (see the module's docstring)."""
        points, games = self.points()
        return bradley_terry(points, games)

    def standings(self) -> List[Standing]:
        """The players' lines, best score first."""
        players = self.tournament.players
        record = {p: [0, 0, 0] for p in range(len(players))}
        for g in self.games:
            i, j = self.tournament.pairs[g.pair]
            s = g.first_score
            for player, score in ((i, s), (j, 1 - s)):
                record[player][0 if score == 1 else 1 if score == 0.5 else 2] += 1
        ratings, errors = self.elo()
        lines = []
        for p, (w, d, l) in record.items():
            score, low, high = _games.score_interval(w, d, l)
            lines.append(
                Standing(players[p], w + d + l, w, d, l, score, low, high, float(ratings[p]), float(errors[p]))
            )
        return sorted(lines, key=lambda s: (-s.score, -s.elo, s.player))

    def table(self) -> str:
        """The standings and the pairwise scores, as the command prints them."""
        t = self.tournament
        width = max(8, *(len(p) for p in t.players))
        lines = [
            f"Round robin: {len(t.players)} players, {t.games_per_pair} games per pair, "
            + (f"rules {t.rules}, " if t.rules != "standard" else "")
            + f"{len(self.games)} games" + (f", {self.seconds:.1f} s" if self.seconds else ""),
            "",
            f"{'rank':>4}  {'player':<{width}}  {'games':>5}  {'W-D-L':>11}  {'score':>5}  "
            f"{'95% interval':>14}  {'Elo':>6}  {'±95%':>5}",
        ]
        for rank, s in enumerate(self.standings(), 1):
            lines.append(
                f"{rank:>4}  {s.player:<{width}}  {s.games:>5}  "
                f"{f'{s.wins}-{s.draws}-{s.losses}':>11}  {s.score:>5.3f}  "
                f"{f'[{s.low:.3f}, {s.high:.3f}]':>14}  {s.elo:>+6.0f}  {1.96 * s.elo_error:>5.0f}"
            )
        points, games = self.points()
        lines += ["", "score of the row's player against the column's:"]
        columns = [max(5, len(p)) for p in t.players]
        lines.append(" " * width + "".join(f"  {p:>{w}}" for p, w in zip(t.players, columns)))
        for i, p in enumerate(t.players):
            cells = [
                f"{'-':>{w}}" if i == j else f"{points[i, j] / games[i, j]:>{w}.3f}" if games[i, j] else " " * w
                for j, w in enumerate(columns)
            ]
            lines.append(f"{p:<{width}}" + "".join(f"  {c}" for c in cells))
        forfeits = [g for g in self.games if g.forfeit is not None]
        if forfeits:
            lines += ["", "games lost by forfeit (counted as losses):"]
            for g in forfeits:
                i, j = t.pairs[g.pair]
                lines.append(f"{t.players[i]} vs {t.players[j]}, game {g.k}: {g.forfeit}")
        return "\n".join(lines)


def bradley_terry(
    points: Floats, games: Floats, prior_draws: float = 1.0
) -> Tuple[Floats, Floats]:
    """Maximum-likelihood Bradley-Terry ratings in Elo points (mean 0) and their standard
    errors, from ``points[i, j]`` scored by i against j in ``games[i, j]`` games, with
    ``prior_draws`` virtual draws added to every pair that played.

    >>> r, e = bradley_terry(np.array([[0, 75.0], [25, 0]]), np.array([[0, 100.0], [100, 0]]), 0)
    >>> round(r[0] - r[1]), round(float(e[0] - e[1]), 1), round(float(e[0]), 1)
    (191, 0.0, 20.1)
    """
    n = points.shape[0]
    played = games > 0
    w = points + 0.5 * prior_draws * played
    g = games + prior_draws * played
    r = np.zeros(n)
    centre = np.eye(n) - 1.0 / n
    hessian = np.zeros((n, n))
    for _ in range(100):
        diff = r[:, None] - r[None, :]
        p = 1 / (1 + np.exp(-diff))
        gradient = (w - g * p).sum(axis=1)
        curvature = g * p * (1 - p)
        hessian = np.diag(curvature.sum(axis=1)) - curvature  # minus the Hessian
        step = centre @ np.linalg.pinv(hessian) @ gradient
        r = centre @ (r + step)
        if np.max(np.abs(step)) < 1e-10:
            break
    covariance = centre @ np.linalg.pinv(hessian) @ centre
    errors = np.sqrt(np.clip(np.diag(covariance), 0, None))
    return r * ELO_SCALE, errors * ELO_SCALE


def check_tournament(t: Tournament) -> Tournament:
    """Checks the settings (the specs by making their bots); returns them normalised."""
    if len(t.players) < 2:
        raise ValueError("a round robin needs at least two players")
    players = tuple(_agon.Bot.from_name(p).name for p in t.players)
    if len(set(players)) != len(players):
        raise ValueError(f"players must differ: {players}")
    if not isinstance(t.games_per_pair, int) or isinstance(t.games_per_pair, bool) or t.games_per_pair < 1:
        raise ValueError(f"games per pair must be a positive int, not {t.games_per_pair!r}")
    if not isinstance(t.seed, int) or isinstance(t.seed, bool) or not 0 <= t.seed < 2**64:
        raise ValueError(f"seed must be an int from 0 to 2**64 - 1, not {t.seed!r}")
    if not isinstance(t.max_plies, int) or isinstance(t.max_plies, bool) or not 1 <= t.max_plies <= 1_000_000:
        raise ValueError(f"max_plies must be 1 to 1000000, not {t.max_plies!r}")
    rules = Rules(t.rules)
    start = Position(t.start, rules=rules)
    if start.is_over():
        raise ValueError("the start position is already decided")
    return Tournament(players, t.games_per_pair, t.seed, t.max_plies, start.to_text(), str(rules))


def tournament(
    players: Sequence[str],
    games_per_pair: int,
    *,
    seed: int = 0,
    workers: int = 1,
    max_plies: int = DEFAULT_MAX_PLIES,
    start: Optional[str] = None,
    rules: Any = "standard",
    ray: bool = False,
    ray_address: Optional[str] = None,
    progress: bool = False,
    chunk_games: int = 16,
) -> TournamentResult:
    """Plays a round robin (see the module's docstring) on ``workers`` threads, or as Ray
    tasks with ``ray`` (``ray.init(ray_address)`` unless Ray is already initialised)."""
    t = check_tournament(
        Tournament(tuple(players), games_per_pair, seed, max_plies,
                   start if start is not None else Position().to_text(), str(Rules(rules)))
    )
    if not isinstance(workers, int) or isinstance(workers, bool) or workers < 1:
        raise ValueError(f"workers must be a positive int, not {workers!r}")
    total = len(t.pairs) * t.games_per_pair
    started = time.monotonic()
    if ray:
        from . import cluster

        cluster.connect(ray_address)
        workers = max(workers, cluster.cpus())
    size = _games.chunk_size(total, workers, chunk_games)
    units = [
        (pair, (pair, ks))
        for pair in range(len(t.pairs))
        for ks in _games.split(range(t.games_per_pair), size)
    ]
    results: Iterator[Tuple[Tuple[int, Tuple[int, Sequence[int]]], List[GameResult]]]
    if ray:
        results = cluster.run_units(play_unit, t, units)
    else:
        results = _games.run_threads(play_unit, t, units, workers)
    bar = _games.Progress(total, enabled=progress)
    games: List[GameResult] = []
    for _, part in results:
        games.extend(part)
        bar.advance(len(part))
    bar.close()
    return TournamentResult(t, tuple(sorted(games)), time.monotonic() - started)


def parser() -> argparse.ArgumentParser:
    """The command line of ``python -m agon.tournament``."""
    p = argparse.ArgumentParser(
        prog="python -m agon.tournament",
        description="A round robin between agon bots: scores, 95% intervals and Elo estimates.",
    )
    p.add_argument("--players", nargs="+", required=True, metavar="SPEC",
                   help=_games.PLAYERS_HELP)
    p.add_argument("--games-per-pair", type=int, required=True, help="games each pair plays")
    p.add_argument("--rules", default="standard", metavar="TEXT",
                   help="the rule set (a preset and options, e.g. ludii or standard+capture=same-ring)")
    _games.add_run_options(p, "tournament", DEFAULT_MAX_PLIES, "a game still going after this many plies is a draw")
    return p


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Runs the command; returns its exit status (0, or 2 for bad arguments)."""
    args = parser().parse_args(argv)
    return _games.run_command(lambda: tournament(
        args.players,
        args.games_per_pair,
        rules=args.rules,
        **_games.run_options(args),
    ).table())


__all__ = [
    "GameResult",
    "Standing",
    "Tournament",
    "TournamentResult",
    "bradley_terry",
    "main",
    "tournament",
]

if __name__ == "__main__":
    sys.exit(main())
