"""Every exception path: the class, the core's reason, and that nothing changes."""

from __future__ import annotations

import pickle
from typing import Any, Callable, List, Tuple

import numpy as np
import pytest

import agon
from conftest import CAPTURE, QUEEN_CAPTURED, START, THRONE_IN_ONE

AFTER_CAPTURE = "Qe1,Ga5,Gc1,Gd9,Gh9,Gk1,Gl5/qf11,ga2,gb7,gd1*,gh1,gk7,gl2 b"


def illegal(position: str, move: str) -> agon.IllegalMoveError:
    with pytest.raises(agon.IllegalMoveError) as info:
        agon.Position(position).play(move)
    return info.value


@pytest.mark.parametrize(
    "position, move, reason",
    [
        (START, "f6-f7", "no-piece"),
        (START, "f11-f10", "not-your-piece"),
        (AFTER_CAPTURE, "f11-f10", "must-return"),
        (START, "f1-f3", "not-adjacent"),
        ("Qf2,Ga5,Gb1,Gd9,Gh9,Gk1,Gl5/qf11,ga2,gb7,gd1,gh1,gk7,gl2 w", "f2-f1", "outward"),
        ("Qf1,Ga5,Ge1,Gd9,Gh9,Gk1,Gl5/qf11,ga2,gb7,gd1,gh1,gk7,gl2 w", "f1-e1", "occupied"),
        ("Qf1,Ge5,Gb1,Gd9,Gh9,Gk1,Gl5/qf11,ga2,gb7,gd1,gh1,gk7,gl2 w", "e5-f6",
         "throne-for-queens"),
        ("Qf1,Ga5,Gb1,Gd9,Gh9,Gk1,Gl5/qf11,ga2,gb7,ge1,gg2,gk7,gl2 w", "f1-f2",
         "between-enemies"),
        (START, "f1>f2", "not-captured"),
        (QUEEN_CAPTURED, "d1>a1", "queen-first"),
        (AFTER_CAPTURE, "d1>f11", "occupied"),
        (AFTER_CAPTURE, "d1>d2", "guard-to-outer-ring"),
        ("Qf6,Ge5,Ge6,Gf5,Gf7,Gg5,Gg6/qf11,ga2,gb7,gd1,gh1,gk7,gl2 b", "f11-f10", "game-over"),
    ],
)
def test_illegal_move_reasons(position: str, move: str, reason: str) -> None:
    error = illegal(position, move)
    assert isinstance(error, ValueError)
    assert error.reason == reason
    assert error.move == move
    assert str(error).startswith(f"illegal move {move}: ")
    pos = agon.Position(position)
    assert not pos.is_legal(move)
    with pytest.raises(agon.IllegalMoveError):
        pos.check_move(move)
    with pytest.raises(agon.IllegalMoveError):
        pos.captures(move)


def test_check_move_passes_legal_moves() -> None:
    # Every legal move passes (None, no exception), and the same cells one step too far
    # do not: check_move is is_legal with the reason.
    position = agon.Position()
    for move in position.legal_moves():
        assert position.check_move(move) is None  # type: ignore[func-returns-value]
    with pytest.raises(agon.IllegalMoveError) as caught:
        position.check_move("f1-f3")
    assert caught.value.reason == "not-adjacent"


def test_illegal_message_is_the_cores() -> None:
    error = illegal(START, "f11-f10")
    assert str(error) == "illegal move f11-f10: not your piece"


def test_failed_push_leaves_the_game_unchanged() -> None:
    game = agon.Game(CAPTURE, ["f1-e1"])
    game.tags["Event"] = "kept"
    before = (game.to_record(), game.position, game.moves, game.outcome())
    for move in ["f11-f10", "d1>d2", "d1>f11"]:
        with pytest.raises(agon.IllegalMoveError):
            game.push(move)
        assert (game.to_record(), game.position, game.moves, game.outcome()) == before
    with pytest.raises(agon.ParseError):
        game.push("d1")
    with pytest.raises(agon.IllegalMoveError) as info:
        game.push_action(agon.ACTION_COUNT)
    assert info.value.reason == "no-such-action"
    assert (game.to_record(), game.position, game.moves, game.outcome()) == before


def test_game_over_refuses_moves() -> None:
    game = agon.Game(THRONE_IN_ONE, ["h6-g6"])
    with pytest.raises(agon.IllegalMoveError) as info:
        game.push("f11-f10")
    assert info.value.reason == "game-over"
    assert len(game) == 1


def test_pop_at_the_start() -> None:
    game = agon.Game()
    with pytest.raises(IndexError):
        game.pop()
    assert game.undo() is None


