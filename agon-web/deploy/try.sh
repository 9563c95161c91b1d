#!/usr/bin/env bash
# Runs the sample deployment of this directory on this machine, loopback only, and checks
# that it does what agon-web/README.md says it does ("The deployment", "Failover").
#
#   agon-web/deploy/try.sh [PATH-TO-agon-web]
#
# Starts a throwaway PostgreSQL (scripts/pg.sh), two agon-web servers with the environment
# of agon-web.env (its AGON_WEB_* lines, as systemd's EnvironmentFile= reads them; only the
# address and the database given on the command line), then, one after the other, nginx
# with nginx.conf and Caddy with the Caddyfile in front of them, each as a child process
# on free loopback ports with a self-signed certificate. The proxies' configurations are
# the shipped files with only these changed (sed, printed at the start of each round):
# the upstream addresses (two loopback ports), the listening addresses and ports
# (loopback, free ports; no IPv6 listener), the certificate paths (nginx) or a `tls`
# line naming them (Caddy, which would fetch a certificate by ACME), and the monitoring
# network allowed to read /metrics: 10.0.0.0/8 becomes 127.0.0.4/32, so that both sides
# of the rule can be tried from loopback. The server name stays agon.example.org (curl
# --resolve). nginx.conf is an http-block file (conf.d/): a minimal nginx.conf around it
# adds only the pid, log and temporary paths. Caddy gets global options before it: its
# ports, loopback binding, storage, a debug log (where a retried upstream shows) and no
# admin endpoint.
#
# The systemd unit is only read (systemd-analyze verify, with ExecStart and EnvironmentFile
# pointed at the binary and agon-web.env), not run.
#
# Per proxy, one line PASS or FAIL per check; the exit status is 1 if any failed. Needs
# curl, openssl, python3 and PostgreSQL (scripts/pg.sh); nginx and caddy are installed
# with apt-get when missing (as root; otherwise it says what to install). Everything it
# starts is stopped on exit, and its temporary directory deleted (kept, with the servers'
# and proxies' logs and the configurations as run, with AGON_TRY_KEEP=1).
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
name=agon.example.org

die() { echo "try.sh: $*" >&2; exit 2; }

# --- The binary -----------------------------------------------------------------------
bin=${1:-}
if [ -z "$bin" ]; then
  target=${CARGO_TARGET_DIR:-$root/target}
  for candidate in "$target/debug/agon-web" "$target/release/agon-web"; do
    # The newer of the two builds.
    if [ -x "$candidate" ] && { [ -z "$bin" ] || [ "$candidate" -nt "$bin" ]; }; then
      bin=$candidate
    fi
  done
  [ -n "$bin" ] || die "no agon-web binary under $target: cargo build -p agon-web, or give its path"
fi
[ -x "$bin" ] || die "not an executable: $bin"
bin="$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin")"

# --- The tools ------------------------------------------------------------------------
for tool in curl openssl python3; do
  command -v "$tool" >/dev/null || die "needs $tool"
