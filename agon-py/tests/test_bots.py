"""The reference bots through Python."""

from __future__ import annotations

import threading

import pytest

import agon
import agon.bots
from conftest import THRONE_IN_ONE


@pytest.mark.parametrize(
    "bot, name",
    [
        (agon.bots.Random(seed=1), "random"),
        (agon.bots.Greedy(seed=1), "greedy"),
        (agon.bots.MCTS(playouts=200, seed=1), "mcts:200"),
        (agon.bots.AlphaBeta(depth=2, seed=1), "alphabeta:2"),
        (agon.bots.Bot.from_name("alphabeta:1", seed=3), "alphabeta:1"),
    ],
)
def test_bots_choose_legal_moves(bot: agon.bots.Bot, name: str) -> None:
    assert isinstance(bot, agon.bots.Bot) and bot.name == name
    assert repr(bot) == f"Bot.from_name('{name}')"
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
    assert agon.bots.MCTS().name == agon.bots.Bot.from_name("mcts").name == "mcts:2000"
