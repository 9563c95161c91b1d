"""Agon as a single-agent Gymnasium environment: the agent plays one side against a bot.

Needs the optional dependency Gymnasium (``pip install 'agon-rules[gymnasium]'``).
Importing this module registers the environment as ``Agon-v0``; ``gymnasium.make`` can
also import it itself: ``gymnasium.make("agon.gymnasium:Agon-v0")``.

>>> import gymnasium, agon.gymnasium
>>> env = gymnasium.make("Agon-v0", opponent="greedy", agent_side="white")
>>> observation, info = env.reset(seed=0)
>>> observation.shape, int(info["action_mask"].sum())
((11, 11, 11), 27)
>>> action = int(info["action_mask"].argmax())
>>> observation, reward, terminated, truncated, info = env.step(action)
>>> reward, terminated, truncated, len(env.unwrapped.game)
(0.0, False, False, 2)

Opponent
    ``opponent`` is a bot's spec, as ``agon.bots.Bot.from_name`` reads it: ``"random"``,
    ``"greedy"`` (the default), ``"mcts:200"``, ``"alphabeta:3"``... The bot is made
    again at every ``reset``, with a seed drawn from the environment's generator, so
    ``reset(seed=s)`` makes the episode reproducible (unless the spec has a time limit,
    ``"mcts:100000:500ms"``, which makes the bot depend on the machine). The bot sees
    the whole game, repetitions included.

Sides
    ``agent_side`` is ``"white"`` (the default; White moves first), ``"black"`` (the
    opponent's first move is played by ``reset``) or ``"random"`` (drawn at every
    ``reset`` from the environment's generator). ``env.unwrapped.agent_side`` is the side
    of the current episode.

Rules
    ``rules`` is the rule set (RULES.md section 8: a ``Rules`` or its text, ``"ludii"``,
    ``"standard+between=trapped"``...; by default that of a ``Position`` start, else the
    standard rules). The opponent plays under it, the actions are its action space, and
    the agent acts whenever it is the player to act (``Position.chooser``: under
    ``queen-placer=captor`` the agent places the queen it captured, on the opponent's
    turn). Under a rule set whose games need not end (``repetition=off`` without a
    ``limit``) wrap the environment in ``gymnasium.wrappers.TimeLimit``.

Actions
    ``Discrete(agon.action_count(rules))`` (3337 under the standard rules, 3338 with the
    pass of ``stuck=pass``): the package's action numbers (``agon.ACTION_COUNT``; see
    "Action space" in the package docstring). ``action_masks()`` (the convention of sb3-contrib's
    ``MaskablePPO``) and ``info["action_mask"]`` give the legal ones, as a bool array.
    ``illegal_action`` says what an action that is not legal does; it is never played,
    never replaced by a legal one, and never ignored:

    - ``"lose"`` (the default): the episode ends as the agent's loss (reward -1,
      ``terminated``, ``info["reason"] == "illegal-action"``), as an illegal move loses
      in a tournament. Every action of ``action_space`` is then a valid input to
      ``step``, as Gymnasium expects (``check_env`` steps actions sampled without a
      mask), and learners that do not mask actions learn to avoid illegal ones.
    - ``"raise"``: ``step`` raises ``agon.IllegalMoveError`` (a ``ValueError`` whose
      ``reason`` says why) and changes nothing; the agent may step again. Use it to catch
      a masking bug in your own code.

    An action that is not an integer (a float, a bool) raises ``TypeError`` in both modes.

    ``env.action_space.sample()`` draws among the legal actions of the current position
    (with no ``mask`` given, it uses ``action_masks()``): a random agent, and
    ``gymnasium.utils.env_checker.check_env``, which steps sampled actions, never play an
    illegal one. An explicit ``mask`` is used as given.

Observations
    A float32 array of shape (11, 11, 11) (rows, columns, channels): the axial planes of
    ``Position.observation(axial=True)``, channels last, always from the agent's side:
    those of ``position.with_turn(agent_side)``. When the agent is to act (at every step
    until the game ends) they are exactly the position's own planes. Channel 9
    marks the 91 cells among the 121 squares of the grid.

Rewards and ends
    +1 when the game ends in the agent's win, -1 in its loss, 0 for a draw (threefold
    repetition) and on every other step. ``terminated`` is true when the game (or, with
    ``"lose"``, the episode) ends; ``info["reason"]`` then says why (``"throne"``,
    ``"ring-without-queen"``, ``"no-legal-action"``, ``"repetition"`` or
    ``"illegal-action"``), and the mask is all zeros. ``truncated`` is always false: every
    game ends. Stepping after the end raises ``gymnasium.error.ResetNeeded``. (From a
    ``start`` where the opponent moves first and ends the game at once, ``reset`` returns
    that end: ``info["reason"]`` is set and the mask is empty; reset again.)

Rendering
    ``render_mode="ansi"``: ``render()`` returns the board as text (``str(position)``, the
    diagram of the rules, with the side to move, and the result once the game is over).
    ``render_mode="human"``: the same text is printed after ``reset`` and every ``step``
    (and by ``render()``, which returns ``None``). There is no image mode.

No vector version: ``agon.VecEnv`` plays both sides of its games (self-play, a reward for
the side that moved), which is not this single-agent task; ``gymnasium.make_vec("Agon-v0",
num_envs=n, vectorization_mode="sync")`` (or ``"async"``) batches this environment.

The rules are all the core's: the environment holds an ``agon.Game`` (for repetition)
and only converts its positions, masks and outcome.
"""

