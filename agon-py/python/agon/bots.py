"""The reference bots of agon-bots, thinking in Rust without holding the GIL.

>>> import agon, agon.bots
>>> bot = agon.bots.AlphaBeta(depth=2, seed=1)
>>> move = bot.choose(agon.Position())
>>> agon.Position().is_legal(move)
True

- ``Random(seed=0)``: a uniformly random legal move.
- ``Greedy(seed=0)``: one ply ahead, the move whose result the evaluation likes best.
- ``MCTS(playouts=2000, seed=0, time_limit=None)``: UCT with random playouts (1 to
  ``MAX_PLAYOUTS`` = 10**6).
- ``AlphaBeta(depth=5, seed=0, time_limit=None)``: iterative-deepening alpha-beta (depth
  1 to ``MAX_DEPTH`` = 64).
- ``Bot.from_name("mcts:500", seed=0)``: a bot from its spec.

``bot.choose(position_or_game)`` returns a legal ``Move``, or ``None`` when there is
none. Given a ``Game``, a bot also sees the history (and so repetition). Each bot is
deterministic under its seed unless it has a time limit (in seconds, 0 to
``MAX_TIME_LIMIT`` = 86400, also in a spec: ``"mcts:100000:500ms"``). Out-of-range
budgets and limits raise ``ValueError`` when the bot is made, before it thinks. Threads
may share a bot; their searches take turns, without holding the GIL.
"""

from ._agon import MAX_DEPTH, MAX_PLAYOUTS, MAX_TIME_LIMIT, AlphaBeta, Bot, Greedy, MCTS, Random

__all__ = [
    "AlphaBeta",
    "Bot",
    "Greedy",
    "MAX_DEPTH",
    "MAX_PLAYOUTS",
    "MAX_TIME_LIMIT",
    "MCTS",
    "Random",
]
