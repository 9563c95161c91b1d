"""Generates a game dataset: ``python -m agon.generate --games N --players A B --out DIR``.

Plays ``N`` games between two players, any reference bot spec of ``agon.bots``
(``random``, ``greedy``, ``mcts:PLAYOUTS``, ``alphabeta:DEPTH``, with an optional time
limit like ``:500ms``, the network player ``az:MODEL:VISITS``, or a UGI engine process
``ugi:[LIMITS:]COMMAND``, see ``agon.engine``), alternating colours
(A has White in even-numbered games), and writes them to ``DIR`` as Parquet shards of the
``agon.data`` schema (extra ``data``), with the search statistics of ``mcts``, ``az``
and ``alphabeta`` players (each ply's root visit counts and value, the alpha-beta bot's
move and score: ``visit_actions``, ``visit_counts`` and ``search_values``; null for the
other bots). An ``az`` player with Gumbel search (``az:MODEL:VISITS:gK``) writes its
improved policy in place of visit counts, as weights in millionths: the policy target of
Gumbel AlphaZero, which ``agon.data.training_batches`` normalises as it does counts.
The games are played in Rust without the GIL, on ``--workers`` threads (default 1), or as
Ray tasks with ``--ray [ADDRESS]`` (extra ``ray``; no address: a local Ray, or the cluster
of ``RAY_ADDRESS``; ``auto``: the running cluster). A progress line shows the games done,
games per second and the time left, and a summary follows (results by colour and by
player, end reasons, mean length).

A game a UGI engine forfeits (a crash, a hang, a late, illegal or unreadable move) is
written as played up to the forfeit, won by the other side, its ``end_reason`` the
forfeit's (``agon.data.FORFEIT_REASONS``); the run goes on, the next game with a fresh
engine process.

With ``--book``, the games start from the positions of the arena's opening book
(``agon.bots.opening_book``, 300 varied, balanced positions a few plies in) instead of
``--start``: games 2k and 2k + 1 from the book's position k (modulo its length), colours
swapped, as the arena plays them. Searching bots that play the same game from the same
start play much the same game: the book is what makes a dataset of theirs varied.

Every game is a function of ``--seed`` and its id alone (its bots' seeds come from
them), so the same command gives the same games on any number of workers, with or
without Ray (bots with a time limit excepted: they stop by the clock).

Shards and resuming: ``DIR/shard-000000.parquet`` holds games 0 to K-1 (K =
``--shard-size``, default 1000), the next one K to 2K-1, ... Each is written to a
temporary file and renamed into place once complete, and ``DIR/agon-dataset.json``
records the run's settings. Running the same command again after an interruption plays
only the shards that are missing (a retried Ray task rewrites its whole shard), so the
directory ends with exactly N games; a different command on the same directory is
refused.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import re
import sys
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Dict, Iterator, List, Optional, Sequence, Set, Tuple

from ._extras import require

require("pyarrow", "data", "agon.generate")

from . import _agon, _games, data  # noqa: E402
from ._agon import Position, Rules  # noqa: E402

MANIFEST = "agon-dataset.json"
"""The name of the file that records a dataset directory's run settings."""

DEFAULT_SHARD_SIZE = 1000
DEFAULT_MAX_PLIES = _agon.MAX_GAME_PLIES
MAX_GAMES = 10**12


def shard_name(index: int) -> str:
    """The file name of shard ``index``.

    >>> shard_name(12)
    'shard-000012.parquet'
    """
    return f"shard-{index:06d}.parquet"


