"""LocalPresence over a hub's real connection objects: online / room from the connections, as
of now however many are open, pushes reach every open connection of a player and no one
else."""

from __future__ import annotations

import asyncio

from laizi.server.common.config import ServerConfig
from laizi.server.common.connection import Conn
from laizi.server.social.presence import LocalPresence
from laizi.server.tables.hub import Hub


def _conn(pid: str) -> Conn:
    c = Conn(None)
    c.player_id = pid
    return c


def test_presence_snapshot_and_push() -> None:
    async def run() -> None:
        hub = Hub(ServerConfig(db_url=":memory:"))
        pres = LocalPresence(hub)
        a1, a2, b = _conn("p_a"), _conn("p_a"), _conn("p_b")
        hub.conns.update({a1, a2, b})
        w = pres.where(["p_a", "p_b", "p_c"])
        assert w["p_a"]["online"] and w["p_b"]["online"] and not w["p_c"]["online"]
        assert pres.push("p_a", {"type": "x"}) == 2 and a1.queue.qsize() == a2.queue.qsize() == 1
        assert b.queue.qsize() == 0
        b.closed = True  # few connections: every answer is fresh
        assert not pres.where(["p_b"])["p_b"]["online"]
        assert pres.push("p_b", {"type": "x"}) == 0
        hub.conns.update(_conn(f"p_{i}") for i in range(1000))
        assert not pres.where(["p_c"])["p_c"]["online"]
        c = _conn("p_c")
        hub.conns.add(c)
        assert pres.where(["p_c"])["p_c"] == {"online": True, "room": None, "status": None}  # at once
        c.closed = True
        assert not pres.where(["p_c"])["p_c"]["online"]

    asyncio.run(run())
