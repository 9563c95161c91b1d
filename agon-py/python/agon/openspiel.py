"""Agon as an OpenSpiel game: ``import agon.openspiel`` registers ``python_agon``.

Needs the optional dependency OpenSpiel (``pip install 'agon-rules[openspiel]'``; the pip
package is ``open_spiel``, the module ``pyspiel``). ``import agon`` alone never imports it.

>>> import pyspiel
>>> import agon.openspiel
>>> game = pyspiel.load_game("python_agon")
>>> state = game.new_initial_state()
>>> state.current_player(), len(state.legal_actions())
(0, 27)
>>> state.action_to_string(state.current_player(), state.legal_actions()[0])
'a5-a6'
>>> state.apply_action(state.legal_actions()[0])
>>> state.current_player(), game.observation_tensor_shape()
(1, [11, 11, 11])

The game is a Python game of OpenSpiel (like OpenSpiel's own ``python_tic_tac_toe``), so
OpenSpiel's Python algorithms (``open_spiel.python.algorithms.mcts``, ``rl_environment``),
``pyspiel.random_sim_test`` and the playthrough tools run on it. With open_spiel 2.0.2
the C++ ``pyspiel.MCTSBot`` crashes on every Python game (``python_tic_tac_toe``
included): use the Python ``MCTSBot``. A Python game pays OpenSpiel's C++/Python
crossing at every call, about 0.1 ms a ply of a random rollout.

The rules are all the core's: a state holds an ``agon.Game`` (which keeps the history,
for threefold repetition) and only converts its actions, planes and outcome; nothing of
the rules is re-implemented here.

Game type
    Sequential, deterministic, perfect information, zero-sum, terminal rewards, two
    players: player 0 is White (who moves first), player 1 is Black, and
    ``current_player()`` is the player to act (``int(position.chooser)``: the side to
    move, but under ``queen-placer=captor`` the captor of a queen when she is placed).

Rules
    The game parameter ``rules`` (default ``"standard"``) is the rule set (RULES.md
    section 8), as its text: ``pyspiel.load_game("python_agon", {"rules":
    "standard+between=trapped"})``. In a game string OpenSpiel reads ``=`` itself, so
    there ``:`` stands for ``=``: ``pyspiel.load_game("python_agon(rules=ludii)")``,
    ``"python_agon(rules=standard+between:trapped)"`` (``rules_parameter`` writes it;
    ``str(game)`` shows it so). ``game.rules`` is the ``agon.Rules``. A rule set with a
    move ``limit`` shortens ``max_game_length()`` to it.

Actions
    ``num_distinct_actions()`` = ``agon.action_count(rules)`` (``agon.ACTION_COUNT`` =
    3337 under the standard rules, 3338 with the pass of ``stuck=pass``, 8889 under
    ``guard-return=next-ring``): the package's action numbers (see "Action space" in the
    package docstring). ``legal_actions()`` is
    ``Position.legal_actions()`` (sorted ascending, as OpenSpiel wants), and
    ``action_to_string(player, action)`` is the move in the project's notation
    (``"f1-e1"`` for a step, ``"f4>l1"`` for a return): ``str(position.action_to_move(a))``,
    decoded in the position with ``player`` to move. A number that is no move at all (a
    step off the board, out of range) prints as ``"action 5"``. OpenSpiel's
    ``string_to_action`` accepts the same notation.

Observations
    ``observation_tensor()`` has shape (11, 11, 11), channels first: exactly
    ``Position.observation(axial=True)`` of the current position (the 11 planes of
    ``agon.OBSERVATION_CHANNELS`` on the axial 11 x 11 grid, the side to move's view, so
    channel 10 says whether White is to move). It is the same for both players, as in
    OpenSpiel's other perfect-information board games. It does not show how often the
    position has occurred: repetition lives in the history, which is the information
    state (``information_state_string()`` is OpenSpiel's history string, as for
    ``python_tic_tac_toe``). ``observation_string()`` is the position's text
    (``Position.to_text()``), and ``str(state)`` the board diagram with the side to move,
    then the result once the game is over.

Returns
    +1 to the winner and -1 to the loser, 0 to both for a draw (threefold repetition),
    only at the end (``rewards()`` is 0 before); ``min_utility()`` = -1,
    ``max_utility()`` = 1, ``utility_sum()`` = 0.

Game length: an OpenSpiel-only cap
    The rules have no move limit: a game ends by the throne ring, a side without a legal
    action, or the third occurrence of a position. Repetition makes every game finite,
    but only below twice the number of positions, an astronomical number; OpenSpiel
    needs a usable ``max_game_length()`` that *every* game respects (``random_sim_test``
    checks it, AlphaZero sizes its game-length histogram by it). So the OpenSpiel game
    stops at the parameter ``max_game_length`` plies (default
    ``DEFAULT_MAX_GAME_LENGTH`` = 10,000, the length at which the project's web server
    also refuses a game). A game stopped there is **not** a result of the rules: the
    state is terminal, ``is_truncated()`` is true, ``outcome()`` is ``None``, the
    returns are [0, 0] (the only zero-sum, colour-blind score for an unfinished game)
    and ``to_record()`` shows the result ``*``. A game the rules end on the cap's last
    ply keeps the rules' result. Games never get near the default: of 20,000 uniformly
    random games (mean 487 plies), 8.7% passed 1,000 plies, 0.5% 2,000, 0.015% 3,000
    and none 3,500, each further 1,000 plies dividing their share by 20 to 30; games
    between players that pursue anything end far sooner. A smaller cap
    (``pyspiel.load_game("python_agon(max_game_length=500)")``) shortens episodes for
    learning, with the same truncation.

Serialisation
    ``state.serialize()``, ``pyspiel.serialize_game_and_state`` and ``pickle`` work: for
    a Python game OpenSpiel stores the history and a pickle of the state's attributes,
    and the state's ``agon.Game`` pickles as its start position's text and its moves in
    the project's notation, replayed (and so checked) by the core when loaded. As with
    any pickle, load only strings you trust. ``state.to_record()`` gives the game
    record, and ``AgonGame.state_from_record(text)`` makes a state from one (its
    history included).
"""