@dataclass(frozen=True)
class Run:
    """The settings of a generation run: they, and nothing else, fix its games."""

    games: int
    players: Tuple[str, ...]
    seed: int = 0
    shard_size: int = DEFAULT_SHARD_SIZE
    max_plies: int = DEFAULT_MAX_PLIES
    start: str = Position().to_text()
    rules: str = "standard"
    book: bool = False

    def settings(self) -> Dict[str, Any]:
        """The settings as JSON values (what the manifest and the files' metadata hold)."""
        d = asdict(self)
        d["players"] = list(self.players)
        if not self.book:
            # Runs without the book keep the manifests they had before it existed.
            del d["book"]
        return d

    def start_of(self, game_id: int) -> str:
        """The text of game ``game_id``'s start position: ``start``, or with ``book`` the
        book's position ``game_id // 2`` (modulo its length)."""
        if not self.book:
            return self.start
        openings = _book(self.rules)
        return openings[(game_id // 2) % len(openings)]

    @property
    def shards(self) -> int:
        """The number of shards."""
        return math.ceil(self.games / self.shard_size)

    def shard_ids(self, shard: int) -> range:
        """The ids of the games of a shard."""
        return range(shard * self.shard_size, min((shard + 1) * self.shard_size, self.games))

    def game(self, game_id: int) -> Tuple[str, str, int, int, int]:
        """Game ``game_id``: (White's spec, Black's spec, the game's seed, White's seed,
        Black's seed). Player A has White in even-numbered games."""
        a, b = self.players
        white, black = (a, b) if game_id % 2 == 0 else (b, a)
        seed = _games.game_seed(self.seed, game_id)
        white_seed, black_seed = _games.player_seeds(seed)
        return white, black, seed, white_seed, black_seed


_BOOKS: Dict[str, List[str]] = {}


def _book(rules: str) -> List[str]:
    """The opening book's positions under ``rules``, as text (made once per rule set)."""
    if rules not in _BOOKS:
        _BOOKS[rules] = [p.to_text() for p in _agon.opening_book(rules)]
    return _BOOKS[rules]


def check_run(run: Run) -> Run:
    """Checks a run's settings (the specs by making their bots), raising ``ValueError``
    or ``TypeError``; returns it with the start position's text normalised."""
    if not isinstance(run.games, int) or isinstance(run.games, bool):
        raise TypeError("games must be an int")
    if not 1 <= run.games <= MAX_GAMES:
        raise ValueError(f"games must be 1 to {MAX_GAMES}, not {run.games}")
    if not isinstance(run.seed, int) or isinstance(run.seed, bool) or not 0 <= run.seed < 2**64:
        raise ValueError(f"seed must be an int from 0 to 2**64 - 1, not {run.seed!r}")
    for name in ("shard_size", "max_plies"):
        value = getattr(run, name)
        if not isinstance(value, int) or isinstance(value, bool) or value < 1:
            raise ValueError(f"{name} must be a positive int, not {value!r}")
    if run.max_plies > 1_000_000:
        raise ValueError(f"max_plies must be at most 1000000, not {run.max_plies}")
    if len(run.players) != 2:
        raise ValueError(f"two players, not {len(run.players)}")
    players = tuple(_agon.Bot.from_name(p).name for p in run.players)
    rules = Rules(run.rules)
    start = Position(run.start, rules=rules)
    if start.is_over():
        raise ValueError("the start position is already decided: no game can be played from it")
    if not isinstance(run.book, bool):
        raise TypeError(f"book must be a bool, not {run.book!r}")
    if run.book and start != Position(rules=rules):
        raise ValueError("give a start position or the book, not both")
    return Run(run.games, players, run.seed, run.shard_size, run.max_plies, start.to_text(),
               str(rules), run.book)


def play_unit(run: Run, ids: Sequence[int]) -> Any:
    """Plays the games ``ids`` of a run (in Rust, without the GIL) and returns their
    ``pyarrow.Table``, sorted by id. What a worker thread or a Ray task runs."""
    games = [run.game(i) + (run.start_of(i),) for i in ids]
    # One Rust call per pairing of colours and start, so that each call has one pair of
    # specs and one start.
    tables = []
    for white, black, start in sorted({(g[0], g[1], g[5]) for g in games}):
        part = [(i, g) for i, g in zip(ids, games) if (g[0], g[1], g[5]) == (white, black, start)]
        chunk = _games.play_games(
            white, black, [(g[3], g[4]) for _, g in part], start, run.max_plies, stats=True,
            rules=run.rules,
        )
        tables.append(
            data.games_table(
                ids=[i for i, _ in part],
                seeds=[g[2] for _, g in part],
                white=[white] * len(part),
                black=[black] * len(part),
                white_seeds=[g[3] for _, g in part],
                black_seeds=[g[4] for _, g in part],
                start=start,
                actions=chunk.actions,
                offsets=chunk.offsets,
                winners=chunk.winners,
                reasons=chunk.reasons,
                stats=chunk.stats,
                run=run.settings(),
                rules=run.rules,
            )
        )
    table = data.pa.concat_tables(tables)
    return table.sort_by("id")


@dataclass
class Summary:
    """What a run played: games, results by colour and for player A, end reasons, plies,
    and the time taken (for the games played by this call; resumed shards excluded)."""

    players: Tuple[str, ...]
    games: int = 0
    white_wins: int = 0
    black_wins: int = 0
    draws: int = 0
    unfinished: int = 0
    a_wins: int = 0
    b_wins: int = 0
    plies: int = 0
    reasons: Dict[str, int] = field(default_factory=dict)
    seconds: float = 0.0
    skipped_games: int = 0

    def add(self, table: Any) -> None:
        """Counts the games of a table."""
        for game_id, winner, reason, plies in zip(
            table.column("id").to_pylist(),
            table.column("winner").to_pylist(),
            table.column("end_reason").to_pylist(),
            table.column("plies").to_pylist(),
        ):
            self.games += 1
            self.plies += plies
            self.reasons[reason] = self.reasons.get(reason, 0) + 1
            if winner is None:
                self.draws += 1
                self.unfinished += reason == "unfinished"
                continue
            if winner == "white":
                self.white_wins += 1
            else:
                self.black_wins += 1
            a_white = game_id % 2 == 0  # as Run.game deals the colours
            if (winner == "white") == a_white:
                self.a_wins += 1
            else:
                self.b_wins += 1

    @property
    def mean_plies(self) -> float:
        """The mean game length."""
        return self.plies / self.games if self.games else 0.0

    @property
    def games_per_second(self) -> float:
        """Games played per second of wall time."""
        return self.games / self.seconds if self.seconds > 0 else 0.0

    def text(self) -> str:
        """The summary as printed by the command."""
        a, b = self.players
        n = max(self.games, 1)
        lines = [
            f"{self.games} games in {self.seconds:.1f} s ({self.games_per_second:.1f} games/s)"
            + (f"; {self.skipped_games} already written" if self.skipped_games else ""),
            f"by colour: White won {self.white_wins} ({100 * self.white_wins / n:.1f}%), "
            f"Black won {self.black_wins} ({100 * self.black_wins / n:.1f}%), "
            f"drawn {self.draws} ({100 * self.draws / n:.1f}%)"
            + (f", of which {self.unfinished} unfinished (ply cap)" if self.unfinished else ""),
            f"by player: {a} won {self.a_wins}, {b} won {self.b_wins}, drawn {self.draws}",
            "end reasons: " + ", ".join(f"{k} {v}" for k, v in sorted(self.reasons.items())),
            f"mean length: {self.mean_plies:.1f} plies",
        ]
        return "\n".join(lines)


def _prepare(out: Path, run: Run) -> Set[int]:
    """Creates or checks the dataset directory; returns the shards already written."""
    out.mkdir(parents=True, exist_ok=True)
    manifest = out / MANIFEST
    settings = {"schema": "agon-games", **run.settings()}
    if manifest.exists():
        try:
            found = json.loads(manifest.read_text())
        except ValueError as error:
            raise ValueError(f"{manifest}: unreadable manifest: {error}") from None
        if found != settings:
            diff = sorted(k for k in set(found) | set(settings) if found.get(k) != settings.get(k))
            raise ValueError(
                f"{out} holds another run (its {', '.join(diff)} differ): resume it with the "
                f"same settings or use a new directory"
            )
    else:
        temporary = out / f".{MANIFEST}.tmp"
        temporary.write_text(json.dumps(settings, indent=2, sort_keys=True) + "\n")
        os.replace(temporary, manifest)
    data.remove_temporary_files(out)
    written = set()
    for p in out.glob("shard-*.parquet"):
        match = re.fullmatch(r"shard-(\d+)\.parquet", p.name)
        if match and shard_name(int(match.group(1))) == p.name and int(match.group(1)) < run.shards:
            written.add(int(match.group(1)))
    return written


def generate(
    games: int,
    players: Sequence[str],
    out: "str | os.PathLike[str]",
    *,
    seed: int = 0,
    workers: int = 1,
    shard_size: int = DEFAULT_SHARD_SIZE,
    max_plies: int = DEFAULT_MAX_PLIES,
    start: Optional[str] = None,
    ray: bool = False,
    ray_address: Optional[str] = None,
    progress: bool = False,
    chunk_games: int = 64,
    rules: Any = "standard",
    book: bool = False,
) -> Summary:
    """Plays the run's missing shards and writes them to ``out`` (see the module's
    docstring); returns the summary of the games played now. ``workers`` threads play
    the games locally; with ``ray``, Ray tasks do (``ray.init(ray_address)`` unless Ray
    is already initialised). ``chunk_games`` bounds the games of one unit of work. The
    games are played under ``rules`` (a ``Rules`` or its text; the start is read under
    it), which the dataset's ``rules`` column records. With ``book`` they start from the
    opening book's positions (see the module's docstring), and ``start`` must be left out."""
    run = check_run(
        Run(
            games,
            tuple(players),
            seed,
            shard_size,
            max_plies,
            start if start is not None else Position().to_text(),
            str(rules),
            book,
        )
    )
    if not isinstance(workers, int) or isinstance(workers, bool) or workers < 1:
        raise ValueError(f"workers must be a positive int, not {workers!r}")
    directory = Path(out)
    written = _prepare(directory, run)
    done = sum(len(run.shard_ids(k)) for k in written)
    summary = Summary(run.players, skipped_games=done)
    bar = _games.Progress(run.games - done, enabled=progress)
    started = time.monotonic()
    if ray:
        from . import cluster

        cluster.connect(ray_address)
        workers = max(workers, cluster.cpus())
    size = _games.chunk_size(run.games - done, workers, chunk_games)
    # The units of work, made as they are needed: chunks of the shards still to write.
    units = (
        (k, piece)
        for k in range(run.shards)
        if k not in written
        for piece in _games.split(run.shard_ids(k), size)
    )
    waiting: Dict[int, List[Any]] = {}
    results: Iterator[Tuple[Tuple[int, Sequence[int]], Any]]
    if ray:
        results = cluster.run_units(play_unit, run, units)
    else:
        results = _games.run_threads(play_unit, run, units, workers)
    for (k, _), table in results:
        waiting.setdefault(k, []).append(table)
        bar.advance(table.num_rows)
        if len(waiting[k]) == math.ceil(len(run.shard_ids(k)) / size):
            shard = data.pa.concat_tables(waiting.pop(k)).sort_by("id")
            data.write_shard(directory / shard_name(k), shard, run=run.settings())
            summary.add(shard)
    bar.close()
    summary.seconds = time.monotonic() - started
    return summary


def parser() -> argparse.ArgumentParser:
    """The command line of ``python -m agon.generate``."""
    p = argparse.ArgumentParser(
        prog="python -m agon.generate",
        description="Play games between two agon bots and write them as Parquet shards.",
    )
    p.add_argument("--games", type=int, required=True, help="number of games N")
    p.add_argument("--players", nargs=2, required=True, metavar=("A", "B"),
                   help=_games.PLAYERS_HELP)
    p.add_argument("--out", required=True, help="dataset directory (created; resumed if it holds the same run)")
    p.add_argument("--shard-size", type=int, default=DEFAULT_SHARD_SIZE, help="games per shard (default 1000)")
    _games.add_run_options(p, "run", DEFAULT_MAX_PLIES, "stop a game after this many plies, as 'unfinished'")
    p.add_argument("--rules", default="standard", metavar="TEXT",
                   help="the rule set, its text (default standard; e.g. ludii, standard+between=trapped)")
    p.add_argument("--book", action="store_true",
                   help="start the games from the opening book's positions, two each, colours swapped")
    return p


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Runs the command; returns its exit status (0, or 2 for bad arguments)."""
    args = parser().parse_args(argv)
    return _games.run_command(lambda: generate(
        args.games,
        args.players,
        args.out,
        shard_size=args.shard_size,
        rules=args.rules,
        book=args.book,
        **_games.run_options(args),
    ).text())


if __name__ == "__main__":
    sys.exit(main())
