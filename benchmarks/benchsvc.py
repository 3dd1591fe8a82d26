"""Private services for the cluster benchmarks: a PostgreSQL cluster (initdb in a temporary
directory, loopback, its own port, fsync off) and a redis-server (loopback, no
persistence), started and removed by the benchmark itself; and ``laizi serve`` nodes."""

from __future__ import annotations

import os
import secrets
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

PG_BIN = Path(os.environ.get("LAIZI_PG_BIN", "/usr/lib/postgresql/15/bin"))


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Postgres:
    def __init__(self) -> None:
        self.dir = Path(tempfile.mkdtemp(prefix="laizi-bench-pg-"))
        self.port = free_port()

    def _run(self, *args: str, check: bool = True) -> Any:
        cmd = list(args)
        if os.geteuid() == 0:  # initdb and postgres refuse to run as root
            cmd = ["runuser", "-u", "postgres", "--", *cmd]
        return subprocess.run(cmd, check=check, capture_output=True, text=True, timeout=120)

    def start(self) -> Postgres:
        if os.geteuid() == 0:
            shutil.chown(self.dir, "postgres", "postgres")
        data = self.dir / "data"
        self._run(str(PG_BIN / "initdb"), "-D", str(data), "-U", "laizi", "-A", "trust",
                  "--no-sync", "-E", "UTF8")
        opts = (f"-p {self.port} -k {self.dir} -c listen_addresses=127.0.0.1 -c fsync=off "
                "-c max_connections=200")
        self._run(str(PG_BIN / "pg_ctl"), "-D", str(data), "-o", opts, "-l",
                  str(self.dir / "pg.log"), "-w", "start")
        self._run(str(PG_BIN / "createdb"), "-h", "127.0.0.1", "-p", str(self.port), "-U",
                  "laizi", "laizi")
        return self

    @property
    def url(self) -> str:
        return f"postgresql://laizi@127.0.0.1:{self.port}/laizi"

    def fresh_db(self, name: str) -> str:
        """A new empty database on this cluster (one per measured configuration)."""
        self._run(str(PG_BIN / "createdb"), "-h", "127.0.0.1", "-p", str(self.port), "-U",
                  "laizi", name)
        return f"postgresql://laizi@127.0.0.1:{self.port}/{name}"

    def cpu_seconds(self) -> float | None:
        """CPU seconds of the postmaster and its live children (the backends and workers)."""
        try:
            pid = int((self.dir / "data" / "postmaster.pid").read_text().split()[0])
        except (OSError, ValueError, IndexError):
            return None
        return tree_cpu(pid, fine=True)  # single-threaded processes, a few writes: nanoseconds

    def stop(self) -> None:
        self._run(str(PG_BIN / "pg_ctl"), "-D", str(self.dir / "data"), "-m", "immediate", "-w",
                  "stop", check=False)
        shutil.rmtree(self.dir, ignore_errors=True)


class Redis:
    def __init__(self) -> None:
        self.dir = Path(tempfile.mkdtemp(prefix="laizi-bench-redis-"))
        self.port = free_port()
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> Redis:
        exe = shutil.which("redis-server") or "/usr/bin/redis-server"
        self.proc = subprocess.Popen(
            [exe, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "", "--appendonly",
             "no", "--dir", str(self.dir)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.2) as s:
                    s.sendall(b"PING\r\n")
                    if s.recv(16).startswith(b"+PONG"):
                        return self
            except OSError:
                time.sleep(0.05)
        raise RuntimeError("redis-server did not start")

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def flush(self) -> None:
        with socket.create_connection(("127.0.0.1", self.port), timeout=2) as s:
            s.sendall(b"FLUSHALL\r\n")
            s.recv(16)

    def cpu_seconds(self) -> float | None:
        return proc_cpu(self.proc.pid) if self.proc is not None else None

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            self.proc.wait(10)
        shutil.rmtree(self.dir, ignore_errors=True)


def proc_cpu(pid: int, fine: bool = False) -> float | None:
    """User + system CPU seconds of a process and of its children it reaped (Linux /proc).

    ``fine``: the process's own time from ``/proc/<pid>/schedstat`` (nanoseconds) where the
    kernel keeps it. ``stat`` counts in clock ticks (10 ms), and a quiet process (a database
    doing a few hundred small writes in a short window) can move less than one tick. Only for
    single-threaded processes (PostgreSQL's): ``schedstat`` counts the main thread alone."""
    try:
        with open(f"/proc/{pid}/stat") as fh:
            fields = fh.read().rsplit(")", 1)[1].split()
        tick = os.sysconf("SC_CLK_TCK")
        reaped = (int(fields[13]) + int(fields[14])) / tick
        own = (int(fields[11]) + int(fields[12])) / tick
        if fine:
            try:
                with open(f"/proc/{pid}/schedstat") as fh:
                    own = int(fh.read().split()[0]) / 1e9
            except (OSError, ValueError, IndexError):
                pass
        return own + reaped
    except (OSError, ValueError, IndexError):
        return None


def children(pid: int) -> list[int]:
    try:
        with open(f"/proc/{pid}/task/{pid}/children") as fh:
            return [int(x) for x in fh.read().split()]
    except OSError:
        return []


def tree_cpu(pid: int, fine: bool = False) -> float | None:
    """CPU seconds of a process and its live children (a ``--workers`` supervisor);
    ``fine`` as in :func:`proc_cpu`."""
    total = proc_cpu(pid, fine)
    if total is None:
        return None
    for c in children(pid):
        total += proc_cpu(c, fine) or 0.0
    return total


_CLUSTER_KEY = secrets.token_hex(32)


def serve(port: int, db_url: str, *args: str, python: str | None = None,
          entry: tuple[str, ...] = ("-m", "laizi"), env: dict[str, str] | None = None) -> subprocess.Popen[bytes]:
    """``laizi serve`` on loopback (bots instant, loopback exempt from the per-address
    limits), waited for until /healthz answers. ``entry``: how Python runs ``laizi``
    (``metered_serve.py``'s path: with its CPU meters); ``env``: more environment."""
    proc = subprocess.Popen(
        [python or sys.executable, *entry, "serve", "--host", "127.0.0.1", "--port",
         str(port), "--db", db_url, "--bot-delay", "0", "--hand-pause", "0.5", *args],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        # a cluster node needs its shared secret: one per benchmark run, the same on every node
        env={**os.environ, **(env or {}), "LAIZI_RATE_EXEMPT": "127.0.0.1",
             "LAIZI_CLUSTER_KEY": os.environ.get("LAIZI_CLUSTER_KEY") or _CLUSTER_KEY})
    deadline = time.time() + 60
    while time.time() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"laizi serve exited ({proc.returncode})")
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=1):
                return proc
        except OSError:
            time.sleep(0.1)
    proc.kill()
    raise RuntimeError("server did not start")


def stop(proc: subprocess.Popen[bytes] | None) -> None:
    if proc is None or proc.poll() is not None:
        return
    proc.terminate()
    try:
        proc.wait(40)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(10)
