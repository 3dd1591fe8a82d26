"""The server's worker processes (replays, reviews) end with the server.

A ``ProcessPoolExecutor`` worker is told to stop by its pool's shutdown; a server that is
killed (SIGKILL, the OOM killer, a crash) never says so, and its spawned workers would wait
on their queue for ever — one more orphan at each restart. :func:`exit_with_parent`, run by
each worker as its pool's initializer, watches the process that spawned it and ends the
worker within :data:`WATCH_SECONDS` once that process is gone (the worker is then adopted by
another parent: its parent id changes)."""

from __future__ import annotations

import os
import threading
import time

__all__ = ["WATCH_SECONDS", "exit_with_parent"]

WATCH_SECONDS = 1.0


def exit_with_parent() -> None:
    """Start the watch in this (worker) process: it exits once its parent is gone."""
    parent = os.getppid()

    def watch() -> None:
        while True:
            time.sleep(WATCH_SECONDS)
            if os.getppid() != parent:
                os._exit(0)  # nothing to finish: the server that asked for the work is gone

    threading.Thread(target=watch, name="laizi-parent-watch", daemon=True).start()
