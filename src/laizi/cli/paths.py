"""Output files the subcommands write (``--plot``, ``--log``): checked before the work starts,
so a path that cannot be written costs one line, not a finished simulation's results; and the
standard input they read, which may be closed (``laizi score - <&-``); and the game logs
``replay``, ``verify`` and ``review`` read."""

from __future__ import annotations

import os
import sys
from typing import Any, TextIO


def stdin(purpose: str) -> TextIO:
    """``sys.stdin``; ``ValueError`` (one line, exit 2) when it is closed: Python then has
    ``None`` there, and ``.read()`` or ``.isatty()`` on it was an internal error."""
    if sys.stdin is None:
        raise ValueError(f"standard input is closed ({purpose})")
    return sys.stdin


def check_writable(path: str, option: str) -> None:
    """Raise ``ValueError`` (the command line's one-line error, exit 2) when ``path`` cannot
    be written: a folder, a missing folder, or one without write permission."""
    full = os.path.abspath(path)
    folder = os.path.dirname(full)
    if os.path.isdir(full):
        raise ValueError(f"{option}: cannot write {path}: it is a folder")
    if not os.path.isdir(folder):
        raise ValueError(f"{option}: cannot write {path}: no folder {folder}")
    if not os.access(folder, os.W_OK) or (os.path.exists(full) and not os.access(full, os.W_OK)):
        raise ValueError(f"{option}: cannot write {path}: permission denied")


def check_plot(path: str, option: str) -> None:
    """:func:`check_writable`, and the file's extension names a picture format matplotlib
    writes (it chooses the format by it, and refused ``x.txt`` only after the work)."""
    check_writable(path, option)
    from matplotlib.backend_bases import FigureCanvasBase

    kinds = FigureCanvasBase.get_supported_filetypes()
    ext = os.path.splitext(path)[1][1:].lower()
    if ext and ext not in kinds:
        raise ValueError(f"{option}: cannot draw {path}: .{ext} is not a picture format "
                         f"matplotlib writes ({', '.join(sorted(kinds))})")


def read_log(path: str) -> list[dict[str, Any]]:
    """The events of the game log at ``path``, each line read by the strict JSON reader
    ``laizi score`` uses (nesting at most ``MAX_JSON_DEPTH``: a line of 100,000 ``[`` is one
    line's error, not a ``RecursionError``); ``LogError`` (exit 2) names the line."""
    from laizi.game.replay import load_log
    from laizi.server.common.inputs import loads_strict

    return load_log(path, loads_strict)
