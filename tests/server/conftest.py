"""Shared fixtures for the server tests: an app on a temporary SQLite file, WebSocket helpers."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

# The key that signs a cluster's bus messages (laizi.server.cluster.bus): the nodes the tests
# start inherit it; one per test run.
os.environ.setdefault("LAIZI_CLUSTER_KEY", __import__("secrets").token_hex(32))

pytest.importorskip("starlette")
pytest.importorskip("sqlalchemy")

from starlette.testclient import TestClient  # noqa: E402

from laizi.server.net.app import create_app  # noqa: E402
from support.srvhelpers import FAST, close_all  # noqa: E402


@pytest.fixture
def make_app(tmp_path: Path) -> Callable[..., Any]:
    def make(db_url: str | None = None, **cfg: Any) -> Any:
        return create_app(db_url=db_url or str(tmp_path / "laizi.db"), **{**FAST, **cfg})

    return make


@pytest.fixture
def client(make_app: Callable[..., Any]) -> Iterator[TestClient]:
    with TestClient(make_app()) as c:
        try:
            yield c
        finally:
            close_all()


@pytest.fixture
def fast_client(make_app: Callable[..., Any]) -> Iterator[TestClient]:
    """A server that lets a test client send as fast as it likes (a barrier is a ping)."""
    with TestClient(make_app(msg_rate=10_000.0)) as c:
        try:
            yield c
        finally:
            close_all()


# ------------------------------------------------------------------ PostgreSQL
PG_BIN = Path(os.environ.get("LAIZI_PG_BIN", "/usr/lib/postgresql/15/bin"))


class PgCluster:
    """A private PostgreSQL cluster: initdb in a temporary directory, its own port, loopback
    only, trust auth; stopped and removed at the end. Nothing of the machine's set-up changes."""

    def __init__(self) -> None:
        import tempfile

        from support.srvhelpers import free_port

        self.dir = Path(tempfile.mkdtemp(prefix="laizi-pg-"))
        self.data = self.dir / "data"
        self.port = free_port()
        self.user = "laizi"

    def _run(self, *args: str, check: bool = True) -> Any:
        import subprocess

        cmd = list(args)
        if os.geteuid() == 0:  # initdb and postgres refuse to run as root
            cmd = ["runuser", "-u", "postgres", "--", *cmd]
        return subprocess.run(cmd, check=check, capture_output=True, text=True, timeout=120)

    def init(self) -> None:
        import shutil

        if os.geteuid() == 0:
            shutil.chown(self.dir, "postgres", "postgres")
        self._run(str(PG_BIN / "initdb"), "-D", str(self.data), "-U", self.user, "-A", "trust",
                  "--no-sync", "-E", "UTF8")
        self.start()
        self._run(str(PG_BIN / "createdb"), "-h", "127.0.0.1", "-p", str(self.port), "-U", self.user,
                  "laizi")

    def start(self) -> None:
        opts = f"-p {self.port} -k {self.dir} -c listen_addresses=127.0.0.1 -c fsync=off"
        self._run(str(PG_BIN / "pg_ctl"), "-D", str(self.data), "-o", opts, "-l",
                  str(self.dir / "pg.log"), "-w", "start")

    def stop(self) -> None:
        self._run(str(PG_BIN / "pg_ctl"), "-D", str(self.data), "-m", "fast", "-w", "stop",
                  check=False)

    def ready(self) -> bool:
        r = self._run(str(PG_BIN / "pg_isready"), "-h", "127.0.0.1", "-p", str(self.port), check=False)
        return bool(r.returncode == 0)

    @property
    def url(self) -> str:
        return f"postgresql://{self.user}@127.0.0.1:{self.port}/laizi"

    def remove(self) -> None:
        import shutil

        try:
            self.stop()
            if (self.data / "postmaster.pid").exists():  # did not stop in time: no mercy
                self._run(str(PG_BIN / "pg_ctl"), "-D", str(self.data), "-m", "immediate", "-w",
                          "stop", check=False)
        finally:
            shutil.rmtree(self.dir, ignore_errors=True)