from __future__ import annotations

from typing import Any, Dict, Literal, Optional, Tuple, Union

from . import _extras

_extras.require("gymnasium", "gymnasium", "agon.gymnasium")

import gymnasium  # noqa: E402
import numpy as np  # noqa: E402
import numpy.typing as npt  # noqa: E402
from gymnasium import spaces  # noqa: E402
from gymnasium.error import ResetNeeded  # noqa: E402

from ._agon import Bot, Game, IllegalMoveError, Position, Side, action_count  # noqa: E402

__all__ = ["AgonEnv", "ENV_ID", "LegalActions"]

ENV_ID = "Agon-v0"
"""The id ``gymnasium.make`` knows the environment by, once this module is imported."""

_SIDES = {"white": Side.WHITE, "black": Side.BLACK}
_PLANES_SHAPE = (11, 11, 11)

Observation = npt.NDArray[np.float32]
Info = Dict[str, Any]


class LegalActions(spaces.Discrete):
    """``Discrete(agon.action_count(rules))`` (3337 under the standard rules) whose ``sample()`` draws a legal action of the environment's
    current position when no ``mask`` is given (see "Actions" in the module docstring).

    >>> import numpy as np, agon, agon.gymnasium
    >>> env = agon.gymnasium.AgonEnv()
    >>> _ = env.reset(seed=0)
    >>> bool(env.action_masks()[env.action_space.sample()])
    True
    """

    def __init__(self, env: "AgonEnv") -> None:
        super().__init__(action_count(env.rules))
        self._env = env

    def sample(
        self,
        mask: Optional[npt.NDArray[np.int8]] = None,
        probability: Optional[npt.NDArray[np.int8]] = None,
    ) -> np.int64:
        """A random action: among the legal ones unless ``mask`` or ``probability`` is
        given (then as ``Discrete.sample``); 0 once the episode is over."""
        if mask is None and probability is None:
            mask = self._env.action_masks().astype(np.int8)
        return super().sample(mask=mask, probability=probability)

    def __deepcopy__(self, memo: Dict[int, Any]) -> spaces.Discrete:
        # A copy of the space alone has no environment to ask: it is a plain Discrete.
        copied = spaces.Discrete(self.n)
        copied.np_random.bit_generator.state = self.np_random.bit_generator.state
        return copied


