#!/usr/bin/env bash
# RocksDB 7.8.3, the release Debian bookworm ships, built from Debian's own copy of its source with
# NDEBUG. Debian builds librocksdb without NDEBUG, so its assertions run: in the memtable alone
# they are a fifth of a create's instructions (docs/architecture.md, "RocksDB's assertions").
#   scripts/rocksdb.sh   builds and installs the static library, its headers and its CMake
#                        package into build/rocksdb-7.8.3, unless that build is there already, and
#                        prints the argument that points CMake at it
# When the source cannot be fetched or built, it says so and prints the argument that points CMake
# at Debian's librocksdb-dev, the same release with its assertions: the service still builds.
set -euo pipefail

VERSION=7.8.3
URL=http://deb.debian.org/debian/pool/main/r/rocksdb/rocksdb_$VERSION.orig.tar.gz
# The tarball Debian's package rocksdb 7.8.3-2 is built from.
SHA256=b85408a374770897332bf15e51620a5f35720dd416a4749e3899057f9cfaf84d
# Debian's features (debian/rules of 7.8.3-2), without its tools, tests and shared library.
OPTIONS=(
  -DCMAKE_BUILD_TYPE=Release -DPORTABLE=ON -DUSE_RTTI=ON -DFAIL_ON_WARNINGS=OFF
  -DWITH_SNAPPY=ON -DWITH_LZ4=ON -DWITH_ZLIB=ON -DWITH_ZSTD=ON -DWITH_BZ2=ON
  -DWITH_GFLAGS=OFF -DWITH_LIBURING=OFF -DWITH_JEMALLOC=OFF
  -DWITH_TESTS=OFF -DWITH_TOOLS=OFF -DWITH_CORE_TOOLS=OFF -DWITH_BENCHMARK_TOOLS=OFF
  -DROCKSDB_BUILD_SHARED=OFF -DCMAKE_INSTALL_LIBDIR=lib
)
# PORTABLE alone leaves out SSE4.2, and with it the CRC32C instruction: RocksDB then checksums every
# block and WAL record in software. Every x86-64 server of the last decade has SSE4.2 and PCLMUL.
if [ "$(uname -m)" = x86_64 ]; then OPTIONS+=(-DFORCE_SSE42=ON); fi

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
prefix=$ROOT/build/rocksdb-$VERSION
# What the installed build was made from: a change of source or options builds it again.
stamp="$SHA256 ${OPTIONS[*]}"

build_rocksdb() {
  # The download is kept beside the compiler cache, so another checkout on this machine reuses it.
  cache=${XDG_CACHE_HOME:-$HOME/.cache}/contract-signing
  tarball=$cache/rocksdb_$VERSION.orig.tar.gz
  mkdir -p "$cache"
  if ! echo "$SHA256  $tarball" | sha256sum --check --status 2>/dev/null; then
    echo "== downloading RocksDB $VERSION's source from Debian"
    curl --fail --silent --show-error --location --retry 3 -o "$tarball.part" "$URL"
    echo "$SHA256  $tarball.part" | sha256sum --check --status ||
      { echo "RocksDB source: SHA-256 mismatch" >&2; rm -f "$tarball.part"; exit 1; }
    mv "$tarball.part" "$tarball"
  fi

  work=$prefix.work
  rm -rf "$work" "$prefix"
  mkdir -p "$work"
  tar -xzf "$tarball" -C "$work"
  echo "== building RocksDB $VERSION with NDEBUG into $prefix"
  # The compiler cache serves a rebuild in another checkout: paths are taken relative to it.
  launcher=()
  if command -v ccache >/dev/null; then
    launcher=(-DCMAKE_C_COMPILER_LAUNCHER=ccache -DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
    export CCACHE_BASEDIR="$work"
  fi
  cmake -S "$work/rocksdb-$VERSION" -B "$work/build" -G Ninja "${OPTIONS[@]}" "${launcher[@]}" \
    >"$work/configure.log"
  ninja -C "$work/build" rocksdb >"$work/build.log" ||
    { tail -40 "$work/build.log" >&2; exit 1; }
  cmake --install "$work/build" --prefix "$prefix" >/dev/null
  echo "$stamp" >"$prefix/.built-from"
  rm -rf "$work"
}

# The build runs as a process of its own, so that any failing step stops it (a function called in
# a condition would run on past failures).
if [ "${1:-}" = build ]; then
  build_rocksdb
  exit 0
fi
if [ ! -f "$prefix/.built-from" ] || [ "$(cat "$prefix/.built-from")" != "$stamp" ]; then
  if ! "${BASH_SOURCE[0]}" build >&2; then
    echo "== RocksDB $VERSION could not be built with NDEBUG: Debian's librocksdb-dev is used" >&2
    echo "-DRocksDB_DIR=/usr/lib/$(gcc -print-multiarch)/cmake/rocksdb"
    exit 0
  fi
fi
echo "-DRocksDB_DIR=$prefix/lib/cmake/rocksdb"
