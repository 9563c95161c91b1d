"""VecEnv: shapes and dtypes, rewards, auto-reset, masks, caller-provided arrays; the same
games on any number of threads and in every output format; random_playouts on threads."""

from __future__ import annotations

import os
import signal
from typing import Any, Dict, List, Tuple

import numpy as np
import pytest

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


# ---------------------------------------------------------------------------------------
# Training scale: threads, compact outputs


def run_batch(steps: int, **kwargs: Any) -> List[Tuple[np.ndarray, ...]]:
    """Random actions and everything a batch writes, step by step (observations as
    float32 and masks as bools, whatever the format written)."""
    env = agon.VecEnv(**kwargs)
    seen: List[Tuple[np.ndarray, ...]] = []
    for _ in range(steps):
        actions = env.random_actions()
        obs, rewards, terms, masks = env.step(actions)
        if env.packed_masks:
            masks = agon.unpack_masks(masks)
        seen.append((actions, obs.astype(np.float32), rewards, terms, masks))
    obs, masks = env.observe()
    seen.append((obs.astype(np.float32), agon.unpack_masks(masks) if env.packed_masks else masks))
    return seen


def same(a: List[Tuple[np.ndarray, ...]], b: List[Tuple[np.ndarray, ...]]) -> bool:
    return len(a) == len(b) and all(
        len(x) == len(y) and all(np.array_equal(u, v) for u, v in zip(x, y)) for x, y in zip(a, b)
    )


def test_threads_and_formats_give_the_same_games() -> None:
    # 300 games: several chunks of work for each thread; long enough for games to end.
    reference = run_batch(400, n=300, seed=17, threads=1)
    assert sum(int(step[3].sum()) for step in reference[:-1]) > 20
    for threads in (2, 3):
        for obs_dtype in (np.float32, np.uint8):
            for packed in (False, True):
                got = run_batch(400, n=300, seed=17, threads=threads, obs_dtype=obs_dtype,
                                packed_masks=packed)
                assert same(got, reference), (threads, obs_dtype, packed)


def test_compact_outputs_hold_the_positions() -> None:
    for axial in (False, True):
        env = agon.VecEnv(5, seed=4, axial=axial, obs_dtype="uint8", packed_masks=True)
        assert env.obs_dtype == np.uint8 and env.packed_masks
        assert env.mask_shape == (agon.PACKED_MASK_BYTES,) == (418,)
        for _ in range(30):
            obs, rewards, terms, masks = env.step(env.random_actions())
            assert obs.dtype == np.uint8 and obs.shape == (5, *env.observation_shape)
            assert masks.dtype == np.uint8 and masks.shape == (5, 418)
            assert not (masks[:, -1] & 0x7F).any()  # the padding bits are 0
            unpacked = agon.unpack_masks(masks)
            bits = np.unpackbits(masks.view(np.uint8), axis=-1, count=agon.ACTION_COUNT).view(bool)
            assert np.array_equal(unpacked, bits)
            assert np.array_equal(np.packbits(unpacked, axis=-1), masks)
            for i in range(5):
                position = env.position(i)
                assert np.array_equal(obs[i], position.observation(axial=axial).astype(np.uint8))
                assert np.array_equal(unpacked[i], position.action_mask())


def test_compact_outputs_in_place() -> None:
    n = 4
    env = agon.VecEnv(n, seed=2, obs_dtype=np.uint8, packed_masks=True)
    out = (np.full((n, 11, 91), 9, np.uint8), np.ones(n, np.float32), np.ones(n, bool),
           np.full((n, 418), 0xFF, np.uint8))
    result = env.step(env.random_actions(), out=out)
    assert all(r is o for r, o in zip(result, out))
    obs_masks = (np.zeros((n, 11, 91), np.uint8), np.zeros((n, 418), np.uint8))
    again = env.observe(out=obs_masks)
    assert again[0] is obs_masks[0] and np.array_equal(obs_masks[0], out[0])
    assert np.array_equal(obs_masks[1], out[3])
    # The default formats' arrays are refused: a dtype error, before anything changes.
    before = [a.copy() for a in out]
    wide = (np.zeros((n, 11, 91), np.float32), out[1], out[2], np.zeros((n, agon.ACTION_COUNT), bool))
    bads: List[Any] = [(wide[0], *out[1:]), (*out[:3], wide[3])]
    for bad in bads:
        with pytest.raises(TypeError):
            env.step(env.random_actions(), out=bad)
    with pytest.raises(TypeError):
        env.observe(out=(wide[0], obs_masks[1]))
    assert all(np.array_equal(np.asarray(a), b) for a, b in zip(out, before))


