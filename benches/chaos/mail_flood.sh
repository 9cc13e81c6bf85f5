#!/usr/bin/env bash
# Chaos: flood a running server's mail ingest with forged, refused and unrouted mail, then check a
# genuine order mail still gets in (issue 11; docs/RULINGS.md M1–M4).
#
#   bash benches/chaos/mail_flood.sh [forged-senders] [forged-as-victim] [unrouted-one-sender] [unrouted-senders] [parallel]
#
# Defaults 500 200 300 300 4. Everything is bounded and local: a fresh database
# `stationmaster_chaos_mail` on 127.0.0.1, one `stationmaster serve` started here on 127.0.0.1:0
# with its ingest socket in a temporary folder (stopped at the end), one four-seat game, and the
# mails piped to `mail ingest` as Postfix's pipe(8) does (benches/mta/pipe.rs). The waits end after
# 300 s at most. The flood:
#   - forged-senders mails, each from another address, naming seat 1 with a wrong ORDERS token;
#   - forged-as-victim mails with seat 1's player's own From and a wrong token (the old per-sender
#     limit let these lock him out);
#   - mails for no seat from one sender (20 KiB each) and from as many different senders.
# Then seat 1's player sends his orders to his signed reply address. Printed: notices queued to
# the victim and to the flood's senders, rows and raw bytes stored, and whether the genuine mail
# was accepted. STATIONMASTER_BIN measures another build; default: this tree's debug build.
set -euo pipefail
cd "$(dirname "$0")/../.."
FORGED=${1:-500}
AS_VICTIM=${2:-200}
UNROUTED_ONE=${3:-300}
UNROUTED_MANY=${4:-300}
PARALLEL=${5:-4}
DB_BASE=postgres://postgres@127.0.0.1:5432
export DATABASE_URL="$DB_BASE/stationmaster_chaos_mail" RUST_LOG=error STATIONMASTER_SECRET_KEY=chaos-key
export STATIONMASTER_REPLY_DOMAIN=play.chaos.test STATIONMASTER_MAIL_AUTH=record STATIONMASTER_BIND=127.0.0.1:0
WORK=$(mktemp -d)
SERVER=""
trap '[ -n "$SERVER" ] && kill "$SERVER" 2>/dev/null; rm -rf "$WORK"' EXIT
export STATIONMASTER_INGEST_SOCKET="$WORK/ingest.sock"

if [ -z "${STATIONMASTER_BIN:-}" ]; then cargo build --quiet --bin stationmaster; fi
BIN=${STATIONMASTER_BIN:-${CARGO_TARGET_DIR:-$PWD/target}/debug/stationmaster}
rustc -O --edition 2021 benches/mta/pipe.rs -o "$WORK/pipe"
psql "$DB_BASE/postgres" -qc "DROP DATABASE IF EXISTS stationmaster_chaos_mail" >/dev/null 2>&1
"$BIN" game create --json --engine railroaded --name "Chaos" --gm gm@chaos.test --seed 1 --deadline 30d \
  --player "Vic <vic@chaos.test>" --player "B <b@chaos.test>" --player "C <c@chaos.test>" --player "D <d@chaos.test>" >/dev/null
GAME=$(psql "$DATABASE_URL" -Atc "SELECT id FROM games LIMIT 1")
REPLY=$(psql "$DATABASE_URL" -Atc "SELECT reply_to FROM outbox WHERE kind = 'welcome' AND to_addr = 'vic@chaos.test'")
q() { psql "$DATABASE_URL" -Atc "$1"; }

mkdir "$WORK/mail"
mail() { # file from to body
  printf 'From: <%s>\r\nTo: %s\r\nSubject: x\r\nMessage-ID: <%s@chaos.test>\r\n\r\n%s\r\n' "$2" "$3" "$1" "$4" >"$WORK/mail/$1.eml"
}
for i in $(seq 1 "$FORGED"); do mail "f$i" "x$i@evil.test" orders@play.chaos.test "ORDERS $GAME 1 wrongtoken$i"; done
for i in $(seq 1 "$AS_VICTIM"); do mail "v$i" vic@chaos.test orders@play.chaos.test "ORDERS $GAME 1 wrongtoken$i"; done
PAD=$(head -c 20000 /dev/zero | tr '\0' 'z')
for i in $(seq 1 "$UNROUTED_ONE"); do mail "u$i" spam@junk.test gm@play.chaos.test "buy $i $PAD"; done
for i in $(seq 1 "$UNROUTED_MANY"); do mail "m$i" "s$i@junk.test" gm@play.chaos.test "buy $i"; done
TOTAL=$((FORGED + AS_VICTIM + UNROUTED_ONE + UNROUTED_MANY))

"$BIN" serve >"$WORK/server.log" 2>&1 &
SERVER=$!
for _ in $(seq 1 200); do [ -S "$STATIONMASTER_INGEST_SOCKET" ] && break; sleep 0.05; done
[ -S "$STATIONMASTER_INGEST_SOCKET" ] || { cat "$WORK/server.log"; echo "the server did not listen" >&2; exit 1; }

echo "flooding: $TOTAL mails through $PARALLEL parallel 'mail ingest' processes..."
start=$(date +%s.%N)
"$WORK/pipe" "$PARALLEL" "$WORK/mail" "$BIN" mail ingest >/dev/null
for _ in $(seq 1 3000); do [ "$(q "SELECT count(*) FROM inbound_messages WHERE status = 'new'")" = 0 ] && break; sleep 0.1; done
end=$(date +%s.%N)

# The victim's genuine mail, after the flood.
printf 'From: Vic <vic@chaos.test>\r\nTo: %s\r\nSubject: Orders\r\nMessage-ID: <genuine@chaos.test>\r\n\r\nCLAIM 7H NORTH\r\nThanks,\r\nVic\r\n' "$REPLY" \
  | "$BIN" mail ingest --recipient "$REPLY"
for _ in $(seq 1 3000); do [ -n "$(q "SELECT status FROM inbound_messages WHERE message_id = 'genuine@chaos.test' AND status <> 'new'")" ] && break; sleep 0.1; done

python3 -c "s=$end-$start; print(f'{$TOTAL} flood mails ingested and processed in {s:.1f} s ({$TOTAL/s:.0f}/s)')"
echo "notices to the victim (order-echo to vic@): $(q "SELECT count(*) FROM outbox WHERE kind = 'order-echo' AND to_addr = 'vic@chaos.test' AND in_reply_to IS DISTINCT FROM 'genuine@chaos.test'")"
echo "notices to flood senders (inbound-refusal): $(q "SELECT count(*) FROM outbox WHERE kind = 'inbound-refusal'")"
echo "rows stored: $(q "SELECT count(*) FROM inbound_messages") of $((TOTAL + 1)) mails; by status: $(q "SELECT string_agg(status || ' ' || n, ', ') FROM (SELECT status, count(*) n FROM inbound_messages GROUP BY status ORDER BY status) s")"
echo "raw bytes stored: $(q "SELECT sum(octet_length(raw)) FROM inbound_messages") (mail for no seat: $(q "SELECT coalesce(sum(octet_length(raw)), 0) FROM inbound_messages WHERE game_id IS NULL"))"
echo "genuine mail: $(q "SELECT status || ' — ' || outcome FROM inbound_messages WHERE message_id = 'genuine@chaos.test'")"
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
kill -INT "$SERVER"; wait "$SERVER" || true; SERVER=""
