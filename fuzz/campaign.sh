#!/usr/bin/env bash
# Runs a long fuzzing campaign: every target at once, one libFuzzer job each, at the
# lowest CPU priority, each from a copy of its seed corpus in a work directory (the
# committed corpora are not touched).
#
#   fuzz/campaign.sh [SECONDS] [WORK_DIR]      (defaults: 1800, a new /tmp directory)
#
# Per target, WORK_DIR holds corpus/<target>/ (the grown corpus), artifacts/<target>/
# (failing inputs) and <target>.log (libFuzzer's output, ending with its final stats).
# FUZZ_TARGETS (space-separated) chooses the targets.
set -euo pipefail
cd "$(dirname "$0")"

seconds=${1:-1800}
work=${2:-$(mktemp -d /tmp/agon-fuzz-campaign.XXXXXX)}
targets=${FUZZ_TARGETS:-"cell move_text position_text record play position"}
flags=(--sanitizer none --debug-assertions)

command -v cargo-fuzz >/dev/null || cargo install cargo-fuzz --locked
cargo +nightly fuzz build "${flags[@]}"

echo "campaign of ${seconds}s per target in $work"
pids=()
for target in $targets; do
    mkdir -p "$work/corpus/$target" "$work/artifacts/$target"
    cp -n corpus/"$target"/* "$work/corpus/$target/" 2>/dev/null || true
    nice -n 19 cargo +nightly fuzz run "${flags[@]}" "$target" "$work/corpus/$target" -- \
        -max_total_time="$seconds" -timeout=60 -print_final_stats=1 \
        -artifact_prefix="$work/artifacts/$target/" >"$work/$target.log" 2>&1 &
    pids+=($!)
done
status=0
for pid in "${pids[@]}"; do
    wait "$pid" || status=1
done
for target in $targets; do
    echo "== $target: $(ls "$work/corpus/$target" | wc -l) corpus files, $(ls "$work/artifacts/$target" | wc -l) artifacts"
    grep -E '^#[0-9]+.*(DONE|pulse)' "$work/$target.log" | tail -n 1 || true
    grep -E '^stat::(number_of_executed_units|peak_rss_mb)' "$work/$target.log" || true
done
exit $status
