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
#
#   bash scripts/compare-speed.sh web [BASE_COMMIT] [NEW_COMMIT] [ROUNDS]
#
# The `web` form compares the web server instead: it checks out two commits (default
# 50cbf0b, the commit before issue 31's work, and HEAD) as detached git worktrees under
# $SPEED_DIR (default ${TMPDIR:-/tmp}/agon-compare-speed, kept so that a second run
# rebuilds only what changed), builds agon-web's `load` example of each in release mode
# (nice) into its own target directory there, $SPEED_DIR/target-base and target-new (one
# shared directory would not do: cargo names a workspace's crates alike wherever the
# checkout is, so each build would overwrite the other's), then runs ROUNDS rounds (default 3), each
# running both builds alternately (base then new, new then base in the next round, so that
# neither always runs first) on the two loads of the issue: PLAYERS players (default
# 200) against easy (`--players`), and FRIENDS friend games over event streams (default
# 100, `--friends`), each bounded by SECONDS_EACH (default 60) and thinking THINK_MS (default
# 500, friends 100). Besides what the example prints (requests per second, latency
# percentiles), it samples the server process's CPU time (`/proc/PID/stat` of the
# example's child, which is the server) and divides it by the moves made (CPU per move)
# and by the events the streams delivered (one per move on each of the two streams: the
# per-stream cost). Prints each figure's median over the rounds, its range, and new/base.
# A benchmark, not a test: the machine's other work is noise, which the alternation shares
# out between the two builds.
set -euo pipefail
if [ "${1:-}" = web ]; then
  root=$(cd "$(dirname "$0")/.." && pwd)
  base_commit=$(git -C "$root" rev-parse --verify "${2:-50cbf0b}^{commit}")
  new_commit=$(git -C "$root" rev-parse --verify "${3:-HEAD}^{commit}")
  rounds=${4:-3}
  players=${PLAYERS:-200} friends=${FRIENDS:-100} seconds=${SECONDS_EACH:-60}
  think=${THINK_MS:-500} friends_think=${FRIENDS_THINK_MS:-100}
  dir=${SPEED_DIR:-${TMPDIR:-/tmp}/agon-compare-speed}
  mkdir -p "$dir"
  for side in base new; do
    commit=$base_commit
    [ "$side" = new ] && commit=$new_commit
    if [ -d "$dir/$side/.git" ] || [ -f "$dir/$side/.git" ]; then
      git -C "$dir/$side" checkout -q --detach "$commit"
    else
      git -C "$root" worktree add -q --detach "$dir/$side" "$commit"
    fi
    echo "building $side ($(git -C "$dir/$side" log --oneline -1))" >&2
    (cd "$dir/$side" && CARGO_TARGET_DIR="$dir/target-$side" nice cargo build -q --release \
      -p agon-web --example load)
  done
  ticks=$(getconf CLK_TCK)
  out="$dir/results"
  : >"$out"
  # Runs side $1's load example with the arguments after it; appends to $out one line
  # `SIDE MODE key=value...` of the figures, with the server's CPU seconds sampled until
  # the end (the example kills its server on exit).
  run() {
    local side=$1 mode=$2
    shift 2
    local log="$dir/$side-$mode.log" cpu=0 pid child t
    nice "$dir/target-$side/release/examples/load" "$@" >"$log" 2>&1 &
    pid=$!
    while kill -0 "$pid" 2>/dev/null; do
      for child in $(pgrep -P "$pid"); do
        # utime and stime: fields 14 and 15, counted after the `(comm)` field.
        t=$(sed 's/.*) //' "/proc/$child/stat" 2>/dev/null | awk '{ print $12 + $13 }') || true
        [ -n "$t" ] && cpu=$t
      done
      sleep 0.2
    done
    wait "$pid" || echo "$side $mode: the load example failed, see $log" >&2
    awk -v side="$side" -v mode="$mode" -v cpu="$cpu" -v ticks="$ticks" '
      { for (i = 1; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] } }
      /^move_requests=/ { v["p50"] = v["p50_ms"]; v["p99"] = v["p99_ms"]; v["max"] = v["max_ms"] }
      /^move_to_opponent_event=/ { v["p50"] = v["p50_ms"]; v["p99"] = v["p99_ms"]; v["max"] = v["max_ms"] }
      END {
        s = cpu / ticks
        if (mode == "players") {
          moves = v["move_requests"] + 0
          printf "%s %s rate=%s p50=%s p99=%s max=%s cpu_s=%.2f cpu_ms_per_move=%.3f errors=%s\n",
            side, mode, v["requests_per_second"], v["p50"], v["p99"], v["max"], s,
            moves ? 1000 * s / moves : 0, v["errors"]
        } else {
          moves = v["moves"] + 0
          printf "%s %s rate=%s p50=%s p99=%s max=%s cpu_s=%.2f cpu_ms_per_move=%.3f us_per_stream_event=%.1f errors=%s\n",
            side, mode, v["moves_per_second"], v["p50"], v["p99"], v["max"], s,
            moves ? 1000 * s / moves : 0, moves ? 1e6 * s / (2 * moves) : 0, v["errors"]
        }
      }' "$log" >>"$out"
  }
  for round in $(seq "$rounds"); do
    order="base new"
    [ $((round % 2)) = 0 ] && order="new base"
    for side in $order; do
      echo "round $round: $side players" >&2
      run "$side" players --players "$players" --games 2 --seconds "$seconds" --think-ms "$think"
      echo "round $round: $side friends" >&2
      run "$side" friends --friends "$friends" --seconds "$seconds" --think-ms "$friends_think"
    done
  done
  echo "base $(git -C "$dir/base" log --oneline -1 | cut -c1-60)"
  echo "new  $(git -C "$dir/new" log --oneline -1 | cut -c1-60)"
  echo "$rounds rounds, alternating; median [min-max] of the rounds; new/base of the medians"
  echo "players: $players against easy, 2 games each, thinking 0-$((2 * think)) ms, at most $seconds s"
  echo "friends: $friends games over event streams, thinking 0-$((2 * friends_think)) ms, at most $seconds s"
  awk '
    function median(list, n,   a, i, j, t) {
      n = split(list, a, " ")
      for (i = 2; i <= n; i++) for (j = i; j > 1 && a[j - 1] + 0 > a[j] + 0; j--) {
        t = a[j]; a[j] = a[j - 1]; a[j - 1] = t
      }
      lo = a[1]; hi = a[n]
      return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
    }
    {
      for (i = 3; i <= NF; i++) {
        split($i, kv, "=")
        key = $2 " " kv[1]
        if (!(key in seen)) { seen[key] = 1; keys[++nk] = key }
        vals[$1, key] = vals[$1, key] " " kv[2]
      }
    }
    END {
      names["rate"] = "requests/s (friends: moves/s)"
      names["p50"] = "latency p50 ms"; names["p99"] = "latency p99 ms"; names["max"] = "latency max ms"
      names["cpu_s"] = "server CPU s"; names["cpu_ms_per_move"] = "server CPU ms per move"
      names["us_per_stream_event"] = "server CPU us per stream event"; names["errors"] = "errors"
      printf "%-8s %-31s %24s %24s %9s\n", "load", "figure", "base", "new", "new/base"
      for (k = 1; k <= nk; k++) {
        split(keys[k], parts, " ")
        mb = median(vals["base", keys[k]]); bl = lo; bh = hi
        mn = median(vals["new", keys[k]]); nl = lo; nh = hi
        printf "%-8s %-31s %9.3f [%5.3g-%5.3g] %9.3f [%5.3g-%5.3g] %9s\n", parts[1], names[parts[2]],
          mb, bl, bh, mn, nl, nh, mb + 0 ? sprintf("%.3f", mn / mb) : "-"
      }
    }' "$out"
  exit 0
fi

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
