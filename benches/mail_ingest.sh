#!/usr/bin/env bash
# Benchmark: order mails per second through `stationmaster mail ingest`, end to end — each mail is
# piped to a fresh process as an MTA would, stored raw, parsed, routed by its signed reply
# address, authenticated, its orders stored as a new version, and the echo queued in the outbox.
#
#   bash benches/mail_ingest.sh [mails] [parallel-pipes] [full|store-only]
#
# `full` (default): each pipe process also processes its mail. `store-only`: each pipe only
# stores the raw mail (`mail ingest --store-only`) and one `mail process` run — standing in for
# the server's worker with its warm connection pool — processes them all; both phases are timed.
# Fresh database `stationmaster_bench_mail`, 50 four-seat Railroaded games (200 seats); the mails
# are spread over the seats (each seat's own signed reply address and registered From).
set -euo pipefail
cd "$(dirname "$0")/.."
MAILS=${1:-3000}
PARALLEL=${2:-4}
MODE=${3:-full}
FLAG=""; [ "$MODE" = store-only ] && FLAG="--store-only"
DB_BASE=${BENCH_DATABASE_BASE:-postgres://postgres@127.0.0.1:5432}
export DATABASE_URL="$DB_BASE/stationmaster_bench_mail" RUST_LOG=error
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

cargo build --release --quiet --bin stationmaster
BIN=$PWD/target/release/stationmaster
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
echo "piping $MAILS mails through $PARALLEL parallel 'mail ingest' processes..."
start=$(date +%s.%N)
ls "$WORK/mail" | xargs -P "$PARALLEL" -I{} sh -c "'$BIN' mail ingest $FLAG < '$WORK/mail/{}'"
stored=$(date +%s.%N)
[ "$MODE" = store-only ] && "$BIN" mail process
end=$(date +%s.%N)
python3 -c "print(f'stored in {$stored-$start:.2f} s, processed in {$end-$stored:.2f} s')"
accepted=$(psql "$DATABASE_URL" -Atc "SELECT count(*) FROM inbound_messages WHERE status = 'accepted'")
echoes=$(psql "$DATABASE_URL" -Atc "SELECT count(*) FROM outbox WHERE kind = 'order-echo'")
python3 -c "s=$end-$start; print(f'{$MAILS} mails in {s:.2f} s = {$MAILS/s:.0f} mails/s; accepted {$accepted}, echoes queued {$echoes}')"
