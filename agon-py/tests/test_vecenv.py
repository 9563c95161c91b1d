"""VecEnv: shapes and dtypes, rewards, auto-reset, masks, caller-provided arrays."""

from __future__ import annotations

import numpy as np

import agon
from conftest import NO_ACTION_IN_ONE, RING_WITHOUT_QUEEN_IN_ONE, THRONE_IN_ONE


def test_shapes_and_dtypes() -> None:
    env = agon.VecEnv(4, seed=3)
    assert env.num_envs == len(env) == 4
    assert env.observation_shape == (11, 91) and env.action_count == agon.ACTION_COUNT
    obs, masks = env.reset()
    assert obs.shape == (4, 11, 91) and obs.dtype == np.float32
    assert masks.shape == (4, agon.ACTION_COUNT) and masks.dtype == np.bool_
    start = agon.Position()
    assert all(np.array_equal(o, start.observation()) for o in obs)
    assert all(np.array_equal(m, start.action_mask()) for m in masks)
    actions = env.random_actions()
    assert actions.shape == (4,) and actions.dtype == np.int64
    obs, rewards, terms, masks = env.step(actions)
    assert obs.shape == (4, 11, 91) and obs.dtype == np.float32
    assert rewards.shape == (4,) and rewards.dtype == np.float32
    assert terms.shape == (4,) and terms.dtype == np.bool_
    assert masks.shape == (4, agon.ACTION_COUNT) and masks.dtype == np.bool_
    for i in range(4):
        pos = env.position(i)
        assert pos.turn == agon.BLACK
        assert np.array_equal(obs[i], pos.observation())
        assert np.array_equal(masks[i], pos.action_mask())
        assert env.game(i).moves == [agon.action_to_move(start, int(actions[i]))]
    assert not terms.any() and not rewards.any()


def test_axial_layout() -> None:
    env = agon.VecEnv(2, axial=True)
    obs, _ = env.reset()
    assert obs.shape == (2, 11, 11, 11) and env.observation_shape == (11, 11, 11)
    assert np.array_equal(obs[0], agon.Position().observation(axial=True))
    obs, _, _, _ = env.step(env.random_actions())
    assert np.array_equal(obs[1], env.position(1).observation(axial=True))


def test_win_loss_rewards_and_auto_reset() -> None:
    for start, move, reward in [
        (THRONE_IN_ONE, "h6-g6", 1.0),
        (RING_WITHOUT_QUEEN_IN_ONE, "h6-g6", -1.0),
        (NO_ACTION_IN_ONE, "f8-f7", 1.0),
    ]:
        env = agon.VecEnv(2, start=start)
        other = agon.Position(start).legal_moves()[0]
        assert other != agon.Move.parse(move)
        actions = np.array([agon.move_to_action(move), agon.move_to_action(other)])
        obs, rewards, terms, masks = env.step(actions)
        assert rewards.tolist() == [reward, 0.0] and terms.tolist() == [True, False]
        # The finished game starts again at once.
        assert env.position(0) == agon.Position(start)
        assert env.game(0).moves == []
        assert np.array_equal(obs[0], agon.Position(start).observation())
        assert np.array_equal(masks[0], agon.Position(start).action_mask())
        assert env.position(1) == agon.Position(start).play(other)


def test_repetition_is_a_draw_with_no_reward() -> None:
    env = agon.VecEnv(1)
    moves = ["f1-e1", "f11-g10", "e1-f1", "g10-f11"] * 2
    for ply, move in enumerate(moves):
        _, rewards, terms, _ = env.step(np.array([agon.move_to_action(move)]))
        assert terms.tolist() == [ply == len(moves) - 1]
        assert rewards.tolist() == [0.0]
    assert env.position(0) == agon.Position()


def test_caller_provided_arrays() -> None:
    n = 8
    env = agon.VecEnv(n, seed=5)
    out = (
        np.full((n, 11, 91), 7.0, dtype=np.float32),
        np.full(n, 7.0, dtype=np.float32),
        np.ones(n, dtype=bool),
        np.ones((n, agon.ACTION_COUNT), dtype=bool),
    )
    result = env.step(env.random_actions(), out=out)
    assert all(r is o for r, o in zip(result, out))
    for i in range(n):
        assert np.array_equal(out[0][i], env.position(i).observation())
        assert np.array_equal(out[3][i], env.position(i).action_mask())
    assert not out[1].any() and not out[2].any()
    obs_masks = (np.zeros((n, 11, 91), dtype=np.float32), np.zeros((n, agon.ACTION_COUNT), bool))
    again = env.observe(out=obs_masks)
    assert again[0] is obs_masks[0] and np.array_equal(obs_masks[0], out[0])
    assert np.array_equal(obs_masks[1], out[3])
    reset = env.reset(out=obs_masks)
    assert reset[1] is obs_masks[1] and int(obs_masks[1].sum()) == 27 * n


def test_actions_of_any_int_dtype() -> None:
    env = agon.VecEnv(2)
    env.step(np.array([agon.move_to_action("f1-e1")] * 2, dtype=np.int32))
    env.step([agon.move_to_action("f11-g10")] * 2)
    assert env.position(0) == env.position(1) == agon.Position().play("f1-e1").play("f11-g10")


def test_long_random_run() -> None:
    n = 16
    env = agon.VecEnv(n, seed=2024)
    _, masks = env.reset()
    finished = 0
    total = 0.0
    for _ in range(1500):
        actions = env.random_actions()
        assert masks[np.arange(n), actions].all()  # random actions are legal
        _, rewards, terms, masks = env.step(actions)
        assert masks.any(axis=1).all()  # a game in the batch always has a move
        assert set(np.unique(rewards).tolist()) <= {-1.0, 0.0, 1.0}
        assert not rewards[~terms].any()
        finished += int(terms.sum())
        total += float(np.abs(rewards).sum())
    assert finished > 0 and total <= finished


def test_seeded_random_actions() -> None:
    a, b = agon.VecEnv(4, seed=9), agon.VecEnv(4, seed=9)
    for _ in range(20):
        actions = a.random_actions()
        assert actions.tolist() == b.random_actions().tolist()
        a.step(actions)
        b.step(actions)
    a.reset(seed=1)
    b.reset(seed=1)
    assert a.random_actions().tolist() == b.random_actions().tolist()
