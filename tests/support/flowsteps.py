"""Steps of the match-flow tests over a live server: a room with humans (ready) and bots, every
human playing its legal moves, a client's view, whether a settlement is showing."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from support.srvhelpers import Client, LiveServer, choose


def room_with(server: LiveServer, opened: list[Client], humans: int, *, start: bool = True,
              **settings: Any) -> tuple[list[Client], str]:
    """``humans`` players on seats 0.. (ready), random bots on the rest."""
    cs = [Client(server.port, f"f{i}") for i in range(humans)]
    opened.extend(cs)
    host = cs[0]
    host.send({"type": "create", "settings": {"turn_seconds": 600, "claim_seconds": 120, **settings}})
    code = host.until("joined")["room"]["code"]
    for i, c in enumerate(cs):
        if i:
            c.request({"type": "join", "room": code}, "joined")
        c.send({"type": "sit", "seat": i})
        c.until(lambda m, i=i: m["type"] == "room" and m["room"]["seats"][i]["player_id"])
    for s in range(humans, 4):
        host.send({"type": "bot", "seat": s, "level": "random"})
        host.until(lambda m, s=s: m["type"] == "room" and m["room"]["seats"][s]["bot"])
    if start:
        for i, c in enumerate(cs):
            c.send({"type": "ready"})
            c.until(lambda m, i=i: m["type"] == "room" and m["room"]["seats"][i]["ready"])
        host.send({"type": "start"})
        for c in cs:
            c.until("snapshot")
    return cs, code


def play(cs: list[Client], done: Callable[[], bool], seconds: float = 60) -> None:
    """Every human plays its legal moves (``choose``) until ``done()``; no 继续."""
    end = time.monotonic() + seconds
    while not done():
        assert time.monotonic() < end, "timed out"
        for c in cs:
            c.drain(0.005)
        for c in cs:
            legal = (c.last or {}).get("view", {}).get("legal") or []
            if legal and c.last is not None and getattr(c, "acted_v", None) != c.last["v"]:
                c.acted_v = c.last["v"]  # type: ignore[attr-defined]
                c.seq += 1
                c.send({"type": "action", "seq": c.seq, "action": choose(legal), "version": c.last["v"]})


def view(c: Client) -> dict[str, Any]:
    assert c.last is not None
    v: dict[str, Any] = c.last["view"]
    return v


def settling(c: Client) -> bool:
    return c.last is not None and view(c).get("phase") == "over" and not view(c).get("match_over")
