#!/usr/bin/env bash
# Chaos: the SMTP server is down for a stretch while mail is queued (welcome mails, order
# reports of several turns), then comes back: every mail is delivered, and the GM is told — the
# undelivered mail is listed for the GM during the outage, and one summary mail arrives after.
#
#   bash benches/chaos/smtp_outage.sh [outage-seconds] [games]     (defaults: 90 s, 4 games)
#
# Everything runs on 127.0.0.1: a fresh database `stationmaster_chaos_outage`, the server (debug
# build; PROFILE=release for a release build) on port 18472 with STATIONMASTER_MAIL_TELL_AFTER_SECS
# =30, and the project's mail catcher (benches/chaos/mail_catcher.rs) on port 12572 — started only
# when the outage ends. Bounded: the recovery is given 180 s; every process started here is
# stopped on exit.
set -euo pipefail
cd "$(dirname "$0")/../.."
OUTAGE_SECS=${1:-90}
GAMES=${2:-4}
PORT=18472
SMTP=12572
source benches/chaos/common.bash
DB="$DB_BASE/stationmaster_chaos_outage"

psql "$DB_BASE/postgres" -qc "DROP DATABASE IF EXISTS stationmaster_chaos_outage" >/dev/null
trap 'for f in "$WORK"/*.pid; do [ -f "$f" ] && kill "$(cat "$f")" 2>/dev/null; done; rm -rf "$WORK"' EXIT

export DATABASE_URL=$DB RUST_LOG=warn STATIONMASTER_BIND=127.0.0.1:$PORT \
  STATIONMASTER_BASE_URL=http://127.0.0.1:$PORT STATIONMASTER_SMTP_URL=smtp://127.0.0.1:$SMTP \
  STATIONMASTER_TICK_SECS=1 STATIONMASTER_INGEST_SOCKET= STATIONMASTER_MAIL_FROM="Outage <sm@outage.test>" \
  STATIONMASTER_MAIL_TELL_AFTER_SECS=30

python3 - "$BIN" "$CATCHER" "$WORK" "$PORT" "$SMTP" "$OUTAGE_SECS" "$GAMES" "$DB" <<'PY'
import json, subprocess, sys, time, urllib.request

BIN, CATCHER, WORK, PORT, SMTP, OUTAGE, GAMES, DB = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5]), int(sys.argv[6]), int(sys.argv[7]), sys.argv[8]
BASE = f"http://127.0.0.1:{PORT}"
GM = "gm@outage.test"

def psql(sql):
    return subprocess.run(["psql", DB, "-Atc", sql], check=True, capture_output=True, text=True).stdout.strip()

def console(*args):
    return subprocess.run([BIN, *args], check=True, capture_output=True).stdout

def spawn(name, args, out):
    p = subprocess.Popen(args, stdout=out, stderr=out)
    open(f"{WORK}/{name}.pid", "w").write(str(p.pid))
    return p

server = spawn("server", [BIN, "serve"], open(f"{WORK}/server.log", "ab"))
for _ in range(200):
    try:
        if urllib.request.urlopen(BASE + "/healthz", timeout=1).status == 200: break
    except Exception: time.sleep(0.05)
down_since = time.time()

games = []
for g in range(GAMES):
    d = json.loads(console("game", "create", "--json", "--engine", "railroaded", "--name", f"Outage {g}", "--gm", GM,
                           "--seed", str(g + 1), "--deadline", "30d", "--reminders", "none", "--review", "auto",
                           *sum([["--player", f"P{s} <p{s}.g{g}@outage.test>"] for s in range(1, 5)], [])))
    games.append((d["game"], [s["token"] for s in d["seats"]]))
BODY = b"CLAIM 7H NORTH\nPLAY 8H NORTH ELSE PLAY 8D EAST ELSE DRAW\n"
for turn in range(2):
    for game, tokens in games:
        for t in tokens:
            req = urllib.request.Request(f"{BASE}/api/v1/games/{game}/orders", data=BODY,
                                         headers={"Authorization": "Bearer " + t, "Content-Type": "text/plain"})
            assert urllib.request.urlopen(req, timeout=5).status == 201
        console("turn", "close", "--game", game)   # review auto: published, reports queued

time.sleep(max(0, down_since + OUTAGE - time.time()))
queued = int(psql("SELECT count(*) FROM outbox"))
sent_during = int(psql("SELECT count(*) FROM outbox WHERE sent_at IS NOT NULL"))
failing = int(psql("SELECT count(*) FROM outbox WHERE first_failed_at IS NOT NULL AND sent_at IS NULL"))
attempts = int(psql("SELECT coalesce(max(attempts), 0) FROM outbox"))
listed = sum(len(json.loads(console("mail", "undelivered", "--game", g, "--json"))) for g, _ in games)
given_up = int(psql("SELECT count(*) FROM outbox WHERE gave_up_at IS NOT NULL"))

back = time.time()
spawn("catcher", [CATCHER, str(SMTP), f"{WORK}/caught", "300"], open(f"{WORK}/catcher.log", "ab"))
all_sent = summary_at = None
while time.time() < back + 180:
    if all_sent is None and psql("SELECT count(*) FROM outbox WHERE sent_at IS NULL AND kind <> 'gm-undelivered'") == "0":
        all_sent = time.time() - back
    lines = open(f"{WORK}/caught").read().splitlines() if all_sent is not None else []
    if any(l.startswith("<gm-undelivered.") and l.endswith(" " + GM) for l in lines):
        summary_at = time.time() - back
        break
    time.sleep(0.5)
time.sleep(1)
lines = open(f"{WORK}/caught").read().splitlines()
ids = [l.split(" ", 1)[0].strip("<>") for l in lines]
outbox = psql("SELECT message_id FROM outbox").splitlines()
game_failed = int(psql("SELECT count(*) FROM outbox WHERE first_failed_at IS NOT NULL AND game_id IS NOT NULL"))
told = int(psql("SELECT count(*) FROM outbox WHERE gm_notified_at IS NOT NULL"))
res = {
    "outage seconds": OUTAGE,
    "mails queued during the outage": queued,
    "sent during the outage": sent_during,
    "failing at the end of the outage": failing,
    "most attempts of one mail": attempts,
    "listed for the GM (mail undelivered)": listed,
    "given up": given_up,
    "all delivered, s after SMTP was back": None if all_sent is None else round(all_sent, 1),
    "GM summary received, s after": None if summary_at is None else round(summary_at, 1),
    "summaries": int(psql("SELECT count(*) FROM outbox WHERE kind = 'gm-undelivered'")),
    "game mails that failed / told in the summary": f"{game_failed} / {told}",
    "mails received": len(ids),
    "mails missing": len([m for m in outbox if m not in set(ids)]),
    "duplicates": len(ids) - len(set(ids)),
}
for k, v in res.items(): print(f"{k:>46}: {v}")
ok = (sent_during == 0 and given_up == 0 and all_sent is not None and summary_at is not None
      and res["summaries"] == 1 and told == game_failed and res["mails missing"] == 0 and res["duplicates"] == 0)
print("RESULT:", "PASS" if ok else "FAIL")
sys.exit(0 if ok else 1)
PY
