"""The reference bots through Python."""

from __future__ import annotations

import threading
from typing import List, Optional

import pytest

import agon
import agon.bots
from conftest import CAPTURE, THRONE_IN_ONE


@pytest.mark.parametrize(
    "bot, name",
    [
        (agon.bots.Random(seed=1), "random"),
        (agon.bots.Greedy(seed=1), "greedy"),
        (agon.bots.MCTS(playouts=200, seed=1), "mcts:200"),
        (agon.bots.AlphaBeta(depth=2, seed=1), "alphabeta:2"),
        (agon.bots.Bot.from_name("alphabeta:1", seed=3), "alphabeta:1"),
        (agon.bots.Bot.from_name("engine:n2000", seed=3), "engine:n2000"),
        (agon.bots.Bot.from_name("engine:20ms", seed=3), "engine:20ms"),
    ],
)
def test_bots_choose_legal_moves(bot: agon.bots.Bot, name: str) -> None:
    assert isinstance(bot, agon.bots.Bot) and bot.name == name
    assert repr(bot) == f"Bot.from_name('{name}', seed={bot.seed})"
    game = agon.Game()
    for _ in range(6):
        move = bot.choose(game)
        assert move is not None and game.is_legal(move)
        game.push(move)
    position = game.position
    move = bot.choose(position)
    assert move is not None and position.is_legal(move)


def test_bots_are_deterministic_under_their_seed() -> None:
    start = agon.Position()
    a = [agon.bots.MCTS(playouts=100, seed=s).choose(start) for s in (5, 5)]
    assert a[0] == a[1]
    b = [agon.bots.AlphaBeta(depth=2, seed=9).choose(start) for _ in range(2)]
    assert b[0] == b[1]


def test_bots_find_the_winning_move() -> None:
    position = agon.Position(THRONE_IN_ONE)
    assert agon.bots.Greedy().choose(position) == agon.Move.parse("h6-g6")
    assert agon.bots.AlphaBeta(depth=2).choose(position) == agon.Move.parse("h6-g6")
    assert agon.bots.Bot.from_name("engine:d2").choose(position) == agon.Move.parse("h6-g6")


def test_no_move_when_the_game_is_over() -> None:
    over = agon.Game(THRONE_IN_ONE, ["h6-g6"])
    assert agon.bots.Random().choose(over) is None
    assert agon.bots.AlphaBeta(depth=1).choose(over.position) is None


def test_bot_errors() -> None:
    with pytest.raises(ValueError):
        agon.bots.Bot.from_name("minimax")
    with pytest.raises(ValueError):
        agon.bots.MCTS(time_limit=-1.0)
    with pytest.raises(TypeError):
        agon.bots.Random().choose("f1-e1")  # type: ignore[arg-type]


def test_bots_think_without_the_gil() -> None:
    bot = agon.bots.MCTS(playouts=1_000_000, seed=1, time_limit=0.3)
    ticks = 0
    done = threading.Event()

    def think() -> None:
        bot.choose(agon.Position())
        done.set()

    thread = threading.Thread(target=think)
    thread.start()
    while not done.is_set():
        ticks += 1  # Python keeps running while the bot thinks
        done.wait(0.01)
    thread.join()
    assert ticks > 5


def test_default_budgets_are_the_rust_bots() -> None:
    # AlphaBeta() defaulted to depth 4 while the Rust bot and from_name used 5.
    assert agon.bots.AlphaBeta().name == agon.bots.Bot.from_name("alphabeta").name == "alphabeta:5"
    assert agon.bots.MCTS().name == agon.bots.Bot.from_name("mcts").name
    kind, playouts = agon.bots.MCTS().name.split(":")
    assert kind == "mcts" and int(playouts) >= 1


