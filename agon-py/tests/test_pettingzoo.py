"""agon.pettingzoo: PettingZoo's own API, seed and render tests, and the environment's
behaviour (sides, rewards, masks, perspective, illegal actions, repetition)."""

from __future__ import annotations

import doctest
import random
import warnings
from typing import Any, Dict, List, Tuple

import numpy as np
import pytest

import agon
from conftest import RING_WITHOUT_QUEEN_IN_ONE, THRONE_IN_ONE

import pettingzoo  # type: ignore[import-untyped]  # noqa: E402,F401  (installed by the test command: never skipped)

import agon.pettingzoo  # noqa: E402
from pettingzoo.test import api_test, render_test, seed_test  # type: ignore[import-untyped]  # noqa: E402
from pettingzoo.utils.wrappers import TerminateIllegalWrapper  # type: ignore[import-untyped]  # noqa: E402

# Black's guard h6-g6 completes ring 1 with Black's queen on the throne: Black wins.
BLACK_THRONE_IN_ONE = "Qf11,Ga2,Gb7,Gd1,Gh1,Gk7,Gl2/qf6,ge5,ge6,gf5,gf7,gg5,gh6 b"
# The queens' shuffle f1-e1, f11-e10, e1-f1, e10-f11: twice brings the start back a third time.
SHUFFLE = ["f1-e1", "f11-e10", "e1-f1", "e10-f11"]

# PettingZoo's checks warn about dict observations unless the environment is one of its own
# (it lists their names); these two warnings are expected, any other fails the test.
DICT_OBSERVATION_WARNINGS = {
    "Observation is not a NumPy array",
    "Observation space for each agent probably should be gymnasium.spaces.box or "
    "gymnasium.spaces.discrete",
}


def snapshot(env: Any) -> Tuple[Any, ...]:
    """Everything a refused step must leave as it was."""
    return (
        env.position,
        env.agent_selection,
        dict(env.rewards),
        dict(env._cumulative_rewards),
        dict(env.terminations),
        {a: dict(i) for a, i in env.infos.items()},
        env.unwrapped.game,
    )


def test_pettingzoo_api_test() -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        api_test(agon.pettingzoo.env(), num_cycles=1000)
    assert {str(w.message) for w in caught} <= DICT_OBSERVATION_WARNINGS


def test_pettingzoo_seed_test() -> None:
    seed_test(agon.pettingzoo.env, num_cycles=500)


def test_pettingzoo_render_test(capsys: pytest.CaptureFixture[str]) -> None:
    render_test(agon.pettingzoo.env)
    # "human" printed the board after the reset, every step and every render().
    assert "White to move" in capsys.readouterr().out


def test_spaces_and_agents() -> None:
    env = agon.pettingzoo.env()
    env.reset()
    assert env.possible_agents == env.agents == ["player_0", "player_1"]
    assert env.metadata["render_modes"] == ["ansi", "human"]
    assert str(env.unwrapped) == "agon_v0"
    for agent in env.agents:
        assert env.action_space(agent).n == agon.ACTION_COUNT
        space = env.observation_space(agent)
        assert space["observation"].shape == (11, 11, 11)
        assert space["observation"].dtype == np.float32
        assert space["action_mask"].shape == (agon.ACTION_COUNT,)
        assert space["action_mask"].dtype == np.int8
    assert env.observation_space("player_0") is not env.observation_space("player_1")


def test_player_0_is_white_and_the_selection_follows_the_turn() -> None:
    assert agon.Position().turn == agon.WHITE
    env = agon.pettingzoo.raw_env()
    env.reset()
    assert env.agent_selection == "player_0"
    env.step(agon.move_to_action("f1-e1"))
    assert env.agent_selection == "player_1" and env.position.turn == agon.BLACK
    env = agon.pettingzoo.raw_env(start=BLACK_THRONE_IN_ONE)
    env.reset()
    assert env.agent_selection == "player_1"


def finish(env: Any) -> Dict[str, float]:
    """Steps the done agents out, and returns the reward each saw in ``last()``."""
    seen: Dict[str, float] = {}
    for agent in env.agent_iter():
        _, reward, terminated, truncated, _ = env.last()
        assert terminated and not truncated
        seen[agent] = reward
        env.step(None)
    assert env.agents == []
    return seen


