#!/usr/bin/env bash
# Chaos: a slow-read attack (issue 32, RULING W18b). A seat's orders are made large (ten versions
# of ~65 KB: their listing through the API, body, canonical form and echo of each, is ~0.9 MB).
# `conns` connections from `addrs` loopback addresses (127.0.0.1, 127.0.0.2, …; one by default)
# each ask for that listing with the seat's token and never read the answer: a
# 4 KiB receive buffer and a 536-byte MSS, so the kernels buffer little of it and the server's
# write stalls (a shut TCP window). Each connection is held `hold` seconds (default: the whole
# attack), then dropped and opened again after a second. Meanwhile a separate probe process asks
# `/healthz` and the seat page on new connections, each every 100 ms with a 1 s limit (the page
# read in full), and reports how many answered 200 within 1 s; the server's open descriptors (its
# connections) and RSS are reported before, at their peak and 20 s after.
#
#   bash benches/chaos/slow_read.sh [conns] [seconds] [addrs] [hold]   (defaults: 300, 60 s, 1, = seconds)
#
# Bounded: at most 1000 connections (each may make the server hold a ~1 MB answer), 180 s and 200
# addresses, all to 127.0.0.1:18083; the script stops the server it started and drops its database.
# The server runs with the default limits; STATIONMASTER_ANSWER_MIN_RATE=0 in the environment turns
# W18b off for a comparison. Many addresses (`bash benches/chaos/slow_read.sh 1000 60 100`) is the
# case of RULING W20: every address within its own cap, the answers held together bounded by the
# budget; STATIONMASTER_MAX_UNSENT_ANSWER_BYTES=0 turns the budget off for a comparison. Builds the release binary (PROFILE=debug for a debug build; BIN=path
# skips the build). The attacker runs at nice 10, as in slow_body.sh.
set -euo pipefail
cd "$(dirname "$0")/../.."
CONNS=$(( ${1:-300} > 1000 ? 1000 : ${1:-300} ))
SECONDS_=$(( ${2:-60} > 180 ? 180 : ${2:-60} ))
ADDRS=$(( ${3:-1} > 200 ? 200 : ${3:-1} < 1 ? 1 : ${3:-1} ))
HOLD=${4:-$SECONDS_}
PORT=18083
PROFILE=${PROFILE:-release}
source benches/chaos/common.bash
source benches/chaos/serve.bash
chaos_serve stationmaster_chaos_slow_read "$PORT"
"$BIN" game create --json --engine railroaded --name "Slow reads" --gm gm@chaos.test --seed 3 --deadline 30d \
  --player "A <a@chaos.test>" --player "B <b@chaos.test>" --player "C <c@chaos.test>" --player "D <d@chaos.test>" \
  >"$WORK/game.json"
