#!/usr/bin/env bash
# HTTP load on a Release contractd with a fresh data directory, driven by wrk over loopback.
# Prints requests/s and latency percentiles for: create contract, get status, list (filtered),
# send, and the status of a completed contract live and as of its last event (?asOf=, rebuilt
# from the log on every request). Usage: benchmarks/load.sh [seconds per workload, default 10] [connections, default 64]
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD_DIR=${BUILD_DIR:-$ROOT/build/release}
DURATION=${1:-10}
CONNECTIONS=${2:-64}
THREADS=${WRK_THREADS:-1}
PORT=${PORT:-18080}
WORK=$(mktemp -d /tmp/contract-load.XXXXXX)
source "$ROOT/benchmarks/service.sh"
start_contractd
TOKEN=$(machine_token org_load \
  contracts:read,contracts:create,contracts:update,contracts:send,templates:read,signing:manage)
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
# A real status answer and list page, for a reference server that returns the same bytes
# (benchmarks/compare.sh).
if [ -n "${STATUS_SAMPLE:-}" ]; then
  curl -sf "http://127.0.0.1:$PORT/api/v1/contracts/$(head -1 "$IDS")/status" \
    -H "Authorization: Bearer $TOKEN" >"$STATUS_SAMPLE"
fi
if [ -n "${LIST_SAMPLE:-}" ]; then
  curl -sf "http://127.0.0.1:$PORT/api/v1/contracts?status=draft&limit=20" \
    -H "Authorization: Bearer $TOKEN" >"$LIST_SAMPLE"
fi
run "get status" status.lua
run "list filtered" list.lua
run "send" send.lua

# One contract taken to completion: Ada signs through her hosted link, Grace through an
# integrator-managed session.
api() {
  local method=$1 path=$2 body=${3:-}
  curl -sf -X "$method" "http://127.0.0.1:$PORT/api/v1$path" -H "Authorization: Bearer $TOKEN" \
    -H 'Content-Type: application/json' ${body:+-d "$body"}
}
ID=$(head -1 "$IDS")
api POST "/contracts/$ID/send" >/dev/null || true  # the send workload may have sent it already
ADA=$(api GET "/contracts/$ID" | jq -r '.participants[0].participantId')
GRACE=$(api GET "/contracts/$ID" | jq -r '.participants[1].participantId')
LINK=$(api POST "/contracts/$ID/signing-sessions" "{\"participantId\":\"$ADA\"}" | jq -r .url)
curl -sf -X POST "http://127.0.0.1:$PORT/api/v1/hosted-signing/${LINK##*/}/complete" \
  -H 'Content-Type: application/json' -d '{"signatureText":"Ada Lovelace","consent":true}' >/dev/null
SESSION=$(api POST "/contracts/$ID/signing-sessions" "{\"participantId\":\"$GRACE\"}" |
  jq -r .sessionId)
api POST "/signing-sessions/$SESSION/complete" "{\"signerName\":\"Grace Hopper\",
\"signedAt\":\"$(date -u +%FT%TZ)\",\"ipAddress\":\"198.51.100.4\",\"userAgent\":\"load\",
\"authenticationMethod\":\"sso\",\"consent\":true}" >/dev/null
POSITION=$(api GET "/contracts/$ID/evidence/audit-trail" | jq '.events[-1].position')
EVENTS=$(api GET "/contracts/$ID/evidence/audit-trail" | jq '.events | length')
echo "completed $ID: $(api GET "/contracts/$ID/status" | jq -r .status), $EVENTS events, the last at $POSITION" >&2
echo "$ID" >"$WORK/completed"
IDS="$WORK/completed" run "completed live" status.lua
IDS="$WORK/completed" QUERY="?asOf=$POSITION" run "completed asOf" status.lua
# The server's peak resident memory over every workload above (VmHWM).
awk '/^VmHWM/ {printf "contractd peak memory: %.0f MiB\n", $2 / 1024}' "/proc/$SERVER_PID/status"