@pytest.mark.parametrize(
    "start, move, player_0_reward, reason",
    [
        (THRONE_IN_ONE, "h6-g6", 1.0, "throne"),
        # The mover completes the ring without its queen on the throne: it loses.
        (RING_WITHOUT_QUEEN_IN_ONE, "h6-g6", -1.0, "ring-without-queen"),
        (BLACK_THRONE_IN_ONE, "h6-g6", -1.0, "throne"),
    ],
)
def test_decisive_move_rewards_the_right_agents(
    start: str, move: str, player_0_reward: float, reason: str
) -> None:
    env = agon.pettingzoo.env(start=start)
    env.reset()
    mover = env.agent_selection
    env.step(agon.move_to_action(move))
    assert env.terminations == {"player_0": True, "player_1": True}
    assert env.truncations == {"player_0": False, "player_1": False}
    assert env.rewards == {"player_0": player_0_reward, "player_1": -player_0_reward}
    assert env.infos == {"player_0": {"reason": reason}, "player_1": {"reason": reason}}
    assert env.agent_selection != mover
    assert finish(env) == {"player_0": player_0_reward, "player_1": -player_0_reward}


def test_random_games_end_with_the_engines_outcome() -> None:
    rng = random.Random(5)
    winners = set()
    for _ in range(6):
        env = agon.pettingzoo.env()
        env.reset()
        reference = agon.Game()
        while not env.terminations[env.agent_selection]:
            observation, reward, _, truncated, _ = env.last()
            assert reward == 0 and not truncated
            action = rng.choice(np.flatnonzero(observation["action_mask"]).tolist())
            env.step(action)
            reference.push_action(action)
        outcome = reference.outcome()
        assert outcome is not None
        winners.add(outcome.winner)
        expected = {
            "player_0": 0.0 if outcome.winner is None else (1.0 if outcome.winner == agon.WHITE else -1.0),
        }
        expected["player_1"] = -expected["player_0"]
        assert env.infos["player_0"] == {"reason": outcome.reason}
        assert finish(env) == expected
    # The seed gives games won by each side.
    assert {agon.WHITE, agon.BLACK} <= winners


def test_observations_and_masks_along_a_game() -> None:
    env = agon.pettingzoo.raw_env()
    env.reset()
    rows, cols = agon.axial_coordinates().T
    rng = random.Random(3)
    checked_forbidden = 0
    for _ in range(300):
        position = env.position
        mover = env.agent_selection
        other = "player_1" if mover == "player_0" else "player_0"
        mine, theirs = env.observe(mover), env.observe(other)
        assert np.array_equal(mine["action_mask"], position.action_mask().astype(np.int8))
        assert not theirs["action_mask"].any()
        assert np.array_equal(mine["observation"], position.observation(axial=True).transpose(1, 2, 0))
        assert mine["observation"].flags.c_contiguous
        # The other agent sees the same position from its own side.
        planes, others = mine["observation"], theirs["observation"]
        for a, b in [(0, 2), (1, 3), (4, 5)]:
            assert np.array_equal(others[..., a], planes[..., b])
            assert np.array_equal(others[..., b], planes[..., a])
        assert np.array_equal(others[..., 7:10], planes[..., 7:10])
        assert np.array_equal(others[..., 10], 1.0 - planes[..., 10])
        forbidden = np.zeros((11, 11), dtype=np.float32)
        cells = [c.index for c in position.forbidden_cells(position.turn.other())]
        forbidden[rows[cells], cols[cells]] = 1.0
        assert np.array_equal(others[..., 6], forbidden)
        checked_forbidden += len(cells) > 0
        if env.terminations[mover]:
            break
        env.step(rng.choice(position.legal_actions().tolist()))
    assert checked_forbidden > 0


def test_illegal_action_raises_and_changes_nothing() -> None:
    env = agon.pettingzoo.env()
    env.reset()
    env.step(agon.move_to_action("f1-e1"))
    before = snapshot(env)
    # A White move when Black is to move, numbers out of range, a step off the board.
    for action, reason in [
        (agon.move_to_action("e1-f1"), "not-your-piece"),
        (agon.ACTION_COUNT, "no-such-action"),
        (-1, "no-such-action"),
        (3, "no-such-action"),
    ]:
        with pytest.raises(agon.IllegalMoveError) as error:
            env.step(action)
        assert error.value.reason == reason
    with pytest.raises(TypeError):
        env.step(None)
    with pytest.raises(TypeError):
        env.step(True)
    after = snapshot(env)
    assert after == before
    env.step(agon.move_to_action("f11-e10"))
    assert env.agent_selection == "player_0"


