#!/usr/bin/env bash
# The suite's time per test binary and its slowest tests (issue 31): builds the test binaries as
# `cargo test` does, runs each one as `cargo test` would (same threads, same environment) with
# libtest's per-test timer, and prints the wall time of each binary and the N slowest tests.
#
#   bash benches/test_times.sh [N]        # N slowest tests (default 10)
#
# libtest's timer is an unstable option of the stable test harness; RUSTC_BOOTSTRAP=1 unlocks it
# for the test binary alone (nothing is compiled with it). Results go to target/test-times/.
set -euo pipefail
cd "$(dirname "$0")/.."
n=${1:-10}
out=target/test-times
mkdir -p "$out"
export DATABASE_URL=${DATABASE_URL:-postgres://postgres@127.0.0.1:5432/postgres}

bins=$(cargo test --no-run --message-format=json 2>/dev/null |
  python3 -c 'import json,sys
for l in sys.stdin:
    m = json.loads(l)
    if m.get("reason") == "compiler-artifact" and m.get("executable") and m["profile"]["test"]:
        # The library and the binary share the package name: the kind tells them apart.
        print(m["target"]["kind"][0] + "-" + m["target"]["name"] + "=" + m["executable"])')

for entry in $bins; do
  name=${entry%%=*}
  bin=${entry#*=}
  start=$(date +%s%N)
  RUSTC_BOOTSTRAP=1 "$bin" -Z unstable-options --format json --report-time >"$out/$name.json" 2>/dev/null || true
  end=$(date +%s%N)
  ms=$(((end - start) / 1000000))
  printf '%-16s %5d.%01d s wall\n' "$name" $((ms / 1000)) $((ms % 1000 / 100))
done

python3 - "$out" "$n" <<'EOF'
import json, pathlib, sys
out, n = pathlib.Path(sys.argv[1]), int(sys.argv[2])
times = []
for f in out.glob("*.json"):
    for line in f.read_text().splitlines():
        try:
            e = json.loads(line)
        except ValueError:
            continue
        if e.get("type") == "test" and e.get("event") in ("ok", "failed"):
            times.append((e.get("exec_time", 0.0), f.stem, e["name"], e["event"]))
print(f"\n{len(times)} tests, {sum(t[0] for t in times):.0f} test-seconds; the {n} slowest:")
for t, binary, name, event in sorted(times, reverse=True)[:n]:
    print(f"{t:8.1f} s  {binary}  {name}{'' if event == 'ok' else '  FAILED'}")
EOF
