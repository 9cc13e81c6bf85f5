#!/usr/bin/env bash
# Chaos: kill -9 the server again and again while players submit orders, turns close (the
# scheduler, and the GM's console), drafts are published and reports are mailed; then check that
# nothing acknowledged was lost, no turn is stuck, and every queued mail arrived (duplicates
# counted: delivery is at-least-once, with the same Message-ID).
#
#   bash benches/chaos/kill9.sh [seconds] [games]        (defaults: 90 s of chaos, 8 games)
#
# Everything runs on 127.0.0.1: a fresh database `stationmaster_chaos_kill9`, the server (debug build;
# PROFILE=release for a release build) on port 18471, and the project's mail catcher
# (benches/chaos/mail_catcher.rs) on port 12571. Bounded: the chaos phase stops after
# `seconds`, the drain after 120 s more; every process started here is stopped on exit.
set -euo pipefail
cd "$(dirname "$0")/../.."
CHAOS_SECS=${1:-90}
GAMES=${2:-8}
PORT=18471
SMTP=12571
source benches/chaos/common.bash
DB="$DB_BASE/stationmaster_chaos_kill9"

psql "$DB_BASE/postgres" -qc "DROP DATABASE IF EXISTS stationmaster_chaos_kill9" >/dev/null
"$CATCHER" "$SMTP" "$WORK/caught" $((CHAOS_SECS + 300)) 2>"$WORK/catcher.log" &
CATCHER_PID=$!
trap 'kill $CATCHER_PID 2>/dev/null || true; [ -f "$WORK/server.pid" ] && kill -9 "$(cat "$WORK/server.pid")" 2>/dev/null || true; rm -rf "$WORK"' EXIT

export DATABASE_URL=$DB RUST_LOG=warn STATIONMASTER_BIND=127.0.0.1:$PORT \
  STATIONMASTER_BASE_URL=http://127.0.0.1:$PORT STATIONMASTER_SMTP_URL=smtp://127.0.0.1:$SMTP \
  STATIONMASTER_TICK_SECS=1 STATIONMASTER_INGEST_SOCKET= STATIONMASTER_MAIL_FROM="Chaos <sm@chaos.test>"

python3 - "$BIN" "$WORK" "$PORT" "$CHAOS_SECS" "$GAMES" "$DB" <<'PY'
import json, os, random, signal, subprocess, sys, threading, time, urllib.request, urllib.error

BIN, WORK, PORT, CHAOS_SECS, GAMES, DB = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5]), sys.argv[6]
BASE = f"http://127.0.0.1:{PORT}"
random.seed(11)
log = open(f"{WORK}/server.log", "ab")
server = None
stats = {"kills": 0, "console_kills": 0, "requests": 0, "acknowledged": 0, "refused": 0, "unreachable": 0}
acked = []          # (game, turn, seat, version, digest) of every 201
lock = threading.Lock()

def psql(sql):
    return subprocess.run(["psql", DB, "-Atc", sql], check=True, capture_output=True, text=True).stdout.strip()

def up():
    try:
        return urllib.request.urlopen(BASE + "/healthz", timeout=1).status == 200
    except Exception:
        return False

def start():
    global server
    server = subprocess.Popen([BIN, "serve"], stdout=log, stderr=log)
    open(f"{WORK}/server.pid", "w").write(str(server.pid))
    for _ in range(200):
        if up(): return
        time.sleep(0.05)
    raise SystemExit("the server did not come up; see its log")

def kill9():
    server.send_signal(signal.SIGKILL); server.wait()
    stats["kills"] += 1