@pytest.mark.parametrize(
    "parse, text, reason, offset",
    [
        (agon.Cell, "j5", "expected", 0),
        (agon.Cell, "a7", "no-such-cell", 0),
        (agon.Cell, "f1x", "trailing-input", 2),
        (agon.Cell, "f0", "expected", 1),
        (agon.Move.parse, "f1+f2", "expected", 2),
        (agon.Move.parse, "f1e1", "expected", 2),
        (agon.Move.parse, "f1-f2 ", "trailing-input", 5),
        (agon.Position, "Qf1/qf11 w", "invalid-position", 0),
        (agon.Position, START.replace(" w", " x"), "expected", len(START) - 1),
        (agon.Position.from_text, START + " ", "trailing-input", len(START)),
        (agon.Position().parse_move, "f1", "expected", 2),
        (agon.Game.from_record, "1. f1-f3 *", "illegal-move", 3),
        (agon.Game.from_record, "2. f1-e1 *", "move-number", 0),
        (agon.Game.from_record, '[A "1"]\n[A "2"]\n\n*', "duplicate-tag", 8),
        (agon.Game.from_record, '[Result "1-0"]\n\n1. f1-e1 *', "result-mismatch", 0),
        (agon.Game.from_record, "1. f1-e1", "expected", 8),
    ],
)
def test_parse_errors(parse: Callable[[str], Any], text: str, reason: str, offset: int) -> None:
    with pytest.raises(agon.ParseError) as info:
        parse(text)
    error = info.value
    assert isinstance(error, ValueError)
    assert (error.reason, error.offset, error.text) == (reason, offset, text)


def test_parse_error_details() -> None:
    with pytest.raises(agon.ParseError) as info:
        agon.Position("Qf1/qf11 w")
    assert info.value.position_reason == "piece-count"
    assert str(info.value) == (
        "invalid position \"Qf1/qf11 w\": at byte 0: invalid position: "
        "White does not have exactly one queen and six guards"
    )
    with pytest.raises(agon.ParseError) as info:
        agon.Game.from_record("1. f1-f3 *")
    assert info.value.move_reason == "not-adjacent"
    with pytest.raises(agon.ParseError, match="at byte 0: expected a file letter"):
        agon.Cell("j5")


@pytest.mark.parametrize(
    "change, reason",
    [
        ({"f11": "Q"}, "two-pieces-on-cell"),
        ({"f6": "G"}, "guard-on-throne"),
        ({"f6": "g"}, "guard-on-throne"),
    ],
)
def test_invalid_positions(change: dict[str, str], reason: str) -> None:
    pieces = {str(c): p.symbol for c, p in agon.Position().pieces().items()}
    if reason == "two-pieces-on-cell":
        # A dict cannot hold two pieces on a cell: give the same cell by index and name.
        with pytest.raises(agon.InvalidPositionError) as info:
            agon.Position.from_pieces({**pieces, 50: "Q"})
    else:
        pieces.update(change)
        with pytest.raises(agon.InvalidPositionError) as info:
            agon.Position.from_pieces(pieces)
    assert info.value.reason == reason
    assert isinstance(info.value, ValueError)


def test_more_invalid_positions() -> None:
    pieces = {str(c): p.symbol for c, p in agon.Position().pieces().items()}
    fewer = dict(pieces)
    del fewer["a5"]
    cases: List[Tuple[Callable[[], agon.Position], str]] = [
        (lambda: agon.Position.from_pieces(fewer), "piece-count"),
        (lambda: agon.Position.from_pieces(pieces, captured=["f6"]), "captured-empty-cell"),
        (lambda: agon.Position.from_pieces(pieces, captured=["f1", "f11"]),
         "captured-both-sides"),
    ]
    for build, reason in cases:
        with pytest.raises(agon.InvalidPositionError) as info:
            build()
        assert info.value.reason == reason


def test_wrong_types_and_values() -> None:
    with pytest.raises(TypeError):
        agon.Position().play(5)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        agon.Cell(4.5)  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        agon.Cell(91)
    with pytest.raises(ValueError):
        agon.Cell(-1)
    with pytest.raises(ValueError):
        agon.Cell(10**30)
    with pytest.raises(ValueError):
        agon.Cell("f6").neighbour(6)
    with pytest.raises(ValueError):
        agon.Symmetry(12)
    with pytest.raises(ValueError):
        agon.Outcome(agon.WHITE, "repetition")
    with pytest.raises(ValueError):
        agon.Outcome(None, "throne")
    with pytest.raises(ValueError):
        agon.Outcome(agon.WHITE, "checkmate")
    with pytest.raises(ValueError):
        agon.Side.from_char("x")
    with pytest.raises(ValueError):
        agon.Piece.from_symbol("K")
    with pytest.raises(ValueError):
        agon.Game().result = "2-0"
    finished = agon.Game(THRONE_IN_ONE, ["h6-g6"])
    with pytest.raises(ValueError):
        finished.result = "0-1"
    finished.result = "1-0"
    game = agon.Game()
    game.tags["bad name"] = "x"
    with pytest.raises(ValueError):
        game.to_record()
    game.tags = {"Event": 1}  # type: ignore[dict-item]
    with pytest.raises(TypeError):
        game.to_record()


