#!/usr/bin/env bash
# A throwaway PostgreSQL server for the tests, the browser suite and the load example.
#
#   scripts/pg.sh start DIR [PID]   starts one in DIR (created), prints its URL
#   scripts/pg.sh restart DIR [S]   stops it (fast: sessions are ended) and starts it again
#                                   on the same port, S seconds later (default 0)
#   scripts/pg.sh stop DIR          stops it and deletes DIR
#
# initdb and pg_ctl of Debian's postgresql package (/usr/lib/postgresql/*/bin, the newest);
# the server listens on 127.0.0.1 on a free port only, trusts local connections (user
# `agon`, database `postgres`) and runs without fsync (a test server: nothing in it
# outlives the run). PostgreSQL refuses to run as root: as root it runs as the system
# user `agon-pg` (created if missing). With PID, a watcher stops it once that process
# has ended (a test binary that cannot stop it itself).
set -euo pipefail

usage() { echo "usage: scripts/pg.sh start DIR [PID] | restart DIR [SECONDS] | stop DIR" >&2; exit 2; }
[ $# -ge 2 ] || usage
cmd=$1
dir=$2
bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)
if [ -z "$bin" ] || [ ! -x "$bin/initdb" ]; then
  echo "scripts/pg.sh: no PostgreSQL under /usr/lib/postgresql/*/bin (apt-get install postgresql)" >&2
  exit 1
fi

as_pg() {
  if [ "$(id -u)" = 0 ]; then runuser -u agon-pg -- "$@"; else "$@"; fi
}

# Starts the server of data directory $1 on port $2.
pg_start() {
  as_pg "$bin/pg_ctl" -D "$1/data" -l "$1/server.log" -w -t 60 \
    -o "-c listen_addresses=127.0.0.1 -p $2 -k $1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=300" \
    start >/dev/null
}

case $cmd in
  start)
    mkdir -p "$dir"
    dir=$(cd "$dir" && pwd)
    data="$dir/pg"
    if [ "$(id -u)" = 0 ]; then
      id -u agon-pg >/dev/null 2>&1 ||
        useradd --system --no-create-home --shell /usr/sbin/nologin agon-pg
      # The user must reach its directory: the parents may be private to root.
      chmod 755 "$dir"
      if ! runuser -u agon-pg -- test -x "$dir"; then
        # A parent private to root (mktemp -d makes one): say which, rather than let
        # initdb fail with "permission denied" further down.
        p=$dir
        while [ "$p" != / ]; do
          p=$(dirname "$p")
          runuser -u agon-pg -- test -x "$p" || blocked=$p
        done
        echo "scripts/pg.sh: the user agon-pg cannot reach $dir: ${blocked:-a parent} is private (chmod 755 it, or start under a directory others can enter)" >&2
        exit 1
      fi
      mkdir -p "$data"
      chown agon-pg "$data"
    else
      mkdir -p "$data"
    fi
    chmod 700 "$data"
    as_pg "$bin/initdb" -D "$data/data" -U agon --auth=trust -E UTF8 --no-sync >"$dir/initdb.log" 2>&1 ||
      { cat "$dir/initdb.log" >&2; exit 1; }
    # A free port: bound by the kernel, released, then taken by the server (retried if
    # another process takes it first).
    for _ in 1 2 3 4 5; do
      port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
      if pg_start "$data" "$port"; then
        echo "$port" >"$dir/port"
        if [ $# -ge 3 ]; then
          watched=$3
          nohup bash -c "while kill -0 $watched 2>/dev/null; do sleep 1; done; '$0' stop '$dir'" \
            >/dev/null 2>&1 &
        fi
        echo "postgres://agon@127.0.0.1:$port/postgres"
        exit 0
      fi
    done
    cat "$data/server.log" >&2
    exit 1
    ;;
  restart)
    [ -f "$dir/port" ] || { echo "scripts/pg.sh: no server started in $dir" >&2; exit 1; }
    as_pg "$bin/pg_ctl" -D "$dir/pg/data" -m fast -w stop >/dev/null
    sleep "${3:-0}"
    pg_start "$dir/pg" "$(cat "$dir/port")"
    ;;
  stop)
    if [ -d "$dir/pg/data" ]; then
      as_pg "$bin/pg_ctl" -D "$dir/pg/data" -m fast -w stop >/dev/null 2>&1 || true
    fi
    rm -rf "$dir"
    ;;
  *) usage ;;
esac
