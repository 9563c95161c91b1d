"""Shared positions for the tests: each is a fixed text, so the tests depend only on the
rules applied to it."""

from __future__ import annotations

import random
import shutil
import tempfile
from pathlib import Path
from typing import Iterator, List

import pytest

import agon

START = "Qf1,Ga5,Gb1,Gd9,Gh9,Gk1,Gl5/qf11,ga2,gb7,gd1,gh1,gk7,gl2 w"
# White's queen f1-e1 captures Black's guard on d1 (line c1-d1-e1).
CAPTURE = "Qf1,Ga5,Gc1,Gd9,Gh9,Gk1,Gl5/qf11,ga2,gb7,gd1,gh1,gk7,gl2 w"
# Black's queen is captured: Black must return her, anywhere, the throne included.
QUEEN_CAPTURED = "Qf1,Ga5,Gb1,Gd9,Gh9,Gk1,Gl5/qf10*,ga2,gb7,gd1*,gh1,gk7,gl2 b"
# White's guard h6-g6 completes ring 1 with White's queen on the throne: White wins.
THRONE_IN_ONE = "Qf6,Ge5,Ge6,Gf5,Gf7,Gg5,Gh6/qf11,ga2,gb7,gd1,gh1,gk7,gl2 w"
# The same ring with White's queen away from the throne: White loses.
RING_WITHOUT_QUEEN_IN_ONE = "Qf1,Ge5,Ge6,Gf5,Gf7,Gg5,Gh6/qf11,ga2,gb7,gd1,gh1,gk7,gl2 w"
# White's f8-f7 leaves Black without a legal action.
NO_ACTION_IN_ONE = "Qe4,Ga3,Gb4,Gd4,Gf8,Gg4,Gk5/qf6,ge5,ge6,gf4,gf5,gg5,gg6 w"
NO_ACTION = "Qe4,Ga3,Gb4,Gd4,Gf7,Gg4,Gk5/qf6,ge5,ge6,gf4,gf5,gg5,gg6 b"


def random_positions(count: int, seed: int) -> List[agon.Position]:
    """Positions met along random games (captures and returns included)."""
    rng = random.Random(seed)
    found: List[agon.Position] = []
    while len(found) < count:
        game = agon.Game()
        while not game.is_over() and len(found) < count:
            if rng.random() < 0.1 or game.position.must_return():
                found.append(game.position)
            game.push(rng.choice(game.legal_moves()))
    return found


@pytest.fixture(scope="session")
def positions() -> List[agon.Position]:
    return random_positions(300, seed=11)


@pytest.fixture
def short_tmp() -> Iterator[Path]:
    """A new directory with a short path, under the system's temporary directory rather than
    pytest's deeper per-test one: the az loop names its networks by path in bot specs,
    which are at most 128 bytes, and a pytest-xdist worker's directories (`popen-gw0/`)
    made them longer than that."""
    path = Path(tempfile.mkdtemp(prefix="agon-"))
    yield path
    shutil.rmtree(path, ignore_errors=True)
