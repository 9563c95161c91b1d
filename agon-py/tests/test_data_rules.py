"""Datasets under rule sets: schema version 2's ``rules`` column, the reading of version 1
files (standard games), training batches of one rule set each, and ``python -m
agon.generate --rules``."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import agon

pytest.importorskip("pyarrow")

import agon.data  # noqa: E402
import agon.generate  # noqa: E402

LUDII = "ludii"
TRAPPED = "standard+between=trapped"
NEXT_RING = "standard+guard-return=next-ring"


def random_game(rules: str, seed: int, plies: int = 200) -> agon.Game:
    game = agon.Game(rules=rules)
    rng = np.random.default_rng(seed)
    while not game.is_over() and len(game) < plies:
        game.push_action(int(rng.choice(game.legal_actions())))
    return game


@pytest.mark.parametrize("rules", [LUDII, TRAPPED, NEXT_RING])
def test_records_round_trip_under_rules(rules: str, tmp_path: Path) -> None:
    games = [random_game(rules, seed) for seed in range(3)]
    records = [agon.data.GameRecord.from_game(g, id=i) for i, g in enumerate(games)]
    assert all(r.rules == rules for r in records)
    path = agon.data.write_shard(tmp_path / "games.parquet", records)
    assert agon.data.read_games(path) == games
    assert agon.data.read_records(path) == records
    assert agon.data.read_table(path).column("rules").to_pylist() == [rules] * 3
    [batch] = list(agon.data.training_batches(path, batch_size=4096))
    width = agon.action_count(rules)
    assert batch["masks"].shape == (sum(len(g) for g in games), width)
    assert all(batch["masks"][i][a] for i, a in enumerate(batch["actions"]))


def test_mixed_rule_sets_make_separate_batches(tmp_path: Path) -> None:
    games = [random_game(LUDII, 1), random_game("standard", 2), random_game(NEXT_RING, 3)]
    records = [agon.data.GameRecord.from_game(g, id=i) for i, g in enumerate(games)]
    path = agon.data.write_shard(tmp_path / "mixed.parquet", records)
    batches = list(agon.data.training_batches(path, batch_size=4096))
    assert [b["masks"].shape[1] for b in batches] == [3338, 3337, 8889]
    assert agon.data.read_games(path) == games


def test_a_record_of_unknown_rules_is_refused() -> None:
    record = agon.data.GameRecord(id=0, start=agon.STARTING_TEXT, moves=(), winner=None,
                                  end_reason="unfinished", rules="standard+nonsense=1")
    with pytest.raises(ValueError):
        agon.data.records_to_table([record])
    with pytest.raises(ValueError):
        agon.data.records_to_table([agon.data.GameRecord(
            id=0, start=agon.STARTING_TEXT, moves=(agon.PASS_ACTION,), winner=None,
            end_reason="unfinished")])


def test_version_1_files_read_as_standard(tmp_path: Path) -> None:
    """A file of version 1 (no rules column) is read as standard games."""
    pa, pq = agon.data.pa, agon.data.pq
    game = random_game("standard", 5)
    table = agon.data.records_to_table([agon.data.GameRecord.from_game(game, id=0)])
    old = table.drop_columns(["rules"])
    meta = dict(old.schema.metadata)
    meta[b"agon.schema_version"] = b"1"
    old = old.replace_schema_metadata(meta)
    path = tmp_path / "v1.parquet"
    pq.write_table(old, path)
    assert agon.data.read_games(path) == [game]
    assert agon.data.read_records(path)[0].rules == "standard"
    read = agon.data.read_table(path)
    assert read.column("rules").to_pylist() == ["standard"]
    assert read.schema.metadata[b"agon.schema_version"] == b"2"
    assert isinstance(read, pa.Table)
    # Version 2 without its rules column is not a valid file.
    broken = table.drop_columns(["rules"])
    with pytest.raises(agon.data.DatasetError):
        agon.data.read_table(broken)


@pytest.mark.parametrize("rules", [LUDII, TRAPPED])
def test_generate_under_rules(rules: str, tmp_path: Path) -> None:
    out = tmp_path / "run"
    status = agon.generate.main(["--games", "4", "--players", "random", "greedy", "--out",
                                 str(out), "--rules", rules, "--max-plies", "300",
                                 "--no-progress"])
    assert status == 0
    table = agon.data.read_table(out)
    assert table.column("rules").to_pylist() == [str(agon.Rules(rules))] * 4
    games = agon.data.read_games(out)
    assert all(g.rules == agon.Rules(rules) for g in games)
    assert status == agon.generate.main(["--games", "4", "--players", "random", "greedy",
                                         "--out", str(out), "--rules", rules, "--max-plies",
                                         "300", "--no-progress"])
