"""A Gumbel run's generation 0 for its learning curve: the initial network (the shipped
agon-az-2x32) evaluated as agon.az.loop evaluates each generation's best network, with the
run's search (seed = run seed + generation = 0), written to RUN/gen0.json. From the
repository's root: python agon-bots/models/gumbel-run/gen0_eval.py [RUN] (default
gumbel-run)."""
import json
import sys
from pathlib import Path

from agon.az import loop

run_dir = Path("agon-bots/models") / (sys.argv[1] if len(sys.argv) > 1 else "gumbel-run")
run = loop.Run(**json.loads((run_dir / loop.CONFIG).read_text()))
spec = loop._spec(Path("agon-bots/models/agon-az-2x32.safetensors"), run.eval_visits,
                  run.search_option())
scores = loop.evaluation(spec, run.eval_opponents, run.eval_games, run.seed, 1, "generation 0")
entry = {"generation": 0, "spec": spec, "evaluation": scores}
(run_dir / "gen0.json").write_text(json.dumps(entry, indent=1) + "\n")
