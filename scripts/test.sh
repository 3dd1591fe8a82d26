#!/usr/bin/env bash
# The test command (README, .ci/run): installs what the tests need on a fresh
# machine — Chromium and PostgreSQL from Debian, the Python packages into .venv —
# starts a PostgreSQL server on loopback, then runs the whole pytest suite (the pure
# Python build). Then, on a full run, builds the mypyc-compiled core into
# .venv-compiled (scripts/build_compiled.sh; skipped when unchanged) and runs the
# core, game, scoring, bot/sim/replay/view and privacy tests against it.
# Extra arguments go to pytest (e.g. `bash scripts/test.sh tests/core -x`) and skip
# the compiled pass; LAIZI_TEST_COMPILED=0 skips it, =1 runs it with arguments too.
set -euo pipefail
cd "$(dirname "$0")/.."

log() { printf '\n== %s\n' "$*" >&2; }

need_apt=()
[ -x /usr/bin/chromium ] || need_apt+=(chromium)
command -v pg_ctlcluster >/dev/null 2>&1 || [ -d /usr/lib/postgresql ] || need_apt+=(postgresql)
if [ ${#need_apt[@]} -gt 0 ]; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    log "installing ${need_apt[*]} (apt)"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need_apt[@]}" >/dev/null
  else
    log "missing ${need_apt[*]}: browser/PostgreSQL tests will be skipped"
  fi
fi

if [ ! -x .venv/bin/python ]; then
  log "creating .venv"
  python3 -m venv .venv
fi
log "installing laizi and test dependencies into .venv"
.venv/bin/python -m pip install -q --disable-pip-version-check -e '.[dev,server,postgres,rl,plot,bench,ray]'

if [ -z "${LAIZI_TEST_PG_URL:-}" ] && [ -f scripts/start_postgres.sh ]; then
  log "starting PostgreSQL on loopback"
  if url=$(bash scripts/start_postgres.sh | tail -n 1) && [ -n "$url" ]; then
    export LAIZI_TEST_PG_URL="$url"
    echo "LAIZI_TEST_PG_URL=$LAIZI_TEST_PG_URL" >&2
  else
    log "PostgreSQL could not be started: its tests will be skipped"
  fi
fi

log "running the tests"
set +e
LAIZI_EXPECT_BUILD=pure .venv/bin/python -m pytest -q "$@"
rc=$?
set -e
if [ "$rc" = 5 ]; then
  echo "no tests were collected" >&2
fi

# The compiled build: the tests of the engine's behaviour (not the browser,
# PostgreSQL, terminal-UI and tooling ones, nor those marked slow, which the pure
# pass ran), with the import check (tests/test_compiled.py: every hot module is
# loaded compiled). About 2-3 minutes, plus the build when the sources changed.
COMPILED_TESTS=(tests/test_compiled.py tests/core tests/game tests/scoring tests/players
                tests/server/test_server_privacy.py tests/test_architecture.py)
COMPILED_SKIP=(
  # doctest cannot see compiled functions
  --deselect tests/core/test_profiles.py::test_module_examples
  # the terminal UI and the hints are not compiled
  --ignore tests/players/test_tui.py --ignore tests/players/test_tui_app.py
  --ignore tests/players/test_tui_words.py --ignore tests/players/test_hints.py
)
want_compiled=${LAIZI_TEST_COMPILED:-}
[ -z "$want_compiled" ] && { [ $# -eq 0 ] && want_compiled=1 || want_compiled=0; }
if [ "$want_compiled" = 1 ]; then
  if ! command -v "${CC:-cc}" >/dev/null 2>&1; then
    log "no C compiler: the compiled build is not tested"
  else
    log "building the compiled core (.venv-compiled)"
    set +e
    bash scripts/build_compiled.sh dev,server,rl,bench,plot
    brc=$?
    if [ "$brc" = 0 ]; then
      log "running the engine tests on the compiled build"
      LAIZI_EXPECT_BUILD=compiled .venv-compiled/bin/python -m pytest -q -p no:cacheprovider \
        -m "not slow" "${COMPILED_SKIP[@]}" "${COMPILED_TESTS[@]}"
      crc=$?
    else
      echo "the compiled build failed" >&2
      crc=$brc
    fi
    set -e
    [ "$rc" = 0 ] && rc=$crc
  fi
fi
exit "$rc"
