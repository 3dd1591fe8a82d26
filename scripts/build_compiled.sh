#!/usr/bin/env bash
# Build the mypyc-compiled core into its own venv, .venv-compiled (never the dev .venv):
#   LAIZI_COMPILE=1 pip install '.[extras]'   (non-editable; the build installs mypy)
# and check that the compiled modules are the ones loaded. Skips the build when the
# sources are unchanged since the last one (a stamp in the venv; FORCE=1 rebuilds).
# Usage: bash scripts/build_compiled.sh [EXTRAS]   (default: dev,server,rl,bench,plot)
set -euo pipefail
cd "$(dirname "$0")/.."

VENV=$(realpath -m "${LAIZI_COMPILED_VENV:-.venv-compiled}")
EXTRAS=${1:-dev,server,rl,bench,plot}
log() { printf '\n== %s\n' "$*" >&2; }

# what the compiled build depends on: the package's files (sources, data such as the learned
# bot's weights, the web client) and the build files
stamp=$( { find src/laizi -type f -not -name '*.pyc' -print0 | sort -z | xargs -0 sha256sum;
           sha256sum pyproject.toml setup.py _build/laizi_build.py; echo "$EXTRAS"; } |
         sha256sum | cut -d' ' -f1)

if [ ! -x "$VENV/bin/python" ]; then
  log "creating $VENV"
  python3 -m venv "$VENV"
fi
if [ "${FORCE:-0}" != 1 ] && [ -f "$VENV/laizi-build.stamp" ] &&
   [ "$(cat "$VENV/laizi-build.stamp")" = "$stamp" ]; then
  log "compiled build in $VENV is up to date"
else
  log "building the compiled core into $VENV (mypyc: a few minutes)"
  rm -f "$VENV/laizi-build.stamp"
  # (pip always rebuilds and reinstalls a project given by its path)
  LAIZI_COMPILE=1 "$VENV/bin/python" -m pip install -q --disable-pip-version-check ".[$EXTRAS]"
  echo "$stamp" > "$VENV/laizi-build.stamp"
fi

# the import check: every hot module is loaded compiled, from the venv (not src/)
(cd / && "$VENV/bin/python" - <<'PY'
import laizi, laizi.compiled as c
loaded = c.compiled_modules()
missing = sorted(set(c.HOT_MODULES) - set(loaded))
assert c.BUILD == "compiled" and not missing, f"not compiled: {missing}"
assert "site-packages" in laizi.__file__, laizi.__file__
print(f"{c.describe()}: {len(loaded)} modules loaded compiled from {laizi.__file__}")
PY
)
