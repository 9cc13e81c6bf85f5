#!/usr/bin/env bash
# Chaos: floods the real server with idle and partial connections and a burst of password
# guesses, and reports whether /healthz kept answering (p50/p99), the server's RSS before,
# during and after, and how many of the flood's connections the server closed or refused; then
# piles up a seat's long order versions and reads them 8 at a time (answer sizes and RSS).
#
#   bash benches/chaos/conn_flood.sh [idle] [partial] [guesses] [seconds]
#
# Defaults: 3000 idle + 3000 partial connections, 300 password guesses (8 at a time, over 10
# accounts from 20 loopback client addresses), a 20 s flood. Bounded: every number is capped below, all traffic goes to 127.0.0.1, and the script
# stops the server it started and drops its database. The server runs with the default limits
# (1024 connections, 10 s header timeout, 5 s keep-alive). BIN=path/to/stationmaster skips the
# release build (e.g. BIN=target/debug/stationmaster).
set -euo pipefail
cd "$(dirname "$0")/../.."
IDLE=$(( ${1:-3000} > 8000 ? 8000 : ${1:-3000} ))
PARTIAL=$(( ${2:-3000} > 8000 ? 8000 : ${2:-3000} ))
GUESSES=$(( ${3:-300} > 2000 ? 2000 : ${3:-300} ))
SECONDS_=$(( ${4:-20} > 120 ? 120 : ${4:-20} ))
PORT=18081
DB_BASE=${BENCH_DATABASE_BASE:-postgres://postgres@127.0.0.1:5432}
WORK=$(mktemp -d)

if [ -z "${BIN:-}" ]; then
  cargo build --release --quiet --bin stationmaster
  BIN=target/release/stationmaster
fi
source benches/chaos/serve.bash
chaos_serve stationmaster_chaos "$PORT"
echo "a long enough secret" | "$BIN" gm set-password --email gm0@chaos.test >/dev/null

python3 - "$PORT" "$SERVER" "$IDLE" "$PARTIAL" "$GUESSES" "$SECONDS_" <<'EOF'
import asyncio, sys, time

port, pid, idle_n, partial_n, guesses, seconds = (int(a) for a in sys.argv[1:])

def rss_mb():
    for line in open(f"/proc/{pid}/status"):
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0

def pct(xs, p):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(len(xs) * p))] if xs else float("nan")

async def healthz(lat, fails, stop):
    while not stop.is_set():
        t = time.monotonic()
        try:
            r, w = await asyncio.wait_for(asyncio.open_connection("127.0.0.1", port), 5)
            w.write(b"GET /healthz HTTP/1.1\r\nHost: c\r\nConnection: close\r\n\r\n")
            data = await asyncio.wait_for(r.read(), 5)
            w.close()
            if data.startswith(b"HTTP/1.1 200"):
                lat.append((time.monotonic() - t) * 1000)
            else:
                fails.append(data[:40])
        except Exception as e:
            fails.append(repr(e))
        await asyncio.sleep(0.05)

async def flood(kind, n, held, stats):
    for i in range(n):
        try:
            r, w = await asyncio.open_connection("127.0.0.1", port)
        except Exception:
            stats[kind + "_refused_at_connect"] += 1
            continue
        if kind == "partial":
            w.write(b"GET /healthz HTTP/1.1\r\nHost: c\r\nX-Slow: ")
        held.append((kind, r, w))
        if i % 200 == 199:
            await asyncio.sleep(0.01)

async def guess(results, n):
    sem = asyncio.Semaphore(8)
    async def one(i):
        async with sem:
            # Spread over 10 accounts (one with a password) and 20 loopback client addresses.
            body = f"email=gm{i % 10}%40chaos.test&password=guess{i}".encode()
            req = (b"POST /gm/login HTTP/1.1\r\nHost: c\r\nConnection: close\r\n"
                   b"Content-Type: application/x-www-form-urlencoded\r\n"
                   + f"Content-Length: {len(body)}\r\n\r\n".encode() + body)
            t = time.monotonic()
            try:
                r, w = await asyncio.open_connection("127.0.0.1", port, local_addr=(f"127.0.0.{2 + i % 20}", 0))
                w.write(req)
                data = await asyncio.wait_for(r.read(), 20)
                w.close()
                status = data[9:12].decode() or "closed"
            except Exception:
                status = "error"
            results.setdefault(status, []).append((time.monotonic() - t) * 1000)
    await asyncio.gather(*(one(i) for i in range(n)))

async def closed_by_server(held):
    async def check(r):
        try:
            data = await asyncio.wait_for(r.read(65536), 0.01)
            return data == b"" or r.at_eof()
        except asyncio.TimeoutError:
            return False
        except Exception:
            return True
    res = await asyncio.gather(*(check(r) for _, r, _ in held))
    return sum(1 for x in res if x)