@pytest.mark.parametrize(
    "made, spec",
    [
        (agon.bots.Random(), "random"),
        (agon.bots.Greedy(), "greedy"),
        (agon.bots.MCTS(), "mcts"),
        (agon.bots.AlphaBeta(), "alphabeta"),
    ],
    ids=repr,
)
def test_constructors_and_specs_agree_in_every_setting(made: agon.bots.Bot, spec: str) -> None:
    """A bot is its spec (every setting but the seed) and its seed: the defaults of the
    constructors are those of the specs, and both make the same class."""
    named = agon.bots.Bot.from_name(spec)
    assert made == named and hash(made) == hash(named) and type(made) is type(named)
    assert (made.name, made.seed) == (named.name, named.seed)
    assert made.seed == 0 and made.name.split(":")[0] == spec
    if spec != "mcts":  # 2000 playouts take a second: the settings say enough
        game = agon.Game(moves=["f1-e1", "f11-e10"])
        assert made.choose(game) == named.choose(game)


def test_bots_are_their_spec_and_seed() -> None:
    bot = agon.bots.AlphaBeta(depth=3, seed=2**64 - 1, time_limit=0.25)
    assert bot.name == "alphabeta:3:250ms" and bot.seed == 2**64 - 1
    assert repr(bot) == "Bot.from_name('alphabeta:3:250ms', seed=18446744073709551615)"
    assert bot == agon.bots.Bot.from_name("alphabeta:3:250ms", seed=2**64 - 1)
    assert bot != agon.bots.AlphaBeta(depth=3, seed=0, time_limit=0.25)
    assert bot != agon.bots.AlphaBeta(depth=3, seed=2**64 - 1)
    assert bot != agon.bots.AlphaBeta(depth=3, seed=2**64 - 1, time_limit=0.3)
    assert agon.bots.Random(1) != agon.bots.Greedy(1)
    assert bot != "alphabeta:3:250ms" and bot != None  # noqa: E711
    assert len({agon.bots.Random(1), agon.bots.Random(1), agon.bots.Random(2)}) == 2
    with pytest.raises(TypeError):
        bot < bot  # type: ignore[operator]
    # Each constructor makes its own class; from_name makes the class of the spec.
    for spec, cls in [("random", agon.bots.Random), ("greedy", agon.bots.Greedy),
                      ("mcts:5", agon.bots.MCTS), ("alphabeta:1:10ms", agon.bots.AlphaBeta)]:
        assert type(agon.bots.Bot.from_name(spec, seed=3)) is cls


def test_time_limits_have_millisecond_resolution() -> None:
    """A time limit is rounded to whole milliseconds, the resolution of a spec, so that
    the spec (and a pickle) keeps it exactly."""
    mcts = agon.bots.MCTS().name  # the default budget, whatever it is
    assert agon.bots.MCTS(time_limit=0.3).name == f"{mcts}:300ms"
    assert agon.bots.MCTS(time_limit=1).name == f"{mcts}:1000ms"
    assert agon.bots.AlphaBeta(time_limit=0.0004).name == "alphabeta:5:0ms"
    assert agon.bots.AlphaBeta(time_limit=0.0016).name == "alphabeta:5:2ms"
    assert agon.bots.MCTS(time_limit=agon.MAX_TIME_LIMIT).name == f"{mcts}:86400000ms"
    assert agon.bots.MCTS(time_limit=0.3) == agon.bots.Bot.from_name(f"{mcts}:300ms")


# White's only legal move is e7-f8.
ONE_LEGAL_MOVE = "Qe7,Gf4,Gf5,Gf7,Gg4,Gg5,Gg6/qd6,gd4,gd5,ge4,ge5,ge6,gh4 w"


