#!/usr/bin/env bash
# Every workload of the service beside the reference a user would weigh it against, in one sitting
# on one machine, as ratios: absolute figures differ from machine to machine, ratios are what we
# compare (DESIGN 19).
#
#   benchmarks/compare.sh [seconds per HTTP workload, default 10] [connections, default 64]
#
# References: nginx answering the service's own status JSON (the HTTP ceiling; for scale, also the
# list page of the same run, about twenty times its size, which no target uses), PostgreSQL
# storing an event of the same size from 64 clients with synchronous commit (the usual event
# store), plain RocksDB synced puts from 64 threads, and `openssl speed sha256` on 512-byte blocks
# (the hashing ceiling of verification). Installs what it needs from Debian and builds what is
# missing (Release).
# Environment: VERIFY_EVENTS (default 1000000), BUILD_DIR (default build/release).
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD_DIR=${BUILD_DIR:-$ROOT/build/release}
DURATION=${1:-10}
CONNECTIONS=${2:-64}
VERIFY_EVENTS=${VERIFY_EVENTS:-1000000}
NGINX_PORT=${NGINX_PORT:-18081}
PG_PORT=${PG_PORT:-15432}
WORK=$(mktemp -d /tmp/contract-compare.XXXXXX)
chmod 755 "$WORK"

as_root() {
  if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi
}

