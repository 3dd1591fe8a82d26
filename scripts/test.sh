#!/usr/bin/env bash
# The test command (README, .ci/run): installs what the tests need on a fresh
# machine — Chromium, PostgreSQL, Redis and the Noto CJK fonts from Debian, the Python
# packages into .venv — then runs the whole pytest suite (the pure Python build).
# PostgreSQL tests run on a private cluster of their own (temporary directory, own port,
# 127.0.0.1 only; stopped and removed when the tests end); the machine's PostgreSQL
# configuration and clusters are never touched. Then, on a full run, it builds the
# mypyc-compiled core into .venv-compiled (scripts/build_compiled.sh; skipped when
# unchanged) and runs the core, game, scoring, bot/sim/replay/view and privacy tests
# against it.
# Extra arguments go to pytest (e.g. `bash scripts/test.sh tests/analysis -x`) and skip
# the compiled pass; LAIZI_TEST_COMPILED=0 skips it, =1 runs it with arguments too.
# The whole suite runs in three pytest-xdist workers (LAIZI_TEST_WORKERS, below).
# `bash scripts/test.sh --fast [pytest args]`: the unit tier only (under two minutes) — no
# browser, no `laizi serve` process, no PostgreSQL, no Redis, nothing slow or heavy (the markers:
# tests/conftest.py); no system packages installed, .venv made only when missing, no compiled pass.
set -euo pipefail
cd "$(dirname "$0")/.."

fast=0
if [ "${1:-}" = "--fast" ]; then
  fast=1
  shift
fi

log() { printf '\n== %s\n' "$*" >&2; }

have_pkg() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "install ok installed"; }

need_apt=()
if [ "$fast" = 0 ]; then
[ -x /usr/bin/chromium ] || need_apt+=(chromium)
ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || command -v initdb >/dev/null 2>&1 \
  || need_apt+=(postgresql)
command -v redis-server >/dev/null 2>&1 || need_apt+=(redis-server)
command -v haproxy >/dev/null 2>&1 || need_apt+=(haproxy)
# (Node runs the web client's modules without a browser: test_delta_twins, test_english_glossary)
command -v node >/dev/null 2>&1 || need_apt+=(nodejs)
if command -v dpkg-query >/dev/null 2>&1; then
  have_pkg fonts-noto-cjk || need_apt+=(fonts-noto-cjk)
fi
if [ ${#need_apt[@]} -gt 0 ]; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    log "installing ${need_apt[*]} (apt)"
    apt-get update -qq
    # Package scripts would start system PostgreSQL/Redis services: a temporary
    # policy-rc.d (only when the machine has none) tells invoke-rc.d not to.
    own_policy=0
    if [ ! -e /usr/sbin/policy-rc.d ]; then
      printf '#!/bin/sh\nexit 101\n' > /usr/sbin/policy-rc.d; chmod +x /usr/sbin/policy-rc.d; own_policy=1
    fi
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need_apt[@]}" >/dev/null || true
    if [ "$own_policy" = 1 ]; then rm -f /usr/sbin/policy-rc.d; fi
  else
    log "missing ${need_apt[*]}: the tests that need them will be skipped"
  fi
fi
fi

if [ "$fast" = 1 ] && [ -x .venv/bin/python ]; then
  log "the fast tier: .venv as it is (the plain test command installs)"
else
  if [ ! -x .venv/bin/python ]; then
    log "creating .venv"
    python3 -m venv .venv
  fi
  log "installing laizi and test dependencies into .venv"
  .venv/bin/python -m pip install -q --disable-pip-version-check -e '.[dev,server,postgres,rl,plot,bench,ray,cluster]'
fi

if [ "$fast" = 1 ]; then
  log "running the unit tier (--fast)"
  LAIZI_EXPECT_BUILD=pure exec .venv/bin/python -m pytest -q -m "not slow and not heavy and not browser and not server and not postgres and not redis" "$@"
fi

# PostgreSQL tests start their own PRIVATE cluster (tests/server/conftest.py pg_cluster:
# initdb in a temporary directory, own port, 127.0.0.1 only, removed at the end) with the
# newest binaries; LAIZI_TEST_PG_URL, when set, points them at an existing database
# instead (e.g. one from `eval "$(bash scripts/start_postgres.sh start)"`).
if [ -z "${LAIZI_PG_BIN:-}" ]; then
  pg_bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)
  if [ -n "$pg_bin" ]; then export LAIZI_PG_BIN="$pg_bin"; fi
fi

# Three workers (pytest-xdist; a test file stays on one worker, so a module's server is started
# once): most tests wait on servers, browsers and sockets, so even on two cores a third worker
# pays — the whole pure pass took 17 min 39 s with three against 23 min 21 s with two (one
# machine, one evening: the closing note of stop 44), and the suite is written to pass on a busy
# machine. A fourth worker does not pay: 24 min 36 s against 23 min 3 s with three (one fresh
# clone, back to back, stop 79). LAIZI_TEST_WORKERS=N sets the number (0: one process); with extra arguments the
# default is one process.
workers=${LAIZI_TEST_WORKERS:-}
[ -z "$workers" ] && { [ $# -eq 0 ] && workers=3 || workers=0; }
par=()
[ "$workers" != 0 ] && par=(-n "$workers" --dist loadfile)
log "running the tests (${workers/#0/one process}${par:+ workers})"
set +e
# (--durations: the slowest tests listed at the end, to keep the suite's time in view)
# Every test has its own time limit (pytest-timeout, pyproject.toml); the whole pass has one too
# (LAIZI_TEST_LIMIT, default 55 min — it takes about 20): anything that still holds it, a worker
# that never exits, is interrupted as Ctrl-C would, so pytest says what was running and CI's own
# limit is never what ends the run.
limit=${LAIZI_TEST_LIMIT:-55m}
LAIZI_EXPECT_BUILD=pure timeout --signal=INT --kill-after=60 "$limit" \
  .venv/bin/python -m pytest -q --durations=30 "${par[@]}" "$@"
rc=$?
if [ "$rc" = 124 ]; then echo "the tests did not finish within $limit" >&2; fi
set -e
if [ "$rc" = 5 ]; then
  echo "no tests were collected" >&2
fi

# The compiled build: the tests of the engine's behaviour (not the browser,
# PostgreSQL, terminal-UI and tooling ones, nor those marked slow, which the pure
# pass ran), with the import check (tests/test_compiled.py: every hot module is
# loaded compiled), and the server's table tests (its frames are compiled). About a minute
# and a half, plus the build (a few minutes) when the sources changed.
# In the same workers as the pure pass: 73 s with three against 121 s in one process (one
# machine, back to back, stop 82).
# (the terminal UI, tests/tui, is not compiled; tests/test_hints.py patches a function the
# compiled hints call directly: neither is listed)
COMPILED_TESTS=(tests/test_compiled.py tests/test_tiles.py tests/test_rules.py tests/test_rulecatalog.py
                tests/analysis tests/game tests/scoring tests/views tests/bots tests/env
                tests/test_arena.py tests/test_distributed.py tests/test_review.py tests/test_sim.py
                tests/server/tables
                tests/test_architecture.py)
COMPILED_SKIP=(
  # doctest cannot see compiled functions
  --deselect tests/analysis/test_profiles.py::test_module_examples
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
        "${par[@]}" -m "not slow" "${COMPILED_SKIP[@]}" "${COMPILED_TESTS[@]}"
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
