#!/usr/bin/env bash
# The attack and chaos experiments of issue #11, kept runnable: each lives in benches/chaos/ as a
# bounded, self-stopping script that sends traffic only to 127.0.0.1 and prints its figures (the
# last ones are in docs/BENCHMARKS.md, with the command that produced them).
#
#   bash benches/chaos.sh             # list the experiments
#   bash benches/chaos.sh NAME [ARGS] # run one (e.g. kill9, smtp_outage, conn_flood, mail_flood)
#   bash benches/chaos.sh all         # run every one with its defaults, one after another
set -euo pipefail
cd "$(dirname "$0")/chaos"
list() { for f in *.sh; do printf '  %-14s %s\n' "${f%.sh}" "$(sed -n 2p "$f" | sed 's/^# *//')"; done; }
case "${1:-}" in
  "") echo "experiments (bash benches/chaos.sh NAME [ARGS]):"; list ;;
  all) for f in *.sh; do echo "== ${f%.sh}"; bash "$f"; done ;;
  *) f="$1.sh"; shift
     [ -f "$f" ] || { echo "no experiment '${f%.sh}'; these exist:" >&2; list >&2; exit 2; }
     exec bash "$f" "$@" ;;
esac
