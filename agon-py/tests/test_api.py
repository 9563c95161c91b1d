"""The core API through Python: cells, sides, pieces, moves, positions, games."""

from __future__ import annotations

import pickle

import agon
from conftest import (
    CAPTURE,
    NO_ACTION,
    QUEEN_CAPTURED,
    RING_WITHOUT_QUEEN_IN_ONE,
    START,
    THRONE_IN_ONE,
)


def test_cells() -> None:
    throne = agon.Cell("f6")
    assert throne == agon.THRONE == agon.Cell(45)
    assert throne.name == "f6" and str(throne) == "f6" and repr(throne) == "Cell('f6')"
    assert (throne.index, throne.file, throne.rank, throne.ring) == (45, 5, 6, 0)
    assert throne.cube == (0, 0, 0)
    assert [c.name for c in throne.neighbours()] == ["e5", "e6", "f5", "f7", "g5", "g6"]
    assert throne.neighbour(agon.NORTH) == agon.Cell("f7")
    assert throne.neighbour(agon.SOUTH_EAST) == agon.Cell("g5")
    assert agon.Cell("f1").neighbour(agon.SOUTH) is None
    assert agon.Cell("a1").distance("l6") == 10
    assert agon.Cell("e5").is_adjacent(agon.THRONE)
    assert agon.Cell.between("e5", "g6") == throne
    assert agon.Cell.between("e5", "f7") is None
    assert agon.Cell.from_cube(5, -5, 0) == agon.Cell("l6")
    assert agon.Cell.from_cube(6, -6, 0) is None
    assert agon.Cell.from_file_rank(5, 11) == agon.Cell("f11")
    assert agon.Cell.from_file_rank(0, 7) is None
    assert len(agon.CELLS) == agon.CELL_COUNT == 91
    assert [c.index for c in agon.CELLS] == list(range(91))
    assert sorted([agon.Cell("l6"), agon.Cell("a1")]) == [agon.Cell("a1"), agon.Cell("l6")]
    assert int(agon.Cell("b1")) == 6
    assert list(range(91))[agon.Cell("l6")] == 90
    assert [sum(1 for c in agon.CELLS if c.ring == k) for k in range(6)] == [1, 6, 12, 18, 24, 30]
    assert len({agon.Cell("f6"), agon.Cell(45)}) == 1


def test_sides_kinds_pieces() -> None:
    assert agon.WHITE == agon.Side.WHITE and agon.BLACK == agon.Side.BLACK
    assert agon.WHITE.other() == agon.BLACK and ~agon.BLACK == agon.WHITE
    assert str(agon.WHITE) == "White" and agon.BLACK.char == "b"
    assert agon.Side.from_char("w") == agon.WHITE
    assert int(agon.WHITE) == 0 and int(agon.BLACK) == 1
    assert str(agon.QUEEN) == "queen" and str(agon.GUARD) == "guard"
    queen = agon.Piece(agon.WHITE, agon.QUEEN)
    assert queen == agon.Piece.from_symbol("Q")
    assert queen.symbol == "Q" and queen.side == agon.WHITE and queen.kind == agon.QUEEN
    assert str(agon.Piece.from_symbol("g")) == "Black guard"
    assert repr(queen) == "Piece.from_symbol('Q')"
    assert len({queen, agon.Piece.from_symbol("Q"), agon.Piece.from_symbol("q")}) == 2


def test_moves() -> None:
    step = agon.Move.step("f1", "e1")
    assert step == agon.Move.parse("f1-e1") == agon.Move("f1", "e1")
    assert str(step) == "f1-e1" and repr(step) == "Move.parse('f1-e1')"
    assert step.from_cell == agon.Cell("f1") and step.to_cell == agon.Cell("e1")
    assert step.is_step and not step.is_return and step.pair == "f1e1"
    ret = agon.Move.returning("f4", "l1")
    assert ret == agon.Move.parse("f4>l1") == agon.Move("f4", "l1", is_return=True)
    assert str(ret) == "f4>l1" and ret.is_return and ret.pair == "f4l1"
    assert ret != agon.Move.step("f4", "l1")
    assert len({step, agon.Move.parse("f1-e1"), ret}) == 2
    assert sorted([ret, step]) == [step, ret]
    mirror = agon.Symmetry.from_rotation(0, mirror=True)
    assert step.transform(mirror) == agon.Move.parse("f1-g1")


