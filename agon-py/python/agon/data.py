"""Game datasets as Parquet files: one row per game, written in shards, read back as
``Game`` objects or as numpy training batches rebuilt in Rust (extra ``data``:
``pip install "agon-rules[data]"``, which brings pyarrow).

>>> import agon, agon.data, tempfile, os
>>> game = agon.Game(moves=["f1-e1", "f11-g10"])
>>> record = agon.data.GameRecord.from_game(game, id=0, white="me", black="you")
>>> path = os.path.join(tempfile.mkdtemp(), "games.parquet")
>>> _ = agon.data.write_shard(path, [record])
>>> agon.data.read_games(path) == [game]
True
>>> batch = next(agon.data.training_batches(path, symmetries=True))
>>> batch["observations"].shape, batch["masks"].shape, batch["actions"].shape
((24, 11, 91), (24, 3337), (24,))

Schema (version 2)
------------------
One row per game; the schema's own metadata says what it is (``agon.schema`` =
``"agon-games"``, ``agon.schema_version`` = ``"2"``, ``agon.action_count`` = ``"3337"``
(the standard action space; a game's own is ``agon.action_count(rules)``),
the writing package's ``agon.version`` and, for generated datasets, the run's settings as
JSON in ``agon.run``), and each field carries its description in its own metadata
(``description``). Columns:

- ``id`` (int64): the game's number in its run (0, 1, ...); generated games are a pure
  function of the run's seed and this number.
- ``seed`` (uint64): the game's seed, from which the players' seeds come.
- ``white``, ``black`` (string): the players: a bot spec (``"mcts:200"``,
  ``"alphabeta:3:500ms"``, ``"random"``: every setting but the seed) or any name.
- ``white_seed``, ``black_seed`` (uint64): the seed each player was made with.
- ``start`` (string): the start position's text (``Position.to_text()``).
- ``rules`` (string): the game's rule set, its text (``str(game.rules)``: ``"standard"``,
  ``"ludii"``, ``"standard+between=trapped"``...; RULES.md section 8). The start is read,
  and the moves replayed, under it.
- ``moves`` (list<uint16>): the moves as action numbers in the action space of the rules
  (``agon.move_to_action(move, position)``; the pass is ``agon.PASS_ACTION``).
- ``plies`` (uint32): the number of moves.
- ``winner`` (string, nullable): ``"white"``, ``"black"``, or null for a draw or an
  unfinished game.
- ``end_reason`` (string): ``"throne"``, ``"ring-without-queen"``, ``"no-legal-action"``,
  ``"repetition"``, ``"two-passes"``, ``"move-limit"``, or ``"unfinished"`` for a game
  stopped before the rules ended it (the generator's ply cap), or one of
  ``FORFEIT_REASONS`` (``"illegal-move"``, ``"unreadable-move"``, ``"time-forfeit"``,
  ``"crash"``, ``"hang"``) for a game a UGI engine player (``ugi:`` spec) lost outside the
  rules: its moves are those played before the forfeit (they replay to a game that goes
  on, as an unfinished one does), its winner the other side.

Version 1 (before rule sets) had no ``rules`` column: its games are standard, and this
package still reads such files, as if their ``rules`` were all ``"standard"``.
- ``visit_actions`` (list<list<uint16>>, nullable) and ``visit_counts``
  (list<list<uint32>>, nullable): the players' search statistics, sparse: for each ply,
  the actions the search visited and their visit counts (null for a ply whose player
  gave none; the whole column entry null when no player of the game gave any). For the
  Gumbel search of ``az:MODEL:VISITS:gK``, the weights of its improved policy in
  millionths; being normalised, they are a policy target as counts are.
- ``search_values`` (list<float32>, nullable): for each ply, the search's value of the
  position for the side to move, in [-1, 1] (null where the player gave none).

The observation planes are never stored: ``training_batches`` replays the moves in Rust
and writes them (with the masks, the actions and the results) on the fly. Readers check
the schema name and version and every column's type, and replaying checks every move and
the stored result, so a foreign or corrupt file is a ``DatasetError`` naming the file,
never wrong data.

**What fills the statistics.** The MCTS bot gives its search's statistics
(``agon.bots.MCTS.choose_with_stats``: the visit counts of the root's moves, which sum to
its playouts, the most visited being the move played, and the mean result of its playouts
as the value), and so does the alpha-beta bot (``agon.bots.AlphaBeta.choose_with_stats``:
the move chosen with a count of 1, and its search's score as a value), so ``python -m
agon.generate`` fills ``visit_actions``, ``visit_counts`` and ``search_values`` for the
plies of ``mcts``, ``alphabeta`` and ``az`` players; the other reference bots give none
(their plies are null, and a game without such players has null columns). They are also filled
for games played with ``play_record`` by players that give statistics (a
``choose_with_stats`` method, like ``agon.bots.MCTS``), or written by hand in
``GameRecord.visits`` and ``GameRecord.values``; ``training_batches(..., policy=True)``
turns them into visit distributions.

Shards
------
``write_shard`` writes to a hidden temporary file in the same directory and renames it
into place (atomic on POSIX and Windows), so an interrupted write never leaves a partial
shard under a shard's name: readers of a directory read its ``*.parquet`` files, and the
temporary files (``.NAME.parquet.*.tmp``) are not among them. ``agon.generate`` names
shards ``shard-000000.parquet``, ... each holding a fixed range of game ids, which is how
it resumes.
"""

from __future__ import annotations

import json
import os
import uuid
from dataclasses import dataclass
from pathlib import Path
from typing import (
    Any,
    Dict,
    Iterable,
    Iterator,
    List,
    Mapping,
    Optional,
    Protocol,
    Sequence,
    Tuple,
    Union,
    runtime_checkable,
)