install_missing() {
  local missing=()
  for p in "$@"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  if [ ${#missing[@]} -gt 0 ]; then
    echo "== installing: ${missing[*]}" >&2
    as_root apt-get update -qq
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
      "${missing[@]}" >&2
  fi
}

build_missing() {
  local targets=(contractd contract-ledger ledger_bench webhook_bench kafka-mock-cluster) need=0
  for binary in app/contractd app/contract-ledger benchmarks/ledger_bench benchmarks/webhook_bench; do
    [ -x "$BUILD_DIR/$binary" ] || need=1
  done
  [ -x "$BUILD_DIR/tests/support/kafka-mock-cluster" ] ||
    [ -x "$BUILD_DIR/benchmarks/kafka-mock-cluster" ] || need=1
  [ $need = 0 ] && return 0
  echo "== building ${targets[*]} in $BUILD_DIR (Release)" >&2
  install_missing build-essential cmake ninja-build ccache pkg-config libboost1.81-dev \
    libboost-json1.81-dev libboost-url1.81-dev libboost-program-options1.81-dev librocksdb-dev \
    librdkafka-dev libssl-dev libcairo2-dev libpango1.0-dev libqpdf-dev libjemalloc-dev \
    libcurl4-openssl-dev libbenchmark-dev fonts-dejavu-core fonts-noto-core curl
  # The RocksDB the service is built with (scripts/rocksdb.sh).
  local rocksdb
  rocksdb=$("$ROOT/scripts/rocksdb.sh")
  # A build directory that exists keeps its own settings (its tests, say): only the benchmarks
  # are switched on.
  if [ -f "$BUILD_DIR/CMakeCache.txt" ]; then
    cmake -S "$ROOT" -B "$BUILD_DIR" "$rocksdb" -DBUILD_BENCHMARKS=ON >/dev/null
  else
    cmake -S "$ROOT" -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_UNITY_BUILD=ON \
      "$rocksdb" -DBUILD_TESTING=OFF -DBUILD_BENCHMARKS=ON >/dev/null
  fi
  ninja -C "$BUILD_DIR" "${targets[@]}" >&2
}

NGINX_STARTED=0
PG_STARTED=0
PG_BIN=""
cleanup() {
  [ $NGINX_STARTED = 1 ] && nginx -p "$WORK/nginx" -c "$WORK/nginx/nginx.conf" -s stop 2>/dev/null
  [ $PG_STARTED = 1 ] && runuser -u postgres -- "$PG_BIN/pg_ctl" -D "$WORK/pg" -m fast stop \
    >/dev/null 2>&1
  rm -rf "$WORK"
}
trap cleanup EXIT

# wrk's requests/s against one URL, keep-alive, the same connections and thread as load.sh.
wrk_rps() {
  wrk -t1 -c"$CONNECTIONS" -d"${DURATION}s" "$1" | awk '/Requests\/sec/ {printf "%.0f", $2}'
}

# Started in this shell, not in a command substitution's subshell: cleanup must see NGINX_STARTED.
nginx_start() {
  mkdir -p "$WORK/nginx/logs"
  # The body is the service's own status answer, captured by load.sh; single quotes escaped for
  # nginx's string syntax.
  local body
  body=$(sed "s/'/\\\\'/g" "$WORK/status.json")
  cat >"$WORK/nginx/nginx.conf" <<CONF
$([ "$(id -u)" = 0 ] && echo "user root;")
worker_processes auto;
pid $WORK/nginx/nginx.pid;
error_log $WORK/nginx/logs/error.log;
events { worker_connections 4096; }
http {
  access_log off;
  keepalive_requests 10000000;
  client_body_temp_path $WORK/nginx/body;
  proxy_temp_path $WORK/nginx/proxy;
  fastcgi_temp_path $WORK/nginx/fastcgi;
  uwsgi_temp_path $WORK/nginx/uwsgi;
  scgi_temp_path $WORK/nginx/scgi;
  server {
    listen 127.0.0.1:$NGINX_PORT;
    location / { default_type application/json; return 200 '$body'; }
    # The list page of the same run (about 20 times the status answer's size), from a file.
    location = /list.json { root $WORK; default_type application/json; }
  }
}
CONF
  nginx -p "$WORK/nginx" -c "$WORK/nginx/nginx.conf"
  NGINX_STARTED=1
  for _ in $(seq 50); do curl -sf "http://127.0.0.1:$NGINX_PORT/" >/dev/null && break; sleep 0.1; done
  # Another server on the port would be measured instead: refuse to go on.
  curl -sf "http://127.0.0.1:$NGINX_PORT/list.json" >/dev/null ||
    { echo "nginx did not start on port $NGINX_PORT" >&2; exit 1; }
}

# A PostgreSQL with a table with the keys an event store needs (started in this shell, as nginx).
postgres_start() {
  PG_BIN=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)
  mkdir -p "$WORK/pg" "$WORK/pgsock"
  chown postgres "$WORK/pg" "$WORK/pgsock"
  runuser -u postgres -- "$PG_BIN/initdb" -D "$WORK/pg" -A trust >/dev/null
  runuser -u postgres -- "$PG_BIN/pg_ctl" -D "$WORK/pg" -l "$WORK/pg/server.log" -w \
    -o "-p $PG_PORT -k $WORK/pgsock -c listen_addresses='' -c max_connections=100 \
        -c synchronous_commit=on -c fsync=on" start >/dev/null
  PG_STARTED=1
  local psql=(runuser -u postgres -- "$PG_BIN/psql" -q -h "$WORK/pgsock" -p "$PG_PORT" postgres)
  "${psql[@]}" -c "CREATE TABLE events (
      position bigserial PRIMARY KEY, stream_id text NOT NULL, stream_version int NOT NULL,
      event_id uuid NOT NULL UNIQUE, type text NOT NULL, data jsonb NOT NULL,
      recorded_at timestamptz NOT NULL DEFAULT now(), UNIQUE (stream_id, stream_version))"
  local payload
  payload=$(tr -d '\n' <"$ROOT/examples/requests/create-nda.json" | sed "s/'/''/g")
  cat >"$WORK/insert.sql" <<SQL
INSERT INTO events (stream_id, stream_version, event_id, type, data) VALUES ('ctr_' || gen_random_uuid(), 1, gen_random_uuid(), 'contract.created', '$payload'::jsonb);
SQL
  chmod 644 "$WORK/insert.sql"
}

# Events of the size of a created contract's, inserted by 64 pgbench clients, each insert its own
# synchronously committed transaction.
postgres_tps() {
  runuser -u postgres -- "$PG_BIN/pgbench" -n -h "$WORK/pgsock" -p "$PG_PORT" -c 64 -j 2 \
    -T "$DURATION" -M prepared -f "$WORK/insert.sql" postgres 2>/dev/null |
    awk '/^tps = / {printf "%.0f", $3}'
}

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "-" }'; }