done
# A fresh machine may have no package lists yet: apt would know of neither package.
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null &&
  ! { command -v nginx >/dev/null && command -v caddy >/dev/null; } &&
  ! ls /var/lib/apt/lists/*_Packages >/dev/null 2>&1; then
  apt-get update -qq
fi
missing=()
command -v nginx >/dev/null || [ -x /usr/sbin/nginx ] || missing+=(nginx)
# Caddy only if it is installed or apt has it (Debian 12 has 2.6; older Ubuntus do not).
with_caddy=1
if ! command -v caddy >/dev/null; then
  if command -v apt-cache >/dev/null && apt-cache policy caddy 2>/dev/null | grep -q 'Candidate: [0-9]'; then
    missing+=(caddy)
  else
    with_caddy=
  fi
fi
if [ ${#missing[@]} -gt 0 ]; then
  if [ "$(id -u)" != 0 ]; then
    die "needs ${missing[*]}: run as root to install with apt-get, or apt-get install ${missing[*]}"
  fi
  command -v apt-get >/dev/null || die "needs ${missing[*]} (no apt-get here to install them)"
  echo "installing ${missing[*]} (apt-get)"
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null ||
    die "apt-get install ${missing[*]} failed"
fi
nginx_bin=$(command -v nginx || echo /usr/sbin/nginx)

# --- Cleanup: everything started here, by its process id --------------------------------
tmp=$(mktemp -d /tmp/agon-deploy.XXXXXX)
pids=()
pg_started=
cleanup() {
  local pid
  for pid in "${pids[@]}"; do
    kill "$pid" 2>/dev/null || true
  done
  for pid in "${pids[@]}"; do
    wait "$pid" 2>/dev/null || true
  done
  [ -z "$pg_started" ] || "$root/scripts/pg.sh" stop "$tmp/pg" || true
  if [ -n "${AGON_TRY_KEEP:-}" ]; then
    echo "try.sh: the logs and configurations are kept in $tmp" >&2
  else
    rm -rf "$tmp"
  fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM
# PostgreSQL (as root, its own user) and nginx's workers must reach their files in here.
chmod 755 "$tmp"

free_port() {
  python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# --- Checks ---------------------------------------------------------------------------
failures=0
round=
pass() { echo "PASS  $round: $*"; }
fail() { echo "FAIL  $round: $*"; failures=$((failures + 1)); }
check() { # check CONDITION-EXIT-STATUS TEXT
  if [ "$1" = 0 ]; then pass "$2"; else fail "$2"; fi
}

# A JSON value on stdin by its path (`state.legal_moves.0`).
jget() {
  python3 -c 'import json, sys
d = json.load(sys.stdin)
for k in sys.argv[1].split("."):
    d = d[int(k)] if isinstance(d, list) else d[k]
print(d)' "$1"
}

now_ms() { date +%s%3N; }

# Waits up to $2 seconds for an SSE event with id $3 in file $1 (the output of curl -N).
wait_event() {
  local file=$1 seconds=$2 id=$3 deadline
  deadline=$(($(now_ms) + seconds * 1000))
  while [ "$(now_ms)" -lt "$deadline" ]; do
    grep -qE "^id: ?$id\$" "$file" 2>/dev/null && return 0
    sleep 0.05
  done
  return 1
}
event_ids() { grep -oE '^id: ?[0-9]+' "$1" | grep -oE '[0-9]+' | tr '\n' ' ' || true; }

# --- The certificate --------------------------------------------------------------------
openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj "/CN=$name" \
  -addext "subjectAltName=DNS:$name" \
  -keyout "$tmp/privkey.pem" -out "$tmp/fullchain.pem" 2>/dev/null
chmod 600 "$tmp/privkey.pem"

# --- PostgreSQL and two servers ------------------------------------------------------------
db=$("$root/scripts/pg.sh" start "$tmp/pg")
pg_started=1

# The sample environment, read as systemd reads a simple EnvironmentFile.
env_args=()
while IFS= read -r line; do
  case $line in
    AGON_WEB_*=*) env_args+=("$line") ;;
  esac
done <"$here/agon-web.env"

ports=("$(free_port)" "$(free_port)")
server_pids=(0 0)
start_server() { # start_server INDEX
  local i=$1
  env "${env_args[@]}" "$bin" --addr "127.0.0.1:${ports[$i]}" --db "$db" --trust-proxy \
    >>"$tmp/server$i.log" 2>&1 &
  server_pids[i]=$!
  pids+=($!)
  for _ in $(seq 1 100); do
    curl -sf "http://127.0.0.1:${ports[$i]}/api/health" >/dev/null 2>&1 && return 0
    kill -0 "${server_pids[$i]}" 2>/dev/null || break
    sleep 0.2
  done
  cat "$tmp/server$i.log" >&2
  die "agon-web server $i did not start on 127.0.0.1:${ports[$i]}"
}
start_server 0
start_server 1
echo "agon-web: $bin on 127.0.0.1:${ports[0]} and 127.0.0.1:${ports[1]} (environment of agon-web.env), $db"

# --- One round: a proxy in front, every check --------------------------------------------
# The round's proxy: its name, its HTTPS and HTTP ports, the log where it reports failed
# connections to a server.
proxy=
https=
http=
proxy_log=
# The round's access log (the sample's, moved to the temporary directory).
access_log=
api() { # api [CURL-OPTION VALUE...] METHOD PATH [BODY]: prints the body, then the status on a line
  local extra=()
  # Options before the method, each with its value (--interface ADDR, -H HEADER).
  while [ $# -gt 2 ] && [ "${1#-}" != "$1" ]; do extra+=("$1" "$2"); shift 2; done
  local method=$1 path=$2 body=${3:-}
  local args=(-sk --http2 --resolve "$name:$https:127.0.0.1" -X "$method" -w '\n%{http_code}' --max-time 10)
  [ -z "$body" ] || args+=(-H 'Content-Type: application/json' --data "$body")
  curl "${args[@]}" "${extra[@]}" "https://$name:$https$path" || echo "000"
}
status_of() { tail -n 1 <<<"$1"; }
body_of() { sed '$d' <<<"$1"; }

# open_stream FILE PATH [CURL-OPTION VALUE...]: an event stream through the proxy, written
# to FILE by curl -N in the background; its pid in $stream_pid.
stream_pid=
open_stream() {
  local file=$1 path=$2
  shift 2
  curl -skN --http2 --resolve "$name:$https:127.0.0.1" "$@" "https://$name:$https$path" \
    >"$file" 2>/dev/null &
  stream_pid=$!
  pids+=("$stream_pid")
}

# play GAME TOKEN: the first legal move of the token's seat through the proxy; prints the
# answer's status and the move.
play() {
  local out move
  out=$(api GET "/api/games/$1")
  move=$(body_of "$out" | jget legal_moves.0 2>/dev/null || echo none)
  out=$(api POST "/api/games/$1/moves" "{\"token\": \"$2\", \"move\": \"$move\"}")
  echo "$(status_of "$out") $move"
}

run_checks() { # run_checks CLIENT-A CLIENT-B: two loopback addresses of their own
  local a=$1 b=$2 out status r

  for _ in $(seq 1 50); do
    curl -sk --resolve "$name:$https:127.0.0.1" -o /dev/null "https://$name:$https/api/health" && break
    sleep 0.1
  done
  # The proxy answers over HTTPS, HTTP/2, and sends plain HTTP to HTTPS.
  out=$(api GET /api/health)
  [ "$(status_of "$out")" = 200 ] && r=0 || r=1
  check $r "GET /api/health through the proxy over HTTPS: $(status_of "$out")"
  out=$(curl -sk --resolve "$name:$https:127.0.0.1" -o /dev/null -w '%{http_version}' \
    "https://$name:$https/api/health" || true)
  [ "$out" = 2 ] && r=0 || r=1
  check $r "HTTP/2 to the client (negotiated: HTTP/$out)"
  out=$(curl -s --resolve "$name:$http:127.0.0.1" -o /dev/null -w '%{http_code} %{redirect_url}' \
    "http://$name:$http/g/abc" || true)
  [[ $out =~ ^30[178]\ https://$name(:[0-9]+)?/g/abc$ ]] && r=0 || r=1
  check $r "plain HTTP redirected to HTTPS ($out)"

  # A friend game through the proxy, its event stream, a move arriving on it.
  out=$(api POST /api/games '{"side": "white", "opponent": "friend", "name": "Ada"}')
  status=$(status_of "$out")
  local id white black
  id=$(body_of "$out" | jget id 2>/dev/null || true)
  white=$(body_of "$out" | jget token 2>/dev/null || true)
  [ "$status" = 201 ] && [ -n "$id" ] && r=0 || r=1
  check $r "friend game created: $status $id"
  out=$(api POST "/api/games/$id/join" '{"name": "Bob"}')
  status=$(status_of "$out")
  black=$(body_of "$out" | jget token 2>/dev/null || true)
  [ "$status" = 200 ] && [ -n "$black" ] && r=0 || r=1
  check $r "friend game joined: $status"
  local version
  version=$(body_of "$out" | jget state.version 2>/dev/null || echo 1)

  local stream=$tmp/$proxy-stream1.txt
  # Black's seat by its cookie (POST .../seat), never by a token in the stream's address.
  local seat_answer
  seat_answer=$(api POST "/api/games/$id/seat" "{\"token\": \"$black\"}")
  [ "$(status_of "$seat_answer")" = 200 ] && r=0 || r=1
  check $r "seat cookie asked through the proxy: $(status_of "$seat_answer")"
  open_stream "$stream" "/api/games/$id/events" -H "Cookie: agon_seat_black=$black"
  local first_pid=$stream_pid
  wait_event "$stream" 5 "$version" && r=0 || r=1
  check $r "event stream opened through the proxy: the current state (id $version) at once"

  local move t0 elapsed
  move=$(body_of "$out" | jget state.legal_moves.0 2>/dev/null || echo none)
  t0=$(now_ms)
  out=$(api POST "/api/games/$id/moves" "{\"token\": \"$white\", \"move\": \"$move\"}")
  version=$((version + 1))
  if [ "$(status_of "$out")" = 200 ] && wait_event "$stream" 2 "$version"; then
    elapsed=$(($(now_ms) - t0))
    pass "a move ($move) made through the proxy arrived on the stream in $elapsed ms (within 2 s: not buffered)"
  else
    fail "a move ($move) through the proxy: $(status_of "$out"); on the stream within 2 s: ids $(event_ids "$stream")"
  fi

  # /metrics: closed to all but the monitoring network (127.0.0.4 stands for it).
  status=$(status_of "$(api --interface "$a" GET /metrics)")
  [ "$status" = 403 ] && r=0 || r=1
  check $r "/metrics from $a (outside the allowed network): $status (403 expected)"
  out=$(api --interface 127.0.0.4 GET /metrics)
  [ "$(status_of "$out")" = 200 ] && grep -q '^agon_http_requests_total' <<<"$out" && r=0 || r=1
  check $r "/metrics from 127.0.0.4 (the allowed network): $(status_of "$out") with the counters"

  # A body over the limits (nginx: 16k; agon-web: 4 KiB): 413, from the proxy or the server.
  out=$(api POST /api/games "{\"name\": \"$(head -c 20000 /dev/zero | tr '\0' x)\"}")
  status=$(status_of "$out")
  local by=$proxy
  grep -q body-too-large <<<"$out" && by=agon-web
  [ "$status" = 413 ] && r=0 || r=1
  check $r "a 20 kB body refused: $status by $by (413 expected)"

  # The client the servers see: the proxy's X-Forwarded-For, not the proxy's own address.
  # Client A creates games until refused (agon-web.env: 10 at once per client and server,
  # two servers); client B, behind the same proxy, is not refused; client A naming
  # another address in its own X-Forwarded-For is still refused (the proxy appends the
  # real one, and the server takes the last).
  local n=0 refused=
  for n in $(seq 1 30); do
    status=$(status_of "$(api --interface "$a" POST /api/games '{"side": "white", "opponent": "friend"}')")
    [ "$status" = 201 ] || { refused=$status; break; }
  done
  [ "$refused" = 429 ] && [ "$n" -gt 10 ] && [ "$n" -le 21 ] && r=0 || r=1
  check $r "client $a refused after its burst: $((n - 1)) games created, then $refused (429 expected after 10 to 20)"
  status=$(status_of "$(api --interface "$b" POST /api/games '{"side": "white", "opponent": "friend"}')")
  [ "$status" = 201 ] && r=0 || r=1
  check $r "client $b through the same proxy not refused: $status (the server keys on X-Forwarded-For, not the proxy's address)"
  status=$(status_of "$(api --interface "$a" -H 'X-Forwarded-For: 198.51.100.7' POST /api/games '{"side": "white", "opponent": "friend"}')")
  [ "$status" = 429 ] && r=0 || r=1
  check $r "client $a with a forged X-Forwarded-For still refused: $status (the last address, the proxy's, counts)"

  # Failover: one server killed; requests through the proxy still succeed.
  local last_seen=$version
  kill -KILL "${server_pids[0]}"
  wait "${server_pids[0]}" 2>/dev/null || true
  local ok=0 total=0 statuses=""
  for _ in 1 2 3; do
    status=$(status_of "$(api GET /api/health)")
    total=$((total + 1)); [ "$status" = 200 ] && ok=$((ok + 1)); statuses+="$status "
    status=$(status_of "$(api GET "/api/games/$id")")
    total=$((total + 1)); [ "$status" = 200 ] && ok=$((ok + 1)); statuses+="$status "
  done
  local seat=$black
  for _ in 1 2; do
    read -r status move < <(play "$id" "$seat")
    total=$((total + 1)); [ "$status" = 200 ] && ok=$((ok + 1)); statuses+="$status "
    [ "$status" != 200 ] || version=$((version + 1))
    if [ "$seat" = "$black" ]; then seat=$white; else seat=$black; fi
  done
  [ "$ok" = "$total" ] && r=0 || r=1
  check $r "server 0 killed (SIGKILL): $ok of $total requests through the proxy succeeded ($statuses)"
  if [ -n "$proxy_log" ]; then
    grep -q "127.0.0.1:${ports[0]}.*refused\|refused.*127.0.0.1:${ports[0]}" "$proxy_log" && r=0 || r=1
    check $r "the proxy tried the dead server and passed the request on (its log: connection refused by 127.0.0.1:${ports[0]})"
  fi

  # A stream reopened with Last-Event-ID resumes: what was missed at once, then what
  # comes. A second one that missed nothing gets no state at once (so the header went
  # through the proxy: without it the server sends the state whatever the version).
  kill "$first_pid" 2>/dev/null || true
  stream=$tmp/$proxy-stream2.txt
  open_stream "$stream" "/api/games/$id/events" -H "Cookie: agon_seat_black=$black" -H "Last-Event-ID: $last_seen"
  local reopened_pid=$stream_pid
  local current=$tmp/$proxy-stream3.txt
  open_stream "$current" "/api/games/$id/events" -H "Last-Event-ID: $version"
  local current_pid=$stream_pid
  if wait_event "$stream" 3 "$version"; then
    out=$(event_ids "$stream")
    [ "${out%% *}" = "$version" ] && r=0 || r=1
    check $r "stream reopened with Last-Event-ID $last_seen: first event id $version (what was missed), ids: $out"
  else
    fail "stream reopened with Last-Event-ID $last_seen: no event id $version within 3 s (ids: $(event_ids "$stream"))"
  fi
  local deadline=$(($(now_ms) + 3000))
  until grep -q '^event: presence' "$current" 2>/dev/null || [ "$(now_ms)" -gt "$deadline" ]; do
    sleep 0.05
  done
  read -r status move < <(play "$id" "$seat")
  version=$((version + 1))
  [ "$status" = 200 ] && wait_event "$stream" 2 "$version" && r=0 || r=1
  check $r "then the next move ($status) on the reopened stream: ids $(event_ids "$stream")"
  wait_event "$current" 2 "$version" && [ "$(event_ids "$current")" = "$version " ] && r=0 || r=1
  check $r "a stream opened with Last-Event-ID $((version - 1)) (nothing missed): ids $(event_ids "$current")(only $version expected)"
  kill "$current_pid" "$reopened_pid" 2>/dev/null || true
  # A token in a stream's address is refused, and no seat's token is in the access log.
  out=$(curl -s -k --resolve "$name:$https:127.0.0.1" -o /dev/null -w '%{http_code}' \
    "https://$name:$https/api/games/$id/events?token=$black" || true)
  [ "$out" = 400 ] && r=0 || r=1
  check $r "a stream with ?token= refused: $out (400 expected)"
  if [ -n "$access_log" ] && [ -s "$access_log" ]; then
    ! grep -qF -e "$white" -e "$black" "$access_log" && r=0 || r=1
    check $r "no seat token in the access log ($(wc -l <"$access_log") lines, $access_log)"
  else
    fail "no access log written at ${access_log:-(none)}"
  fi
  # The killed server back, for the next round.
  start_server 0
}

# --- nginx -----------------------------------------------------------------------------
nginx_round() {
  round=nginx proxy=nginx https=$(free_port) http=$(free_port)
  mkdir -p "$tmp/nginx/logs"
  sed -e "s/10\.0\.0\.11:8080/127.0.0.1:${ports[0]}/; s/10\.0\.0\.12:8080/127.0.0.1:${ports[1]}/" \
    -e "/listen \[::\]/d" \
    -e "s/listen 80;/listen 127.0.0.1:$http;/; s/listen 443 /listen 127.0.0.1:$https /" \
    -e "s#/etc/letsencrypt/live/$name/#$tmp/#" \
    -e "s#allow 10\.0\.0\.0/8;#allow 127.0.0.4/32;#" \
    -e "s#/var/log/nginx/#$tmp/nginx/logs/#" \
    "$here/nginx.conf" >"$tmp/nginx/agon-web.conf"
  access_log=$tmp/nginx/logs/agon-web.access.log
  cat >"$tmp/nginx/nginx.conf" <<EOF
# Around the sample (an http-block file of conf.d/): only where nginx keeps its files.
pid $tmp/nginx/nginx.pid;
error_log $tmp/nginx/logs/error.log;
worker_processes 1;
events { worker_connections 256; }
http {
    access_log $tmp/nginx/logs/access.log;
    client_body_temp_path $tmp/nginx/body;
    proxy_temp_path $tmp/nginx/proxy;
    fastcgi_temp_path $tmp/nginx/fastcgi;
    uwsgi_temp_path $tmp/nginx/uwsgi;
    scgi_temp_path $tmp/nginx/scgi;
    include $tmp/nginx/agon-web.conf;
}
EOF
  echo "nginx $("$nginx_bin" -v 2>&1 | sed 's/.*nginx\///'): nginx.conf with these changes:"
  diff "$here/nginx.conf" "$tmp/nginx/agon-web.conf" | sed -n 's/^[<>] */    &/p' || true
  local args=(-p "$tmp/nginx" -e "$tmp/nginx/logs/error.log" -c "$tmp/nginx/nginx.conf")
  if ! "$nginx_bin" "${args[@]}" -t >"$tmp/nginx/test.log" 2>&1; then
    fail "nginx -t refuses the sample: $(grep -E 'emerg|error' "$tmp/nginx/test.log" | head -n 3)"
    return
  fi
  pass "nginx -t accepts the sample"
  "$nginx_bin" "${args[@]}" -g 'daemon off;' >>"$tmp/nginx/logs/error.log" 2>&1 &
  local pid=$!
  pids+=("$pid")
  proxy_log=$tmp/nginx/logs/error.log
  run_checks 127.0.0.2 127.0.0.3
  # TERM: a fast stop (QUIT would wait for the open event streams).
  kill -TERM "$pid" 2>/dev/null || true
  wait "$pid" 2>/dev/null || true
}

