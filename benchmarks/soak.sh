#!/usr/bin/env bash
# Resident memory of a Release contractd under a steady mix held for a long while: creates from 8
# connections (each waits for its synced append, which paces them) and filtered lists from 2
# connections beside them, on a fresh data directory. Every SAMPLE seconds it prints the resident
# size, the log's size and the views' lag; at the end the figures to compare with the memory
# budget (--memory-budget-mb, docs/operations.md): the peak, the mean of the first and the last
# quarter, and the resident size after a restart on the data directory the soak left.
#   benchmarks/soak.sh [minutes, default 30] [contractd flags...]
# Environment: BUILD_DIR (default build/release), SAMPLE (seconds, default 30), PORT.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD_DIR=${BUILD_DIR:-$ROOT/build/release}
MINUTES=${1:-30}
shift || true
SAMPLE=${SAMPLE:-30}
PORT=${PORT:-18090}
WORK=$(mktemp -d /tmp/contract-soak.XXXXXX)
source "$ROOT/benchmarks/service.sh"
start_contractd "$@"
TOKEN=$(machine_token org_soak \
  contracts:read,contracts:create,contracts:update,contracts:send,templates:read)
export TOKEN

resident_mib() { awk '/^VmRSS/ {printf "%.0f", $2 / 1024}' "/proc/$SERVER_PID/status"; }

echo "contractd soak: ${MINUTES} min, creates from 8 connections, lists from 2, flags: ${*:-none}"
SECONDS_TOTAL=$((MINUTES * 60))
wrk -t1 -c8 -d"${SECONDS_TOTAL}s" -s "$WRK_DIR/create.lua" "$BASE" >"$WORK/create.out" &
CREATES=$!
wrk -t1 -c2 -d"${SECONDS_TOTAL}s" -s "$WRK_DIR/list.lua" "$BASE" >"$WORK/list.out" &
LISTS=$!

printf '%8s %12s %12s %10s\n' "minute" "log events" "views lag" "RSS MiB" | tee "$WORK/samples"
START=$SECONDS
while kill -0 "$CREATES" 2>/dev/null; do
  sleep "$SAMPLE"
  kill -0 "$SERVER_PID" 2>/dev/null || { echo "contractd exited" >&2; exit 1; }
  printf '%8.1f %12s %12s %10s\n' "$(awk -v s=$((SECONDS - START)) 'BEGIN { print s / 60 }')" \
    "$(metric contractd_log_events)" "$(metric contractd_projection_lag_events)" \
    "$(resident_mib)" | tee -a "$WORK/samples"
done
wait "$CREATES" "$LISTS" || true
awk '/Requests\/sec/ {print "creates: " $2 " req/s"}' "$WORK/create.out"
awk '/Requests\/sec/ {print "lists: " $2 " req/s"}' "$WORK/list.out"

# The level: the first and the last quarter of the samples, and the peak (VmHWM).
awk 'NR > 1 {rss[++n] = $4} END {
  q = int(n / 4); if (q < 1) q = 1
  for (i = 1; i <= q; i++) first += rss[i]
  for (i = n - q + 1; i <= n; i++) last += rss[i]
  printf "resident: first quarter %.0f MiB, last quarter %.0f MiB\n", first / q, last / q
}' "$WORK/samples"
awk '/^VmHWM/ {printf "resident peak: %.0f MiB\n", $2 / 1024}' "/proc/$SERVER_PID/status"

# A restart on the data directory the soak left: what the service holds once it is ready again
# and its relay and views have caught up.
EVENTS=$(metric contractd_log_events)
kill "$SERVER_PID" && wait "$SERVER_PID" 2>/dev/null || true
start_contractd "$@"
for _ in $(seq 120); do
  [ "$(metric contractd_kafka_relay_lag_events)" = 0 ] && break
  sleep 1
done
sleep 5
echo "after a restart on $EVENTS events: resident $(resident_mib) MiB"
