"""Spreading independent work units over local worker processes or a Ray cluster (the
optional ``laizi[ray]`` extra).

``local_pool(workers)`` is the local process pool the simulator, the arena and the training
script (``scripts/train_policy.py``) share: its
workers ignore Ctrl-C (SIGINT), which reaches the parent only; the parent stops and reaps
them when it leaves the pool, so an interrupt ends in the parent's one line, not in a
traceback per worker or a parent waiting on a worker's lock (each worker has a pipe of its
own: no lock is shared, see :class:`LocalPool`). SIGINT is blocked in the parent
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

import contextlib
import os
import signal
from collections.abc import Callable, Generator, Iterable, Iterator, Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, TypeVar

if TYPE_CHECKING:
    from multiprocessing.connection import Connection

__all__ = ["LocalPool", "RayUnavailableError", "WorkerDiedError", "local_pool", "ray_map",
           "require_ray"]

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


def _serve(conn: Connection, initializer: Callable[..., object] | None,
           initargs: tuple[Any, ...]) -> None:
    """A worker's loop: ``(fn, job)`` in, ``(True, fn(job))`` or ``(False, error)`` out, until
    ``None`` or the parent's end closes. ``initializer(*initargs)`` runs first; its error is
    the answer to every job (raised in the parent at the first)."""
    _ignore_sigint()
    failed: tuple[bool, Any] | None = None
    if initializer is not None:
        try:
            initializer(*initargs)
        except Exception as exc:  # noqa: BLE001 - handed to the parent, raised there
            failed = (False, exc)
    while True:
        try:
            msg = conn.recv()
        except (EOFError, OSError):
            return
        if msg is None:
            return
        fn, job = msg
        try:
            out: tuple[bool, Any] = failed or (True, fn(job))
        except Exception as exc:  # noqa: BLE001 - handed to the parent, raised there
            out = (False, exc)
        try:
            conn.send(out)
        except (EOFError, OSError):
            return
        except Exception as exc:  # noqa: BLE001 - an error that does not pickle
            conn.send((False, RuntimeError(f"a worker's result or error did not pickle: {exc!r}")))


class WorkerDiedError(RuntimeError):
    """A worker process ended without answering (killed, out of memory)."""


class LocalPool:
    """``workers`` forked processes, each with a pipe of its own to the parent.

    Nothing is shared between the processes: no lock a killed or interrupted process could
    leave held. (``multiprocessing.Pool.terminate`` could hang for ever after a Ctrl-C: its
    result thread stopped reading while a worker, holding the result queue's lock, was
    writing a result larger than the pipe's buffer, and the parent then waited for that lock.)
    Only the calling thread talks to the workers, so a Ctrl-C is raised there at once."""

    #: Jobs given to a worker before it answers (one running, one waiting: it never idles).
    PER_WORKER = 2

    def __init__(self, workers: int, *, initializer: Callable[..., object] | None = None,
                 initargs: tuple[Any, ...] = (), max_tasks: int | None = None) -> None:
        """``initializer(*initargs)`` runs in each worker before its first job (as
        ``multiprocessing.Pool``'s). With ``max_tasks``, a worker that has answered that many
        jobs is stopped and a fresh one forked in its place (memory a job leaves behind is
        given back, as ``maxtasksperchild``)."""
        if max_tasks is not None and max_tasks < 1:
            raise ValueError(f"max_tasks must be at least 1, not {max_tasks}")
        self._start = (initializer, initargs)
        self._max_tasks = max_tasks
        self._procs: list[Any] = []
        self._conns: list[Connection] = []
        self._served: list[int] = []  # per worker: the jobs its current process answered
        self._given: dict[int, list[int]] = {}  # worker: the jobs it has not answered yet
        try:
            for _ in range(workers):
                self._procs.append(None)
                self._conns.append(None)  # type: ignore[arg-type]
                self._served.append(0)
                self._fork(len(self._procs) - 1)
        except BaseException:
            self.close()
            raise

    def _fork(self, w: int) -> None:
        """A new process for worker ``w``. SIGINT should be blocked meanwhile (a Ctrl-C in
        the child's first instant: :func:`local_pool`); :meth:`_renew` and
        :func:`local_pool` block it."""
        import multiprocessing as mp

        ctx = mp.get_context("fork")
        parent, child = ctx.Pipe()
        proc = ctx.Process(target=_serve, args=(child, *self._start), daemon=True)
        proc.start()
        child.close()
        self._procs[w], self._conns[w], self._served[w] = proc, parent, 0

    def _renew(self, w: int) -> None:
        """Worker ``w`` (no job given) has served its ``max_tasks``: stop it, fork another."""
        with contextlib.suppress(OSError):  # (it ended already: reaped below)
            self._conns[w].send(None)
        self._conns[w].close()
        self._procs[w].join(5)
        if self._procs[w].is_alive():
            self._procs[w].kill()
            self._procs[w].join()
        mask = signal.pthread_sigmask(signal.SIG_BLOCK, _SIGINT)
        try:
            self._fork(w)
        finally:
            signal.pthread_sigmask(signal.SIG_SETMASK, mask)

    def imap(self, fn: Callable[[J], R], jobs: Iterable[J]) -> Iterator[R]:
        """``fn(job)`` for every job, spread over the workers, yielded in job order. At most
        ``4 × workers`` results wait for an earlier one (bounded memory)."""
        from multiprocessing.connection import wait

        if any(self._given.values()):  # (their answers would be taken for this map's)
            raise RuntimeError("the pool's last map was left unfinished: use a new pool")
        todo = enumerate(jobs)
        more = True
        window = 4 * len(self._conns)
        given = self._given = {w: [] for w in range(len(self._conns))}
        done: dict[int, R] = {}
        sent = nxt = 0
        while True:
            while nxt in done:
                yield done.pop(nxt)
                nxt += 1
            for w in range(len(self._conns)):
                if self._max_tasks is not None and self._served[w] >= self._max_tasks:
                    if given[w]:
                        continue  # (its last answers come first)
                    if not more:
                        continue
                    self._renew(w)
                conn = self._conns[w]
                room = self.PER_WORKER
                if self._max_tasks is not None:
                    room = min(room, self._max_tasks - self._served[w])
                while more and len(given[w]) < room and sent - nxt < window:
                    try:
                        i, job = next(todo)
                    except StopIteration:
                        more = False
                        break
                    try:
                        conn.send((fn, job))
                    except OSError as exc:  # (a BrokenPipeError would read as a closed stdout)
                        raise self._died(w) from exc
                    given[w].append(i)
                    sent += 1
            if not more and nxt == sent:
                return
            waiting = [w for w, ids in given.items() if ids]
            ready = wait([self._conns[w] for w in waiting]
                         + [self._procs[w].sentinel for w in waiting])
            for w in waiting:
                if self._conns[w] not in ready:
                    if self._procs[w].sentinel in ready and not self._conns[w].poll():
                        raise self._died(w)
                    continue
                try:
                    ok, value = self._conns[w].recv()
                except (EOFError, OSError) as exc:
                    raise self._died(w) from exc
                i = given[w].pop(0)
                self._served[w] += 1
                if not ok:
                    raise value
                done[i] = value

    def _died(self, w: int) -> WorkerDiedError:
        proc = self._procs[w]
        proc.join(5)  # (reaped, for its exit code)
        return WorkerDiedError(f"a worker process ({proc.pid}) ended without answering "
                               f"(exit code {proc.exitcode})")

    def close(self) -> None:
        """Stop the workers (SIGTERM; SIGKILL if one lingers) and reap them."""
        procs = [p for p in self._procs if p is not None]
        for proc in procs:
            if proc.is_alive():
                proc.terminate()
        for proc in procs:
            proc.join(5)
            if proc.is_alive():
                proc.kill()
                proc.join()
        for conn in self._conns:
            if conn is not None:
                conn.close()
        self._procs, self._conns = [], []


@contextmanager
def local_pool(workers: int, *, initializer: Callable[..., object] | None = None,
               initargs: tuple[Any, ...] = (), max_tasks: int | None = None
               ) -> Iterator[LocalPool]:
    """A :class:`LocalPool` of ``workers`` forked processes that ignore SIGINT (the keywords
    are :class:`LocalPool`'s). Leaving the block, in any way (done, Ctrl-C in the parent, an
    error), stops the workers and reaps them.

    The workers are forked with SIGINT blocked in the calling thread, so each is born with it
    blocked and ignores it before unblocking it. A Ctrl-C that came while the pool started is
    raised as the mask is restored, before the block runs."""
    pool: LocalPool | None = None
    mask = signal.pthread_sigmask(signal.SIG_BLOCK, ())  # (a query: blocks nothing)
    try:
        try:
            signal.pthread_sigmask(signal.SIG_BLOCK, _SIGINT)
            pool = LocalPool(workers, initializer=initializer, initargs=initargs,
                             max_tasks=max_tasks)
        finally:
            signal.pthread_sigmask(signal.SIG_SETMASK, mask)  # a held Ctrl-C is raised here
        yield pool
    finally:
        if pool is not None:
            pool.close()


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
