"""Owner affinity (laizi.server.cluster.affinity): a join relayed through another node comes
with the owner's address; a client following it plays on the owner without relays, one
ignoring it is still relayed, a stale hint falls back; HAProxy routes /ws?node=NAME; the
workers of ``--workers N --worker-ports FIRST`` each listen on their own port."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from laizi.cli import main
from laizi.server.cluster.affinity import valid_addr
from laizi.server.common.protocol import PROTOCOL
from support.clusterplay import Player
from support.nodes import HAProxy, NodeProc, haproxy_config
from support.srvhelpers import Client, free_port, http

redis = pytest.importorskip("redis")

ARGS = ["--bot-delay", "0.02", "--hand-pause", "0.2"]
HINT_KEYS = {"type", "room", "node", "addr"}


@pytest.fixture
def advertised(pg_url: str, redis_url: str, tmp_path: Path) -> Iterator[Callable[[list[str]], list[NodeProc]]]:
    """Nodes that advertise their own loopback port (``--advertise 127.0.0.1:PORT``)."""
    started: list[NodeProc] = []

    def make(names: list[str]) -> list[NodeProc]:
        nodes = []
        for name in names:
            n = NodeProc(name, pg_url, redis_url, tmp_path, ARGS)
            n.cmd += ["--advertise", f"127.0.0.1:{n.port}"]
            started.append(n.start())
            nodes.append(n)
        wait_addrs(nodes)
        return nodes

    try:
        yield make
    finally:
        for n in started:
            n.stop()


def wait_addrs(nodes: list[NodeProc]) -> None:
    """Every node knows every other's address and sees it live (a refresh: ≤ 1 s)."""
    names = {n.name for n in nodes}
    end = time.monotonic() + 20
    while time.monotonic() < end:
        if all(names <= set(n.status()["live_nodes"]) for n in nodes):
            # The address cache is read every other tick (1 s): nothing tells when it was, so
            # three of its periods, not 1.2 s (one late tick on a busy machine, and a hint had
            # no address)
            time.sleep(3.0)
            return
        time.sleep(0.1)
    raise AssertionError("the nodes do not see each other")


def create_room(c: Client) -> str:
    c.send({"type": "create", "settings": {"turn_seconds": 600, "claim_seconds": 120,
                                           "max_hands": 2}})
    return str(c.until("joined", 20)["room"]["code"])


def join_collect(c: Client, code: str) -> list[dict[str, Any]]:
    """Join ``code``; the frames received up to and including ``joined``."""
    n = len(c.frames)
    c.send({"type": "join", "room": code})
    c.until("joined", 20)
    return c.frames[n:]