async def main():
    print(f"flood: {idle_n} idle + {partial_n} partial connections, {guesses} password guesses, {seconds} s")
    rss_before = rss_mb()
    base_lat, base_fail, stop = [], [], asyncio.Event()
    probe = asyncio.create_task(healthz(base_lat, base_fail, stop))
    await asyncio.sleep(2)
    stop.set(); await probe
    lat, fails, stop = [], [], asyncio.Event()
    probe = asyncio.create_task(healthz(lat, fails, stop))
    held, stats, results = [], {"idle_refused_at_connect": 0, "partial_refused_at_connect": 0}, {}
    t0 = time.monotonic()
    await asyncio.gather(flood("idle", idle_n, held, stats), flood("partial", partial_n, held, stats),
                         guess(results, guesses))
    opened = time.monotonic() - t0
    rss_peak = rss_mb()
    await asyncio.sleep(max(0.0, seconds - opened))
    rss_during = rss_mb()
    stop.set(); await probe
    closed = await closed_by_server(held)
    for _, _, w in held:
        w.close()
    await asyncio.sleep(3)
    rss_after = rss_mb()
    print(f"/healthz before the flood: {len(base_lat)} answers, p50 {pct(base_lat, .5):.1f} ms, p99 {pct(base_lat, .99):.1f} ms")
    print(f"/healthz during the flood: {len(lat)} answers, {len(fails)} failures, p50 {pct(lat, .5):.1f} ms, p99 {pct(lat, .99):.1f} ms, max {max(lat or [0]):.1f} ms")
    print(f"flood connections: {len(held)} opened in {opened:.1f} s, {closed} closed by the server by the end, "
          f"{stats['idle_refused_at_connect'] + stats['partial_refused_at_connect']} refused at connect")
    for status, ts in sorted(results.items()):
        print(f"password guesses answered {status}: {len(ts)} (p50 {pct(ts, .5):.0f} ms, max {max(ts):.0f} ms)")
    print(f"server RSS: {rss_before:.1f} MB before, {rss_peak:.1f} MB at peak of the flood, {rss_during:.1f} MB at its end, {rss_after:.1f} MB 3 s after")

asyncio.run(main())
EOF

# Second phase: one seat piles up long orders (60 tries of 62 KB; the cap keeps 50), then 8
# clients read its seat page and its API list 160 times (the attacker's 1.5 GB scenario).
"$BIN" game create --json --engine railroaded --name "Big orders" --gm gm@chaos.test --seed 3 --deadline 30d \
  --player "A <a@chaos.test>" --player "B <b@chaos.test>" --player "C <c@chaos.test>" --player "D <d@chaos.test>" \
  >"$WORK/game.json"
python3 - "$PORT" "$SERVER" "$WORK/game.json" <<'EOF'
import concurrent.futures, json, sys, time, urllib.error, urllib.request

port, pid, game_file = int(sys.argv[1]), sys.argv[2], sys.argv[3]
d = json.load(open(game_file))
game, tok = d["game"], d["seats"][0]["token"]
base = f"http://127.0.0.1:{port}"
bearer = {"Authorization": f"Bearer {tok}"}
rss = lambda: int([l for l in open(f"/proc/{pid}/status") if l.startswith("VmRSS")][0].split()[1]) / 1024
view = json.load(urllib.request.urlopen(urllib.request.Request(f"{base}/api/v1/games/{game}", headers=bearer)))
line = "CLAIM %s NORTH\n" % view["view"]["seats"][0]["hand"][0]
body = (line * (62000 // len(line))).encode()
codes = {}
for _ in range(60):
    req = urllib.request.Request(f"{base}/api/v1/games/{game}/orders", data=body, headers={**bearer, "Content-Type": "text/plain"})
    try:
        code = urllib.request.urlopen(req).status
    except urllib.error.HTTPError as e:
        code = e.code
    codes[code] = codes.get(code, 0) + 1
get = lambda url, h: len(urllib.request.urlopen(urllib.request.Request(url, headers=h)).read())
page, api = get(f"{base}/play/{tok}", {}), get(f"{base}/api/v1/games/{game}/orders", bearer)
before, t = rss(), time.monotonic()
with concurrent.futures.ThreadPoolExecutor(8) as ex:
    list(ex.map(lambda _: (get(f"{base}/play/{tok}", {}), get(f"{base}/api/v1/games/{game}/orders", bearer)), range(80)))
print(f"long orders: 60 submissions of {len(body)} bytes answered {codes}; seat page {page / 1e6:.2f} MB, "
      f"API list {api / 1e6:.2f} MB; 160 reads (8 parallel) in {time.monotonic() - t:.1f} s; "
      f"RSS {before:.1f} MB before the reads, {rss():.1f} MB after")
EOF
