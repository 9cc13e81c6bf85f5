#!/usr/bin/env bash
# Benchmark: sealed order submissions per second through the HTTP API, with a real Postgres.
#
#   bash benches/api_orders.sh [duration-seconds] [connections]
#
# Builds the release binary, creates a fresh database `stationmaster_bench`, starts the server on
# 127.0.0.1:18080, creates four-seat Railroaded games through the console (100 per second of the
# run, at least 100: a seat may store 50 versions a turn, ruling W1, so 20,000 requests/s stay
# under the cap),
# then drives POST /api/v1/games/{id}/orders with wrk (each request a different seat in turn;
# every request appends a new order version with its echo and receipt). Prints wrk's report with
# latency percentiles. Needs wrk (Debian package `wrk`; installed here if missing and root).
#
# Then, in the same run and on the same database server, pgbench's single-row inserts (8 clients,
# the same duration) as the yardstick issue 32 measures the intake against, and the ratio of the
# two rates (PGBENCH=0 skips it). Both print the CPU time spent per request (the server, and the
# database backends serving the benchmark's database): a figure the other load on the machine
# disturbs far less than the rates.
set -euo pipefail
cd "$(dirname "$0")/.."
DURATION=${1:-20}
CONNECTIONS=${2:-32}
PORT=18080
DB_BASE=${BENCH_DATABASE_BASE:-postgres://postgres@127.0.0.1:5432}
DB="$DB_BASE/stationmaster_bench"
WORK=$(mktemp -d)

# CPU time (clock ticks) used so far by the processes whose command line matches $1.
ticks() {
  local total=0 pid f
  for pid in $(pgrep -f "$1"); do
    f=$(sed 's/.*) //' "/proc/$pid/stat" 2>/dev/null) || continue
    set -- $f
    total=$((total + ${12} + ${13}))
  done
  echo "$total"
}
# Milliseconds of CPU per request: ticks, requests.
per_request() { python3 -c "import os,sys; print(f'{int(sys.argv[1]) * 1000 / os.sysconf(\"SC_CLK_TCK\") / max(1, int(sys.argv[2])):.3f}')" "$1" "$2"; }
BACKENDS="postgres: .*stationmaster_bench"

command -v wrk >/dev/null || { apt-get install -y -qq wrk >/dev/null; }
# BIN=path/to/stationmaster measures another build (e.g. an older commit's) with the same script.
if [ -z "${BIN:-}" ]; then
  cargo build --release --quiet --bin stationmaster
  BIN=target/release/stationmaster
fi

psql "$DB_BASE/postgres" -qc "DROP DATABASE IF EXISTS stationmaster_bench" >/dev/null
export DATABASE_URL=$DB RUST_LOG=warn STATIONMASTER_BIND=127.0.0.1:$PORT STATIONMASTER_BASE_URL=http://127.0.0.1:$PORT
"$BIN" serve >"$WORK/server.log" 2>&1 &
SERVER=$!
trap 'kill $SERVER 2>/dev/null || true; rm -rf "$WORK"' EXIT
for _ in $(seq 1 50); do curl -sf "http://127.0.0.1:$PORT/healthz" >/dev/null && break; sleep 0.2; done

GAMES=$(( DURATION * 100 > 100 ? DURATION * 100 : 100 ))
echo "creating $GAMES games..."
create() {
  "$BIN" game create --json --engine railroaded --name "Bench $1" --gm gm@bench.test --seed "$1" --deadline 30d \
    --player "A <a$1@bench.test>" --player "B <b$1@bench.test>" --player "C <c$1@bench.test>" --player "D <d$1@bench.test>" \
    >"$WORK/game-$1.json"
}
export -f create
export BIN WORK
seq 1 "$GAMES" | xargs -P 4 -I{} bash -c 'create {}'
python3 -c 'import glob,json,sys; [print(d["game"]+"|"+s["token"]) for f in sorted(glob.glob(sys.argv[1] + "/game-*.json")) for d in [json.load(open(f))] for s in d["seats"]]' "$WORK" >"$WORK/tokens"

{
  echo "local tokens = {"
  sed 's/.*/  "&",/' "$WORK/tokens"
  echo "}"
  cat <<'LUA'
-- Each wrk thread takes every other request number, and consecutive numbers go to seats of
-- different games (a prime stride through the list, which is in game order): no two of the
-- benchmark's connections send for the same seat at once, and a game's four seats are not all
-- in flight together. (Until issue 32's second slice both threads walked the list in game order,
-- so each game's four seats were sent for at the same moment, twice over — a hot spot no table of
-- players makes; BENCHMARKS has the figures of both orders.)
local threads = 0
function setup(thread)
  thread:set("first", threads)
  threads = threads + 1
end
local i = nil
local body = "# bench orders\nCLAIM 7H NORTH\nPLAY 8H NORTH ELSE PLAY 8D EAST ELSE DRAW\n"
request = function()
  i = (i or first) + 2
  local game, tok = tokens[(i * 7919) % #tokens + 1]:match("([^|]+)|(.+)")
  return wrk.format("POST", "/api/v1/games/" .. game .. "/orders",
    { ["Authorization"] = "Bearer " .. tok, ["Content-Type"] = "text/plain" }, body)
end
LUA
} >"$WORK/orders.lua"

echo "running wrk for ${DURATION}s with $CONNECTIONS connections..."
xacts() { psql "$DB" -Atc "select xact_commit || ' ' || xact_rollback from pg_stat_database where datname = current_database()"; }
read -r C0 RB0 <<<"$(xacts)"
S0=$(ticks "$BIN serve"); P0=$(ticks "$BACKENDS")
wrk -t2 -c"$CONNECTIONS" -d"${DURATION}s" --latency -s "$WORK/orders.lua" "http://127.0.0.1:$PORT" | tee "$WORK/wrk.out"
S1=$(ticks "$BIN serve"); P1=$(ticks "$BACKENDS")
answered=$(awk '/requests in/ {print $1}' "$WORK/wrk.out")
echo "order versions stored: $(psql "$DB" -Atc 'select count(*) from order_versions')"
read -r C1 RB1 <<<"$(xacts)"
# The short path is one statement (one commit) per request; the locked path a transaction of
# several, and a short-path append that raced the seat's own other submission a rollback first.
echo "database transactions per request: $(python3 -c "import sys; c, r, n = map(int, sys.argv[1:]); print(f'{c / max(n, 1):.2f} committed, {r / max(n, 1):.3f} rolled back')" $((C1 - C0)) $((RB1 - RB0)) "$answered")"
echo "CPU per request: server $(per_request $((S1 - S0)) "$answered") ms, database $(per_request $((P1 - P0)) "$answered") ms"

if [ "${PGBENCH:-1}" != 0 ]; then
  kill $SERVER 2>/dev/null || true
  wait $SERVER 2>/dev/null || true
  psql "$DB" -qc "CREATE TABLE pgbench_rows (id bigserial PRIMARY KEY, body text NOT NULL)" >/dev/null
  echo "INSERT INTO pgbench_rows (body) VALUES ('CLAIM 7H NORTH');" >"$WORK/insert.sql"
  echo "running pgbench single-row inserts for ${DURATION}s with 8 clients..."
  pgbench -n -c 8 -j 2 -T "$DURATION" -f "$WORK/insert.sql" "$DB" >"$WORK/pgbench.out" &
  BENCH=$!
  # pgbench's connections live as long as the run: measured from its second second to its last.
  sleep 1.5
  Q0=$(ticks "$BACKENDS"); R0=$(psql "$DB" -Atc 'select count(*) from pgbench_rows')
  sleep "$(python3 -c "print(max(1, $DURATION - 2.5))")"
  Q1=$(ticks "$BACKENDS"); R1=$(psql "$DB" -Atc 'select count(*) from pgbench_rows')
  wait $BENCH
  grep -E '^(tps|latency)' "$WORK/pgbench.out"
  echo "CPU per insert: database $(per_request $((Q1 - Q0)) $((R1 - R0))) ms"
  api=$(awk '/^Requests\/sec:/ {print $2}' "$WORK/wrk.out")
  pg=$(awk '/^tps = / {print $3; exit}' "$WORK/pgbench.out")
  python3 -c "import sys; a, p = float(sys.argv[1]), float(sys.argv[2]); print(f'API {a:,.0f}/s against pgbench {p:,.0f}/s: {a / p:.2f}x')" "$api" "$pg"
fi
