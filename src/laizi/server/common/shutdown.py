"""Stopping within bounds: each step of a server's shutdown (the tournament director, the
hub, its cluster node, the database writer) gets :data:`STEP_SECONDS`. A step that overruns
is logged with the stack it was waiting in, cancelled, and the shutdown goes on — a node
told to stop (SIGTERM: a rolling upgrade) always ends, and says where it was stuck."""

from __future__ import annotations

import asyncio
import io
import logging
from collections.abc import Awaitable

__all__ = ["STEP_SECONDS", "bounded"]

log = logging.getLogger("laizi.server")

STEP_SECONDS = 5.0  # one shutdown step's limit (each normally takes milliseconds)


async def bounded(name: str, step: Awaitable[object], seconds: float = STEP_SECONDS) -> bool:
    """Await ``step`` for at most ``seconds``; False (logged, with its stack) if it overran."""
    task = asyncio.ensure_future(step)
    done, _ = await asyncio.wait({task}, timeout=seconds)
    if task in done:
        task.result()  # its error, if any, is the caller's
        return True
    out = io.StringIO()
    task.print_stack(limit=20, file=out)
    log.error("shutdown: %s did not end within %.0f s; cancelled. It waited in:\n%s",
              name, seconds, out.getvalue())
    task.cancel()
    await asyncio.wait({task}, timeout=1.0)
    return False