import numpy as np
import numpy.typing as npt

from . import _agon, _games
from ._agon import ACTION_COUNT, MAX_TRAINING_SAMPLES, Game, Move, Position, Rules, Side, action_count
from ._extras import require

pa = require("pyarrow", "data", "agon.data")
pq = require("pyarrow.parquet", "data", "agon.data")
pc = require("pyarrow.compute", "data", "agon.data")

SCHEMA_NAME = "agon-games"
"""The value of the ``agon.schema`` metadata key of every dataset file."""
SCHEMA_VERSION = 2
"""The schema version this package writes, and the newest it reads (it reads version 1
too: see the module docstring)."""

FORFEIT_REASONS = tuple(_agon.FORFEIT_REASONS)
"""The end reasons of a game a UGI engine forfeited (agon-bots' harness names them)."""
END_REASONS = tuple(_agon.END_REASONS) + ("unfinished",) + FORFEIT_REASONS
"""The values of ``end_reason``: the core's end reasons (``agon.END_REASONS``),
``"unfinished"``, and the forfeits of UGI engines (``FORFEIT_REASONS``)."""
WINNERS = ("white", "black")
"""The values of ``winner`` (null for a draw or an unfinished game)."""

_FIELDS: List[Tuple[str, Any, bool, str]] = [
    ("id", pa.int64(), False, "The game's number in its run (0, 1, ...)."),
    ("seed", pa.uint64(), False, "The game's seed, from which the players' seeds come."),
    ("white", pa.string(), False, "White's player: a bot spec (every setting but the seed) or a name."),
    ("black", pa.string(), False, "Black's player: a bot spec (every setting but the seed) or a name."),
    ("white_seed", pa.uint64(), False, "The seed White's player was made with."),
    ("black_seed", pa.uint64(), False, "The seed Black's player was made with."),
    ("start", pa.string(), False, "The start position's text (Position.to_text())."),
    ("rules", pa.string(), False, "The game's rule set, its text ('standard', 'ludii', ...)."),
    (
        "moves",
        pa.list_(pa.field("item", pa.uint16(), nullable=False)),
        False,
        "The moves as action numbers (agon.move_to_action, below agon.action_count(rules)).",
    ),
    ("plies", pa.uint32(), False, "The number of moves."),
    ("winner", pa.string(), True, "'white', 'black', or null for a draw or an unfinished game."),
    (
        "end_reason",
        pa.string(),
        False,
        "'throne', 'ring-without-queen', 'no-legal-action', 'repetition', 'two-passes', "
        "'move-limit', or 'unfinished' (stopped before the rules ended it), or a UGI "
        "engine's forfeit: 'illegal-move', 'unreadable-move', 'time-forfeit', 'crash', 'hang'.",
    ),
    (
        "visit_actions",
        pa.list_(pa.list_(pa.uint16())),
        True,
        "Per ply, the actions the player's search visited (null: no statistics).",
    ),
    (
        "visit_counts",
        pa.list_(pa.list_(pa.uint32())),
        True,
        "Per ply, the visit counts of visit_actions, in the same order.",
    ),
    (
        "search_values",
        pa.list_(pa.float32()),
        True,
        "Per ply, the search's value of the position for the side to move, in [-1, 1].",
    ),
]

COLUMNS: Tuple[str, ...] = tuple(name for name, _, _, _ in _FIELDS)
"""The columns of the schema, in order."""


def _schema(run: Optional[Mapping[str, Any]] = None) -> Any:
    metadata = {
        "agon.schema": SCHEMA_NAME,
        "agon.schema_version": str(SCHEMA_VERSION),
        "agon.action_count": str(ACTION_COUNT),
        "agon.version": _agon.__version__,
    }
    if run is not None:
        metadata["agon.run"] = json.dumps(dict(run), sort_keys=True)
    return pa.schema(
        [
            pa.field(name, kind, nullable=nullable, metadata={"description": doc})
            for name, kind, nullable, doc in _FIELDS
        ],
        metadata=metadata,
    )


SCHEMA = _schema()
"""The ``pyarrow.Schema`` of version 2, with its metadata and the fields' descriptions."""


class DatasetError(ValueError):
    """A file or table that is not a valid agon game dataset: foreign, of a newer schema,
    with a column of the wrong type, or with games that do not replay as stored. The
    message names the file (or ``<table>``) and, where it applies, the game's id."""


Source = Union[str, "os.PathLike[str]", Any]
"""A dataset: a path to a Parquet file or to a directory of them, or a ``pyarrow.Table``."""


# ---------------------------------------------------------------------------------------
# Records


@dataclass(frozen=True)
class GameRecord:
    """One game as a dataset row (see the schema in the module's docstring).

    ``moves`` are action numbers (of the action space of ``rules``, the rule set's text);
    ``visits`` is None or, per ply, None or a dict from
    action to visit count; ``values`` is None or, per ply, None or the search's value for
    the side to move. ``to_game()`` replays the moves (checking them) into a ``Game``.
    """

    id: int
    start: str
    moves: Tuple[int, ...]
    winner: Optional[str]
    end_reason: str
    white: str = ""
    black: str = ""
    seed: int = 0
    white_seed: int = 0
    black_seed: int = 0
    visits: Optional[Tuple[Optional[Dict[int, int]], ...]] = None
    values: Optional[Tuple[Optional[float], ...]] = None
    rules: str = "standard"

    @property
    def plies(self) -> int:
        """The number of moves."""
        return len(self.moves)

    @classmethod
    def from_game(
        cls,
        game: Game,
        *,
        id: int,
        white: str = "",
        black: str = "",
        seed: int = 0,
        white_seed: int = 0,
        black_seed: int = 0,
        visits: Optional[Sequence[Optional[Mapping[int, int]]]] = None,
        values: Optional[Sequence[Optional[float]]] = None,
    ) -> "GameRecord":
        """The record of a ``Game``: its start, its moves as actions and how it ended
        (``"unfinished"`` if it goes on), with the players and seeds given."""
        if not isinstance(game, Game):
            raise TypeError(f"game must be an agon.Game, not {type(game).__name__}")
        outcome = game.outcome()
        return cls(
            id=id,
            start=game.start.to_text(),
            rules=str(game.rules),
            moves=tuple(int(a) for a in _agon._game_actions(game)),
            winner=_winner_name(outcome.winner) if outcome is not None else None,
            end_reason=str(outcome.reason) if outcome is not None else "unfinished",
            white=white,
            black=black,
            seed=seed,
            white_seed=white_seed,
            black_seed=black_seed,
            visits=None if visits is None else tuple(None if v is None else dict(v) for v in visits),
            values=None if values is None else tuple(values),
        )

    def to_game(self) -> Game:
        """The game, replayed from its moves; raises ``DatasetError`` if a move is
        illegal or the stored result is not the game's."""
        return next(iter_games(records_to_table([self])))


