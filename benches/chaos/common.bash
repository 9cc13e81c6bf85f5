# Shared set-up of the chaos experiments (sourced by them from the repository root, not run on its
# own): builds the server and the project's mail catcher (benches/chaos/mail_catcher.rs;
# PROFILE=debug by default, PROFILE=release for a release build) and sets BIN, CATCHER, DB_BASE
# and WORK (a fresh temporary directory; each script removes it on exit). BIN=path skips the
# build and uses that server (and CATCHER, when set, that catcher).
PROFILE=${PROFILE:-debug}
DB_BASE=${BENCH_DATABASE_BASE:-postgres://postgres@127.0.0.1:5432}
TARGET=${CARGO_TARGET_DIR:-target}
WORK=$(mktemp -d)

if [ -z "${BIN:-}" ]; then
  if [ "$PROFILE" = release ]; then FLAG=--release; else FLAG=; fi
  cargo build $FLAG --quiet --bin stationmaster --example mail_catcher
  BIN=$TARGET/$PROFILE/stationmaster
fi
CATCHER=${CATCHER:-$TARGET/$PROFILE/examples/mail_catcher}