@pytest.fixture(scope="session")
def pg_cluster() -> Iterator[PgCluster]:
    if not (PG_BIN / "initdb").exists():
        pytest.skip(f"no PostgreSQL binaries in {PG_BIN}")
    c = PgCluster()
    try:
        c.init()
    except Exception as exc:  # noqa: BLE001 - reported as a skip with the reason
        c.remove()
        pytest.skip(f"could not start a private PostgreSQL cluster: {exc}")
    try:
        yield c
    finally:
        c.remove()


@pytest.fixture
def pg_url(request: pytest.FixtureRequest) -> str:
    """A clean PostgreSQL database (the server creates the schema): ``LAIZI_TEST_PG_URL``
    when set, else one on the private cluster."""
    from laizi.server.persistence import db

    url = os.environ.get("LAIZI_TEST_PG_URL")
    if not url:
        cluster: PgCluster = request.getfixturevalue("pg_cluster")
        if not cluster.ready():
            cluster.start()
        url = cluster.url
    from laizi.server.persistence.models import all_models

    eng = db.make_engine(url)
    all_models().drop_all(eng)  # every model module's tables, loaded or not yet
    eng.dispose()
    return url


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """The test's database on each backend in turn: a new SQLite file, then a clean database on
    the private PostgreSQL (:func:`pg_url`)."""
    if request.param == "sqlite":
        return str(tmp_path / "laizi.db")
    return str(request.getfixturevalue("pg_url"))


# ----------------------------------------------------------------------- Redis
class RedisServer:
    """A private Redis: Debian's ``redis-server`` on its own port, loopback only, no
    persistence, its files in a temporary directory; stopped and removed at the end."""

    def __init__(self) -> None:
        import secrets
        import tempfile

        from support.srvhelpers import free_port

        self.dir = Path(tempfile.mkdtemp(prefix="laizi-redis-"))
        self.port = free_port()
        self.proc: Any = None
        self.password = secrets.token_hex(16)  # a cluster's Redis has a password (docs/cluster.md)

    def start(self) -> None:
        import shutil
        import socket
        import subprocess
        import time

        exe = shutil.which("redis-server") or "/usr/bin/redis-server"
        self.proc = subprocess.Popen(
            [exe, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
             "--appendonly", "no", "--dir", str(self.dir), "--protected-mode", "yes",
             "--requirepass", self.password],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.2) as s:
                    s.sendall(self._auth() + b"PING\r\n")
                    got = b""
                    while got.count(b"\r\n") < 2 and (chunk := s.recv(64)):
                        got += chunk
                    if got.endswith(b"+PONG\r\n"):
                        return
            except OSError:
                time.sleep(0.05)
        raise RuntimeError(f"redis-server did not answer on port {self.port}")

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(5)
            except Exception:  # noqa: BLE001 - did not stop in time: no mercy
                self.proc.kill()
                self.proc.wait(5)

    def _auth(self) -> bytes:
        return f"AUTH {self.password}\r\n".encode()

    @property
    def url(self) -> str:
        return f"redis://:{self.password}@127.0.0.1:{self.port}/0"

    def flush(self) -> None:
        import socket

        with socket.create_connection(("127.0.0.1", self.port), timeout=2) as s:
            s.sendall(self._auth() + b"FLUSHALL\r\n")
            got = b""
            while got.count(b"\r\n") < 2:
                chunk = s.recv(64)
                if not chunk:
                    break
                got += chunk

    def remove(self) -> None:
        import shutil

        try:
            self.stop()
        finally:
            shutil.rmtree(self.dir, ignore_errors=True)


@pytest.fixture(scope="session")
def redis_server() -> Iterator[RedisServer]:
    import shutil

    if not (shutil.which("redis-server") or Path("/usr/bin/redis-server").exists()):
        pytest.skip("no redis-server binary (apt-get install redis-server)")
    r = RedisServer()
    try:
        r.start()
    except Exception as exc:  # noqa: BLE001 - reported as a skip with the reason
        r.remove()
        pytest.skip(f"could not start a private Redis: {exc}")
    try:
        yield r
    finally:
        r.remove()


@pytest.fixture
def redis_url(redis_server: RedisServer) -> str:
    """An empty private Redis (flushed before each test)."""
    redis_server.flush()
    return redis_server.url
