"""Game review through Python (``agon.review``): agon-bots' figures converted, each action
judged by the expected score it cost its player, the same review for the same game and
budget, and precise errors that change nothing."""

from __future__ import annotations

import threading

import pytest

import agon
from conftest import THRONE_IN_ONE

# Five of Black's moves leave White without an action (R12): Black wins in 1.
STUCK_IN_ONE = "Qa3,Ga1,Ga2,Ga4,Ga5,Ga6,Gb1/qf11,gb2,gb4,gb6,gb7,gc1,gd2 b"
WINNING = {"f11-g10", "f11-f10", "f11-e10", "d2-c2", "b6-b5"}


def test_a_move_that_throws_away_a_win_is_a_blunder() -> None:
    game = agon.Game(agon.Position(STUCK_IN_ONE), ["b4-c5"])
    review = agon.review(game, nodes=2000)
    (ply,) = review.plies
    assert (ply.ply, ply.side, str(ply.move)) == (0, agon.BLACK, "b4-c5")
    assert str(ply.best) in WINNING
    assert ply.before == 1.0 and ply.loss == pytest.approx(ply.before - ply.after)
    assert ply.judgement == "blunder"
    assert review.tally(agon.BLACK) == {
        "actions": 1, "inaccuracies": 0, "mistakes": 0, "blunders": 1, "mean_loss": ply.loss,
    }
    assert review.tally(agon.WHITE)["actions"] == 0


def test_a_slower_win_in_a_won_position_is_not_flagged() -> None:
    review = agon.review(agon.Game(agon.Position(STUCK_IN_ONE), ["c1-c2"]), nodes=2000)
    (ply,) = review.plies
    assert 0 < ply.loss < 0.05 and ply.judgement is None


def test_positions_carry_the_curve_and_the_engines_choice() -> None:
    game = agon.Game(agon.Position(THRONE_IN_ONE), ["h6-g6"])  # the throne ring completed
    review = agon.review(game, nodes=500)
    start, end = review.positions
    assert start.side == agon.WHITE and start.score == agon.Score(win_in=1)
    assert start.best is not None and start.pv[0] == start.best and start.white == 1.0
    assert (end.score, end.best, end.pv, end.white) == (None, None, [], 1.0)
    assert review.plies[0].loss == 0.0 and review.plies[0].judgement is None


def test_the_same_game_and_budget_give_the_same_review() -> None:
    game = agon.Game()
    for _ in range(6):
        game.play(agon.analyse(game, nodes=300)[0].move)
    a, b = agon.review(game, nodes=1500), agon.review(game, nodes=1500)
    assert len(a) == 6 and len(a.positions) == 7 and a.nodes == 1500
    assert [(p.score, p.best, p.white) for p in a.positions] == [(p.score, p.best, p.white) for p in b.positions]
    assert [(p.loss, p.judgement) for p in a.plies] == [(p.loss, p.judgement) for p in b.plies]
    # Each position is searched alone: its figures are those of analyse at the same budget
    # with a 1 MiB table.
    prefix = agon.Game(game.start, game.moves[:3])
    (line,) = agon.analyse(prefix, nodes=1500, hash_mib=1)
    assert (a.positions[3].score, a.positions[3].best) == (line.score, line.move)


def test_bad_arguments_are_precise_errors_that_change_nothing() -> None:
    game = agon.Game(agon.Position(), ["f1-e1"])
    with pytest.raises(TypeError, match="review\\(\\) takes a Game, not Position"):
        agon.review(agon.Position())  # type: ignore[arg-type]
    for nodes in (0, -1, 10_000_001):
        with pytest.raises(ValueError, match="nodes must be 1 to 10000000"):
            agon.review(game, nodes=nodes)
    with pytest.raises(OverflowError):  # as every int argument of the package beyond 64 bits
        agon.review(game, nodes=2**70)
    with pytest.raises(TypeError):
        agon.review(game, nodes="many")  # type: ignore[arg-type]
    assert [str(m) for m in game.moves] == ["f1-e1"]
    with pytest.raises(TypeError):
        agon.Review()


def test_a_review_runs_without_the_gil() -> None:
    game = agon.Game()
    for _ in range(10):
        game.play(agon.analyse(game, nodes=200)[0].move)
    ticks = []
    done = threading.Event()

    def tick() -> None:
        while not done.is_set():
            ticks.append(1)
            done.wait(0.001)

    thread = threading.Thread(target=tick)
    thread.start()
    try:
        agon.review(game, nodes=20_000)
    finally:
        done.set()
        thread.join()
    assert len(ticks) > 5


def test_a_review_draws_its_graph_for_notebooks() -> None:
    game = agon.Game(agon.Position(STUCK_IN_ONE), ["b4-c5"])
    text = agon.review(game, nodes=2000)._repr_svg_()
    assert text.startswith('<svg xmlns="http://www.w3.org/2000/svg" class="evaluation-graph"')
    # Two positions: the curve spans the picture; the blunder is a dot on the second.
    assert 'class="mark blunder" data-position="1"' in text
    assert text.count("<circle") == 1