class AgonEnv(_extras.GameView, gymnasium.Env[Observation, np.int64]):
    """Agon against a bot, for one agent (see the module docstring).

    >>> import agon, agon.gymnasium
    >>> env = agon.gymnasium.AgonEnv(opponent="random", agent_side="black")
    >>> observation, info = env.reset(seed=1)
    >>> len(env.game), env.position.turn == env.agent_side == agon.BLACK
    (1, True)
    >>> bool(env.action_masks()[agon.move_to_action("f11-e10")])
    True
    """

    metadata: Dict[str, Any] = {"render_modes": ["ansi", "human"], "render_fps": 1}

    def __init__(
        self,
        opponent: str = "greedy",
        agent_side: Literal["white", "black", "random"] = "white",
        illegal_action: Literal["raise", "lose"] = "lose",
        render_mode: Optional[str] = None,
        start: Union[Position, str, None] = None,
        rules: Optional[_extras.RulesLike] = None,
    ) -> None:
        """``opponent``: a bot's spec; ``agent_side``: ``"white"``, ``"black"`` or
        ``"random"``; ``illegal_action``: ``"lose"`` or ``"raise"``; ``render_mode``:
        ``None``, ``"ansi"`` or ``"human"``; ``start``: the position the games start from
        (the start of the rules by default; not a decided one); ``rules``: the rule set (a
        ``Rules`` or its text; by default that of a ``Position`` start, else standard).
        Raises ``ValueError`` for any other value (an unknown bot spec included)."""
        if not isinstance(opponent, str):
            raise TypeError(f"opponent must be a bot's spec (a str), not {type(opponent).__name__}")
        Bot.from_name(opponent)  # Refuses a bad spec now rather than at reset.
        if agent_side not in ("white", "black", "random"):
            raise ValueError(f"agent_side must be 'white', 'black' or 'random', not {agent_side!r}")
        if illegal_action not in ("raise", "lose"):
            raise ValueError(f"illegal_action must be 'raise' or 'lose', not {illegal_action!r}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be None, 'ansi' or 'human', not {render_mode!r}")
        self.opponent = opponent
        self.illegal_action = illegal_action
        self.render_mode = render_mode
        self._side_choice: str = agent_side
        self._start = _extras.start_under(start, rules)
        self.rules = self._start.rules
        """The rule set of the games."""
        self._game = Game(self._start)
        if self._game.is_over():
            raise ValueError("the start position is already decided")
        self.observation_space = spaces.Box(0.0, 1.0, _PLANES_SHAPE, np.float32)
        self.action_space = LegalActions(self)
        self.agent_side: Side = _SIDES.get(agent_side, Side.WHITE)
        """The agent's side in the current episode."""
        self._bot = Bot.from_name(opponent)
        self._over = True  # No episode before the first reset.
        self._end_reason: Optional[str] = None


    def reset(
        self, *, seed: Optional[int] = None, options: Optional[Dict[str, Any]] = None
    ) -> Tuple[Observation, Info]:
        """Starts a new game: draws the side (for ``"random"``) and the bot's seed from
        the generator (seeded by ``seed``), and plays the opponent's moves until the
        agent is to move. ``options`` is accepted and changes nothing."""
        super().reset(seed=seed)
        # Both draws happen whatever the side setting, so a seed gives the same bot.
        white = bool(self.np_random.integers(2) == 0)
        bot_seed = int(self.np_random.integers(0, 2**63))
        if self._side_choice == "random":
            self.agent_side = Side.WHITE if white else Side.BLACK
        self._bot = Bot.from_name(self.opponent, seed=bot_seed)
        self._game.restart(self._start)
        self._over = False
        self._end_reason = None
        self._play_opponent()
        outcome = self._game.outcome()
        if outcome is not None:  # Only from a start where the opponent wins (or draws) at once.
            self._over = True
            self._end_reason = outcome.reason
        if self.render_mode == "human":
            self.render()
        return self._observation(), self._info()

    def step(
        self, action: Union[int, np.integer[Any]]
    ) -> Tuple[Observation, float, bool, bool, Info]:
        """Plays the agent's ``action``, then the opponent's moves until the agent is to
        move again or the game is over (see the module docstring)."""
        if self._over:
            raise ResetNeeded("the episode is over (or not started): call reset()")
        try:
            # The binding takes any integer with __index__ (numpy's included) but a bool;
            # its stub says int. A refused action changes nothing.
            self._game.push_action(action)  # type: ignore[arg-type]
        except IllegalMoveError:
            if self.illegal_action == "raise":
                raise
            self._over = True
            self._end_reason = "illegal-action"
            return self._observation(), -1.0, True, False, self._info()
        self._play_opponent()
        reward = 0.0
        outcome = self._game.outcome()
        if outcome is not None:
            self._over = True
            self._end_reason = outcome.reason
            if outcome.winner is not None:
                reward = 1.0 if outcome.winner == self.agent_side else -1.0
        if self.render_mode == "human":
            self.render()
        return self._observation(), reward, self._over, False, self._info()

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The legal actions of the agent, as a bool array of shape
        ``(agon.action_count(rules),)`` (all false once the episode is over)."""
        if self._over or self._game.chooser != self.agent_side:
            return np.zeros(action_count(self.rules), dtype=np.bool_)
        return self._game.action_mask()

    def render(self) -> Optional[str]:
        """The board as text (``"ansi"``), printed (``"human"``, returns ``None``), or
        ``None`` with a warning when the environment has no render mode."""
        if self.render_mode is None:
            gymnasium.logger.warn("render() was called, but the environment has no render_mode")
            return None
        text = str(self._game.position)
        outcome = self._game.outcome()
        if outcome is not None:
            text = f"{text}\n{outcome}"
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def _play_opponent(self) -> None:
        while not self._game.is_over() and self._game.chooser != self.agent_side:
            move = self._bot.choose(self._game)
            if move is None:  # The core ends every game without a legal move.
                raise RuntimeError(f"the opponent found no move in {self._game.position!r}")
            self._game.push(move)

    def _observation(self) -> Observation:
        position = self._game.position
        if position.chooser != self.agent_side:
            position = position.with_turn(self.agent_side)
        planes = position.observation(axial=True)
        return np.ascontiguousarray(planes.transpose(1, 2, 0))

    def _info(self) -> Info:
        info: Info = {"action_mask": self.action_masks()}
        if self._end_reason is not None:
            info["reason"] = self._end_reason
        return info


if ENV_ID not in gymnasium.registry:
    gymnasium.register(id=ENV_ID, entry_point="agon.gymnasium:AgonEnv")
