#!/bin/sh
# The run's learning curve, docs/az-gumbel-curve.svg: generation 0's evaluation
# (gen0.json) then the loop's lines (log.jsonl), drawn by agon.az.plot. From any checkout.
set -e
cd "$(dirname "$0")/../../.."
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
.venv/bin/python -c 'import json, sys; print(json.dumps(json.load(open(sys.argv[1]))))' \
  agon-bots/models/gumbel-run/gen0.json > "$dir/log.jsonl"
cat agon-bots/models/gumbel-run/log.jsonl >> "$dir/log.jsonl"
.venv/bin/python -m agon.az.plot "$dir" --out docs/az-gumbel-curve.svg \
  --title "Gumbel self-play from agon-az-2x32: the best network at 100 visits (g16)"