def test_actions_that_name_no_move() -> None:
    start = agon.Position()
    for action in [-1, agon.ACTION_COUNT, 5]:  # 5: a1 to the north-west, off the board
        with pytest.raises(agon.IllegalMoveError) as info:
            agon.action_to_move(start, action)
        assert info.value.reason == "no-such-action"
    with pytest.raises(agon.IllegalMoveError) as info:
        agon.move_to_action("f1-f3")
    assert info.value.reason == "not-adjacent"
    with pytest.raises(agon.IllegalMoveError):
        start.play_action(agon.move_to_action("f11-f10"))


def test_vecenv_errors_leave_games_unchanged() -> None:
    env = agon.VecEnv(3, seed=1)
    env.step(env.random_actions())
    before = [env.position(i) for i in range(3)]
    actions = env.random_actions()
    actions[1] = agon.move_to_action("f6-f7")  # no piece on the throne yet
    with pytest.raises(agon.IllegalMoveError) as info:
        env.step(actions)
    assert info.value.env == 1 and info.value.action == actions[1]
    assert [env.position(i) for i in range(3)] == before
    with pytest.raises(ValueError):
        env.step(np.zeros(2, dtype=np.int64))
    with pytest.raises(agon.IllegalMoveError):
        env.step(np.full(3, -5))
    wrong = np.zeros((3, 11, 91), dtype=np.float64)
    with pytest.raises(TypeError):
        env.observe(out=(wrong, np.zeros((3, agon.ACTION_COUNT), dtype=bool)))  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        env.observe(out=(np.zeros((3, 11, 90), dtype=np.float32),
                         np.zeros((3, agon.ACTION_COUNT), dtype=bool)))
    with pytest.raises(ValueError):
        env.observe(out=(np.zeros((3, 11, 91), dtype=np.float32),))  # type: ignore[arg-type]
    assert [env.position(i) for i in range(3)] == before
    with pytest.raises(IndexError):
        env.position(3)
    with pytest.raises(ValueError):
        agon.VecEnv(0)


ATTRIBUTES: dict[type, set[str]] = {
    agon.IllegalMoveError: {"reason", "move", "env", "action"},
    agon.ParseError: {"reason", "offset", "text", "move_reason", "position_reason"},
    agon.InvalidPositionError: {"reason"},
}


def _vecenv_step() -> None:
    env = agon.VecEnv(2, seed=1)
    env.step(np.array([agon.move_to_action("f1-e1"), agon.move_to_action("f6-f7")]))


