#!/usr/bin/env bash
# An "interpreter" for `bench_server.py --server-python benchmarks/granian_python.sh`: it runs
# `-m laizi serve OPTIONS` as laizi's app under granian (benchmarks/granian_app.py: one
# worker process, uvloop, one Rust runtime thread) and everything else with the real Python
# (LAIZI_REAL_PYTHON, default .venv/bin/python). granian is not a dependency of laizi:
# `.venv/bin/python -m pip install granian` first. GRANIAN_EXTRA: more granian options.
# The experiment and its figures: docs/deploy.md, "Another network layer: granian".
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
real=${LAIZI_REAL_PYTHON:-$here/../.venv/bin/python}
if [ "${1:-}" = "-m" ] && [ "${2:-}" = "laizi" ] && [ "${3:-}" = "serve" ] && [ "${4:-}" != "--help" ]; then
  shift 3
  port=8000
  args=("$@")
  for ((i = 0; i < ${#args[@]} - 1; i++)); do
    [ "${args[$i]}" = "--port" ] && port=${args[$((i + 1))]}
  done
  GRANIAN_LAIZI_ARGS=$("$real" -c 'import json, sys; print(json.dumps(sys.argv[1:]))' "$@")
  export GRANIAN_LAIZI_ARGS
  export PYTHONPATH="$here${PYTHONPATH:+:$PYTHONPATH}"
  # shellcheck disable=SC2086
  exec "$real" -m granian --interface asgi --loop uvloop --workers 1 --runtime-threads 1 \
    --factory --host 127.0.0.1 --port "$port" --log-level warning ${GRANIAN_EXTRA:-} granian_app:app
fi
exec "$real" "$@"
