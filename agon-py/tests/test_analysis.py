"""The engine's analysis through Python (``agon.analyse``): forced wins found with their
scores, multi-PV lines, legal principal variations, determinism under a node or depth
limit, scores as values, and precise errors that change nothing."""

from __future__ import annotations

import copy
import doctest
import math
import pickle
import threading
import time
from typing import Any, Dict, List, Optional, Tuple

import pytest

import agon
from conftest import NO_ACTION_IN_ONE, THRONE_IN_ONE

# Two ring-1 cells left, two guards next to them, Black too far to interfere: White wins
# in 2 (three plies), with both orders of the two steps.
THRONE_IN_TWO = "Qf6,Ge5,Ge6,Gf5,Gf7,Gh4,Gh6/qa1,ga2,gb1,gb2,gc1,gd1,gc2 w"
# Five of Black's moves leave White without an action (R12): Black wins in 1.
STUCK_IN_ONE = "Qa3,Ga1,Ga2,Ga4,Ga5,Ga6,Gb1/qf11,gb2,gb4,gb6,gb7,gc1,gd2 b"
# White far ahead: its queen on ring 1, its guards on ring 2; Black on the outer ring.
WHITE_AHEAD = "Qe6,Gd4,Gd7,Gf4,Gf8,Gh4,Gh7/qf1,ga2,gb7,gd1,gh1,gk7,gl2 w"


def is_legal_sequence(position: agon.Position, moves: List[agon.Move]) -> bool:
    try:
        agon.Game(position, moves)
    except agon.IllegalMoveError:
        return False
    return True


def test_a_throne_win_in_one_is_found_with_its_score() -> None:
    position = agon.Position(THRONE_IN_ONE)
    for depth in (1, 2, 3):
        (line,) = agon.analyse(position, depth=depth)
        assert line.move == agon.Move.parse("h6-g6") == line.pv[0]
        assert line.score == agon.Score(win_in=1)
        assert (line.score.cp, line.score.win_in, line.score.loss_in) == (None, 1, None)
        assert str(line.score) == "win in 1" and repr(line.score) == "Score(win_in=1)"
        assert line.multipv == 1 and 1 <= line.depth <= depth and line.nodes >= 1
    # The winning step ends the game.
    assert agon.Game(position, [agon.Move.parse("h6-g6")]).outcome() == agon.Outcome(agon.WHITE, "throne")


def test_a_win_in_two_and_the_loss_of_the_other_side() -> None:
    position = agon.Position(THRONE_IN_TWO)
    lines = agon.analyse(position, depth=3, multipv=2)
    assert [line.score for line in lines] == [agon.Score(win_in=2)] * 2
    assert all(len(line.pv) == 3 and is_legal_sequence(position, line.pv) for line in lines)
    assert agon.Game(position, lines[0].pv).outcome() == agon.Outcome(agon.WHITE, "throne")
    (line,) = agon.analyse(position.with_turn(agon.BLACK), depth=4)
    assert line.score == agon.Score(loss_in=2) and str(line.score) == "loss in 2"


def test_a_win_by_leaving_no_action() -> None:
    position = agon.Position(STUCK_IN_ONE)
    (line,) = agon.analyse(position, depth=1)
    assert line.score == agon.Score(win_in=1)
    assert agon.Game(position, [line.move]).outcome() == agon.Outcome(agon.BLACK, "no-legal-action")
    # The same kind of win for White, in the shared position of the tests.
    (line,) = agon.analyse(agon.Position(NO_ACTION_IN_ONE), depth=2)
    assert line.move == agon.Move.parse("f8-f7") and line.score.win_in == 1


def test_multipv_gives_distinct_first_moves_best_first() -> None:
    game = agon.Game(moves=["f1-e1", "f11-e10"])
    lines = agon.analyse(game, depth=3, multipv=6)
    assert [line.multipv for line in lines] == [1, 2, 3, 4, 5, 6]
    assert len({line.move for line in lines}) == 6
    scores = [line.score for line in lines]
    assert scores == sorted(scores, reverse=True)
    assert all(line.score.cp is not None for line in lines)
    for line in lines:
        assert line.pv[0] == line.move and is_legal_sequence(game.position, line.pv)
        # The statistics are the search's, shared by its lines.
        first = lines[0]
        assert (line.depth, line.seldepth, line.nodes, line.nps, line.time) == (
            first.depth, first.seldepth, first.nodes, first.nps, first.time)
    assert first.depth == 3 and first.seldepth >= 3 and first.time >= 0.0 and first.nps >= 0
    # The best line alone is the first of the lines.
    (best,) = agon.analyse(game, depth=3)
    assert (best.move, best.score, best.pv) == (first.move, first.score, first.pv)
    # Every legal move: the most lines there are.
    every = agon.analyse(agon.Position(THRONE_IN_ONE), depth=1, multipv=len(agon.Position(THRONE_IN_ONE).legal_moves()))
    assert sorted(str(line.move) for line in every) == sorted(str(m) for m in agon.Position(THRONE_IN_ONE).legal_moves())


