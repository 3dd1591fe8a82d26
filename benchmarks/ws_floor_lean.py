"""The lean table of ``bench_ws_floor.py --table lean``: a room path with no view at all.

    python benchmarks/ws_floor_lean.py PORT DB_URL HAND_PAUSE DEADLINE [views]

The server ``bench_ws_floor.py`` measures when it asks what a table costs if it sends events
and nothing else (issue 24's "room path with no view per audience"). On ``laizi serve``'s own
stack (uvicorn ``websockets-sansio`` on uvloop, Starlette's receive loop, orjson, frames
written by :mod:`laizi.server.net.wsdirect`), each room of four connections plays a real
match (:class:`laizi.server.tables.engine.GameSession`, kaikoufan), and one client action is:

- the message parsed (orjson); the seat checked against the seats to act;
- the move: a random legal action of that seat (the load's clients are ``bench_server.py``'s
  random bots; here the server draws it, so the clients need no state), given to the
  engine as JSON (:meth:`GameSession.act` parses and checks it as the real room does);
- one journal row, through the real batching writer (:class:`laizi.server.persistence.writer.Writer`:
  one multi-row ``INSERT`` per batch on PostgreSQL), awaited before anything is sent
  (durable before shown, as the real room);
- each seat's frame: the events it may see since its last frame, as the engine's per-seat
  streams already hold them (each event serialised once per audience), the version, and
  for a seat newly to act its legal actions; then the ``ack`` to the actor;
- the turn's deadline: one timer set (and the last one cancelled) per change.

The collector is kept off the long-lived heap as in ``laizi serve`` (a collect-and-freeze
pass every second: :class:`laizi.server.tables.runtime.HeapFreezer`); a match is 16 rounds,
as ``bench_server.py``'s rooms. Between hands the room waits ``HAND_PAUSE`` seconds and deals the next; a finished match is
followed by a new one. Left out, against the real room: views and their patches, the
seats' scored waits (智能提示) and table 番, spectators, snapshots (join, reconnect, resync),
chat, 托管, coins, the match and room rows. A client that held its state from the events
would need the snapshot only on join, reconnect and resync.

With ``views`` (``bench_ws_floor.py --table views``) each frame also carries the seat's view
patch as ``laizi serve`` builds it (:meth:`GameSession.view_patch` from the seat's last frame,
its snapshot first; :meth:`GameSession.trim` after the frames): what the views alone add.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import sys
from collections.abc import AsyncIterator
from typing import Any

import orjson
import uvicorn
from sqlalchemy import JSON, BigInteger, Column, Integer, MetaData, Table
from starlette.applications import Starlette
from starlette.routing import WebSocketRoute

from laizi.rules import RuleSet
from laizi.server.net.wsdirect import direct_writer
from laizi.server.persistence.db import make_engine
from laizi.server.persistence.writer import Writer
from laizi.server.tables.engine import GameSession, OpError, seed_from_text
from laizi.server.tables.runtime import HeapFreezer

PORT, DB_URL = int(sys.argv[1]), sys.argv[2]
HAND_PAUSE, DEADLINE = float(sys.argv[3]), float(sys.argv[4])
VIEWS = len(sys.argv) > 5 and sys.argv[5] == "views"
RULES = RuleSet(**{**RuleSet.preset("kaikoufan").model_dump(), "rounds": 16})  # bench_server's rooms
META = MetaData()
JOURNAL = Table("lean_journal", META, Column("match_id", BigInteger, nullable=False),
                Column("n", Integer, nullable=False), Column("seat", Integer, nullable=False),
                Column("action", JSON, nullable=False))
ENGINE = make_engine(DB_URL)
META.create_all(ENGINE)
WRITER = Writer(ENGINE)
ROOMS: dict[str, Room] = {}
MATCHES = iter(range(1, 1 << 62))


class Room:
    def __init__(self, code: str) -> None:
        self.code = code
        self.members: list[Any] = []  # the seats' frame writers, by seat
        self.rng = random.Random(code)
        self.game: GameSession | None = None
        self.match_id = 0
        self.sent = [0, 0, 0, 0]  # each seat's stream version in its last frame
        self.base = [-1, -1, -1, -1]  # ... and the match's version then (views)
        self.told: set[int] = set()  # seats to act that were told so
        self.timer: asyncio.TimerHandle | None = None
        self.lock = asyncio.Lock()  # one command at a time (the real room's actor)

    def new_match(self) -> None:
        self.match_id = next(MATCHES)
        self.game = GameSession(RULES, seed_from_text(f"{self.code}-{self.match_id}"))
        self.sent = [0, 0, 0, 0]
        self.base = [-1, -1, -1, -1]
        self.told = set()

    async def play(self, seat: int, seq: int, reply: Any) -> None:
        async with self.lock:
            g = self.game
            if g is None or seat not in g.to_act():
                reply(orjson.dumps({"type": "ack", "seq": seq, "error": "not_your_turn"}).decode())
                return
            choice = self.rng.choice(g.legal(seat)).to_json()
            try:
                g.act(seat, choice)
            except OpError as exc:
                reply(orjson.dumps({"type": "ack", "seq": seq, "error": exc.code}).decode())
                return
            await WRITER.write(None, rows=[(JOURNAL, [{"match_id": self.match_id, "n": g.version,
                                                       "seat": seat, "action": choice}])])
            self.told.discard(seat)
            self.push()
            reply(orjson.dumps({"type": "ack", "seq": seq, "v": g.version}).decode())
            if g.hand_over:
                asyncio.get_running_loop().call_later(HAND_PAUSE, self._next_hand)

    def _next_hand(self) -> None:
        g = self.game
        assert g is not None
        if g.over:
            self.new_match()
        else:
            g.next_hand()
        self.push()

    def push(self) -> None:
        """Each seat's frame: its new events, the version, and its options if newly to act."""
        g = self.game
        assert g is not None
        to_act = set() if g.hand_over else set(g.to_act())
        new = to_act - self.told
        self.told = to_act
        v = g.version
        for seat, w in enumerate(self.members):
            stream = g.stream(seat)
            events = stream.since(self.sent[seat]) or []
            self.sent[seat] = stream.v
            if VIEWS:
                patch = g.view_patch(seat, self.base[seat]) if self.base[seat] >= 0 else None
                view = f'"p":{patch}' if patch is not None else f'"view":{g.view_json(seat)}'
                self.base[seat] = v
                w(f'{{"type":"update","v":{v},"turn":{seat if seat in new else -1},'
                  f'"ev":[{",".join(events)}],{view}}}')
            elif seat in new:
                legal = orjson.dumps([a.to_json() for a in g.legal(seat)]).decode()
                w(f'{{"type":"update","v":{v},"turn":{seat},"ev":[{",".join(events)}],"legal":{legal}}}')
            else:
                w(f'{{"type":"update","v":{v},"turn":-1,"ev":[{",".join(events)}]}}')
        if VIEWS:
            g.trim()
        if self.timer is not None:
            self.timer.cancel()
        self.timer = asyncio.get_running_loop().call_later(DEADLINE, _noop) if to_act else None


