"""``laizi serve --workers N``: N node processes on one port; the cluster options' errors."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from typing import Any

import pytest

from laizi.cli import main
from support.clusterplay import seat_players
from support.srvhelpers import free_port, http

redis = pytest.importorskip("redis")


def two_workers(port: int, pg_url: str, redis_url: str, log: Any, node: str,
                *extra: str) -> subprocess.Popen[bytes]:
    """``laizi serve --workers 2 --node NODE`` on ``port``, its output appended to ``log``."""
    env = {**os.environ, "PYTHONUNBUFFERED": "1", "LAIZI_RATE_EXEMPT": "127.0.0.1"}
    with open(log, "ab") as fh:
        return subprocess.Popen([sys.executable, "-m", "laizi", "serve", "--port", str(port),
                                 "--db", pg_url, "--redis", redis_url, "--workers", "2",
                                 "--node", node, *extra], stdout=fh, stderr=subprocess.STDOUT, env=env)


def kill_a_worker(port: int, redis_url: str) -> None:
    """kill -9 the worker owning a bot room: the supervisor starts it again (same node
    name) and the room goes on, on either worker — owned again within 10 s (2.0–3.5 s on an
    idle machine: a new Python process and the 3 s lease; a loaded one took 5.04 s)."""
    from support.clusterplay import bot_room, lease_owner

    r = redis.Redis.from_url(redis_url)
    host, code = bot_room(port, hands=50)  # still playing when its worker dies
    owner = lease_owner(r, code)
    token = int(r.get(f"laizi:lease:{code}").decode().rpartition("|")[2])
    pid = None
    for _ in range(100):
        _, st = http(f"http://127.0.0.1:{port}/cluster")
        if st["node"] == owner:
            pid = st["pid"]
            break
    assert pid is not None
    os.kill(pid, signal.SIGKILL)
    t0 = time.monotonic()
    while time.monotonic() - t0 < 15:
        v = r.get(f"laizi:lease:{code}")
        if v is not None and int(v.decode().rpartition("|")[2]) > token:
            break
        host.pump(0.05)
    took = time.monotonic() - t0
    assert took < 10.0, took
    before = host.frames
    end = time.monotonic() + 15
    while time.monotonic() < end and host.frames < before + 5:
        host.pump(0.05)
    assert host.frames >= before + 5, "the room did not go on"
    host.close()
    print(f"\nworker killed: room {code} owned again after {took:.2f} s")


@pytest.mark.parametrize("argv, message", [
    (["--workers", "2"], "--workers and --node need --redis"),
    (["--node", "a"], "--workers and --node need --redis"),
    (["--workers", "2", "--redis", "redis://127.0.0.1:1"], "needs a PostgreSQL --db"),
    (["--redis", "redis://127.0.0.1:1"], "needs a PostgreSQL --db"),
    (["--workers", "0"], "--workers must be from 1"),
    (["--node", "a b", "--redis", "redis://x"], "--node must be"),
    (["--redis", "http://x", "--db", "postgresql://x/y"], "--redis must be a redis://"),
])
def test_cluster_options_need_redis_and_postgres(argv: list[str], message: str,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["serve", *argv]) == 2
    out = capsys.readouterr().out
    assert message in out and out.count("\n") == 1 and "Traceback" not in out


@pytest.mark.slow
@pytest.mark.timeout(120)
def test_two_workers_share_one_port(pg_url: str, redis_url: str, tmp_path: Any) -> None:
    port = free_port()
    log = tmp_path / "workers.log"
    proc = two_workers(port, pg_url, redis_url, log, "box", "--bot-delay", "0.02", "--hand-pause", "0.1")
    try:
        seen: set[str] = set()
        end = time.monotonic() + 60
        while time.monotonic() < end and len(seen) < 2:
            try:
                status, body = http(f"http://127.0.0.1:{port}/cluster")
            except OSError:
                time.sleep(0.2)
                continue
            if status == 200:
                seen.add(body["node"])
                if len(body["live_nodes"]) < 2:
                    time.sleep(0.2)
        assert seen == {"box-w0", "box-w1"}, (seen, log.read_text()[-2000:])
        # A room played by players who may be on either worker.
        ps, code = seat_players(port, [port, port], bots=1, max_hands=1)
        end = time.monotonic() + 60
        while time.monotonic() < end:
            for p in ps:
                p.pump()
            if not all(p.play() for p in ps):
                break
        assert all(p.acked for p in ps)
        kill_a_worker(port, redis_url)
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(40) == 0
        assert "Traceback" not in log.read_text()
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(10)


def test_the_workers_stop_when_the_supervisor_is_killed(pg_url: str, redis_url: str,
                                                        tmp_path: Any) -> None:
    """``kill -9`` of the supervisor: its workers get SIGTERM and leave (they kept serving,
    and beating in Redis as live nodes of the cluster: in a suite beside stress-ng, a test
    whose supervisor was killed left ``box-w0`` live, and two later tests saw a third node,
    stop 51)."""
    from support.interrupt import children, running, wait_for

    port = free_port()
    log = tmp_path / "workers.log"
    proc = two_workers(port, pg_url, redis_url, log, "orphan")
    workers: list[int] = []
    try:
        wait_for(lambda: len(children(proc.pid)) == 2, 60, "two workers")
        workers = children(proc.pid)
        status = None
        end = time.monotonic() + 60
        while time.monotonic() < end:  # both serve (each answers on the shared port)
            try:
                status, body = http(f"http://127.0.0.1:{port}/cluster")
            except OSError:
                time.sleep(0.2)
                continue
            if status == 200 and {"orphan-w0", "orphan-w1"} <= set(body["live_nodes"]):
                break
            time.sleep(0.2)
        assert status == 200, log.read_text()[-2000:]
        proc.kill()
        proc.wait(10)
        wait_for(lambda: not any(running(w) for w in workers), 60, "the workers to leave")
    finally:
        for w in workers:
            if running(w):
                os.kill(w, signal.SIGKILL)
        if proc.poll() is None:
            proc.kill()
            proc.wait(10)
