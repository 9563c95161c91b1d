"""The AlphaZero loop: ``python -m agon.az.loop --out DIR --generations N --games G``.

Each generation ``g`` (from 1):

1. **self-play**: ``G`` games of the best network so far against itself
   (``az:MODEL:VISITS:noise:tPLIES``: Dirichlet noise at the root, moves drawn in
   proportion to the visits for the first plies), written by ``agon.generate`` with each
   ply's visit counts to ``DIR/gen-NNNN/games`` (local worker threads, or ``--ray``).
   With ``--search gumbel`` the search is Gumbel AlphaZero's (``az:MODEL:VISITS:noise:gK``,
   ``K`` = ``--considered``: Gumbel noise and Sequential Halving at the root), and each
   ply's policy target is its improved policy, which improves on the network's policy
   with however few simulations (Danihelka et al. 2022); gating and evaluation then play
   the same search without noise (``:gK``); ``--c-scale`` sets the search's ``c_scale``
   (``:sPERMILLE``; the paper's 1.0 by default, mctx's 0.1 gentler);
2. **training**: the latest network trained on the games of the last ``--window``
   generations (``agon.data.training_batches(..., policy=True, symmetries=True)``),
   written to ``DIR/gen-NNNN/model.safetensors`` and ``DIR/latest.safetensors``; the
   value learns the games' results (AlphaZero), or with ``--value-target search`` or
   ``mean`` the searches' root values or the mean of both (less noisy targets, as
   KataGo and Leela Zero mix in);
3. **gating**: the new network against the best one, a match of the arena with the book
   stopped by its SPRT (``SPRT``; ``--gate-games`` at most); the new network becomes the
   best (``DIR/best.safetensors``) if the test accepts it as stronger, or, when the match
   ends undecided, if it scored at least ``--gate-score``. A decision on fewer than
   ``MIN_GATE_GAMES`` games (a few draws give the test no variance) is set aside and the
   whole match decides by its score. ``--gate-games 0`` gates nothing, as AlphaZero: the
   latest network always plays;
4. **evaluation** (the learning curve): the best network against each ``--eval``
   opponent (``greedy``, ``mcts:500``, ...) over ``--eval-games`` book games.

Every generation's figures go to ``DIR/log.jsonl`` (one JSON object a line: games,
samples, steps, losses, gating and evaluation results, seconds of each phase), and a
progress line is printed per phase. The run is resumable: ``DIR/state.json`` records the
phases done, and running the same command again goes on from there (a different
command on the same directory is refused, as ``agon.generate`` refuses it). Generation 0
is the network drawn at random, or with ``--init MODEL`` a network trained before (by
``agon.az.pretrain`` on the games of stronger players); its shape overrides ``--blocks``
and ``--channels``. The run records ``--init`` by the file's SHA-256, not its path, and
the bot specs name its networks by absolute path when they play: a run directory moved or
committed elsewhere resumes there. Resuming needs the directory's small files
(``az-run.json``, ``state.json``, ``log.jsonl``, each ``gen-NNNN/log.json`` and
``gen-NNNN/games``), ``best.safetensors``, ``latest.safetensors`` and
``latest-optimizer.npz`` (a fresh optimiser state if missing); the networks of each
generation (``gen-NNNN/*.safetensors``) only while that generation is unfinished.

Bot specs are at most 128 bytes: keep ``DIR`` a short path.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import os
import shutil
import sys
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Dict, List, Optional, Sequence

from .. import _agon, generate
from . import network, train

CONFIG = "az-run.json"
STATE = "state.json"
LOG = "log.jsonl"
BEST = "best.safetensors"
LATEST = "latest.safetensors"
OPTIMIZER = "latest-optimizer.npz"

SPRT = (0.0, 35.0, 0.05, 0.05)
"""The gating test (elo0, elo1, alpha, beta): is the new network 35 Elo stronger?"""

MIN_GATE_GAMES = 10
"""The fewest games on which the gating test's decision is taken as it is."""


