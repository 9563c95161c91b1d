"""agon.engine drives a UGI engine process: the minimal engine of examples/ugi, broken
ones made from it, which fail with a clear EngineError, never a hang (and lose their games
in the package's tools), and the project's own engine, agon-ugi."""

from __future__ import annotations

import asyncio
import sys
import time
from pathlib import Path
from typing import List

import pytest

import agon
from agon.engine import (
    AsyncUgiEngine,
    Clock,
    EngineError,
    EngineTerminatedError,
    Limit,
    Score,
    UgiEngine,
    engine_bot,
    parse_info,
)

RANDOM_ENGINE = Path(__file__).resolve().parents[2] / "examples" / "ugi" / "random_engine.py"
COMMAND = [sys.executable, str(RANDOM_ENGINE)]


def broken(tmp_path: Path, old: str, new: str) -> List[str]:
    """The command of the minimal engine with ``old`` replaced by ``new`` in its source."""
    source = RANDOM_ENGINE.read_text()
    assert old in source
    path = tmp_path / "broken_engine.py"
    path.write_text(source.replace(old, new))
    return [sys.executable, str(path)]


def test_play_returns_legal_moves_through_a_game_and_the_handshake_is_read() -> None:
    with UgiEngine.popen(COMMAND) as engine:
        assert engine.id["name"] == "random-engine"
        assert set(engine.options) == {"Rules", "Seed"}
        assert engine.options["Seed"].type == "spin"
        engine.configure({"Seed": 3})
        game = agon.Game()
        while not game.is_over() and len(game.moves) < 40:
            result = engine.play(game, Limit(time=0.05))
            assert game.is_legal(result.move)
            game.push(result.move)
        assert len(game.moves) == 40 or game.is_over()


def test_the_same_seed_gives_the_same_moves_and_rules_are_sent() -> None:
    def moves(seed: int) -> List[str]:
        with UgiEngine.popen(COMMAND) as engine:
            engine.configure({"seed": seed})
            game = agon.Game(rules="ludii")
            for _ in range(12):
                game.push(engine.play(game, Limit(nodes=10)).move)
            return [str(m) for m in game.moves]

    assert moves(5) == moves(5)
    assert moves(5) != moves(6)


def test_analyse_returns_the_last_info(tmp_path: Path) -> None:
    # The minimal engine prints no info: one that does, made from it.
    command = broken(tmp_path, 'pending = f"bestmove', 'say("info depth 2 score mate 3 nodes 7 pv f1-e1"); pending = f"bestmove')
    with UgiEngine.popen(command) as engine:
        info = engine.analyse(agon.Game(), Limit(depth=2))
    assert info["depth"] == 2 and info["nodes"] == 7
    assert info["score"] == Score(mate=3)
    assert info["pv"] == [agon.Move.parse("f1-e1")]


def test_limits_make_go_commands_and_infos_parse() -> None:
    assert Limit().go() == "go movetime 100"
    assert Limit(nodes=5, clock=Clock(1, 2)).go() == "go p1time 1000 p2time 2000 p1inc 0 p2inc 0 nodes 5"
    assert parse_info("info depth x nodes 5 score cp") == {"nodes": 5}
    assert parse_info("info pv f1-e1 nonsense")["pv"] == [agon.Move.parse("f1-e1")]


def test_an_unknown_option_is_an_engine_error() -> None:
    with UgiEngine.popen(COMMAND) as engine:
        with pytest.raises(EngineError, match="no option 'Hash'"):
            engine.configure({"Hash": 16})


def test_a_dying_engine_is_an_engine_terminated_error(tmp_path: Path) -> None:
    command = broken(tmp_path, 'elif words[:1] == ["go"]:', 'elif words[:1] == ["go"]:\n            sys.exit(2)')
    with UgiEngine.popen(command) as engine:
        with pytest.raises(EngineTerminatedError, match="exit code 2"):
            engine.play(agon.Game(), Limit(time=0.05))


def test_a_hanging_engine_is_an_engine_error_within_the_limit_and_grace(tmp_path: Path) -> None:
    command = broken(tmp_path, 'say(pending)\n                pending = None', "pass")
    began = time.monotonic()
    with UgiEngine.popen(command) as engine:
        with pytest.raises(EngineError, match="no answer"):
            engine.play(agon.Game(), Limit(time=0.05))
    assert time.monotonic() - began < 5


