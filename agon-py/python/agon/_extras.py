"""One place that turns a missing optional dependency into an error naming its extra."""

from __future__ import annotations

import importlib
from types import ModuleType

from typing import Optional, Union

from ._agon import Game, Position, Rules

RulesLike = Union[Rules, str]
"""A rule set: a ``Rules`` or its text (``"ludii"``, ``"standard+between=trapped"``)."""


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


def start_under(start: Union[Position, str, None], rules: Optional[RulesLike]) -> Position:
    """The start position of an adapter: ``start`` (a ``Position`` or its text; the start
    position by default) under ``rules`` if given, else the rules of a ``Position`` start
    (standard for a text or no start).

    >>> start_under(None, "ludii").rules
    Rules('ludii')
    >>> start_under("Qf1,Ga5,Gb1,Gd9,Gh9,Gk1,Gl5/qf11,ga2,gb7,gd1,gh1,gk7,gl2 w", None).rules
    Rules('standard')
    """
    if start is None:
        return Position(rules=rules)
    if isinstance(start, str):
        return Position(start, rules=rules)
    if not isinstance(start, Position):
        raise TypeError(f"start must be a Position, its text or None, not {type(start).__name__}")
    return start if rules is None else start.with_rules(rules)


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
