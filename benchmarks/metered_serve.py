"""``laizi serve`` with CPU meters on the hot parts of a table action (issue 24; a
benchmark's launcher, not a way to run a server).

    python benchmarks/metered_serve.py serve --port 8000 --db …   (the arguments of ``laizi``)

Before the server starts, a few of its functions are wrapped so that the CPU time the
calling thread spends inside each (``time.thread_time``: this thread's CPU alone, user and
system, inclusive of what it calls) adds up under a name:

- ``frames``: building every connection's frame of a change (``RoomFrames.frame``, the
  timers' JSON, ``GameSession.trim``) — the public part, the seats' private parts, the
  diffs, the text;
- ``frames.private``: of which the seats' private parts (``GameSession._private``);
- ``step``: a move applied to the match and noted (``Room._step``);
- ``parse``: reading a client's message (``parse_client_message``);
- ``send``: handing a frame to the connection (``Conn.send``: the WebSocket framing, or
  the queue) and ``write``: the socket writes (``DirectWriter._write``);
- ``gc.0``, ``gc.1``, ``gc.2``: the cyclic garbage collector's collections of each
  generation (``gc.callbacks``; in whichever thread allocated, so they overlap the parts
  above; ``gc.1`` holds the server's collect-and-freeze passes,
  ``laizi.server.tables.runtime.HeapFreezer``). ``LAIZI_GC_YOUNG=N``: young collections
  every ``N`` net allocations instead of CPython's 700 (an experiment: docs/deploy.md, "The
  cyclic garbage collector").

``kill -s RTMIN+1 PID`` (:data:`SIGNAL`; SIGUSR1 and SIGUSR2 are the server's own stack
dumps) writes the totals so far (seconds, and call counts) as JSON to the file named by
``LAIZI_METER_OUT`` (written whole, then renamed into place).
``bench_server_threads.py --meter`` reads them before and after its window.
"""

from __future__ import annotations

import gc
import json
import os
import signal
import sys
import threading
import time
from collections.abc import Callable
from typing import Any

SIGNAL = signal.SIGRTMIN + 1  # asks for the totals
TOTALS: dict[str, float] = {}
CALLS: dict[str, int] = {}


def metered(name: str, fn: Callable[..., Any]) -> Callable[..., Any]:
    """``fn`` with its calls' CPU time (this thread's) added to ``TOTALS[name]``; a call
    inside another of the same name is counted once, by the outer one."""
    depth = 0
    clock = time.thread_time_ns

    def wrapper(*args: Any, **kwargs: Any) -> Any:
        nonlocal depth
        if depth:
            return fn(*args, **kwargs)
        depth += 1
        t0 = clock()
        try:
            return fn(*args, **kwargs)
        finally:
            TOTALS[name] = TOTALS.get(name, 0.0) + (clock() - t0) / 1e9
            CALLS[name] = CALLS.get(name, 0) + 1
            depth -= 1

    wrapper.__wrapped__ = fn  # type: ignore[attr-defined]
    return wrapper


def install_gc() -> None:
    """Meter the collector's passes (``gc.N``); ``LAIZI_GC_YOUNG``: its young threshold."""
    started: dict[int, int] = {}
    clock = time.thread_time_ns

    def on_gc(phase: str, info: dict[str, int]) -> None:
        me = threading.get_ident()
        if phase == "start":
            started[me] = clock()
        elif me in started:
            name = f"gc.{info['generation']}"
            TOTALS[name] = TOTALS.get(name, 0.0) + (clock() - started.pop(me)) / 1e9
            CALLS[name] = CALLS.get(name, 0) + 1

    gc.callbacks.append(on_gc)
    young = os.environ.get("LAIZI_GC_YOUNG")
    if young:
        gc.set_threshold(int(young), *gc.get_threshold()[1:])


def install() -> None:
    from laizi.server.common.connection import Conn
    from laizi.server.net import handlers, wsdirect
    from laizi.server.tables.engine import GameSession
    from laizi.server.tables.framing import RoomFrames
    from laizi.server.tables.room import Room

    for cls, attr, name in (
        (RoomFrames, "frame", "frames"), (RoomFrames, "_timers_json", "frames"),
        (GameSession, "trim", "frames"), (GameSession, "_private", "frames.private"),
        (Room, "_step", "step"), (Conn, "send", "send"),
        (wsdirect.DirectWriter, "_write", "write"),
    ):
        setattr(cls, attr, metered(name, getattr(cls, attr)))
    handlers.parse_client_message = metered("parse", handlers.parse_client_message)  # type: ignore[attr-defined]


def _dump(*_: Any) -> None:
    out = os.environ.get("LAIZI_METER_OUT")
    if not out:
        return
    tmp = f"{out}.tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        json.dump({"seconds": dict(TOTALS), "calls": dict(CALLS)}, f)
    os.replace(tmp, out)


def main() -> int:
    install()
    install_gc()
    signal.signal(SIGNAL, _dump)
    from laizi.cli import main as laizi_main

    return int(laizi_main(sys.argv[1:]) or 0)


if __name__ == "__main__":
    sys.exit(main())