def test_start_position() -> None:
    start = agon.Position()
    assert start == agon.Position.start() == agon.Position(START)
    assert start.to_text() == START == agon.STARTING_TEXT
    assert repr(start) == f"Position('{START}')"
    assert start.turn == agon.WHITE
    lines = str(start).splitlines()
    assert lines[0] == "                             f11q"
    assert lines[-1] == "White to move"
    assert len(start.occupied()) == 14 and len(start.empty()) == 77
    assert start.queen(agon.WHITE) == agon.Cell("f1")
    assert [c.name for c in start.guards(agon.BLACK)] == ["a2", "b7", "d1", "h1", "k7", "l2"]
    assert start.piece_at("d1") == agon.Piece.from_symbol("g")
    assert start.piece_at("f6") is None
    pieces = start.pieces()
    assert len(pieces) == 14
    assert pieces[agon.Cell("f11")] == agon.Piece(agon.BLACK, agon.QUEEN)
    assert start.captured() == [] and start.captured_side is None
    assert start.outcome() is None and not start.is_over()
    assert start.throne_ring_side() is None
    assert start.forbidden_cells(agon.WHITE) == []
    assert not start.must_return()


def test_legal_moves_and_play() -> None:
    start = agon.Position()
    moves = start.legal_moves()
    assert len(moves) == 27 == start.count_legal_moves()
    assert str(moves[0]) == "a5-a4"
    assert len(set(moves)) == 27
    assert all(start.is_legal(m) for m in moves)
    assert [str(m) for m in start.legal_moves_from("f1")] == ["f1-e1", "f1-f2", "f1-g1"]
    assert start.has_legal_move()
    nxt = start.play("f1-e1")
    assert nxt == start.play(agon.Move.parse("f1-e1")) == start.play("f1e1")
    assert nxt.turn == agon.BLACK
    assert nxt.to_text() == "Qe1,Ga5,Gb1,Gd9,Gh9,Gk1,Gl5/qf11,ga2,gb7,gd1,gh1,gk7,gl2 b"
    assert start.to_text() == START  # positions are immutable
    assert start.with_turn(agon.BLACK).turn == agon.BLACK
    assert start.parse_move("f1e1") == agon.Move.parse("f1-e1")


def test_capture_and_return() -> None:
    pos = agon.Position(CAPTURE)
    assert pos.captures("f1-e1") == [agon.Cell("d1")]
    assert pos.captures("f1-f2") == []
    after = pos.play("f1-e1")
    assert after.captured() == [agon.Cell("d1")]
    assert after.is_captured("d1") and after.captured_side == agon.BLACK
    assert after.to_text() == "Qe1,Ga5,Gc1,Gd9,Gh9,Gk1,Gl5/qf11,ga2,gb7,gd1*,gh1,gk7,gl2 b"
    assert after.must_return()
    returns = after.legal_moves()
    assert all(m.is_return and m.from_cell == agon.Cell("d1") for m in returns)
    assert len(returns) == 16  # the empty cells of the outer ring
    assert all(m.to_cell is not None and m.to_cell.ring == 5 for m in returns)
    # A pair names a return when its first cell holds a captured piece.
    assert after.parse_move("d1a1") == agon.Move.parse("d1>a1")
    back = after.play("d1>a1")
    assert back.captured() == [] and back.piece_at("a1") == agon.Piece.from_symbol("g")


