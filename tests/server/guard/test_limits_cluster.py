"""Issue 16: two real server processes on one PostgreSQL and one Redis hold the limits
together — one address gets 20 rooms a minute from the cluster, not from each node; the
connection caps count the sockets of both."""

from __future__ import annotations

import contextlib
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("redis")

from laizi.server.guard import limits  # noqa: E402
from support.srvhelpers import Client, LiveServer  # noqa: E402

pytestmark = [pytest.mark.slow, pytest.mark.timeout(180)]


@contextlib.contextmanager
def two_nodes(tmp_path: Path, pg_url: str, redis_url: str, **cfg: object) -> Iterator[list[LiveServer]]:
    nodes: list[LiveServer] = []
    try:
        for name in ("a", "b"):  # one after the other: the first migrates the database
            nodes.append(LiveServer(pg_url, tmp_path, rate_limited=True, redis_url=redis_url,
                                    node=name, hello_timeout=30.0, **cfg).start())
        yield nodes
    finally:
        for n in nodes:
            n.stop()


def test_the_21st_room_from_one_address_is_refused_across_two_nodes(
        tmp_path: Path, pg_url: str, redis_url: str) -> None:
    per_player, per_ip = limits.ROOMS_PER_PLAYER.count, limits.ROOMS_PER_IP.count
    with two_nodes(tmp_path, pg_url, redis_url, max_connections=500) as nodes:
        clients = [Client(nodes[i % 2].port, f"m{i}") for i in range(per_ip // per_player + 1)]
        try:
            made = 0
            for c in clients[:-1]:
                for _ in range(per_player):
                    assert c.request({"type": "create", "settings": {}}, "joined")["type"] == "joined"
                    made += 1
            assert made == per_ip  # 10 rooms on each node
            err = clients[-1].request({"type": "create", "settings": {}}, "joined")
            assert err["type"] == "error" and err["code"] == "too_many_rooms", err
            assert "address" in err["message"]
            for n in nodes:  # each node saw its share: the budget is the cluster's
                status, health = n.get("/healthz")
                assert status == 200 and health["rooms"] == per_ip // 2 and health["redis"]
        finally:
            for c in clients:
                c.close()


def _until_admitted(port: int, token: str | None = None, timeout: float = 5.0) -> tuple[Client, dict[str, Any]]:
    """A new socket on ``port`` that says hello (with ``token``), tried again while the
    server refuses it as full (a closed socket is released a moment after it closes)."""
    deadline = time.monotonic() + timeout
    while True:
        c = Client(port, hello=False)
        try:
            w = c.hello("late", token)
        except Exception:  # noqa: BLE001 - closed by the server (full)
            w = {"type": "error", "code": "closed"}
        if w["type"] == "welcome" or w.get("code") not in ("server_full", "closed"):
            return c, w
        c.close()
        assert time.monotonic() < deadline, w
        time.sleep(0.2)


def test_connection_caps_count_both_nodes(tmp_path: Path, pg_url: str, redis_url: str) -> None:
    cfg = {"max_connections": 3, "max_conns_per_player": 2, "hello_timeout": 30.0}
    a = LiveServer(pg_url, tmp_path, rate_limited=True, redis_url=redis_url, node="a",
                   **cfg).start()
    b: LiveServer | None = None
    opened: list[Client] = []
    try:
        # x1 is made before b starts (b learns the players in the database when it starts).
        status, x1 = a.post("/api/guest", {"nickname": "x1"})
        assert status == 200
        b = LiveServer(pg_url, tmp_path, rate_limited=True, redis_url=redis_url, node="b",
                       **cfg).start()
        opened += [Client(a.port, token=x1["token"]), Client(a.port, "x2"), Client(b.port, "x3")]
        assert opened[0].pid == x1["player_id"]
        full = Client(b.port, hello=False)  # the 4th socket of the cluster, on b
        opened.append(full)
        assert full.recv()["code"] == "server_full"
        opened[2].close()  # x3 leaves b: room for one more, on either node
        again, w = _until_admitted(b.port, opened[0].token)
        opened.append(again)
        assert w["type"] == "welcome" and w["player_id"] == opened[0].pid  # x1's 2nd socket
        opened[1].close()  # x2 leaves a: the cluster has room, x1 has not
        third, w = _until_admitted(a.port, opened[0].token)
        opened.append(third)
        assert w["type"] == "error" and w["code"] == "too_many_connections", w
    finally:
        for c in opened:
            c.close()
        for n in (a, b):
            if n is not None:
                n.stop()


def test_a_relayed_join_counts_once(tmp_path: Path, pg_url: str, redis_url: str) -> None:
    """A join made on node b of a room node a owns is counted on b, not again on a: a
    player gets its whole budget of joins (30 a minute), not half of it. (Each join on a
    socket of its own, the same player.)"""
    per_player = limits.JOINS_PER_PLAYER.count
    with two_nodes(tmp_path, pg_url, redis_url, max_connections=500) as (a, b):
        host = Client(a.port, "host")
        try:
            code = host.request({"type": "create", "settings": {}}, "joined")["room"]["code"]
            status, guest = b.post("/api/guest", {"nickname": "guest"})
            assert status == 200
            codes = []
            for _ in range(per_player + 1):
                c = Client(b.port, token=guest["token"])
                try:
                    reply = c.request({"type": "join", "room": code}, "joined")
                    codes.append(reply.get("code", reply["type"]))
                    if reply["type"] == "joined":
                        assert reply["room"]["code"] == code
                finally:
                    c.close()
            assert codes[:per_player] == ["joined"] * per_player, codes
            assert codes[per_player] == "too_many_joins"
        finally:
            host.close()
