"""copy, deepcopy and pickle of every value type, positions, moves, games and bots; tampered
pickles; bots and games in multiprocessing pools (spawn and fork)."""

from __future__ import annotations

import copy
import multiprocessing
import pickle
from typing import Any

import pytest

import agon
import agon.bots
from conftest import CAPTURE, THRONE_IN_ONE

VALUES: list[Any] = [
    agon.Cell("f6"),
    agon.WHITE,
    agon.BLACK,
    agon.QUEEN,
    agon.GUARD,
    agon.Piece.from_symbol("g"),
    agon.Move.parse("f1-e1"),
    agon.Move.parse("f4>l1"),
    agon.Outcome(agon.BLACK, "no-legal-action"),
    agon.Outcome(None, "repetition"),
    agon.Symmetry(7),
    agon.Position(),
    agon.Position(CAPTURE).play("f1-e1"),
]


@pytest.mark.parametrize("value", VALUES, ids=repr)
def test_values_pickle_and_copy(value: Any) -> None:
    for protocol in range(2, pickle.HIGHEST_PROTOCOL + 1):
        again = pickle.loads(pickle.dumps(value, protocol=protocol))
        assert again == value and type(again) is type(value)
        assert hash(again) == hash(value)
    assert copy.copy(value) == value
    assert copy.deepcopy(value) == value


def test_positions_pickle_as_text() -> None:
    pos = agon.Position(CAPTURE)
    assert pos.__reduce__() == (agon.Position, (CAPTURE, "standard"))
    ludii = agon.Position(CAPTURE, rules="ludii")
    assert ludii.__reduce__() == (agon.Position, (CAPTURE, "ludii"))
    # A pickle of before the rule sets (the text alone) still loads, as standard.
    assert agon.Position(*(CAPTURE,)) == pos
    assert copy.copy(pos) is pos  # immutable: copies share the object


def test_games_pickle_and_copy() -> None:
    game = agon.Game(CAPTURE, ["f1-e1", "d1>a1"])
    game.tags["Event"] = "Pickled"
    game.result = "1-0"
    for again in [
        pickle.loads(pickle.dumps(game)),
        copy.copy(game),
        copy.deepcopy(game),
        game.copy(),
    ]:
        assert again == game and again is not game
        assert again.tags == {"Event": "Pickled"} and again.result == "1-0"
        assert again.to_record() == game.to_record()
        assert again.positions == game.positions
        again.push("e1-e2")
        again.tags["Event"] = "Changed"
        assert len(game) == 2 and game.tags["Event"] == "Pickled"


def test_finished_games_pickle() -> None:
    game = agon.Game(THRONE_IN_ONE, ["h6-g6"])
    again = pickle.loads(pickle.dumps(game))
    assert again.outcome() == agon.Outcome(agon.WHITE, "throne")
    assert again.result == "1-0"


def test_games_do_not_hash() -> None:
    with pytest.raises(TypeError):
        hash(agon.Game())


def test_exceptions_pickle() -> None:
    try:
        agon.Position().play("f6-f7")
    except agon.IllegalMoveError as error:
        again = pickle.loads(pickle.dumps(error))
        assert type(again) is agon.IllegalMoveError
        assert again.reason == "no-piece" and str(again) == str(error)


def test_exceptions_keep_their_attributes_through_pickle() -> None:
    errors: list[BaseException] = []
    for call in (lambda: agon.Position().play("f6-f7"), lambda: agon.Position("Qf1 w"),
                 lambda: agon.Game.from_record("1. f1-f3"), lambda: agon.move_to_action("f1-f3"),
                 lambda: agon.Position.from_pieces({"f1": "Q"})):
        with pytest.raises(ValueError) as info:
            call()
        errors.append(info.value)
    for error in errors:
        again = pickle.loads(pickle.dumps(error))
        assert type(again) is type(error) and str(again) == str(error)
        assert vars(again) == vars(error) and vars(error)


# ---------------------------------------------------------------------------------------
# Bots: a bot is its spec and its seed, and pickles as them.

BOTS: list[agon.bots.Bot] = [
    agon.bots.Random(3),
    agon.bots.Greedy(seed=4),
    agon.bots.MCTS(playouts=40, seed=5),
    agon.bots.MCTS(playouts=30, seed=6, time_limit=0.25),
    agon.bots.AlphaBeta(),
    agon.bots.AlphaBeta(depth=2, seed=2**64 - 1, time_limit=1.5),
    agon.bots.Bot.from_name(" alphabeta:3:250ms ", seed=9),
    agon.bots.Bot.from_name("mcts", seed=10),
]


@pytest.mark.parametrize("bot", BOTS, ids=repr)
def test_bots_pickle_and_copy(bot: agon.bots.Bot) -> None:
    for protocol in range(0, pickle.HIGHEST_PROTOCOL + 1):
        again = pickle.loads(pickle.dumps(bot, protocol=protocol))
        assert again == bot and type(again) is type(bot) and hash(again) == hash(bot)
        assert (again.name, again.seed) == (bot.name, bot.seed)
    for dup in (copy.copy, copy.deepcopy):
        clone = dup(bot)
        assert clone == bot and clone is not bot and type(clone) is type(bot)
    assert bot.__reduce__() == (agon.bots.Bot.from_name, (bot.name, bot.seed))
    assert eval(repr(bot), {"Bot": agon.bots.Bot}) == bot


