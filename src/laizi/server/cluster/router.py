"""The relaying side: a WebSocket on this node in a room another node owns.

Its room commands go to the owner (``in``), the owner's frames for it come back (``out``,
addressed to this connection alone) and are queued on the socket as they are. The binding
follows the room: when the owner lets the room go (``moved``), or its lease changes hands
(a node died: :meth:`Router.check`), the connection joins again wherever the room is now and
gets a fresh ``joined`` and snapshot — a resync, no reconnect.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from redis.exceptions import RedisError

from laizi.server.common.connection import Conn
from laizi.server.common.protocol import ProtocolError

if TYPE_CHECKING:
    from laizi.server.cluster.bus import Bus
    from laizi.server.tables.hub import Hub

__all__ = ["Binding", "Router"]

log = logging.getLogger("laizi.server")

REBIND_TRIES = 20  # a room that cannot be found again after this many tries: the seat is told
REBIND_PATIENCE = 120.0  # seconds a connection keeps trying while Redis is away
ANSWER_WAIT = 3.0  # seconds a join on its way when the owner's bus came back may take to be answered


@dataclass
class Binding:
    conn: Conn
    room: str
    owner: str
    spectate: bool
    token: int = 0  # the owner's lease token when bound (a new one: the room changed hands)
    answered: bool = False  # a frame of the owner came for it since it was bound (its join arrived)


class Router:
    def __init__(self, hub: Hub, bus: Bus) -> None:
        self.hub = hub
        self.bus = bus
        self.bound: dict[int, Binding] = {}   # connection id → where its room is
        self.conns: dict[int, Conn] = {}      # every local connection that was ever relayed

    def bind(self, conn: Conn, code: str, owner: str, spectate: bool, token: int = 0) -> None:
        """Relay ``conn`` to room ``code`` on node ``owner`` (and join it there)."""
        self.bound[conn.id] = Binding(conn, code, owner, spectate, token)
        self.conns[conn.id] = conn
        conn.room_code = code
        conn.seat = None

        async def relay(m: Any) -> None:
            b = self.bound.get(conn.id)
            if b is None:
                raise ProtocolError("no_room", "join a room first")
            self.bus.send(b.owner, {"k": "in", "c": conn.id, "room": b.room,
                                    "m": m.model_dump_json(by_alias=True, exclude_unset=True)})

        conn.relay = relay
        env = {"k": "join", "c": conn.id, "room": code, "spec": spectate,
               "p": conn.player_id, "nick": conn.nickname, "peer": conn.peer}
        if conn.legacy:
            env["legacy"] = True
        if conn.tables:  # its welcome gave it these frame tables: the owner's snapshots leave
            env["tables"] = conn.tables  # them out when they are its own (a rolling deploy)
        if conn.room_patch:
            env["room_patch"] = True
        self.bus.send(owner, env)

    def unbind(self, conn: Conn, *, tell: bool = True) -> Binding | None:
        """Stop relaying ``conn`` (it leaves, or its socket closed: the owner is told)."""
        b = self.bound.pop(conn.id, None)
        conn.relay = None
        if b is not None:
            if conn.room_code == b.room:
                conn.room_code = None
            if tell:
                self.bus.send(b.owner, {"k": "gone", "c": conn.id})
        return b

    def forget(self, conn: Conn) -> None:
        self.unbind(conn)
        self.conns.pop(conn.id, None)

    # ------------------------------------------------------------- from the owners
    def on_message(self, env: dict[str, Any]) -> None:
        k = env["k"]
        cid = int(env["c"])
        conn = self.conns.get(cid)
        if conn is None or conn.closed:
            return
        if k == "out":
            b = self.bound.get(cid)
            if b is not None and b.owner == env.get("n"):
                b.answered = True
            conn.send(env["t"])
            return
        b = self.bound.get(cid)
        if b is None or b.owner != env["n"]:
            return  # an old owner's late word
        if k == "unbind" and env.get("room") == b.room:
            self.unbind(conn, tell=False)
        elif k == "close":
            conn.close()
        elif k == "moved":
            self.rebind(b)

    def rebind(self, b: Binding) -> None:
        """The room moved: join it again where it is now (a fresh snapshot follows)."""
        self.bound.pop(b.conn.id, None)
        b.conn.relay = None
        b.conn.room_code = None
        asyncio.ensure_future(self._rejoin(b))

    def resync(self, owner: str | None = None) -> int:
        """Join every relayed connection's room again (of rooms on node ``owner`` only, if
        given): messages to or from the owner may be lost (the bus was cut); how many.

        Once only (issue 27: a burst of snapshots after a Redis restart, one for this
        node's bus coming back, another for the owner's): a connection whose join is still
        unanswered — it joined a moment ago, for the other end's bus coming back, or
        because its room moved while Redis was away — is left alone if the answer comes.
        Whichever bus came back, an answer that arrives now comes on a subscription that
        holds at both ends: the owner said ``back`` the moment it subscribed again, before
        it read anything, and the bus keeps each sender's order, so a join answered after
        the ``back`` came after the cut; and this node's own subscription is confirmed
        before its ``on_back`` runs, so an answer it reads now was not sent into the cut.
        Nothing of the join was lost. No answer within :data:`ANSWER_WAIT`: the join or
        its answer was lost with the cut, and it joins again."""
        bound = [b for b in self.bound.values() if owner is None or b.owner == owner]
        for b in bound:
            if not b.answered:
                asyncio.ensure_future(self._unless_answered(b))
            else:
                self.rebind(b)
        return len(bound)

    async def _unless_answered(self, b: Binding) -> None:
        end = time.monotonic() + ANSWER_WAIT
        while time.monotonic() < end and not b.answered:
            await asyncio.sleep(0.05)
        if not b.answered and self.bound.get(b.conn.id) is b and not b.conn.closed:
            self.rebind(b)

    async def _rejoin(self, b: Binding) -> None:
        conn = b.conn
        tries = 0
        warned = False
        end = time.monotonic() + REBIND_PATIENCE
        while tries < REBIND_TRIES and time.monotonic() < end:
            if conn.closed or conn.room_code is not None:
                return
            try:
                await self.hub.join(conn, b.room, b.spectate)
                return
            except ProtocolError as exc:
                if exc.code not in ("unknown_room", "room_moved"):
                    conn.error(exc.code, exc.message)
                    return
                tries += 1
            except (RedisError, OSError) as exc:  # Redis away: not a try, it comes back
                if not warned:
                    warned = True
                    log.warning("conn %s: rejoining room %s: Redis away (%s); trying again",
                                conn.id, b.room, (str(exc) or type(exc).__name__).splitlines()[0][:200])
            except Exception:  # noqa: BLE001 - the database away: try again
                log.exception("conn %s: rejoining room %s failed", conn.id, b.room)
                tries += 1
            await asyncio.sleep(min(0.25 * (tries + 1), 1.0))
        if conn.closed or conn.room_code is not None:
            return
        with contextlib.suppress(Exception):
            conn.error("room_moved", f"room {b.room} could not be found again; join it again")

    async def check(self, owners: dict[str, tuple[str, int] | None]) -> None:
        """Rebind every connection whose room's lease changed hands (another node, or
        another process of the same name: a new token)."""
        for b in list(self.bound.values()):
            o = owners.get(b.room)
            if not b.token and o is not None and o[0] == b.owner:
                b.token = o[1]  # bound without knowing it: a later change is seen
            if b.room in owners and (o is None or o[0] != b.owner or (b.token and o[1] != b.token)):
                self.rebind(b)

    def rooms(self) -> list[str]:
        return sorted({b.room for b in self.bound.values()})
