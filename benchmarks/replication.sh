#!/usr/bin/env bash
# The cost of the replicated log, measured from outside: creates over HTTP (wrk, the create.lua
# workload of load.sh) on a contractd whose log is replicated through a three-broker cluster
# (kafka-mock-cluster, a process of its own), beside the same contractd with its log on the local
# disk alone and its relay on the same cluster; then the failover: the writer SIGKILLed under that
# load, its standby promoted, and the time from the kill to the first acknowledged create.
# Usage: benchmarks/replication.sh [seconds, default 10] [connections, default 64]
# Prints "create local", "create replicated" (req/s, p50, p99) and "failover ... ms".
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD_DIR=${BUILD_DIR:-$ROOT/build/release}
DURATION=${1:-10}
CONNECTIONS=${2:-64}
PORT=${PORT:-18090}
WORK=$(mktemp -d /tmp/contract-replication.XXXXXX)
export WRK_DIR="$ROOT/benchmarks/wrk"
CONTRACTD="$BUILD_DIR/app/contractd"

command -v wrk >/dev/null || { echo "wrk is not installed (apt-get install wrk)" >&2; exit 2; }
[ -x "$CONTRACTD" ] || { echo "build first: scripts/dev.sh test" >&2; exit 2; }

PIDS=()
cleanup() {
  for pid in "${PIDS[@]}"; do kill -9 "$pid" 2>/dev/null || true; done
  wait 2>/dev/null || true
  rm -rf "$WORK"
}
trap cleanup EXIT

# Built with the tests (tests/support) or with the benchmarks alone (benchmarks/).
MOCK_CLUSTER=$BUILD_DIR/tests/support/kafka-mock-cluster
[ -x "$MOCK_CLUSTER" ] || MOCK_CLUSTER=$BUILD_DIR/benchmarks/kafka-mock-cluster
"$MOCK_CLUSTER" --brokers 3 --partitions 1 contract-log.main \
  2>"$WORK/cluster.err" &
PIDS+=($!)
for _ in $(seq 100); do grep -q '^bootstrap ' "$WORK/cluster.err" && break; sleep 0.1; done
BROKERS=$(sed -n 's/^bootstrap //p' "$WORK/cluster.err")

# serve NAME PORT [flags...]: a contractd on $WORK/NAME, ready when /readyz answers.
serve() {
  local name=$1 port=$2
  shift 2
  "$CONTRACTD" serve --data-dir "$WORK/$name" --listen "127.0.0.1:$port" --access-log false \
    --rate-limit 0 --kafka-brokers "$BROKERS" "$@" >"$WORK/$name.out" 2>"$WORK/$name.err" &
  PIDS+=($!)
  LAST_PID=$!
  for _ in $(seq 300); do
    curl -sf "http://127.0.0.1:$port/readyz" >/dev/null && return 0
    sleep 0.1
  done
  echo "contractd $name did not start:" >&2
  cat "$WORK/$name.err" >&2
  exit 1
}

token_for() {  # data dir, port
  local client
  client=$("$CONTRACTD" clients create --data-dir "$WORK/$1" --org org_load --name load \
    --permissions contracts:read,contracts:create,contracts:update,contracts:send,templates:read)
  curl -sf -X POST "http://127.0.0.1:$2/api/v1/auth/machine-token" \
    -H 'Content-Type: application/json' \
    -d "{\"clientId\":\"$(echo "$client" | sed -E 's/.*"clientId":"([^"]+)".*/\1/')\",\"clientSecret\":\"$(echo "$client" | sed -E 's/.*"clientSecret":"([^"]+)".*/\1/')\"}" |
    sed -E 's/.*"accessToken":"([^"]+)".*/\1/'
}

run_create() {  # name, port
  local out
  out=$(wrk -t1 -c"$CONNECTIONS" -d"${DURATION}s" --latency -s "$WRK_DIR/create.lua" \
    "http://127.0.0.1:$2")
  printf '%-18s %10s req/s   p50 %8s   p99 %8s   non-2xx %s\n' "$1" \
    "$(echo "$out" | awk '/Requests\/sec/ {print $2}')" "$(echo "$out" | awk '$1 == "50%" {print $2}')" \
    "$(echo "$out" | awk '$1 == "99%" {print $2}')" "$(echo "$out" | awk '/Non-2xx/ {print $NF}')"
}

serve local "$PORT"
TOKEN=$(token_for local "$PORT")
export TOKEN
run_create "create local" "$PORT"
kill "$LAST_PID"

serve writer $((PORT + 1)) --replication kafka
TOKEN=$(token_for writer $((PORT + 1)))
run_create "create replicated" $((PORT + 1))
WRITER_PID=$LAST_PID

"$CONTRACTD" backup --data-dir "$WORK/writer" --to "$WORK/standby" >/dev/null
serve standby $((PORT + 2)) --replication kafka --standby

# The failover under load: creates keep coming while the writer is killed.
wrk -t1 -c8 -d30s -s "$WRK_DIR/create.lua" "http://127.0.0.1:$((PORT + 1))" >/dev/null 2>&1 &
LOAD=$!
sleep 2
kill -9 "$WRITER_PID" 2>/dev/null
wait "$WRITER_PID" 2>/dev/null || true
KILLED=$(date +%s%N)
rm -rf "$WORK/writer"
"$CONTRACTD" promote --data-dir "$WORK/standby" >/dev/null
BODY=$(tr -d '\n' <"$ROOT/examples/requests/create-nda.json")
until [ "$(curl -s -o /dev/null -w '%{http_code}' -X POST "http://127.0.0.1:$((PORT + 2))/api/v1/contracts" \
  -H "Authorization: Bearer $TOKEN" -H 'Content-Type: application/json' -d "$BODY")" = 201 ]; do
  sleep 0.02
done
echo "failover $(( ($(date +%s%N) - KILLED) / 1000000 )) ms from the kill to the first create on the promoted standby"
kill "$LOAD" 2>/dev/null || true
