#!/usr/bin/env bash
# The whole test suite, as CI runs it (.ci/run calls this script and nothing else).
# On a fresh machine it installs what it needs: the Python tools into .venv inside the
# checkout, Debian's Chromium for the browser test and Debian's PostgreSQL for the web
# game's second store (apt, as root) and cargo-fuzz if they are missing.
set -euo pipefail
cd "$(dirname "$0")/.."

# A run from a fresh clone gains nothing from incremental compilation, whose caches were a
# quarter of target/debug's size; the run must fit a small disk.
export CARGO_INCREMENTAL=0

# Each step says when it starts (seconds since the run began): CI's limit is 30 minutes.
step() { printf '\n== %s (at %d s)\n' "$*" "$SECONDS"; }
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
if ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 && [ "$(id -u)" != 0 ]; then
  missing "the web game's PostgreSQL tests need Debian's PostgreSQL: apt-get install postgresql (as root)"
fi
echo "cargo, nightly, npm, Python 3.9+, venv, Chromium and PostgreSQL (or root to install them): present"
# A fresh run writes about 5 GB (target/ 2.7, .venv 1.5, fuzz/target 0.25) besides the
# packages it installs; say so at once rather than fail on a full disk after minutes.
free_kb=$(df -Pk . | awk 'NR == 2 { print $4 }')
if [ "${free_kb:-0}" -lt $((6 * 1024 * 1024)) ]; then
  echo "warning: $((free_kb / 1024)) MB free here; a fresh run needs about 6 GB" >&2
fi

# The Python tools of the later steps (the package's requirements and extras, read from
# agon-py/pyproject.toml; Playwright's driver; Schemathesis), installed in the background
# while the Rust steps compile: installing them is mostly waiting on the network and the
# disk (measured: 4.5 minutes, of which 1 minute of CPU). The package step waits for it.
step "Python tools: installing in the background into .venv"
python_extras="test pettingzoo gymnasium openspiel data ray az"
python_tools_log=$(mktemp "${TMPDIR:-/tmp}/agon-test-pip.XXXXXX")
(
  set -e
  [ -x .venv/bin/python ] || python3 -m venv .venv
  # shellcheck disable=SC2086 # the extras' names are words
  requirements=$(python3 scripts/python-requirements.py $python_extras)
  .venv/bin/python -m pip install --quiet --upgrade pip
  # shellcheck disable=SC2086 # one requirement a line, none with spaces
  .venv/bin/python -m pip install --quiet $requirements playwright pytest-xdist "schemathesis==4.32.5"
) >"$python_tools_log" 2>&1 &
python_tools=$!
echo "pip is installing them (log: $python_tools_log)"

# One throwaway PostgreSQL server for the whole run (scripts/pg.sh: initdb and pg_ctl on a
# free loopback port, as the user agon-pg when root), stopped at the end however the run
# ends. The Rust tests take a database each on it (AGON_WEB_TEST_PG: they fail, not skip,
# if it does not answer), so do the load example and the browser suite.
step "PostgreSQL for the web game's tests"
if ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null
fi
pg_dir=$(mktemp -d "${TMPDIR:-/tmp}/agon-test-pg.XXXXXX")
trap 'kill "$python_tools" 2>/dev/null || true; scripts/pg.sh stop "$pg_dir"' EXIT
AGON_WEB_TEST_PG=$(scripts/pg.sh start "$pg_dir")
export AGON_WEB_TEST_PG
echo "PostgreSQL at $AGON_WEB_TEST_PG"

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
# `cargo test --workspace`, with agon-web's test programs on six threads: they mostly wait
# (scripts/rust-tests.py says why and what it measured).
python3 scripts/rust-tests.py
# agon-core's one feature beyond the defaults is `serde`, and only tests/serde.rs needs it
# (the rest of its tests ran above, the same code either way).
cargo test -p agon-core --all-features --test serde
# Without the `az` feature an az spec is a clear error (the workspace run has the feature).
cargo test -q -p agon-bots --lib az_spec

