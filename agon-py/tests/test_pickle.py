"""copy, deepcopy and pickle of every value type, positions, moves and games."""

from __future__ import annotations

import copy
import pickle
from typing import Any

import pytest

import agon
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
    assert pos.__reduce__() == (agon.Position, (CAPTURE,))
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
