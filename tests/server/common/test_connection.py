"""A connection's sender coroutine, closed without its loop (the collector closes an
abandoned coroutine): it must not try to await the socket's close then."""

from __future__ import annotations

import asyncio

from laizi.server.common.connection import Conn


class Socket:
    """The two calls the sender makes on a WebSocket, recorded."""

    def __init__(self) -> None:
        self.sent: list[str] = []
        self.closed = 0

    async def send_text(self, text: str) -> None:
        self.sent.append(text)

    async def close(self) -> None:
        self.closed += 1


def test_a_sender_closed_while_it_waits_ends_cleanly() -> None:
    loop = asyncio.new_event_loop()
    try:
        ws = Socket()
        conn = Conn(ws)  # type: ignore[arg-type]
        conn.send("hello")
        coro = conn.sender()
        task = loop.create_task(coro)
        loop.run_until_complete(asyncio.sleep(0.01))  # it sent, and waits for the next frame
        assert ws.sent == ["hello"]
        # What the collector does to an abandoned coroutine: before, the sender's finally
        # awaited the socket's close and close() raised "coroutine ignored GeneratorExit".
        task._log_destroy_pending = False  # type: ignore[attr-defined]
        coro.close()
        assert conn.closed and ws.closed == 0
    finally:
        loop.close()


def test_a_sender_told_to_stop_closes_its_socket() -> None:
    async def run() -> Socket:
        ws = Socket()
        conn = Conn(ws)  # type: ignore[arg-type]
        conn.send("a")
        conn.queue.put_nowait(None)
        await conn.sender()
        return ws

    ws = asyncio.run(run())
    assert ws.sent == ["a"] and ws.closed == 1


def test_a_direct_frame_never_overtakes_a_queued_one() -> None:
    """The direct writer (laizi.server.net.wsdirect) is used only while nothing waits in the
    queue or in the sender's hands; otherwise frames queue behind the waiting ones."""
    wrote: list[str] = []
    socket_takes = [False]

    def direct(text: str) -> bool:
        if socket_takes[0]:
            wrote.append(text)
            return True
        return False  # a paused transport: the frame takes the queue

    async def run() -> Socket:
        ws = Socket()
        conn = Conn(ws)  # type: ignore[arg-type]
        conn.direct = direct
        conn.send("1")                  # refused: queued
        socket_takes[0] = True          # the transport resumes before the sender runs...
        conn.send("2")                  # ...yet "2" must wait behind "1"
        assert wrote == [] and conn.pending == 2
        sender = asyncio.ensure_future(conn.sender())
        while conn.pending:
            await asyncio.sleep(0)
        conn.send("3")                  # the queue empty again: written at once
        assert wrote == ["3"] and conn.pending == 0
        conn.close()
        await sender
        return ws

    ws = asyncio.run(run())
    assert ws.sent == ["1", "2"]
