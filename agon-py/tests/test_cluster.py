"""Generation, tournaments and agon.az self-play as Ray tasks (``agon.cluster``), on a local Ray started once
for the module (``ray.init(num_cpus=2)``): the same results as without Ray, and a task
whose worker dies is retried without counting its games twice."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Iterator

import pytest

ray = pytest.importorskip("ray")
data = pytest.importorskip("agon.data")
from agon import cluster, generate, tournament  # noqa: E402


@pytest.fixture(scope="module")
def fail_once(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """A local Ray whose workers see the fault-injection directory (armed by a test)."""
    directory = tmp_path_factory.mktemp("fail-once")
    os.environ[cluster.FAIL_ONCE] = str(directory)
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        yield directory
    finally:
        ray.shutdown()
        del os.environ[cluster.FAIL_ONCE]


def test_generation_on_ray_is_the_same_and_survives_a_dead_worker(fail_once: Path, tmp_path: Path) -> None:
    local = generate.generate(30, ["greedy", "random"], tmp_path / "local", seed=6, shard_size=8)
    (fail_once / "armed").write_text("")
    on_ray = generate.generate(30, ["greedy", "random"], tmp_path / "ray", seed=6, shard_size=8,
                               ray=True, chunk_games=4)
    # One task's worker died (the first to start) and Ray ran it again.
    assert (fail_once / "fired").exists() and not (fail_once / "armed").exists()
    assert on_ray.games == local.games == 30
    a = data.read_table(tmp_path / "local").sort_by("id")
    b = data.read_table(tmp_path / "ray").sort_by("id")
    assert b.column("id").to_pylist() == list(range(30))
    assert a.equals(b)


def test_a_tournament_on_ray_is_the_same(fail_once: Path) -> None:
    players = ["greedy", "random", "alphabeta:1"]
    on_ray = tournament.tournament(players, 4, seed=8, ray=True, chunk_games=2)
    assert on_ray == tournament.tournament(players, 4, seed=8)
    assert len(on_ray.games) == 12


def test_the_commands_take_ray(fail_once: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # Ray is already initialised: the commands use it.
    assert generate.main(["--games", "6", "--players", "random", "greedy", "--out", str(tmp_path),
                          "--ray", "--no-progress"]) == 0
    assert tournament.main(["--players", "random", "greedy", "--games-per-pair", "2", "--ray",
                            "--no-progress"]) == 0
    out = capsys.readouterr().out
    assert "6 games in" in out and "Round robin: 2 players" in out
    assert data.read_table(tmp_path).num_rows == 6


def test_az_self_play_on_ray_is_the_same(fail_once: Path, short_tmp: Path) -> None:
    pytest.importorskip("jax")
    from agon.az import loop

    run = loop.Run(games=4, visits=4, temperature_plies=4, max_plies=24, blocks=1, channels=8,
                   max_steps=1, batch_samples=64, gate_games=0, eval_opponents=[], eval_games=0)
    [local] = loop.loop(short_tmp / "local", 1, run)
    [on_ray] = loop.loop(short_tmp / "ray", 1, run, ray=True)
    assert local["games"] == on_ray["games"] == 4
    a = data.read_table(short_tmp / "local" / "gen-0001" / "games").sort_by("id")
    b = data.read_table(short_tmp / "ray" / "gen-0001" / "games").sort_by("id")
    # The same games; the players' specs differ only in their network's path.
    assert a.column("white").to_pylist()[0].startswith(f"az:{short_tmp / 'local'}")
    players = ["white", "black"]
    assert a.num_rows == 4 and a.drop_columns(players).equals(b.drop_columns(players))
    # The self-play games carry the searches' visit counts, on Ray as locally.
    batch = next(data.training_batches(short_tmp / "ray" / "gen-0001" / "games", policy=True))
    assert batch["has_policy"].all()
