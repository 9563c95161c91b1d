"""The conformance suite (``conformance/`` at the repository root) replayed through Python:
every position text, legal-move set, capture and result of every game, and every perft
figure. The schema is documented in ``conformance/README.md``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Dict, List, Optional

import pytest

import agon

SUITE = Path(__file__).resolve().parents[2] / "conformance"


def load(name: str) -> Dict[str, Any]:
    data: Dict[str, Any] = json.loads((SUITE / name).read_text(encoding="utf-8"))
    assert data["schema"] == 1
    return data


GAMES: List[Dict[str, Any]] = load("games.json")["games"]
PERFT: List[Dict[str, Any]] = load("perft.json")["positions"]


def winner_name(side: Optional[agon.Side]) -> Optional[str]:
    return None if side is None else side.name.lower()


def test_the_suite_covers_every_end_reason() -> None:
    reasons = {game["result"]["reason"] for game in GAMES}
    assert reasons == {"throne", "ring-without-queen", "no-legal-action", "repetition"}
    assert len(GAMES) >= 200


@pytest.mark.parametrize("game", GAMES, ids=lambda g: f"game{g['id']}")
def test_game_replays_exactly(game: Dict[str, Any]) -> None:
    played = agon.Game(agon.Position.from_text(game["start"]))
    for number, ply in enumerate(game["plies"], start=1):
        assert not played.is_over(), f"ply {number}: the game ended early"
        assert played.position.to_text() == ply["position"], f"ply {number}"
        legal = {str(m) for m in played.legal_moves()}
        assert legal == set(ply["legal"].split(" ")), f"ply {number}"
        captured = played.push(ply["move"])
        assert " ".join(str(c) for c in captured) == ply["captures"], f"ply {number}"
    assert played.position.to_text() == game["final"]
    outcome = played.outcome()
    assert outcome is not None
    assert winner_name(outcome.winner) == game["result"]["winner"]
    assert outcome.reason == game["result"]["reason"]
    assert outcome.score == game["result"]["score"]
    assert played.legal_moves() == []


@pytest.mark.parametrize("case", PERFT, ids=lambda c: str(c["name"]))
def test_perft_figures(case: Dict[str, Any]) -> None:
    position = agon.Position.from_text(case["position"])
    for depth, leaves in enumerate(case["perft"], start=1):
        if leaves > 3_000_000:
            break  # the Rust replay checks the large trees
        assert agon.perft(position, depth) == leaves, f"depth {depth}"
