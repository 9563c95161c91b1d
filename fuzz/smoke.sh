#!/usr/bin/env bash
# Runs every fuzz target for a short fixed time from the committed seed corpora.
#
# The seeds in fuzz/corpus/<target>/ are read only: new inputs go to a temporary
# directory, removed at the end. Exits non-zero if any target finds a failure; the
# failing input is kept in fuzz/artifacts/<target>/ (and libFuzzer prints how to rerun it).
#
# Environment: SMOKE_SECONDS (default 8) and SMOKE_RUNS (default 4000000) bound each
# target; FUZZ_TARGETS (space-separated) chooses the targets.
set -euo pipefail
cd "$(dirname "$0")"

command -v cargo-fuzz >/dev/null || cargo install cargo-fuzz --locked
if ! cargo +nightly --version >/dev/null 2>&1; then
    echo "fuzz/smoke.sh needs the nightly toolchain: rustup toolchain install nightly" >&2
    exit 2
fi

seconds=${SMOKE_SECONDS:-8}
runs=${SMOKE_RUNS:-4000000}
targets=${FUZZ_TARGETS:-"cell move_text position_text record play position"}
# Safe Rust: no sanitizer needed; debug assertions catch arithmetic overflow.
flags=(--sanitizer none --debug-assertions)

cargo +nightly fuzz build "${flags[@]}"

scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
failed=()
for target in $targets; do
    mkdir -p "$scratch/$target"
    echo "== $target (${seconds}s)"
    if ! cargo +nightly fuzz run "${flags[@]}" "$target" "$scratch/$target" "corpus/$target" -- \
        -max_total_time="$seconds" -runs="$runs" -print_final_stats=1 2>"$scratch/$target.log"; then
        failed+=("$target")
        tail -n 40 "$scratch/$target.log"
    fi
    grep -E '^(stat::number_of_executed_units|stat::new_units_added)|^Done' "$scratch/$target.log" || true
done

if ((${#failed[@]})); then
    echo "fuzz smoke test FAILED: ${failed[*]}" >&2
    exit 1
fi
echo "fuzz smoke test passed: $targets"
