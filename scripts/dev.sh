#!/usr/bin/env bash
# The two commands of the README.
#   scripts/dev.sh start   install what is missing, build (Release), start contractd on its
#                          embedded defaults (./data, example templates, embedded Kafka)
#   scripts/dev.sh test    install what is missing, build, check formatting and lint, run every test
# Works as root or through sudo on Debian bookworm.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD_DIR=${BUILD_DIR:-$ROOT/build/release}

# What building and running needs.
RUNTIME_PACKAGES=(
  build-essential cmake ninja-build ccache pkg-config git curl
  libboost1.81-dev libboost-json1.81-dev libboost-url1.81-dev libboost-program-options1.81-dev
  librocksdb-dev librdkafka-dev libssl-dev libcairo2-dev libpango1.0-dev libqpdf-dev libpoppler-glib-dev libjemalloc-dev libcurl4-openssl-dev libicu-dev libre2-dev libjpeg62-turbo-dev libdeflate-dev
  fonts-dejavu-core fonts-noto-core fonts-noto-cjk
)
# What the tests and benchmarks need besides.
TEST_PACKAGES=(
  googletest libgtest-dev libbenchmark-dev clang-format clang-tidy-16
  poppler-utils qpdf kcat wrk jq chromium openssl
  clang-16 libclang-rt-16-dev
)

# Each step says how long it took, and the CPU used so far, so a slow step shows.
STEP_NAME='' STEP_START=0
step() {
  local now=$SECONDS
  if [ -n "$STEP_NAME" ]; then
    echo "== $STEP_NAME took $((now - STEP_START)) s; CPU so far (user and system, of this script, then of its children):"
    times
  fi
  STEP_NAME=${1:-} STEP_START=$now
}

as_root() {
  if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi
}