row() {  # workload, figure, its unit text, reference name, reference figure, target
  printf '%-34s %12s %-14s %-44s %12s %6s   %s\n' "$1" "$2" "$3" "$4" "$5" "$(ratio "$2" "$5")" "$6"
}

install_missing nginx-light postgresql postgresql-contrib wrk jq curl openssl
build_missing

echo "== contractd over HTTP (benchmarks/load.sh $DURATION $CONNECTIONS)" >&2
STATUS_SAMPLE="$WORK/status.json" LIST_SAMPLE="$WORK/list.json" \
  "$ROOT/benchmarks/load.sh" "$DURATION" "$CONNECTIONS" | tee "$WORK/load.out" >&2
field() { awk -v name="$1" -v col="$2" '$0 ~ "^"name" " {print $col}' "$WORK/load.out"; }
CREATE=$(field create 2 | cut -d. -f1)
CREATE_P99=$(awk '/^create / {print $7}' "$WORK/load.out")
STATUS=$(awk '/^get status / {print $3}' "$WORK/load.out" | cut -d. -f1)
LIST=$(awk '/^list filtered / {print $3}' "$WORK/load.out" | cut -d. -f1)
SEND=$(field send 2 | cut -d. -f1)
SEND_P99=$(awk '/^send / {print $7}' "$WORK/load.out")
PEAK=$(sed -n 's/^contractd peak memory: //p' "$WORK/load.out")

echo "== creates held for 60 s, the views' lag beside them (benchmarks/sustained_create.sh)" >&2
"$ROOT/benchmarks/sustained_create.sh" 60 "$CONNECTIONS" | tee "$WORK/sustained.out" >&2
SUSTAINED=$(awk '/^sustained create/ {print $3}' "$WORK/sustained.out" | cut -d. -f1)

nginx_start
echo "== nginx, the status answer, keep-alive" >&2
NGINX=$(wrk_rps "http://127.0.0.1:$NGINX_PORT/api/v1/contracts/ctr_1/status")
echo "== nginx, the list page, keep-alive" >&2
NGINX_LIST=$(wrk_rps "http://127.0.0.1:$NGINX_PORT/list.json")
echo "== PostgreSQL, 64 clients inserting events, synchronous commit" >&2
postgres_start
POSTGRES=$(postgres_tps)

echo "== ledger_bench: append_concurrent beside plain RocksDB synced puts (64 threads)" >&2
"$BUILD_DIR/benchmarks/ledger_bench" --benchmarks=append_concurrent,rocksdb_put_64threads \
  --num=200000 --db="$WORK/ledger_bench" | tee "$WORK/ledger.out" >&2
APPEND=$(awk '/^append_concurrent/ {print $3}' "$WORK/ledger.out" | cut -d. -f1)
PUTS=$(awk '/^rocksdb_put_64threads/ {print $3}' "$WORK/ledger.out" | cut -d. -f1)

echo "== contract-ledger verify over $VERIFY_EVENTS events" >&2
"$ROOT/benchmarks/ledger_verify.sh" --build "$BUILD_DIR" --dir "$WORK/verify" \
  --num "$VERIFY_EVENTS" --runs 2 | tee "$WORK/verify.out" >&2
VERIFY=$(sed -n 's/^best: \([0-9]*\) events\/s/\1/p' "$WORK/verify.out")
SHA_KBS=$(openssl speed -bytes 512 -seconds 3 sha256 2>/dev/null | awk '$1 == "sha256" {print $2}')
SHA_BLOCKS=$(awk -v k="${SHA_KBS%k}" 'BEGIN { printf "%.0f", k * 1000 / 512 }')

# The burst starts once the dispatcher's consumer group has formed, as in a running service: the
# group's first formation after a start takes 3 s on the embedded cluster (its fixed initial
# rebalance delay; docs/webhooks.md), which a 5,000-event burst would otherwise count.
echo "== webhook deliveries to 10 endpoints (webhook_bench --idle 5)" >&2
"$BUILD_DIR/benchmarks/webhook_bench" --endpoints 10 --seconds 2 --idle 5 |
  tee "$WORK/webhook.out" >&2
