"""Game datasets (``agon.data``): the Parquet format round trip, atomic shards, the training
arrays rebuilt in Rust, and precise errors for bad input."""

from __future__ import annotations

import os
import random
from pathlib import Path
from typing import Any, Dict, List, Mapping, Optional, Tuple

import numpy as np
import numpy.typing as npt
import pytest

import agon
import agon.bots
from conftest import NO_ACTION_IN_ONE, RING_WITHOUT_QUEEN_IN_ONE, THRONE_IN_ONE

data = pytest.importorskip("agon.data")
pa = data.pa
pq = data.pq


def random_game(seed: int, start: Optional[str] = None, max_plies: int = 10_000) -> agon.Game:
    """A game of random moves (through ``Game``, so every move is the core's)."""
    rng = random.Random(seed)
    game = agon.Game(start) if start else agon.Game()
    while not game.is_over() and len(game) < max_plies:
        game.push(rng.choice(game.legal_moves()))
    return game


def repetition_game() -> agon.Game:
    """A game drawn by repetition: both queens step back and forth."""
    game = agon.Game()
    for _ in range(2):
        for m in ["f1-e1", "f11-g10", "e1-f1", "g10-f11"]:
            game.push(m)
    assert game.outcome() is not None and game.outcome().reason == "repetition"  # type: ignore[union-attr]
    return game


def sample_records() -> List[Any]:
    """Records that use every field and every kind of ending."""
    won = random_game(1)
    throne = agon.Game(THRONE_IN_ONE, ["h6-g6"])
    ring = agon.Game(RING_WITHOUT_QUEEN_IN_ONE, ["h6-g6"])
    stuck = agon.Game(NO_ACTION_IN_ONE, ["f8-f7"])
    unfinished = random_game(2, max_plies=17)
    records = [
        data.GameRecord.from_game(won, id=0, white="mcts:200", black="random", seed=2**64 - 1,
                                  white_seed=0, black_seed=2**63),
        data.GameRecord.from_game(throne, id=-5, white="Ωmega", black=""),
        data.GameRecord.from_game(ring, id=2**63 - 1),
        data.GameRecord.from_game(stuck, id=7, seed=3),
        data.GameRecord.from_game(repetition_game(), id=8),
    ]
    legal = [agon.move_to_action(m) for m in agon.Position().legal_moves()]
    visits: List[Optional[Dict[int, int]]] = [None] * len(unfinished)
    visits[0] = {legal[0]: 5, legal[3]: 2**32 - 1}
    values: List[Optional[float]] = [None] * len(unfinished)
    values[0] = 0.25
    values[-1] = -1.0
    records.append(data.GameRecord.from_game(unfinished, id=9, visits=visits, values=values))
    return records


def test_round_trip_of_every_field(tmp_path: Path) -> None:
    records = sample_records()
    path = data.write_shard(tmp_path / "games.parquet", records, run={"note": "test"})
    assert data.read_records(path) == records
    assert data.read_records(tmp_path) == records  # the directory reads the same
    games = data.read_games(path)
    assert [data.GameRecord.from_game(g, id=r.id, white=r.white, black=r.black, seed=r.seed,
                                      white_seed=r.white_seed, black_seed=r.black_seed,
                                      visits=r.visits, values=r.values)
            for g, r in zip(games, records)] == records
    assert [r.to_game() for r in records] == games
    assert [(r.winner, r.end_reason) for r in records] == [
        (records[0].winner, records[0].end_reason),
        ("white", "throne"),
        ("black", "ring-without-queen"),
        ("white", "no-legal-action"),
        (None, "repetition"),
        (None, "unfinished"),
    ]
    table = data.read_table(path)
    meta = table.schema.metadata
    assert meta[b"agon.schema"] == b"agon-games"
    assert meta[b"agon.schema_version"] == b"2"
    assert meta[b"agon.action_count"] == b"3337"
    assert meta[b"agon.run"] == b'{"note": "test"}'
    assert table.column_names == list(data.COLUMNS)
    for field in table.schema:
        assert field.metadata[b"description"], field.name
    assert table.column("plies").to_pylist() == [len(r.moves) for r in records]


