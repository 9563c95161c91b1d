"""agon.gymnasium: Gymnasium's env checker, registration, and the environment's behaviour
(sides, the opponent, seeding, rewards, masks, observations, illegal actions)."""

from __future__ import annotations

import copy

import doctest
import subprocess
import sys
import warnings
from typing import Any, List, Literal, Tuple

import numpy as np
import pytest

import agon
from conftest import RING_WITHOUT_QUEEN_IN_ONE, THRONE_IN_ONE

import gymnasium  # noqa: E402  (the test command installs the extras: never skipped)

import agon.gymnasium  # noqa: E402
from agon.gymnasium import AgonEnv  # noqa: E402
from gymnasium.error import ResetNeeded  # noqa: E402
from gymnasium.utils.env_checker import check_env  # noqa: E402

# Black's guard h6-g6 completes ring 1 with Black's queen on the throne: Black wins.
BLACK_THRONE_IN_ONE = "Qf11,Ga2,Gb7,Gd1,Gh1,Gk7,Gl2/qf6,ge5,ge6,gf5,gf7,gg5,gh6 b"


def first_legal(info: dict[str, Any]) -> int:
    return int(np.flatnonzero(info["action_mask"])[0])


@pytest.mark.parametrize(
    "kwargs",
    [
        {},
        {"agent_side": "random", "opponent": "random"},
        {"agent_side": "black"},
    ],
)
def test_check_env(kwargs: dict[str, Any]) -> None:
    # The default, illegal_action="lose": check_env steps an action sampled before its
    # reset (so possibly illegal in the new game), which must then be a valid input.
    env = gymnasium.make("Agon-v0", **kwargs)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        check_env(env.unwrapped)
    assert [str(w.message) for w in caught] == []
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        check_env(env)
    # The only warning: that the made environment has wrappers (Gymnasium's own).
    assert len(caught) == 1 and "different from the unwrapped version" in str(caught[0].message)


