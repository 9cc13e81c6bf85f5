#!/usr/bin/env bash
# Benchmark: sealed order submissions per second through the HTTP API, with a real Postgres.
#
#   bash benches/api_orders.sh [duration-seconds] [connections]
#
# Builds the release binary, creates a fresh database `stationmaster_bench`, starts the server on
# 127.0.0.1:18080, creates four-seat Railroaded games through the console (10 per second of the
# run, at least 50: a seat may store 50 versions a turn, ruling W1, so 2,000 requests/s stay
# under the cap),
# then drives POST /api/v1/games/{id}/orders with wrk (each request a different seat in turn;
# every request appends a new order version with its echo and receipt). Prints wrk's report with
# latency percentiles. Needs wrk (Debian package `wrk`; installed here if missing and root).
set -euo pipefail
cd "$(dirname "$0")/.."
DURATION=${1:-20}
CONNECTIONS=${2:-32}
PORT=18080
DB_BASE=${BENCH_DATABASE_BASE:-postgres://postgres@127.0.0.1:5432}
DB="$DB_BASE/stationmaster_bench"
WORK=$(mktemp -d)

command -v wrk >/dev/null || { apt-get install -y -qq wrk >/dev/null; }
cargo build --release --quiet --bin stationmaster
BIN=target/release/stationmaster

psql "$DB_BASE/postgres" -qc "DROP DATABASE IF EXISTS stationmaster_bench" >/dev/null
export DATABASE_URL=$DB RUST_LOG=warn STATIONMASTER_BIND=127.0.0.1:$PORT STATIONMASTER_BASE_URL=http://127.0.0.1:$PORT
"$BIN" serve >"$WORK/server.log" 2>&1 &
SERVER=$!
trap 'kill $SERVER 2>/dev/null || true; rm -rf "$WORK"' EXIT
for _ in $(seq 1 50); do curl -sf "http://127.0.0.1:$PORT/healthz" >/dev/null && break; sleep 0.2; done

GAMES=$(( DURATION * 10 > 50 ? DURATION * 10 : 50 ))
echo "creating $GAMES games..."
: >"$WORK/tokens"
for g in $(seq 1 "$GAMES"); do
  "$BIN" game create --json --engine railroaded --name "Bench $g" --gm gm@bench.test --seed "$g" --deadline 30d \
    --player "A <a$g@bench.test>" --player "B <b$g@bench.test>" --player "C <c$g@bench.test>" --player "D <d$g@bench.test>" \
    | python3 -c 'import json,sys; d=json.load(sys.stdin); [print(d["game"]+"|"+s["token"]) for s in d["seats"]]' >>"$WORK/tokens"
done

{
  echo "local tokens = {"
  sed 's/.*/  "&",/' "$WORK/tokens"
  echo "}"
  cat <<'LUA'
local i = 0
local body = "# bench orders\nCLAIM 7H NORTH\nPLAY 8H NORTH ELSE PLAY 8D EAST ELSE DRAW\n"
request = function()
  i = i + 1
  local game, tok = tokens[(i % #tokens) + 1]:match("([^|]+)|(.+)")
  return wrk.format("POST", "/api/v1/games/" .. game .. "/orders",
    { ["Authorization"] = "Bearer " .. tok, ["Content-Type"] = "text/plain" }, body)
end
LUA
} >"$WORK/orders.lua"

echo "running wrk for ${DURATION}s with $CONNECTIONS connections..."
wrk -t2 -c"$CONNECTIONS" -d"${DURATION}s" --latency -s "$WORK/orders.lua" "http://127.0.0.1:$PORT"
echo "order versions stored: $(psql "$DB" -Atc 'select count(*) from order_versions')"