@dataclass(frozen=True)
class Run:
    """The settings of a training run (those that change its results)."""

    games: int = 100
    visits: int = 100
    temperature_plies: int = 20
    batch: int = 8
    max_plies: int = 300
    blocks: int = 4
    channels: int = 32
    window: int = 4
    epochs: int = 1
    max_steps: int = 1000
    learning_rate: float = 1e-3
    weight_decay: float = 1e-4
    batch_samples: int = 256
    gate_games: int = 40
    gate_visits: int = 100
    gate_score: float = 0.55
    eval_opponents: List[str] = field(default_factory=lambda: ["greedy"])
    eval_games: int = 20
    eval_visits: int = 100
    seed: int = 0
    init: str = ""
    value_target: str = "result"
    search: str = "puct"
    considered: int = 16
    c_scale: float = 1.0

    def settings(self) -> train.Settings:
        """The training settings."""
        return train.Settings(self.learning_rate, self.weight_decay, self.batch_samples,
                              value_target=self.value_target)

    def search_option(self) -> str:
        """The spec option of the run's search: ``:gK`` for Gumbel (and ``:sPERMILLE`` for
        a ``c_scale`` other than 1), none for PUCT."""
        if self.search != "gumbel":
            return ""
        permille = round(self.c_scale * 1000)
        return f":g{self.considered}" + (f":s{permille}" if permille != 1000 else "")


SEARCHES = ("puct", "gumbel")


def _write_json(path: Path, value: Any) -> None:
    temporary = path.with_name(path.name + ".tmp")
    temporary.write_text(json.dumps(value, indent=1) + "\n")
    os.replace(temporary, path)


def _spec(model: Path, visits: int, extra: str = "", batch: int = 8) -> str:
    spec = f"az:{model.resolve()}:{visits}{extra}" + (f":b{batch}" if batch != 8 else "")
    if len(spec) > 128:
        raise ValueError(f"the bot spec {spec!r} is longer than 128 bytes: use a shorter --out")
    return spec


def generation_dir(out: Path, g: int) -> Path:
    """The directory of generation ``g``."""
    return out / f"gen-{g:04d}"


def _settings_file(config: Path, settings: Dict[str, Any],
                   defaults: Optional[Dict[str, Any]] = None) -> None:
    """Writes a run's ``settings`` to ``config``, or checks that they are those it holds
    (``defaults``: the values of settings added since older runs wrote theirs)."""
    if config.exists():
        saved = {**(defaults or {}), **json.loads(config.read_text())}
        if saved != settings:
            raise ValueError(f"{config.parent} holds a run of other settings ({config}): "
                             "use another --out")
    else:
        _write_json(config, settings)


def _finite(x: float) -> Optional[float]:
    """``x``, or None for an infinite Elo (a score of 0 or 1), which JSON cannot hold."""
    return x if math.isfinite(x) else None


def log_line(entry: Dict[str, Any]) -> str:
    """A log entry as one line of strict JSON (no NaN or Infinity: any JSON parser reads
    it)."""
    return json.dumps(entry, allow_nan=False) + "\n"


def evaluation(spec: str, opponents: Sequence[str], games: int, seed: int, workers: int,
               name: str) -> Dict[str, Dict[str, Any]]:
    """The learning curve's point: the bot ``spec`` against each of ``opponents`` over
    ``games`` book games (none if 0), each result printed after ``name``: games, wins,
    draws, losses, the score with its 95% interval (``score_low``, ``score_high``, the
    arena's) and the Elo with its interval (None where infinite)."""
    scores = {}
    for opponent in opponents if games > 0 else []:
        m = _agon._book_match(spec, opponent, games, seed, concurrency=workers)
        _, low, high = _agon._score_interval(m["wins"], m["draws"], m["losses"])
        scores[opponent] = {k: m[k] for k in ("games", "wins", "draws", "losses", "score")}
        scores[opponent].update(score_low=low, score_high=high,
                                **{k: _finite(m[k]) for k in ("elo", "elo_low", "elo_high")})
        _say(f"{name} against {opponent}: {m['wins']}-{m['draws']}-{m['losses']}, "
             f"score {m['score']:.3f} over {m['games']} games")
    return scores


