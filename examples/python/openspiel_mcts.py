"""OpenSpiel's MCTS bot plays Agon against one of agon's own bots.

    python examples/python/openspiel_mcts.py [--games 2] [--simulations 10]
        [--opponent greedy] [--evaluator openspiel|agon] [--seed 0]

Needs ``pip install 'agon-rules[openspiel]'``. The game is ``python_agon``, registered
by ``import agon.openspiel``; the searcher is OpenSpiel's own
``open_spiel.python.algorithms.mcts.MCTSBot``, and the opponent any ``agon.bots`` spec
(``random``, ``greedy``, ``mcts:200``, ``alphabeta:2``). Colours alternate: MCTS plays
White in odd games. Each game prints its result, its length and its moves; the last line
is MCTS's score.

``--evaluator openspiel`` (the default) is OpenSpiel's ``RandomRolloutEvaluator``: a
random game played to the end through the OpenSpiel API, in Python: tens of
milliseconds a rollout (random games average ~500 plies, and a Python game pays
OpenSpiel's C++/Python crossing at every call), so a game at 10 simulations a move takes
5 to 10 s.
``--evaluator agon`` plays the same random games in the Rust engine
(``agon.random_playouts`` from the position, one per evaluation), about 0.1 ms each, so
hundreds of simulations a move are affordable; its playouts start from the position
alone, so they do not count repetitions of the moves before it.

Either way MCTS with random rollouts is weak: random games are long and nearly
coin-flips, so it needs many simulations to see what the greedy bot sees in one ply.
"""

from __future__ import annotations

import argparse
import time
from typing import Any, List, Optional, Sequence

import numpy as np

import agon
import agon.bots
import agon.openspiel
from open_spiel.python.algorithms import mcts  # type: ignore[import-untyped]


class EnginePlayoutEvaluator(mcts.Evaluator):  # type: ignore[misc]
    """Values a state by random games played to the end by the Rust engine."""

    def __init__(self, playouts: int = 1, seed: int = 0) -> None:
        self.playouts = playouts
        self.rng = np.random.RandomState(seed)

    def evaluate(self, state: Any) -> Any:
        stats = agon.random_playouts(
            self.playouts, seed=int(self.rng.randint(2**63)), start=state.position
        )
        value = (stats["white_wins"] - stats["black_wins"]) / stats["games"]
        return np.array([value, -value])

    def prior(self, state: Any) -> Any:
        actions = state.legal_actions()
        return [(action, 1.0 / len(actions)) for action in actions]


def play(
    game: Any, mcts_side: int, simulations: int, evaluator: str, opponent: str, seed: int
) -> Any:
    """One game; returns the final OpenSpiel state."""
    rng = np.random.RandomState(seed)
    rollouts: Any
    if evaluator == "openspiel":
        rollouts = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    else:
        rollouts = EnginePlayoutEvaluator(playouts=1, seed=seed)
    searcher = mcts.MCTSBot(game, uct_c=2.0, max_simulations=simulations,
                            evaluator=rollouts, random_state=rng)
    bot = agon.bots.Bot.from_name(opponent, seed=seed)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.current_player() == mcts_side:
            action = searcher.step(state)
        else:
            move = bot.choose(state.game)
            assert move is not None  # a running game always has a legal move
            action = agon.move_to_action(move)
        state.apply_action(action)
    return state


def main(argv: Optional[Sequence[str]] = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2)
    parser.add_argument("--simulations", type=int, default=10)
    parser.add_argument("--opponent", default="greedy", help="an agon.bots spec")
    parser.add_argument("--evaluator", choices=["openspiel", "agon"], default="openspiel")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)

    game = agon.openspiel.load_game()
    label = f"mcts({args.simulations} simulations, {args.evaluator} rollouts)"
    score = 0.0
    for number in range(1, args.games + 1):
        mcts_side = (number - 1) % 2  # MCTS is White (player 0) in odd games
        start = time.perf_counter()
        state = play(game, mcts_side, args.simulations, args.evaluator, args.opponent,
                     args.seed + number)
        seconds = time.perf_counter() - start
        names = [label, args.opponent] if mcts_side == 0 else [args.opponent, label]
        outcome = state.outcome()
        result = f"{outcome.score} ({outcome.reason})" if outcome else "* (truncated)"
        returns: List[float] = state.returns()
        score += (returns[mcts_side] + 1) / 2
        print(f"game {number}: White {names[0]} vs Black {names[1]}: {result}, "
              f"returns {returns}, {len(state.history())} plies, {seconds:.1f} s")
        print("moves: " + " ".join(str(move) for move in state.game.moves))
    print(f"{label} scored {score:g}/{args.games} against {args.opponent}")


if __name__ == "__main__":
    main()
