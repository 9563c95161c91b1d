#!/bin/sh
# A Gumbel run's learning curve: generation 0's evaluation (RUN/gen0.json, if the run has
# one) then the loop's lines (RUN/log.jsonl), drawn by agon.az.plot. From any checkout:
#   sh agon-bots/models/gumbel-run/curve.sh                       # docs/az-gumbel-curve.svg
#   sh agon-bots/models/gumbel-run/curve.sh gumbel-run-s100 docs/az-gumbel-s100-curve.svg
set -e
cd "$(dirname "$0")/../../.."
run="agon-bots/models/${1:-gumbel-run}"
out="${2:-docs/az-gumbel-curve.svg}"
scale=$(.venv/bin/python -c 'import json, sys; c = json.load(open(sys.argv[1])).get("c_scale", 1.0); print("" if c == 1.0 else f":s{round(c * 1000)}")' "$run/az-run.json")
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
if [ -f "$run/gen0.json" ]; then
  .venv/bin/python -c 'import json, sys; print(json.dumps(json.load(open(sys.argv[1]))))' \
    "$run/gen0.json" > "$dir/log.jsonl"
fi
cat "$run/log.jsonl" >> "$dir/log.jsonl"
.venv/bin/python -m agon.az.plot "$dir" --out "$out" \
  --title "Gumbel self-play from agon-az-2x32: the best network at 100 visits (g16$scale)"
