"""The fixed action space, its symmetry maps, and the observation planes."""

from __future__ import annotations

from typing import List

import numpy as np

import agon
from conftest import CAPTURE, QUEEN_CAPTURED


def test_action_layout() -> None:
    assert agon.ACTION_COUNT == 3337
    assert (agon.STEP_ACTIONS, agon.OUTER_RETURN_BASE, agon.INNER_RETURN_BASE) == (546, 546, 3276)
    start = agon.Position()
    # A step: cell index * 6 + direction.
    assert agon.move_to_action("f1-e1") == 40 * 6 + agon.NORTH_WEST
    assert agon.move_to_action("f1-f2") == 40 * 6 + agon.NORTH
    assert agon.action_to_move(start, 40 * 6 + agon.NORTH_EAST) == agon.Move.parse("f1-g1")
    # A return to the outer ring: 546 + from * 30 + rank of the outer cell (a1 is first).
    assert agon.move_to_action("d1>a1") == 546 + 21 * 30 + 0
    assert agon.move_to_action("d1>l6") == 546 + 21 * 30 + 29
    # A return to an inner cell: 3276 + rank among the 61 inner cells (f6 is the 31st).
    assert agon.move_to_action("f10>f6") == 3276 + 30
    assert agon.move_to_action("a1>f6") == 3276 + 30  # the origin is implied
    queen_captured = agon.Position(QUEEN_CAPTURED)
    assert agon.action_to_move(queen_captured, 3276 + 30) == agon.Move.parse("f10>f6")
    assert queen_captured.action_to_move(3276) == agon.Move.parse("f10>b2")


def test_start_actions() -> None:
    start = agon.Position()
    actions = start.legal_actions()
    assert actions.dtype == np.int64 and actions.shape == (27,)
    assert actions.tolist() == sorted(agon.move_to_action(m) for m in start.legal_moves())
    mask = start.action_mask()
    assert mask.dtype == np.bool_ and mask.shape == (agon.ACTION_COUNT,)
    assert np.flatnonzero(mask).tolist() == actions.tolist()
    assert start.play_action(int(actions[0])) == start.play(agon.action_to_move(start, int(actions[0])))


def test_every_legal_move_has_one_action(positions: List[agon.Position]) -> None:
    kinds: set[int] = set()
    for pos in positions + [agon.Position(QUEEN_CAPTURED), agon.Position(CAPTURE).play("f1-e1")]:
        moves = pos.legal_moves()
        actions = [agon.move_to_action(m) for m in moves]
        assert len(set(actions)) == len(moves)
        assert all(0 <= a < agon.ACTION_COUNT for a in actions)
        assert [agon.action_to_move(pos, a) for a in actions] == moves
        assert pos.legal_actions().tolist() == sorted(actions)
        assert int(pos.action_mask().sum()) == len(moves)
        kinds.update(a // 546 if a < 3276 else 9 for a in actions)
    assert {0, 9} <= kinds and len(kinds) > 2  # steps, outer and inner returns all met


def test_action_symmetries(positions: List[agon.Position]) -> None:
    maps = agon.action_symmetries()
    assert maps.shape == (12, agon.ACTION_COUNT) and maps.dtype == np.int64
    for row in maps:
        assert sorted(row.tolist()) == list(range(agon.ACTION_COUNT))  # a permutation
    assert maps[0].tolist() == list(range(agon.ACTION_COUNT))
    # Each block maps to itself.
    assert (maps[:, :546] < 546).all()
    assert ((maps[:, 546:3276] >= 546) & (maps[:, 546:3276] < 3276)).all()
    assert (maps[:, 3276:] >= 3276).all()
    for pos in positions[::10] + [agon.Position(QUEEN_CAPTURED)]:
        actions = pos.legal_actions()
        for s in range(12):
            image = pos.transform(agon.Symmetry(s))
            assert sorted(maps[s][actions].tolist()) == image.legal_actions().tolist()
            for a in actions[:5].tolist():
                m = agon.action_to_move(pos, a).transform(agon.Symmetry(s))
                assert agon.move_to_action(m) == maps[s][a]


def test_cell_symmetries() -> None:
    maps = agon.cell_symmetries()
    assert maps.shape == (12, 91)
    for s in range(12):
        sym = agon.Symmetry(s)
        assert maps[s].tolist() == [sym.cell(c).index for c in agon.CELLS]
    assert maps[3].tolist() == [90 - i for i in range(91)]


def test_observation_planes() -> None:
    assert agon.OBSERVATION_CHANNELS == [
        "own-queen", "own-guards", "opponent-queen", "opponent-guards", "own-captured",
        "opponent-captured", "forbidden", "throne", "throne-ring", "board", "white-to-move",
    ]
    start = agon.Position()
    obs = start.observation()
    assert obs.shape == (11, 91) and obs.dtype == np.float32
    assert np.flatnonzero(obs[0]).tolist() == [agon.Cell("f1").index]
    assert [agon.CELLS[i].name for i in np.flatnonzero(obs[1])] == [
        "a5", "b1", "d9", "h9", "k1", "l5"]
    assert np.flatnonzero(obs[2]).tolist() == [agon.Cell("f11").index]
    assert obs[3].sum() == 6 and obs[4].sum() == 0 and obs[5].sum() == 0
    assert obs[6].sum() == 0
    assert np.flatnonzero(obs[7]).tolist() == [45]
    assert [agon.CELLS[i].name for i in np.flatnonzero(obs[8])] == [
        "e5", "e6", "f5", "f7", "g5", "g6"]
    assert obs[9].sum() == 91 and obs[10].sum() == 91
    # From Black's view the roles swap.
    black = start.play("f1-e1").observation()
    assert np.flatnonzero(black[0]).tolist() == [agon.Cell("f11").index]
    assert np.flatnonzero(black[2]).tolist() == [agon.Cell("e1").index]
    assert black[10].sum() == 0
    captured = agon.Position(CAPTURE).play("f1-e1").observation()  # Black to move
    assert np.flatnonzero(captured[4]).tolist() == [agon.Cell("d1").index]
    assert captured[5].sum() == 0
    forbidden = agon.Position(
        "Qf1,Ga5,Gb1,Gd9,Gh9,Gk1,Gl5/qf11,ga2,gb7,ge1,gg2,gk7,gl2 w").observation()
    assert agon.Cell("f2").index in np.flatnonzero(forbidden[6]).tolist()


def test_axial_observation(positions: List[agon.Position]) -> None:
    coords = agon.axial_coordinates()
    assert coords.shape == (91, 2)
    assert coords[45].tolist() == [5, 5]
    q, r, _ = agon.Cell("l6").cube
    assert coords[90].tolist() == [r + 5, q + 5]
    for pos in positions[::25]:
        flat = pos.observation()
        axial = pos.observation(axial=True)
        assert axial.shape == (11, 11, 11) and axial.dtype == np.float32
        assert np.array_equal(pos.observation_axial(), axial)
        assert np.array_equal(axial[:, coords[:, 0], coords[:, 1]], flat)
        off_board = np.ones((11, 11), dtype=bool)
        off_board[coords[:, 0], coords[:, 1]] = False
        assert off_board.sum() == 30
        assert not axial[:10, off_board].any()


def test_observation_symmetries(positions: List[agon.Position]) -> None:
    maps = agon.cell_symmetries()
    for pos in positions[::30]:
        obs = pos.observation()
        for s in range(12):
            image = pos.transform(agon.Symmetry(s)).observation()
            moved = np.zeros_like(obs)
            moved[:, maps[s]] = obs
            assert np.array_equal(moved, image)