@pytest.mark.parametrize("spec", ["random", "greedy", "mcts:40", "alphabeta:2"])
def test_unpickled_bots_choose_what_the_original_would(spec: str) -> None:
    """A bot keeps nothing from one choice to the next, so a bot pickled after it has
    thought goes on exactly as the original, and as a fresh bot of its spec and seed."""
    bot = agon.bots.Bot.from_name(spec, seed=11)
    game = agon.Game()
    for _ in range(4):
        move = bot.choose(game)
        assert move is not None
        game.push(move)
    clone, fresh = pickle.loads(pickle.dumps(bot)), agon.bots.Bot.from_name(spec, seed=11)
    for _ in range(4):
        move = bot.choose(game)
        assert move is not None
        assert clone.choose(game) == fresh.choose(game) == move
        assert clone.choose(game.position) == bot.choose(game.position)
        game.push(move)


# ---------------------------------------------------------------------------------------
# Tampered pickles: what a pickle holds is read and checked again on load.


def tampered(value: Any, old: str, new: str) -> bytes:
    """The pickle of ``value`` (protocol 0, where texts and ints are lines) with ``old``
    replaced by ``new``."""
    data = pickle.dumps(value, protocol=0)
    assert old.encode() in data, data
    return data.replace(old.encode(), new.encode())


@pytest.mark.parametrize(
    "value, old, new, error, reason",
    [
        (agon.bots.AlphaBeta(depth=5, seed=7), "alphabeta:5", "alphabeta:65", ValueError, None),
        (agon.bots.AlphaBeta(depth=5, seed=7), "alphabeta:5", "minimax", ValueError, None),
        (agon.bots.MCTS(playouts=3, seed=7), "mcts:3", "mcts:0", ValueError, None),
        (agon.bots.MCTS(playouts=3, seed=7), "mcts:3", "mcts:3:86400001ms", ValueError, None),
        (agon.bots.MCTS(playouts=3, seed=7), "mcts:3", "mcts:3:" + "9" * 70, ValueError, None),
        (agon.bots.Random(seed=7), "I7\n", "I-7\n", OverflowError, None),
        (agon.bots.Random(seed=7), "I7\n", "F7.5\n", TypeError, None),
        (agon.Position(), " w", " x", agon.ParseError, "expected"),
        (agon.Position(), "Qf1,", "Qf1,Qf2,", agon.ParseError, "invalid-position"),
        (agon.Cell("f6"), "f6", "z9", agon.ParseError, None),
        (agon.Move.parse("f1-e1"), "Ve1\n", "Vz9\n", agon.ParseError, "expected"),
        (agon.Symmetry(7), "I7\n", "I12\n", ValueError, None),
        (agon.Game(CAPTURE, ["f1-e1"]), "f1-e1", "f11-f10", agon.IllegalMoveError,
         "not-your-piece"),
        (agon.Game(CAPTURE, ["f1-e1"]), "f1-e1", "f1-f3", agon.IllegalMoveError, "not-adjacent"),
        (agon.Game(CAPTURE, ["f1-e1"]), "f1-e1", "f1-e1x", agon.ParseError, None),
        (agon.Game(CAPTURE, ["f1-e1"]), "Qf1,", "Qf1,Qf2,", agon.ParseError, "invalid-position"),
    ],
    ids=lambda v: repr(v)[:40],
)
def test_tampered_pickles_raise_the_librarys_errors(
    value: Any, old: str, new: str, error: type[Exception], reason: str | None
) -> None:
    with pytest.raises(error) as info:
        pickle.loads(tampered(value, old, new))
    if reason is not None:
        assert getattr(info.value, "reason") == reason


def test_tampered_game_state_is_refused() -> None:
    game = agon.Game(CAPTURE, ["f1-e1"])
    game.result = "1-0"
    with pytest.raises(ValueError):
        pickle.loads(tampered(game, "1-0", "2-0"))


# ---------------------------------------------------------------------------------------
# Processes: bots and games cross to multiprocessing workers and back.


def play_out(bot: agon.bots.Bot, game: agon.Game, plies: int) -> agon.Game:
    """Plays ``plies`` moves of ``bot`` (both sides) in ``game``; runs in a worker."""
    for _ in range(plies):
        move = bot.choose(game)
        if move is None:
            break
        game.push(move)
    return game


WORK: list[tuple[agon.bots.Bot, agon.Game, int]] = [
    (agon.bots.Random(seed=1), agon.Game(), 40),
    (agon.bots.Greedy(seed=2), agon.Game(CAPTURE, ["f1-e1"]), 12),
    (agon.bots.MCTS(playouts=25, seed=3), agon.Game(), 4),
    (agon.bots.AlphaBeta(depth=2, seed=4), agon.Game(), 6),
    (agon.bots.Bot.from_name("alphabeta:1", seed=5), agon.Game(THRONE_IN_ONE), 3),
]


@pytest.mark.parametrize(
    "method", [m for m in ("spawn", "fork") if m in multiprocessing.get_all_start_methods()]
)
def test_bots_play_in_a_process_pool(method: str) -> None:
    # Done here first: the workers get copies, so the originals stay as they are.
    expected = [play_out(bot, game.copy(), plies) for bot, game, plies in WORK]
    with multiprocessing.get_context(method).Pool(2) as pool:
        finished = pool.starmap(play_out, WORK)
        chosen = pool.starmap(agon.bots.Bot.choose, [(bot, game) for bot, game, _ in WORK])
    assert finished == expected
    assert [len(g) for g in finished] == [40, 13, 4, 6, 1]
    assert chosen == [bot.choose(game) for bot, game, _ in WORK]
    assert [len(game) for _, game, _ in WORK] == [0, 1, 0, 0, 0]
