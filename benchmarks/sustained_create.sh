#!/usr/bin/env bash
# Creates held for a minute on a Release contractd with a fresh data directory: the rate the
# service sustains with its views keeping up, not the first seconds' burst. Samples the views' lag
# behind the log (contractd_projection_lag_events) every half second while wrk runs, and after the
# last acknowledgement measures how long the views take to catch up.
#   benchmarks/sustained_create.sh [seconds, default 60] [connections, default 64]
# Prints one line: "sustained create <req/s> req/s p99 <latency> largest lag <events> events
# (<seconds> s of the views' work) caught up <ms> ms after the last acknowledgement; text index
# largest lag <events> events (<seconds> s) caught up <ms> ms" (the text index: the trigrams of q,
# on a projector of its own).
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD_DIR=${BUILD_DIR:-$ROOT/build/release}
DURATION=${1:-60}
CONNECTIONS=${2:-64}
PORT=${PORT:-18085}
WORK=$(mktemp -d /tmp/contract-sustained.XXXXXX)
source "$ROOT/benchmarks/service.sh"
start_contractd
TOKEN=$(machine_token org_sustained \
  contracts:read,contracts:create,contracts:update,contracts:send,templates:read)
export TOKEN


START_EVENTS=$(metric contractd_log_events)
wrk -t1 -c"$CONNECTIONS" -d"${DURATION}s" --latency -s "$WRK_DIR/create.lua" "$BASE" \
  >"$WORK/wrk.out" &
WRK=$!
LARGEST=0
LARGEST_TEXT=0
while kill -0 "$WRK" 2>/dev/null; do
  lag=$(metric contractd_projection_lag_events)
  [ "${lag:-0}" -gt "$LARGEST" ] && LARGEST=$lag
  text_lag=$(metric contractd_text_index_lag_events)
  [ "${text_lag:-0}" -gt "$LARGEST_TEXT" ] && LARGEST_TEXT=$text_lag
  sleep 0.5
done
wait "$WRK"
DONE_AT=$(date +%s%N)
while [ "$(metric contractd_projection_lag_events)" != 0 ]; do sleep 0.02; done
CAUGHT_UP_MS=$((($(date +%s%N) - DONE_AT) / 1000000))
# (A binary without the text index's gauge reports nothing for it.)
while lag=$(metric contractd_text_index_lag_events) && [ -n "$lag" ] && [ "$lag" != 0 ]; do
  sleep 0.02
done
TEXT_CAUGHT_UP_MS=$((($(date +%s%N) - DONE_AT) / 1000000))

RPS=$(awk '/Requests\/sec/ {print $2}' "$WORK/wrk.out")
P99=$(awk '$1 == "99%" {print $2}' "$WORK/wrk.out")
EVENTS=$(($(metric contractd_log_events) - START_EVENTS))
# The lag as time: what the views apply in a second, over the whole run.
as_seconds() {
  awk -v lag="$1" -v events="$EVENTS" -v seconds="$DURATION" \
    'BEGIN { printf "%.2f", (events > 0 ? lag / (events / seconds) : 0) }'
}
echo "sustained create $RPS req/s p99 $P99 largest lag $LARGEST events ($(as_seconds "$LARGEST") s" \
  "of the views' work) caught up $CAUGHT_UP_MS ms after the last acknowledgement; text index" \
  "largest lag $LARGEST_TEXT events ($(as_seconds "$LARGEST_TEXT") s) caught up $TEXT_CAUGHT_UP_MS ms"
