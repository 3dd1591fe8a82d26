"""scripts/start_postgres.sh: a private PostgreSQL for tests — a temporary directory, its own
port on 127.0.0.1 only, a password, stopped and removed afterwards — and the machine's own
PostgreSQL configuration untouched."""

from __future__ import annotations

import hashlib
import os
import shutil
import socket
import subprocess
from pathlib import Path

import pytest

pytestmark = [pytest.mark.slow, pytest.mark.timeout(180)]

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "scripts" / "start_postgres.sh"


def tree_digest(path: Path) -> str:
    h = hashlib.sha256()
    if path.exists():
        for p in sorted(path.rglob("*")):
            if p.is_file():
                try:
                    h.update(str(p).encode() + p.read_bytes())
                except OSError:  # unreadable here: its name and size
                    h.update(f"{p}:{p.stat().st_size}".encode())
    return h.hexdigest()


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["bash", str(SCRIPT), *args], capture_output=True, text=True, timeout=120)


def test_private_cluster_lifecycle() -> None:
    if not list(Path("/usr/lib/postgresql").glob("*/bin/initdb")) and not shutil.which("initdb"):
        pytest.skip("PostgreSQL binaries are not installed")
    psycopg = pytest.importorskip("psycopg")
    etc = tree_digest(Path("/etc/postgresql"))
    out = run("start")
    assert out.returncode == 0, out.stderr
    env = dict(line.removeprefix("export ").split("=", 1) for line in out.stdout.splitlines())
    url, pg_dir = env["LAIZI_TEST_PG_URL"], Path(env["LAIZI_TEST_PG_DIR"])
    try:
        assert pg_dir.is_dir() and str(pg_dir).startswith(os.environ.get("TMPDIR", "/tmp"))
        port = int(url.rsplit(":", 1)[1].split("/")[0])
        dsn = url.replace("postgresql+psycopg://", "postgresql://")
        with psycopg.connect(dsn) as conn:
            assert conn.execute("show listen_addresses").fetchone() == ("127.0.0.1",)
            assert conn.execute("show data_directory").fetchone()[0].startswith(str(pg_dir))
        with pytest.raises(psycopg.OperationalError):  # a password is required
            psycopg.connect(dsn.replace(dsn.split("@")[0].split(":")[-1] + "@", "wrong@")).close()
        # only loopback: the port is not open on another local address
        try:
            other = socket.gethostbyname(socket.gethostname())
        except OSError:
            other = "127.0.0.1"
        if not other.startswith("127."):
            with pytest.raises(OSError), socket.create_connection((other, port), timeout=2):
                pass
        assert run("halt", str(pg_dir)).returncode == 0
        with pytest.raises(psycopg.OperationalError):
            psycopg.connect(dsn, connect_timeout=3).close()
        assert run("resume", str(pg_dir)).returncode == 0
        with psycopg.connect(dsn) as conn:
            assert conn.execute("select 1").fetchone() == (1,)
        assert run("stop", "/tmp").returncode == 2  # refuses what is not one of its clusters
    finally:
        assert run("stop", str(pg_dir)).returncode == 0
    assert not pg_dir.exists()
    with pytest.raises(psycopg.OperationalError):
        psycopg.connect(dsn, connect_timeout=3).close()
    assert tree_digest(Path("/etc/postgresql")) == etc
