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
- ``opening_book(rules=None)``: agon-bots' book of 300 balanced openings (positions a few
  plies in, nothing captured), under ``rules``.

``bot.choose(position_or_game)`` returns a legal ``Move``, or ``None`` when there is
none. Given a ``Game``, a bot also sees the history (and so repetition). Each bot is
deterministic under its seed unless it has a time limit (in seconds, 0 to
``MAX_TIME_LIMIT`` = 86400, rounded to the millisecond; in a spec: ``"mcts:100000:500ms"``).
Out-of-range budgets and limits raise ``ValueError`` when the bot is made, before it
thinks. Threads may share a bot; their searches take turns, without holding the GIL.

A bot is its spec, ``bot.name`` (``"alphabeta:5"``, ``"mcts:2000:500ms"``: every setting
but the seed), and its ``bot.seed``. ``Bot.from_name(bot.name, bot.seed)`` makes an equal
bot of the same class: ``AlphaBeta() == Bot.from_name("alphabeta")``. Bots with the same
spec and seed are equal and hash alike, and a bot pickles (and copies) as its spec and
seed, read and checked again on load, so bots cross to ``multiprocessing`` workers. A bot
keeps nothing from one choice to the next: each choice depends only on the settings, the
seed and what the bot is shown, so an unpickled or copied bot chooses exactly what the
original would, whatever the original chose before (there is no random stream to resume).

>>> import pickle
>>> bot = agon.bots.MCTS(playouts=50, seed=7, time_limit=0.5)
>>> bot
Bot.from_name('mcts:50:500ms', seed=7)
>>> pickle.loads(pickle.dumps(bot)) == bot == agon.bots.Bot.from_name("mcts:50:500ms", seed=7)
True
"""

from ._agon import (
    MAX_DEPTH,
    MAX_PLAYOUTS,
    MAX_TIME_LIMIT,
    AlphaBeta,
    Bot,
    Greedy,
    MCTS,
    Random,
    opening_book,
)

__all__ = [
    "AlphaBeta",
    "Bot",
    "Greedy",
    "MAX_DEPTH",
    "MAX_PLAYOUTS",
    "MAX_TIME_LIMIT",
    "MCTS",
    "Random",
    "opening_book",
]
