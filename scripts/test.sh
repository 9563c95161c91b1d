#!/usr/bin/env bash
# The whole test suite, as CI runs it (.ci/run calls this script and nothing else).
# On a fresh machine it installs what it needs: the Python tools into .venv inside the
# checkout, and cargo-fuzz if it is missing.
set -euo pipefail
cd "$(dirname "$0")/.."

step() { printf '\n== %s\n' "$*"; }

step "format"
cargo fmt --all -- --check

step "clippy"
cargo clippy --workspace --all-targets -- -D warnings

step "Rust tests (unit, integration, doc)"
cargo test --workspace
cargo test -p agon-core --all-features

step "no_std build (no alloc)"
cargo build -p agon-core --no-default-features
cargo build -p agon-core --no-default-features --features serde

step "API docs (warnings are errors)"
RUSTDOCFLAGS="-D warnings" cargo doc --workspace --no-deps --all-features

step "Python package"
if [ ! -x .venv/bin/python ]; then
  python3 -m venv .venv
fi
.venv/bin/python -m pip install --quiet --upgrade pip
.venv/bin/python -m pip install --quiet maturin numpy pytest mypy
.venv/bin/python -m pip install --quiet ./agon-py
.venv/bin/python -m pytest -q agon-py/tests
.venv/bin/python -m mypy --strict agon-py/tests agon-py/bench.py

step "fuzz smoke run"
bash fuzz/smoke.sh
