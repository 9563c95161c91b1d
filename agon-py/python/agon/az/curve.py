"""A learning curve after the fact: ``python -m agon.az.curve MODEL... --out DIR``.

Plays each network file given (a run's checkpoints, in training order: ``agon.az.loop``'s
``gen-NNNN/model.safetensors``, ``agon.az.pretrain``'s ``chunk-NNNN.safetensors``)
against each ``--eval`` opponent over ``--games`` book games (the arena's opening book,
colours swapped), at ``--visits`` a move and with ``--contempt`` for draws (thousandths
of a win, ``az:...:cPERMILLE``), and writes one entry a network to ``DIR/log.jsonl`` as
the loop does (``generation``: the network's place in the list, from ``--first``), which
``python -m agon.az.plot DIR`` draws. With ``--considered K`` the networks play Gumbel
AlphaZero's search (``az:...:gK``, as a ``--search gumbel`` loop does). Every network meets the same openings (the same
``--seed``), so the curve compares networks, not openings.

Resumable: the networks already in the log are skipped, so a curve grows with its run
(the same command with the newer checkpoints added at the end plays only those); other
settings, or other networks in place of those played, on the same directory are refused.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Dict, List, Optional, Sequence

from .loop import _say, _spec, _write_json, evaluation, log_line

CONFIG = "curve.json"
LOG = "log.jsonl"


@dataclass(frozen=True)
class Curve:
    """The settings of a curve (those that change its results)."""

    models: List[str]
    opponents: List[str] = field(default_factory=lambda: ["greedy"])
    games: int = 10
    visits: int = 100
    contempt: int = 0
    seed: int = 0
    first: int = 0
    considered: int = 0


def curve(out: "str | os.PathLike[str]", run: Curve, *, workers: int = 1) -> List[Dict[str, Any]]:
    """Evaluates the networks of ``run`` not yet in ``out``'s log; returns their entries."""
    if run.games < 1 or run.visits < 1 or not run.models or not run.opponents:
        raise ValueError("games and visits must be at least 1, and models and opponents given")
    if not 0 <= run.contempt <= 1000:
        raise ValueError(f"contempt must be from 0 to 1000 thousandths, not {run.contempt}")
    if not 0 <= run.considered <= 256:
        raise ValueError(f"considered must be from 0 (PUCT) to 256, not {run.considered}")
    for model in run.models:
        if not Path(model).is_file():
            raise ValueError(f"no network file {model!r}")
    directory = Path(out)
    directory.mkdir(parents=True, exist_ok=True)
    settings = asdict(run)
    models = settings.pop("models")
    models = [os.fspath(Path(m).resolve()) for m in models]
    config = directory / CONFIG
    if config.exists():
        # Curves begun before --considered were of PUCT.
        saved = {"considered": 0, **json.loads(config.read_text())}
        earlier = saved.pop("models")
        # More networks may follow those of a curve begun (a run trained on).
        if saved != settings or models[:len(earlier)] != earlier:
            raise ValueError(f"{directory} holds a curve of other settings or networks "
                             f"({config}): use another --out")
    _write_json(config, {**settings, "models": models})
    log = directory / LOG
    done = len(log.read_text().splitlines()) if log.exists() else 0
    extra = (f":c{run.contempt}" if run.contempt else "") + (
        f":g{run.considered}" if run.considered else "")
    entries = []
    for i, model in enumerate(models[done:], start=done):
        generation = run.first + i
        started = time.monotonic()
        spec = _spec(Path(model), run.visits, extra)
        scores = evaluation(spec, run.opponents, run.games, run.seed, workers,
                            f"network {generation} ({Path(model).name})")
        entry = {"generation": generation, "spec": spec, "evaluation": scores,
                 "evaluation_seconds": round(time.monotonic() - started, 1)}
        with open(log, "a") as f:
            f.write(log_line(entry))
        entries.append(entry)
    return entries


def parser() -> argparse.ArgumentParser:
    """The command line of ``python -m agon.az.curve``."""
    d = Curve(models=[])
    p = argparse.ArgumentParser(prog="python -m agon.az.curve", description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("models", nargs="+", metavar="MODEL", help="network files, in training order")
    p.add_argument("--out", required=True, help="curve directory (created; resumed if it holds the same curve)")
    p.add_argument("--eval", nargs="+", default=d.opponents, metavar="SPEC",
                   help="fixed opponents (default: greedy)")
    p.add_argument("--games", type=int, default=d.games, help="book games against each")
    p.add_argument("--visits", type=int, default=d.visits, help="simulations a move")
    p.add_argument("--contempt", type=int, default=d.contempt,
                   help="a draw's cost to the network, in thousandths of a win")
    p.add_argument("--seed", type=int, default=d.seed, help="the book's openings")
    p.add_argument("--considered", type=int, default=d.considered,
                   help="Gumbel search considering this many moves at the root (0: PUCT)")
    p.add_argument("--first", type=int, default=d.first, help="the generation of the first network")
    p.add_argument("--workers", type=int, default=1, help="local threads")
    return p


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Runs the command line; returns the exit status."""
    a = parser().parse_args(argv)
    run = Curve(models=list(a.models), opponents=list(a.eval), games=a.games, visits=a.visits,
                contempt=a.contempt, seed=a.seed, first=a.first, considered=a.considered)
    try:
        entries = curve(a.out, run, workers=a.workers)
    except (ValueError, OSError) as error:
        print(f"agon.az.curve: {error}", file=sys.stderr)
        return 2
    _say(f"{len(entries)} networks evaluated; the curve: python -m agon.az.plot {a.out} --out curve.svg")
    return 0


if __name__ == "__main__":
    sys.exit(main())
