"""Issue 16: rate limits and connection caps that hold for a cluster, through Redis (the
``limits`` library's Redis storage; a heartbeat-kept counter for connections), against a
private redis-server; and what a node does when Redis is gone (its own budget)."""

from __future__ import annotations

import asyncio
import os
import time
from dataclasses import dataclass

import pytest

pytest.importorskip("redis")

from redis.asyncio import Redis  # noqa: E402

from laizi.server.common.connset import ConnSet  # noqa: E402
from laizi.server.common.protocol import ProtocolError  # noqa: E402
from laizi.server.guard import limits  # noqa: E402
from laizi.server.guard.conncaps import ConnCaps  # noqa: E402
from laizi.server.guard.limits import Limit, Limits, RateBudget, open_storage  # noqa: E402

pytestmark = pytest.mark.timeout(60)


def node_limits(redis_url: str | None) -> Limits:
    """What one node builds: its own ``limits`` storage object and limiter."""
    return Limits(budget=RateBudget(open_storage(redis_url)))


async def _create_rooms(nodes: list[Limits], ip: str, tries: int) -> list[str | None]:
    """``tries`` room creations from ``ip`` by different players, alternating the nodes:
    the error code of each (None: allowed)."""
    out: list[str | None] = []
    for i in range(tries):
        try:
            await nodes[i % len(nodes)].check("room", ip, f"player{i}")
            out.append(None)
        except ProtocolError as exc:
            out.append(exc.code)
    return out


def test_two_nodes_share_one_budget_through_redis(redis_url: str) -> None:
    n = limits.ROOMS_PER_IP.count

    async def go() -> list[str | None]:
        a, b = node_limits(redis_url), node_limits(redis_url)
        assert a.budget.storage is not b.budget.storage
        return await _create_rooms([a, b], "10.0.0.1", n + 3)

    codes = asyncio.run(go())
    assert codes[:n] == [None] * n
    assert codes[n:] == ["too_many_rooms"] * 3


def test_in_memory_every_process_has_its_own_budget() -> None:
    n = limits.ROOMS_PER_IP.count

    async def go() -> list[str | None]:
        return await _create_rooms([node_limits(None), node_limits(None)], "10.0.0.1", n + 3)

    assert asyncio.run(go()) == [None] * (n + 3)  # 2 × 20 allowed: the reason for Redis


def test_a_refused_attempt_counts_nowhere_across_nodes(redis_url: str) -> None:
    """One player spends its 5 rooms on node A; its 6th, on node B, is refused by the
    per-player budget and does not count against the address: 15 more players still can."""

    async def go() -> tuple[str, list[str | None]]:
        a, b = node_limits(redis_url), node_limits(redis_url)
        for _ in range(limits.ROOMS_PER_PLAYER.count):
            await a.check("room", "10.0.0.2", "alice")
        try:
            await b.check("room", "10.0.0.2", "alice")
            msg = ""
        except ProtocolError as exc:
            msg = exc.message
        rest = limits.ROOMS_PER_IP.count - limits.ROOMS_PER_PLAYER.count
        return msg, await _create_rooms([b, a], "10.0.0.2", rest + 1)

    msg, codes = asyncio.run(go())
    assert "per player" in msg and "wait" in msg
    assert codes[:-1] == [None] * (len(codes) - 1) and codes[-1] == "too_many_rooms"


@pytest.mark.parametrize(("limit", "scope"), [
    (limits.CHAT, "chat"), (limits.GUESTS_PER_IP, "guest:ip"), (limits.JOINS_PER_PLAYER, "join:player"),
])
def test_every_budget_is_shared(redis_url: str, limit: Limit, scope: str) -> None:
    async def go() -> tuple[list[bool], float | None]:
        nodes = [node_limits(redis_url) for _ in range(3)]
        got = [await nodes[i % 3].hit(limit, scope, "k") is None for i in range(limit.count + 1)]
        return got, await nodes[0].hit(limit, scope, "other")

    got, other = asyncio.run(go())
    assert got == [True] * limit.count + [False]
    assert other is None  # another key has its own budget