def test_repetition_is_a_draw() -> None:
    env = agon.pettingzoo.env()
    env.reset()
    for move in SHUFFLE * 2:
        assert not env.terminations[env.agent_selection]
        env.step(agon.move_to_action(move))
    assert env.position == agon.Position()
    assert env.terminations == {"player_0": True, "player_1": True}
    assert env.rewards == {"player_0": 0.0, "player_1": 0.0}
    assert env.infos["player_1"] == {"reason": "repetition"}
    # The position alone has moves, the game has none: both masks are empty.
    assert env.position.action_mask().any()
    for agent in env.agents:
        assert not env.observe(agent)["action_mask"].any()
    assert finish(env) == {"player_0": 0.0, "player_1": 0.0}


def test_reset_starts_again() -> None:
    env = agon.pettingzoo.env(start=THRONE_IN_ONE)
    env.reset()
    env.step(agon.move_to_action("h6-g6"))
    finish(env)
    env.reset(seed=1)
    assert env.agents == ["player_0", "player_1"]
    assert env.position == agon.Position(THRONE_IN_ONE)
    assert env.rewards == {"player_0": 0.0, "player_1": 0.0}
    assert not any(env.terminations.values()) and env.infos == {"player_0": {}, "player_1": {}}
    assert len(env.unwrapped.game) == 0


def test_render_modes(capsys: pytest.CaptureFixture[str]) -> None:
    env = agon.pettingzoo.env(render_mode="ansi", start=THRONE_IN_ONE)
    env.reset()
    assert env.render() == str(agon.Position(THRONE_IN_ONE))
    env.step(agon.move_to_action("h6-g6"))
    text = env.render()
    assert text.splitlines()[-2:] == ["Black to move", "White wins (throne)"]
    assert capsys.readouterr().out == ""
    human = agon.pettingzoo.env(render_mode="human")
    human.reset()
    human.step(agon.move_to_action("f1-e1"))
    assert human.render() is None
    start, after = str(agon.Position()), str(agon.Position().play("f1-e1"))
    assert capsys.readouterr().out == f"{start}\n{after}\n{after}\n"
    with pytest.raises(ValueError, match="render_mode"):
        agon.pettingzoo.env(render_mode="rgb_array")


def test_decided_start_is_refused() -> None:
    decided = agon.Position(THRONE_IN_ONE).play("h6-g6")
    with pytest.raises(ValueError, match="decided"):
        agon.pettingzoo.env(start=decided)


def test_terminate_illegal_wrapper_makes_illegal_actions_lose() -> None:
    env = TerminateIllegalWrapper(agon.pettingzoo.raw_env(), illegal_reward=-1)
    env.reset()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        env.step(agon.move_to_action("f11-e10"))
    assert env.rewards == {"player_0": -1.0, "player_1": 0.0}
    assert all(env.terminations.values())
    assert env.unwrapped.position == agon.Position()


def test_docstring_examples() -> None:
    results = doctest.testmod(agon.pettingzoo)
    assert results.attempted >= 10 and results.failed == 0


def test_wrapped_env_refuses_to_step_before_reset() -> None:
    env = agon.pettingzoo.env()
    with pytest.raises(Exception, match="reset"):
        env.step(agon.move_to_action("f1-e1"))
    env.reset()
    env.step(agon.move_to_action("f1-e1"))
    assert env.position == agon.Position().play("f1-e1")


def random_game(seed: int) -> List[str]:
    env = agon.pettingzoo.env()
    env.reset(seed=seed)
    moves: List[str] = []
    for agent in env.agent_iter():
        observation, _, termination, truncation, _ = env.last()
        if termination or truncation:
            action = None
        else:
            action = env.action_space(agent).sample(observation["action_mask"])
            moves.append(str(env.unwrapped.position.action_to_move(action)))
        env.step(action)
    return moves


def test_a_seeded_reset_replays_agents_sampling_from_the_action_spaces() -> None:
    assert random_game(7) == random_game(7)
    assert random_game(7) != random_game(8)