def _winner_name(side: Optional[Side]) -> Optional[str]:
    if side is None:
        return None
    return "white" if side == Side.WHITE else "black"


def _check_record(r: Any, i: int) -> None:
    """Type and range checks of a record, before it is written."""
    where = f"record {i}"
    if not isinstance(r, GameRecord):
        raise TypeError(f"{where}: expected a GameRecord, not {type(r).__name__}")
    for name in ("id", "seed", "white_seed", "black_seed"):
        value = getattr(r, name)
        if not isinstance(value, (int, np.integer)) or isinstance(value, bool):
            raise TypeError(f"{where}: {name} must be an int, not {type(value).__name__}")
        low, high = (-(2**63), 2**63 - 1) if name == "id" else (0, 2**64 - 1)
        if not low <= int(value) <= high:
            raise ValueError(f"{where}: {name} {value} is out of range {low} to {high}")
    for name in ("white", "black", "start", "end_reason", "rules"):
        if not isinstance(getattr(r, name), str):
            raise TypeError(f"{where}: {name} must be a str, not {type(getattr(r, name)).__name__}")
    try:
        width = action_count(Rules(r.rules))
    except ValueError as error:
        raise ValueError(f"{where}: rules {r.rules!r}: {error}") from None
    if r.winner is not None and r.winner not in WINNERS:
        raise ValueError(f"{where}: winner must be 'white', 'black' or None, not {r.winner!r}")
    if r.end_reason not in END_REASONS:
        raise ValueError(f"{where}: end_reason must be one of {END_REASONS}, not {r.end_reason!r}")
    if isinstance(r.moves, (str, bytes)):
        raise TypeError(f"{where}: moves must be a sequence of action numbers, not a str")
    for a in r.moves:
        if not isinstance(a, (int, np.integer)) or isinstance(a, bool):
            raise TypeError(f"{where}: moves must be action numbers (int), not {type(a).__name__}")
        if not 0 <= int(a) < width:
            raise ValueError(f"{where}: action {a} is out of range 0-{width - 1}")
    for name in ("visits", "values"):
        per_ply = getattr(r, name)
        if per_ply is not None and len(per_ply) != len(r.moves):
            raise ValueError(
                f"{where}: {name} must have one entry per move ({len(r.moves)}), not {len(per_ply)}"
            )
    for ply, v in enumerate(r.visits or ()):
        if v is None:
            continue
        if not isinstance(v, Mapping):
            raise TypeError(f"{where}: visits of ply {ply} must be a dict or None")
        for a, n in v.items():
            if not 0 <= int(a) < width or not 0 <= int(n) < 2**32:
                raise ValueError(f"{where}: visits of ply {ply}: bad entry {a}: {n}")
    for ply, value in enumerate(r.values or ()):
        if value is not None and not isinstance(value, (int, float, np.floating)):
            raise TypeError(f"{where}: values of ply {ply} must be a float or None")


def records_to_table(
    records: Iterable[GameRecord], *, run: Optional[Mapping[str, Any]] = None
) -> Any:
    """A ``pyarrow.Table`` of the schema from records, checked field by field (types and
    ranges) and replayed in Rust (so a record whose moves are illegal, or whose result is
    not its game's, raises ``DatasetError`` before anything is written). ``run`` (a
    JSON-able mapping) goes in the ``agon.run`` metadata."""
    if isinstance(records, (str, bytes)) or not isinstance(records, Iterable):
        raise TypeError(f"records must be an iterable of GameRecord, not {type(records).__name__}")
    rows = list(records)
    for i, r in enumerate(rows):
        _check_record(r, i)
    visit_actions = [
        None
        if r.visits is None
        else [None if v is None else [int(a) for a in v] for v in r.visits]
        for r in rows
    ]
    visit_counts = [
        None
        if r.visits is None
        else [None if v is None else [int(n) for n in v.values()] for v in r.visits]
        for r in rows
    ]
    columns = {
        "id": [int(r.id) for r in rows],
        "seed": [int(r.seed) for r in rows],
        "white": [r.white for r in rows],
        "black": [r.black for r in rows],
        "white_seed": [int(r.white_seed) for r in rows],
        "black_seed": [int(r.black_seed) for r in rows],
        "start": [r.start for r in rows],
        "rules": [r.rules for r in rows],
        "moves": [[int(a) for a in r.moves] for r in rows],
        "plies": [len(r.moves) for r in rows],
        "winner": [r.winner for r in rows],
        "end_reason": [r.end_reason for r in rows],
        "visit_actions": visit_actions,
        "visit_counts": visit_counts,
        "search_values": [
            None if r.values is None else [None if v is None else float(v) for v in r.values]
            for r in rows
        ],
    }
    table = pa.Table.from_pydict(columns, schema=_schema(run))
    _check_games(table, "<records>")
    return table


