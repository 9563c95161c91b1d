"""The conformance data of the other rule sets (``conformance/perft-rules.json`` and
``conformance/games-rules.json``, documented in ``conformance/README.md``) replayed through
Python: every position, legal-move set, capture, trap, chooser and result of every game
under its rules, every perft figure; and, for the learning encoding, every legal-move set
as actions of the rule set's action space, replayed again from the action numbers."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Dict, List, Optional

import numpy as np
import pytest

import agon
from agon import _agon

SUITE = Path(__file__).resolve().parents[2] / "conformance"


def load(name: str) -> Dict[str, Any]:
    data: Dict[str, Any] = json.loads((SUITE / name).read_text(encoding="utf-8"))
    assert data["schema"] == 1
    return data


GAMES: List[Dict[str, Any]] = load("games-rules.json")["games"]
PERFT: List[Dict[str, Any]] = load("perft-rules.json")["positions"]


def winner_name(side: Optional[agon.Side]) -> Optional[str]:
    return None if side is None else side.name.lower()


def test_the_suite_covers_the_rule_sets() -> None:
    rules = {game["rules"] for game in GAMES}
    assert {"ludii", "standard+between=trapped", "standard+guard-return=next-ring",
            "standard+queen-placer=captor", "standard+stuck=pass"} <= rules
    assert any(ply.get("trapped") for game in GAMES for ply in game["plies"])
    assert any("chooser" in ply for game in GAMES for ply in game["plies"])
    assert any(ply["move"] == "pass" for game in GAMES for ply in game["plies"])


@pytest.mark.parametrize("game", GAMES, ids=lambda g: f"game{g['id']}-{g['rules']}")
def test_game_replays_exactly(game: Dict[str, Any]) -> None:
    rules = agon.Rules(game["rules"])
    played = agon.Game(agon.Position.from_text(game["start"], rules))
    assert played.rules == rules
    for number, ply in enumerate(game["plies"], start=1):
        where = f"ply {number}"
        assert not played.is_over(), f"{where}: the game ended early"
        position = played.position
        assert position.to_text() == ply["position"], where
        legal = {str(m) for m in played.legal_moves()}
        assert legal == set(ply["legal"].split(" ")), where
        chooser = ply.get("chooser", "white" if position.turn == agon.WHITE else "black")
        assert winner_name(position.chooser) == chooser, where
        assert position.traps(ply["move"]) == ply.get("trapped", False), where
        captured = played.push(ply["move"])
        assert " ".join(str(c) for c in captured) == ply["captures"], where
    assert played.position.to_text() == game["final"]
    outcome = played.outcome()
    assert outcome is not None
    assert winner_name(outcome.winner) == game["result"]["winner"]
    assert outcome.reason == game["result"]["reason"]
    assert outcome.score == game["result"]["score"]
    assert played.legal_moves() == []


@pytest.mark.parametrize("game", GAMES, ids=lambda g: f"game{g['id']}-{g['rules']}")
def test_game_replays_as_actions(game: Dict[str, Any]) -> None:
    """The legal moves of every ply are the mask of the rule set's action space, each
    action gives its move back, and the game replays from its action numbers (in Python
    and through the dataset replay)."""
    rules = agon.Rules(game["rules"])
    width = agon.action_count(rules)
    played = agon.Game(agon.Position.from_text(game["start"], rules))
    actions: List[int] = []
    for number, ply in enumerate(game["plies"], start=1):
        position = played.position
        mask = played.action_mask()
        assert mask.shape == (width,) and np.array_equal(mask, position.action_mask())
        expected = sorted(agon.move_to_action(m, position) for m in played.legal_moves())
        assert np.flatnonzero(mask).tolist() == expected == played.legal_actions().tolist()
        for a in expected:
            assert position.is_legal(position.action_to_move(a)), f"ply {number}: action {a}"
        action = agon.move_to_action(ply["move"], position)
        assert str(position.action_to_move(action)) == ply["move"]
        if ply["move"] == "pass":
            assert action == agon.PASS_ACTION
        actions.append(action)
        played.push_action(action)
    assert played.position.to_text() == game["final"]
    assert not played.action_mask().any() and played.action_mask().shape == (width,)
    offsets = np.array([0, len(actions)], dtype=np.int64)
    [again] = _agon._replay_games([game["start"]], offsets, np.array(actions, dtype=np.uint16),
                                  [game["rules"]])
    assert again.rules == rules and again.moves == played.moves
    assert _agon._game_actions(played).tolist() == actions


@pytest.mark.parametrize("case", PERFT, ids=lambda c: f"{c['name']}-{c['rules']}")
def test_perft_figures(case: Dict[str, Any]) -> None:
    position = agon.Position.from_text(case["position"], case["rules"])
    for depth, leaves in enumerate(case["perft"], start=1):
        if leaves > 500_000:
            break  # the Rust replay checks the large trees
        assert agon.perft(position, depth) == leaves, f"depth {depth}"
        assert agon.perft(case["position"], depth, rules=case["rules"]) == leaves