from __future__ import annotations

from typing import Any, Dict, List, Mapping, Optional

from . import _extras

pyspiel: Any = _extras.require("pyspiel", "openspiel", "agon.openspiel")

import numpy as np  # noqa: E402
import numpy.typing as npt  # noqa: E402

from ._agon import Game, Outcome, Position, Rules, Side, action_count, move_to_action  # noqa: E402

__all__ = [
    "AgonGame",
    "AgonObserver",
    "AgonState",
    "DEFAULT_MAX_GAME_LENGTH",
    "DEFAULT_RULES",
    "GAME_TYPE",
    "OBSERVATION_SHAPE",
    "SHORT_NAME",
    "game_info",
    "load_game",
    "rules_parameter",
]

SHORT_NAME = "python_agon"
"""The name the game is registered under with ``pyspiel``."""

DEFAULT_MAX_GAME_LENGTH = 10_000
"""The default OpenSpiel-only cap on a game's plies (see "Game length" above)."""

DEFAULT_RULES = "standard"
"""The default rule set (the parameter ``rules``)."""

_MAX_CAP = 2**31 - 1  # OpenSpiel's GameInfo holds the length in a C++ int.

OBSERVATION_SHAPE = (11, 11, 11)
"""The shape of an observation tensor: ``Position.observation(axial=True)``."""

GAME_TYPE = pyspiel.GameType(
    short_name=SHORT_NAME,
    long_name="Agon (Queen's Guard, 1842)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.DETERMINISTIC,
    information=pyspiel.GameType.Information.PERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=2,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=False,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification={"max_game_length": DEFAULT_MAX_GAME_LENGTH, "rules": DEFAULT_RULES},
)
"""The ``pyspiel.GameType`` of ``python_agon``."""


def game_info(
    max_game_length: int = DEFAULT_MAX_GAME_LENGTH, rules: _extras.RulesLike = DEFAULT_RULES
) -> Any:
    """The ``pyspiel.GameInfo`` of ``python_agon`` with the given cap and rule set: its
    actions are ``agon.action_count(rules)``, and its length the cap, or the rules' move
    limit if that is shorter.

    >>> game_info().num_distinct_actions, game_info(500).max_game_length
    (3337, 500)
    >>> game_info(rules="ludii").num_distinct_actions, game_info(rules="ludii").max_game_length
    (3338, 2500)
    """
    limit = Rules(rules).limit if isinstance(rules, str) else rules.limit
    if limit is not None:
        max_game_length = min(max_game_length, limit)
    return pyspiel.GameInfo(
        num_distinct_actions=action_count(rules),
        max_chance_outcomes=0,
        num_players=2,
        min_utility=-1.0,
        max_utility=1.0,
        utility_sum=0.0,
        max_game_length=max_game_length,
    )


def _params(params: Optional[Mapping[str, Any]]) -> "tuple[int, Rules]":
    """The ``max_game_length`` and ``rules`` parameters, checked. In the rules, ``:`` may
    stand for ``=`` (as a game string needs: OpenSpiel reads ``=`` there itself)."""
    params = dict(params or {})
    cap = params.pop("max_game_length", DEFAULT_MAX_GAME_LENGTH)
    text = params.pop("rules", DEFAULT_RULES)
    if not isinstance(text, str):
        raise TypeError(f"rules must be a rule set's text, not {type(text).__name__}")
    rules = Rules(text.replace(":", "="))
    if params:
        raise ValueError(f"python_agon has no parameter {sorted(params)[0]!r}")
    if isinstance(cap, bool) or not isinstance(cap, int):
        raise TypeError(f"max_game_length must be an int, not {type(cap).__name__}")
    if not 1 <= cap <= _MAX_CAP:
        raise ValueError(f"max_game_length must be 1 to {_MAX_CAP}, not {cap}")
    return cap, rules


