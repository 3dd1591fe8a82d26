"""``laizi serve --workers N``: N node processes on one machine, one port.

Each worker is a ``laizi serve --node {base}-w{i} --reuse-port`` process: it binds the
port itself with ``SO_REUSEPORT`` and the kernel spreads new connections over the
workers. They are nodes of one cluster (the same PostgreSQL and Redis), so a connection
may land on any worker whatever its room. The supervisor forwards ``SIGTERM``/``SIGINT``
(each worker drains: its rooms go to the others) and restarts a worker that died
(its rooms are taken over meanwhile). On Linux a worker is sent ``SIGTERM`` when the
supervisor itself dies (killed with ``SIGKILL``, out of memory): no worker is left
serving, and holding its node's place in the cluster, with nobody to stop it.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from typing import Any

__all__ = ["RESTART_DELAY", "supervise", "worker_commands"]

RESTART_DELAY = 1.0  # seconds before a worker that died is started again
STOP_WAIT = 30.0     # seconds the workers have to drain before they are killed


def worker_commands(args: Any, base: str) -> list[list[str]]:
    """The command lines of ``args.workers`` workers (``args``: the parsed ``serve`` args)."""
    common = [sys.executable, "-m", "laizi", "serve", "--host", args.host, "--port", str(args.port),
              "--db", args.db, "--redis", args.redis, "--reuse-port", "--ws", args.ws,
              "--log-level", args.log_level]
    for flag, value in (("--bot-delay", args.bot_delay), ("--hand-pause", args.hand_pause),
                        ("--msg-rate", args.msg_rate),
                        ("--max-connections", getattr(args, "max_connections", None)),
                        ("--forwarded-allow-ips", getattr(args, "forwarded_allow_ips", None))):
        if value is not None:
            common += [flag, str(value)]
    if args.ws_deflate:
        common.append("--ws-deflate")
    return [[*common, "--node", f"{base}-w{i}"] for i in range(args.workers)]


def _dies_with(parent: int) -> Callable[[], None] | None:
    """For a worker (run in the child before its program): ``SIGTERM`` when ``parent``
    dies (Linux ``prctl(PR_SET_PDEATHSIG)``; elsewhere None: nothing)."""
    if not sys.platform.startswith("linux"):
        return None
    import ctypes

    libc = ctypes.CDLL(None, use_errno=True)

    def arm() -> None:
        libc.prctl(1, int(signal.SIGTERM))  # PR_SET_PDEATHSIG
        if os.getppid() != parent:  # the supervisor died before it was armed
            os.kill(os.getpid(), signal.SIGTERM)

    return arm


def supervise(cmds: list[list[str]]) -> int:
    """Run the workers until a signal; the exit code is 0 when every worker stopped cleanly."""
    arm = _dies_with(os.getpid())

    def start(cmd: list[str]) -> subprocess.Popen[bytes]:
        return subprocess.Popen(cmd, preexec_fn=arm)  # (the supervisor runs no threads)

    procs: list[subprocess.Popen[bytes]] = [start(c) for c in cmds]
    stopping = False

    def stop(sig: int, _frame: Any) -> None:
        nonlocal stopping
        stopping = True
        for p in procs:
            if p.poll() is None:
                p.send_signal(sig)

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    died: dict[int, float] = {}
    while not stopping:
        time.sleep(0.2)
        for i, p in enumerate(procs):
            if stopping or p.poll() is None:
                continue
            if i not in died:
                print(f"laizi serve: worker {i} exited ({p.returncode}); restarting", flush=True)
                died[i] = time.monotonic()
            elif time.monotonic() - died[i] >= RESTART_DELAY:
                del died[i]
                procs[i] = start(cmds[i])
    end = time.monotonic() + STOP_WAIT
    rc = 0
    for p in procs:
        try:
            p.wait(max(0.1, end - time.monotonic()))
        except subprocess.TimeoutExpired:
            p.kill()
            p.wait(5)
        rc = rc or (p.returncode if p.returncode not in (0, -signal.SIGTERM, -signal.SIGINT) else 0)
    return 0 if rc == 0 else 1
