#!/usr/bin/env bash
# The whole test suite, as CI runs it (.ci/run calls this script and nothing else).
# On a fresh machine it installs what it needs: the Python tools into .venv inside the
# checkout, Debian's Chromium for the browser test (apt, as root) and cargo-fuzz if they
# are missing.
set -euo pipefail
cd "$(dirname "$0")/.."

step() { printf '\n== %s\n' "$*"; }
missing() { printf 'scripts/test.sh cannot run: %s\n' "$*" >&2; exit 1; }

# Everything the later steps need, checked in the first seconds rather than after minutes.
step "prerequisites"
command -v cargo >/dev/null || missing "no cargo: install Rust with rustup (https://rustup.rs)"
cargo +nightly --version >/dev/null 2>&1 ||
  missing "the fuzz smoke run needs the nightly toolchain: rustup toolchain install nightly"
command -v python3 >/dev/null || missing "no python3: install Python 3.9 or newer"
command -v npm >/dev/null ||
  missing "no npm: the web page's script is checked with ESLint and TypeScript: install Node.js 20 or newer with npm"
python3 -c 'import sys; sys.exit(sys.version_info < (3, 9))' ||
  missing "Python $(python3 -V 2>&1) is too old: install Python 3.9 or newer"
python3 -c 'import venv, ensurepip' 2>/dev/null ||
  missing "Python cannot make virtual environments: apt-get install python3-venv"
if [ ! -x /usr/bin/chromium ] && [ "$(id -u)" != 0 ]; then
  missing "the browser test needs Debian's Chromium: apt-get install chromium (as root)"
fi
echo "cargo, nightly, npm, Python 3.9+, venv and Chromium (or root to install it): present"

step "format"
cargo fmt --all -- --check

step "web page script: ESLint and TypeScript's checkJs (agon-web/package-lock.json)"
npm ci --prefix agon-web --no-audit --no-fund --loglevel=error
npm run --prefix agon-web --silent lint

step "clippy"
cargo clippy --workspace --all-targets -- -D warnings
cargo clippy -p agon-core --all-features --all-targets -- -D warnings
# agon-bots without its `az` feature (the workspace builds it with the feature, which
# agon-py enables).
cargo clippy -p agon-bots --all-targets -- -D warnings

step "Rust tests (unit, integration, doc)"
cargo test --workspace
cargo test -p agon-core --all-features
# Without the `az` feature an az spec is a clear error (the workspace run has the feature).
cargo test -q -p agon-bots --lib az_spec

step "web game: load script, briefly (every game checked against a replay)"
cargo run -q -p agon-web --example load -- --players 20 --games 1 --think-ms 0 --seconds 120

step "agon-core in every feature combination (no_std without alloc, alloc, std; each with and without serde)"
for features in "" "alloc" "std"; do
  for serde in "" "serde"; do
    echo "agon-core --no-default-features --features '${features}${features:+${serde:+,}}${serde}'"
    cargo build -q -p agon-core --no-default-features --features "${features}${features:+${serde:+,}}${serde}"
  done
done

step "API docs (warnings are errors)"
RUSTDOCFLAGS="-D warnings" cargo doc --workspace --no-deps --all-features

step "Python package"
if [ ! -x .venv/bin/python ]; then
  python3 -m venv .venv
fi
# One line per install, so a slow step shows where it is.
echo "pip: upgrading pip"
.venv/bin/python -m pip install --quiet --upgrade pip
echo "pip: building and installing agon-rules with its test tools and research extras"
.venv/bin/python -m pip install --quiet "./agon-py[test,pettingzoo,gymnasium,openspiel,data,ray,az]"
.venv/bin/python -m pytest -q agon-py/tests
.venv/bin/python -m mypy --strict agon-py/tests agon-py/bench.py agon-py/python/agon

step "web game in a real browser (Playwright driving Debian's Chromium)"
if [ ! -x /usr/bin/chromium ]; then
  if [ "$(id -u)" = 0 ]; then
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
  else
    echo "the browser test needs /usr/bin/chromium: run 'apt-get install chromium' as root" >&2
    exit 1
  fi
fi
# Playwright's Python package brings its driver; it never downloads a browser here.
echo "pip: installing playwright (its driver only; the browser is Debian's)"
.venv/bin/python -m pip install --quiet playwright
cargo build -q -p agon-web
.venv/bin/python -m pytest -q -p no:cacheprovider agon-web/tests/browser

step "fuzz smoke run"
bash fuzz/smoke.sh
