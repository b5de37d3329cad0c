# Sourced by the HTTP benchmarks: a Release contractd on a fresh data directory, and a machine
# token for a client of its own. Needs ROOT, BUILD_DIR, PORT and WORK set; sets SERVER_PID and
# BASE, and stops the service and removes WORK on exit.
command -v wrk >/dev/null || { echo "wrk is not installed (apt-get install wrk)" >&2; exit 2; }
[ -x "$BUILD_DIR/app/contractd" ] || { echo "build first: scripts/dev.sh test" >&2; exit 2; }
export WRK_DIR="$ROOT/benchmarks/wrk"
BASE="http://127.0.0.1:$PORT"

cleanup() {
  [ -n "${SERVER_PID:-}" ] && kill "$SERVER_PID" 2>/dev/null && wait "$SERVER_PID" 2>/dev/null
  rm -rf "$WORK"
}
trap cleanup EXIT

# start_contractd [flags...]: ready once /readyz answers.
start_contractd() {
  "$BUILD_DIR/app/contractd" serve --data-dir "$WORK/data" --listen "127.0.0.1:$PORT" \
    --access-log false --rate-limit 0 "$@" >"$WORK/server.out" 2>"$WORK/server.err" &
  SERVER_PID=$!
  for _ in $(seq 100); do
    curl -sf "$BASE/readyz" >/dev/null && break
    sleep 0.1
  done
}

# machine_token ORG PERMISSIONS: the access token of a new client of ORG.
machine_token() {
  local client id secret
  client=$("$BUILD_DIR/app/contractd" clients create --data-dir "$WORK/data" --org "$1" \
    --name "$1" --permissions "$2")
  id=$(echo "$client" | sed -E 's/.*"clientId":"([^"]+)".*/\1/')
  secret=$(echo "$client" | sed -E 's/.*"clientSecret":"([^"]+)".*/\1/')
  curl -sf -X POST "$BASE/api/v1/auth/machine-token" -H 'Content-Type: application/json' \
    -d "{\"clientId\":\"$id\",\"clientSecret\":\"$secret\"}" |
    sed -E 's/.*"accessToken":"([^"]+)".*/\1/'
}

# metric NAME: the value of one series of /metrics, as an integer.
metric() {
  curl -sf "$BASE/metrics" | awk -v name="$1" '$1 == name {printf "%.0f", $2}'
}
