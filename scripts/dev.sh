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
  librocksdb-dev librdkafka-dev libssl-dev libcairo2-dev libpango1.0-dev libqpdf-dev libjemalloc-dev
  fonts-dejavu-core fonts-noto-core fonts-noto-cjk
)
# What the tests and benchmarks need besides.
TEST_PACKAGES=(
  googletest libgtest-dev libbenchmark-dev clang-format clang-tidy-16
  poppler-utils qpdf kcat wrk chromium openssl
)

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
# validator (tests/openapi), kafkajs, an independent Kafka consumer (tests/kafka),
# standardwebhooks, which verifies the signatures of deliveries (tests/webhooks/receiver), and
# playwright-core, which drives Debian's chromium (tests/browser).
install_npm_packages() {
  local dir
  for dir in tests/openapi tests/kafka tests/webhooks/receiver tests/browser; do
    echo "== npm ci in $dir"
    (cd "$ROOT/$dir" && npm ci --no-audit --no-fund)
  done
}

build() {
  echo "== building in $BUILD_DIR"
  # Paths relative to the checkout, so compiler caches hit across clones.
  export CCACHE_BASEDIR="$ROOT"
  cmake -S "$ROOT" -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=Release "$@" >/dev/null
  ninja -C "$BUILD_DIR"
}

project_sources() {
  (cd "$ROOT" && git ls-files -- '*.h' '*.cc' | grep -E '^(base|domain|eventstore|projections|commands|http|webhooks|documents|app|tests|benchmarks)/')
}

check_format() {
  echo "== clang-format"
  (cd "$ROOT" && project_sources | xargs clang-format --dry-run --Werror)
}

check_lint() {
  echo "== clang-tidy"
  local files tidy_dir="$BUILD_DIR/tidy"
  files=$(project_sources | grep -E '\.cc$' | grep -vE "^(tests|benchmarks)/" || true)
  [ -n "$files" ] || return 0
  # Debian's clang 16 knows C++23 as c++2b and reports an older concepts level than libstdc++ 12
  # asks before it offers std::expected; both are only spellings, so they are adjusted for it.
  mkdir -p "$tidy_dir"
  sed 's/-std=c++23/-std=c++2b/g; s/-std=gnu++23/-std=c++2b/g' "$BUILD_DIR/compile_commands.json" \
    >"$tidy_dir/compile_commands.json"
  local log="$tidy_dir/clang-tidy.log" status=0
  (cd "$ROOT" && echo "$files" | xargs -P "$(nproc)" -n 4 clang-tidy-16 -p "$tidy_dir" --quiet \
    --extra-arg=-U__cpp_concepts --extra-arg=-D__cpp_concepts=202002L) >"$log" 2>&1 || status=$?
  grep -vE '^[0-9]+ warnings? (and [0-9]+ errors? )?generated\.$|^Suppressed [0-9]+ warnings|^Use -header-filter' \
    "$log" || true
  return $status
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
    install_packages "${RUNTIME_PACKAGES[@]}" "${TEST_PACKAGES[@]}"
    install_node
    install_npm_packages
    build -DBUILD_TESTING=ON -DBUILD_BENCHMARKS=ON
    check_format
    check_lint
    echo "== tests"
    cd "$BUILD_DIR"
    ctest --output-on-failure -j "$(nproc)" --timeout 600 "$@"
    ;;
  *)
    echo "usage: scripts/dev.sh start [contractd flags] | test [ctest flags]" >&2
    exit 2
    ;;
esac