def test_queen_returns_anywhere_first() -> None:
    pos = agon.Position(QUEEN_CAPTURED)
    moves = pos.legal_moves()
    assert len(moves) == 77
    assert all(m.from_cell == agon.Cell("f10") for m in moves)
    assert agon.Move.parse("f10>f6") in moves  # the throne included (R8)
    assert not pos.is_legal("d1>a1")  # the queen first


def test_outcomes() -> None:
    won = agon.Position(THRONE_IN_ONE).play("h6-g6")
    outcome = won.outcome()
    assert outcome == agon.Outcome(agon.WHITE, "throne")
    assert outcome is not None
    assert outcome.winner == agon.WHITE and outcome.reason == "throne"
    assert outcome.score == "1-0" and not outcome.is_draw
    assert str(outcome) == "White wins (throne)"
    assert repr(outcome) == "Outcome(Side.WHITE, 'throne')"
    assert won.legal_moves() == [] and won.is_over()
    assert won.throne_ring_side() == agon.WHITE
    lost = agon.Position(RING_WITHOUT_QUEEN_IN_ONE).play("h6-g6")
    assert lost.outcome() == agon.Outcome(agon.BLACK, "ring-without-queen")
    stuck = agon.Position(NO_ACTION)
    assert stuck.outcome() == agon.Outcome(agon.WHITE, "no-legal-action")
    assert not stuck.has_legal_move()
    draw = agon.Outcome(None, "repetition")
    assert draw.is_draw and draw.score == "1/2-1/2" and str(draw) == "draw (repetition)"


def test_hash_and_equality() -> None:
    a = agon.Position()
    b = agon.Position(START)
    assert a == b and hash(a) == hash(b) and a.zobrist_hash == b.zobrist_hash
    assert len({a, b, a.play("f1-e1")}) == 2
    assert a.play("f1-e1").zobrist_hash != a.zobrist_hash
    assert a != START  # a position is not its text
    assert isinstance(a.zobrist_hash, int) and 0 <= a.zobrist_hash < 2**64


def test_symmetries() -> None:
    start = agon.Position()
    images = start.symmetries()
    assert len(images) == 12
    mirror = agon.Symmetry.from_rotation(0, mirror=True)
    assert start.transform(mirror) == start
    half = agon.Symmetry(3)
    assert half.cell("a1") == agon.Cell("l6")
    assert half.rotation == 3 and not half.is_mirror and half.index == 3
    assert half.inverse() == half
    assert agon.Symmetry(1).then(agon.Symmetry(2)) == agon.Symmetry(3)
    assert len(agon.Symmetry.all()) == 12
    after = start.play("a5-a4")
    canon, sym = after.canonical()
    assert after.transform(sym) == canon
    assert after.transform(mirror).canonical()[0] == canon
    assert sym.position(after) == canon
    assert mirror.move("f1-e1") == agon.Move.parse("f1-g1")


def test_from_pieces() -> None:
    start = agon.Position()
    same = agon.Position.from_pieces(start.pieces(), agon.WHITE)
    assert same == start
    by_text = {str(c): p.symbol for c, p in start.pieces().items()}
    assert agon.Position.from_pieces(by_text, turn=agon.WHITE) == start
    captured = agon.Position.from_pieces(by_text, agon.BLACK, captured=["d1"])
    assert captured.captured() == [agon.Cell("d1")] and captured.must_return()


def test_game_push_pop() -> None:
    game = agon.Game()
    assert game.position == agon.Position() and game.start == agon.Position()
    assert len(game.legal_moves()) == 27 and game.turn == agon.WHITE
    assert game.push("f1-e1") == []
    assert game.play(agon.Move.parse("f11-g10")) == []
    assert [str(m) for m in game.moves] == ["f1-e1", "f11-g10"]
    assert len(game) == game.ply == 2 and len(game.positions) == 3
    assert game.last_move == agon.Move.parse("f11-g10")
    assert game.is_legal("e1-f1") and not game.is_legal("e1-d1")
    assert game.pop() == agon.Move.parse("f11-g10")
    assert game.undo() == agon.Move.parse("f1-e1")
    assert game.undo() is None
    assert game.position == agon.Position() and game.last_move is None
    game = agon.Game(CAPTURE, ["f1-e1"])
    assert game.position.must_return()
    assert game.push("d1a1") == []  # a pair read in the game's position
    assert game.position.captured() == []
    assert agon.Game(moves=["f1-e1"]).push("f11-f10") == []


