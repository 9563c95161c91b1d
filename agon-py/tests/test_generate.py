"""Dataset generation (``agon.generate``) and round robins (``agon.tournament``) on one
machine: the same games whatever the workers, exact resumption, and the commands."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any, List

import numpy as np
import pytest

import agon
import agon.bots

data = pytest.importorskip("agon.data")
from agon import generate, tournament  # noqa: E402


def table_of(directory: Path) -> Any:
    return data.read_table(directory).sort_by("id")


def test_the_games_do_not_depend_on_the_workers(tmp_path: Path) -> None:
    one = generate.generate(40, ["greedy", "random"], tmp_path / "one", seed=9, shard_size=16)
    two = generate.generate(40, ["greedy", "random"], tmp_path / "two", seed=9, shard_size=16,
                            workers=2, chunk_games=3)
    assert one.games == two.games == 40
    assert sorted(p.name for p in (tmp_path / "two").glob("*.parquet")) == [
        "shard-000000.parquet", "shard-000001.parquet", "shard-000002.parquet"]
    a, b = table_of(tmp_path / "one"), table_of(tmp_path / "two")
    assert a.equals(b)
    assert a.column("id").to_pylist() == list(range(40))
    # Colours alternate, and each game's seeds are the run's.
    assert a.column("white").to_pylist()[:4] == ["greedy", "random", "greedy", "random"]
    run = generate.Run(40, ("greedy", "random"), 9, 16)
    assert [run.game(i)[2:] for i in range(40)] == list(zip(
        a.column("seed").to_pylist(), a.column("white_seed").to_pylist(), a.column("black_seed").to_pylist()))
    # Another seed gives other games.
    generate.generate(40, ["greedy", "random"], tmp_path / "other", seed=10, shard_size=16)
    assert not table_of(tmp_path / "other").column("moves").equals(a.column("moves"))
    # Every game replays to its stored result (read_games checks it).
    assert len(data.read_games(tmp_path / "two")) == 40


def test_mcts_datasets_carry_their_visit_counts(tmp_path: Path) -> None:
    """Each ply of an MCTS player has its root's visits (summing to the playouts, the move
    played the most visited) and value; the other player's plies have none, and a game
    without MCTS has null statistics. The statistics round-trip and make the policies."""
    generate.generate(6, ["mcts:16", "greedy"], tmp_path / "mcts", seed=2, shard_size=4,
                      max_plies=50, workers=2, chunk_games=1)
    records = data.read_records(tmp_path / "mcts")
    assert len(records) == 6
    stats_plies = 0
    for r in records:
        assert r.visits is not None and r.values is not None
        mcts_moves_first = r.white == "mcts:16"
        game = r.to_game()
        for ply, (action, visits, value) in enumerate(zip(r.moves, r.visits, r.values)):
            if (ply % 2 == 0) != mcts_moves_first:
                assert visits is None and value is None
                continue
            assert visits is not None and value is not None
            stats_plies += 1
            assert sum(visits.values()) == 16
            assert visits[action] == max(visits.values())
            legal = {agon.move_to_action(m) for m in agon.Game(game.start, game.moves[:ply]).legal_moves()}
            assert set(visits) <= legal and -1.0 <= value <= 1.0
        # The moves are those of the bots: MCTS's statistics change nothing of its play.
        seeds = (r.white_seed, r.black_seed)
        bots = [agon.bots.Bot.from_name(r.white, seeds[0]), agon.bots.Bot.from_name(r.black, seeds[1])]
        replay = agon.Game()
        while len(replay) < r.plies:
            chosen = bots[len(replay) % 2].choose(replay)
            assert chosen is not None
            replay.push(chosen)
        assert replay == game
    assert stats_plies == sum(r.plies for r in records) // 2
    # The same games on one worker, statistics included.
    generate.generate(6, ["mcts:16", "greedy"], tmp_path / "one", seed=2, shard_size=4, max_plies=50)
    assert table_of(tmp_path / "one").equals(table_of(tmp_path / "mcts"))
    # The statistics make the policies of the MCTS plies.
    (batch,) = data.training_batches(tmp_path / "mcts", batch_size=1000, policy=True)
    assert int(batch["has_policy"].sum()) == stats_plies
    policies = batch["policies"][batch["has_policy"]]
    assert np.allclose(policies.sum(axis=1), 1.0)
    played = batch["actions"][batch["has_policy"]]
    assert np.array_equal(policies[np.arange(len(played)), played], policies.max(axis=1))
    # No MCTS: no statistics.
    generate.generate(2, ["greedy", "random"], tmp_path / "none", seed=2, max_plies=20)
    table = data.read_table(tmp_path / "none")
    for name in ("visit_actions", "visit_counts", "search_values"):
        assert table.column(name).null_count == 2


def test_the_summary_counts_the_games(tmp_path: Path) -> None:
    s = generate.generate(30, ["random", "greedy"], tmp_path, seed=1, max_plies=60)
    table = table_of(tmp_path)
    winners = table.column("winner").to_pylist()
    assert s.white_wins == winners.count("white") and s.black_wins == winners.count("black")
    assert s.draws == winners.count(None) and s.games == 30
    assert s.unfinished == table.column("end_reason").to_pylist().count("unfinished") > 0
    assert s.a_wins + s.b_wins + s.draws == 30
    assert s.plies == sum(table.column("plies").to_pylist())
    assert max(table.column("plies").to_pylist()) == 60
    text = s.text()
    assert "by colour: White won" in text and "mean length" in text and "unfinished" in text


def test_resuming_an_interrupted_run_gives_exactly_n_games(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    reference = tmp_path / "reference"
    generate.generate(50, ["greedy", "random"], reference, seed=4, shard_size=8)
    out = tmp_path / "run"
    real_write = data.write_shard
    written: List[str] = []

    def interrupted(path: Any, games: Any, **kwargs: Any) -> Any:
        if len(written) == 3:
            raise KeyboardInterrupt  # stopped in the middle of the run
        written.append(Path(path).name)
        return real_write(path, games, **kwargs)

    monkeypatch.setattr(data, "write_shard", interrupted)
    with pytest.raises(KeyboardInterrupt):
        generate.generate(50, ["greedy", "random"], out, seed=4, shard_size=8, workers=2)
    monkeypatch.undo()
    assert sorted(p.name for p in out.glob("*.parquet")) == sorted(written)
    # A crash in the middle of a write leaves a temporary file: the resumed run ignores it.
    (out / ".shard-000006.parquet.dead.tmp").write_bytes(b"PAR1")
    summary = generate.generate(50, ["greedy", "random"], out, seed=4, shard_size=8, workers=2)
    assert summary.skipped_games == 24 and summary.games == 26
    table = table_of(out)
    assert table.column("id").to_pylist() == list(range(50))
    assert table.equals(table_of(reference))
    assert not list(out.glob(".*.tmp"))
    # Nothing is left to do.
    again = generate.generate(50, ["greedy", "random"], out, seed=4, shard_size=8)
    assert (again.games, again.skipped_games) == (0, 50)
    assert data.read_table(out).num_rows == 50


def test_another_run_in_the_same_directory_is_refused(tmp_path: Path) -> None:
    generate.generate(4, ["random", "random"], tmp_path, seed=1)
    manifest = json.loads((tmp_path / generate.MANIFEST).read_text())
    assert manifest["players"] == ["random", "random"] and manifest["games"] == 4
    with pytest.raises(ValueError, match="holds another run .*seed"):
        generate.generate(4, ["random", "random"], tmp_path, seed=2)
    with pytest.raises(ValueError, match="games, shard_size|games"):
        generate.generate(5, ["random", "random"], tmp_path, seed=1)


def test_games_start_from_the_book_two_each_colours_swapped(tmp_path: Path) -> None:
    generate.generate(5, ["greedy", "random"], tmp_path / "b", max_plies=6, book=True, seed=3)
    table = data.read_table(tmp_path / "b")
    book = [p.to_text() for p in agon.bots.opening_book()]
    assert table.column("start").to_pylist() == [book[0], book[0], book[1], book[1], book[2]]
    assert table.column("white").to_pylist() == ["greedy", "random"] * 2 + ["greedy"]
    assert json.loads((tmp_path / "b" / generate.MANIFEST).read_text())["book"] is True
    # The games replay from their starts (the reader checks every move and result).
    games = data.read_games(tmp_path / "b")
    assert [g.start.to_text() for g in games] == table.column("start").to_pylist()
    # Under another rule set, the book's positions under it.
    generate.generate(2, ["greedy", "random"], tmp_path / "l", max_plies=6, book=True,
                      rules="ludii")
    ludii = [p.to_text() for p in agon.bots.opening_book("ludii")]
    assert data.read_table(tmp_path / "l").column("start").to_pylist() == ludii[:1] * 2
    # Without the book, the manifest is what it was before the book existed.
    generate.generate(1, ["random", "random"], tmp_path / "n", max_plies=4)
    assert "book" not in json.loads((tmp_path / "n" / generate.MANIFEST).read_text())
    # A start and the book are refused; so is a resumed run with the book added.
    other = agon.Game()
    other.play(other.legal_moves()[0])
    with pytest.raises(ValueError, match="not both"):
        generate.generate(2, ["random", "random"], tmp_path / "x", start=other.position.to_text(),
                          book=True)
    assert not (tmp_path / "x").exists()
    with pytest.raises(ValueError, match="book"):
        generate.generate(1, ["random", "random"], tmp_path / "n", max_plies=4, book=True)
    assert generate.main(["--games", "2", "--players", "random", "greedy", "--out",
                          str(tmp_path / "c"), "--book", "--max-plies", "4", "--no-progress"]) == 0
    assert data.read_table(tmp_path / "c").column("start").to_pylist() == book[:1] * 2


@pytest.mark.parametrize(
    "kwargs, error",
    [
        ({"games": 0}, ValueError),
        ({"games": "3"}, TypeError),
        ({"players": ["random", "minimax"]}, ValueError),
        ({"players": ["random"]}, ValueError),
        ({"seed": -1}, ValueError),
        ({"workers": 0}, ValueError),
        ({"shard_size": 0}, ValueError),
        ({"max_plies": 0}, ValueError),
        ({"start": "nonsense"}, ValueError),
        ({"start": "Qf6,Ge5,Ge6,Gf5,Gf7,Gg5,Gg6/qf11,ga2,gb7,gd1,gh1,gk7,gl2 b"}, ValueError),
    ],
)
def test_bad_settings_are_refused_before_anything_is_written(
    tmp_path: Path, kwargs: Any, error: type
) -> None:
    args = {"games": 2, "players": ["random", "random"], "out": tmp_path / "d", **kwargs}
    with pytest.raises(error):
        generate.generate(**args)
    assert not (tmp_path / "d").exists()


def test_the_generate_command(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code = generate.main(["--games", "12", "--players", "alphabeta:1", "random", "--out", str(tmp_path),
                          "--seed", "5", "--workers", "2", "--shard-size", "5"])
    assert code == 0
    out, err = capsys.readouterr()
    assert "12 games in" in out and "by colour" in out and "by player: alphabeta:1 won" in out
    assert "12/12 games" in err and "games/s" in err and "ETA" in err
    assert data.read_table(tmp_path).num_rows == 12
    assert generate.main(["--games", "3", "--players", "random", "bogus", "--out", str(tmp_path / "x")]) == 2
    assert "error: unknown bot" in capsys.readouterr().err


# ---------------------------------------------------------------------------------------
# Tournaments


def test_a_round_robin_does_not_depend_on_the_workers() -> None:
    players = ["greedy", "random", "alphabeta:1"]
    one = tournament.tournament(players, 6, seed=2)
    two = tournament.tournament(players, 6, seed=2, workers=2, chunk_games=1)
    assert one == two
    assert len(one.games) == 3 * 6
    assert [(g.pair, g.k) for g in one.games] == [(p, k) for p in range(3) for k in range(6)]
    assert tournament.tournament(players, 6, seed=3) != one
    standings = one.standings()
    assert sum(s.games for s in standings) == 2 * 18
    assert sum(s.wins for s in standings) == sum(s.losses for s in standings)
    assert {s.player for s in standings} == set(players)
    for s in standings:
        assert s.low <= s.score <= s.high
    ratings, errors = one.elo()
    assert abs(ratings.sum()) < 1e-6 and (errors > 0).all()
    greedy = next(s for s in standings if s.player == "greedy")
    rnd = next(s for s in standings if s.player == "random")
    assert greedy.elo > rnd.elo and greedy.score > rnd.score


def test_bradley_terry() -> None:
    even = tournament.bradley_terry(np.array([[0, 5.0], [5, 0]]), np.array([[0, 10.0], [10, 0]]))
    assert np.allclose(even[0], 0)
    # 75% is 191 Elo; the standard error shrinks with the games.
    few = tournament.bradley_terry(np.array([[0, 7.5], [2.5, 0]]), np.array([[0, 10.0], [10, 0]]), 0)
    many = tournament.bradley_terry(np.array([[0, 750.0], [250, 0]]), np.array([[0, 1000.0], [1000, 0]]), 0)
    assert round(few[0][0] - few[0][1]) == round(many[0][0] - many[0][1]) == 191
    assert few[1][0] == pytest.approx(10 * many[1][0], rel=1e-6)
    # A perfect score has a finite estimate thanks to the virtual draw.
    perfect = tournament.bradley_terry(np.array([[0, 10.0], [0, 0]]), np.array([[0, 10.0], [10, 0]]))
    assert np.isfinite(perfect[0]).all()
    assert perfect[0][0] - perfect[0][1] == pytest.approx(400 * np.log10(10.5 / 0.5))
    # Three players: transitive strengths are recovered in order.
    points = np.array([[0, 15, 18], [5, 0, 14], [2, 6, 0.0]])
    games = np.where(np.eye(3) == 1, 0, 20.0)
    r, _ = tournament.bradley_terry(points, games)
    assert r[0] > r[1] > r[2]


def test_the_tournament_command(capsys: pytest.CaptureFixture[str]) -> None:
    assert tournament.main(["--players", "greedy", "random", "--games-per-pair", "4", "--workers", "2"]) == 0
    out, err = capsys.readouterr()
    assert "Round robin: 2 players, 4 games per pair, 4 games" in out
    assert "95% interval" in out and "Elo" in out and "±95%" in out
    lines = out.splitlines()
    assert lines[3].split()[:2] == ["1", "greedy"]
    assert "4/4 games" in err
    assert tournament.main(["--players", "random", "--games-per-pair", "4"]) == 2
    assert tournament.main(["--players", "random", "random", "--games-per-pair", "4"]) == 2
    assert tournament.main(["--players", "random", "greedy", "--games-per-pair", "0"]) == 2
    assert "error:" in capsys.readouterr().err


def test_games_are_played_without_the_gil() -> None:
    """While a thread plays games in Rust, this thread keeps running Python: it wakes up
    from short sleeps many times (holding the GIL, the games would block it throughout)."""
    import threading

    from agon import _games

    done = threading.Event()

    def play() -> None:
        _games.play_games("mcts:100", "greedy", [(1, 2), (3, 4)], None, 2000)
        done.set()

    thread = threading.Thread(target=play)
    thread.start()
    wakeups = 0
    while not done.is_set():
        time.sleep(0.001)
        wakeups += 1
    thread.join()
    assert wakeups >= 20