read -r GAME TOKEN < <(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(d["game"], d["seats"][0]["token"])' "$WORK/game.json")
python3 - "$PORT" "$GAME" "$TOKEN" <<'EOF'
import sys, urllib.request
port, game, token = sys.argv[1:]
body = "CLAIM 7H NORTH\n" + ("# padding to make the seat page large: " + "x" * 80 + "\n") * 500
for v in range(10):
    req = urllib.request.Request(f"http://127.0.0.1:{port}/api/v1/games/{game}/orders", data=body.encode(),
                                 headers={"Authorization": f"Bearer {token}", "Content-Type": "text/plain"})
    urllib.request.urlopen(req).read()
page = urllib.request.urlopen(f"http://127.0.0.1:{port}/play/{token}").read()
req = urllib.request.Request(f"http://127.0.0.1:{port}/api/v1/games/{game}/orders?limit=10",
                             headers={"Authorization": f"Bearer {token}"})
listing = urllib.request.urlopen(req).read()
print(f"seat page: {len(page) / 1e6:.2f} MB; the seat's orders through the API: {len(listing) / 1e6:.2f} MB")
EOF

# The attacker: its own process, so that its event loop does not delay the probe's.
nice -n 10 python3 - "$PORT" "$CONNS" "$SECONDS_" "$ADDRS" "$HOLD" "$TOKEN" "$GAME" >"$WORK/attacker.log" 2>&1 <<'EOF' &
import socket, struct, sys, threading, time

port, conns, seconds, addrs, hold = (int(a) for a in sys.argv[1:6])
token, game = sys.argv[6:8]
request = (f"GET /api/v1/games/{game}/orders?limit=10 HTTP/1.1\r\nHost: c\r\n"
           f"Authorization: Bearer {token}\r\n\r\n").encode()
stats = {"opened": 0, "refused": 0}
lock = threading.Lock()

def one(end, source):
    while time.monotonic() < end:
        s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        s.setsockopt(socket.IPPROTO_TCP, socket.TCP_MAXSEG, 536)
        s.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        try:
            s.bind((source, 0))
            s.connect(("127.0.0.1", port))
            s.sendall(request)
            with lock:
                stats["opened"] += 1
            time.sleep(max(0.0, min(hold, end - time.monotonic())))  # reads nothing
        except OSError:
            with lock:
                stats["refused"] += 1
        s.close()
        time.sleep(1)

end = time.monotonic() + seconds
threads = [threading.Thread(target=one, args=(end, f"127.0.0.{1 + i % addrs}")) for i in range(conns)]
for i, t in enumerate(threads):
    t.start()
    if i % 100 == 99:
        time.sleep(0.05)
for t in threads:
    t.join()
print(f"attacker: {conns} connections that never read, each held {hold} s, for {seconds} s; "
      f"{stats['opened']} opened, {stats['refused']} failed")
EOF
ATTACKER=$!

python3 - "$PORT" "$SERVER" "$ATTACKER" "$TOKEN" "$SECONDS_" "$CONNS" "$ADDRS" <<'EOF'
import os, sys, threading, time
sys.path.insert(0, "benches/chaos")
from probe import experiment, probe, report, status as status_of
port, pid, attacker, token, seconds, conns, addrs = experiment(sys.argv)
status = lambda field: status_of(pid, field)

def fds():
    try:
        return len(os.listdir(f"/proc/{pid}/fd"))
    except OSError:
        return 0

rss_before, fds_before = status("VmRSS"), fds()
time.sleep(3)  # the attacker's connections are opening
stop = threading.Event()
health, seat = [], []
threads = [threading.Thread(target=probe, args=(port, "/healthz", health, stop)),
           threading.Thread(target=probe, args=(port, f"/play/{token}", seat, stop))]
for t in threads:
    t.start()
samples = []
deadline = time.monotonic() + seconds - 3
while time.monotonic() < deadline:
    samples.append(fds())
    time.sleep(0.5)
stop.set()
for t in threads:
    t.join()
rss_peak, rss_end = status("VmHWM"), status("VmRSS")
late = samples[len(samples) // 2:] or [0]
for _ in range(100):  # the attacker stops by itself
    try:
        if "\tZ" in [l for l in open(f"/proc/{attacker}/status") if l.startswith("State:")][0]:
            break
    except (OSError, IndexError):
        break
    time.sleep(0.1)
time.sleep(20)
print(f"slow-read attack: {conns} connections from {addrs} address(es) from 127.0.0.1, {seconds} s")
report("/healthz during the attack", health)
report("seat page during the attack", seat)
print(f"server descriptors: {fds_before} before, at most {max(samples or [0])} during the attack, "
      f"{sum(late) / len(late):.0f} on average in its second half, {fds()} 20 s after")
print(f"server RSS: {rss_before:.1f} MB before, {rss_peak:.1f} MB peak (VmHWM), {rss_end:.1f} MB at the end "
      f"of the attack, {status('VmRSS'):.1f} MB 20 s after")
EOF
ATTACKER=
cat "$WORK/attacker.log"
