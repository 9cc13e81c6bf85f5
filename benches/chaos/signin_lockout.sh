#!/usr/bin/env bash
# Chaos: a stranger tries to lock the GM out of sign-in (issue 32) and we see whether the GM still signs in.
# The GM signs in once by password from 127.0.0.2 (the browser keeps its session and device
# cookies). Then, for `rounds` rounds, the attacker at 127.0.0.3 sends the reported attack — 10
# wrong passwords and 3 sign-in-link requests for the GM's address — and after each round the
# script tries, and prints: the GM's right password from a client never seen (127.0.0.1x), a link
# request from the GM's browser (device cookie) and from the GM's address without it, the GM's
# existing session, and the attacker's own right password and fourth link request (which must
# stay refused). A link counts as sent when its mail is queued in the outbox (no SMTP here).
#
#   bash benches/chaos/signin_lockout.sh [rounds]     (default and at most 3)
#
# The rounds follow one another at once, so the attacker's attempts of every round count in
# the same 15-minute window: harsher than the report's "13 requests every 15 minutes". (At most
# 3 rounds: the GM's browser and address each have 3 links a quarter hour of their own, W3.)
# Bounded: about 25 requests a round, all to 127.0.0.1:18083; the script stops the server it
# started and drops its database. Debug build (PROFILE=release for a release build; BIN=path
# skips the build).
set -euo pipefail
cd "$(dirname "$0")/../.."
ROUNDS=$(( ${1:-3} > 3 ? 3 : ${1:-3} < 1 ? 1 : ${1:-3} ))
PORT=18083
source benches/chaos/common.bash
source benches/chaos/serve.bash
chaos_serve stationmaster_chaos_signin "$PORT"
BASE=http://127.0.0.1:$PORT
GM=gm%40chaos.test
"$BIN" game create --json --engine railroaded --name "Lock-out" --gm gm@chaos.test --seed 3 --deadline 30d \
  --player "A <a@chaos.test>" --player "B <b@chaos.test>" --player "C <c@chaos.test>" --player "D <d@chaos.test>" \
  >/dev/null
echo "a long enough secret" | "$BIN" gm set-password --email gm@chaos.test >/dev/null

# POST /gm/login from the loopback address $1 with the form $2 (and the cookie jar $3, kept up
# to date); prints the HTTP status.
login() {
  local jar=${3:-/dev/null}
  curl -s -o /dev/null -w '%{http_code}' --interface "$1" -b "$jar" -c "$jar" -d "$2" "$BASE/gm/login"
}
links() { psql "$DATABASE_URL" -Atc "SELECT count(*) FROM outbox WHERE kind = 'gm-login'"; }
yes_no() { if [ "$1" = "$2" ]; then echo yes; else echo "NO ($1)"; fi; }

BROWSER=$WORK/browser.jar
status=$(login 127.0.0.2 "email=$GM&password=a+long+enough+secret" "$BROWSER")
[ "$status" = 303 ] || { echo "the GM could not sign in before the attack ($status)"; exit 1; }
grep -q sm_device "$BROWSER" || echo "(the GM's browser was given no device cookie: a server from before issue 32)"

locked_out=0
for round in $(seq 1 "$ROUNDS"); do
  wrong=""
  for _ in $(seq 1 10); do wrong+="$(login 127.0.0.3 "email=$GM&password=guess") "; done
  for _ in 1 2 3; do login 127.0.0.3 "email=$GM" >/dev/null; done
  before=$(links)
  fresh=$(login "127.0.0.$(( 10 + round ))" "email=$GM&password=a+long+enough+secret")
  login 127.0.0.2 "email=$GM" "$BROWSER" >/dev/null
  device=$(( $(links) - before ))
  login 127.0.0.2 "email=$GM" >/dev/null
  known=$(( $(links) - before - device ))
  session=$(curl -s -o /dev/null -w '%{http_code}' --interface 127.0.0.2 -b "$BROWSER" "$BASE/gm")
  attacker=$(login 127.0.0.3 "email=$GM&password=a+long+enough+secret")
  login 127.0.0.3 "email=$GM" >/dev/null
  extra=$(( $(links) - before - device - known ))
  echo "round $round: attacker's 10 wrong passwords answered: $wrong"
  echo "  GM's right password from a fresh client accepted: $(yes_no "$fresh" 303)"
  echo "  link from the GM's browser (device cookie) sent: $(yes_no "$device" 1)"
  echo "  link from the GM's address without the cookie sent: $(yes_no "$known" 1)"
  echo "  GM's existing session still valid: $(yes_no "$session" 200)"
  echo "  attacker's right password refused (429): $(yes_no "$attacker" 429)"
  echo "  attacker's fourth link held back: $(yes_no "$extra" 0)"
  if [ "$fresh" != 303 ] || [ "$device" != 1 ] || [ "$session" != 200 ]; then locked_out=1; fi
done
if [ "$locked_out" = 0 ]; then
  echo "the GM still signs in: yes (by password from a fresh client, by link from the GM's own browser)"
else
  echo "the GM still signs in: NO — the attack locked the GM out"
fi
