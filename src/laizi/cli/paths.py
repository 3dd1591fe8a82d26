"""Output files the subcommands write (``--plot``, ``--log``): checked before the work starts,
so a path that cannot be written costs one line, not a finished simulation's results."""

from __future__ import annotations

import os


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
