"""One seeding scheme: a Python tournament and a Rust arena match with the same seed and
players play the same games (agon_core::random::seed_of and player_seeds)."""

from __future__ import annotations

from typing import Tuple

import pytest

import agon
from agon import _agon, _games, tournament


def test_the_python_seeds_are_agon_core_s() -> None:
    # The Python helpers only call the Rust function: one definition.
    assert _games.game_seed(7, 3) == _agon._seed_of(7, [3])
    assert _games.game_seed(7, 0, 3) == _agon._seed_of(7, [0, 3]) != _games.game_seed(7, 3)
    assert _games.game_seed(7) == _agon._seed_of(7, [])
    white, black = _games.player_seeds(_games.game_seed(7, 0, 3))
    assert (white, black) == (_agon._seed_of(_games.game_seed(7, 0, 3), [0]),
                              _agon._seed_of(_games.game_seed(7, 0, 3), [1]))
    assert white != black
    with pytest.raises(OverflowError):
        _games.game_seed(-1, 0)


@pytest.mark.parametrize(
    "players, max_plies",
    [(("greedy", "random"), agon.MAX_GAME_PLIES), (("alphabeta:1", "mcts:8"), 300)],
)
@pytest.mark.parametrize("rules", ["standard", "ludii"])
def test_a_tournament_plays_the_games_of_an_arena_match(
    players: Tuple[str, str], max_plies: int, rules: str
) -> None:
    games, seed = 6, 11
    played = tournament.tournament(
        list(players), games, seed=seed, max_plies=max_plies, rules=rules
    )
    python = [(g.first_white, g.winner, g.reason, g.plies) for g in played.games]
    rust = [tuple(g) for g in _agon._arena_match(players[0], players[1], games, seed, max_plies, rules)]
    assert python == rust


def test_the_seed_reaches_the_games() -> None:
    # Games of the random bot end at lengths that tell them apart.
    one = _agon._arena_match("greedy", "random", 6, 11)
    other = _agon._arena_match("greedy", "random", 6, 12)
    assert [g[3] for g in one] != [g[3] for g in other]
    assert _agon._arena_match("greedy", "random", 6, 11) == one


def test_the_arena_checks_its_arguments() -> None:
    with pytest.raises(ValueError):
        _agon._arena_match("minimax", "random", 2, 0)
    with pytest.raises(ValueError):
        _agon._arena_match("random", "random", 2, 0, 0)
    assert len(_agon._arena_match("random", "greedy", 2, 0, 10)) == 2
    assert agon.MAX_GAME_PLIES >= 10


def test_a_tournament_s_intervals_are_the_arena_s() -> None:
    import doctest

    # The Python score interval is the arena's (one definition), examples included.
    assert _games.score_interval(14, 4, 2) == _agon._score_interval(14, 4, 2)
    score, low, high = _games.score_interval(20, 0, 0)
    assert (score, round(low, 3), high) == (1.0, 0.839, 1.0)
    assert _games.score_interval(0, 0, 0) == (0.0, 0.0, 1.0)
    with pytest.raises(ValueError, match="games"):
        _games.score_interval(2**32 - 1, 1, 0)
    assert doctest.testmod(_games).failed == 0