WEBHOOKS=$(awk '/^throughput/ {for (i = 1; i <= NF; ++i) if ($i == "=") {print $(i + 1); exit}}' \
  "$WORK/webhook.out" | cut -d. -f1)

echo "== the replicated log: create with it and without it, and a failover (benchmarks/replication.sh)" >&2
"$ROOT/benchmarks/replication.sh" "$DURATION" "$CONNECTIONS" | tee "$WORK/replication.out" >&2
REPLICATED=$(awk '/^create replicated/ {print $3}' "$WORK/replication.out" | cut -d. -f1)
LOCAL=$(awk '/^create local/ {print $3}' "$WORK/replication.out" | cut -d. -f1)
REPLICATED_P99=$(awk '/^create replicated/ {print $8}' "$WORK/replication.out")
FAILOVER=$(awk '/^failover/ {print $2}' "$WORK/replication.out")

echo "== status reads while a bulk send runs (benchmarks/bulk_send.sh)" >&2
"$ROOT/benchmarks/bulk_send.sh" "$DURATION" "$CONNECTIONS" | tee "$WORK/bulk.out" >&2
BULK_IDLE=$(awk '/^status, no job/ {print $4}' "$WORK/bulk.out" | cut -d. -f1)
BULK_BUSY=$(awk '/^status, a bulk send running/ {print $6}' "$WORK/bulk.out" | cut -d. -f1)
BULK_IDLE_P99=$(awk '/^status, no job/ {print $9}' "$WORK/bulk.out")
BULK_BUSY_P99=$(awk '/^status, a bulk send running/ {print $11}' "$WORK/bulk.out")

echo
echo "compare: $(nproc) cores, $(awk '/MemTotal/ {printf "%.0f GiB", $2 / 1048576}' /proc/meminfo)," \
  "$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1), ${DURATION}s per HTTP workload," \
  "$CONNECTIONS connections"
printf '%-34s %12s %-14s %-44s %12s %6s   %s\n' workload figure unit reference "ref figure" ratio \
  target
row "create contract, durable" "$CREATE" "req/s" "PostgreSQL event insert, 64 clients, synced" \
  "$POSTGRES" ">= 2"
row "create, sustained 60 s" "$SUSTAINED" "req/s" "PostgreSQL event insert, 64 clients, synced" \
  "$POSTGRES" ">= 1.0"
row "get status" "$STATUS" "req/s" "nginx, the same JSON, keep-alive" "$NGINX" ">= 0.6"
row "list, filtered" "$LIST" "req/s" "nginx, the same JSON, keep-alive" "$NGINX" ">= 0.2"
row "  (the same, beside its own page)" "$LIST" "req/s" \
  "nginx, the same list page ($(wc -c <"$WORK/list.json") B)" "$NGINX_LIST" "(for scale)"
row "send (renders the PDF)" "$SEND" "req/s" "create, same run" "$CREATE" ">= 0.25"
row "ledger append_concurrent" "$APPEND" "appends/s" "plain RocksDB synced puts, 64 threads" \
  "$PUTS" ">= 3"
row "contract-ledger verify" "$VERIFY" "events/s" "openssl speed sha256, 512-byte blocks" \
  "$SHA_BLOCKS" ">= 0.35"
row "webhook deliveries, 10 endpoints" "$WEBHOOKS" "deliveries/s" "nginx, the same JSON, keep-alive" \
  "$NGINX" ">= 0.15"
row "create, log replicated (3 brokers)" "$REPLICATED" "req/s" "create, log on the local disk, same run" \
  "$LOCAL" "(cost)"
row "status, a bulk send running" "$BULK_BUSY" "req/s" "status with no job, same run" "$BULK_IDLE" \
  ">= 0.7"
echo "create p99 $CREATE_P99, send p99 $SEND_P99 (target < 150ms); contractd peak memory $PEAK"
echo "$(cat "$WORK/sustained.out") (target: views under 1 s behind)"
echo "status p99 $BULK_IDLE_P99 with no job, $BULK_BUSY_P99 while a bulk send runs at 50 rows/s"
echo "replicated create p99 $REPLICATED_P99; failover $FAILOVER ms from the writer's SIGKILL to the first create on the promoted standby (target < 10000)"
