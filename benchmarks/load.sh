#!/usr/bin/env bash
# HTTP load on a Release contractd with a fresh data directory, driven by wrk over loopback.
# Prints requests/s and latency percentiles for: create contract, get status, list (filtered),
# send. Usage: benchmarks/load.sh [seconds per workload, default 10] [connections, default 64]
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD_DIR=${BUILD_DIR:-$ROOT/build/release}
DURATION=${1:-10}
CONNECTIONS=${2:-64}
THREADS=${WRK_THREADS:-1}
PORT=${PORT:-18080}
WORK=$(mktemp -d /tmp/contract-load.XXXXXX)
export WRK_DIR="$ROOT/benchmarks/wrk"

command -v wrk >/dev/null || { echo "wrk is not installed (apt-get install wrk)" >&2; exit 2; }
[ -x "$BUILD_DIR/app/contractd" ] || { echo "build first: scripts/dev.sh test" >&2; exit 2; }

cleanup() {
  [ -n "${SERVER_PID:-}" ] && kill "$SERVER_PID" 2>/dev/null && wait "$SERVER_PID" 2>/dev/null
  rm -rf "$WORK"
}
trap cleanup EXIT

"$BUILD_DIR/app/contractd" serve --data-dir "$WORK/data" --listen "127.0.0.1:$PORT" \
  --access-log false --rate-limit 0 >"$WORK/server.out" 2>"$WORK/server.err" &
SERVER_PID=$!
for _ in $(seq 100); do
  curl -sf "http://127.0.0.1:$PORT/readyz" >/dev/null && break
  sleep 0.1
done

CLIENT=$("$BUILD_DIR/app/contractd" clients create --data-dir "$WORK/data" --org org_load \
  --name load --permissions contracts:read,contracts:create,contracts:update,contracts:send,templates:read)
CLIENT_ID=$(echo "$CLIENT" | sed -E 's/.*"clientId":"([^"]+)".*/\1/')
CLIENT_SECRET=$(echo "$CLIENT" | sed -E 's/.*"clientSecret":"([^"]+)".*/\1/')
TOKEN=$(curl -sf -X POST "http://127.0.0.1:$PORT/api/v1/auth/machine-token" \
  -H 'Content-Type: application/json' \
  -d "{\"clientId\":\"$CLIENT_ID\",\"clientSecret\":\"$CLIENT_SECRET\"}" |
  sed -E 's/.*"accessToken":"([^"]+)".*/\1/')
export TOKEN

# wrk --latency prints "50%  1.23ms" lines; pick p50 and p99 and the throughput.
run() {
  local name=$1 script=$2
  local out
  out=$(wrk -t"$THREADS" -c"$CONNECTIONS" -d"${DURATION}s" --latency -s "$WRK_DIR/$script" \
    "http://127.0.0.1:$PORT")
  local rps p50 p99 non2xx
  rps=$(echo "$out" | awk '/Requests\/sec/ {print $2}')
  p50=$(echo "$out" | awk '$1 == "50%" {print $2}')
  p99=$(echo "$out" | awk '$1 == "99%" {print $2}')
  non2xx=$(echo "$out" | awk '/Non-2xx/ {print $NF}')
  printf '%-16s %10s req/s   p50 %8s   p99 %8s   non-2xx %s\n' "$name" "$rps" "$p50" "$p99" \
    "${non2xx:-0}"
}

# Every contract id of the client's organization, newest first, paging through the list.
collect_ids() {
  local cursor="" page
  : >"$WORK/ids"
  while :; do
    page=$(curl -sf -G "http://127.0.0.1:$PORT/api/v1/contracts" -H "Authorization: Bearer $TOKEN" \
      --data-urlencode "status=draft" --data-urlencode "limit=200" \
      ${cursor:+--data-urlencode "cursor=$cursor"})
    echo "$page" | grep -oE '"id":"ctr_[A-Z0-9]+"' | cut -d'"' -f4 >>"$WORK/ids"
    cursor=$(echo "$page" | grep -oE '"nextCursor":"[^"]+"' | cut -d'"' -f4 || true)
    [ -n "$cursor" ] || break
  done
}

echo "contractd load: ${DURATION}s per workload, $CONNECTIONS connections, $THREADS wrk thread(s), $(nproc) cores shared"
run "create" create.lua
collect_ids
export IDS="$WORK/ids"
echo "drafts: $(wc -l <"$IDS")" >&2
run "get status" status.lua
run "list filtered" list.lua
run "send" send.lua