def games_table(
    *,
    ids: Sequence[int],
    seeds: Sequence[int],
    white: Sequence[str],
    black: Sequence[str],
    white_seeds: Sequence[int],
    black_seeds: Sequence[int],
    start: str,
    actions: npt.NDArray[np.uint16],
    offsets: npt.NDArray[np.int64],
    winners: Sequence[Optional[str]],
    reasons: Sequence[str],
    stats: Optional["_games.Stats"] = None,
    run: Optional[Mapping[str, Any]] = None,
    rules: str = "standard",
) -> Any:
    """The table of games played in Rust (actions end to end with their offsets), built
    without a Python loop over the moves: the generator's fast path. ``rules`` is the rule
    set of every game (its text). ``stats``, the
    players' search statistics aligned with ``actions``, fills ``visit_actions``,
    ``visit_counts`` and ``search_values`` (null for a ply without statistics, and for a
    game without any); without it they are null."""
    n = len(ids)
    offsets = np.asarray(offsets, dtype=np.int64)
    first, last = int(offsets[0]), int(offsets[-1])
    offsets32 = pa.array(offsets - first, type=pa.int32())
    values = pa.array(np.asarray(actions[first:last], dtype=np.uint16))
    moves = pa.ListArray.from_arrays(offsets32, values, type=SCHEMA.field("moves").type)
    if stats is None:
        statistics = [
            pa.nulls(n, SCHEMA.field(name).type)
            for name in ("visit_actions", "visit_counts", "search_values")
        ]
    else:
        statistics = _statistics_columns(stats, offsets)
    schema = _schema(run)
    arrays = [
        pa.array(list(ids), type=pa.int64()),
        pa.array(list(seeds), type=pa.uint64()),
        pa.array(list(white), type=pa.string()),
        pa.array(list(black), type=pa.string()),
        pa.array(list(white_seeds), type=pa.uint64()),
        pa.array(list(black_seeds), type=pa.uint64()),
        pa.array([start] * n, type=pa.string()),
        pa.array([str(Rules(rules))] * n, type=pa.string()),
        moves,
        pa.array(np.diff(np.asarray(offsets, dtype=np.int64)).astype(np.uint32)),
        pa.array(list(winners), type=pa.string()),
        pa.array(list(reasons), type=pa.string()),
        *statistics,
    ]
    return pa.Table.from_arrays(arrays, schema=schema)


def _statistics_columns(stats: "_games.Stats", offsets: npt.NDArray[np.int64]) -> List[Any]:
    """The ``visit_actions``, ``visit_counts`` and ``search_values`` columns of games whose
    plies are ``offsets[i]:offsets[i + 1]`` of the per-ply statistics ``stats``."""
    first, last = int(offsets[0]), int(offsets[-1])
    has = np.asarray(stats.has_stats[first:last], dtype=bool)
    ply_visits = np.asarray(stats.visit_offsets[first : last + 1], dtype=np.int64)
    begin, end = int(ply_visits[0]), int(ply_visits[-1])
    ply_offsets = pa.array(ply_visits - begin, type=pa.int32())
    missing = pa.array(~has)
    # A game has statistics when one of its plies has.
    counted = np.concatenate([[0], np.cumsum(has, dtype=np.int64)])
    game_missing = pa.array(counted[offsets[1:] - first] == counted[offsets[:-1] - first])
    game_offsets = pa.array(offsets - first, type=pa.int32())
    columns = []
    for name, flat in (
        ("visit_actions", pa.array(np.asarray(stats.visit_actions[begin:end], dtype=np.uint16))),
        ("visit_counts", pa.array(np.asarray(stats.visit_counts[begin:end], dtype=np.uint32))),
    ):
        plies = pa.ListArray.from_arrays(ply_offsets, flat, mask=missing)
        columns.append(
            pa.ListArray.from_arrays(game_offsets, plies, type=SCHEMA.field(name).type, mask=game_missing)
        )
    ply_values = pa.array(np.asarray(stats.values[first:last], dtype=np.float32), mask=~has)
    columns.append(
        pa.ListArray.from_arrays(
            game_offsets, ply_values, type=SCHEMA.field("search_values").type, mask=game_missing
        )
    )
    return columns


def table_to_records(table: Any) -> List[GameRecord]:
    """The records of a table of the schema (checked as ``read_table`` checks files)."""
    table = _check_table(table, "<table>")
    cols = {name: table.column(name).to_pylist() for name in COLUMNS}
    records = []
    for i in range(table.num_rows):
        acts, counts = cols["visit_actions"][i], cols["visit_counts"][i]
        visits = (
            None
            if acts is None
            else tuple(
                None if a is None else dict(zip(a, c if c is not None else []))
                for a, c in zip(acts, counts if counts is not None else [None] * len(acts))
            )
        )
        values = cols["search_values"][i]
        records.append(
            GameRecord(
                id=cols["id"][i],
                start=cols["start"][i],
                rules=cols["rules"][i],
                moves=tuple(cols["moves"][i]),
                winner=cols["winner"][i],
                end_reason=cols["end_reason"][i],
                white=cols["white"][i],
                black=cols["black"][i],
                seed=cols["seed"][i],
                white_seed=cols["white_seed"][i],
                black_seed=cols["black_seed"][i],
                visits=visits,
                values=None if values is None else tuple(values),
            )
        )
    return records


# ---------------------------------------------------------------------------------------
# Files