def test_game_captures_and_outcome() -> None:
    game = agon.Game(CAPTURE)
    assert game.push("f1-e1") == [agon.Cell("d1")]
    game = agon.Game(THRONE_IN_ONE)
    game.push_action(agon.move_to_action("h6-g6"))
    assert game.outcome() == agon.Outcome(agon.WHITE, "throne")
    assert game.is_over() and game.legal_moves() == [] and game.result == "1-0"
    assert game.legal_actions().tolist() == [] and not game.action_mask().any()
    game.pop()
    assert game.outcome() is None and not game.is_over()


def test_repetition_draw() -> None:
    game = agon.Game()
    for _ in range(2):
        for m in ["f1-e1", "f11-g10", "e1-f1", "g10-f11"]:
            assert game.repetitions() <= 2
            game.push(m)
    assert game.repetitions() == 3
    assert game.outcome() == agon.Outcome(None, "repetition")
    assert game.legal_moves() == [] and game.result == "1/2-1/2"
    assert game.position.outcome() is None  # a lone position knows no history
    game.undo()
    assert game.outcome() is None


def test_game_restart() -> None:
    game = agon.Game(moves=["f1-e1"])
    game.tags["Event"] = "Test"
    game.restart()
    assert game.moves == [] and game.tags == {"Event": "Test"}
    game.restart(CAPTURE)
    assert game.start == agon.Position(CAPTURE)


def test_records() -> None:
    game = agon.Game(moves=["f1-e1", "f11-g10", "e1-f1"])
    game.tags["White"] = "Ada"
    game.tags["Black"] = "Charles"
    text = game.to_record()
    assert text == (
        '[White "Ada"]\n[Black "Charles"]\n[Result "*"]\n\n1. f1-e1 f11-g10 2. e1-f1 *\n'
    )
    assert str(game) == text
    again = agon.Game.from_record(text)
    assert again == game and again.tags == {"White": "Ada", "Black": "Charles"}
    other = agon.Game(CAPTURE, ["f1-e1"])
    record = other.to_record()
    assert f'[Position "{CAPTURE}"]' in record
    assert agon.Game.from_record(record) == other
    game.result = "0-1"  # Black resigns... of White: a result by hand
    assert game.result == "0-1" and game.to_record().endswith("2. e1-f1 0-1\n")
    assert agon.Game.from_record(game.to_record()).result == "0-1"
    game.push("g10-f11")
    assert game.result == "*"  # cleared by the next move
    finished = agon.Game(THRONE_IN_ONE, ["h6-g6"])
    assert finished.to_record().endswith("1. h6-g6 1-0\n")
    assert agon.Game.from_record(finished.to_record()).outcome() == finished.outcome()


