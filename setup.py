"""Build script: pure Python by default; ``LAIZI_COMPILE=1`` compiles the hot modules
with mypyc (the list is ``HOT_MODULES`` in ``src/laizi/compiled.py``).

Use pip, not this file: ``pip install .`` (pure) or ``LAIZI_COMPILE=1 pip install .``
(compiled; the build backend in ``_build/`` then adds mypy to the build requirements).
Optional: ``LAIZI_COMPILE_OPT`` (mypyc ``opt_level``, default 3).
"""

from __future__ import annotations

import os
import runpy
import shutil
from pathlib import Path
from typing import Any

from setuptools import setup

ROOT = Path(__file__).resolve().parent


def _compile_requested() -> bool:
    return os.environ.get("LAIZI_COMPILE", "").strip().lower() in ("1", "true", "yes", "on")


def _compiled_options() -> dict[str, Any]:
    try:
        from mypyc.build import mypycify
    except ImportError:
        raise SystemExit("laizi: the compiled build (LAIZI_COMPILE=1) needs mypy (mypyc): "
                         "pip install 'mypy>=1.10', or build with pip, which installs it") from None

    hot = runpy.run_path(str(ROOT / "src" / "laizi" / "compiled.py"))["HOT_MODULES"]
    paths = ["src/" + name.replace(".", "/") + ".py" for name in hot]
    # a build directory of its own, its lib emptied first: a pure build never picks up
    # an extension module left from a compiled one, nor a compiled build one from an
    # earlier module list
    base = _fresh_build_base("mypyc")
    # (the server's compiled modules import its optional extras, which the isolated build
    # environment does not hold: their types are Any there, and the modules they pull in
    # are read for types only, their errors left to the project's own mypy run)
    ext = mypycify(
        ["--follow-imports=silent", "--ignore-missing-imports", *paths],
        opt_level=os.environ.get("LAIZI_COMPILE_OPT", "3"),
        group_name="laizi",
        target_dir=str(base / "c"),
    )
    return {"ext_modules": ext,
            "options": {"build": {"build_base": str(base)}}}


def _fresh_build_base(name: str) -> Path:
    """``build/<name>``, without the ``lib*`` trees of earlier builds (setuptools copies
    whatever it finds there into the wheel)."""
    base = ROOT / "build" / name
    for old in base.glob("lib*"):
        shutil.rmtree(old, ignore_errors=True)
    return base


def _pure_options() -> dict[str, Any]:
    return {"options": {"build": {"build_base": str(_fresh_build_base("pure"))}}}


setup(**(_compiled_options() if _compile_requested() else _pure_options()))
