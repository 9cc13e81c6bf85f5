"""The probe of the web chaos experiments (imported by their inline Python, run from the
repository root with benches/chaos on the path): asks a path on new connections and tells whether
the whole answer came back 200 within a second, and reads a process's memory from /proc."""
import socket
import time


def experiment(argv):
    """What every probe is given: port, server pid, attacker pid, seat token, seconds, connections,
    addresses."""
    return int(argv[1]), argv[2], int(argv[3]), argv[4], int(argv[5]), argv[6], int(argv[7])


def status(pid, field):
    """A /proc/<pid>/status field in kB, as MB (0 when absent)."""
    for line in open(f"/proc/{pid}/status"):
        if line.startswith(field + ":"):
            return int(line.split()[1]) / 1024
    return 0.0


def get(port, path):
    """(200 within 1 s — connect, send, whole answer —, the time it took)."""
    t = time.monotonic()
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=1) as s:
            s.sendall(f"GET {path} HTTP/1.1\r\nHost: c\r\nConnection: close\r\n\r\n".encode())
            data = b""
            while True:
                s.settimeout(max(0.001, 1 - (time.monotonic() - t)))
                chunk = s.recv(1 << 20)
                if not chunk:
                    break
                data += chunk
        return data.startswith(b"HTTP/1.1 200") and time.monotonic() - t <= 1, time.monotonic() - t
    except Exception:
        return False, time.monotonic() - t


def probe(port, path, results, stop):
    """Asks `path` every 100 ms until `stop` is set, appending (ok, seconds) to `results`."""
    while not stop.is_set():
        results.append(get(port, path))
        time.sleep(0.1)


def report(name, results):
    ok = sorted(t for good, t in results if good)
    p99 = ok[min(len(ok) - 1, int(len(ok) * 0.99))] * 1000 if ok else float("nan")
    share = 100 * len(ok) / len(results) if results else float("nan")
    print(f"{name}: {len(ok)} of {len(results)} answered 200 within 1 s ({share:.1f} %), "
          f"p50 {ok[len(ok) // 2] * 1000 if ok else float('nan'):.1f} ms, p99 {p99:.1f} ms")
