"""Writing a frame straight to the socket, past the ASGI send path.

A table action sends a frame to each seat and spectator (and an ``ack``). Through ASGI each
frame is a queue put, a task wake-up, a queue get, Starlette's and the middleware's send
wrappers and uvicorn's ``send`` coroutine, before the two calls that do the work: the
WebSocket library frames the text and the transport writes it. :class:`DirectWriter` makes
those two calls at once, from :meth:`laizi.server.common.connection.Conn.send`, when the
socket can take it now; otherwise (nothing direct here, the transport paused by a peer that
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
    """Writes text frames to one uvicorn ``websockets-sansio`` connection synchronously."""

    __slots__ = ("_proto",)

    def __init__(self, proto: Any) -> None:
        self._proto = proto

    def __call__(self, text: str) -> bool:
        """Frame and write ``text`` now; False (nothing written) when the socket cannot
        take it at once, and the caller queues it instead."""
        p = self._proto
        if (p.close_sent or p.disconnected or not p.handshake_complete
                or p.initial_response is not None or not p.writable.is_set()
                or p.transport.is_closing()):
            return False
        try:
            p.conn.send_text(text.encode())
        except Exception:  # noqa: BLE001 - the connection's state says no (closing)
            return False
        p.transport.write(b"".join(p.conn.data_to_send()))
        return True


def direct_writer(send: Any) -> DirectWriter | None:
    """A :class:`DirectWriter` for the connection behind an ASGI ``send`` (Starlette's
    ``WebSocket._send``), or None when it is not uvicorn's ``websockets-sansio``."""
    if WebSocketsSansIOProtocol is None:  # pragma: no cover
        return None
    proto = owner_of(send, lambda o: type(o) is WebSocketsSansIOProtocol)
    if proto is None:
        return None
    needed = ("conn", "transport", "writable", "close_sent", "disconnected",
              "handshake_complete", "initial_response")
    if not all(hasattr(proto, a) for a in needed):  # pragma: no cover - uvicorn changed
        return None
    return DirectWriter(proto)


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