@pytest.mark.parametrize(
    "start, moves",
    [
        (None, []),
        (None, ["f1-e1", "f11-e10", "e1-e2", "e10-e9"]),
        (CAPTURE, ["f1-e1"]),  # Black must return the captured guard
        (THRONE_IN_ONE, []),
    ],
)
@pytest.mark.parametrize("playouts, seed", [(1, 0), (9, 3), (150, 7)])
def test_mcts_statistics_are_its_root_visits(
    start: Optional[str], moves: List[str], playouts: int, seed: int
) -> None:
    game = agon.Game(start, moves) if start is not None else agon.Game(moves=moves)
    bot = agon.bots.MCTS(playouts, seed=seed)
    move, visits, value = bot.choose_with_stats(game)
    # The move of choose, and the same statistics again; a lone position is a game with
    # no moves (a bot's choice depends on the ply).
    assert move == bot.choose(game)
    assert agon.bots.MCTS(playouts, seed=seed).choose_with_stats(game) == (move, visits, value)
    alone = bot.choose_with_stats(game.position)
    assert alone == bot.choose_with_stats(agon.Game(game.position))
    assert alone[0] == bot.choose(game.position)
    # Visits of legal actions, in the order of legal_moves, summing to the playouts; the
    # move played is the most visited.
    legal = [agon.move_to_action(m) for m in game.legal_moves()]
    assert list(visits) == [a for a in legal if a in visits]
    assert all(type(a) is int and type(n) is int and n >= 1 for a, n in visits.items())
    assert sum(visits.values()) == playouts
    assert len(visits) == min(playouts, len(legal))
    assert visits[agon.move_to_action(move)] == max(visits.values())
    assert type(value) is float and -1.0 <= value <= 1.0
    if playouts == 1:
        assert value in (-1.0, 0.0, 1.0)  # one playout: a loss, a draw or a win


def test_mcts_statistics_find_the_win_and_value_it() -> None:
    move, visits, value = agon.bots.MCTS(400, seed=1).choose_with_stats(agon.Position(THRONE_IN_ONE))
    assert move == agon.Move.parse("h6-g6")
    assert value > 0.5


def test_mcts_statistics_of_a_single_legal_move() -> None:
    """choose does not search a forced move; choose_with_stats does, so that every ply has
    statistics: all the playouts go to the only move."""
    position = agon.Position(ONE_LEGAL_MOVE)
    (only,) = position.legal_moves()
    move, visits, value = agon.bots.MCTS(30, seed=2).choose_with_stats(position)
    assert move == only == agon.bots.MCTS(30, seed=2).choose(position)
    assert visits == {agon.move_to_action(only): 30}
    assert -1.0 <= value <= 1.0


def test_mcts_statistics_with_a_time_limit_count_the_playouts_run() -> None:
    bot = agon.bots.MCTS(agon.MAX_PLAYOUTS, seed=1, time_limit=0.05)
    move, visits, _ = bot.choose_with_stats(agon.Position())
    assert 1 <= sum(visits.values()) < agon.MAX_PLAYOUTS
    assert visits[agon.move_to_action(move)] == max(visits.values())


def test_mcts_statistics_refuse_bad_input_and_change_nothing() -> None:
    over = agon.Game(THRONE_IN_ONE, ["h6-g6"])
    bot = agon.bots.MCTS(10, seed=1)
    with pytest.raises(ValueError, match=r"^the game is over \(White wins \(throne\)\): there is no move to choose$"):
        bot.choose_with_stats(over)
    with pytest.raises(ValueError, match="the game is over"):
        bot.choose_with_stats(over.position)
    with pytest.raises(TypeError, match="takes a Position or a Game"):
        bot.choose_with_stats("f1-e1")  # type: ignore[arg-type]
    assert len(over) == 1 and over.is_over()
    game = agon.Game(moves=["f1-e1"])
    bot.choose_with_stats(game)
    assert game == agon.Game(moves=["f1-e1"])
    # The searching bots give statistics (a spec makes the same class); the others none.
    assert not hasattr(agon.bots.Greedy(), "choose_with_stats")
    assert hasattr(agon.bots.Bot.from_name("mcts:5"), "choose_with_stats")
    assert hasattr(agon.bots.Bot.from_name("alphabeta:1"), "choose_with_stats")
