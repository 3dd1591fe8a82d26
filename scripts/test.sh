#!/usr/bin/env bash
# The test command (README, .ci/run): installs what the tests need on a fresh
# machine — Chromium and PostgreSQL from Debian, the Python packages into .venv —
# starts a PostgreSQL server on loopback, then runs the whole pytest suite.
# Extra arguments go to pytest (e.g. `bash scripts/test.sh tests/core -x`).
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
.venv/bin/python -m pytest -q "$@"
rc=$?
set -e
if [ "$rc" = 5 ]; then
  echo "no tests were collected" >&2
fi
exit "$rc"