def test_records_keep_their_variations() -> None:
    # agon-core's Record docs: two other first moves of White, the first with Black's
    # answer; the canonical text, read and written back, is the same text.
    text = (
        '[Event "Club"]\n[Result "*"]\n\n'
        "1. f1-e1 (1. f1-g1 f11-e10) (1. a5-b5) 1... f11-g10 2. e1-f1 *\n"
    )
    game = agon.Game.from_record(text)
    assert game.to_record() == text
    assert [str(m) for m in game.moves] == ["f1-e1", "f11-g10", "e1-f1"]
    first = game.variations(0)
    assert [[str(m) for m in v.moves] for v in first] == [["f1-g1", "f11-e10"], ["a5-b5"]]
    assert repr(first[0]) == "Variation(f1-g1 f11-e10)"
    assert isinstance(first[0], agon.Variation) and isinstance(first[0].moves[0], agon.Move)
    assert game.variations(1) == [] and game.variations(2) == []
    assert first[0].variations(1) == []
    for bad in (3, -1):
        try:
            game.variations(bad)
        except IndexError:
            pass
        else:
            raise AssertionError(f"variations({bad}) of a 3-move game")
    try:
        first[1].variations(1)
    except IndexError:
        pass
    else:
        raise AssertionError("variations(1) of a one-move variation")
    # Nested: a variation of Black's move, and one of that variation's move.
    nested = '[Result "*"]\n\n1. f1-e1 f11-g10 (1... f11-e10 (1... l2-l1)) *\n'
    game = agon.Game.from_record(nested)
    assert game.to_record() == nested and game.copy().to_record() == nested
    assert pickle.loads(pickle.dumps(game)).to_record() == nested
    # A state of two items (a game pickled without variations) is still read.
    old = agon.Game(moves=["f1-e1", "f11-g10"])
    old.__setstate__(({"Event": "Old"}, "*"))
    assert old.tags == {"Event": "Old"} and old.variations(1) == []
    inner = game.variations(1)[0].variations(0)
    assert [[str(m) for m in v.moves] for v in inner] == [["l2-l1"]]
    # A move taken back takes its variations along; the moves before keep theirs.
    game = agon.Game.from_record(
        '[Result "*"]\n\n1. f1-e1 f11-g10 (1... f11-e10) 2. e1-f1 *\n'
    )
    game.undo()
    assert game.to_record() == '[Result "*"]\n\n1. f1-e1 f11-g10 (1... f11-e10) *\n'
    game.undo()
    assert game.to_record() == '[Result "*"]\n\n1. f1-e1 *\n'
    game.push("f11-e10")
    assert game.variations(1) == []
    game.restart()
    assert game.to_record() == '[Result "*"]\n\n*\n'


def test_repr_of_game() -> None:
    game = agon.Game(moves=["f1-e1"])
    assert repr(game) == f"Game('{START}', ['f1-e1'])"


def test_perft_through_python() -> None:
    start = agon.Position()
    assert [agon.perft(start, d) for d in range(1, 5)] == [27, 713, 18417, 466557]
    assert start.perft(0) == 1 and agon.perft(START, 2) == 713
    divide = start.perft_divide(2)
    assert len(divide) == 27 and sum(divide.values()) == 713
    assert list(divide) == start.legal_moves()
    assert agon.perft(agon.Position(QUEEN_CAPTURED), 1) == 77


def test_random_playouts() -> None:
    stats = agon.random_playouts(50, seed=7)
    assert stats == agon.random_playouts(50, seed=7)  # seeded: the same games
    assert stats["games"] == 50
    assert stats["white_wins"] + stats["black_wins"] + stats["draws"] == 50
    reasons = stats["reasons"]
    assert isinstance(reasons, dict)
    assert set(reasons) == {"throne", "ring-without-queen", "no-legal-action", "repetition",
                            "two-passes", "move-limit"}
    assert sum(reasons.values()) == 50 and reasons["repetition"] == stats["draws"]
    assert stats["plies_min"] <= stats["plies_mean"] <= stats["plies_max"]
    assert stats["plies_min"] <= stats["plies_median"] <= stats["plies_max"]
    assert stats["plies"] == round(stats["plies_mean"] * 50)
    # The median (agon_rl's) of one game is its length, of two the mean of theirs.
    for n in (1, 2):
        few = agon.random_playouts(n, seed=7, threads=1)
        assert few["plies_median"] == few["plies_mean"] == few["plies"] / n
    assert agon.random_playouts(0)["games"] == 0
    assert agon.random_playouts(3, seed=1, start=CAPTURE)["games"] == 3
