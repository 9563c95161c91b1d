"""The supervised start: ``python -m agon.az.pretrain --data DIR ... --out RUN --steps N``.

Trains a network on existing ``agon.generate`` datasets, games of stronger players
(``alphabeta:3``, the engine, ``mcts``), before any self-play: AlphaGo's first stage and
expert iteration's apprentice, for a budget too small to learn from nothing. The policy
learns the players' visit counts where they recorded them and else, with
``--played-policy all`` (the default), the move played, or with ``--played-policy
winners`` the move played by the side that won the game (the strong player's moves in
games against a weak one); the value learns the games' results, or with ``--value-target
search`` the players' own values of the positions (``alphabeta`` records its search's
score, ``mcts`` and ``az`` their root's value): targets that a position predicts, which a
game's result between unequal players, or cut off by a ply cap, is not. ``--init MODEL``
starts from a trained network's arrays where names and shapes match (a new value head
of another width starts fresh); ``--final-learning-rate`` lowers the rate along a cosine
to that value at ``--steps`` (a run resumed with more steps stretches the schedule).
``python -m agon.az.loop --init RUN/model.safetensors`` then starts self-play from it.

Training runs in chunks of ``--chunk-steps`` steps, each on the datasets' games in a new
random order. After each chunk ``RUN/model.safetensors`` (with the optimiser's state) and
a copy ``RUN/chunk-NNNN.safetensors`` are written, a progress line printed and a line of JSON appended to ``RUN/log.jsonl`` (steps,
samples, losses, seconds, and the network's score against each ``--eval`` opponent over
``--eval-games`` book games), the log that ``python -m agon.az.plot RUN`` draws (one
chunk a "generation"). The run is resumable: running the same command again goes on from
the last chunk written, up to a ``--steps`` that may be larger than the first (other
settings on the same directory are refused).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Dict, List, Optional, Sequence

from . import network, train
from .loop import _settings_file, _spec, _write_json, evaluation, log_line

CONFIG = "pretrain.json"
STATE = "state.json"
LOG = "log.jsonl"
MODEL = "model.safetensors"
OPTIMIZER = "optimizer.npz"


@dataclass(frozen=True)
class Pretraining:
    """The settings of a supervised run (those that change its results; ``steps`` may
    grow from one call to the next)."""

    data: List[str]
    steps: int = 10_000
    chunk_steps: int = 1000
    blocks: int = 4
    channels: int = 32
    learning_rate: float = 1e-3
    weight_decay: float = 1e-4
    batch_samples: int = 256
    read_positions: int = 1024
    played_policy: str = "all"
    value_target: str = "result"
    value_channels: int = 1
    final_learning_rate: Optional[float] = None
    init: Optional[str] = None
    eval_opponents: List[str] = field(default_factory=lambda: ["greedy"])
    eval_games: int = 10
    eval_visits: int = 100
    seed: int = 0

    def settings(self) -> train.Settings:
        """The training settings."""
        final = self.final_learning_rate
        return train.Settings(self.learning_rate, self.weight_decay, self.batch_samples,
                              self.read_positions, self.played_policy, self.value_target,
                              decay_steps=0 if final is None else self.steps,
                              final_learning_rate=0.0 if final is None else final)


def _prepare(out: Path, run: Pretraining) -> int:
    """Creates or checks the run directory; returns the steps done."""
    out.mkdir(parents=True, exist_ok=True)
    # The steps to reach may grow: a run goes on where it stopped.
    _settings_file(out / CONFIG, {k: v for k, v in asdict(run).items() if k != "steps"},
                   # The settings added since the first runs wrote theirs.
                   {"value_target": "result", "value_channels": 1,
                    "final_learning_rate": None, "init": None})
    state = out / STATE
    return int(json.loads(state.read_text())["steps"]) if state.exists() else 0


def pretrain(out: "str | os.PathLike[str]", run: Pretraining, *,
             workers: int = 1) -> List[Dict[str, Any]]:
    """Trains until ``run.steps`` steps are done (from where a previous call on ``out``
    stopped); returns the log entries of the chunks trained now."""
    if run.steps < 0 or run.chunk_steps < 1 or not run.data:
        raise ValueError("steps must be at least 0, chunk_steps at least 1, and data given")
    settings = run.settings()  # checks them before anything is written
    directory = Path(out)
    done = _prepare(directory, run)
    if done:
        params = network.load(directory / MODEL)
    else:
        params = network.init(network.Shape(run.blocks, run.channels,
                                            value_channels=run.value_channels), seed=run.seed)
        if run.init is not None:
            params, fresh = network.warm_start(params, network.load(run.init))
            print(f"started from {run.init}; fresh: {', '.join(fresh) or 'nothing'}", flush=True)
    opt_state = train.load_state(params, settings, directory / OPTIMIZER)
    sources: List[Any] = list(run.data)
    entries = []
    while done < run.steps:
        chunk = done // run.chunk_steps + 1
        started = time.monotonic()
        params, opt_state, figures = train.train(
            params, opt_state, sources, settings, epochs=1,
            max_steps=min(run.chunk_steps, run.steps - done), seed=run.seed * 1_000_003 + chunk,
        )
        if figures.steps == 0:
            raise ValueError("the datasets hold no positions to train on")
        done += figures.steps
        network.save(params, directory / MODEL, metadata={"steps": str(done)})
        shutil.copyfile(directory / MODEL, directory / f"chunk-{chunk:04d}.safetensors")
        train.save_state(opt_state, directory / OPTIMIZER)
        entry: Dict[str, Any] = {
            "generation": chunk, "steps": done, "samples": figures.samples,
            "policy_loss": round(figures.policy_loss, 4),
            "value_loss": round(figures.value_loss, 4),
            "training_seconds": round(time.monotonic() - started, 1),
        }
        print(f"chunk {chunk}: {done} steps, policy loss {figures.policy_loss:.3f}, "
              f"value loss {figures.value_loss:.3f}, {entry['training_seconds']} s", flush=True)
        started = time.monotonic()
        scores = evaluation(_spec(directory / MODEL, run.eval_visits), run.eval_opponents,
                            run.eval_games, run.seed + chunk, workers, f"chunk {chunk}:")
        entry.update(evaluation=scores, evaluation_seconds=round(time.monotonic() - started, 1))
        with open(directory / LOG, "a") as log:
            log.write(log_line(entry))
        # The state last: a run stopped before this line trains the chunk again (on from
        # the weights saved above).
        _write_json(directory / STATE, {"steps": done})
        entries.append(entry)
    return entries


def parser() -> argparse.ArgumentParser:
    """The command line of ``python -m agon.az.pretrain``."""
    d = Pretraining(data=[])
    p = argparse.ArgumentParser(prog="python -m agon.az.pretrain",
                                description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--data", nargs="+", required=True, metavar="DIR",
                   help="agon.generate dataset directories (or Parquet files)")
    p.add_argument("--out", required=True, help="run directory (created; resumed if it holds the same run)")
    p.add_argument("--steps", type=int, default=d.steps, help="training steps in all")
    p.add_argument("--chunk-steps", type=int, default=d.chunk_steps,
                   help="steps between saves, log lines and evaluations")
    p.add_argument("--blocks", type=int, default=d.blocks, help="residual blocks")
    p.add_argument("--channels", type=int, default=d.channels, help="channels of the tower")
    p.add_argument("--learning-rate", type=float, default=d.learning_rate)
    p.add_argument("--weight-decay", type=float, default=d.weight_decay)
    p.add_argument("--batch-samples", type=int, default=d.batch_samples, help="samples a step")
    p.add_argument("--read-positions", type=int, default=d.read_positions,
                   help="positions read and shuffled together (12 samples each)")
    p.add_argument("--played-policy", choices=train.PLAYED_POLICIES, default=d.played_policy,
                   help="plies without visit counts whose move played is a policy target")
    p.add_argument("--value-target", choices=train.VALUE_TARGETS, default=d.value_target,
                   help="what the value learns: the games' results, the players' search values, or their mean")
    p.add_argument("--value-channels", type=int, default=d.value_channels,
                   help="channels of the value head")
    p.add_argument("--final-learning-rate", type=float, default=None,
                   help="lower the learning rate along a cosine to this at --steps (default: constant)")
    p.add_argument("--init", default=None, metavar="MODEL",
                   help="start from this network's arrays where names and shapes match")
    p.add_argument("--eval", nargs="*", default=d.eval_opponents, metavar="SPEC",
                   help="opponents of the network after each chunk (default: greedy)")
    p.add_argument("--eval-games", type=int, default=d.eval_games, help="games against each")
    p.add_argument("--eval-visits", type=int, default=d.eval_visits,
                   help="simulations a move in evaluation")
    p.add_argument("--seed", type=int, default=d.seed)
    p.add_argument("--workers", type=int, default=1, help="threads of the evaluation matches")
    return p


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Runs the command line; returns the exit status."""
    a = parser().parse_args(argv)
    run = Pretraining(
        data=[os.fspath(Path(d).resolve()) for d in a.data], steps=a.steps,
        chunk_steps=a.chunk_steps, blocks=a.blocks, channels=a.channels,
        learning_rate=a.learning_rate, weight_decay=a.weight_decay,
        batch_samples=a.batch_samples, read_positions=a.read_positions,
        played_policy=a.played_policy, value_target=a.value_target,
        value_channels=a.value_channels, final_learning_rate=a.final_learning_rate,
        init=None if a.init is None else os.fspath(Path(a.init).resolve()),
        eval_opponents=list(a.eval), eval_games=a.eval_games, eval_visits=a.eval_visits,
        seed=a.seed,
    )
    try:
        pretrain(a.out, run, workers=a.workers)
    except (ValueError, OSError) as error:
        print(f"agon.az.pretrain: {error}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