def test_login_limits_are_the_clusters(redis_url: str) -> None:
    from laizi.server.accounts import accounts

    lim = accounts.LOGINS_PER_USERNAME

    async def go() -> list[str]:
        out = []
        a, b = node_limits(redis_url), node_limits(redis_url)
        for i in range(lim.count + 1):
            try:
                await accounts._hit(a if i % 2 else b, lim, "login:name", "bob", "logins")
                out.append("ok")
            except accounts.AccountError as exc:
                out.append(f"{exc.status}")
        return out

    assert asyncio.run(go()) == ["ok"] * lim.count + ["429"]


def test_the_window_moves(redis_url: str) -> None:
    short = Limit(2, 1.0)

    async def go() -> list[bool]:
        a, b = node_limits(redis_url), node_limits(redis_url)
        out = [await a.hit(short, "t", "k") is None, await b.hit(short, "t", "k") is None,
               await a.hit(short, "t", "k") is None]
        await asyncio.sleep(1.1)
        out.append(await b.hit(short, "t", "k") is None)
        return out

    assert asyncio.run(go()) == [True, True, False, True]


def test_memory_budgets_are_swept_and_stay_exact(monkeypatch: pytest.MonkeyPatch) -> None:
    """The memory storage sweeps expired entries (at most every EXPIRY_EVERY seconds, in
    the event loop): keys whose windows have passed leave memory; live ones are kept whole."""
    monkeypatch.setattr(limits, "EXPIRY_EVERY", 0.0)
    short, long = Limit(2, 1.0), Limit(2, 60.0)

    async def go() -> tuple[list[bool], set[str]]:
        lim = node_limits(None)
        storage = lim.budget.storage
        for i in range(50):
            assert await lim.hit(short, "s", f"gone{i}") is None
        assert await lim.hit(long, "l", "kept") is None
        assert await lim.hit(long, "l", "kept") is None
        await asyncio.sleep(1.1)
        assert await lim.hit(short, "s", "new") is None  # starts a sweep
        await asyncio.sleep(0.05)
        return ([await lim.hit(long, "l", "kept") is None, await lim.hit(short, "s", "new") is None,
                 await lim.hit(short, "s", "new") is None],
                set(storage.events))  # type: ignore[attr-defined]

    got, keys = asyncio.run(go())
    assert got == [False, True, False]  # "kept" still full; "new" had room for one more
    assert not any("gone" in k for k in keys) and any("kept" in k for k in keys)
    # Throttled: within EXPIRY_EVERY of the last sweep, a hit starts none.
    monkeypatch.setattr(limits, "EXPIRY_EVERY", 3600.0)
    _, keys = asyncio.run(go())
    assert any("gone" in k for k in keys)


def test_without_redis_each_node_keeps_its_own_budget() -> None:
    """Redis gone (nothing listens there): the limits still hold, per node, and the
    failures are counted (for /metrics)."""
    from support.srvhelpers import free_port

    port = free_port()
    errors: list[BaseException] = []

    async def go() -> list[bool]:
        lim = Limits(budget=RateBudget(open_storage(f"redis://127.0.0.1:{port}/0"),
                                       on_error=errors.append))
        return [await lim.hit(limits.CHAT, "chat", "p") is None
                for _ in range(limits.CHAT.count + 1)]

    assert asyncio.run(go()) == [True] * limits.CHAT.count + [False]
    assert len(errors) == limits.CHAT.count + 1


# ------------------------------------------------------------------ connection caps
@dataclass(eq=False)
class Sock:  # what the caps read of a connection: its player and whether it closed
    player_id: str | None = None
    closed: bool = False