def _noop() -> None:
    """The deadline (the load acts long before it)."""


async def ws_endpoint(ws: Any) -> None:
    await ws.accept()
    code = ws.query_params["room"]
    w = direct_writer(ws._send)
    assert w is not None, "not websockets-sansio"
    room = ROOMS.get(code)
    if room is None:
        room = ROOMS[code] = Room(code)
    seat = len(room.members)
    room.members.append(w)
    if len(room.members) == 4:
        room.new_match()
        room.push()
    while True:
        msg = await ws.receive()
        if msg["type"] == "websocket.disconnect":
            break
        m = orjson.loads(msg.get("text") or msg.get("bytes"))
        await room.play(seat, m["seq"], w)
    room.members[seat] = lambda _text: None


@contextlib.asynccontextmanager
async def lifespan(_app: Starlette) -> AsyncIterator[None]:
    """The collector kept off the long-lived heap, as ``laizi serve`` (its ``gc_interval``)."""
    freezer = HeapFreezer(1.0)
    freezer.start()
    yield
    freezer.stop()


app = Starlette(routes=[WebSocketRoute("/ws", ws_endpoint)], lifespan=lifespan)
uvicorn.run(app, host="127.0.0.1", port=PORT, log_level="warning",
            ws="websockets-sansio", ws_max_size=64 * 1024, ws_per_message_deflate=False)