install_packages() {
  local missing=()
  for p in "$@"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  if [ ${#missing[@]} -gt 0 ]; then
    echo "== installing: ${missing[*]}"
    as_root apt-get update -qq
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
      "${missing[@]}"
  fi
}

# Node.js runs the independent client checks; a machine may already have its own build of it
# (which carries npm), so Debian's is installed only when there is none.
install_node() {
  command -v node >/dev/null && command -v npm >/dev/null && return 0
  install_packages nodejs npm
}

# The npm packages the tests run, exactly as each package-lock.json pins them: the OpenAPI
# validator, linters (Redocly, Spectral), Ajv and a second client generator (tests/openapi), the
# typed TypeScript client of the quickstart (examples/typescript), kafkajs, an independent Kafka
# consumer (tests/kafka),
# standardwebhooks, which verifies the signatures of deliveries (tests/webhooks/receiver),
# playwright-core, which drives Debian's chromium (tests/browser), and smtp-server with
# mailparser, a real SMTP server and MIME parser for the mail tests (tests/mail), and
# openid-client, a standard OAuth 2.0 client used unchanged (tests/oauth).
install_npm_packages() {
  local dir
  for dir in tests/openapi tests/kafka tests/webhooks/receiver tests/browser tests/mail examples/typescript \
    tests/oauth; do
    echo "== npm ci in $dir"
    (cd "$ROOT/$dir" && npm ci --no-audit --no-fund)
  done
}

build() {
  echo "== building in $BUILD_DIR"
  # Paths relative to the checkout, so compiler caches hit across clones.
  export CCACHE_BASEDIR="$ROOT"
  # RocksDB's release built with NDEBUG, once (scripts/rocksdb.sh): the argument that finds it.
  local rocksdb
  rocksdb=$("$ROOT/scripts/rocksdb.sh")
  # A unity build compiles each library's sources in batches, so the heavy headers (Boost,
  # RocksDB, the standard library) are parsed once a batch instead of once a file.
  cmake -S "$ROOT" -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_UNITY_BUILD=ON \
    "$rocksdb" "$@" >/dev/null
  ninja -C "$BUILD_DIR"
}

project_sources() {
  (cd "$ROOT" && git ls-files -- '*.h' '*.cc' | grep -E '^(base|domain|eventstore|delivery|projections|commands|http|webhooks|replication|documents|mail|app|tests|benchmarks)/')
}

check_format() {
  echo "== clang-format"
  (cd "$ROOT" && project_sources | xargs clang-format --dry-run --Werror)
}

# clang-tidy over the project's own sources (not tests or benchmarks). Most of its time goes to
# parsing and matching the headers, so it runs over the build's batches, with the project's
# headers and sources in view (--header-filter): every check but misc-unused-using-decls, which
# looks only at the main file and so runs on each source that has a using-declaration, alone.
check_lint() {
  echo "== clang-tidy"
  local tidy_dir="$BUILD_DIR/tidy" status=0
  mkdir -p "$tidy_dir/batches" "$tidy_dir/files"
  cmake -DBUILD_DIR="$BUILD_DIR" -DSOURCE_DIR="$ROOT" -DOUT_DIR="$tidy_dir" \
    -P "$ROOT/scripts/tidy_databases.cmake"
  local own="^$ROOT/(base|domain|eventstore|delivery|projections|commands|http|webhooks|replication|documents|mail|app)/"
  # libstdc++ 12 asks for a newer concepts level than clang 16 reports before it offers
  # std::expected; it is only a spelling, so it is adjusted for it.
  local tidy=(clang-tidy-16 --quiet --extra-arg=-U__cpp_concepts
    --extra-arg=-D__cpp_concepts=202002L)
  (cd "$ROOT" && tidy_sources "$tidy_dir/batches" | xargs -P "$(nproc)" -n 1 "${tidy[@]}" \
    -p "$tidy_dir/batches" --header-filter="$own" --checks=-misc-unused-using-decls) \
    >"$tidy_dir/batches.log" 2>&1 || status=$?
  (cd "$ROOT" && tidy_sources "$tidy_dir/files" |
    xargs grep -lE '^[[:space:]]*using[[:space:]]+[^=;]*::[^=;]*;' |
    xargs -r -P "$(nproc)" -n 2 "${tidy[@]}" -p "$tidy_dir/files" \
      --checks=-*,misc-unused-using-decls) >"$tidy_dir/files.log" 2>&1 || status=$?
  grep -hvE '^[0-9]+ warnings? (and [0-9]+ errors? )?generated\.$|^Suppressed [0-9]+ warnings|^Use -header-filter' \
    "$tidy_dir/batches.log" "$tidy_dir/files.log" || true
  return $status
}

# This shell and what it starts from now on yield the processors and the disk to everything else.
lowest_priority() {
  renice -n 19 -p $BASHPID >/dev/null
  ionice -c 3 -p $BASHPID 2>/dev/null || true
}

# The files of a compilation database, one a line.
tidy_sources() {
  grep -oE '"file" *: *"[^"]+"' "$1/compile_commands.json" | sed -E 's/^"file" *: *"(.*)"$/\1/'
}

cmd=${1:-}
case "$cmd" in
  start)
    shift
    install_packages "${RUNTIME_PACKAGES[@]}"
    build -DBUILD_TESTING=OFF -DBUILD_BENCHMARKS=OFF
    cd "$ROOT"
    exec "$BUILD_DIR/app/contractd" serve "$@"
    ;;
  test)
    shift
    logs="$BUILD_DIR/check-logs"
    step packages
    install_packages "${RUNTIME_PACKAGES[@]}" "${TEST_PACKAGES[@]}"
    install_node
    # npm ci waits on the network and the disk, the build on the processors: side by side.
    step "build, with npm ci beside it"
    mkdir -p "$logs"
    install_npm_packages >"$logs/npm.log" 2>&1 &
    npm_pid=$!
    build -DBUILD_TESTING=ON -DBUILD_BENCHMARKS=ON
    npm_status=0
    wait $npm_pid || npm_status=$?
    cat "$logs/npm.log"
    [ $npm_status = 0 ] || exit $npm_status
    step format
    check_format
    # The tests spend much of their time waiting (on servers starting, brokers, timers, pages),
    # which leaves the processors half idle. clang-tidy and the libFuzzer targets (their build,
    # then a short run of each) take that idle time: they run beside the tests at the lowest
    # priority, for processor and disk, so the tests keep what they ask for. Their output follows
    # the tests' (whose failures matter first), and any failure fails the whole.
    step "tests, with lint and fuzzing beside them"
    (lowest_priority && check_lint) >"$logs/lint.log" 2>&1 &
    lint_pid=$!
    (lowest_priority && "$ROOT/scripts/fuzz.sh" short) >"$logs/fuzz.log" 2>&1 &
    fuzz_pid=$!
    # Two tests a processor: most of a test's time is waiting, not computing.
    echo "== tests"
    tests_status=0
    (cd "$BUILD_DIR" && ctest --output-on-failure -j "$(($(nproc) * 2))" --timeout 600 "$@") ||
      tests_status=$?
    step "lint and fuzzing, after the tests"
    lint_status=0 fuzz_status=0
    wait $lint_pid || lint_status=$?
    cat "$logs/lint.log"
    wait $fuzz_pid || fuzz_status=$?
    cat "$logs/fuzz.log"
    step
    echo "== tests exit $tests_status, lint exit $lint_status, fuzzing exit $fuzz_status"
    [ $tests_status = 0 ] && [ $lint_status = 0 ] && [ $fuzz_status = 0 ]
    ;;
  *)
    echo "usage: scripts/dev.sh start [contractd flags] | test [ctest flags]" >&2
    exit 2
    ;;
esac
