"""Agon as a PettingZoo AEC environment, shaped like PettingZoo's classic board games.

Needs the optional dependency PettingZoo (``pip install 'agon-rules[pettingzoo]'``).

>>> import agon.pettingzoo
>>> env = agon.pettingzoo.env()
>>> env.reset(seed=0)
>>> env.agent_selection
'player_0'
>>> observation, reward, termination, truncation, info = env.last()
>>> observation["observation"].shape, int(observation["action_mask"].sum())
((11, 11, 11), 27)
>>> env.step(int(observation["action_mask"].argmax()))
>>> env.agent_selection
'player_1'

Agents
    ``player_0`` plays White, who moves first; ``player_1`` plays Black.
    ``agent_selection`` is always the agent of the player to act (``Position.chooser``):
    the side to move, but under ``queen-placer=captor`` the captor of a queen, who places
    her on her owner's turn.

Rules
    ``rules`` (a ``Rules`` or its text: ``"ludii"``, ``"standard+between=trapped"``...;
    by default that of a ``Position`` start, else the standard rules) is the rule set of
    the games (RULES.md section 8). Under a rule set whose games need not end
    (``repetition=off`` without a ``limit``) bound the episodes yourself.

Actions
    ``Discrete(agon.action_count(rules))`` (3337 under the standard rules, 3338 with the
    pass of ``stuck=pass``, 8889 under ``guard-return=next-ring``): the package's action
    numbers (``agon.ACTION_COUNT``; see "Action space" in the package docstring). An action that is not legal is refused:
    ``step`` raises ``agon.IllegalMoveError`` (a ``ValueError``; its ``reason`` says why,
    ``"no-such-action"`` for a number out of range) and changes nothing, so the same
    agent may step again. An action that is not an integer (``None`` for a live agent, a
    float, a bool) raises ``TypeError``. To have an illegal action lose the game instead,
    as PettingZoo's classic games do, wrap the raw environment:
    ``pettingzoo.utils.wrappers.TerminateIllegalWrapper(raw_env(), illegal_reward=-1)``.

Observations
    A dict: ``"observation"`` is a float32 array of shape (11, 11, 11) (rows, columns,
    channels: the axial layout of ``Position.observation(axial=True)``, channels last), and
    ``"action_mask"`` an int8 array of shape ``(agon.action_count(rules),)``, 1 for a legal
    action.

    Each agent sees the position from its own side, as if it were to act: for the agent
    to act the planes are exactly the position's own observation; for the other they are
    those of ``position.with_turn(side).observation(axial=True)``, in which for the other agent, "own" and
    "opponent" (channels 0-5) are swapped, channel 6 holds the cells *it* may not step to,
    and channel 10 (``White to move`` for the side to move) says whether it plays White.
    Channel 9 marks the 91 cells among the 121 squares of the grid. The action mask of
    the agent not to act is all zeros, and so are both masks once the game is over: the
    mask is how an agent knows it is to act.

Rewards
    +1 to the winner and -1 to the loser when the game ends, 0 to both for a draw
    (threefold repetition, two passes, the move limit), 0 on every other step. There is
    no truncation: the game ends as its rules say (a decided position, an agent without a
    legal action, repetition, two passes or the move limit); the end
    reason is in both agents' ``infos`` (``{"reason": "throne"}``...) when the game ends.

Rendering
    ``render_mode="ansi"``: ``render()`` returns the board as text (``str(position)``,
    the diagram of the rules, with the side to move, and the result once the game is
    over). ``render_mode="human"``: the same text is printed to standard output after
    ``reset`` and every ``step`` (and by ``render()``, which returns ``None``). There is
    no image mode.

The rules are all the core's: the environment holds an ``agon.Game`` (for repetition)
and only converts its positions, masks and outcome.
"""

from __future__ import annotations

from typing import Any, Dict, List, Optional, TypedDict, Union

from . import _extras

_extras.require("pettingzoo", "pettingzoo", "agon.pettingzoo")

import gymnasium  # noqa: E402
import numpy as np  # noqa: E402
import numpy.typing as npt  # noqa: E402
from gymnasium import spaces  # noqa: E402
from pettingzoo import AECEnv  # type: ignore[import-untyped]  # noqa: E402
from pettingzoo.utils import wrappers  # type: ignore[import-untyped]  # noqa: E402

from ._agon import Game, Position, Side, action_count  # noqa: E402

__all__ = ["AGENTS", "Observation", "env", "raw_env"]

AGENTS = ("player_0", "player_1")
"""The agents: ``player_0`` plays White, ``player_1`` Black."""

_SIDES = {"player_0": Side.WHITE, "player_1": Side.BLACK}
_PLANES_SHAPE = (11, 11, 11)


class Observation(TypedDict):
    """What ``observe`` returns: the planes and the legal-action mask."""

    observation: npt.NDArray[np.float32]
    action_mask: npt.NDArray[np.int8]


def env(
    render_mode: Optional[str] = None,
    start: Union[Position, str, None] = None,
    rules: Optional[_extras.RulesLike] = None,
) -> Any:
    """The environment, wrapped as PettingZoo's classic games are (``OrderEnforcingWrapper``,
    which refuses ``step`` and ``observe`` before ``reset``).

    ``render_mode`` is ``None``, ``"ansi"`` or ``"human"``; ``start`` is the position the
    games start from (the start of the rules by default; not a decided one); ``rules`` the
    rule set (by default that of a ``Position`` start, else standard).

    >>> import agon.pettingzoo
    >>> e = agon.pettingzoo.env(render_mode="ansi")
    >>> e.reset()
    >>> e.render().splitlines()[-1]
    'White to move'
    """
    return wrappers.OrderEnforcingWrapper(raw_env(render_mode=render_mode, start=start, rules=rules))