def write_shard(
    path: Union[str, "os.PathLike[str]"],
    games: Union[Any, Iterable[GameRecord]],
    *,
    run: Optional[Mapping[str, Any]] = None,
) -> Path:
    """Writes ``games`` (a table of the schema, or ``GameRecord``s) to the Parquet file
    ``path`` atomically: to a hidden temporary file in the same directory, flushed to disk,
    then renamed into place, so that ``path`` never holds a partial file (an interrupted
    write leaves only the temporary file, which readers ignore). Returns the path.

    Records are checked and replayed first (``records_to_table``); a table is checked
    for its schema and contents but not replayed (the generator's tables come straight
    from games played in Rust). ``run`` (a JSON-able mapping) replaces the ``agon.run``
    metadata."""
    if not isinstance(path, (str, os.PathLike)):
        raise TypeError(f"path must be a str or a path, not {type(path).__name__}")
    target = Path(path)
    if target.name.startswith(".") or not target.name:
        raise ValueError(f"a shard's name must not start with '.': {target}")
    if isinstance(games, pa.Table):
        games = _check_table(games, "<table>")
        table = games if run is None else games.replace_schema_metadata(_schema(run).metadata)
    else:
        table = records_to_table(games, run=run)
    if not target.parent.is_dir():
        raise FileNotFoundError(f"no such directory: {str(target.parent)!r}")
    temporary = target.parent / f".{target.name}.{uuid.uuid4().hex}.tmp"
    try:
        with open(temporary, "wb") as f:
            pq.write_table(table, f, compression="zstd")
            f.flush()
            os.fsync(f.fileno())
        os.replace(temporary, target)
    finally:
        if temporary.exists():
            temporary.unlink()
    return target


def remove_temporary_files(directory: Union[str, "os.PathLike[str]"]) -> int:
    """Removes the temporary files that interrupted writes left in ``directory``; returns
    how many there were. Only for a directory that no writer is using."""
    removed = 0
    for p in Path(directory).glob(".*.parquet.*.tmp"):
        p.unlink(missing_ok=True)
        removed += 1
    return removed


def dataset_files(source: Union[str, "os.PathLike[str]"]) -> List[Path]:
    """The Parquet files of a dataset: the file itself, or the ``*.parquet`` files of a
    directory in name order (hidden and temporary files excluded). Raises
    ``FileNotFoundError`` for a path that does not exist and ``DatasetError`` for a
    directory without Parquet files."""
    if not isinstance(source, (str, os.PathLike)):
        raise TypeError(f"a dataset is a path or a pyarrow.Table, not {type(source).__name__}")
    path = Path(source)
    if path.is_dir():
        files = sorted(p for p in path.glob("*.parquet") if not p.name.startswith(".") and p.is_file())
        if not files:
            raise DatasetError(f"{str(path)!r} holds no .parquet files")
        return files
    if not path.exists():
        raise FileNotFoundError(f"no such dataset file or directory: {str(path)!r}")
    return [path]


def _open(path: Path) -> Any:
    try:
        f = pq.ParquetFile(path)
    except (pa.ArrowException, OSError) as error:
        if isinstance(error, (FileNotFoundError, PermissionError, IsADirectoryError)):
            raise
        raise DatasetError(f"{str(path)!r} is not a readable Parquet file: {error}") from error
    _check_schema(f.schema_arrow, repr(str(path)))
    return f


def _check_schema(schema: Any, where: str) -> None:
    meta = schema.metadata or {}
    name = meta.get(b"agon.schema")
    if name is None:
        raise DatasetError(f"{where} is not an agon game dataset: no 'agon.schema' in its metadata")
    if name != SCHEMA_NAME.encode():
        raise DatasetError(f"{where} is not an agon game dataset: its schema is {name.decode(errors='replace')!r}")
    try:
        version = int(meta.get(b"agon.schema_version", b""))
    except ValueError:
        raise DatasetError(f"{where}: unreadable schema version {meta.get(b'agon.schema_version')!r}") from None
    if version > SCHEMA_VERSION:
        raise DatasetError(
            f"{where} has schema version {version}, newer than this package reads "
            f"({SCHEMA_VERSION}): upgrade agon-rules"
        )
    if version < 1:
        raise DatasetError(f"{where}: invalid schema version {version}")
    for field in SCHEMA:
        if version == 1 and field.name == "rules":
            continue  # version 1 had no rules: its games are standard
        index = schema.get_field_index(field.name)
        if index < 0:
            raise DatasetError(f"{where}: column {field.name!r} is missing")
        if not _same_type(schema.field(index).type, field.type):
            raise DatasetError(
                f"{where}: column {field.name!r} has type {schema.field(index).type}, "
                f"expected {field.type}"
            )


def _upgrade(table: Any) -> Any:
    """A table of version 1 (no ``rules`` column: standard games) as version 2; a table
    of version 2 as it is."""
    if "rules" in table.column_names:
        return table
    rules = pa.array(["standard"] * table.num_rows, type=pa.string())
    table = table.add_column(table.column_names.index("start") + 1, SCHEMA.field("rules"), rules)
    metadata = dict(table.schema.metadata or {})
    metadata[b"agon.schema_version"] = str(SCHEMA_VERSION).encode()
    return table.replace_schema_metadata(metadata)


def _same_type(a: Any, b: Any) -> bool:
    """Whether two Arrow types are the same but for the names and nullability of list
    items (which differ between writers)."""
    if pa.types.is_list(a) and pa.types.is_list(b):
        return _same_type(a.value_type, b.value_type)
    return bool(a.equals(b))


