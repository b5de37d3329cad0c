#!/usr/bin/env bash
# Times `contract-ledger verify` over a log of one million events (or --num N).
#
#   benchmarks/ledger_verify.sh [--build build] [--dir /tmp/ledger_verify] [--num 1000000] [--runs 3]
#                               [--tool PATH]   (another contract-ledger, e.g. an older build)
#
# The data directory is written once by ledger_bench (unsynced appends from 64 threads, 200-byte
# events, then a signed tree head; closed as contractd closes its store, so its memtables are
# flushed and no WAL is left) and kept in --dir, so later runs time the tool alone. Each run
# prints the tool's wall time and events per second; then the best run, the reference measured
# in the same sitting (`openssl speed sha256` over 512-byte blocks: the hashing ceiling, one core)
# and the ratio of the two.
set -euo pipefail

BUILD=build
DIR=/tmp/ledger_verify
NUM=1000000
RUNS=3
TOOL=
while [[ $# -gt 0 ]]; do
  case "$1" in
    --build) BUILD=$2; shift 2 ;;
    --dir) DIR=$2; shift 2 ;;
    --num) NUM=$2; shift 2 ;;
    --runs) RUNS=$2; shift 2 ;;
    --tool) TOOL=$2; shift 2 ;;
    *) echo "unknown option $1" >&2; exit 2 ;;
  esac
done

TOOL=${TOOL:-$BUILD/app/contract-ledger}
DATA="$DIR/store"  # ledger_bench keeps its store in <db>/store
# A directory written before clean closes flushed the memtables still holds its WAL: written again.
if [[ ! -f "$DIR/.closed-$NUM" ]]; then
  rm -rf "$DIR"
  # The verify workload fills the log to --num events, signs a head and verifies it in-process.
  "$BUILD/benchmarks/ledger_bench" --benchmarks=verify --num="$NUM" --sync=0 \
    --ceiling_num=6400 --db="$DIR" >&2
  touch "$DIR/.closed-$NUM"
fi

best=0
for ((run = 1; run <= RUNS; run++)); do
  start=$(date +%s.%N)
  "$TOOL" verify --data-dir "$DATA" >/tmp/ledger_verify.out 2>/dev/null
  end=$(date +%s.%N)
  events=$(sed -n 's/^events: //p' /tmp/ledger_verify.out)
  grep -q '^verify: ok' /tmp/ledger_verify.out || { cat /tmp/ledger_verify.out; exit 1; }
  rate=$(awk -v n="$events" -v s="$start" -v e="$end" 'BEGIN { printf "%.0f", n / (e - s) }')
  secs=$(awk -v s="$start" -v e="$end" 'BEGIN { printf "%.2f", e - s }')
  echo "run $run: contract-ledger verify: $events events in $secs s, $rate events/s"
  if ((rate > best)); then best=$rate; fi
done
echo "best: $best events/s"
# openssl prints "sha256  <k bytes/s for each size>": 512-byte blocks per second.
sha=$(openssl speed -bytes 512 -seconds 3 sha256 2>/dev/null | awk '/^sha256/ {sub("k", "", $2); printf "%.0f", $2 * 1000 / 512}')
echo "reference: openssl sha256, 512-byte blocks: $sha blocks/s"
awk -v b="$best" -v r="$sha" 'BEGIN { printf "ratio: %.2f\n", b / r }'