def network_identity(path: "str | os.PathLike[str]") -> str:
    """A network file named by its contents, ``sha256:HEX`` (``""`` for no file): the run's
    record of ``--init``, so that a run directory committed or moved to another checkout or
    machine, where the same network has another path, resumes as the same run."""
    if not os.fspath(path):
        return ""
    return "sha256:" + hashlib.sha256(Path(path).read_bytes()).hexdigest()


def _prepare(out: Path, run: Run) -> Dict[str, Any]:
    """Creates or checks the run directory; returns its state."""
    out.mkdir(parents=True, exist_ok=True)
    config = out / CONFIG
    if config.exists():
        saved = json.loads(config.read_text())
        init = saved.get("init", "")
        if init and not init.startswith("sha256:") and os.path.exists(init):
            # Runs written before the digest recorded the network's path: named by its
            # contents from now on, while the file is still there.
            _write_json(config, {**saved, "init": network_identity(init)})
    # The settings added since the first runs wrote theirs.
    _settings_file(config, {**asdict(run), "init": network_identity(run.init)},
                   {"init": "", "value_target": "result", "search": "puct", "considered": 16,
                    "c_scale": 1.0})
    state_path = out / STATE
    if state_path.exists():
        state: Dict[str, Any] = json.loads(state_path.read_text())
        return state
    if run.init:
        params = network.load(run.init)
    else:
        params = network.init(network.Shape(run.blocks, run.channels), seed=run.seed)
    network.save(params, out / "gen-0000.safetensors")
    shutil.copyfile(out / "gen-0000.safetensors", out / BEST)
    shutil.copyfile(out / "gen-0000.safetensors", out / LATEST)
    state = {"generation": 0, "phase": "done", "best": 0}
    _write_json(state_path, state)
    return state


def _say(text: str) -> None:
    print(text, flush=True)