def rules_parameter(rules: _extras.RulesLike) -> str:
    """The parameter ``rules`` of a rule set, as a game string holds it: its text with
    ``:`` for ``=`` (``pyspiel.load_game`` reads ``=`` in a game string as its own).

    >>> rules_parameter("standard+between=trapped")
    'standard+between:trapped'
    >>> pyspiel.load_game("python_agon(rules=standard+between:trapped)").rules
    Rules('standard+between=trapped')
    """
    return str(Rules(rules) if isinstance(rules, str) else rules).replace("=", ":")


class AgonGame(pyspiel.Game):  # type: ignore[misc]
    """The OpenSpiel game ``python_agon``; load it with ``pyspiel.load_game``.

    >>> game = load_game(max_game_length=500)
    >>> str(game), game.max_game_length()
    ('python_agon(max_game_length=500,rules=standard)', 500)
    >>> load_game(rules="ludii").num_distinct_actions()
    3338
    """

    def __init__(self, params: Optional[Mapping[str, Any]] = None) -> None:
        cap, rules = _params(params)
        info = game_info(cap, rules)
        super().__init__(
            GAME_TYPE, info, {"max_game_length": cap, "rules": rules_parameter(rules)}
        )
        self._cap = info.max_game_length
        self.rules = rules
        """The rule set of the game (the parameter ``rules``)."""

    def new_initial_state(self) -> AgonState:
        """The start position of the rules, White to move."""
        return AgonState(self)

    def state_from_record(self, record: str) -> AgonState:
        """A state that has played the moves of a game record (``Game.to_record()``).

        The record must start from the start position, under the game's rules (its
        ``Rules`` tag, standard without one); its moves are applied as actions, so the
        state's OpenSpiel history is complete. Raises ``ValueError`` (``agon.ParseError``,
        ``agon.IllegalMoveError``) for a record that does not parse, starts elsewhere, is
        of other rules, or holds more plies than ``max_game_length()``.

        >>> state = load_game().state_from_record("1. f1-e1 f11-g10 *")
        >>> state.history_str(), str(state.position.turn)
        ('245, 302', 'White')
        """
        game = Game.from_record(record)
        if game.rules != self.rules:
            raise ValueError(f"the record is of the rules {game.rules}, not {self.rules}")
        if game.start != Position(rules=self.rules):
            raise ValueError("an OpenSpiel state starts from the start position")
        if len(game) > self._cap:
            raise ValueError(f"the record has {len(game)} plies, over max_game_length")
        state = self.new_initial_state()
        for move in game.moves:
            state.apply_action(move_to_action(move, state.position))
        return state

    def make_py_observer(
        self, iig_obs_type: Any = None, params: Optional[Mapping[str, Any]] = None
    ) -> Any:
        """The observer of OpenSpiel's observation API (``make_observation``).

        The default observation (``iig_obs_type`` ``None``, or public information
        without perfect recall) is ``AgonObserver``: the position's planes and text. The
        others (perfect recall: the information state) are the history, as for
        OpenSpiel's public-information games.
        """
        if iig_obs_type is None or (
            iig_obs_type.public_info and not iig_obs_type.perfect_recall
        ):
            return AgonObserver(params)
        from open_spiel.python.observation import (  # type: ignore[import-untyped]
            IIGObserverForPublicInfoGame,
        )

        return IIGObserverForPublicInfoGame(iig_obs_type, params)