class raw_env(_extras.GameView, AECEnv):  # type: ignore[misc]
    """Agon for two agents, without wrappers (see the module docstring).

    >>> import agon, agon.pettingzoo
    >>> e = agon.pettingzoo.raw_env()
    >>> e.reset()
    >>> e.step(agon.move_to_action("f1-e1"))
    >>> e.position.to_text()
    'Qe1,Ga5,Gb1,Gd9,Gh9,Gk1,Gl5/qf11,ga2,gb7,gd1,gh1,gk7,gl2 b'
    """

    metadata: Dict[str, Any] = {
        "render_modes": ["ansi", "human"],
        "name": "agon_v0",
        "is_parallelizable": False,
        "render_fps": 1,
    }

    def __init__(
        self,
        render_mode: Optional[str] = None,
        start: Union[Position, str, None] = None,
        rules: Optional[_extras.RulesLike] = None,
    ) -> None:
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(
                f"render_mode must be None, 'ansi' or 'human', not {render_mode!r}"
            )
        self.render_mode = render_mode
        self._start = _extras.start_under(start, rules)
        self.rules = self._start.rules
        """The rule set of the games."""
        self._actions = action_count(self.rules)
        self._game = Game(self._start)
        if self._game.is_over():
            raise ValueError("the start position is already decided")
        self.possible_agents: List[str] = list(AGENTS)
        self.agents: List[str] = list(AGENTS)
        # One space object per agent, the same at every call (PettingZoo seeds them).
        self.observation_spaces: Dict[str, spaces.Dict] = {
            agent: spaces.Dict(
                {
                    "observation": spaces.Box(0.0, 1.0, _PLANES_SHAPE, np.float32),
                    "action_mask": spaces.Box(0, 1, (self._actions,), np.int8),
                }
            )
            for agent in AGENTS
        }
        self.action_spaces: Dict[str, spaces.Discrete] = {
            agent: spaces.Discrete(self._actions) for agent in AGENTS
        }
        self._new_episode()

    def _new_episode(self) -> None:
        self._game.restart(self._start)
        self.agents = list(self.possible_agents)
        self.rewards: Dict[str, float] = {agent: 0.0 for agent in self.agents}
        self._cumulative_rewards: Dict[str, float] = {agent: 0.0 for agent in self.agents}
        self.terminations: Dict[str, bool] = {agent: False for agent in self.agents}
        self.truncations: Dict[str, bool] = {agent: False for agent in self.agents}
        self.infos: Dict[str, Dict[str, Any]] = {agent: {} for agent in self.agents}
        self._skip_agent_selection: Optional[str] = None
        self.agent_selection: str = _agent(self._game.chooser)

    def observation_space(self, agent: str) -> spaces.Dict:
        """The space of ``agent``'s observations (the same object at every call)."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Discrete:
        """The space of ``agent``'s actions, ``Discrete(agon.action_count(rules))`` (the
        same object at every call)."""
        return self.action_spaces[agent]


    def reset(self, seed: Optional[int] = None, options: Optional[Dict[str, Any]] = None) -> None:
        """Starts a new game. The game itself has nothing random; a ``seed`` seeds the
        agents' action spaces (``seed`` for ``player_0``, ``seed + 1`` for ``player_1``),
        so that agents sampling from them replay the same game. ``options`` changes
        nothing."""
        if seed is not None:
            for i, agent in enumerate(self.possible_agents):
                self.action_spaces[agent].seed(seed + i)
        self._new_episode()
        if self.render_mode == "human":
            self.render()

    def observe(self, agent: str) -> Observation:
        """``agent``'s observation: the planes from its side, and its action mask (all
        zeros unless it is to act)."""
        side = _SIDES[agent]
        position = self._game.position
        if side == position.chooser:
            planes = position.observation(axial=True)
            mask = self._game.action_mask().astype(np.int8)
        else:
            planes = position.with_turn(side).observation(axial=True)
            mask = np.zeros(self._actions, dtype=np.int8)
        return {
            "observation": np.ascontiguousarray(planes.transpose(1, 2, 0)),
            "action_mask": mask,
        }

    def step(self, action: Union[int, np.integer[Any], None]) -> None:
        """Plays ``action`` for ``agent_selection`` (``None`` once the agent is done).

        Raises ``agon.IllegalMoveError`` for an action that is not legal, and changes
        nothing then."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise TypeError(f"{agent} is to move: None is an action only for a done agent")
        # Raises before anything changes. The binding takes any integer with __index__
        # (numpy's included) but a bool; its stub says int.
        self._game.push_action(action)  # type: ignore[arg-type]
        self._cumulative_rewards[agent] = 0.0
        self.rewards = {a: 0.0 for a in self.agents}
        outcome = self._game.outcome()
        if outcome is not None:
            for a in self.agents:
                winner = outcome.winner
                self.rewards[a] = 0.0 if winner is None else (1.0 if _SIDES[a] == winner else -1.0)
                self.terminations[a] = True
                self.infos[a] = {"reason": outcome.reason}
        self.agent_selection = _agent(self._game.chooser)
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self) -> Optional[str]:
        """The board as text (``"ansi"``), printed (``"human"``, returns ``None``), or
        ``None`` with a warning when the environment has no render mode."""
        if self.render_mode is None:
            gymnasium.logger.warn("render() was called, but the environment has no render_mode")
            return None
        text = _board_text(self._game)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        """Nothing to release."""


def _agent(side: Side) -> str:
    return AGENTS[int(side)]


def _board_text(game: Game) -> str:
    """The diagram of the current position, and the result once the game is over."""
    text = str(game.position)
    outcome = game.outcome()
    return text if outcome is None else f"{text}\n{outcome}"