def run_generation(out: Path, run: Run, g: int, state: Dict[str, Any], *, workers: int = 1,
                   ray: bool = False, ray_address: Optional[str] = None) -> Dict[str, Any]:
    """Plays, trains, gates and evaluates generation ``g``; returns its log entry."""
    gdir = generation_dir(out, g)
    gdir.mkdir(exist_ok=True)
    entry: Dict[str, Any] = {"generation": g}
    partial = gdir / "log.json"
    if partial.exists():
        entry = json.loads(partial.read_text())

    def phase_done(name: str) -> None:
        entry["phase"] = name
        _write_json(partial, entry)
        state.update(generation=g - 1 if name != "evaluation" else g, phase=name)
        _write_json(out / STATE, state)

    done = entry.get("phase")
    order = ["self-play", "training", "gating", "evaluation"]
    if done not in order:
        player = gdir / "player.safetensors"
        if not player.exists():
            shutil.copyfile(out / BEST, player)
        started = time.monotonic()
        spec = _spec(player, run.visits,
                     f":noise:t{run.temperature_plies}{run.search_option()}", run.batch)
        summary = generate.generate(
            run.games, [spec, spec], gdir / "games", seed=run.seed * 1_000_003 + g,
            workers=workers, max_plies=run.max_plies, shard_size=max(run.games, 1),
            ray=ray, ray_address=ray_address,
        )
        entry["selfplay_seconds"] = round(time.monotonic() - started, 1)
        entry["games"] = run.games
        entry["mean_plies"] = round(summary.mean_plies, 1) if summary.games else None
        _say(f"generation {g}: self-play {run.games} games, {entry['selfplay_seconds']} s")
        phase_done("self-play")
    if entry.get("phase") == "self-play":
        started = time.monotonic()
        params = network.load(out / LATEST)
        settings = run.settings()
        opt_state = train.load_state(params, settings, out / OPTIMIZER)
        sources: List[Any] = [generation_dir(out, k) / "games"
                              for k in range(max(1, g - run.window + 1), g + 1)]
        params, opt_state, figures = train.train(
            params, opt_state, sources, settings, epochs=run.epochs, max_steps=run.max_steps,
            seed=run.seed + g,
        )
        network.save(params, gdir / "model.safetensors",
                     metadata={"generation": str(g), "steps": str(figures.steps)})
        network.save(params, out / LATEST)
        train.save_state(opt_state, out / OPTIMIZER)
        entry.update(
            steps=figures.steps, samples=figures.samples,
            policy_loss=round(figures.policy_loss, 4), value_loss=round(figures.value_loss, 4),
            training_seconds=round(time.monotonic() - started, 1),
        )
        _say(f"generation {g}: trained {figures.steps} steps on {figures.samples} samples, "
             f"policy loss {figures.policy_loss:.3f}, value loss {figures.value_loss:.3f}, "
             f"{entry['training_seconds']} s")
        phase_done("training")
    if entry.get("phase") == "training":
        started = time.monotonic()
        candidate = _spec(gdir / "model.safetensors", run.gate_visits, run.search_option())
        best = _spec(out / BEST, run.gate_visits, run.search_option())
        if run.gate_games > 0:
            gate = _agon._book_match(candidate, best, run.gate_games, run.seed + g,
                                     sprt=SPRT, concurrency=workers)
            if gate["decision"] != "continue" and gate["games"] < MIN_GATE_GAMES:
                # A test decided on a handful of games (a pair of draws gives a variance
                # of 0): the whole match is played and its score decides.
                gate = _agon._book_match(candidate, best, run.gate_games, run.seed + g,
                                         concurrency=workers)
            accepted = gate["decision"] == "H1" or (
                gate["decision"] == "continue" and gate["score"] >= run.gate_score)
        else:
            # No gating, as AlphaZero: the latest network plays.
            gate = {"games": 0, "wins": 0, "draws": 0, "losses": 0, "score": None,
                    "llr": None, "decision": "none"}
            accepted = True
        if accepted:
            shutil.copyfile(gdir / "model.safetensors", out / "best.safetensors.tmp")
            os.replace(out / "best.safetensors.tmp", out / BEST)
            state["best"] = g
        entry.update(gate={k: gate[k] for k in ("games", "wins", "draws", "losses", "score",
                                                 "llr", "decision")},
                     accepted=accepted, best=state["best"],
                     gating_seconds=round(time.monotonic() - started, 1))
        _say(f"generation {g}: gating {gate['wins']}-{gate['draws']}-{gate['losses']} "
             f"(score {gate['score']}, {gate['decision']}): "
             f"{'accepted' if accepted else 'kept generation ' + str(state['best'])}")
        phase_done("gating")
    if entry.get("phase") == "gating":
        started = time.monotonic()
        scores = evaluation(_spec(out / BEST, run.eval_visits, run.search_option()),
                            run.eval_opponents,
                            run.eval_games, run.seed + g, workers,
                            f"generation {g}: best (generation {state['best']})")
        entry.update(evaluation=scores, evaluation_seconds=round(time.monotonic() - started, 1))
        phase_done("evaluation")
        with open(out / LOG, "a") as log:
            log.write(log_line(entry))
    return entry


def loop(out: "str | os.PathLike[str]", generations: int, run: Run, *, workers: int = 1,
         ray: bool = False, ray_address: Optional[str] = None) -> List[Dict[str, Any]]:
    """Runs generations until ``generations`` are done (those done already are skipped);
    returns the log entries of the generations run now."""
    if generations < 0 or run.games < 1 or run.visits < 1:
        raise ValueError("generations must be at least 0, games and visits at least 1")
    if run.search not in SEARCHES:
        raise ValueError(f"search must be one of {', '.join(SEARCHES)}, not {run.search!r}")
    if not 1 <= run.considered <= 256:
        raise ValueError(f"considered must be from 1 to 256, not {run.considered}")
    if not 1 <= round(run.c_scale * 1000) <= 10_000:
        raise ValueError(f"c_scale must be from 0.001 to 10, not {run.c_scale}")
    directory = Path(out)
    state = _prepare(directory, run)
    entries = []
    first = int(state["generation"]) + 1
    for g in range(first, generations + 1):
        entries.append(run_generation(directory, run, g, state, workers=workers, ray=ray,
                                      ray_address=ray_address))
    return entries