def summary(lines: List[agon.AnalysisLine]) -> List[Any]:
    return [(line.move, line.score, line.pv, line.depth, line.seldepth, line.nodes) for line in lines]


def test_node_and_depth_limits_are_deterministic() -> None:
    game = agon.Game(moves=["f1-e1"])
    a = agon.analyse(game, nodes=4000, multipv=2)
    assert summary(a) == summary(agon.analyse(game, nodes=4000, multipv=2, hash_mib=1))
    assert a[0].nodes == 4000
    assert summary(agon.analyse(game, depth=3)) == summary(agon.analyse(game.copy(), depth=3))
    # The first limit reached stops the search.
    (shallow,) = agon.analyse(game, depth=2, nodes=10**9)
    assert shallow.depth == 2 and shallow.nodes < 10**9
    (few,) = agon.analyse(game, depth=50, nodes=300)
    assert few.nodes == 300 and few.depth < 50


def test_a_search_stopped_before_its_first_iteration_still_gives_a_move() -> None:
    (line,) = agon.analyse(agon.Position(), nodes=1)
    assert line.depth == 0 and agon.Position().is_legal(line.move)


def test_time_and_threads() -> None:
    began = time.monotonic()
    lines = agon.analyse(agon.Position(), time=0.1, threads=2, multipv=2)
    assert time.monotonic() - began < 5
    assert 1 <= len(lines) <= 2 and all(agon.Position().is_legal(line.move) for line in lines)
    (line,) = agon.analyse(agon.Position(), time=0)
    assert agon.Position().is_legal(line.move)


def test_a_game_history_counts_for_repetition() -> None:
    """Black, far behind, repeats the start a third time with e1-f1 (R11): a draw, which
    it prefers. From the position alone there is no repetition to take."""
    game = agon.Game(WHITE_AHEAD, ["e6-e5", "f1-e1", "e5-e6", "e1-f1", "e6-e5", "f1-e1", "e5-e6"])
    (line,) = agon.analyse(game, depth=4)
    assert line.move == agon.Move.parse("e1-f1") and line.pv == [line.move]
    (alone,) = agon.analyse(game.position, depth=4)
    assert alone.move != line.move and alone.score < line.score


def test_analysis_runs_without_the_gil() -> None:
    done = threading.Event()

    def think() -> None:
        agon.analyse(agon.Position(), time=0.3)
        done.set()

    thread = threading.Thread(target=think)
    thread.start()
    ticks = 0
    while not done.is_set():
        ticks += 1
        done.wait(0.01)
    thread.join()
    assert ticks > 5


def bad_calls() -> List[Any]:
    """(arguments, exception, its message as a regex or None)."""
    start = agon.Position()
    legal = len(start.legal_moves())
    return [
        ({}, ValueError, r"^give a time, nodes or depth limit: without one the analysis would not end$"),
        ({"time": -0.5}, ValueError, r"^time must be 0 to MAX_TIME_LIMIT \(86400\) seconds, not -0.5\b"),
        ({"time": math.nan}, ValueError, r"^time must be 0 to MAX_TIME_LIMIT"),
        ({"time": math.inf}, ValueError, r"^time must be 0 to MAX_TIME_LIMIT"),
        ({"time": agon.MAX_TIME_LIMIT + 1}, ValueError, r"^time must be 0 to MAX_TIME_LIMIT"),
        ({"time": True}, TypeError, r"not bool"),
        ({"time": "1"}, TypeError, None),
        ({"nodes": 0}, ValueError, r"^nodes must be at least 1, not 0$"),
        ({"nodes": -5}, ValueError, r"^nodes must be at least 1, not -5$"),
        ({"nodes": 2**63}, OverflowError, None),
        ({"nodes": 1.5}, TypeError, None),
        ({"nodes": True}, TypeError, None),
        ({"depth": 0}, ValueError, r"^depth must be 1 to 100, not 0$"),
        ({"depth": 101}, ValueError, r"^depth must be 1 to 100, not 101$"),
        ({"depth": 2, "multipv": 0}, ValueError, rf"^multipv must be 1 to {legal} \(the legal moves\), not 0$"),
        ({"depth": 2, "multipv": legal + 1}, ValueError,
         rf"^multipv must be 1 to {legal} \(the legal moves\), not {legal + 1}$"),
        ({"depth": 2, "threads": 0}, ValueError, r"^threads must be 1 to 64, not 0$"),
        ({"depth": 2, "threads": 65}, ValueError, r"^threads must be 1 to 64, not 65$"),
        ({"depth": 2, "hash_mib": 0}, ValueError, r"^hash_mib must be 1 to 4096, not 0$"),
        ({"depth": 2, "hash_mib": 4097}, ValueError, r"^hash_mib must be 1 to 4096, not 4097$"),
    ]


