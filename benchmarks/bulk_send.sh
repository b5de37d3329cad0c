#!/usr/bin/env bash
# Status reads while a bulk send runs (DESIGN 23): the p50 and p99 of GET .../status over wrk with
# no job, then with a job of ROWS rows running at the default --bulk-rate (50 rows a second), and
# the job's own pace. A bulk send must leave the service's usual latency to everyone else.
#   benchmarks/bulk_send.sh [seconds per workload, default 10] [connections, default 64]
# Environment: ROWS (default 2000), BUILD_DIR (default build/release), PORT (default 18090).
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD_DIR=${BUILD_DIR:-$ROOT/build/release}
DURATION=${1:-10}
CONNECTIONS=${2:-64}
ROWS=${ROWS:-2000}
PORT=${PORT:-18090}
WORK=$(mktemp -d /tmp/contract-bulk.XXXXXX)
source "$ROOT/benchmarks/service.sh"
start_contractd
TOKEN=$(machine_token org_bulk contracts:read,contracts:create,contracts:send)
export TOKEN

# The contracts whose status is read: 200 drafts of the example NDA.
for _ in $(seq 200); do
  curl -sf -X POST "$BASE/api/v1/contracts" -H "Authorization: Bearer $TOKEN" \
    -H 'Content-Type: application/json' --data-binary @"$ROOT/examples/requests/create-nda.json" |
    sed -E 's/^\{"id":"([^"]+)".*/\1/'
done >"$WORK/ids"
export IDS="$WORK/ids"

status() {
  local out
  out=$(wrk -t1 -c"$CONNECTIONS" -d"${DURATION}s" --latency -s "$WRK_DIR/status.lua" "$BASE")
  printf '%-28s %10s req/s   p50 %8s   p99 %8s\n' "$1" \
    "$(echo "$out" | awk '/Requests\/sec/ {print $2}')" \
    "$(echo "$out" | awk '$1 == "50%" {print $2}')" "$(echo "$out" | awk '$1 == "99%" {print $2}')"
}

# ROWS rows of the example NDA, each to other addresses.
python3 - "$ROOT/examples/requests/create-nda.json" "$ROWS" >"$WORK/job.json" <<'PY'
import json, sys
nda = json.load(open(sys.argv[1]))
rows = []
for n in range(int(sys.argv[2])):
    participants = json.loads(json.dumps(nda["participants"]))
    for p in participants:
        p["email"] = p["email"].replace("@", f"+{n}@")
    rows.append({"title": f"Bulk {n}", "data": nda["data"], "participants": participants})
print(json.dumps({"templateId": nda["templateId"], "rows": rows}))
PY

echo "bulk send: status reads for ${DURATION}s, $CONNECTIONS connections, a job of $ROWS rows, $(nproc) cores shared"
status "status, no job"
JOB=$(curl -sf -X POST "$BASE/api/v1/bulk-sends" -H "Authorization: Bearer $TOKEN" \
  -H 'Content-Type: application/json' --data-binary @"$WORK/job.json" |
  sed -E 's/^\{"id":"([^"]+)".*/\1/')
STARTED=$(date +%s.%N)
sleep 2  # past the first rows
status "status, a bulk send running"
job() { curl -sf "$BASE/api/v1/bulk-sends/$JOB" -H "Authorization: Bearer $TOKEN"; }
echo "job after the reads: $(job | sed -E 's/.*"counts":(\{[^}]*\}).*/\1/')"
while ! job | grep -q '"state":"completed"'; do sleep 1; done
ENDED=$(date +%s.%N)
echo "bulk send: $ROWS rows in $(awk -v a="$STARTED" -v b="$ENDED" 'BEGIN {printf "%.1f", b - a}') s ($(awk -v a="$STARTED" -v b="$ENDED" -v n="$ROWS" 'BEGIN {printf "%.1f", n / (b - a)}') rows/s at --bulk-rate 50)"