class AgonState(_extras.GameView, pyspiel.State):  # type: ignore[misc]
    """A state of ``python_agon``: an ``agon.Game`` and OpenSpiel's bookkeeping.

    Besides OpenSpiel's ``State`` API: ``position`` (the current ``agon.Position``),
    ``game`` (a copy of the ``agon.Game``), ``outcome()`` (the rules' ``agon.Outcome``,
    ``None`` while the game runs and for a truncated game), ``is_truncated()`` and
    ``to_record()``.

    >>> state = load_game().new_initial_state()
    >>> state.apply_action(state.string_to_action("f1-e1"))
    >>> state.position.to_text(), state.history()
    ('Qe1,Ga5,Gb1,Gd9,Gh9,Gk1,Gl5/qf11,ga2,gb7,gd1,gh1,gk7,gl2 b', [245])
    """

    def __init__(self, game: AgonGame) -> None:
        super().__init__(game)
        self._game = Game(rules=game.rules)
        self._cap: int = game.max_game_length()

    # OpenSpiel's API.

    def current_player(self) -> int:
        """The player to act (0 White, 1 Black: ``Position.chooser``, the side to move but
        for a queen placed by her captor), or ``pyspiel.PlayerId.TERMINAL``."""
        if self.is_terminal():
            return int(pyspiel.PlayerId.TERMINAL)
        return int(self._game.chooser)

    def _legal_actions(self, player: int) -> List[int]:
        """The legal actions of the player to act, ascending (OpenSpiel asks only then)."""
        del player  # OpenSpiel calls this for the player to act only.
        actions: List[int] = self._game.legal_actions().tolist()
        return actions

    def _apply_action(self, action: int) -> None:
        """Plays ``action``; an illegal one raises ``agon.IllegalMoveError``, unplayed."""
        if self.is_terminal():
            raise ValueError("the game is over")
        self._game.push_action(action)

    def _action_to_string(self, player: int, action: int) -> str:
        """The move of ``action`` in the project's notation, ``player`` to act."""
        position = self._game.position
        side = Side.WHITE if player == 0 else Side.BLACK
        try:
            if position.chooser != side:
                position = position.with_turn(side)
            return str(position.action_to_move(action))
        except (ValueError, OverflowError, TypeError):
            return f"action {action}"

    def is_terminal(self) -> bool:
        """Whether the rules ended the game, or it reached ``max_game_length``."""
        return self._game.is_over() or len(self._game) >= self._cap

    def returns(self) -> List[float]:
        """[+1, -1] if White won, [-1, +1] if Black won, else [0, 0]."""
        outcome = self._game.outcome()
        if outcome is None or outcome.winner is None:
            return [0.0, 0.0]
        return [1.0, -1.0] if outcome.winner == Side.WHITE else [-1.0, 1.0]

    def __str__(self) -> str:
        """The board diagram with the side to move, then the result when it is over."""
        text = str(self._game.position)
        outcome = self._game.outcome()
        if outcome is not None:
            text += f"\nGame over: {outcome.score} ({outcome.reason})"
        elif self.is_truncated():
            text += f"\nStopped at max_game_length = {self._cap} plies (not a rule): 0-0"
        return text

    # Agon's views of the state (with ``position`` and ``game`` from GameView).

    def outcome(self) -> Optional[Outcome]:
        """How the rules ended the game, or ``None`` (running, or truncated)."""
        return self._game.outcome()

    def is_truncated(self) -> bool:
        """Whether the game stopped at ``max_game_length`` without a result of the rules."""
        return not self._game.is_over() and len(self._game) >= self._cap

    def to_record(self) -> str:
        """The game record of the moves so far (``agon.Game.to_record()``)."""
        return self._game.to_record()


class AgonObserver:
    """The default observer: the position's planes (``tensor``, ``dict``) and text.

    OpenSpiel's ``make_observation(game)`` returns one; ``set_from(state, player)``
    fills ``tensor`` (flat, 1331 float32) and its view ``dict["observation"]`` (shape
    ``OBSERVATION_SHAPE``) with ``state.position.observation(axial=True)``, the same for
    both players.

    >>> observer = AgonObserver()
    >>> observer.set_from(load_game().new_initial_state(), 0)
    >>> observer.tensor.shape, observer.dict["observation"].shape
    ((1331,), (11, 11, 11))
    >>> float(observer.dict["observation"][10].sum())  # White to move: all ones
    121.0
    """

    def __init__(self, params: Optional[Mapping[str, Any]] = None) -> None:
        if params:
            raise ValueError(f"python_agon's observer takes no parameters, not {params}")
        self.tensor: npt.NDArray[np.float32] = np.zeros(
            int(np.prod(OBSERVATION_SHAPE)), np.float32
        )
        self.dict: Dict[str, npt.NDArray[np.float32]] = {
            "observation": self.tensor.reshape(OBSERVATION_SHAPE)
        }

    def set_from(self, state: AgonState, player: int) -> None:
        """Writes the planes of ``state``'s position (for either player)."""
        del player
        np.copyto(self.dict["observation"], state.position.observation(axial=True))

    def string_from(self, state: AgonState, player: int) -> str:
        """The position's text, ``Position.to_text()`` (for either player)."""
        del player
        return state.position.to_text()


def load_game(
    max_game_length: int = DEFAULT_MAX_GAME_LENGTH, rules: _extras.RulesLike = DEFAULT_RULES
) -> Any:
    """``pyspiel.load_game("python_agon", ...)``: the registered game.

    >>> load_game().max_game_length()
    10000
    """
    return pyspiel.load_game(
        SHORT_NAME, {"max_game_length": max_game_length, "rules": rules_parameter(rules)}
    )


if SHORT_NAME not in pyspiel.registered_names():  # a second import (reload) keeps the first
    pyspiel.register_game(GAME_TYPE, AgonGame)