def parser() -> argparse.ArgumentParser:
    """The command line of ``python -m agon.az.loop``."""
    d = Run()
    p = argparse.ArgumentParser(prog="python -m agon.az.loop", description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--out", required=True, help="run directory (created; resumed if it holds the same run)")
    p.add_argument("--generations", type=int, required=True, help="generations to reach")
    p.add_argument("--games", type=int, default=d.games, help="self-play games a generation")
    p.add_argument("--visits", type=int, default=d.visits, help="simulations a move in self-play")
    p.add_argument("--temperature-plies", type=int, default=d.temperature_plies,
                   help="plies drawn in proportion to the visits (Gumbel: to the improved policy) in self-play")
    p.add_argument("--batch", type=int, default=d.batch, help="leaves evaluated at once")
    p.add_argument("--max-plies", type=int, default=d.max_plies, help="ply cap of a self-play game")
    p.add_argument("--blocks", type=int, default=d.blocks, help="residual blocks")
    p.add_argument("--channels", type=int, default=d.channels, help="channels of the tower")
    p.add_argument("--window", type=int, default=d.window, help="generations of games trained on")
    p.add_argument("--epochs", type=int, default=d.epochs, help="passes over the window a generation")
    p.add_argument("--max-steps", type=int, default=d.max_steps, help="most training steps a generation")
    p.add_argument("--learning-rate", type=float, default=d.learning_rate)
    p.add_argument("--weight-decay", type=float, default=d.weight_decay)
    p.add_argument("--batch-samples", type=int, default=d.batch_samples, help="samples a step")
    p.add_argument("--gate-games", type=int, default=d.gate_games, help="most games of the gating match")
    p.add_argument("--gate-visits", type=int, default=d.gate_visits, help="simulations a move in gating")
    p.add_argument("--gate-score", type=float, default=d.gate_score,
                   help="score that accepts a network when the SPRT is undecided")
    p.add_argument("--eval", nargs="*", default=d.eval_opponents, metavar="SPEC",
                   help="fixed opponents of the learning curve (default: greedy)")
    p.add_argument("--eval-games", type=int, default=d.eval_games, help="games against each")
    p.add_argument("--eval-visits", type=int, default=d.eval_visits, help="simulations a move in evaluation")
    p.add_argument("--seed", type=int, default=d.seed)
    p.add_argument("--init", default=d.init, metavar="MODEL",
                   help="generation 0: this network (e.g. from agon.az.pretrain), not a random one")
    p.add_argument("--value-target", choices=train.VALUE_TARGETS, default=d.value_target,
                   help="what the value learns: the games' results, the searches' root values, or their mean")
    p.add_argument("--search", choices=SEARCHES, default=d.search,
                   help="the self-play search: AlphaZero's PUCT, or Gumbel AlphaZero's (few simulations)")
    p.add_argument("--considered", type=int, default=d.considered,
                   help="moves the Gumbel search considers at the root (Sequential Halving)")
    p.add_argument("--c-scale", type=float, default=d.c_scale,
                   help="the Gumbel search's c_scale (the paper's 1.0; mctx's 0.1 gives a gentler target)")
    p.add_argument("--workers", type=int, default=1, help="local threads (games and matches)")
    p.add_argument("--ray", nargs="?", const="", default=None, metavar="ADDRESS",
                   help="self-play as Ray tasks (extra ray)")
    return p


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Runs the command line; returns the exit status."""
    a = parser().parse_args(argv)
    run = Run(
        games=a.games, visits=a.visits, temperature_plies=a.temperature_plies, batch=a.batch,
        max_plies=a.max_plies, blocks=a.blocks, channels=a.channels, window=a.window,
        epochs=a.epochs, max_steps=a.max_steps, learning_rate=a.learning_rate,
        weight_decay=a.weight_decay, batch_samples=a.batch_samples, gate_games=a.gate_games,
        gate_visits=a.gate_visits, gate_score=a.gate_score, eval_opponents=list(a.eval),
        eval_games=a.eval_games, eval_visits=a.eval_visits, seed=a.seed,
        init=os.fspath(Path(a.init).resolve()) if a.init else "", value_target=a.value_target,
        search=a.search, considered=a.considered, c_scale=a.c_scale,
    )
    try:
        loop(a.out, a.generations, run, workers=a.workers, ray=a.ray is not None,
             ray_address=a.ray or None)
    except (ValueError, OSError) as error:
        print(f"agon.az.loop: {error}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
