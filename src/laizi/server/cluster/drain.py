"""Graceful drain (``SIGTERM`` on a node): its rooms are handed to the other nodes before
it exits, for rolling upgrades without stopping games.

For each room: take its lock (the command in progress finishes, its writes are durable),
stop its timer, forget its fencing token (nothing more is written from here), release the
lease, ask the room's rendezvous-preferred other node to take it at once (a ``take``
message; any node would find it on its next tick anyway) and tell the nodes relaying
into it that it moved (their seats re-join it there: a resync). The node's own sockets
are closed afterwards by uvicorn; their clients reconnect through the proxy.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import TYPE_CHECKING, Protocol

from laizi.server.cluster.lease import Leases, rendezvous

if TYPE_CHECKING:
    from laizi.server.cluster.bus import Bus
    from laizi.server.tables.hub import Hub
    from laizi.server.tables.room import Room

__all__ = ["DRAIN_LOCK_WAIT", "hand_over"]

log = logging.getLogger("laizi.server")

DRAIN_LOCK_WAIT = 5.0  # seconds to wait for a room's command in progress


class Node(Protocol):
    """What the drain uses of :class:`laizi.server.cluster.node.Node`."""

    hub: Hub
    name: str
    live: list[str]
    leases: Leases
    bus: Bus
    stats: dict[str, int]

    def let_go(self, room: Room) -> None: ...


async def hand_over(node: Node) -> None:
    hub = node.hub
    others = [n for n in node.live if n != node.name]
    for code, room in list(hub.rooms.items()):
        try:
            await asyncio.wait_for(room.lock.acquire(), DRAIN_LOCK_WAIT)
        except TimeoutError:
            node.leases.forget(code)  # stuck (its database away): the lease lapses
            continue
        try:
            room.cancel_timer()
            hub.rooms.pop(code, None)
            if hub.store.fences is not None:
                hub.store.fences.pop(code, None)
            await node.leases.release(code)
            heir = rendezvous(code, others)
            if heir is not None:
                node.bus.send(heir, {"k": "take", "room": code})
            node.let_go(room)
            room.close()
            node.stats["rooms_handed_over"] += 1
        finally:
            room.lock.release()
    with contextlib.suppress(Exception):
        await node.bus.flush()
        await node.leases.leave()
    log.warning("node %s: drained, %d rooms handed over", node.name, node.stats["rooms_handed_over"])