def hints(frames: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [m for m in frames if m["type"] == "owner"]


def seat(p: Player, i: int) -> None:
    p.c.send({"type": "sit", "seat": i})
    p.c.until(lambda m: m["type"] == "room" and m["room"]["seats"][i]["player_id"] == p.pid, 20)
    p.c.send({"type": "ready"})
    p.c.until(lambda m: m["type"] == "room" and m["room"]["seats"][i]["ready"], 20)


def play_until_acked(ps: list[Player], acks: int, seconds: float = 60) -> None:
    end = time.monotonic() + seconds
    while time.monotonic() < end and min(len(p.acked) for p in ps) < acks:
        for p in ps:
            p.pump()
            p.play()
    assert min(len(p.acked) for p in ps) >= acks, [len(p.acked) for p in ps]


def test_valid_addr() -> None:
    for ok in ("127.0.0.1:8101", "box-1.example.org:443", "[::1]:9000", "h:1"):
        assert valid_addr(ok), ok
    for bad in ("127.0.0.1", "127.0.0.1:0", "127.0.0.1:70000", "javascript:alert(1)", "a b:80",
                "http://x:80", "x:80/ws", "x:80?node=y", "<script>:80", "-x:80", ""):
        assert not valid_addr(bad), bad


@pytest.mark.parametrize("argv, message", [
    (["--advertise", "nope"], "--advertise must be HOST:PORT"),
    (["--advertise", "127.0.0.1:8001"], "need --redis"),
    (["--worker-ports", "9000"], "--worker-ports needs --workers 2"),
    (["--workers", "2", "--worker-ports", "7999", "--port", "8000",
      "--redis", "redis://127.0.0.1:1", "--db", "postgresql://x/y"], "must not include --port"),
    (["--workers", "2", "--advertise", "h:1", "--redis", "redis://127.0.0.1:1",
      "--db", "postgresql://x/y"], "with --workers use --worker-ports"),
])
def test_affinity_options(argv: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["serve", *argv]) == 2
    out = capsys.readouterr().out
    assert message in out and out.count("\n") == 1 and "Traceback" not in out


@pytest.mark.slow
@pytest.mark.timeout(180)
def test_hint_followed_plays_on_the_owner_ignored_stays_relayed(
        advertised: Callable[[list[str]], list[NodeProc]]) -> None:
    a, b = advertised(["na", "nb"])
    p0, p1, p2 = Player(a.port, "p0"), Player(b.port, "p1"), Player(b.port, "p2")
    code = create_room(p0.c)
    assert hints(p0.c.frames) == []  # a room is created on (and owned by) the creator's node
    # p1 joins through nb: relayed, and told where the owner is, before the relayed joined
    got = join_collect(p1.c, code)
    assert [m["type"] for m in got if m["type"] in ("owner", "joined")] == ["owner", "joined"]
    (hint,) = hints(got)
    assert hint == {"type": "owner", "room": code, "node": "na", "addr": f"127.0.0.1:{a.port}"}
    assert set(hint) == HINT_KEYS and valid_addr(hint["addr"])
    # ... follows it: reconnects to that address as the same player and joins there
    p1.room, p1.port = code, int(hint["addr"].rpartition(":")[2])
    p1.reconnect()
    p1.c.until("joined", 20)
    assert hints(p1.c.frames) == []  # local now: no hint, no relay
    for p in (p0, p1, p2):
        p.room = code
    st_a, st_b = a.status(), b.status()
    assert st_a["relayed_in"] == 0 and st_b["relayed_out"] == 0, (st_a, st_b)
    # p2 joins through nb too and ignores the hint: it is relayed
    assert len(hints(join_collect(p2.c, code))) == 1
    for i, p in enumerate((p0, p1, p2)):
        seat(p, i)
    p0.c.send({"type": "bot", "seat": 3, "level": "random"})
    p0.c.until(lambda m: m["type"] == "room" and m["room"]["seats"][3]["bot"], 20)
    p0.c.send({"type": "start"})
    for i, p in enumerate((p0, p1, p2)):
        p.seat = i
    routed0 = b.status()["routed_out"]
    play_until_acked([p0, p1, p2], 3)
    st_a, st_b = a.status(), b.status()
    # only p2 goes through the relay: one remote connection on the owner, one relayed socket
    assert st_a["relayed_in"] == 1 and st_b["relayed_out"] == 1, (st_a, st_b)
    assert st_b["routed_out"] > routed0  # p2's moves did go over the bus
    assert st_b["owner_hints"] == 2 and st_a["owner_hints"] == 0
    assert p1.reconnects == 1 and p2.reconnects == 0
    for p in (p0, p1, p2):
        p.close()


@pytest.mark.slow
@pytest.mark.timeout(180)
def test_stale_hint_falls_back(advertised: Callable[[list[str]], list[NodeProc]],
                               redis_url: str) -> None:
    a, b = advertised(["na", "nb"])
    p0, p1 = Player(a.port, "p0"), Player(b.port, "p1")
    code = create_room(p0.c)
    (hint,) = hints(join_collect(p1.c, code))
    for i, p in enumerate((p0, p1)):
        p.room = code
        seat(p, i)
    for s in (2, 3):
        p0.c.send({"type": "bot", "seat": s, "level": "random"})
        p0.c.until(lambda m, s=s: m["type"] == "room" and m["room"]["seats"][s]["bot"], 20)
    p0.c.send({"type": "start"})
    p0.seat, p1.seat = 0, 1
    play_until_acked([p0, p1], 1)
    a.signal(signal.SIGKILL)  # the owner dies: the hint p1 holds is stale
    a.proc.wait(10)  # type: ignore[union-attr]
    p0.c.close()
    with pytest.raises(OSError):
        Client(int(hint["addr"].rpartition(":")[2]), token=p1.token)
    # falls back to the node it came from: the room is taken over there (or relayed) and
    # the player gets a fresh joined + snapshot and plays on
    t0 = time.monotonic()
    p1.reconnect(port=b.port)
    p1.c.until("joined", 20)
    before = len(p1.acked)
    play_until_acked([p1], before + 2)
    r = redis.Redis.from_url(redis_url)
    v = r.get(f"laizi:lease:{code}")
    assert v is not None and v.decode().rpartition("|")[0] == "nb"
    print(f"\nstale hint: playing again {time.monotonic() - t0:.2f} s after the owner died")
    p1.close()


def consecutive_ports(k: int, avoid: int) -> int:
    import socket

    for _ in range(50):
        first = free_port()
        if avoid in range(first, first + k):
            continue
        try:
            for p in range(first, first + k):
                with socket.socket() as s:
                    s.bind(("127.0.0.1", p))
            return first
        except OSError:
            continue
    raise RuntimeError("no free ports")


def proxy_ws(port: int, path: str) -> Any:
    from websockets.sync.client import connect

    return connect(f"ws://127.0.0.1:{port}{path}", max_size=2**22)


@pytest.mark.slow
@pytest.mark.timeout(180)
def test_haproxy_routes_ws_node(make_nodes: Callable[..., list[NodeProc]], redis_url: str,
                                tmp_path: Path) -> None:
    if not Path("/usr/sbin/haproxy").exists():
        pytest.skip("no haproxy")
    nodes = make_nodes(["n1", "n2"], ARGS)
    backends = [(n.name, n.port) for n in nodes]
    h = HAProxy(tmp_path, backends)
    cfg = haproxy_config(h.port, backends)  # deploy/haproxy.cfg; use-server lines of absent nodes out
    h.cfg.write_text("\n".join(line for line in cfg.splitlines()
                               if "use-server n3" not in line) + "\n")
    h.start()
    r = redis.Redis.from_url(redis_url)
    try:
        for want in ("n1", "n2", "n1", "n2"):
            with proxy_ws(h.port, f"/ws?node={want}") as ws:
                ws.send(json.dumps({"type": "hello", "proto": PROTOCOL, "nickname": "x"}))
                ws.send(json.dumps({"type": "create", "settings": {}}))
                while True:
                    m = json.loads(ws.recv(timeout=20))
                    if m["type"] == "joined":
                        break
                code = m["room"]["code"]
                v = r.get(f"laizi:lease:{code}")
                assert v is not None and v.decode().rpartition("|")[0] == want
        nodes[1].signal(signal.SIGKILL)  # a hint naming a dead node: load-balanced instead
        time.sleep(2.0)
        with proxy_ws(h.port, "/ws?node=n2") as ws:
            ws.send(json.dumps({"type": "hello", "proto": PROTOCOL, "nickname": "y"}))
            assert json.loads(ws.recv(timeout=20))["type"] == "welcome"
    finally:
        h.stop()


@pytest.mark.slow
@pytest.mark.timeout(120)
def test_workers_listen_on_their_own_ports(pg_url: str, redis_url: str, tmp_path: Any) -> None:
    port = free_port()
    first = consecutive_ports(2, avoid=port)
    log = tmp_path / "workers.log"
    env = {**os.environ, "PYTHONUNBUFFERED": "1", "LAIZI_RATE_EXEMPT": "127.0.0.1"}
    with open(log, "ab") as fh:
        proc = subprocess.Popen([sys.executable, "-m", "laizi", "serve", "--port", str(port),
                                 "--db", pg_url, "--redis", redis_url, "--workers", "2",
                                 "--worker-ports", str(first), "--node", "box", *ARGS],
                                stdout=fh, stderr=subprocess.STDOUT, env=env)
    try:
        names: dict[int, str] = {}
        end = time.monotonic() + 60
        while time.monotonic() < end and len(names) < 2:
            for i in (0, 1):
                try:
                    st, body = http(f"http://127.0.0.1:{first + i}/cluster")
                except OSError:
                    continue
                if st == 200 and len(body["live_nodes"]) == 2:
                    names[i] = body["node"]
            time.sleep(0.2)
        assert names == {0: "box-w0", 1: "box-w1"}, (names, log.read_text()[-2000:])
        time.sleep(3.0)  # the address caches (read every 1 s; three periods for a busy machine)
        c0 = Client(first, "a")
        code = create_room(c0)  # owned by box-w0
        c1 = Client(first + 1, "b")
        (hint,) = hints(join_collect(c1, code))
        assert hint == {"type": "owner", "room": code, "node": "box-w0",
                        "addr": f"127.0.0.1:{first}"}
        c0.close()
        c1.close()
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(40) == 0
        assert "Traceback" not in log.read_text()
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(10)


def test_addresses_read_from_redis_are_checked(redis_url: str) -> None:
    """Only well-formed addresses of well-named nodes are kept (a hint carries nothing else)."""
    import asyncio

    import redis.asyncio as aioredis

    from laizi.server.cluster.affinity import KEY_ADDRS, Affinity

    async def run() -> tuple[dict[str, str], dict[str, str]]:
        r = aioredis.from_url(redis_url)
        try:
            await r.hset(KEY_ADDRS, mapping={"bad": "javascript:alert(1)", "good": "h.example:80",
                                             "x y": "h:81", "url": "http://h:82/ws"})
            a = Affinity(r, "me", "127.0.0.1:9001")
            await a.refresh()
            seen = dict(a.addrs)
            await a.leave()
            raw = {k.decode(): v.decode() for k, v in (await r.hgetall(KEY_ADDRS)).items()}
            return seen, raw
        finally:
            await r.aclose()

    seen, raw = asyncio.run(run())
    assert seen == {"good": "h.example:80", "me": "127.0.0.1:9001"}
    assert "me" not in raw  # a stopping node takes its address out
