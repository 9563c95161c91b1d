"""The learning entry points under rule sets (RULES.md section 8): the action space of
``action_count(rules)`` (the pass, the block of guard returns to inner cells), masks bool
and packed, ``VecEnv(rules=...)`` and its player to act, the capped random playouts, and
the PettingZoo, Gymnasium and OpenSpiel environments, each under ``ludii``, a trapping
variant and ``guard-return=next-ring``."""

from __future__ import annotations

import importlib.util
from typing import Any, List

import numpy as np
import pytest

import agon

LUDII = "ludii"
TRAPPED = "standard+between=trapped"
NEXT_RING = "standard+guard-return=next-ring"
CAPTOR = "standard+queen-placer=captor+between=trapped"
RULE_SETS = [LUDII, TRAPPED, NEXT_RING, CAPTOR]

# White's guard e6 captured on ring 1: under next-ring it returns to ring 2.
NEXT_RING_TEXT = "Qf1,Ga5,Gb1,Ge6*,Gh9,Gk1,Gl5/qf11,ga2,gb7,gd1,gh1,gk7,gl2 w"


def test_action_counts() -> None:
    assert agon.action_count() == agon.action_count("standard") == agon.ACTION_COUNT == 3337
    assert agon.action_count(LUDII) == agon.action_count(agon.Rules.LUDII) == 3338
    assert agon.action_count(TRAPPED) == 3337
    assert agon.action_count(NEXT_RING) == agon.MAX_ACTION_COUNT == 8889
    assert agon.PASS_ACTION == 3337 and agon.NEXT_RING_RETURN_BASE == 3338
    assert agon.packed_mask_bytes() == agon.packed_mask_bytes(LUDII) == agon.PACKED_MASK_BYTES
    assert agon.packed_mask_bytes(NEXT_RING) == 1112
    with pytest.raises(ValueError):
        agon.action_count("standard+bogus=1")


def test_the_pass_is_an_action_under_ludii() -> None:
    game = agon.Game(rules=LUDII)
    assert game.action_mask().shape == (3338,)
    assert agon.move_to_action(agon.Move.PASS) == agon.PASS_ACTION
    assert agon.action_to_move(agon.Position(rules=LUDII), agon.PASS_ACTION) == agon.Move.PASS
    with pytest.raises(agon.IllegalMoveError) as error:
        agon.action_to_move(agon.Position(), agon.PASS_ACTION)  # standard: no such action
    assert error.value.reason == "no-such-action"


def test_next_ring_returns_have_their_own_actions() -> None:
    position = agon.Position(NEXT_RING_TEXT, rules=NEXT_RING)
    [move] = [m for m in position.legal_moves()][:1]
    action = agon.move_to_action(move, position)
    assert action >= agon.NEXT_RING_RETURN_BASE
    assert position.action_to_move(action) == move
    assert position.legal_actions().tolist() == sorted(
        agon.move_to_action(m, position) for m in position.legal_moves())
    mask = position.action_mask()
    assert mask.shape == (8889,) and mask[action]
    # Without the position, a return to an inner cell reads as the queen's.
    assert agon.move_to_action(move) < agon.NEXT_RING_RETURN_BASE


@pytest.mark.parametrize("rules", [None, LUDII, NEXT_RING])
def test_action_symmetries_permute_the_space(rules: Any) -> None:
    table = agon.action_symmetries(rules)
    width = agon.action_count(rules)
    assert table.shape == (12, width)
    for row in table:
        assert sorted(row.tolist()) == list(range(width))
    if rules == NEXT_RING:
        position = agon.Position(NEXT_RING_TEXT, rules=NEXT_RING)
        for s, row in enumerate(table):
            image = agon.Symmetry(s).position(position)
            for m in position.legal_moves():
                a = agon.move_to_action(m, position)
                assert image.is_legal(image.action_to_move(int(row[a])))


@pytest.mark.parametrize("rules", RULE_SETS)
@pytest.mark.parametrize("packed", [False, True])
def test_vecenv_plays_under_rules(rules: str, packed: bool) -> None:
    env = agon.VecEnv(8, seed=3, rules=rules, packed_masks=packed, threads=2)
    width = agon.action_count(rules)
    assert env.rules == agon.Rules(rules) and env.action_count == width
    assert env.mask_shape == ((agon.packed_mask_bytes(rules),) if packed else (width,))
    _, masks = env.reset()
    for _ in range(120):
        bools = agon.unpack_masks(masks, rules) if packed else masks
        assert bools.shape == (8, width)
        for i in range(8):
            position = env.position(i)
            assert position.rules == agon.Rules(rules)
            assert np.array_equal(bools[i], position.action_mask())
            assert env.player_to_act(i) == position.chooser
        assert env.players_to_act().tolist() == [int(env.position(i).chooser) for i in range(8)]
        actions = env.random_actions()
        assert all(bools[i][a] for i, a in enumerate(actions))
        _, _, _, masks = env.step(actions)


