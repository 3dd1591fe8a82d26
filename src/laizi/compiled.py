"""Which build of laizi is running: pure Python (the default) or the mypyc-compiled core.

The compiled build is opt-in (``LAIZI_COMPILE=1 pip install .``, see the README): it
compiles the modules in :data:`HOT_MODULES` with mypyc into extension modules placed
beside their ``.py`` sources in the installed package (the import system prefers an
extension module to a source file of the same name). Everything else, and every
behaviour, is the same as in the pure build.

``BUILD`` is ``"compiled"`` or ``"pure"``; ``COMPILED`` says the same as a bool;
:func:`compiled_modules` lists the hot modules that are actually loaded compiled
(importing them). ``laizi --version`` prints :func:`describe`.

This module is read by the build (``setup.py``) without importing the package, so it
imports only the standard library, and it is never compiled itself.
"""

from __future__ import annotations

import importlib
import os
from importlib.machinery import EXTENSION_SUFFIXES

__all__ = ["BUILD", "COMPILED", "HOT_MODULES", "compiled_modules", "describe", "installed_compiled"]

# The modules the compiled build compiles, in layer order. A compiled class can only
# be subclassed by a compiled class (unless it allows interpreted subclasses, as
# ``Bot`` does), and a compiled module calls functions of other compiled modules
# directly (they cannot be monkeypatched): hence whole layers go in together.
# Left pure on purpose: ``tiles`` and ``game.actions``, whose constructors (``Tile``,
# ``Action``) check public input themselves — compiled, a native class rejects a
# wrong type (a float, a numpy integer) with a TypeError before that check runs —
# and ``rules`` (a pydantic model). Above the engine: the 听 line's scored waits
# (``hints``) and the server's table frames (``server.common.delta``,
# ``server.tables.frames``: issue 24's hot path). The rest of the server is asyncio and
# I/O, left pure; so is its match session (``server.tables.engine``: compiled, it measured
# x0.88 and x1.05 of the frames' CPU in two sets of `bench_frames.py` rounds, which is noise,
# and it would lose its weak references, which the room eviction's test uses).
_PATTERNS = ("fengyise", "gangkai", "haidi", "jiangyise", "menqing", "pengpeng",
             "qianggang", "qidui", "qingyise", "quanqiuren")
HOT_MODULES: tuple[str, ...] = (
    "laizi.analysis.fast",
    "laizi.analysis.decompose",
    "laizi.analysis.profiles",
    "laizi.scoring.model",
    "laizi.scoring.reading",
    *(f"laizi.scoring.patterns.{p}" for p in _PATTERNS),
    "laizi.scoring.tablefan",
    "laizi.scoring.score",
    "laizi.game.wall",
    "laizi.game.wincheck",
    "laizi.game.table",
    "laizi.game.claims",
    "laizi.game.state",
    "laizi.game.play",
    "laizi.views.snapshot",
    "laizi.views.fan",
    "laizi.bots.base",
    "laizi.bots.tuning",
    "laizi.bots.toolkit",
    "laizi.bots.bighands",
    "laizi.bots.evaluate",
    "laizi.bots.greedy",
    "laizi.bots.strong",
    "laizi.bots.random_bot",
    "laizi.bots.registry",
    "laizi.hints",
    "laizi.sim",
    "laizi.server.common.delta",
    "laizi.server.tables.frames",
)

_PACKAGE_DIR = os.path.dirname(os.path.abspath(__file__))


def _is_extension(path: str | None) -> bool:
    return bool(path) and any(str(path).endswith(s) for s in EXTENSION_SUFFIXES)


def installed_compiled() -> tuple[str, ...]:
    """The hot modules with a compiled extension file in the installed package (no import)."""
    found = []
    for name in HOT_MODULES:
        base = os.path.join(_PACKAGE_DIR, *name.split(".")[1:])
        if any(os.path.exists(base + s) for s in EXTENSION_SUFFIXES):
            found.append(name)
    return tuple(found)


def compiled_modules() -> tuple[str, ...]:
    """The hot modules that are loaded as compiled extension modules (imports them)."""
    return tuple(name for name in HOT_MODULES
                 if _is_extension(getattr(importlib.import_module(name), "__file__", None)))


COMPILED: bool = bool(installed_compiled())
BUILD: str = "compiled" if COMPILED else "pure"


def describe() -> str:
    """One line for ``laizi --version``: which build runs."""
    if not COMPILED:
        return "pure Python build"
    n = len(installed_compiled())
    return f"compiled build (mypyc, {n} of {len(HOT_MODULES)} hot modules)"