# Every path of the bindings that raises one of the package's exceptions.
RAISING: List[Tuple[str, Callable[[], object], type, dict[str, object]]] = [
    ("Position.play", lambda: agon.Position().play("f6-f7"), agon.IllegalMoveError,
     {"reason": "no-piece", "move": "f6-f7", "env": None, "action": None}),
    ("Position.check_move", lambda: agon.Position().check_move(agon.Move.parse("f1-f3")),
     agon.IllegalMoveError, {"reason": "not-adjacent", "move": "f1-f3"}),
    ("Position.captures", lambda: agon.Position().captures("f11-f10"), agon.IllegalMoveError,
     {"reason": "not-your-piece"}),
    ("Position.play_action", lambda: agon.Position().play_action(-1), agon.IllegalMoveError,
     {"reason": "no-such-action", "move": None, "env": None, "action": None}),
    ("Position.action_to_move", lambda: agon.Position().action_to_move(5),
     agon.IllegalMoveError, {"reason": "no-such-action", "move": None}),
    ("action_to_move", lambda: agon.action_to_move(START, agon.ACTION_COUNT),
     agon.IllegalMoveError, {"reason": "no-such-action"}),
    ("move_to_action", lambda: agon.move_to_action("f1-f3"), agon.IllegalMoveError,
     {"reason": "not-adjacent", "move": None}),
    ("Game.push", lambda: agon.Game().push("f6-f7"), agon.IllegalMoveError,
     {"reason": "no-piece", "move": "f6-f7", "env": None, "action": None}),
    ("Game.push after the end", lambda: agon.Game(THRONE_IN_ONE, ["h6-g6"]).push("f11-f10"),
     agon.IllegalMoveError, {"reason": "game-over", "move": "f11-f10"}),
    ("Game.push_action", lambda: agon.Game().push_action(agon.ACTION_COUNT),
     agon.IllegalMoveError, {"reason": "no-such-action", "move": None}),
    ("Game(moves)", lambda: agon.Game(None, ["f1-e1", "f1-e1"]), agon.IllegalMoveError,
     {"reason": "no-piece", "move": "f1-e1"}),
    ("svg", lambda: agon.svg(agon.Position(), arrows=["f1-f3"]), agon.IllegalMoveError,
     {"reason": "not-adjacent", "move": "f1-f3"}),
    ("VecEnv.step", _vecenv_step, agon.IllegalMoveError,
     {"env": 1, "action": agon.move_to_action("f6-f7")}),
    ("Cell", lambda: agon.Cell("a7"), agon.ParseError,
     {"reason": "no-such-cell", "offset": 0, "text": "a7", "move_reason": None,
      "position_reason": None}),
    ("Move.parse", lambda: agon.Move.parse("f1+f2"), agon.ParseError,
     {"reason": "expected", "offset": 2, "text": "f1+f2", "move_reason": None}),
    ("Position.parse_move", lambda: agon.Position().parse_move("f1"), agon.ParseError,
     {"reason": "expected", "text": "f1"}),
    ("a move's text", lambda: agon.Position().play("x"), agon.ParseError,
     {"reason": "expected", "text": "x"}),
    ("Position", lambda: agon.Position("Qf1/qf11 w"), agon.ParseError,
     {"reason": "invalid-position", "position_reason": "piece-count", "move_reason": None}),
    ("Position.from_text", lambda: agon.Position.from_text(START + " "), agon.ParseError,
     {"reason": "trailing-input", "offset": len(START), "position_reason": None}),
    ("a position's text", lambda: agon.perft("x", 1), agon.ParseError,
     {"reason": "expected", "text": "x"}),
    ("Game.from_record", lambda: agon.Game.from_record("1. f1-f3 *"), agon.ParseError,
     {"reason": "illegal-move", "offset": 3, "move_reason": "not-adjacent",
      "position_reason": None}),
    ("Game.from_record position", lambda: agon.Game.from_record('[Position "Qf1/qf11 w"]\n\n*'),
     agon.ParseError, {"reason": "invalid-position", "move_reason": None,
                       "position_reason": "piece-count"}),
    ("Position.from_pieces", lambda: agon.Position.from_pieces({"f1": "Q"}),
     agon.InvalidPositionError, {"reason": "piece-count"}),
]


@pytest.mark.parametrize("what, call, kind, expected", RAISING, ids=[r[0] for r in RAISING])
def test_every_raise_sets_every_attribute(
    what: str, call: Callable[[], object], kind: type, expected: dict[str, object]
) -> None:
    """Each exception the package raises carries all its class's attributes itself (not
    only the class defaults), typed as the stub says, and keeps them through a pickle."""
    with pytest.raises(kind) as info:
        call()
    error = info.value
    assert type(error) is kind
    own = {name: value for name, value in vars(error).items() if name != "__notes__"}
    assert set(own) == ATTRIBUTES[kind]
    for name, value in expected.items():
        assert own[name] == value, name
    assert isinstance(own["reason"], str) and own["reason"]
    for name in ("move", "move_reason", "position_reason"):
        assert own.get(name) is None or isinstance(own[name], str)
    for name in ("env", "action"):
        assert own.get(name) is None or isinstance(own[name], int)
    if kind is agon.ParseError:
        assert isinstance(own["text"], str) and isinstance(own["offset"], int)
        assert 0 <= own["offset"] <= len(own["text"].encode())
    assert vars(pickle.loads(pickle.dumps(error))) == vars(error)


def test_exceptions_made_by_hand_have_every_attribute() -> None:
    """The classes give every attribute a default, so that code reading them never fails."""
    assert agon.IllegalMoveError("x").reason == ""
    assert agon.IllegalMoveError("x").move is None
    assert (agon.IllegalMoveError("x").env, agon.IllegalMoveError("x").action) == (None, None)
    made = agon.ParseError("x")
    assert (made.reason, made.offset, made.text) == ("", 0, "")
    assert (made.move_reason, made.position_reason) == (None, None)
    assert agon.InvalidPositionError("x").reason == ""
