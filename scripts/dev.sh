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
  build-essential cmake ninja-build ccache pkg-config git
  libboost1.81-dev libboost-json1.81-dev libboost-url1.81-dev libboost-program-options1.81-dev
  librocksdb-dev librdkafka-dev libssl-dev libcairo2-dev libpango1.0-dev libqpdf-dev libpoppler-glib-dev libjemalloc-dev libcurl4-openssl-dev libicu-dev libre2-dev libjpeg62-turbo-dev
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
  # A unity build compiles each library's sources in batches, so the heavy headers (Boost,
  # RocksDB, the standard library) are parsed once a batch instead of once a file.
  cmake -S "$ROOT" -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_UNITY_BUILD=ON \
    "$@" >/dev/null
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
    step packages
    install_packages "${RUNTIME_PACKAGES[@]}" "${TEST_PACKAGES[@]}"
    install_node
    step npm
    install_npm_packages
    step build
    build -DBUILD_TESTING=ON -DBUILD_BENCHMARKS=ON
    step format
    check_format
    step lint
    check_lint
    step tests
    echo "== tests"
    (cd "$BUILD_DIR" && ctest --output-on-failure -j "$(nproc)" --timeout 600 "$@")
    # After the tests, whose failures matter first: a short run of every libFuzzer target.
    step fuzz
    "$ROOT/scripts/fuzz.sh" short
    step
    ;;
  *)
    echo "usage: scripts/dev.sh start [contractd flags] | test [ctest flags]" >&2
    exit 2
    ;;
esac
