"""Helpers for the server tests: WebSocket wrapper with timeouts, room set-up."""

from __future__ import annotations

import contextlib
import json
from collections.abc import Callable
from typing import Any

import anyio
from starlette.testclient import TestClient

FAST = {"bot_delay": 0.0, "hand_pause": 0.0, "disconnect_grace": 30.0}


class WS:
    """A TestClient WebSocket with timeouts and a record of every frame received."""

    def __init__(self, session: Any) -> None:
        self.s = session
        self.frames: list[dict[str, Any]] = []
        self.raw: list[str] = []
        self.seq = 0

    def send(self, **msg: Any) -> None:
        self.s.send_json(msg)

    def send_raw(self, text: str) -> None:
        self.s.send_text(text)

    def recv(self, timeout: float = 10.0) -> dict[str, Any]:
        async def _r() -> Any:
            with anyio.fail_after(timeout):
                return await self.s._send_rx.receive()

        msg = self.s.portal.call(_r)
        if msg["type"] == "websocket.close":
            raise ConnectionError(f"closed: {msg}")
        text = msg["text"]
        self.raw.append(text)
        data = json.loads(text)
        self.frames.append(data)
        return data

    def until(self, pred: Callable[[dict[str, Any]], bool] | str, timeout: float = 10.0) -> dict[str, Any]:
        if isinstance(pred, str):
            want = pred
            pred = lambda m: m.get("type") == want  # noqa: E731
        for _ in range(100000):
            m = self.recv(timeout)
            if pred(m):
                return m
        raise AssertionError("no such frame")

    def error(self, timeout: float = 10.0) -> dict[str, Any]:
        return self.until("error", timeout)

    def act(self, action: dict[str, Any], version: int | None = None, seq: int | None = None) -> int:
        if seq is None:
            self.seq += 1
            seq = self.seq
        msg: dict[str, Any] = {"type": "action", "seq": seq, "action": action}
        if version is not None:
            msg["version"] = version
        self.send(**msg)
        return seq


OPEN: list[Any] = []  # WebSocket sessions to close when the test ends


def close_all() -> None:
    while OPEN:
        cm = OPEN.pop()
        with contextlib.suppress(Exception):  # already closed
            cm.__exit__(None, None, None)


def connect(client: TestClient, nickname: str | None = "tester", token: str | None = None) -> tuple[WS, Any]:
    cm = client.websocket_connect("/ws")
    ws = WS(cm.__enter__())
    OPEN.append(cm)
    hello: dict[str, Any] = {"type": "hello"}
    if nickname:
        hello["nickname"] = nickname
    if token:
        hello["token"] = token
    ws.send(**hello)
    ws.until("welcome")
    return ws, cm


def new_room(ws: WS, **settings: Any) -> str:
    ws.send(type="create", settings=settings)
    joined = ws.until("joined")
    return joined["room"]["code"]


def room_state(ws: WS, pred: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
    return ws.until(lambda m: m["type"] == "room" and pred(m["room"]))["room"]


def game_frame(ws: WS, pred: Callable[[dict[str, Any]], bool] = lambda m: True,
               timeout: float = 10.0) -> dict[str, Any]:
    return ws.until(lambda m: m["type"] in ("update", "snapshot") and pred(m), timeout)
