"""The parts of a node's recovery from a Redis restarted empty, each on its own (the whole
scenario with two ``laizi serve`` nodes and players is test_cluster_redis_restart.py):

- the bus subscribes again once Redis answers and says so (``on_back``): what was published
  to the node meanwhile is lost, so the node resyncs the connections it relays;
- a takeover never reuses the token another owner wrote with: Redis counts a room's tokens
  from 1 again, so the first one it hands out may equal the database's fence, and the room
  is only taken with a token above it (else the earlier owner could go on writing, and the
  nodes relaying into the room could not see it changed hands).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from collections.abc import AsyncIterator
from typing import Any

import pytest

pytest.importorskip("redis")

from laizi.server.cluster.bus import Bus, channel, sign
from laizi.server.cluster.node import Node
from laizi.server.cluster.router import ANSWER_WAIT
from laizi.server.common.config import ServerConfig
from laizi.server.common.connection import Conn
from laizi.server.common.protocol import RoomSettings
from laizi.server.guard.redisconn import async_client
from laizi.server.persistence.fencing import Fenced, RoomFence
from laizi.server.tables.hub import Hub
from laizi.server.tables.room import Room
from support.nodes import until_true

# (the waits below: a condition within its time, tests/support/nodes.py)
_until = until_true


@contextlib.asynccontextmanager
async def _two_nodes(pg_url: str, redis_url: str) -> AsyncIterator[tuple[Hub, Hub, Node, Node, Any]]:
    """Nodes ``a`` and ``b`` in this process (a hub each, on one database) and a Redis
    client: ``(hub_a, hub_b, node_a, node_b, redis)``; all stopped at the end."""
    import redis.asyncio as aioredis

    hubs: list[Hub] = []
    r = aioredis.from_url(redis_url)
    try:
        for name in ("a", "b"):
            hub = Hub(ServerConfig(db_url=pg_url))
            hub.directory = Node(hub, redis_url, name)
            hubs.append(hub)
            await hub.start()
        na, nb = hubs[0].directory, hubs[1].directory
        assert isinstance(na, Node) and isinstance(nb, Node)
        yield hubs[0], hubs[1], na, nb, r
    finally:
        await r.aclose()
        for hub in hubs:
            await hub.stop()


def test_the_bus_subscribes_again_after_a_redis_restart(redis_server: Any, redis_url: str) -> None:
    async def run() -> None:
        r = async_client(redis_url)  # the node's own client (one retry on a stale connection)
        got: list[dict[str, Any]] = []
        backs: list[float] = []
        a, b = Bus(r, "a", lambda m: None), Bus(r, "b", got.append)
        b.on_back = lambda: backs.append(time.monotonic())
        await a.start()
        await b.start()
        try:
            a.send("b", {"k": "gone", "c": 1})
            assert await _until(lambda: len(got) == 1, 15)
            assert backs == []  # the first subscription is no "back"
            redis_server.stop()
            await asyncio.sleep(0.5)  # both buses find Redis away
            a.send("b", {"k": "gone", "c": 2})  # lost, or delayed by the client's retries
            redis_server.start()
            t0 = time.monotonic()
            assert await _until(lambda: backs, 15), "the bus did not subscribe again"
            took = backs[0] - t0
            a.send("b", {"k": "gone", "c": 3})  # once back, nothing sent to b is lost
            assert await _until(lambda: got[-1]["c"] == 3, 15), got
            assert [m["c"] for m in got] in ([1, 3], [1, 2, 3])
            assert len(backs) == 1
            # (it tries every 0.1 s: 4 s, not 2, leave a busy machine room and still tell a
            # retry that backs off for seconds)
            assert took < 4.0, f"subscribed again only {took:.2f} s after Redis came back"
        finally:
            await a.stop()
            await b.stop()
            await r.aclose()

    asyncio.run(run())


@pytest.mark.parametrize("retry", [False, True])
def test_the_bus_notices_its_connection_dropped(redis_url: str, retry: bool) -> None:
    """Redis (or something between) closes the subscriber's connection and stays up: with
    a client that retries (as a node's does) the library connects and subscribes again by
    itself, without an error; what was published meanwhile is lost all the same."""
    import redis.asyncio as aioredis
    from redis.asyncio.retry import Retry
    from redis.backoff import NoBackoff

    async def run() -> None:
        kw: dict[str, Any] = {"retry": Retry(NoBackoff(), 1)} if retry else {}
        r = aioredis.from_url(redis_url, **kw)
        got: list[dict[str, Any]] = []
        backs: list[float] = []
        b = Bus(r, "b", got.append)
        b.on_back = lambda: backs.append(time.monotonic())
        await b.start()
        try:
            await asyncio.sleep(0.2)
            assert backs == []
            await r.execute_command("CLIENT", "KILL", "TYPE", "pubsub")
            assert await _until(lambda: backs, 15), "the bus did not see its subscription cut"
            await r.publish("laizi:node:b", sign(b.key, channel("b"), "a", "boot-a", 1,
                                                 "gone\x1fa\x1f4\x1f\x1f"))  # signed (bus.py)
            assert await _until(lambda: got, 15)
            assert got[0]["c"] == 4 and len(backs) == 1
        finally:
            await b.stop()
            await r.aclose()

    asyncio.run(run())


def _joined(conn: Conn) -> int:
    """How many ``joined`` frames are queued on ``conn`` (taken off its queue)."""
    n = 0
    while not conn.queue.empty():
        text = conn.queue.get_nowait()
        if text is not None and json.loads(text).get("type") == "joined":
            n += 1
    return n


async def _joins(conn: Conn, timeout: float) -> int:
    """The ``joined`` frames queued on ``conn`` within ``timeout`` (once one came, what
    follows it within 0.3 s)."""
    n = 0
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        n += _joined(conn)
        if n:
            end = min(end, time.monotonic() + 0.3)
        await asyncio.sleep(0.05)
    return n


def test_an_owner_whose_bus_was_cut_has_its_relayed_seats_resynced(pg_url: str,
                                                                    redis_url: str) -> None:
    """Only the owner's subscription is cut (the relaying node's holds): what was sent to
    the owner meanwhile is lost, so once it is back the relaying node is told (``back``)
    and its connection joins the room again (a fresh ``joined``)."""
    async def run() -> None:
        async with _two_nodes(pg_url, redis_url) as (hub_a, hub_b, na, nb, r):
            assert await _until(lambda: "b" in na._peers, 15)  # a has seen b beat
            code = "RELAY"
            assert await na.claim(code)
            hub_a.rooms[code] = Room(code, RoomSettings.model_validate({}), None, **hub_a.room_kw())
            await hub_a.rooms[code].save_room()
            conn = Conn(None)
            conn.player_id = "p_relayed"
            await hub_b.join(conn, code, True)  # relayed to a
            assert await _joins(conn, 15) == 1 and nb.router.bound
            # Cut a's subscription only: Redis closes that one connection.
            sock = na.bus._pubsub.connection._writer.get_extra_info("sockname")
            await r.execute_command("CLIENT", "KILL", "ADDR", f"{sock[0]}:{sock[1]}")
            assert await _joins(conn, 15) == 1, "the relayed connection was not resynced"

    asyncio.run(run())


def test_both_buses_back_resync_a_relayed_seat_once(pg_url: str, redis_url: str) -> None:
    """Redis comes back for both nodes: the relaying node's bus first (it rejoins its
    relayed connection at once), the owner's a moment later — its ``back`` reaches the
    relaying node while that rejoin is still on its way. The owner said ``back`` before it
    read the join, so the join's answer follows and nothing was lost: one resync, not two
    (issue 27: a burst of snapshots)."""
    async def run() -> None:
        async with _two_nodes(pg_url, redis_url) as (hub_a, hub_b, na, nb, r):
            assert await _until(lambda: "b" in na._peers and "a" in nb._peers, 15)
            code = "TWICE"
            assert await na.claim(code)
            hub_a.rooms[code] = Room(code, RoomSettings.model_validate({}), None, **hub_a.room_kw())
            await hub_a.rooms[code].save_room()
            conn = Conn(None)
            conn.player_id = "p_relayed"
            await hub_b.join(conn, code, True)  # relayed to a
            assert await _joins(conn, 15) == 1 and nb.router.bound
            nb._bus_back()  # b's bus is back: it rejoins (the join is on its way to a)
            end = time.monotonic() + 5
            while time.monotonic() < end and conn.id not in nb.router.bound:
                await asyncio.sleep(0)  # (one turn of the loop at a time: not answered yet)
            assert conn.id in nb.router.bound and not nb.router.bound[conn.id].answered
            na._bus_back()  # a's bus is back: it tells b ("back") before it reads the join
            assert await _joins(conn, 15) == 1
            await asyncio.sleep(ANSWER_WAIT + 0.5)  # (nothing more comes)
            assert _joined(conn) == 0, "the relayed connection was resynced twice"

    asyncio.run(run())


def test_a_seat_that_joined_as_its_own_bus_came_back_is_resynced_once(pg_url: str,
                                                                        redis_url: str) -> None:
    """A seat's room moved while Redis was away (its node lost the lease, another took the
    room): the seat joins it there, relayed, and a moment later its own node's bus comes
    back. The join's answer comes on the subscription just confirmed, so nothing of it was
    lost: one resync, not two (the CI failure of stop 79: ``{'na': 2, 'nb': 1}``)."""
    async def run() -> None:
        async with _two_nodes(pg_url, redis_url) as (hub_a, hub_b, na, nb, r):
            assert await _until(lambda: "b" in na._peers and "a" in nb._peers, 15)
            code = "MOVED"
            assert await na.claim(code)
            hub_a.rooms[code] = Room(code, RoomSettings.model_validate({}), None, **hub_a.room_kw())
            await hub_a.rooms[code].save_room()
            conn = Conn(None)
            conn.player_id = "p_moved"
            await hub_b.join(conn, code, True)  # relayed to a: the join is on its way
            assert conn.id in nb.router.bound and not nb.router.bound[conn.id].answered
            nb._bus_back()  # b's bus is back before the answer came
            assert await _joins(conn, 15) == 1
            await asyncio.sleep(ANSWER_WAIT + 0.5)  # (nothing more comes)
            assert _joined(conn) == 0, "the relayed connection was resynced twice"
            assert conn.id in nb.router.bound and nb.router.bound[conn.id].answered

    asyncio.run(run())


def test_a_lost_join_is_made_again_when_the_bus_comes_back(pg_url: str, redis_url: str) -> None:
    """The other side: a seat's join went out while Redis was away (lost, like everything
    published then). When its node's bus comes back and no answer comes within
    :data:`ANSWER_WAIT`, it joins again, and gets its table."""
    async def run() -> None:
        async with _two_nodes(pg_url, redis_url) as (hub_a, hub_b, na, nb, r):
            assert await _until(lambda: "b" in na._peers and "a" in nb._peers, 15)
            code = "LOSTJ"
            assert await na.claim(code)
            hub_a.rooms[code] = Room(code, RoomSettings.model_validate({}), None, **hub_a.room_kw())
            await hub_a.rooms[code].save_room()
            conn = Conn(None)
            conn.player_id = "p_lost"
            await hub_b.join(conn, code, True)
            nb.bus._out.clear()  # the join never left b (Redis away: lost)
            assert conn.id in nb.router.bound and not nb.router.bound[conn.id].answered
            nb._bus_back()
            t0 = time.monotonic()
            assert await _joins(conn, ANSWER_WAIT + 15) == 1, "the lost join was not made again"
            assert time.monotonic() - t0 >= ANSWER_WAIT - 0.1

    asyncio.run(run())


def test_a_takeover_gets_a_token_above_the_old_owners(pg_url: str, redis_url: str) -> None:
    import redis.asyncio as aioredis
    from sqlalchemy.orm import Session

    async def run() -> None:
        hubs: list[Hub] = []
        for name in ("b", "a"):
            hub = Hub(ServerConfig(db_url=pg_url))
            hub.directory = Node(hub, redis_url, name, ttl=60)  # no tick interferes (10 s)
            await hub.start()
            hubs.append(hub)
        hub_b, hub_a = hubs
        nb, na = hub_b.directory, hub_a.directory
        assert isinstance(nb, Node) and isinstance(na, Node)
        r = aioredis.from_url(redis_url)
        try:
            code = "TOKEN"
            assert await nb.claim(code)  # b owns the room with token 1
            room_b = Room(code, RoomSettings.model_validate({}), None, **hub_b.room_kw())
            hub_b.rooms[code] = room_b
            await room_b.save_room()
            assert hub_b.store.fences == {code: 1}
            await r.flushall()  # Redis restarted empty: the lease and the counter are gone
            room_a = await na.take(code)  # b has not found out yet
            assert room_a is not None and code in hub_a.rooms
            token = hub_a.store.fences[code]  # type: ignore[index]
            assert token == 2, "the takeover wrote with the old owner's token"
            assert await na.leases.owner(code) == ("a", 2)
            with Session(hub_a.store.engine) as s:
                row = s.get(RoomFence, code)
                assert row is not None and (row.token, row.node) == (2, "a")
            # The old owner's next write is refused, and it gives the room up.
            with pytest.raises(Fenced):
                await room_b.save_room()
            assert code not in hub_b.rooms
            await room_a.save_room()  # the new owner writes
        finally:
            await r.aclose()
            for hub in hubs:
                await hub.stop()

    asyncio.run(run())
