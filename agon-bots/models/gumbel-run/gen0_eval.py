"""The learning curve's generation 0 for this run: the initial network (the shipped
agon-az-2x32) evaluated as agon.az.loop evaluates each generation's best network
(seed = run seed + generation = 0). Run from the repository's root."""
import json
from pathlib import Path
from agon.az import loop

spec = loop._spec(Path("agon-bots/models/agon-az-2x32.safetensors"), 100, ":g16")
scores = loop.evaluation(spec, ["alphabeta:3", "alphabeta:5"], 10, 0, 1, "generation 0")
out = Path("agon-bots/models/gumbel-run/gen0.json")
out.write_text(json.dumps({"generation": 0, "spec": spec, "evaluation": scores}, indent=1) + "\n")
