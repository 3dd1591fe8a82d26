"""Writing a frame straight to the socket, past the ASGI send path.

A table action sends a frame to each seat and spectator (and an ``ack``). Through ASGI each
frame is a queue put, a task wake-up, a queue get, Starlette's and the middleware's send
wrappers and uvicorn's ``send`` coroutine, before the two calls that do the work: the
WebSocket library frames the text and the transport writes it. :class:`DirectWriter` makes
those two calls from :meth:`laizi.server.common.connection.Conn.send`: it frames the text at
once and writes everything it framed for the connection in one turn of the event loop
together, at the end of that turn (an action's update and its ack: one system call), when
the socket can take it now; otherwise (nothing direct here, the transport paused by a peer that
does not read, a close under way) the frame takes the queue as before, and so does every
frame after it until the queue is empty again, so order is kept. The slow-client limits
(the queue's frames and bytes, the kernel's ``SO_SNDBUF``) apply unchanged: uvicorn pauses
the transport past its high-water mark and the frames queue up behind it.

Only uvicorn's ``websockets-sansio`` protocol (``laizi serve``'s default) is written to
directly; it is found behind the ``send`` callable uvicorn gives the app, as
:func:`owner_of`. With another protocol
(``--ws wsproto``, ``--ws websockets``) or another ASGI server, every frame takes the queue.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from typing import Any

__all__ = ["DirectWriter", "direct_writer", "owner_of"]

try:  # the protocol whose internals this writes through (uvicorn >= 0.35)
    from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
except ImportError:  # pragma: no cover - an older uvicorn: every frame takes the queue
    WebSocketsSansIOProtocol = None  # type: ignore[assignment,misc]


class DirectWriter:
    """Writes text frames to one uvicorn ``websockets-sansio`` connection: framed at once,
    written to the socket together at the end of the event loop's current turn.

    The frames one turn sends a connection take one write (one system call): an action's
    ``update`` and its ``ack`` to the player who made it. Nothing waits on a timer: the
    write runs as soon as the code that sent the frames yields to the loop. Order is kept:
    a frame uvicorn sends itself meanwhile (the queued path, a pong) writes what this framed
    before it, in order, and the write due here then finds nothing left."""

    __slots__ = ("_armed", "_proto", "_stats")

    def __init__(self, proto: Any, stats: dict[str, float] | None = None) -> None:
        self._proto = proto
        self._armed = False
        # counts ``frames_direct`` and ``writes_direct`` (the server's figures), when given
        self._stats: dict[str, float] = stats if stats is not None else {"frames_direct": 0, "writes_direct": 0}

    def __call__(self, text: str) -> bool:
        """Frame ``text`` for the write due at the end of this turn; False (nothing framed)
        when the socket cannot take it at once, and the caller queues it instead."""
        p = self._proto
        if (p.close_sent or p.disconnected or not p.handshake_complete
                or p.initial_response is not None or not p.writable.is_set()
                or p.transport.is_closing()):
            return False
        try:
            p.conn.send_text(text.encode())
        except Exception:  # noqa: BLE001 - the connection's state says no (closing)
            return False
        self._stats["frames_direct"] += 1
        if not self._armed:
            self._armed = True
            p.loop.call_soon(self._write)
        return True

    def _write(self) -> None:
        """Write what was framed since the last write (nothing when uvicorn wrote it)."""
        self._armed = False
        p = self._proto
        data = p.conn.data_to_send()
        if data and not p.transport.is_closing():
            p.transport.write(b"".join(data))
            self._stats["writes_direct"] += 1


def direct_writer(send: Any, stats: dict[str, float] | None = None) -> DirectWriter | None:
    """A :class:`DirectWriter` for the connection behind an ASGI ``send`` (Starlette's
    ``WebSocket._send``), or None when it is not uvicorn's ``websockets-sansio``. ``stats``:
    where it counts the frames it framed (``frames_direct``) and the writes they took
    (``writes_direct``)."""
    if WebSocketsSansIOProtocol is None:  # pragma: no cover
        return None
    proto = owner_of(send, lambda o: type(o) is WebSocketsSansIOProtocol)
    if proto is None:
        return None
    needed = ("conn", "transport", "writable", "close_sent", "disconnected",
              "handshake_complete", "initial_response", "loop")
    if not all(hasattr(proto, a) for a in needed):  # pragma: no cover - uvicorn changed
        return None
    return DirectWriter(proto, stats)


def owner_of(send: Any, accept: Callable[[Any], bool], depth: int = 0) -> Any:
    """The object behind an ASGI ``send`` that ``accept`` takes: the owner of the bound
    ``send`` method (uvicorn's protocol), possibly inside Starlette's wrappers (closures), a
    few levels deep; None if there is none."""
    owner = getattr(send, "__self__", None)
    if owner is not None and accept(owner):
        return owner
    if depth < 4:
        for cell in getattr(send, "__closure__", None) or ():
            with contextlib.suppress(ValueError):  # an empty cell
                inner = cell.cell_contents
                if callable(inner):
                    found = owner_of(inner, accept, depth + 1)
                    if found is not None:
                        return found
    return None
