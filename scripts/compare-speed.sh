#!/usr/bin/env bash
# Compares the speed of two checkouts side by side, in one run: perft, random playouts,
# VecEnv and the engine's nodes per second, each benchmark run ROUNDS times alternating
# between the two builds (A, B, A, B...) so that both see the same machine, and the best
# round of each kept (the one least disturbed by other work).
#
#   bash scripts/compare-speed.sh BASE_DIR [NEW_DIR] [ROUNDS]
#   INSTRUCTIONS=1 bash scripts/compare-speed.sh BASE_DIR [NEW_DIR]
#
# With INSTRUCTIONS=1 it counts instead the instructions the benchmarks of fixed work
# (perft, playouts, the engine) execute, under valgrind's callgrind: the same count for
# the same binary and input whatever else the machine does, so a change of a few percent
# shows on a busy machine too. (The VecEnv example runs for a time, not a fixed work.)
#
# BASE_DIR and NEW_DIR (default: this checkout) are checkouts of the repository, e.g.
# `git worktree add --detach /tmp/base <commit>`. Both are built in release mode first.
# Prints one line per benchmark: the best of each and the ratio NEW / BASE (above 1 is
# faster for rates, below 1 is faster for times).
set -euo pipefail
base=$(cd "$1" && pwd)
new=$(cd "${2:-$(dirname "$0")/..}" && pwd)
rounds=${3:-5}

for dir in "$base" "$new"; do
  (cd "$dir" && cargo build -q --release -p agon-examples --example perft --example playouts \
    -p agon-rl --example vecenv -p agon-bots --example ablation)
done

if [ "${INSTRUCTIONS:-}" = 1 ]; then
  command -v valgrind >/dev/null || { echo "INSTRUCTIONS=1 needs valgrind" >&2; exit 2; }
  # The instructions `$@` executes in each checkout, and the ratio.
  count() {
    local name=$1 a b
    shift
    a=$(valgrind --tool=callgrind --callgrind-out-file=/dev/null \
      "$base/target/release/examples/$@" 2>&1 >/dev/null | awk '/Collected/ { print $4 }')
    b=$(valgrind --tool=callgrind --callgrind-out-file=/dev/null \
      "$new/target/release/examples/$@" 2>&1 >/dev/null | awk '/Collected/ { print $4 }')
    awk -v n="$name" -v a="$a" -v b="$b" \
      'BEGIN { printf "%-42s base %16.0f  new %16.0f  new/base %.4f\n", n, a, b, b / a }'
  }
  count "perft 5 from the start (instructions)" perft 5
  count "random playouts, 1000 games (instructions)" playouts 1000 1
  count "engine to depth 7, 6 book positions (instr.)" ablation 7 6 0 6 table
  exit 0
fi

# Runs `$@` in both checkouts ROUNDS times, alternating, and prints the best value of the
# figure the filter (stdin: the output; $FILTER: an awk program printing one number)
# extracts, with BEST=max for rates and BEST=min for times.
compare() {
  local name=$1 best=$2 filter=$3
  shift 3
  local a=() b=()
  for _ in $(seq "$rounds"); do
    a+=("$("$base/target/release/examples/$@" 2>/dev/null | awk "$filter")")
    b+=("$("$new/target/release/examples/$@" 2>/dev/null | awk "$filter")")
  done
  printf '%s\n' "${a[@]}" >/tmp/compare-speed.a
  printf '%s\n' "${b[@]}" >/tmp/compare-speed.b
  local ba bb
  if [ "$best" = max ]; then
    ba=$(sort -g /tmp/compare-speed.a | tail -1)
    bb=$(sort -g /tmp/compare-speed.b | tail -1)
  else
    ba=$(sort -g /tmp/compare-speed.a | head -1)
    bb=$(sort -g /tmp/compare-speed.b | head -1)
  fi
  awk -v n="$name" -v a="$ba" -v b="$bb" \
    'BEGIN { printf "%-42s base %14.1f  new %14.1f  new/base %.3f\n", n, a, b, b / a }'
}

compare "perft 6 from the start (leaves/s)" max \
  '/^depth=6/ { sub("leaves_per_second=", "", $4); print $4 }' perft 6
compare "random playouts, 20000 games (games/s)" max \
  '/^games=/ { for (i = 1; i <= NF; i++) if ($i ~ /^playouts_per_second=/) { sub("playouts_per_second=", "", $i); print $i } }' \
  playouts 20000 1
compare "VecEnv n=1024 f32/bool 1 thread (steps/s)" max \
  '/n=1024 format=f32\/bool threads=1/ { for (i = 1; i <= NF; i++) if ($i ~ /^best=/) { sub("best=", "", $i); print $i } }' \
  vecenv --quick 1024
compare "VecEnv n=1024 u8/packed 1 thread (steps/s)" max \
  '/n=1024 format=u8\/packed threads=1/ { for (i = 1; i <= NF; i++) if ($i ~ /^best=/) { sub("best=", "", $i); print $i } }' \
  vecenv --quick 1024
# The full engine only ("all"; "table" is named so that no other variant runs): its
# nodes to depth 8 on 20 book positions, and the time they take.
compare "engine to depth 8, 20 book positions (ms)" min \
  '$1 == "all" { print $4 }' ablation 8 20 0 20 table
compare "engine to depth 8, 20 book positions (nodes)" min \
  '$1 == "all" { print $2 }' ablation 8 20 0 20 table