def test_an_illegal_move_is_an_engine_error(tmp_path: Path) -> None:
    command = broken(tmp_path, "rng.choice(moves) if moves else 'none'", "'f1-f3'")
    with UgiEngine.popen(command) as engine:
        with pytest.raises(EngineError, match="illegal bestmove f1-f3 at ply 0"):
            engine.play(agon.Game(), Limit(time=0.05))


def test_a_command_that_does_not_start_is_an_engine_error() -> None:
    with pytest.raises(EngineTerminatedError, match="cannot start"):
        UgiEngine.popen(["/nonexistent/agon-engine"])


def test_the_asyncio_api() -> None:
    async def main() -> str:
        engine = await AsyncUgiEngine.popen(COMMAND)
        async with engine:
            result = await engine.play(agon.Game(), Limit(time=0.05))
            return str(result.move)

    move = asyncio.run(main())
    assert agon.Game().is_legal(agon.Move.parse(move))


def test_a_ugi_engine_is_a_bot_of_the_package() -> None:
    bot = engine_bot(COMMAND, "n10", seed=2)
    assert bot.name.startswith("ugi:n10:")
    game = agon.Game()
    for _ in range(6):
        move = bot.choose(game)
        assert move is not None and game.is_legal(move)
        game.push(move)
    # The package's tools take its spec: a tournament plays it in Rust.
    from agon import tournament

    result = tournament.tournament([bot.name, "random"], games_per_pair=2, seed=1, max_plies=30)
    assert sum(s.games for s in result.standings()) == 4


def test_the_doctests() -> None:
    import doctest

    from agon import engine, ugi_check

    assert doctest.testmod(engine).failed == 0
    assert doctest.testmod(ugi_check).failed == 0


def test_an_engine_that_forfeits_loses_its_arena_games_with_the_reason(tmp_path: Path) -> None:
    command = broken(tmp_path, "rng.choice(moves) if moves else 'none'", "'f1-f3'")
    spec = engine_bot(command).name
    games = agon._agon._arena_match(spec, "random", 2, 1)
    # A (the engine) has White in game 0 and Black in game 1: it loses both, by forfeit.
    assert [(g[1], g[2], g[3]) for g in games] == [("black", "illegal-move", 0), ("white", "illegal-move", 1)]


def test_a_ugi_bot_that_forfeits_raises_naming_the_forfeit(tmp_path: Path) -> None:
    command = broken(tmp_path, "rng.choice(moves) if moves else 'none'", "'f1-f3'")
    bot = engine_bot(command)
    with pytest.raises(RuntimeError, match="forfeits: illegal-move: f1-f3 at ply 0"):
        bot.choose(agon.Game())


#: Faults of the minimal engine (what its source becomes) and the forfeit each gives.
FAULTS = {
    "illegal-move": ("rng.choice(moves) if moves else 'none'", "'f1-f3'"),
    "crash": ('elif words[:1] == ["go"]:\n', 'elif words[:1] == ["go"]:\n            sys.exit(3)\n'),
    "hang": ('elif words[:1] == ["go"]:\n', 'elif words[:1] == ["go"]:\n            time.sleep(30)\n'),
    "time-forfeit": ('elif words[:1] == ["go"]:\n', 'elif words[:1] == ["go"]:\n            time.sleep(0.4)\n'),
}


def faulty_spec(tmp_path: Path, fault: str) -> str:
    """The spec of the minimal engine broken by ``fault``, 100 ms a move."""
    old, new = FAULTS[fault]
    command = broken(tmp_path, old, new.replace("time.", "__import__('time')."))
    return engine_bot(command, "100ms").name


@pytest.mark.parametrize("fault", list(FAULTS))
def test_a_tournament_scores_an_engine_s_forfeit_as_its_loss_and_goes_on(tmp_path: Path, fault: str) -> None:
    from agon import tournament

    spec = faulty_spec(tmp_path, fault)
    result = tournament.tournament([spec, "random"], games_per_pair=2, seed=1, max_plies=30)
    # Both games played, both lost by the engine (White in game 0, Black in game 1) at
    # its first move, the reason recorded.
    assert [(g.k, g.winner, g.reason, g.plies) for g in result.games] == [
        (0, "black", fault, 0), (1, "white", fault, 1)]
    for g in result.games:
        assert g.forfeit is not None and f"forfeits: {fault}: " in g.forfeit
    engine, rand = sorted(result.standings(), key=lambda s: s.player != spec)
    assert (engine.wins, engine.draws, engine.losses, rand.wins) == (0, 0, 2, 2)
    table = result.table()
    assert "games lost by forfeit (counted as losses):" in table
    assert f"{spec} vs random, game 1: Black ({spec}) forfeits: {fault}: " in table