# --- Caddy -----------------------------------------------------------------------------
caddy_round() {
  round=caddy proxy=caddy https=$(free_port) http=$(free_port)
  if [ -z "$with_caddy" ]; then
    echo "SKIP  caddy: no caddy installed and no caddy package in apt"
    return
  fi
  mkdir -p "$tmp/caddy"
  {
    cat <<EOF
# Before the sample: ports, loopback, storage, a debug log, no admin endpoint.
{
	admin off
	http_port $http
	https_port $https
	default_bind 127.0.0.1
	storage file_system $tmp/caddy/storage
	log {
		output file $tmp/caddy/caddy.log
		level DEBUG
	}
}
EOF
    sed -e "s/10\.0\.0\.11:8080/127.0.0.1:${ports[0]}/; s/10\.0\.0\.12:8080/127.0.0.1:${ports[1]}/" \
      -e "s#remote_ip 10\.0\.0\.0/8#remote_ip 127.0.0.4/32#" \
      -e "s#^$name {#$name {\n\ttls $tmp/fullchain.pem $tmp/privkey.pem#" \
      -e "s#/var/log/caddy/#$tmp/caddy/#" \
      "$here/Caddyfile"
  } >"$tmp/caddy/Caddyfile"
  access_log=$tmp/caddy/agon-web.access.log
  echo "caddy $(caddy version 2>/dev/null | cut -d' ' -f1): Caddyfile with these changes:"
  diff "$here/Caddyfile" "$tmp/caddy/Caddyfile" | sed -n 's/^[<>] */    &/p' || true
  local args=(--config "$tmp/caddy/Caddyfile" --adapter caddyfile)
  if ! XDG_DATA_HOME=$tmp/caddy XDG_CONFIG_HOME=$tmp/caddy \
    caddy validate "${args[@]}" >"$tmp/caddy/validate.log" 2>&1; then
    fail "caddy validate refuses the sample: $(grep -iE 'error' "$tmp/caddy/validate.log" | head -n 3)"
    return
  fi
  pass "caddy validate accepts the sample"
  XDG_DATA_HOME=$tmp/caddy XDG_CONFIG_HOME=$tmp/caddy caddy run "${args[@]}" >"$tmp/caddy/run.log" 2>&1 &
  local pid=$!
  pids+=("$pid")
  proxy_log=$tmp/caddy/caddy.log
  run_checks 127.0.0.5 127.0.0.6
  kill -TERM "$pid" 2>/dev/null || true
  wait "$pid" 2>/dev/null || true
}

# --- The systemd unit: read, not run (no systemd to run it under here) ----------------------
unit_round() {
  round=systemd
  if ! command -v systemd-analyze >/dev/null; then
    echo "SKIP  systemd: no systemd-analyze"
    return
  fi
  sed -e "s#^ExecStart=/usr/local/bin/agon-web#ExecStart=$bin#" \
    -e "s#^EnvironmentFile=/etc/agon-web.env#EnvironmentFile=$here/agon-web.env#" \
    "$here/agon-web.service" >"$tmp/agon-web.service"
  local out r
  # It exits 0 on unknown keys and bad values too; they are printed.
  out=$(systemd-analyze verify "$tmp/agon-web.service" 2>&1) && [ -z "$out" ] && r=0 || r=1
  check $r "systemd-analyze verify: agon-web.service (ExecStart and EnvironmentFile pointed at the binary and the sample) ${out:-without a warning}"
}

unit_round
nginx_round
caddy_round
if [ "$failures" -gt 0 ]; then
  echo "try.sh: $failures check(s) FAILED"
  exit 1
fi
echo "try.sh: every check passed"
