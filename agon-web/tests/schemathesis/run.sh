#!/usr/bin/env bash
# Schemathesis against a real agon-web: the server binary on a free loopback port with a
# temporary database, fuzzed from its own document (GET /api/openapi.json) with every
# default check and the stateful phase (the document's links: create a game, then drive
# it with its id and token). Bounded: MAX_EXAMPLES cases an operation and MAX_TIME seconds
# in all. Prints how many requests it sent and how many operations it covered; exits
# non-zero on any failure.
#
#   agon-web/tests/schemathesis/run.sh            (after cargo build -p agon-web and
#                                                  pip install schemathesis into .venv)
#
# The rate limits are off (--create-limit off ...): Schemathesis sends thousands of
# requests from one address, and a 429 would only hide what it tests (the 429s are in the
# document; tests/limits.rs tests them). LIMITS=default runs it once more as a public
# server runs, with the default limits: then the 429s are the answers it checks.
# It acts as a person signed in, from the site, and the Bot API as a bot
# (schemathesis.toml's headers): the accounts are made in the server's database by the
# example fuzz_accounts (a passkey's ceremony needs an authenticator), so that the
# account's, the lobby's and the bots' operations are tested past their 401 and 403.
# GET /api/games/{id}/events, GET /api/lobby/events and the Bot API's two streams are
# left out: each is an endless Server-Sent Events stream, which Schemathesis cannot read
# to its end (tests/live.rs, tests/lobby.rs and tests/bots.rs test them).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../../.." && pwd)"
st="${SCHEMATHESIS:-$root/.venv/bin/schemathesis}"
python="${PYTHON:-$root/.venv/bin/python}"
server="${AGON_WEB:-$root/target/debug/agon-web}"
max_examples="${MAX_EXAMPLES:-20}"
max_time="${MAX_TIME:-90}"
limits=(--create-limit off --create-global off --action-limit off --action-global off
  --seeks-per-player off --seeks-per-address off)
[ "${LIMITS:-off}" = default ] && limits=()

work="$(mktemp -d)"
pid=""
cleanup() {
  if [ -n "$pid" ]; then kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT

# Port 0: the system picks a free port, which the server prints.
"$server" --addr 127.0.0.1:0 --db "$work/games.sqlite3" --workers 2 ${limits[@]+"${limits[@]}"} \
  >"$work/server.log" 2>&1 &
pid=$!
base=""
for _ in $(seq 100); do
  base="$(sed -n 's|^agon-web: listening on \([0-9.:]*\): .*|http://\1|p' "$work/server.log")"
  [ -n "$base" ] && break
  kill -0 "$pid" 2>/dev/null || { cat "$work/server.log" >&2; exit 1; }
  sleep 0.1
done
[ -n "$base" ] || { echo "the server did not start" >&2; cat "$work/server.log" >&2; exit 1; }
echo "agon-web at $base (rate limits ${LIMITS:-off}); Schemathesis: $max_examples examples an operation, $max_time s"

accounts="${AGON_FUZZ_ACCOUNTS:-$root/target/debug/examples/fuzz_accounts}"
[ -x "$accounts" ] || (cd "$root" && cargo build -q -p agon-web --example fuzz_accounts)
"$accounts" --db "$work/games.sqlite3" --url "$base" >"$work/accounts.env"
while IFS='=' read -r name value; do
  export "$name=$value"
done <"$work/accounts.env"
export AGON_FUZZ_ORIGIN="${base/127.0.0.1/localhost}"

# In the work folder: Hypothesis keeps its example database in the current folder.
status=0
(cd "$work" && "$st" --config-file "$here/schemathesis.toml" --no-color run \
  "$base/api/openapi.json" \
  --exclude-operation-id events \
  --exclude-operation-id lobby_events \
  --exclude-operation-id bot_events \
  --exclude-operation-id bot_game_events \
  --max-examples "$max_examples" --max-time "$max_time" \
  --report ndjson --report-ndjson-path "$work/events.ndjson") || status=$?

"$python" "$here/figures.py" "$work/events.ndjson" "$base/api/openapi.json"
if ! kill -0 "$pid" 2>/dev/null; then
  echo "the server died during the run:" >&2
  cat "$work/server.log" >&2
  status=1
fi
exit "$status"
