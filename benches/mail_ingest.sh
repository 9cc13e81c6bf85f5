#!/usr/bin/env bash
# Benchmark: order mails per second through `stationmaster mail ingest`, end to end — each mail is
# piped to a fresh process as an MTA would, stored raw, parsed, routed by its signed reply
# address, authenticated, its orders stored as a new version, and the echo queued in the outbox.
#
#   bash benches/mail_ingest.sh [mails] [parallel-pipes] [handoff|full|store-only]
#
# Each mail is delivered as Postfix's pipe(8) does: a fork and exec of `stationmaster mail ingest`
# (no shell) with the message on its standard input, `parallel-pipes` at a time.
# `handoff` (default): `stationmaster serve` runs (started here, stopped at the end) and each pipe
# process hands its mail to it over the ingest socket; the server stores it with its warm pool,
# answers, and processes it at once. The clock stops when every echo is queued.
# `full`: no server; each pipe process stores and processes its mail itself. `store-only`: each pipe only
# stores the raw mail (`mail ingest --store-only`) and one `mail process` run — standing in for
# the server's worker with its warm connection pool — processes them all; both phases are timed.
# Fresh database `stationmaster_bench_mail`, 50 four-seat Railroaded games (200 seats); the mails
# are spread over the seats (each seat's own signed reply address and registered From).
set -euo pipefail
cd "$(dirname "$0")/.."
MAILS=${1:-3000}
PARALLEL=${2:-4}
MODE=${3:-handoff}
FLAG=""; [ "$MODE" = store-only ] && FLAG="--store-only"
case "$MODE" in handoff|full|store-only) ;; *) echo "unknown mode $MODE" >&2; exit 2 ;; esac
DB_BASE=${BENCH_DATABASE_BASE:-postgres://postgres@127.0.0.1:5432}
export DATABASE_URL="$DB_BASE/stationmaster_bench_mail" RUST_LOG=error
WORK=$(mktemp -d)
SERVER=""
trap '[ -n "$SERVER" ] && kill "$SERVER" 2>/dev/null; rm -rf "$WORK"' EXIT
# The pipes hand over on this socket only in handoff mode (otherwise nothing listens on it).
export STATIONMASTER_INGEST_SOCKET="$WORK/ingest.sock"

# STATIONMASTER_BIN: measure another build (e.g. an older commit's) instead of this tree's.
if [ -z "${STATIONMASTER_BIN:-}" ]; then cargo build --release --quiet --bin stationmaster; fi
# The MTA: fork and exec per mail, no shell, as Postfix's pipe(8) delivers (benches/mta/pipe.rs).
rustc -O --edition 2021 benches/mta/pipe.rs -o "$WORK/pipe"
BIN=${STATIONMASTER_BIN:-$PWD/target/release/stationmaster}
psql "$DB_BASE/postgres" -qc "DROP DATABASE IF EXISTS stationmaster_bench_mail" >/dev/null 2>&1
for g in $(seq 1 50); do
  "$BIN" game create --json --engine railroaded --name "Mail $g" --gm gm@bench.test --seed "$g" --deadline 30d \
    --player "A <a$g@bench.test>" --player "B <b$g@bench.test>" --player "C <c$g@bench.test>" --player "D <d$g@bench.test>" >/dev/null
done
psql "$DATABASE_URL" -Atc "SELECT to_addr || ' ' || reply_to FROM outbox WHERE kind = 'welcome'" >"$WORK/seats"
mapfile -t SEATS <"$WORK/seats"
mkdir "$WORK/mail"
for i in $(seq 1 "$MAILS"); do
  read -r from to <<<"${SEATS[$((i % ${#SEATS[@]}))]}"
  printf 'From: Player <%s>\r\nTo: %s\r\nSubject: Orders\r\nMessage-ID: <bench-%s@bench.test>\r\nContent-Type: text/plain; charset=utf-8\r\n\r\nCLAIM 7H NORTH\r\nPLAY 8H NORTH ELSE DRAW\r\n\r\nOn Mon, someone wrote:\r\n> old stuff\r\n' \
    "$from" "$to" "$i" >"$WORK/mail/$i.eml"
done
if [ "$MODE" = handoff ]; then
  STATIONMASTER_BIND=127.0.0.1:0 "$BIN" serve >"$WORK/server.log" 2>&1 &
  SERVER=$!
  for _ in $(seq 1 200); do [ -S "$STATIONMASTER_INGEST_SOCKET" ] && break; sleep 0.05; done
  [ -S "$STATIONMASTER_INGEST_SOCKET" ] || { cat "$WORK/server.log"; echo "the server did not listen" >&2; exit 1; }
fi
echo "piping $MAILS mails through $PARALLEL parallel 'mail ingest' processes..."
start=$(date +%s.%N)
# CPU seconds (user + system) of a process and of its waited-for children, from /proc.
cpu() { awk -v hz="$(getconf CLK_TCK)" '{ print ($14 + $15 + $16 + $17) / hz }' "/proc/$1/stat" 2>/dev/null || echo 0; }
backends() { psql "$DB_BASE/postgres" -Atc "SELECT pid FROM pg_stat_activity WHERE datname = 'stationmaster_bench_mail'"; }
backends_cpu() { local t=0; for p in $(backends); do t=$(python3 -c "print($t + $(cpu "$p"))"); done; echo "$t"; }
server_cpu0=0; [ -n "$SERVER" ] && server_cpu0=$(cpu "$SERVER")
pg_cpu0=$(backends_cpu)
# shellcheck disable=SC2086 # $FLAG is empty or one word
/usr/bin/time -f "%U %S" -o "$WORK/pipes.cpu" "$WORK/pipe" "$PARALLEL" "$WORK/mail" "$BIN" mail ingest $FLAG >/dev/null
stored=$(date +%s.%N)
[ "$MODE" = store-only ] && "$BIN" mail process
if [ "$MODE" = handoff ]; then
  # Stored is not enough: the clock stops when the server has queued every echo.
  until [ "$(psql "$DATABASE_URL" -Atc "SELECT count(*) FROM outbox WHERE kind = 'order-echo'")" -ge "$MAILS" ]; do
    sleep 0.05
  done
fi
end=$(date +%s.%N)
server_cpu=0; [ -n "$SERVER" ] && server_cpu=$(python3 -c "print($(cpu "$SERVER") - $server_cpu0)")
pg_cpu=$(python3 -c "print($(backends_cpu) - $pg_cpu0)")
read -r pipes_user pipes_sys <"$WORK/pipes.cpu"
python3 -c "print(f'CPU per mail: pipe processes {($pipes_user+$pipes_sys)/$MAILS*1000:.2f} ms (incl. the MTA driver), '
  f'server {$server_cpu/$MAILS*1000:.2f} ms, Postgres backends of the server pool {$pg_cpu/$MAILS*1000:.2f} ms')"
python3 -c "print(f'stored in {$stored-$start:.2f} s, processed in {$end-$stored:.2f} s')"
accepted=$(psql "$DATABASE_URL" -Atc "SELECT count(*) FROM inbound_messages WHERE status = 'accepted'")
echoes=$(psql "$DATABASE_URL" -Atc "SELECT count(*) FROM outbox WHERE kind = 'order-echo'")
python3 -c "s=$end-$start; print(f'{$MAILS} mails in {s:.2f} s = {$MAILS/s:.0f} mails/s; accepted {$accepted}, echoes queued {$echoes}')"
echo "mode $MODE, $PARALLEL parallel pipes, load average: $(cut -d' ' -f1-3 /proc/loadavg)"
if [ -n "$SERVER" ]; then kill -INT "$SERVER"; wait "$SERVER" || true; SERVER=""; fi