def console(args, kill_after=None):
    p = subprocess.Popen([BIN, *args], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    if kill_after is not None:
        time.sleep(kill_after)
        if p.poll() is None:
            p.send_signal(signal.SIGKILL); stats["console_kills"] += 1
    out, _ = p.communicate()
    return out

start()
games = []  # (id, review, [tokens])
for g in range(GAMES):
    review = "auto" if g % 2 == 0 else "gm"
    out = console(["game", "create", "--json", "--engine", "railroaded", "--name", f"Chaos {g}", "--gm", "gm@chaos.test",
                   "--seed", str(g + 1), "--deadline", "30d", "--cooling-off", "1m", "--reminders", "none", "--review", review,
                   *sum([["--player", f"P{s} <p{s}.g{g}@chaos.test>"] for s in range(1, 5)], [])])
    d = json.loads(out)
    games.append((d["game"], review, [s["token"] for s in d["seats"]]))

BODY = b"# chaos\nCLAIM 7H NORTH\nPLAY 8H NORTH ELSE PLAY 8D EAST ELSE DRAW\n"
stop = time.time() + CHAOS_SECS

def players():
    while time.time() < stop:
        game, _, tokens = random.choice(games)
        final = random.random() < 0.5
        req = urllib.request.Request(f"{BASE}/api/v1/games/{game}/orders" + ("?final=true" if final else ""), data=BODY,
                                     headers={"Authorization": "Bearer " + random.choice(tokens), "Content-Type": "text/plain"})
        with lock: stats["requests"] += 1
        try:
            with urllib.request.urlopen(req, timeout=5) as r:
                d = json.load(r)
                if r.status == 201:
                    with lock:
                        stats["acknowledged"] += 1
                        acked.append((d["game"], d["turn"], d["seat"], d["version"], d["digest"]))
        except urllib.error.HTTPError as e:
            with lock: stats["refused"] += 1   # 409 after a close, etc.: not acknowledged
        except Exception:
            with lock: stats["unreachable"] += 1
            time.sleep(0.05)

def gm():
    while time.time() < stop:
        game, review, _ = random.choice(games)
        cmd = random.choice(["close", "publish"]) if review == "gm" else "close"
        console(["turn", cmd, "--game", game], kill_after=random.choice([None, 0.05, 0.15, 0.3]))
        time.sleep(random.uniform(0.1, 0.6))

threads = [threading.Thread(target=players) for _ in range(3)] + [threading.Thread(target=gm)]
for t in threads: t.start()
while time.time() < stop:
    time.sleep(random.uniform(0.4, 2.5))
    if time.time() >= stop: break
    kill9(); time.sleep(random.uniform(0.0, 0.3)); start()
for t in threads: t.join()

# Drain: the server runs undisturbed; the GM publishes what waits; wait for every mail.
drain_start = time.time()
STUCK = """SELECT count(*) FROM turns t WHERE t.status = 'failed' OR (t.status = 'open' AND cardinality(t.acting_seats) > 0
  AND NOT EXISTS (SELECT 1 FROM unnest(t.acting_seats) s WHERE NOT EXISTS (SELECT 1 FROM final_marks f
  WHERE f.game_id = t.game_id AND f.turn = t.number AND f.seat = s AND f.version =
  (SELECT max(v.version) FROM order_versions v WHERE v.game_id = t.game_id AND v.turn = t.number AND v.seat = s))))"""
while time.time() < drain_start + 120:
    for game, review, _ in games:
        if review == "gm": console(["turn", "publish", "--game", game])
    if psql(STUCK) == "0" and psql("SELECT count(*) FROM turns WHERE status = 'draft'") == "0" \
       and psql("SELECT count(*) FROM outbox WHERE sent_at IS NULL") == "0":
        break
    time.sleep(1)
drain = time.time() - drain_start
time.sleep(1)
kill9(); stats["kills"] -= 1

# Checks.
present = set(tuple(l.split("|")) for l in psql("SELECT game_id, turn, seat, version, digest FROM order_versions").splitlines())
lost = [a for a in acked if tuple(map(str, a)) not in present]
caught = [l.split(" ", 1) for l in open(f"{WORK}/caught").read().splitlines()]
ids = [c[0].strip("<>") for c in caught]
queued = psql("SELECT message_id FROM outbox").splitlines()
missing = [m for m in queued if m not in set(ids)]
dups = len(ids) - len(set(ids))
# A copy should come from a kill between the catcher taking the mail and the row being marked:
# the row then shows a second attempt. Copies of a mail sent in one attempt would be a bug.
from collections import Counter
copied = [m for m, n in Counter(ids).items() if n > 1]
attempts = dict(l.split("|") for l in psql("SELECT message_id, attempts FROM outbox").splitlines())
one_attempt = [m for m in copied if attempts.get(m) == "1"]
res = {
    **stats,
    "orders lost": len(lost),
    "turns published": int(psql("SELECT count(*) FROM turns WHERE status = 'published'")),
    "turns stuck": int(psql(STUCK)),
    "drafts left": int(psql("SELECT count(*) FROM turns WHERE status = 'draft'")),
    "mails queued": len(queued),
    "reports queued": int(psql("SELECT count(*) FROM outbox WHERE kind = 'report'")),
    "mails unsent": int(psql("SELECT count(*) FROM outbox WHERE sent_at IS NULL")),
    "mails received": len(ids),
    "mails missing": len(missing),
    "duplicates (same Message-ID)": dups,
    "of them sent in one attempt": len(one_attempt),
    "drain seconds": round(drain, 1),
}
for k, v in res.items(): print(f"{k:>30}: {v}")
ok = (not lost and res["turns stuck"] == 0 and res["drafts left"] == 0 and not missing and res["mails unsent"] == 0
      and not one_attempt)
print("RESULT:", "PASS" if ok else "FAIL")
sys.exit(0 if ok else 1)
PY