def _check_table(table: Any, where: str) -> Any:
    """Schema and content checks that need no replay: required columns without nulls,
    ``plies`` equal to the moves' lengths, known winners, end reasons and rule sets.
    Returns the table as version 2 (a version 1 table with its ``rules``, all standard)."""
    if not isinstance(table, pa.Table):
        raise TypeError(f"expected a pyarrow.Table, not {type(table).__name__}")
    _check_schema(table.schema, where)
    table = _upgrade(table)
    for name, _, nullable, _ in _FIELDS:
        if not nullable and table.column(name).null_count:
            raise DatasetError(f"{where}: column {name!r} has null values")
    moves = table.column("moves")
    if pc.sum(pc.list_value_length(moves).cast(pa.int64())).as_py() and pc.any(
        pc.is_null(pc.list_flatten(moves))
    ).as_py():
        raise DatasetError(f"{where}: column 'moves' has null actions")
    lengths = pc.list_value_length(moves).cast(pa.int64())
    if not pc.all(pc.equal(lengths, table.column("plies").cast(pa.int64()))).as_py() and table.num_rows:
        raise DatasetError(f"{where}: 'plies' differs from the number of moves")
    winners = pc.drop_null(table.column("winner"))
    if len(winners) and not pc.all(pc.is_in(winners, pa.array(WINNERS))).as_py():
        raise DatasetError(f"{where}: 'winner' holds a value other than 'white', 'black' or null")
    if table.num_rows and not pc.all(pc.is_in(table.column("end_reason"), pa.array(END_REASONS))).as_py():
        raise DatasetError(f"{where}: 'end_reason' holds an unknown reason")
    for text in pc.unique(table.column("rules")).to_pylist():
        try:
            Rules(text)
        except ValueError as error:
            raise DatasetError(f"{where}: 'rules' holds {text!r}: {error}") from None
    return table


def read_table(source: Source, *, columns: Optional[Sequence[str]] = None) -> Any:
    """The games of a dataset (a Parquet file, a directory of them, or a table) as one
    ``pyarrow.Table``, checked (schema, types, nulls); ``columns`` selects columns."""
    if isinstance(source, pa.Table):
        source = _check_table(source, "<table>")
        return source.select(list(columns)) if columns is not None else source
    tables = []
    for path in dataset_files(source):
        f = _open(path)
        try:
            table = f.read()
        except (pa.ArrowException, OSError) as error:
            raise DatasetError(f"{str(path)!r}: unreadable Parquet data: {error}") from error
        tables.append(_check_table(table, repr(str(path))))
    table = pa.concat_tables(tables) if len(tables) > 1 else tables[0]
    return table.select(list(columns)) if columns is not None else table


def iter_tables(source: Source, *, batch_games: int = 1024) -> Iterator[Any]:
    """The games of a dataset as tables of at most ``batch_games`` rows, file by file,
    without reading whole files into memory; each is checked as ``read_table`` checks."""
    _positive("batch_games", batch_games)
    if isinstance(source, pa.Table):
        source = _check_table(source, "<table>")
        for batch in source.to_batches(max_chunksize=batch_games):
            yield pa.Table.from_batches([batch], schema=source.schema)
        return
    for path in dataset_files(source):
        f = _open(path)
        schema = f.schema_arrow
        try:
            for batch in f.iter_batches(batch_size=batch_games):
                table = pa.Table.from_batches([batch]).replace_schema_metadata(schema.metadata)
                yield _check_table(table, repr(str(path)))
        except (pa.ArrowException, OSError) as error:
            raise DatasetError(f"{str(path)!r}: unreadable Parquet data: {error}") from error


def read_records(source: Source) -> List[GameRecord]:
    """Every game of a dataset as a ``GameRecord`` (no replay)."""
    return [r for table in iter_tables(source) for r in table_to_records(table)]


def _flat_moves(table: Any) -> Tuple[List[str], npt.NDArray[np.int64], npt.NDArray[np.uint16]]:
    """The start texts, offsets and actions of a table's games, as Rust reads them (with
    ``table.column("rules")``, their rule sets)."""
    moves = table.column("moves").combine_chunks()
    if isinstance(moves, pa.ChunkedArray):  # an empty table
        moves = pa.array([], type=SCHEMA.field("moves").type)
    offsets = moves.offsets.to_numpy().astype(np.int64)
    actions = moves.values.to_numpy(zero_copy_only=False).astype(np.uint16, copy=False)
    return table.column("start").to_pylist(), offsets, actions


def _check_outcomes(
    table: Any, winners: Sequence[Optional[str]], reasons: Sequence[str], where: str
) -> None:
    stored_w = table.column("winner").to_pylist()
    stored_r = table.column("end_reason").to_pylist()
    ids = table.column("id").to_pylist()
    for i, (w, r, w2, r2) in enumerate(zip(stored_w, stored_r, winners, reasons)):
        # A forfeit stops a game the rules had not ended: its moves replay to no result.
        forfeit = r in FORFEIT_REASONS and w in WINNERS and (w2, r2) == (None, "unfinished")
        if (w, r) != (w2, r2) and not forfeit:
            raise DatasetError(
                f"{where}: game {ids[i]}: stored result (winner {w!r}, {r!r}) is not the "
                f"one its moves give (winner {w2!r}, {r2!r})"
            )


def _check_games(table: Any, where: str) -> None:
    """Replays every game of a table (in Rust) and compares its result with the stored
    one, one rule set at a time."""
    for text in pc.unique(table.column("rules")).to_pylist():
        part = table.filter(pc.equal(table.column("rules"), text))
        starts, offsets, actions = _flat_moves(part)
        zeros = np.zeros(len(starts), dtype=np.int64)
        try:
            out = _agon._training_arrays(
                starts, offsets, actions, zeros, zeros, rules=[text] * len(starts)
            )
        except ValueError as error:
            raise DatasetError(f"{where}: {error}") from error
        _check_outcomes(part, out["winners"], out["reasons"], where)