class Node:
    """One node's connections and caps, on a shared Redis."""

    def __init__(self, redis_url: str, name: str, total: int = 5, per_player: int = 2,
                 ttl: int = 15) -> None:
        self.conns: ConnSet[Sock] = ConnSet()
        self.redis = Redis.from_url(redis_url)
        # A prefix of this test's own: a node left running by another test cannot count here.
        self.caps = ConnCaps(self.conns, total, per_player, redis=self.redis, node=name, ttl=ttl,
                             prefix=f"test:{os.environ.get('PYTEST_CURRENT_TEST', '')}:")

    async def connect(self, player: str | None = None) -> Sock | None:
        if not await self.caps.admit():
            return None
        sock = Sock()
        self.conns.add(sock)
        if player is not None:
            if not await self.caps.identify(player):
                await self.close(sock)
                return None
            self.conns.identify(sock, player)
        return sock

    async def close(self, sock: Sock) -> None:
        self.conns.discard(sock)
        sock.closed = True
        await self.caps.release(sock.player_id)


def test_connection_caps_hold_across_nodes(redis_url: str) -> None:
    async def go() -> None:
        a, b = Node(redis_url, "a"), Node(redis_url, "b")
        got = [await (a if i % 2 else b).connect() for i in range(5)]
        assert all(got)
        assert await a.connect() is None and await b.connect() is None  # 5 in the cluster
        await b.close(got[0])  # one closes on b: one more may come, on a
        assert await a.connect() is not None
        assert await b.connect() is None
        assert await a.caps.cluster_counts() == {"a": 3, "b": 2}

    asyncio.run(go())


def test_per_player_cap_across_nodes(redis_url: str) -> None:
    async def go() -> None:
        a, b = Node(redis_url, "a", total=100), Node(redis_url, "b", total=100)
        first = await a.connect("carol")
        assert first is not None and await b.connect("carol") is not None
        assert await b.connect("carol") is None  # 2 per player, wherever they are
        assert await a.connect("dave") is not None  # others are not touched
        await a.close(first)
        assert await b.connect("carol") is not None

    asyncio.run(go())


def test_a_dead_nodes_connections_stop_counting(redis_url: str) -> None:
    """Node b fills the cluster and dies (no more heartbeats, no release): once its hash
    expires, a's new connections are admitted again; a live node's beat keeps it counted."""

    async def go() -> None:
        # a's counts live 2 s, b's 1 s: a beat every 0.9 s keeps a counted with 1.1 s to spare
        # (with 1 s and a beat every 0.6 s, a busy machine late by 0.4 s lost a's count)
        a, b = Node(redis_url, "a", total=3, ttl=2), Node(redis_url, "b", total=3, ttl=1)
        for _ in range(3):
            assert await b.connect("erin" if _ == 0 else None) is not None
        assert await a.connect() is None
        t0 = time.monotonic()
        while await a.connect() is None:  # b is silent: its count expires (in 1 s; a wide bound)
            assert time.monotonic() - t0 < 15
            await asyncio.sleep(0.2)
        assert await a.caps.cluster_counts() == {"a": 1}
        # A live node: its beat rewrites its count (and its expiry) from its real sockets, for
        # longer than its 2 s.
        for _ in range(3):
            await asyncio.sleep(0.9)
            await a.caps.beat()
        assert await a.caps.cluster_counts() == {"a": 1}
        a.conns.add(Sock("frank"))  # counted locally only (drift): the beat heals it
        await a.caps.beat()
        assert await a.caps.cluster_counts() == {"a": 2}

    asyncio.run(go())


def test_a_node_that_stops_cleanly_stops_counting_at_once(redis_url: str) -> None:
    async def go() -> None:
        a, b = Node(redis_url, "a", total=2), Node(redis_url, "b", total=2)
        assert await b.connect() and await b.connect()
        assert await a.connect() is None
        await b.caps.stop()
        assert await a.connect() is not None

    asyncio.run(go())