step "web game: load script, briefly (every game checked against a replay)"
cargo run -q -p agon-web --example load -- --players 20 --games 1 --think-ms 0 --seconds 120
echo "the same on two servers sharing one PostgreSQL database, and friends split across them"
cargo run -q -p agon-web --example load -- --servers 2 --pg "$AGON_WEB_TEST_PG" --players 20 --games 1 --think-ms 0 --seconds 120
cargo run -q -p agon-web --example load -- --servers 2 --pg "$AGON_WEB_TEST_PG" --friends 10 --think-ms 50 --seconds 10
echo "the lobby: people quick-pairing and bots on the Bot API pair, play and are replayed"
cargo run -q -p agon-web --example load -- --lobby-bots 4 --lobby-people 4 --think-ms 50 --seconds 5 --arrive-ms 500

# `cargo check`: whether each combination compiles is the question (a library links nothing;
# the tests above ran the code).
step "agon-core in every feature combination (no_std without alloc, alloc, std; each with and without serde)"
for features in "" "alloc" "std"; do
  for serde in "" "serde"; do
    echo "agon-core --no-default-features --features '${features}${features:+${serde:+,}}${serde}'"
    cargo check -q -p agon-core --no-default-features --features "${features}${features:+${serde:+,}}${serde}"
  done
done

step "API docs (warnings are errors)"
RUSTDOCFLAGS="-D warnings" cargo doc --workspace --no-deps --all-features

step "Python package"
echo "waiting for the Python tools' install (started at the beginning)"
if ! wait "$python_tools"; then
  cat "$python_tools_log" >&2
  missing "pip could not install the Python tools (its output is above)"
fi
echo "pip: building and installing agon-rules with its test tools and research extras (at $SECONDS s)"
# The test build skips the release profile's thin LTO and single codegen unit (cargo's own
# CARGO_PROFILE_* overrides): minutes less to build on 2 cores; a wheel for users keeps them.
CARGO_PROFILE_RELEASE_LTO=false CARGO_PROFILE_RELEASE_CODEGEN_UNITS=16 \
  .venv/bin/python -m pip install --quiet "./agon-py[${python_extras// /,}]"
# Two pytest-xdist workers: measured on the idle machine, 144 s against 232 s for one.
.venv/bin/python -m pytest -q -n 2 --dist worksteal agon-py/tests
echo "agon.ugi_check on agon-ugi, the project's UGI engine (debug build of the Rust tests), under a clock and under ludii"
.venv/bin/python -m agon.ugi_check --games 1 --tc 2+0.05 target/debug/agon-ugi
.venv/bin/python -m agon.ugi_check --games 1 --rules ludii --tc 2+0.05 target/debug/agon-ugi
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
# Playwright (installed at the start) brings its driver only; the browser is Debian's.
# Two pytest-xdist workers, each with its own server and browser: a page often waits on
# the other side of a game, a clock or a stream, and the other worker uses that time
# (measured on the idle machine: 259 s against 304 s for one).
cargo build -q -p agon-web
.venv/bin/python -m pytest -q -p no:cacheprovider -n 2 --dist worksteal agon-web/tests/browser
echo "the main cases again with the games in PostgreSQL (an abort by the first move's timer too), a friend game across two servers, and their pages failing over when one dies"
AGON_WEB_BROWSER_PG="$AGON_WEB_TEST_PG" .venv/bin/python -m pytest -q -p no:cacheprovider -n 2 --dist worksteal agon-web/tests/browser \
  -k "start_page or reload_resumes or a_friend_game or third_browser or clock_runs_out or abort_by_button or resume_after_a_server_restart or fail_over"

step "web API fuzzed by Schemathesis from its OpenAPI document (agon-web/tests/schemathesis)"
cargo build -q -p agon-web
MAX_TIME=60 bash agon-web/tests/schemathesis/run.sh
echo "again with the default rate limits, as a public server runs"
LIMITS=default MAX_TIME=20 bash agon-web/tests/schemathesis/run.sh

step "the sample deployment run: nginx and Caddy in front of two servers on PostgreSQL (agon-web/deploy/try.sh)"
bash agon-web/deploy/try.sh target/debug/agon-web

step "fuzz smoke run"
# 3 s a target: CI has 30 minutes for the whole run (the fuzz targets run longer by hand).
SMOKE_SECONDS=3 bash fuzz/smoke.sh
step "done"
