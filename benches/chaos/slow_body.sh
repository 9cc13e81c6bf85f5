#!/usr/bin/env bash
# Chaos: a slow-body attack (issue 32). `conns` connections from `addrs` loopback addresses
# (127.0.0.1, 127.0.0.2, …; one by default) each send
# `POST /gm/login` with `Content-Length: 100000` and then one byte a second; a connection the
# server closes is opened again after a second, so the attacker keeps `conns` going for `seconds`.
# Meanwhile a separate probe process asks `/healthz` and a seat page (`/play/{token}`) on new
# connections, each every 100 ms with a 1 s limit, and reports how many answered 200 within 1 s;
# the server's RSS is reported before the attack, at its peak (VmHWM) and 20 s after.
#
#   bash benches/chaos/slow_body.sh [conns] [seconds] [addrs]   (defaults: 2000, 60 s, 1 address)
#
# Bounded: at most 4000 connections, 180 s and 200 addresses, all to 127.0.0.1:18082; the script stops the
# server it started and drops its database. The server runs with the default limits (RULINGS W6,
# W18). Builds the release binary (PROFILE=debug for a debug build; BIN=path skips the build).
# The attacker runs at nice 10 so that on a small machine the probe measures the server, not the
# attacker's own event loop competing for the same cores.
set -euo pipefail
cd "$(dirname "$0")/../.."
CONNS=$(( ${1:-2000} > 4000 ? 4000 : ${1:-2000} ))
SECONDS_=$(( ${2:-60} > 180 ? 180 : ${2:-60} ))
ADDRS=$(( ${3:-1} > 200 ? 200 : ${3:-1} < 1 ? 1 : ${3:-1} ))
PORT=18082
PROFILE=${PROFILE:-release}
source benches/chaos/common.bash
source benches/chaos/serve.bash
chaos_serve stationmaster_chaos_slow_body "$PORT"
"$BIN" game create --json --engine railroaded --name "Slow bodies" --gm gm@chaos.test --seed 3 --deadline 30d \
  --player "A <a@chaos.test>" --player "B <b@chaos.test>" --player "C <c@chaos.test>" --player "D <d@chaos.test>" \
  >"$WORK/game.json"
TOKEN=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["seats"][0]["token"])' "$WORK/game.json")

# The attacker: its own process, so that its event loop does not delay the probe's.
nice -n 10 python3 - "$PORT" "$CONNS" "$SECONDS_" "$ADDRS" >"$WORK/attacker.log" 2>&1 <<'EOF' &
import asyncio, sys, time

port, conns, seconds, addrs = (int(a) for a in sys.argv[1:])
head = (b"POST /gm/login HTTP/1.1\r\nHost: c\r\nContent-Type: application/x-www-form-urlencoded\r\n"
        b"Content-Length: 100000\r\n\r\n")
stats = {"opened": 0, "closed_by_server": 0, "refused": 0}

async def one(end, source):
    while time.monotonic() < end:
        try:
            r, w = await asyncio.open_connection("127.0.0.1", port, local_addr=(source, 0))
        except Exception:
            stats["refused"] += 1
            await asyncio.sleep(1)
            continue
        stats["opened"] += 1
        try:
            w.write(head)
            while time.monotonic() < end:
                w.write(b"a")
                await w.drain()
                try:
                    if await asyncio.wait_for(r.read(4096), 1.0) == b"":
                        break
                    break  # an answer (408): the server is done with this connection
                except asyncio.TimeoutError:
                    pass
        except Exception:
            pass
        stats["closed_by_server"] += time.monotonic() < end
        w.close()
        await asyncio.sleep(1)

async def main():
    end = time.monotonic() + seconds
    tasks = []
    for i in range(conns):
        tasks.append(asyncio.create_task(one(end, f"127.0.0.{1 + i % addrs}")))
        if i % 100 == 99:
            await asyncio.sleep(0.05)
    await asyncio.gather(*tasks)
    print(f"attacker: {conns} connections kept up for {seconds} s; {stats['opened']} opened, "
          f"{stats['closed_by_server']} closed by the server, {stats['refused']} refused at connect")

asyncio.run(main())
EOF
ATTACKER=$!

python3 - "$PORT" "$SERVER" "$ATTACKER" "$TOKEN" "$SECONDS_" "$CONNS" "$ADDRS" <<'EOF'
import os, sys, threading, time
sys.path.insert(0, "benches/chaos")
from probe import experiment, probe, report, status as status_of
port, pid, attacker, token, seconds, conns, addrs = experiment(sys.argv)
status = lambda field: status_of(pid, field)

rss_before = status("VmRSS")
time.sleep(3)  # the attacker's connections are opening
stop = threading.Event()
health, seat = [], []
threads = [threading.Thread(target=probe, args=(port, "/healthz", health, stop)),
           threading.Thread(target=probe, args=(port, f"/play/{token}", seat, stop))]
for t in threads:
    t.start()
peak_conns = 0
deadline = time.monotonic() + seconds - 3
while time.monotonic() < deadline:
    try:
        peak_conns = max(peak_conns, len(os.listdir(f"/proc/{pid}/fd")))
    except OSError:
        pass
    time.sleep(0.5)
stop.set()
for t in threads:
    t.join()
rss_peak, rss_end = status("VmHWM"), status("VmRSS")
def attacking():
    try:
        return "\tZ" not in [l for l in open(f"/proc/{attacker}/status") if l.startswith("State:")][0]
    except (OSError, IndexError):
        return False
for _ in range(100):  # the attacker stops by itself (its last connections close within ~2 s)
    if not attacking():
        break
    time.sleep(0.1)
time.sleep(20)
print(f"slow-body attack: {conns} connections from {addrs} address(es) from 127.0.0.1, {seconds} s")
report("/healthz during the attack", health)
report("seat page during the attack", seat)
print(f"server: at most {peak_conns} open descriptors; RSS {rss_before:.1f} MB before, "
      f"{rss_peak:.1f} MB peak (VmHWM), {rss_end:.1f} MB at the end of the attack, {status('VmRSS'):.1f} MB 20 s after")
EOF
ATTACKER=
cat "$WORK/attacker.log"