def test_make_after_import_and_by_module() -> None:
    env = gymnasium.make("Agon-v0", opponent="greedy")
    assert isinstance(env.unwrapped, AgonEnv) and env.unwrapped.opponent == "greedy"
    assert gymnasium.spec("Agon-v0").entry_point == "agon.gymnasium:AgonEnv"
    # Without importing agon.gymnasium first, "module:id" imports it.
    result = subprocess.run(
        [
            sys.executable,
            "-c",
            "import gymnasium\n"
            "env = gymnasium.make('agon.gymnasium:Agon-v0', opponent='alphabeta:2')\n"
            "print(type(env.unwrapped).__name__, env.unwrapped.opponent)",
        ],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["AgonEnv", "alphabeta:2"]


def test_spaces() -> None:
    env = AgonEnv()
    assert env.action_space == gymnasium.spaces.Discrete(agon.ACTION_COUNT)
    assert env.observation_space == gymnasium.spaces.Box(0.0, 1.0, (11, 11, 11), np.float32)
    assert env.metadata["render_modes"] == ["ansi", "human"]


def test_observation_and_mask_are_the_positions() -> None:
    env = AgonEnv(opponent="random", agent_side="black")
    observation, info = env.reset(seed=4)
    for _ in range(60):
        position = env.position
        assert position.turn == agon.BLACK
        assert np.array_equal(observation, position.observation(axial=True).transpose(1, 2, 0))
        assert observation.dtype == np.float32 and observation.flags.c_contiguous
        mask = env.action_masks()
        assert mask.dtype == np.bool_ and mask.shape == (agon.ACTION_COUNT,)
        assert np.array_equal(mask, position.action_mask())
        assert np.array_equal(info["action_mask"], mask)
        observation, reward, terminated, truncated, info = env.step(first_legal(info))
        assert not truncated
        if terminated:
            break
        assert reward == 0.0


def test_side_selection() -> None:
    white = AgonEnv(agent_side="white")
    white.reset(seed=0)
    assert white.agent_side == agon.WHITE and len(white.game) == 0
    black = AgonEnv(agent_side="black", opponent="greedy")
    black.reset(seed=0)
    assert black.agent_side == agon.BLACK
    # The opponent, White, has played the first move.
    assert len(black.game) == 1 and black.position.turn == agon.BLACK
    sides = []
    for seed in range(16):
        env = AgonEnv(agent_side="random", opponent="random")
        env.reset(seed=seed)
        assert env.position.turn == env.agent_side
        assert len(env.game) == (0 if env.agent_side == agon.WHITE else 1)
        again = AgonEnv(agent_side="random", opponent="random")
        again.reset(seed=seed)
        assert again.agent_side == env.agent_side
        sides.append(env.agent_side)
    assert agon.WHITE in sides and agon.BLACK in sides


def test_opponent_moves_after_the_agent() -> None:
    env = AgonEnv(opponent="mcts:50")
    _, info = env.reset(seed=2)
    action = first_legal(info)
    _, _, terminated, _, info = env.step(action)
    moves = env.game.moves
    assert not terminated and len(moves) == 2
    assert moves[0] == agon.action_to_move(agon.Position(), action)
    after = agon.Position().play(moves[0])
    assert after.is_legal(moves[1]) and env.position == after.play(moves[1])
    assert env.position.turn == agon.WHITE


def test_the_opponent_is_the_named_bot() -> None:
    # From a start where the opponent (White) moves first and wins in one, the greedy bot
    # wins at once: reset returns the end.
    env = AgonEnv(opponent="greedy", agent_side="black", start=THRONE_IN_ONE)
    _, info = env.reset(seed=0)
    assert env.game.moves == [agon.Move.parse("h6-g6")]
    assert info["reason"] == "throne" and not info["action_mask"].any()
    with pytest.raises(ResetNeeded):
        env.step(0)


def play(env: AgonEnv, seed: int, steps: int) -> Tuple[List[agon.Move], List[float]]:
    """The moves and rewards of ``steps`` agent steps (the first legal action each time)."""
    _, info = env.reset(seed=seed)
    rewards = []
    for _ in range(steps):
        _, reward, terminated, _, info = env.step(first_legal(info))
        rewards.append(reward)
        if terminated:
            break
    return env.game.moves, rewards


def test_seeded_resets_are_reproducible() -> None:
    for spec in ["random", "mcts:30", "alphabeta:2"]:
        a = AgonEnv(opponent=spec, agent_side="random")
        b = AgonEnv(opponent=spec, agent_side="random")
        assert play(a, 11, 12) == play(b, 11, 12)
        # Unseeded resets continue from the seeded generator.
        a.reset()
        b.reset()
        assert a.game == b.game and a.agent_side == b.agent_side
    games = {tuple(play(AgonEnv(opponent="random", agent_side="black"), s, 4)[0]) for s in range(6)}
    assert len(games) > 1


@pytest.mark.parametrize(
    "start, side, move, reward, reason",
    [
        (THRONE_IN_ONE, "white", "h6-g6", 1.0, "throne"),
        (RING_WITHOUT_QUEEN_IN_ONE, "white", "h6-g6", -1.0, "ring-without-queen"),
        (BLACK_THRONE_IN_ONE, "black", "h6-g6", 1.0, "throne"),
    ],
)
def test_rewards_at_the_end(
    start: str, side: Literal["white", "black"], move: str, reward: float, reason: str
) -> None:
    env = AgonEnv(start=start, agent_side=side)
    env.reset(seed=0)
    _, r, terminated, truncated, info = env.step(agon.move_to_action(move))
    assert (r, terminated, truncated, info["reason"]) == (reward, True, False, reason)
    assert not info["action_mask"].any() and not env.action_masks().any()
    with pytest.raises(ResetNeeded):
        env.step(agon.move_to_action(move))


def test_rewards_of_whole_games_match_the_outcome() -> None:
    env = AgonEnv(opponent="random", agent_side="random")
    rng = np.random.default_rng(0)
    rewards = set()
    for seed in range(40):
        _, info = env.reset(seed=seed)
        terminated, reward = False, 0.0
        while not terminated:
            _, reward, terminated, truncated, info = env.step(rng.choice(np.flatnonzero(info["action_mask"])))
            assert not truncated
        game = env.game
        outcome = agon.Game(game.start, game.moves).outcome()
        assert outcome is not None and info["reason"] == outcome.reason
        expected = 0.0 if outcome.winner is None else (1.0 if outcome.winner == env.agent_side else -1.0)
        assert reward == expected
        rewards.add(reward)
        if rewards == {-1.0, 0.0, 1.0}:
            break
    # Wins, losses and repetition draws all met.
    assert rewards == {-1.0, 0.0, 1.0}


def test_illegal_action_raises_and_changes_nothing() -> None:
    env = AgonEnv(opponent="random", illegal_action="raise")
    _, info = env.reset(seed=3)
    env.step(first_legal(info))
    before = env.game, env.action_masks(), env.np_random.bit_generator.state
    for action, reason in [
        (agon.move_to_action("f11-e10"), "not-your-piece"),
        (agon.ACTION_COUNT, "no-such-action"),
        (-1, "no-such-action"),
    ]:
        with pytest.raises(agon.IllegalMoveError) as error:
            env.step(action)
        assert error.value.reason == reason
    for bad in (True, 1.0):
        with pytest.raises(TypeError):
            env.step(bad)  # type: ignore[arg-type]
    after = env.game, env.action_masks(), env.np_random.bit_generator.state
    assert after[0] == before[0] and np.array_equal(after[1], before[1]) and after[2] == before[2]
    _, _, _, _, info = env.step(int(np.flatnonzero(before[1])[0]))
    assert len(env.game) == len(before[0]) + 2


def test_illegal_action_loses_with_lose() -> None:
    env = AgonEnv()  # the default: "lose"
    _, info = env.reset(seed=0)
    observation, reward, terminated, truncated, info = env.step(agon.move_to_action("f11-e10"))
    assert (reward, terminated, truncated, info["reason"]) == (-1.0, True, False, "illegal-action")
    assert len(env.game) == 0 and not env.action_masks().any()
    assert np.array_equal(observation, agon.Position().observation(axial=True).transpose(1, 2, 0))
    with pytest.raises(ResetNeeded):
        env.step(agon.move_to_action("f1-e1"))
    _, info = env.reset()
    assert "reason" not in info and info["action_mask"].sum() == 27


def test_step_before_reset() -> None:
    with pytest.raises(ResetNeeded):
        AgonEnv().step(agon.move_to_action("f1-e1"))
    with pytest.raises(ResetNeeded):
        gymnasium.make("Agon-v0").step(agon.move_to_action("f1-e1"))


def test_render(capsys: pytest.CaptureFixture[str]) -> None:
    env = AgonEnv(render_mode="ansi", start=THRONE_IN_ONE)
    env.reset(seed=0)
    assert env.render() == str(agon.Position(THRONE_IN_ONE))
    env.step(agon.move_to_action("h6-g6"))
    assert env.render() == str(agon.Position(THRONE_IN_ONE).play("h6-g6")) + "\nWhite wins (throne)"
    assert capsys.readouterr().out == ""
    human = AgonEnv(render_mode="human", opponent="random")
    human.reset(seed=0)
    human.step(agon.move_to_action("f1-e1"))
    assert human.render() is None
    boards = [str(p) for p in human.game.positions]
    assert capsys.readouterr().out == f"{boards[0]}\n{boards[2]}\n{boards[2]}\n"


@pytest.mark.parametrize(
    "kwargs",
    [
        {"opponent": "stockfish"},
        {"opponent": "mcts:0"},
        {"agent_side": "red"},
        {"illegal_action": "ignore"},
        {"render_mode": "rgb_array"},
        {"start": agon.Position(THRONE_IN_ONE).play("h6-g6")},
    ],
)
def test_bad_arguments(kwargs: dict[str, Any]) -> None:
    with pytest.raises(ValueError):
        AgonEnv(**kwargs)


def test_make_vec() -> None:
    envs = gymnasium.make_vec("Agon-v0", num_envs=2, vectorization_mode="sync", opponent="random")
    observations, infos = envs.reset(seed=0)
    assert observations.shape == (2, 11, 11, 11)
    for _ in range(3):
        actions = np.array([np.flatnonzero(m)[0] for m in infos["action_mask"]])
        observations, rewards, terminations, truncations, infos = envs.step(actions)
        assert not truncations.any()
    envs.close()


def test_docstring_examples() -> None:
    results = doctest.testmod(agon.gymnasium)
    assert results.attempted >= 10 and results.failed == 0


def test_action_space_samples_legal_actions_unless_masked() -> None:
    env = AgonEnv(opponent="random", agent_side="black")
    env.reset(seed=3)
    env.action_space.seed(3)
    for _ in range(200):
        if env.game.is_over():
            break
        action = env.action_space.sample()
        assert env.action_masks()[action]
        env.step(action)
    # An explicit mask is used as given, legal or not.
    env.reset(seed=4)
    only = np.zeros(agon.ACTION_COUNT, dtype=np.int8)
    only[3000] = 1
    assert env.action_space.sample(mask=only) == 3000 and not env.action_masks()[3000]
    # A copy of the space is a plain Discrete of the same size.
    copied = copy.deepcopy(env.action_space)
    assert type(copied) is gymnasium.spaces.Discrete and copied.n == agon.ACTION_COUNT
