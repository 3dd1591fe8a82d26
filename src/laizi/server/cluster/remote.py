"""The owner's side of a relayed connection: a socket on another node, in a room this node
owns, is a :class:`RemoteConn` here — a :class:`~laizi.server.common.connection.Conn` whose frames
are published to that node (addressed to that one connection) instead of a WebSocket.

Its commands arrive over the bus (``join``, ``in``, ``gone``) and run one at a time, in
order, through the same handlers as a local socket's (``dispatch``, given by the wiring:
:func:`laizi.server.net.handlers.dispatch`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable, Mapping
from typing import TYPE_CHECKING, Any

from laizi.server.common.connection import Conn
from laizi.server.common.protocol import (
    ProtocolError,
    internal_error,
    new_request_id,
    parse_client_message,
)
from laizi.server.tables.engine import dumps

if TYPE_CHECKING:
    from laizi.server.cluster.bus import Bus
    from laizi.server.tables.hub import Hub

__all__ = ["RemoteConn", "RemoteConns"]

log = logging.getLogger("laizi.server")


class RemoteConn(Conn):
    """Connection ``cid`` of node ``node``, as the room's owner sees it."""

    remote = True

    def __init__(self, bus: Bus, node: str, cid: int, env: dict[str, Any], msg_rate: float) -> None:
        self._room_code: str | None = None
        self.quiet = False  # the room is being handed over: no "unbind" (a "moved" follows)
        self.bus = bus
        self.node = node
        self.cid = cid
        super().__init__(None, peer=str(env.get("peer", "")), msg_rate=msg_rate)
        self.player_id = env.get("p")
        self.nickname = str(env.get("nick", ""))
        self.legacy = bool(env.get("legacy"))
        self.tables = str(env.get("tables") or "")
        self.room_patch = bool(env.get("room_patch"))
        self.inbox: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self.worker: asyncio.Task[None] | None = None
        self.on_unbound: Callable[[RemoteConn], None] | None = None  # forget it (RemoteConns)

    @property
    def room_code(self) -> str | None:
        return self._room_code

    @room_code.setter
    def room_code(self, code: str | None) -> None:
        old = self._room_code
        self._room_code = code
        if old is not None and code is None:
            if not self.quiet and not self.closed:
                self.bus.send(self.node, {"k": "unbind", "c": self.cid, "room": old})
            if self.on_unbound is not None:
                self.on_unbound(self)  # out of its room: a later join makes a new one

    def send(self, msg: Mapping[str, Any] | str) -> None:
        if self.closed:
            return
        text = msg if isinstance(msg, str) else dumps(msg)
        self.bus.send(self.node, {"k": "out", "c": self.cid, "t": text})

    def close(self) -> None:
        if not self.closed:
            self.bus.send(self.node, {"k": "close", "c": self.cid})
            self.closed = True

    def drop(self) -> None:
        self.close()


class RemoteConns:
    """Every relayed connection in this node's rooms, by (node, connection id)."""

    def __init__(self, hub: Hub, bus: Bus,
                 dispatch: Callable[[Hub, Conn, Any], Awaitable[None]] | None = None) -> None:
        self.hub = hub
        self.bus = bus
        self.dispatch = dispatch  # runs a relayed command as a local socket's
        self.conns: dict[tuple[str, int], RemoteConn] = {}
        # the workers of connections told to go, still leaving their room: a join of the same
        # connection (a spectator joining its room again: "gone" then "join", one bus tick)
        # makes a new RemoteConn whose worker starts once the old one has left
        self.leaving: dict[tuple[str, int], asyncio.Task[None]] = {}

    def on_message(self, env: dict[str, Any]) -> None:
        """A ``join`` / ``in`` / ``gone`` from a relaying node: queued for its connection."""
        key = (str(env["n"]), int(env["c"]))
        rc = self.conns.get(key)
        if rc is None:
            if env["k"] != "join":
                if env["k"] == "in":  # we do not know it (any more): let it find the owner
                    self.bus.send(key[0], {"k": "moved", "c": key[1], "room": env.get("room")})
                return
            rc = RemoteConn(self.bus, key[0], key[1], env, self.hub.cfg.msg_rate)
            rc.on_unbound = self._unbound
            self.conns[key] = rc
            rc.worker = asyncio.ensure_future(self._work(rc, self.leaving.pop(key, None)))
        elif env["k"] == "gone":
            self._retire(rc)  # what comes after for this key is a new connection's
        rc.inbox.put_nowait(env)

    def _retire(self, rc: RemoteConn) -> None:
        key = (rc.node, rc.cid)
        if self.conns.get(key) is rc:
            del self.conns[key]
            if rc.worker is not None and not rc.worker.done():
                self.leaving[key] = rc.worker

    def _unbound(self, rc: RemoteConn) -> None:
        if self.conns.get((rc.node, rc.cid)) is rc:
            self._retire(rc)
            rc.inbox.put_nowait({"k": "stop"})

    async def _work(self, rc: RemoteConn, after: asyncio.Task[None] | None = None) -> None:
        if after is not None:  # the same connection's earlier self leaves first (in order)
            with contextlib.suppress(Exception):
                await asyncio.shield(after)
        try:
            await self._serve(rc)
        finally:
            key = (rc.node, rc.cid)
            if self.leaving.get(key) is asyncio.current_task():
                del self.leaving[key]

    async def _serve(self, rc: RemoteConn) -> None:
        while True:
            env = await rc.inbox.get()
            if env["k"] == "stop":
                return
            try:
                if env["k"] == "gone":
                    await self._gone(rc)
                    return
                await self._run(rc, env)
            except ProtocolError as exc:
                rc.error(exc.code, exc.message)
            except Exception:  # noqa: BLE001 - one bad command must not stop the connection
                rid = new_request_id()
                log.exception("relayed conn %s/%s: command failed (request %s)", rc.node, rc.cid, rid)
                rc.send(internal_error(rid))

    async def _run(self, rc: RemoteConn, env: dict[str, Any]) -> None:
        code = str(env.get("room") or "")
        room = self.hub.rooms.get(code)
        if room is None or (env["k"] == "in" and rc not in room.conns):
            self.bus.send(rc.node, {"k": "moved", "c": rc.cid, "room": code})
            return
        if env["k"] == "join":
            try:
                await self.hub.join(rc, code, bool(env.get("spec")))
            except ProtocolError as exc:
                if exc.code != "room_moved":
                    raise
                # the room left this node while the join waited (a drain, a lost lease):
                # its node looks for it again, as for a room it does not find here
                self.bus.send(rc.node, {"k": "moved", "c": rc.cid, "room": code})
        else:
            if self.dispatch is None:
                raise RuntimeError("this node was built without a command dispatch")
            await self.dispatch(self.hub, rc, parse_client_message(env["m"]))

    async def _gone(self, rc: RemoteConn) -> None:
        self._retire(rc)
        rc.quiet = True
        await self.hub.disconnected(rc)
        rc.closed = True

    def gone(self, rc: RemoteConn) -> None:
        """Forget ``rc`` (its node is gone) as if its socket had closed."""
        if self.conns.get((rc.node, rc.cid)) is rc:
            self._retire(rc)
            rc.inbox.put_nowait({"k": "gone"})

    def drop_node(self, live: set[str]) -> None:
        for rc in [rc for rc in self.conns.values() if rc.node not in live]:
            self.gone(rc)
