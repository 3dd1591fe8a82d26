"""Ctrl-C on a running ``laizi`` command: start it in its own process group, wait until it is
working, send SIGINT to the whole group (as a terminal does) and see how it ends."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path


@dataclass
class Interrupted:
    returncode: int
    stderr: str
    workers: list[int]  # the command's child processes when the interrupt was sent
    left: list[int]  # those still running after it ended


def children(pid: int) -> list[int]:
    """The child processes of ``pid`` (Linux /proc)."""
    out: list[int] = []
    for task in Path(f"/proc/{pid}/task").glob("*"):
        with contextlib.suppress(OSError):
            out.extend(int(c) for c in (task / "children").read_text().split())
    return out


def cpu_ticks(pid: int) -> int:
    """User + system clock ticks ``pid`` has used (0 when it is gone)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0
    return int(fields[11]) + int(fields[12])


def running(pid: int) -> bool:
    """``pid`` exists and is not a zombie (an orphaned zombie has finished)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def wait_for(cond: Callable[[], bool], timeout: float, what: str, poll: float = 0.05) -> None:
    deadline = time.monotonic() + timeout
    while not cond():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(poll)


def interrupt(args: list[str], workers: int, working: Callable[[], bool] | None = None,
              timeout: float = 20.0) -> Interrupted:
    """Run ``laizi ARGS``; once it has ``workers`` children that have used CPU time (and
    ``working()`` holds, when given), send SIGINT to its process group and wait at most
    ``timeout`` seconds for it to end (it is killed, and the test fails, otherwise)."""
    def busy(pid: int) -> bool:
        kids = children(pid)
        return (len(kids) >= workers and all(cpu_ticks(k) > 0 for k in kids)
                and (working is None or working()))

    return interrupt_when(args, busy, "the workers to start", timeout)


def interrupt_when(args: list[str], ready: Callable[[int], bool], what: str,
                   timeout: float = 20.0, poll: float = 0.05,
                   program: list[str] | None = None) -> Interrupted:
    """Run ``laizi ARGS`` (``PROGRAM ARGS`` when given); as soon as ``ready(pid)`` holds (asked
    every ``poll`` seconds: a condition, never a fixed time), send SIGINT to its process group
    and wait at most ``timeout`` seconds for it to end (it is killed, and the test fails,
    otherwise)."""
    cmd = [*(program or [sys.executable, "-m", "laizi"]), *args]
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, text=True, start_new_session=True)
    try:
        wait_for(lambda: ready(proc.pid) or proc.poll() is not None, 120, what, poll)
        assert proc.poll() is None, "the command ended before it was interrupted"
        kids = children(proc.pid)
        os.killpg(proc.pid, signal.SIGINT)
        try:
            _, err = proc.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            raise AssertionError(f"no exit {timeout} s after Ctrl-C (hangs)") from None
        with contextlib.suppress(AssertionError):
            wait_for(lambda: not any(running(k) for k in kids), 5, "the workers to end")
        return Interrupted(proc.returncode, err, kids, [k for k in kids if running(k)])
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)  # the command and any worker it left
        proc.wait()