def test_vecenv_refuses_the_pass_where_the_rules_have_none() -> None:
    env = agon.VecEnv(1)
    with pytest.raises(agon.IllegalMoveError) as error:
        env.step([agon.PASS_ACTION])
    assert error.value.reason == "no-such-action"


def test_random_playouts_under_rules() -> None:
    stats = agon.random_playouts(30, seed=2, rules=LUDII, threads=2)
    assert stats["games"] == 30 and stats["capped"] == 0 and stats["plies_max"] <= 2500
    assert sum(stats["lengths"].values()) == 30
    trapped = agon.random_playouts(30, seed=2, rules=TRAPPED, threads=1)
    assert trapped == agon.random_playouts(30, seed=2, rules=TRAPPED, threads=2)
    endless = agon.random_playouts(20, seed=1, rules="standard+repetition=off", max_plies=40)
    assert endless["capped"] > 0 and endless["plies_max"] <= 40
    assert (endless["white_wins"] + endless["black_wins"] + endless["draws"]
            + endless["capped"]) == 20
    with pytest.raises(ValueError):
        agon.random_playouts(1, max_plies=0)


def needs(module: str) -> pytest.MarkDecorator:
    return pytest.mark.skipif(importlib.util.find_spec(module) is None, reason=f"no {module}")


@needs("pettingzoo")
@pytest.mark.parametrize("rules", RULE_SETS)
def test_pettingzoo_under_rules(rules: str) -> None:
    import agon.pettingzoo

    env = agon.pettingzoo.env(rules=rules)
    env.reset(seed=0)
    raw = env.unwrapped
    width = agon.action_count(rules)
    assert raw.action_space("player_0").n == width and raw.rules == agon.Rules(rules)
    rng = np.random.default_rng(0)
    for _ in range(300):
        agent = env.agent_selection
        observation, _, termination, truncation, _ = env.last()
        if termination or truncation:
            break
        assert agent == agon.pettingzoo.AGENTS[int(raw.position.chooser)]
        mask = observation["action_mask"]
        assert mask.shape == (width,)
        env.step(int(rng.choice(np.flatnonzero(mask))))


@needs("gymnasium")
@pytest.mark.parametrize("rules", RULE_SETS)
def test_gymnasium_under_rules(rules: str) -> None:
    import agon.gymnasium

    env = agon.gymnasium.AgonEnv(opponent="random", rules=rules, agent_side="black")
    assert env.action_space.n == agon.action_count(rules)  # type: ignore[attr-defined]
    _, info = env.reset(seed=4)
    for _ in range(200):
        assert env.position.chooser == env.agent_side
        _, _, terminated, _, info = env.step(int(env.action_space.sample()))
        if terminated:
            break
    assert env.game.rules == agon.Rules(rules)


@needs("pyspiel")
@pytest.mark.parametrize("rules", RULE_SETS)
def test_openspiel_under_rules(rules: str) -> None:
    import pyspiel  # type: ignore[import-not-found]

    import agon.openspiel

    game = agon.openspiel.load_game(max_game_length=300, rules=rules)
    assert game.num_distinct_actions() == agon.action_count(rules)
    again = pyspiel.load_game(str(game))
    assert again.rules == agon.Rules(rules)
    state = game.new_initial_state()
    rng = np.random.default_rng(1)
    while not state.is_terminal():
        assert state.current_player() == int(state.position.chooser)
        legal: List[int] = state.legal_actions()
        state.apply_action(int(rng.choice(legal)))
    record = state.to_record()
    if state.outcome() is not None or len(state.history()) < 300:
        assert game.state_from_record(record).history() == state.history()


@needs("pyspiel")
def test_openspiel_rules_parameter() -> None:
    import pyspiel

    import agon.openspiel

    game = pyspiel.load_game("python_agon(rules=standard+between:trapped)")
    assert game.rules == agon.Rules(TRAPPED)
    assert pyspiel.load_game("python_agon", {"rules": TRAPPED}).rules == agon.Rules(TRAPPED)
    assert pyspiel.load_game("python_agon(rules=ludii)").max_game_length() == 2500
    with pytest.raises(ValueError):
        pyspiel.load_game("python_agon(rules=nonsense)")
