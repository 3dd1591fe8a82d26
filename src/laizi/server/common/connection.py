"""One WebSocket connection: a sink for frames with its own outgoing queue (a slow client
delays nobody), plus what the server knows about who is on it and where."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable, Mapping
from typing import Any

from starlette.websockets import WebSocket

from laizi.server.common.protocol import dumps, error_msg

__all__ = ["Conn"]

log = logging.getLogger("laizi.server")


class Conn:
    """One WebSocket connection. It knows no room or hub: the hub records which room it is
    in (``room_code``), rooms read its seat and stream position and give it frames."""

    _ids = 0
    remote = False  # a connection held by another node, in a room this node owns (cluster)

    def __init__(self, ws: WebSocket | None, *, queue_max: int = 1000,
                 queue_bytes: int = 1 << 20, msg_rate: float = 40.0, peer: str = "") -> None:
        Conn._ids += 1
        self.id = Conn._ids
        self.ws = ws
        self.peer = peer                  # client address (for per-IP limits)
        self.player_id: str | None = None
        self.credential: tuple[str, int, str | None] | None = None  # GuestAuth.credential
        self.nickname = ""
        self.room_code: str | None = None
        self.seat: int | None = None      # seat in the room's match (None: spectator / lobby)
        self.sent_v = 0                   # last stream version sent
        self.sent_seq: int | None = None  # last ``last_seq`` sent (an update repeats it only when it changed)
        self.view_base: tuple[object, int | None, int, int] | None = None  # the view it holds:
        # (its game's key, the seat, the game's version, sent_v then) — the base of the next patch
        self.hints = False
        # said hello without a protocol (a page before protocol 2, or a script that only
        # sets a table up): told to reload at the first table frame it would get
        self.legacy = False
        # the id of the key table and event shapes its welcome gave it (hello ``tables``; ""
        # none): a snapshot leaves them out when they are this node's (frames.TABLES_ID)
        self.tables = ""
        # it takes a ``room`` message as a patch of the last room it got (hello ``room_patch``):
        # that room, as (its code, its info as JSON values) — laizi.server.tables.roomwire
        self.room_patch = False
        self.room_base: tuple[str, dict[str, Any]] | None = None
        self.queue: asyncio.Queue[str | None] = asyncio.Queue()
        # Writes a frame to the socket at once when it can (laizi.server.net.wsdirect);
        # only while no frame waits in the queue or in the sender's hands, to keep order.
        self.direct: Callable[[str], bool] | None = None
        self.pending = 0                  # frames queued or being sent by :meth:`sender`
        self.closed = False
        self.queue_max = queue_max
        self.queue_bytes = queue_bytes
        self.queued_bytes = 0
        self.dropped = False
        self.on_drop: Callable[[], None] | None = None  # cut the socket (set by its owner)
        self.msg_rate = msg_rate
        # In a room another node owns (laizi.server.cluster.router): its room commands go there.
        self.relay: Callable[[Any], Awaitable[None]] | None = None
        self._tokens = msg_rate * 2
        self._last = time.monotonic()

    def send(self, msg: Mapping[str, Any] | str) -> None:
        """Queue a frame: a message, or its JSON text."""
        if self.closed:
            return
        text = msg if isinstance(msg, str) else dumps(msg)
        if not self.pending and self.direct is not None and self.direct(text):
            return
        if self.queue.qsize() >= self.queue_max or self.queued_bytes + len(text) > self.queue_bytes:
            log.warning("conn %s: send queue full (%d frames, %d bytes); dropped",
                        self.id, self.queue.qsize(), self.queued_bytes)
            self.drop()
            return
        self.queued_bytes += len(text)
        self.pending += 1
        self.queue.put_nowait(text)

    def drop(self) -> None:
        """Give up on a client that does not read: forget its queue and cut the socket at
        once (no close handshake: it would wait behind the unread frames)."""
        if self.dropped:
            return
        self.dropped = True
        self.closed = True
        while not self.queue.empty():
            self.queue.get_nowait()
        self.queued_bytes = 0
        self.pending = 0
        self.queue.put_nowait(None)
        if self.on_drop is not None:
            self.on_drop()

    def error(self, code: str, message: str, ref: Any = None, option: str | None = None) -> None:
        self.send(error_msg(code, message, ref=ref, option=option))

    def close(self) -> None:
        if not self.closed:
            self.closed = True
            self.queue.put_nowait(None)

    def throttle(self) -> bool:
        """Token bucket: False when the client sends faster than ``msg_rate``."""
        now = time.monotonic()
        rate = self.msg_rate
        self._tokens = min(rate * 2, self._tokens + (now - self._last) * rate)
        self._last = now
        if self._tokens < 1:
            return False
        self._tokens -= 1
        return True

    async def sender(self) -> None:
        assert self.ws is not None
        close = True
        try:
            while True:
                item = await self.queue.get()
                if item is None:
                    break
                self.queued_bytes -= len(item)
                await self.ws.send_text(item)
                self.pending -= 1
        except Exception:  # noqa: BLE001 - the socket went away
            self.closed = True
        except GeneratorExit:  # closed by the collector (its loop gone): it may not await
            self.closed, close = True, False
            raise
        finally:
            if close and not self.dropped:
                with contextlib.suppress(Exception):
                    await self.ws.close()