@pytest.mark.parametrize("kwargs, error, message", bad_calls(), ids=repr)
def test_bad_arguments_are_refused_precisely(
    kwargs: Dict[str, Any], error: type, message: Optional[str]
) -> None:
    game = agon.Game(moves=["f1-e1"])
    with pytest.raises(error, match=message):
        agon.analyse(agon.Position(), **kwargs)
    with pytest.raises(error):
        agon.analyse(game, **kwargs)
    assert game == agon.Game(moves=["f1-e1"]) and len(game) == 1


def test_what_cannot_be_analysed() -> None:
    over = agon.Game(THRONE_IN_ONE, ["h6-g6"])
    message = r"^the game is over \(White wins \(throne\)\): there is nothing to analyse$"
    with pytest.raises(ValueError, match=message):
        agon.analyse(over, depth=2)
    with pytest.raises(ValueError, match=message):
        agon.analyse(over.position, depth=2)
    assert len(over) == 1 and over.outcome() == agon.Outcome(agon.WHITE, "throne")
    with pytest.raises(TypeError, match=r"^analyse\(\) takes a Position or a Game, not str$"):
        agon.analyse(THRONE_IN_ONE, depth=2)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        agon.analyse(agon.Position(), 2)  # type: ignore[call-arg]


def test_lines_are_immutable_and_show_themselves() -> None:
    (line,) = agon.analyse(agon.Position(THRONE_IN_ONE), depth=1)
    assert repr(line) == f"<AnalysisLine 1: win in 1, depth 1, nodes {line.nodes}, pv h6-g6>"
    with pytest.raises(AttributeError):
        line.score = agon.Score(cp=0)  # type: ignore[misc]
    pv = line.pv
    pv.append(agon.Move.parse("f1-e1"))
    assert line.pv == [agon.Move.parse("h6-g6")]
    assert isinstance(line, agon.AnalysisLine) and isinstance(line.score, agon.Score)


def test_scores() -> None:
    scores = [agon.Score(win_in=1), agon.Score(cp=-5), agon.Score(loss_in=1), agon.Score(win_in=3),
              agon.Score(cp=123), agon.Score(loss_in=4), agon.Score(cp=0)]
    assert [str(s) for s in sorted(scores)] == [
        "loss in 1", "loss in 4", "-0.05", "0.00", "+1.23", "win in 3", "win in 1"]
    assert max(scores) == agon.Score(win_in=1) and min(scores) == agon.Score(loss_in=1)
    assert agon.Score(cp=123) == agon.Score(123) and agon.Score(cp=123) != agon.Score(cp=124)
    assert agon.Score(cp=5) != agon.Score(win_in=5) and agon.Score(cp=5) != 5
    assert len({agon.Score(cp=1), agon.Score(cp=1), agon.Score(win_in=1)}) == 2
    assert [repr(s) for s in (agon.Score(cp=-7), agon.Score(loss_in=2))] == ["Score(cp=-7)", "Score(loss_in=2)"]
    assert (agon.Score(loss_in=2).cp, agon.Score(loss_in=2).loss_in) == (None, 2)
    for s in scores:
        assert pickle.loads(pickle.dumps(s)) == s and copy.copy(s) is s and copy.deepcopy(s) is s
    bad: List[Tuple[Dict[str, Any], type]] = [
        ({}, ValueError),
        ({"cp": 1, "win_in": 1}, ValueError),
        ({"win_in": 0}, ValueError),
        ({"loss_in": -1}, ValueError),
        ({"loss_in": 2**32}, ValueError),
        ({"cp": 2**31}, ValueError),
        ({"cp": 1.0}, TypeError),
        ({"cp": False}, TypeError),
    ]
    for kwargs, error in bad:
        with pytest.raises(error):
            agon.Score(**kwargs)


def test_the_package_docstring_example() -> None:
    assert doctest.testmod(agon).failed == 0
