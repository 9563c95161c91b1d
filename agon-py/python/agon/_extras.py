"""One place that turns a missing optional dependency into an error naming its extra."""

from __future__ import annotations

import importlib
from types import ModuleType

from ._agon import Game, Position


def require(module: str, extra: str, feature: str) -> ModuleType:
    """Import ``module`` for ``feature``, or raise an ``ImportError`` that names the extra.

    >>> require("math", "none", "agon.test").sqrt(4.0)
    2.0
    """
    try:
        return importlib.import_module(module)
    except ImportError as error:
        raise ImportError(
            f"{feature} needs the optional dependency {module!r}, which is not installed: "
            f"pip install 'agon-rules[{extra}]'"
        ) from error


class GameView:
    """What every framework adapter shows of the game it holds in ``self._game``: the
    current position, and a copy of the game (so that a caller cannot change the
    adapter's game behind its back).

    >>> import agon
    >>> class Adapter(GameView):
    ...     def __init__(self) -> None:
    ...         self._game = agon.Game(moves=["f1-e1"])
    >>> Adapter().position == agon.Position().play("f1-e1"), len(Adapter().game)
    (True, 1)
    """

    _game: Game

    @property
    def position(self) -> Position:
        """The current position."""
        return self._game.position

    @property
    def game(self) -> Game:
        """A copy of the game so far: its start, moves, repetition and outcome."""
        return self._game.copy()