def iter_games(source: Source, *, batch_games: int = 1024) -> Iterator[Game]:
    """Every game of a dataset as a ``Game``, replayed (in Rust) from its start and
    actions; raises ``DatasetError`` for a move that does not replay or a stored result
    that is not the game's."""
    for table in iter_tables(source, batch_games=batch_games):
        starts, offsets, actions = _flat_moves(table)
        try:
            games = _agon._replay_games(starts, offsets, actions, table.column("rules").to_pylist())
        except ValueError as error:
            raise DatasetError(f"{_where(source)}: {error}") from error
        winners = []
        reasons = []
        for g in games:
            o = g.outcome()
            winners.append(None if o is None else _winner_name(o.winner))
            reasons.append("unfinished" if o is None else str(o.reason))
        _check_outcomes(table, winners, reasons, _where(source))
        yield from games


def read_games(source: Source) -> List[Game]:
    """Every game of a dataset as a ``Game`` (see ``iter_games``)."""
    return list(iter_games(source))


def _where(source: Source) -> str:
    return "<table>" if isinstance(source, pa.Table) else repr(str(source))


def _positive(name: str, value: Any) -> int:
    if not isinstance(value, (int, np.integer)) or isinstance(value, bool):
        raise TypeError(f"{name} must be an int, not {type(value).__name__}")
    if value < 1:
        raise ValueError(f"{name} must be at least 1, not {value}")
    return int(value)


def _flag(name: str, value: Any) -> bool:
    if not isinstance(value, bool):
        raise TypeError(f"{name} must be a bool, not {type(value).__name__}")
    return value


# ---------------------------------------------------------------------------------------
# Training


TrainingBatch = Dict[str, npt.NDArray[Any]]
"""A training batch: a dict of numpy arrays with one row per sample (see
``training_batches``)."""


def training_batches(
    source: Source,
    *,
    batch_size: int = 1024,
    symmetries: bool = False,
    axial: bool = False,
    policy: bool = False,
) -> Iterator[TrainingBatch]:
    """Training batches rebuilt from a dataset's moves in Rust (the planes are never
    stored): one sample per position before a move, in game and ply order, and with
    ``symmetries`` its twelve images in the order of ``Symmetry(0..11)`` (identity
    first). ``batch_size`` counts positions: each batch has at most ``batch_size``
    positions (times 12 with the symmetries), at most ``MAX_TRAINING_SAMPLES`` samples;
    a game may span two batches. Each batch is a dict of numpy arrays:

    - ``observations``: float32 ``(B, 11, 91)``, or ``(B, 11, 11, 11)`` with ``axial``:
      exactly ``Position.observation(axial)`` of the position (or of its image);
    - ``masks``: bool ``(B, action_count(rules))``: its ``action_mask()`` (a batch holds
      the games of one rule set: a new rule set starts a new batch, which may then be
      smaller than ``batch_size``);
    - ``actions``: int64 ``(B,)``: the action played (``move_to_action``, or its image);
    - ``results``: float32 ``(B,)``: the game's final result for the side that played it:
      +1 won, -1 lost, 0 a draw or an unfinished game;
    - ``game_ids``, ``plies``, ``symmetries``: int64 ``(B,)``: the game's ``id``, the ply
      (0 for the start) and the symmetry applied (0 the identity);
    - with ``policy``: ``policies``, float32 ``(B, action_count(rules))``: the search's visit
      counts over their sum (zeros where the player gave none), and ``has_policy``, bool
      ``(B,)``; and ``search_values``, float32 ``(B,)``: the search's value of the
      position for its player (``search_values`` of the dataset), NaN where the player
      gave none.

    Raises ``DatasetError`` for a game that does not replay as stored (and, with
    ``policy``, statistics naming actions that are not legal).
    """
    size = _positive("batch_size", batch_size)
    per_position = 12 if _flag("symmetries", symmetries) else 1
    _flag("axial", axial)
    _flag("policy", policy)
    if size * per_position > MAX_TRAINING_SAMPLES:
        raise ValueError(
            f"batch_size must be at most {MAX_TRAINING_SAMPLES // per_position} positions "
            f"(MAX_TRAINING_SAMPLES = {MAX_TRAINING_SAMPLES} samples"
            f"{', with the 12 symmetries' if symmetries else ''}), not {size}"
        )
    # Pieces of games (table, row, first ply, end ply), gathered until a batch is full.
    pending: List[Tuple[Any, int, int, int]] = []
    filled = 0
    pending_rules: Optional[str] = None
    for table in iter_tables(source, batch_games=max(1, min(size, 4096))):
        plies = table.column("plies").to_numpy()
        rules = table.column("rules").to_pylist()
        for row in range(table.num_rows):
            if pending and rules[row] != pending_rules:
                # A batch holds one rule set (one width of masks).
                yield _build_batch(pending, axial, symmetries, policy, source)
                pending, filled = [], 0
            pending_rules = rules[row]
            ply, end = 0, int(plies[row])
            while ply < end:
                take = min(end - ply, size - filled)
                pending.append((table, row, ply, ply + take))
                filled += take
                ply += take
                if filled == size:
                    yield _build_batch(pending, axial, symmetries, policy, source)
                    pending, filled = [], 0
    if pending:
        yield _build_batch(pending, axial, symmetries, policy, source)