def test_unpack_masks() -> None:
    rng = np.random.default_rng(5)
    for shape in [(418,), (3, 418), (2, 3, 418), (0, 418)]:
        packed = rng.integers(0, 256, size=shape, dtype=np.uint8)  # padding bits set too
        expected = np.unpackbits(packed, axis=-1, count=agon.ACTION_COUNT).view(bool)
        assert np.array_equal(agon.unpack_masks(packed), expected)
        assert agon.unpack_masks(packed).shape == (*shape[:-1], agon.ACTION_COUNT)
    strided = rng.integers(0, 256, size=(4, 418), dtype=np.uint8)[::-2]
    assert np.array_equal(agon.unpack_masks(strided),
                          np.unpackbits(strided, axis=-1, count=agon.ACTION_COUNT).view(bool))
    cases: List[Tuple[Any, type]] = [(np.zeros(418, np.int8), TypeError), (np.zeros((2, 418), bool), TypeError),
                       ([0] * 418, TypeError), (np.ma.masked_array(np.zeros(418, np.uint8)), TypeError),
                       (np.zeros(417, np.uint8), ValueError), (np.zeros((418, 2), np.uint8), ValueError),
                       (np.uint8(3), TypeError), (np.zeros((), np.uint8), ValueError)]
    for bad, error in cases:
        with pytest.raises(error):
            agon.unpack_masks(bad)


def test_bad_threads_and_formats_are_refused() -> None:
    bad_threads: List[Tuple[Any, type]] = [
        (0, ValueError), (-1, ValueError), (257, ValueError), (2**63, OverflowError),
        (True, TypeError), (1.0, TypeError), ("2", TypeError)]
    for threads, error in bad_threads:
        with pytest.raises(error):
            agon.VecEnv(2, threads=threads)
        with pytest.raises(error):
            agon.random_playouts(1, threads=threads)
    assert agon.VecEnv(2, threads=256).threads == 256
    assert agon.VecEnv(2).threads >= 1
    bad_dtypes: List[Tuple[Any, type]] = [
        (np.float64, ValueError), ("int8", ValueError), (">f4", ValueError),
        ("bogus", TypeError), (3, TypeError), (np.zeros(2), TypeError)]
    for obs_dtype, error in bad_dtypes:
        with pytest.raises(error):
            agon.VecEnv(2, obs_dtype=obs_dtype)
    goods: List[Any] = [None, np.float32, "float32", "f4", np.dtype(np.float32)]
    for good in goods:
        assert agon.VecEnv(1, obs_dtype=good).obs_dtype == np.float32
    goods = [np.uint8, "uint8", "u1", np.dtype(np.uint8)]
    for good in goods:
        assert agon.VecEnv(1, obs_dtype=good).obs_dtype == np.uint8
    one: Any = 1
    with pytest.raises(TypeError):
        agon.VecEnv(2, packed_masks=one)


def test_games_end_exactly_as_game_does() -> None:
    # Each game of the batch is followed by an agon.Game playing the same moves: they end
    # together, for the same reason (repetition draws included), with the same reward.
    n = 12
    env = agon.VecEnv(n, seed=11, threads=2)
    games = [agon.Game() for _ in range(n)]
    reasons: Dict[str, int] = {}
    for _ in range(3000):
        actions = env.random_actions()
        _, rewards, terms, _ = env.step(actions)
        for i, game in enumerate(games):
            mover = game.position.turn
            game.push(agon.action_to_move(game.position, int(actions[i])))
            assert bool(terms[i]) == game.is_over()
            outcome = game.outcome()
            if outcome is not None:
                reasons[outcome.reason] = reasons.get(outcome.reason, 0) + 1
                expected = 0.0 if outcome.winner is None else (1.0 if outcome.winner == mover else -1.0)
                assert rewards[i] == expected
                games[i] = agon.Game()
            else:
                assert rewards[i] == 0.0
    assert reasons.get("repetition", 0) > 0, reasons
    for i, game in enumerate(games):
        assert env.game(i) == game


def test_random_playouts_on_any_number_of_threads() -> None:
    stats = agon.random_playouts(40, seed=9, threads=1)
    for threads in (2, 3, 8):
        assert agon.random_playouts(40, seed=9, threads=threads) == stats
    assert agon.random_playouts(40, seed=9) == stats
    assert agon.random_playouts(40, seed=10) != stats


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs os.fork")
def test_a_forked_process_steps_on_its_own_threads() -> None:
    # Threads do not survive a fork: the child must start helper threads of its own
    # rather than wait for the parent's, which it does not have.
    env = agon.VecEnv(300, seed=3, threads=2)
    env.step(env.random_actions())
    twin = agon.VecEnv(300, seed=3, threads=1)
    twin.step(twin.random_actions())
    expected = twin.step(twin.random_actions())
    pid = os.fork()
    if pid == 0:  # the child: exit 0 only if the step is right, and die if it hangs
        signal.alarm(60)
        ok = False
        try:
            got = env.step(env.random_actions())
            ok = all(np.array_equal(a, b) for a, b in zip(got, expected))
        finally:
            os._exit(0 if ok else 1)
    _, status = os.waitpid(pid, 0)
    assert os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0
    got = env.step(env.random_actions())  # the parent's threads still work
    assert all(np.array_equal(a, b) for a, b in zip(got, expected))
