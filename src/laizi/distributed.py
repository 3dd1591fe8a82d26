"""Spreading independent work units over local worker processes or a Ray cluster (the
optional ``laizi[ray]`` extra).

``local_pool(workers)`` is the local process pool the simulator and the arena share: its
workers ignore Ctrl-C (SIGINT), which reaches the parent only; the parent stops and reaps
them when it leaves the pool, so an interrupt ends in the parent's one line, not in a
traceback per worker or a parent waiting on a worker's lock. SIGINT is blocked in the parent
while the pool starts: a worker is born with it blocked and ignores it before unblocking it
(a Ctrl-C in its first milliseconds is dropped, not a traceback), and the parent takes a
Ctrl-C that came meanwhile once the pool is up (not inside a fork handler, where Python
drops it: the parent went on waiting for the workers).

``ray_map(fn, jobs, address=...)`` runs ``fn(job)`` for every job as a Ray task and
yields the results **in job order**, so a caller that merges them in order gets exactly
what a serial or multiprocessing run gives. ``address`` is a cluster address such as
``ray://head:10001`` or ``auto``; ``None`` starts (or joins) a local Ray instance, which
is shut down again when the map is done if this call started it.
"""

from __future__ import annotations

import os
import signal
from collections.abc import Callable, Generator, Iterator, Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, TypeVar

if TYPE_CHECKING:
    from multiprocessing.pool import Pool

__all__ = ["RayUnavailableError", "local_pool", "ray_map", "require_ray"]

J = TypeVar("J")
R = TypeVar("R")

#: Tasks in flight at once per available CPU (bounds the driver's memory).
IN_FLIGHT_PER_CPU = 4


_SIGINT = {signal.SIGINT}


def _ignore_sigint() -> None:
    """A worker's first act: ignore SIGINT, then take it off the mask it was born with
    (blocked: :func:`local_pool`). A SIGINT that came before is pending, and ignoring a
    pending signal discards it (POSIX), so no worker ever raises KeyboardInterrupt."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, _SIGINT)


@contextmanager
def local_pool(workers: int) -> Iterator[Pool]:
    """A pool of ``workers`` forked processes that ignore SIGINT. Leaving the block, in any
    way (done, Ctrl-C in the parent, an error), terminates the workers and waits for them.

    The pool starts with SIGINT blocked in the calling thread, so the forked workers and the
    pool's own threads inherit it blocked (the workers unblock it once they ignore it; the
    pool's threads keep it blocked, so a later Ctrl-C goes to the main thread). A Ctrl-C that
    came while the pool started is raised as the mask is restored, before the block runs."""
    import multiprocessing as mp

    pool: Pool | None = None
    mask = signal.pthread_sigmask(signal.SIG_BLOCK, ())  # (a query: blocks nothing)
    try:
        try:
            signal.pthread_sigmask(signal.SIG_BLOCK, _SIGINT)
            pool = mp.get_context("fork").Pool(workers, initializer=_ignore_sigint)
        finally:
            signal.pthread_sigmask(signal.SIG_SETMASK, mask)  # a held Ctrl-C is raised here
        yield pool
    finally:
        if pool is not None:
            pool.terminate()
            pool.join()


class RayUnavailableError(ValueError):
    """Ray is not installed (``pip install 'laizi[ray]'``) or the cluster can't be reached."""


def require_ray() -> None:
    """Raise :class:`RayUnavailableError` (a ``ValueError``: the CLI prints it in one line)
    unless Ray is installed."""
    _ray()


def _ray() -> Any:
    try:
        import ray
    except ImportError as exc:  # pragma: no cover - depends on the installed extras
        raise RayUnavailableError("--ray needs Ray: pip install 'laizi[ray]'") from exc
    return ray


#: Seconds to wait for a cluster address to accept a connection before giving up.
CONNECT_TIMEOUT = 5.0


def _check_reachable(address: str) -> None:
    """Fail fast (Ray itself retries for minutes) when ``host:port`` takes no connection."""
    import socket

    hostport = address.split("://", 1)[-1]
    if hostport == "auto" or ":" not in hostport:
        return
    host, _, port = hostport.rpartition(":")
    try:
        with socket.create_connection((host.strip("[]"), int(port)), timeout=CONNECT_TIMEOUT):
            pass
    except (OSError, ValueError) as exc:
        raise RayUnavailableError(f"no Ray cluster answers at {address!r} ({exc})") from exc


def ray_map(fn: Callable[[J], R], jobs: Sequence[J], *, address: str | None = None,
            num_cpus: int | None = None) -> Generator[R, None, None]:
    """``fn(job)`` for every job on Ray, yielded in job order."""
    ray = _ray()
    if address is not None:
        _check_reachable(address)
    started = False
    if not ray.is_initialized():
        kwargs: dict[str, Any] = {"include_dashboard": False, "log_to_driver": False,
                                  "configure_logging": False}
        if address is None:
            kwargs["num_cpus"] = num_cpus or os.cpu_count() or 1
        try:
            ray.init(address=address, **kwargs)
        except (ConnectionError, RuntimeError, ValueError) as exc:
            raise RayUnavailableError(f"could not reach Ray at {address!r}: {exc}") from exc
        started = True
    try:
        remote = ray.remote(fn)
        cpus = int(ray.available_resources().get("CPU", 1)) or 1
        window = max(1, IN_FLIGHT_PER_CPU * cpus)
        pending: list[Any] = []
        it = iter(jobs)
        for job in it:
            pending.append(remote.remote(job))
            if len(pending) >= window:
                break
        for job in it:
            yield ray.get(pending.pop(0))
            pending.append(remote.remote(job))
        while pending:
            yield ray.get(pending.pop(0))
    finally:
        if started:
            ray.shutdown()