def test_generate_writes_an_engine_s_forfeits_as_losses_with_a_fresh_process_each_game(tmp_path: Path) -> None:
    pytest.importorskip("pyarrow")
    from agon import data, generate

    # The engine exits at its third go: in each game it plays two moves first, so each game
    # ran a fresh process.
    crash_later = ('elif words[:1] == ["go"]:\n',
                   'elif words[:1] == ["go"]:\n            goes = globals().get("goes", 0) + 1\n'
                   '            if goes == 3:\n                sys.exit(3)\n')
    spec = engine_bot(broken(tmp_path, *crash_later), "n10").name
    summary = generate.generate(2, [spec, "random"], tmp_path / "out", seed=3, max_plies=40)
    assert "end reasons: crash 2" in summary.text()
    assert (summary.a_wins, summary.b_wins) == (0, 2)
    table = data.read_table(tmp_path / "out")
    # The engine (White in game 0, Black in game 1) made two moves, then crashed.
    assert table.column("end_reason").to_pylist() == ["crash", "crash"]
    assert table.column("winner").to_pylist() == ["black", "white"]
    assert table.column("plies").to_pylist() == [4, 5]
    # The files pass the readers' checks: the moves replay, the forfeit is a known result.
    games = data.read_games(tmp_path / "out")
    assert [len(g.moves) for g in games] == [4, 5] and not any(g.is_over() for g in games)


def test_balance_takes_a_ugi_spec() -> None:
    from agon import balance

    spec = engine_bot(COMMAND, "n10").name
    result = balance.balance(["standard"], spec=spec, games=2, random_games=0, max_plies=20, command="x")
    (row,) = result.rows
    assert (row.play, row.games) == (f"engine ({spec})", 2)
    # The random engine does not end a game in 20 plies from the book: both reach the cap.
    assert (row.draws, row.at_limit) == (2, 2)


def agon_ugi() -> List[str]:
    """The command of the project's engine, ``agon-ugi``: ``$AGON_UGI``, else the debug
    build of the workspace's tests (which scripts/test.sh builds before the Python tests)."""
    import os

    root = Path(__file__).resolve().parents[2]
    candidates = [os.environ.get("AGON_UGI", ""),
                  str(Path(os.environ.get("CARGO_TARGET_DIR", root / "target")) / "debug" / "agon-ugi"),
                  str(root / "target" / "debug" / "agon-ugi")]
    for path in candidates:
        if path and Path(path).is_file():
            return [path]
    pytest.skip("no agon-ugi binary: cargo build -p agon-ugi, or set AGON_UGI")


def test_agon_ugi_through_agon_engine() -> None:
    with UgiEngine.popen(agon_ugi()) as engine:
        assert engine.id["name"].startswith("agon-ugi ")
        assert engine.id["author"] == "the agon developers"
        assert set(engine.options) == {"Bot", "Rules", "Hash", "Threads", "Seed", "MoveOverhead"}
        assert engine.options["Bot"].default == "engine"
        engine.configure({"Hash": 4, "Seed": 1})
        game = agon.Game()
        # A node budget: the move and its search's last info.
        result = engine.play(game, Limit(nodes=300))
        assert game.is_legal(result.move)
        info = result.info
        assert isinstance(info["depth"], int) and info["depth"] >= 1
        # The search stops at its budget exactly (one thread: deterministic).
        assert isinstance(info["score"], Score) and info["nodes"] == 300
        pv = info["pv"]
        assert isinstance(pv, list) and pv[0] == result.move
        # analyse to a depth: the info of that depth.
        analysis = engine.analyse(game, Limit(depth=2))
        assert analysis["depth"] == 2 and isinstance(analysis["score"], Score)
        # Under a clock, the move comes within its time.
        game.push(result.move)
        began = time.monotonic()
        clocked = engine.play(game, Limit(clock=Clock(1.0, 1.0, 0.01, 0.01)))
        assert game.is_legal(clocked.move) and time.monotonic() - began < 1.0
        # Another rule set is sent as the Rules option: a stuck side passes under ludii.
        stuck = agon.Game(agon.Position("Qf7,Ge4,Ge5,Ge6,Gf4,Gg4,Gg5/qf6,gd4,gd5,gf5,gg6,gh4,gh5 w",
                                        rules="ludii"), rules="ludii")
        assert str(engine.play(stuck, Limit(depth=1)).move) == "pass"
