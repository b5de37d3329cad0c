#!/usr/bin/env bash
# The libFuzzer targets of tests/fuzz (docs/fuzzing.md).
#   scripts/fuzz.sh build            configure build/fuzz (clang-16, ESIGN_FUZZ=ON), build the targets
#   scripts/fuzz.sh short            build, then run every target for a fixed number of executions
#                                    on its corpus (what `scripts/dev.sh test` runs)
#   scripts/fuzz.sh long [N|Ns]      run every target, one after another, for N executions or N
#                                    seconds (default 1000000 executions); FUZZ_FORK=2 runs two
#                                    processes per target (time mode only); FUZZ_TARGETS="a b"
#                                    runs only those
#   scripts/fuzz.sh TARGET [libFuzzer flags]   run one target on its corpus, e.g. to reproduce a
#                                    crash: scripts/fuzz.sh fuzz_http_request crash-<sha1>
# The repository's corpora are read, never written: new inputs go to a temporary directory,
# crashes to $FUZZ_ARTIFACTS (default: a temporary directory, printed).
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
FUZZ_DIR=${FUZZ_DIR:-$ROOT/build/fuzz}
CORPORA=$ROOT/tests/fuzz/corpus
TARGETS=(fuzz_http_request fuzz_json_bodies fuzz_template_importer fuzz_cursor_token
  fuzz_verify_bundle fuzz_provider_callback fuzz_pdf_upload fuzz_signer_values
  fuzz_attachment_check fuzz_log_entry fuzz_logo_image fuzz_bulk_csv)
# FUZZ_TARGETS="a b" runs only those.
if [ -n "${FUZZ_TARGETS:-}" ]; then read -ra TARGETS <<<"$FUZZ_TARGETS"; fi
# Executions per target in `short`: the whole step stays within about three minutes on two cores
# (the slowest target, fuzz_http_request, makes about a thousand a second).
SHORT_RUNS=${SHORT_RUNS:-20000}

build() {
  echo "== building the fuzz targets in $FUZZ_DIR"
  export CCACHE_BASEDIR="$ROOT"
  # clang-16 with libstdc++ 12 offers std::expected only with a newer concepts level: the top
  # CMakeLists.txt adjusts it under ESIGN_FUZZ.
  cmake -S "$ROOT" -B "$FUZZ_DIR" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_UNITY_BUILD=ON \
    -DCMAKE_CXX_COMPILER=clang++-16 -DESIGN_FUZZ=ON -DBUILD_TESTING=OFF -DBUILD_BENCHMARKS=OFF \
    >/dev/null
  ninja -C "$FUZZ_DIR" fuzz_targets
}

# run TARGET LOG [libFuzzer flags]: the target on a fresh corpus directory seeded from the
# repository's; prints one line of figures; fails when the target crashed.
run() {
  local target=$1 log=$2 status=0
  shift 2
  local fresh
  fresh=$(mktemp -d)
  mkdir -p "$ARTIFACTS"
  (cd "$ARTIFACTS" && ${NICE:-} "$FUZZ_DIR/tests/fuzz/$target" -print_final_stats=1 \
    -artifact_prefix="$ARTIFACTS/$target-" "$@" "$fresh" "$CORPORA/$target") >"$log" 2>&1 ||
    status=$?
  rm -rf "$fresh"
  local runs speed cov
  runs=$(grep -oE 'stat::number_of_executed_units: *[0-9]+' "$log" | tail -1 | grep -oE '[0-9]+$' || true)
  speed=$(grep -oE 'stat::average_exec_per_sec: *[0-9]+' "$log" | tail -1 | grep -oE '[0-9]+$' || true)
  cov=$(grep -oE 'cov: [0-9]+' "$log" | tail -1 | grep -oE '[0-9]+$' || true)
  if [ "$status" = 0 ]; then
    printf '%-24s %10s execs %7s exec/s  cov %6s  ok\n' "$target" "${runs:-?}" "${speed:-?}" "${cov:-?}"
  else
    printf '%-24s %10s execs %7s exec/s  cov %6s  CRASHED (exit %s; log %s)\n' "$target" \
      "${runs:-?}" "${speed:-?}" "${cov:-?}" "$status" "$log"
    grep -E '^(==[0-9]+==ERROR|SUMMARY|.*runtime error)' "$log" | head -5 || true
  fi
  return $status
}

ARTIFACTS=${FUZZ_ARTIFACTS:-$(mktemp -d -t esign-fuzz-XXXXXX)}
LOGS=$(mktemp -d -t esign-fuzz-logs-XXXXXX)
# Leaks are reported by LeakSanitizer at exit; the service's singletons live until then.
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=0}

cmd=${1:-}
case "$cmd" in
  build)
    build
    ;;
  short)
    build
    echo "== fuzzing each target for $SHORT_RUNS executions (crashes go to $ARTIFACTS)"
    failed=0
    for t in "${TARGETS[@]}"; do
      run "$t" "$LOGS/$t.log" -runs="$SHORT_RUNS" || failed=1
    done
    exit $failed
    ;;
  long)
    amount=${2:-1000000}
    if [[ $amount == *s ]]; then
      limit=(-max_total_time="${amount%s}")
      [ -n "${FUZZ_FORK:-}" ] && limit+=(-fork="$FUZZ_FORK" -ignore_crashes=0)
    else
      limit=(-runs="$amount")
    fi
    echo "== fuzzing each target for ${amount} (logs in $LOGS, crashes go to $ARTIFACTS)"
    failed=0
    # Long runs take no build lock: they yield the processor to builds instead.
    NICE="nice -n 10"
    for t in "${TARGETS[@]}"; do
      run "$t" "$LOGS/$t.log" "${limit[@]}" || failed=1
    done
    exit $failed
    ;;
  fuzz_*)
    shift
    exec "$FUZZ_DIR/tests/fuzz/$cmd" "$@"
    ;;
  *)
    echo "usage: scripts/fuzz.sh build | short | long [RUNS|SECONDSs] | fuzz_TARGET [flags]" >&2
    exit 2
    ;;
esac