def test_games_keep_their_start_and_moves(tmp_path: Path) -> None:
    games = [random_game(s) for s in range(5)] + [agon.Game(THRONE_IN_ONE)]
    records = [data.GameRecord.from_game(g, id=i) for i, g in enumerate(games)]
    data.write_shard(tmp_path / "a.parquet", records[:3])
    data.write_shard(tmp_path / "b.parquet", records[3:])
    assert data.read_games(tmp_path) == games
    assert [g.moves for g in data.read_games(tmp_path)] == [g.moves for g in games]
    assert [g.outcome() for g in data.iter_games(tmp_path, batch_games=2)] == [g.outcome() for g in games]


def test_an_interrupted_write_leaves_no_shard(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    records = sample_records()
    data.write_shard(tmp_path / "shard-000000.parquet", records)

    def half_write(table: Any, where: Any, **kwargs: Any) -> None:
        where.write(b"PAR1 partial")
        raise KeyboardInterrupt  # as if the run were stopped in the middle of the write

    monkeypatch.setattr(data.pq, "write_table", half_write)
    with pytest.raises(KeyboardInterrupt):
        data.write_shard(tmp_path / "shard-000001.parquet", records)
    monkeypatch.undo()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["shard-000000.parquet"]
    # A hard crash leaves its temporary file behind: readers do not see it.
    (tmp_path / ".shard-000001.parquet.0123.tmp").write_bytes(b"PAR1 partial")
    assert data.dataset_files(tmp_path) == [tmp_path / "shard-000000.parquet"]
    assert data.read_records(tmp_path) == records
    assert data.remove_temporary_files(tmp_path) == 1
    assert sorted(p.name for p in tmp_path.iterdir()) == ["shard-000000.parquet"]


def symmetric_reference(game: agon.Game, axial: bool, symmetries: bool) -> Dict[str, npt.NDArray[Any]]:
    """The training arrays of a game from the per-position API: ``observation()``,
    ``action_mask()`` and ``move_to_action`` of each position (or its image) of the game."""
    out: Dict[str, List[Any]] = {k: [] for k in ("observations", "masks", "actions", "results", "plies", "symmetries")}
    outcome = game.outcome()
    for ply, (position, move) in enumerate(zip(game.positions, game.moves)):
        winner = None if outcome is None else outcome.winner
        result = 0.0 if winner is None else (1.0 if winner == position.turn else -1.0)
        for s in agon.Symmetry.all() if symmetries else [agon.Symmetry(0)]:
            image = s.position(position)
            out["observations"].append(image.observation(axial=axial))
            out["masks"].append(image.action_mask())
            out["actions"].append(agon.move_to_action(s.move(move)))
            out["results"].append(result)
            out["plies"].append(ply)
            out["symmetries"].append(s.index)
    return {k: np.array(v) for k, v in out.items()}


@pytest.mark.parametrize("axial, symmetries", [(False, False), (True, False), (False, True), (True, True)])
def test_training_arrays_are_those_of_each_position(tmp_path: Path, axial: bool, symmetries: bool) -> None:
    games = [random_game(10), agon.Game(THRONE_IN_ONE, ["h6-g6"]), repetition_game(), random_game(11, max_plies=30)]
    if symmetries:
        games = [games[0]]
    path = data.write_shard(tmp_path / "g.parquet", [data.GameRecord.from_game(g, id=100 + i) for i, g in enumerate(games)])
    batches = list(data.training_batches(path, batch_size=50, axial=axial, symmetries=symmetries))
    assert all(len(b["actions"]) <= 50 * (12 if symmetries else 1) for b in batches)
    got = {k: np.concatenate([b[k] for b in batches]) for k in batches[0]}
    want = [symmetric_reference(g, axial, symmetries) for g in games]
    for key in ("observations", "masks", "actions", "results", "plies", "symmetries"):
        expected = np.concatenate([w[key] for w in want])
        assert got[key].shape == expected.shape, key
        assert np.array_equal(got[key], expected), key
    assert got["observations"].dtype == np.float32 and got["masks"].dtype == np.bool_
    assert got["actions"].dtype == np.int64 and got["results"].dtype == np.float32
    assert got["game_ids"].tolist() == [100 + i for i, w in enumerate(want) for _ in range(len(w["actions"]))]
    # Each action played is legal in its sample's mask.
    assert got["masks"][np.arange(len(got["actions"])), got["actions"]].all()


def test_batches_split_games_without_changing_the_samples(tmp_path: Path) -> None:
    games = [random_game(s, max_plies=40) for s in range(4)]
    path = data.write_shard(tmp_path / "g.parquet", [data.GameRecord.from_game(g, id=i) for i, g in enumerate(games)])
    whole = list(data.training_batches(path, batch_size=10_000))
    assert len(whole) == 1
    pieces = list(data.training_batches(path, batch_size=7))
    assert [len(b["actions"]) for b in pieces[:-1]] == [7] * (len(pieces) - 1)
    for key in whole[0]:
        assert np.array_equal(np.concatenate([b[key] for b in pieces]), whole[0][key]), key


def test_training_batches_match_a_vecenv_free_replay_of_generated_games(tmp_path: Path) -> None:
    """Generated games (played in Rust) rebuild to the same arrays as their replayed Games."""
    from agon import generate

    generate.generate(6, ["greedy", "random"], tmp_path, seed=3, shard_size=4)
    games = data.read_games(tmp_path)
    got = list(data.training_batches(tmp_path, batch_size=5000))
    arrays = {k: np.concatenate([b[k] for b in got]) for k in got[0]}
    want = [symmetric_reference(g, False, False) for g in games]
    for key in ("observations", "masks", "actions", "results"):
        assert np.array_equal(arrays[key], np.concatenate([w[key] for w in want])), key


@pytest.mark.parametrize("axial", [False, True])
def test_training_arrays_equal_a_replay_in_vecenv(tmp_path: Path, axial: bool) -> None:
    """Each finished game's samples are what a one-game VecEnv shows while it replays the
    moves: the observation and mask before each move, and the final reward, from the
    mover's view, signed back along the game."""
    from agon import generate

    generate.generate(8, ["greedy", "random"], tmp_path, seed=5, shard_size=3)
    games = [g for g in data.read_games(tmp_path) if g.is_over()]
    assert len(games) >= 6
    for game in games:
        path = data.write_shard(tmp_path / "one.parquet", [data.GameRecord.from_game(game, id=1)])
        (batch,) = data.training_batches(path, batch_size=data.MAX_TRAINING_SAMPLES, axial=axial)
        env = agon.VecEnv(1, axial=axial, start=game.start)
        obs, masks = env.reset()
        plies = len(game.moves)
        for ply, move in enumerate(game.moves):
            assert np.array_equal(batch["observations"][ply], obs[0]), ply
            assert np.array_equal(batch["masks"][ply], masks[0]), ply
            action = agon.move_to_action(move)
            assert batch["actions"][ply] == action
            obs, reward, terminated, masks = env.step(np.array([action]))
            assert bool(terminated[0]) == (ply == plies - 1)
        # The last mover's reward, and the opposite for the other side's samples.
        signs = np.array([1.0 if (plies - 1 - ply) % 2 == 0 else -1.0 for ply in range(plies)])
        assert np.array_equal(batch["results"], np.float32(reward[0]) * signs.astype(np.float32))


class Searcher:
    """A player that gives statistics: visits to its move and to one other legal move."""

    name = "searcher"
    seed = 5

    def __init__(self) -> None:
        self.rng = random.Random(5)

    def choose_with_stats(self, game: agon.Game) -> Tuple[agon.Move, Optional[Mapping[int, int]], Optional[float]]:
        moves = game.legal_moves()
        move = self.rng.choice(moves)
        other = moves[0] if moves[0] != move else moves[-1]
        visits = {agon.move_to_action(move): 3}
        if other != move:
            visits[agon.move_to_action(other)] = 1
        return move, visits, 0.5


def test_statistics_fill_the_policies(tmp_path: Path) -> None:
    record = data.play_record(Searcher(), agon.bots.Random(seed=1), id=4, max_plies=30)
    assert record.white == "searcher" and record.black == "random" and record.black_seed == 1
    assert record.visits is not None and record.values is not None
    assert all((v is None) == (ply % 2 == 1) for ply, v in enumerate(record.visits))
    assert record.values[0] == 0.5 and record.values[1] is None
    path = data.write_shard(tmp_path / "s.parquet", [record])
    assert data.read_records(path) == [record]
    (batch,) = data.training_batches(path, batch_size=1000, symmetries=True, policy=True)
    n = record.plies
    assert batch["policies"].shape == (12 * n, agon.ACTION_COUNT)
    assert batch["has_policy"].tolist() == [ply % 2 == 0 for ply in range(n) for _ in range(12)]
    # The search's value of each position where its player gave one, NaN elsewhere.
    assert batch["search_values"].dtype == np.float32
    expected_values = [0.5 if ply % 2 == 0 else np.nan for ply in range(n) for _ in range(12)]
    np.testing.assert_array_equal(batch["search_values"], np.array(expected_values, dtype=np.float32))
    maps = agon.action_symmetries()
    for i in range(12 * n):
        ply, s = divmod(i, 12)
        row = batch["policies"][i]
        visits = record.visits[ply]
        if visits is None:
            assert not row.any()
            continue
        total = sum(visits.values())
        assert row.sum() == pytest.approx(1.0)
        for a, count in visits.items():
            assert row[maps[s][a]] == pytest.approx(count / total)
        # The played action has the most visits.
        assert row[batch["actions"][i]] == row.max()


def test_mcts_is_a_stats_player_and_its_records_round_trip(tmp_path: Path) -> None:
    mcts = agon.bots.MCTS(playouts=24, seed=3)
    assert isinstance(mcts, data.StatsPlayer) and not isinstance(agon.bots.Random(), data.StatsPlayer)
    record = data.play_record(mcts, agon.bots.Random(seed=1), id=1, max_plies=40)
    assert record.white == "mcts:24" and record.white_seed == 3
    assert record.visits is not None and record.values is not None
    game = record.to_game()
    for ply, (action, visits, value) in enumerate(zip(record.moves, record.visits, record.values)):
        if ply % 2 == 1:  # Random's plies
            assert visits is None and value is None
            continue
        assert visits is not None and value is not None
        before = agon.Game(game.start, game.moves[:ply])
        chosen = mcts.choose(before)
        assert chosen is not None and agon.move_to_action(chosen) == action
        assert sum(visits.values()) == 24 and visits[action] == max(visits.values())
        assert -1.0 <= value <= 1.0
    path = data.write_shard(tmp_path / "mcts.parquet", [record])
    (again,) = data.read_records(path)
    assert again.visits == record.visits
    assert again.values == pytest.approx(record.values)


def test_statistics_of_illegal_actions_are_refused(tmp_path: Path) -> None:
    game = random_game(3, max_plies=4)
    bad = data.GameRecord.from_game(game, id=0, visits=[{0: 1}, None, None, None])  # a1 north: no piece there
    path = data.write_shard(tmp_path / "bad.parquet", [bad])  # shapes are fine: written
    with pytest.raises(data.DatasetError, match="ply 0: visits of an action that is not legal"):
        list(data.training_batches(path, policy=True))
    assert len(list(data.training_batches(path))) == 1  # without policies the statistics are not read


# ---------------------------------------------------------------------------------------
# Bad input


def test_bad_types_and_values_are_refused(tmp_path: Path) -> None:
    record = data.GameRecord.from_game(random_game(1, max_plies=5), id=0)
    path = data.write_shard(tmp_path / "ok.parquet", [record])
    with pytest.raises(TypeError):
        data.write_shard(123, [record])
    with pytest.raises(TypeError):
        data.write_shard(tmp_path / "x.parquet", "not records")
    with pytest.raises(TypeError):
        data.write_shard(tmp_path / "x.parquet", [object()])
    with pytest.raises(ValueError, match="must not start with"):
        data.write_shard(tmp_path / ".hidden.parquet", [record])
    with pytest.raises(FileNotFoundError):
        data.write_shard(tmp_path / "missing" / "x.parquet", [record])
    with pytest.raises(TypeError):
        data.read_table(5)
    with pytest.raises(TypeError):
        data.GameRecord.from_game("f1-e1", id=0)
    bad_kwargs: List[Dict[str, Any]] = [{"batch_size": "8"}, {"batch_size": True}, {"symmetries": 1}, {"axial": None}, {"policy": "yes"}]
    for kwargs in bad_kwargs:
        with pytest.raises(TypeError):
            list(data.training_batches(path, **kwargs))
    bad_values: List[Dict[str, Any]] = [
        {"batch_size": 0}, {"batch_size": -3}, {"batch_size": data.MAX_TRAINING_SAMPLES // 12 + 1, "symmetries": True}]
    for kwargs in bad_values:
        with pytest.raises(ValueError):
            list(data.training_batches(path, **kwargs))
    bad_records: List[Tuple[type, Dict[str, Any]]] = [
        (TypeError, {"id": "0"}),
        (TypeError, {"id": True}),
        (ValueError, {"id": 2**63}),
        (ValueError, {"seed": -1}),
        (ValueError, {"white_seed": 2**64}),
        (TypeError, {"white": None}),
        (ValueError, {"winner": "draw"}),
        (ValueError, {"end_reason": "resigned"}),
        (ValueError, {"moves": (3337,)}),
        (TypeError, {"moves": "245"}),
        (TypeError, {"moves": (1.5,)}),
        (ValueError, {"visits": (None,)}),
        (ValueError, {"values": ()}),
        (data.DatasetError, {"moves": record.moves + record.moves[:1]}),  # an illegal move
        (data.DatasetError, {"winner": "white", "end_reason": "throne"}),  # not this game's result
        (data.DatasetError, {"start": "not a position"}),
    ]
    for error, change in bad_records:
        fields = {**record.__dict__, **change}
        with pytest.raises(error):
            data.write_shard(tmp_path / "bad.parquet", [data.GameRecord(**fields)])
    assert not (tmp_path / "bad.parquet").exists()


def test_bad_paths_and_foreign_files(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError):
        data.read_table(tmp_path / "nowhere.parquet")
    with pytest.raises(FileNotFoundError):
        data.read_games(str(tmp_path / "nowhere"))
    (tmp_path / "empty").mkdir()
    with pytest.raises(data.DatasetError, match="holds no .parquet files"):
        data.read_table(tmp_path / "empty")
    junk = tmp_path / "junk.parquet"
    junk.write_bytes(os.urandom(200))
    with pytest.raises(data.DatasetError, match="not a readable Parquet file"):
        data.read_table(junk)
    truncated = tmp_path / "truncated.parquet"
    data.write_shard(truncated, sample_records())
    truncated.write_bytes(truncated.read_bytes()[:-100])
    with pytest.raises(data.DatasetError):
        data.read_records(truncated)
    foreign = tmp_path / "foreign.parquet"
    pq.write_table(pa.table({"x": [1, 2]}), foreign)
    with pytest.raises(data.DatasetError, match="not an agon game dataset"):
        data.read_games(foreign)
    with pytest.raises(data.DatasetError, match="not an agon game dataset"):
        data.read_table(pa.table({"x": [1]}))


def tampered(tmp_path: Path, name: str, change: Any) -> Path:
    """A valid file whose table was changed by ``change(table) -> table``."""
    table = data.records_to_table(sample_records())
    path = tmp_path / name
    pq.write_table(change(table), path)
    return path


def test_corrupt_datasets_are_refused_precisely(tmp_path: Path) -> None:
    def with_meta(key: bytes, value: bytes) -> Any:
        return lambda t: t.replace_schema_metadata({**t.schema.metadata, key: value})

    def with_column(name: str, values: Any) -> Any:
        return lambda t: t.set_column(t.column_names.index(name), t.schema.field(name), values)

    cases = [
        ("newer", with_meta(b"agon.schema_version", b"3"), "newer than this package reads"),
        ("other", with_meta(b"agon.schema", b"chess-games"), "not an agon game dataset"),
        ("version", with_meta(b"agon.schema_version", b"one"), "unreadable schema version"),
        ("type", lambda t: t.set_column(t.column_names.index("plies"), "plies", t.column("plies").cast(pa.float64())),
         "column 'plies' has type double"),
        ("missing", lambda t: t.drop_columns(["end_reason"]), "column 'end_reason' is missing"),
        ("plies", with_column("plies", pa.array([1] * 6, pa.uint32())), "'plies' differs"),
        ("reason", with_column("end_reason", pa.array(["won"] * 6)), "unknown reason"),
        ("winner", with_column("winner", pa.array(["both"] * 6)), "'winner' holds"),
    ]
    for name, change, message in cases:
        path = tampered(tmp_path, f"{name}.parquet", change)
        with pytest.raises(data.DatasetError, match=message):
            data.read_games(path)
    # Moves that are not legal, or a result that is not the game's, fail the replay.
    records = sample_records()
    moves = [list(r.moves) for r in records]
    moves[0][3] = moves[0][2]
    path = tampered(tmp_path, "moves.parquet", with_column("moves", pa.array(moves, data.SCHEMA.field("moves").type)))
    with pytest.raises(data.DatasetError, match="game 0: ply 3: action"):
        data.read_games(path)
    with pytest.raises(data.DatasetError, match="game 0: ply 3"):
        list(data.training_batches(path))
    winners = [r.winner for r in records]
    winners[3] = "black"
    path = tampered(tmp_path, "result.parquet", with_column("winner", pa.array(winners)))
    with pytest.raises(data.DatasetError, match="game 7: stored result"):
        data.read_games(path)
    with pytest.raises(data.DatasetError, match="game 7: stored result"):
        list(data.training_batches(path))


def test_import_agon_data_leaves_agon_free_of_ray(tmp_path: Path) -> None:
    from test_extras import run_python

    result = run_python(
        "import sys, agon.data, agon.generate, agon.tournament\n"
        "print('ray' in sys.modules)"
    )
    assert (result.returncode, result.stdout.strip()) == (0, "False"), result.stderr
    result = run_python("import sys, agon.tournament\nprint('pyarrow' in sys.modules)")
    assert (result.returncode, result.stdout.strip()) == (0, "False"), result.stderr


def test_the_native_helpers_refuse_bad_input() -> None:
    """The private functions behind ``agon.data`` check what they are given: bad shapes,
    types and ranges are ``ValueError`` or ``TypeError``, never a crash."""
    from agon import _agon

    start = agon.Position().to_text()
    ok_actions = np.array([agon.move_to_action("f1-e1")], dtype=np.uint16)
    offsets = np.array([0, 1], dtype=np.int64)
    assert len(_agon._replay_games([start], offsets, ok_actions)) == 1
    bad_calls: List[Tuple[type, Any]] = [
        (ValueError, lambda: _agon._replay_games([start], np.array([0], dtype=np.int64), ok_actions)),
        (ValueError, lambda: _agon._replay_games([start], np.array([1, 0], dtype=np.int64), ok_actions)),
        (ValueError, lambda: _agon._replay_games([start], np.array([0, 2], dtype=np.int64), ok_actions)),
        (ValueError, lambda: _agon._replay_games([start], np.array([-1, 1], dtype=np.int64), ok_actions)),
        (ValueError, lambda: _agon._replay_games(["nonsense"], offsets, ok_actions)),
        (ValueError, lambda: _agon._replay_games([start], offsets, np.array([9999], dtype=np.uint16))),
        (TypeError, lambda: _agon._replay_games([start], offsets.astype(np.int32), ok_actions)),
        (TypeError, lambda: _agon._replay_games([start], offsets, ok_actions.astype(np.int64))),
        (TypeError, lambda: _agon._replay_games(start, offsets, ok_actions)),  # type: ignore[arg-type]
        (ValueError, lambda: _agon._training_arrays([start], offsets, ok_actions, np.array([0], dtype=np.int64), None)),
        (ValueError, lambda: _agon._training_arrays([start], offsets, ok_actions, np.array([1]), np.array([0]))),
        (ValueError, lambda: _agon._training_arrays([start], offsets, ok_actions, np.array([0]), np.array([2]))),
        (ValueError, lambda: _agon._training_arrays([start], offsets, ok_actions, policy=True, visit_actions=[None])),
        (ValueError, lambda: _agon._training_arrays([start], offsets, ok_actions, policy=True,
                                                    visit_actions=[[[1, 2]]], visit_counts=[[[1]]])),
        (ValueError, lambda: _agon._training_arrays([start], offsets, ok_actions, policy=True,
                                                    visit_actions=[[[4000]]], visit_counts=[[[1]]])),
        (ValueError, lambda: _agon._play_games("random", "nobot", [(1, 2)])),
        (ValueError, lambda: _agon._play_games("random", "random", [(1, 2)], max_plies=0)),
        (ValueError, lambda: _agon._play_games("random", "random", [(1, 2)], THRONE_IN_ONE.replace("Gh6", "Gg6"))),
        (OverflowError, lambda: _agon._play_games("random", "random", [(-1, 2)])),
        (ValueError, lambda: _agon._play_games("mcts:0", "random", [(1, 2)])),
    ]
    for error, call in bad_calls:
        with pytest.raises(error):
            call()
    # A non-contiguous array is refused rather than misread.
    with pytest.raises((TypeError, ValueError)):
        _agon._replay_games([start], np.array([0, 9, 1, 9], dtype=np.int64)[::2], ok_actions)


def test_doctests() -> None:
    import doctest

    from agon import _games, generate, tournament

    for module in (data, _games, generate, tournament):
        result = doctest.testmod(module)
        assert result.failed == 0 and result.attempted > 0, module.__name__
