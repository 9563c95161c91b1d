#!/bin/sh
# The second Gumbel self-play run of issue 35 point 3: the first's settings with mctx's
# c_scale of 0.1 (--c-scale 0.1, the spec's :s100), from the shipped network. From the
# repository's root with the package built in .venv; the same command resumes it from the
# files committed in this directory. Raise GENERATIONS to go on.
cd "$(dirname "$0")/../../.." && exec nice -n 19 .venv/bin/python -m agon.az.loop \
  --out agon-bots/models/gumbel-run-s100 --generations "${GENERATIONS:-12}" \
  --init agon-bots/models/agon-az-2x32.safetensors --search gumbel --considered 16 --c-scale 0.1 \
  --visits 32 --temperature-plies 0 --games 32 --max-plies 300 --window 4 --max-steps 400 \
  --learning-rate 0.0002 --value-target mean --gate-games 20 --gate-visits 32 \
  --eval alphabeta:3 alphabeta:5 --eval-games 10 --eval-visits 100 --workers 2
