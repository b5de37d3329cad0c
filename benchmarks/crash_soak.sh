#!/usr/bin/env bash
# The crash test under load, long: contractd SIGKILLed KILLS times at random moments while THREADS
# client threads create contracts with Idempotency-Keys, restarted on the same data directory after
# each kill; then every acknowledged create must be readable, every key must answer one contract
# on retry, and `contract-ledger verify` and `replay` must pass. CI runs the same test with 3 kills.
# Prints the seed, creates acknowledged, unanswered (and how many of those were stored), refused,
# keys whose retries matched, contracts in the log, the verify and replay results and the time.
#
#   benchmarks/crash_soak.sh [kills, default 100] [threads, default 8] [seed, default random]
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD_DIR=${BUILD_DIR:-$ROOT/build/release}
TEST="$BUILD_DIR/tests/app/crash_under_load_tests"
[ -x "$TEST" ] || { echo "build first: ninja -C $BUILD_DIR crash_under_load_tests" >&2; exit 2; }

export ESIGN_CRASH_KILLS=${1:-100}
export ESIGN_CRASH_THREADS=${2:-8}
export ESIGN_CRASH_SEED=${3:-$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')}
OUT=$(mktemp /tmp/crash-soak.XXXXXX)
trap 'rm -f "$OUT"' EXIT

start=$(date +%s.%N)
status=0
"$TEST" --gtest_filter='CrashUnderLoadTest.*' >"$OUT" 2>&1 || status=$?
end=$(date +%s.%N)

grep '^crash under load: kills' "$OUT" || true
if [ "$status" -ne 0 ]; then
  # The failures, with the seed that reproduces them (ESIGN_CRASH_SEED in the trace).
  grep -E 'Failure|ESIGN_CRASH_SEED|Expected|Which is|actual' "$OUT" | head -60 >&2
  echo "crash soak: FAILED (exit $status), seed $ESIGN_CRASH_SEED" >&2
  exit 1
fi
printf 'crash soak: ok, %s kills, %s threads, seed %s, %.1f s wall on %s cores\n' \
  "$ESIGN_CRASH_KILLS" "$ESIGN_CRASH_THREADS" "$ESIGN_CRASH_SEED" "$(awk "BEGIN {print $end - $start}")" \
  "$(nproc)"
