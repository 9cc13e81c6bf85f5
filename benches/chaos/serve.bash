# Shared by the web chaos experiments (sourced by them from the repository root, not run on its
# own). `chaos_serve NAME PORT` raises the descriptor limit to the hard limit, starts `$BIN serve`
# with its default limits on 127.0.0.1:PORT over a fresh database NAME (dropped first), waits until
# /healthz answers and sets SERVER (its pid). On exit the server and $ATTACKER (when set) are
# stopped, the database is dropped and $WORK removed. Needs BIN, DB_BASE and WORK.
chaos_serve() {
  CHAOS_DB=$1
  local port=$2
  ulimit -n "$(ulimit -Hn)" 2>/dev/null || true
  psql "$DB_BASE/postgres" -qc "DROP DATABASE IF EXISTS $CHAOS_DB" >/dev/null
  export DATABASE_URL=$DB_BASE/$CHAOS_DB RUST_LOG=warn STATIONMASTER_BIND=127.0.0.1:$port \
    STATIONMASTER_BASE_URL=http://127.0.0.1:$port STATIONMASTER_INGEST_SOCKET=
  "$BIN" serve >"$WORK/server.log" 2>&1 &
  SERVER=$!
  trap chaos_cleanup EXIT
  for _ in $(seq 1 100); do curl -sf "http://127.0.0.1:$port/healthz" >/dev/null && break; sleep 0.2; done
}

chaos_cleanup() {
  if [ -n "${ATTACKER:-}" ]; then kill "$ATTACKER" 2>/dev/null || true; fi
  kill "$SERVER" 2>/dev/null || true
  wait "$SERVER" 2>/dev/null || true
  psql "$DB_BASE/postgres" -qc "DROP DATABASE IF EXISTS $CHAOS_DB" >/dev/null 2>&1 || true
  rm -rf "$WORK"
}