def _build_batch(
    pieces: List[Tuple[Any, int, int, int]],
    axial: bool,
    symmetries: bool,
    policy: bool,
    source: Source,
) -> TrainingBatch:
    tables = {id(t): t for t, _, _, _ in pieces}
    parts = []
    for key, table in tables.items():
        rows = [(row, b, e) for t, row, b, e in pieces if id(t) == key]
        indices = pa.array([r for r, _, _ in rows], type=pa.int64())
        parts.append((table.take(indices), rows))
    sub = pa.concat_tables([p for p, _ in parts]) if len(parts) > 1 else parts[0][0]
    rows = [r for _, rs in parts for r in rs]
    starts, offsets, actions = _flat_moves(sub)
    begin = np.array([b for _, b, _ in rows], dtype=np.int64)
    end = np.array([e for _, _, e in rows], dtype=np.int64)
    kwargs: Dict[str, Any] = {}
    if policy:
        kwargs["visit_actions"] = sub.column("visit_actions").to_pylist()
        kwargs["visit_counts"] = sub.column("visit_counts").to_pylist()
    try:
        out = _agon._training_arrays(
            starts, offsets, actions, begin, end,
            axial=axial, symmetries=symmetries, policy=policy,
            rules=sub.column("rules").to_pylist(), **kwargs,
        )
    except ValueError as error:
        raise DatasetError(f"{_where(source)}: {error}") from error
    _check_outcomes(sub, out.pop("winners"), out.pop("reasons"), _where(source))
    ids = sub.column("id").to_numpy()
    games = out.pop("games")
    batch: TrainingBatch = {
        "observations": out["observations"],
        "masks": out["masks"],
        "actions": out["actions"],
        "results": out["results"],
        "game_ids": ids[games].astype(np.int64),
        "plies": out["plies"],
        "symmetries": out["symmetries"],
    }
    if policy:
        batch["policies"] = out["policies"]
        batch["has_policy"] = out["has_policy"]
        batch["search_values"] = _search_values(sub, games, out["plies"])
    return batch


def _search_values(table: Any, games: npt.NDArray[Any], plies: npt.NDArray[Any]) -> npt.NDArray[np.float32]:
    """The stored search value of each sample (game ``games[i]`` of ``table`` before ply
    ``plies[i]``), NaN where there is none."""
    column = table.column("search_values").combine_chunks()
    if isinstance(column, pa.ChunkedArray):  # an empty table
        return np.full(len(games), np.nan, dtype=np.float32)
    # A null list (a game without statistics) has no values: its offsets are equal.
    offsets = column.offsets.to_numpy().astype(np.int64)
    offsets -= offsets[0]  # flatten() starts at the (possibly sliced) array's first value
    flat = column.flatten().to_numpy(zero_copy_only=False).astype(np.float32)
    games = np.asarray(games, dtype=np.int64)
    plies = np.asarray(plies, dtype=np.int64)
    found = plies < offsets[games + 1] - offsets[games]
    out = np.full(len(games), np.nan, dtype=np.float32)
    out[found] = flat[offsets[games[found]] + plies[found]]
    return out


# ---------------------------------------------------------------------------------------
# Players that give statistics


@runtime_checkable
class StatsPlayer(Protocol):
    """A player that gives its search's statistics with its move: ``choose_with_stats``
    returns the move, the visit count of each action it searched (or None) and its value
    of the position for the side to move (or None)."""

    name: str

    def choose_with_stats(
        self, game: Game
    ) -> Tuple[Move, Optional[Mapping[int, int]], Optional[float]]: ...


def play_record(
    white: Any,
    black: Any,
    *,
    id: int = 0,
    seed: int = 0,
    start: Optional[Union[Position, str]] = None,
    max_plies: int = 2000,
    rules: Optional[Union[Rules, str]] = None,
) -> GameRecord:
    """Plays one game between two players and returns its record, with the statistics of
    players that give them. A player is an ``agon.bots.Bot``, a ``StatsPlayer``, or any
    object with ``name`` and ``choose(game)``; the one to act is that of the chooser
    (``Game.chooser``). The game is played under ``rules`` if given, else those of a
    ``Position`` start (standard for a text or no start). Every move is played through ``Game``
    (the core checks it); a game still going after ``max_plies`` is ``"unfinished"``."""
    game = Game(start, rules=rules)
    max_plies = _positive("max_plies", max_plies)
    players = (white, black)
    for p in players:
        if not (isinstance(p, StatsPlayer) or callable(getattr(p, "choose", None))):
            raise TypeError(f"a player needs choose(game) or choose_with_stats(game): {p!r}")
    visits: List[Optional[Dict[int, int]]] = []
    values: List[Optional[float]] = []
    while not game.is_over() and len(game) < max_plies:
        player = players[int(game.chooser)]  # the player to act
        if isinstance(player, StatsPlayer):
            move, v, value = player.choose_with_stats(game.copy())
            visits.append(None if v is None else {int(a): int(n) for a, n in v.items()})
            values.append(None if value is None else float(value))
        else:
            move = player.choose(game.copy())
            visits.append(None)
            values.append(None)
        if move is None:
            raise ValueError(f"player {getattr(player, 'name', player)!r} chose no move")
        game.push(move)
    return GameRecord.from_game(
        game,
        id=id,
        white=str(getattr(white, "name", "")),
        black=str(getattr(black, "name", "")),
        seed=seed,
        white_seed=int(getattr(white, "seed", 0)),
        black_seed=int(getattr(black, "seed", 0)),
        visits=visits if any(v is not None for v in visits) else None,
        values=values if any(v is not None for v in values) else None,
    )


__all__ = [
    "COLUMNS",
    "DatasetError",
    "END_REASONS",
    "FORFEIT_REASONS",
    "GameRecord",
    "MAX_TRAINING_SAMPLES",
    "SCHEMA",
    "SCHEMA_NAME",
    "SCHEMA_VERSION",
    "StatsPlayer",
    "TrainingBatch",
    "WINNERS",
    "dataset_files",
    "games_table",
    "iter_games",
    "iter_tables",
    "play_record",
    "read_games",
    "read_records",
    "read_table",
    "records_to_table",
    "remove_temporary_files",
    "table_to_records",
    "training_batches",
    "write_shard",
]
