"""Rooms, connections and the command loop.

- :class:`Hub`: every room, the database writer, guest identities; serves WebSockets.
- :class:`Room`: lobby (seats, bots, settings) then one match. **A room processes its
  commands one at a time** (an :class:`asyncio.Lock` around every command, timer and
  bot move); rooms never wait for each other.
- :class:`Conn`: one WebSocket with its own outgoing queue, so a slow client delays
  nobody.

Order inside a command: apply to the engine → write the journal and the new events
to the database (awaited) → send each connection its own frames → reschedule timers.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import importlib
import json
import logging
import os
import random
import secrets
import string
import time
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import func, select, update
from sqlalchemy.orm import Session
from starlette.websockets import WebSocket, WebSocketDisconnect

from laizi.errors import LaiziError
from laizi.game import Action
from laizi.rules import RuleSet
from laizi.server import db
from laizi.server.auth import GuestAuth, clean_nickname, new_player_id
from laizi.server.chat import QUICK_PHRASES, ChatError, RateLimiter, clean_text
from laizi.server.engine import GameSession, OpError, dumps, hand_frames, seed_from_text
from laizi.server.protocol import (
    BOT_LEVELS,
    ProtocolError,
    RoomSettings,
    parse_client_message,
)
from laizi.views import SeatView

__all__ = ["Conn", "Hub", "Room", "ServerConfig"]

log = logging.getLogger("laizi.server")

_TABLES = db.Base.metadata.tables
ACTIONS = _TABLES["actions"]
EVENTS = _TABLES["events"]
HANDS = _TABLES["hands"]
SCORES = _TABLES["scores"]
MATCHES = _TABLES["matches"]
ROOMS = _TABLES["rooms"]

CODE_ALPHABET = "".join(c for c in string.ascii_uppercase + string.digits if c not in "O0I1L")
CODE_LEN = 5
MAX_STREAM_GAP = 200
AUTO_BOT = "greedy"  # plays a 托管 or escaped seat  # a connection further behind than this gets a snapshot instead


@dataclass
class ServerConfig:
    db_url: str = "laizi.db"
    bot_delay: float = 0.6          # seconds a bot (or 托管) waits before acting
    hand_pause: float = 4.0         # seconds between a hand's end and the next deal
    disconnect_grace: float = 5.0   # a disconnected player goes to 托管 after this
    turn_seconds: float = 20.0      # default turn timer (rooms may override)
    secret: str | None = None       # token signing key (default: stored in the database)
    send_queue_max: int = 1000
    msg_rate: float = 40.0          # client frames per second (burst 2x) before throttling
    bot_steps_per_tick: int = 8     # bot moves per timer callback before yielding
    bot_tick_budget: float = 0.005  # ... or once this many seconds of them have passed
    gc_freeze: bool = True          # keep long-lived objects out of the cyclic GC's sight
    gc_interval: float = 1.0        # seconds between collect-and-freeze passes (0: start-up only)


# ----------------------------------------------------------------------- gc
def _freeze_heap(generation: int = 2) -> float:
    """Collect ``generation`` (and the younger ones), then ``gc.freeze()`` every object
    alive; returns the seconds it took.

    CPython's full collections walk every tracked object, here about a microsecond
    each: the imported modules (pydantic validators, SQLAlchemy, the engine) plus the
    rooms and connections of a busy server made each one a 50-300 ms pause of every
    room. Frozen objects are never walked again; they are the long-lived state
    (modules, connections, matches) and are still freed by reference counting when they
    go. The price: a *reference cycle* frozen while alive is not reclaimed when it later
    becomes garbage. The server's connections and the engine's matches leave no such
    cycles (checked: ``gc.unfreeze(); gc.collect()`` after a load run finds none), and
    ``/healthz`` reports the frozen count (``gc_frozen``) to watch. At start-up this is
    a full collection; then every ``gc_interval`` seconds a young one (gen 0-1, a few
    milliseconds) before freezing the survivors.
    """
    t0 = time.perf_counter()
    gc.collect(generation)
    gc.freeze()
    return time.perf_counter() - t0


def _warm_up() -> None:
    """Import and initialise what the hot path loads lazily (the engine's tables, bots,
    hints), so no first move pays for it and it all belongs to the frozen start-up heap."""
    for mod in ("laizi.bots", "laizi.hints", "laizi.game.play", "laizi.views", "laizi.analysis.fast"):
        with contextlib.suppress(Exception):
            importlib.import_module(mod)
    try:
        g = GameSession(RuleSet.preset("kaikoufan"), seed_from_text("warm-up"))
        seat = g.to_act()[0]
        for level in _bot_levels():
            SeatBot(level, 0).choose(g, seat)
        hints_for_view(g.seat_view(seat))
        g.view_json(seat)
    except Exception:  # noqa: BLE001 - a warm-up only
        log.exception("warm-up failed")


# ----------------------------------------------------------------------- bots
def _bot_levels() -> list[str]:
    try:
        from laizi.bots import BOT_NAMES

        return list(BOT_NAMES)
    except ImportError:  # pragma: no cover - bots not installed
        return list(BOT_LEVELS)


class SeatBot:
    """A bot for one seat: ``laizi.bots.make_bot`` when available, else the engine's auto-play."""

    def __init__(self, level: str, seed: int) -> None:
        self.level = level
        self._bot: Any = None
        try:
            from laizi.bots import make_bot

            self._bot = make_bot(level, seed)
        except Exception:  # noqa: BLE001 - fall back to the minimal engine policy
            self._bot = None

    def choose(self, game: GameSession, seat: int) -> Action:
        hand = game.match.hand
        assert hand is not None
        legal = hand.legal_actions(seat)
        if self._bot is not None:
            try:
                from laizi.bots import SeatView

                a: Action = self._bot.act(SeatView.from_state(hand, seat, legal))
                if a in legal:
                    return a
                log.warning("bot %s chose an illegal action %s", self.level, a)
            except Exception:  # noqa: BLE001 - a bot bug must not stop the table
                log.exception("bot %s failed; using auto_action", self.level)
        from laizi.game.play import auto_action

        return auto_action(hand, seat)


def hints_for_view(view: SeatView | None) -> Any:
    """Hints for a seat, computed from that seat's own snapshot only (``laizi.hints``)."""
    if view is None:
        return None
    try:
        from laizi.hints import hints_for
    except ImportError:
        return None
    try:
        out = hints_for(view)
    except Exception:  # noqa: BLE001 - hints are optional
        log.exception("hints failed")
        return None
    try:
        json.dumps(out)
        return out
    except TypeError:
        return str(out)


# ----------------------------------------------------------------------- seats
@dataclass
class Seat:
    player_id: str | None = None
    nickname: str = ""
    bot: str | None = None        # a bot sits here (level)
    escaped: bool = False         # the player left for good: its bot plays
    disconnected_at: float | None = None

    def to_json(self) -> dict[str, Any]:
        return {"player_id": self.player_id, "nickname": self.nickname, "bot": self.bot,
                "escaped": self.escaped}

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> Seat:
        return cls(player_id=d.get("player_id"), nickname=d.get("nickname", ""),
                   bot=d.get("bot"), escaped=bool(d.get("escaped")))

    @property
    def empty(self) -> bool:
        return self.player_id is None and self.bot is None


class Conn:
    """One WebSocket connection."""

    _ids = 0

    def __init__(self, hub: Hub, ws: WebSocket | None) -> None:
        Conn._ids += 1
        self.id = Conn._ids
        self.hub = hub
        self.ws = ws
        self.player_id: str | None = None
        self.nickname = ""
        self.room: Room | None = None
        self.seat: int | None = None      # seat in room.match (None: spectator / lobby)
        self.sent_v = 0                   # last stream version sent
        self.hints = False
        self.queue: asyncio.Queue[str | None] = asyncio.Queue()
        self.closed = False
        self._tokens = hub.cfg.msg_rate * 2
        self._last = time.monotonic()

    def send(self, msg: dict[str, Any] | str) -> None:
        """Queue a frame: a message, or its JSON text."""
        if self.closed:
            return
        if self.queue.qsize() >= self.hub.cfg.send_queue_max:
            log.warning("conn %s: send queue full, closing", self.id)
            self.close()
            return
        self.queue.put_nowait(msg if isinstance(msg, str) else dumps(msg))

    def error(self, code: str, message: str, ref: Any = None) -> None:
        msg: dict[str, Any] = {"type": "error", "code": code, "message": message}
        if ref is not None:
            msg["ref"] = ref
        self.send(msg)

    def close(self) -> None:
        if not self.closed:
            self.closed = True
            self.queue.put_nowait(None)

    def throttle(self) -> bool:
        """Token bucket: False when the client sends faster than ``msg_rate``."""
        now = time.monotonic()
        rate = self.hub.cfg.msg_rate
        self._tokens = min(rate * 2, self._tokens + (now - self._last) * rate)
        self._last = now
        if self._tokens < 1:
            return False
        self._tokens -= 1
        return True

    async def sender(self) -> None:
        assert self.ws is not None
        try:
            while True:
                item = await self.queue.get()
                if item is None:
                    break
                await self.ws.send_text(item)
        except Exception:  # noqa: BLE001 - the socket went away
            self.closed = True
        finally:
            with contextlib.suppress(Exception):
                await self.ws.close()


# ----------------------------------------------------------------------- rooms
class Room:
    def __init__(self, hub: Hub, code: str, settings: RoomSettings, owner_id: str | None) -> None:
        self.hub = hub
        self.code = code
        self.settings = settings
        self.owner_id = owner_id
        self.status = "lobby"
        self.seats = [Seat() for _ in range(4)]
        self.match_id: int | None = None
        self.game: GameSession | None = None
        self.conns: set[Conn] = set()
        self.lock = asyncio.Lock()
        self.last_seq: dict[str, int] = {}
        self.bots: dict[int, SeatBot] = {}
        self.deadlines: dict[int, float] = {}
        self.next_hand_at: float | None = None
        self.persisted_events = 0
        self.persisted_ops = 0
        self._timer: asyncio.TimerHandle | None = None
        self._timer_task: asyncio.Task[None] | None = None
        self.chat_log: list[dict[str, Any]] = []
        self.bot_ready_at = 0.0  # bots wait bot_delay after the last change
        self._op_meta: dict[int, dict[str, Any]] = {}
        self._event_hand = 0
        self._hints: dict[tuple[int, int], str] = {}
        self._saved_match: Any = None  # (scores, status, seats) last written to the match row
        self._saved_room: Any = None   # (status, seats) last written to the room row
        self.rules = self._rules()

    # ------------------------------------------------------------- settings
    def _rules(self) -> RuleSet:
        s = self.settings
        extra: dict[str, Any] = {"rounds": s.rounds}
        if s.claim_seconds is not None:
            extra["claim_seconds"] = s.claim_seconds
        return RuleSet.preset(s.preset, **{**s.options, **extra})

    @property
    def bot_delay(self) -> float:
        d = self.settings.bot_delay
        return self.hub.cfg.bot_delay if d is None else d

    def seat_of(self, player_id: str | None) -> int | None:
        if player_id is None:
            return None
        for i, s in enumerate(self.seats):
            if s.player_id == player_id and not s.escaped:
                return i
        return None

    def lobby_json(self) -> dict[str, Any]:
        connected = {c.player_id for c in self.conns if not c.closed}
        seats = []
        for i, s in enumerate(self.seats):
            d = s.to_json()
            d["seat"] = i
            d["connected"] = s.player_id in connected if s.player_id else False
            d["auto"] = bool(self.game and self.game.match.auto[i])
            seats.append(d)
        return {
            "code": self.code, "status": self.status, "owner": self.owner_id,
            "settings": self.settings.model_dump(exclude={"seed"}),
            "rules": self.rules.model_dump(mode="json"),
            "seats": seats, "match_id": self.match_id,
            "spectators": sum(1 for c in self.conns if c.seat is None and not c.closed),
        }

    def broadcast_lobby(self) -> None:
        text = dumps({"type": "room", "room": self.lobby_json()})
        for c in list(self.conns):
            c.send(text)

    # ------------------------------------------------------------- frames
    def frame(self, conn: Conn, kind: str = "update") -> str | None:
        """The next frame for ``conn`` (JSON text): its new events and its view (or a snapshot).

        Built from texts cached per version (:meth:`GameSession.view_json`, the seats'
        event streams), so a change costs one public view plus a small private part per
        seat, whatever the number of connections.
        """
        g = self.game
        if g is None:
            return None
        seat = conn.seat
        stream = g.stream(seat)
        v = stream.v
        if kind == "update" and v == conn.sent_v:
            return None
        events: list[str] | None = None
        if kind == "update":
            if conn.sent_v > v or v - conn.sent_v > MAX_STREAM_GAP:
                kind = "snapshot"
            else:
                events = stream.since(conn.sent_v)
                if events is None:
                    kind = "snapshot"
        if events is None:
            events = stream.last(40)
        view = g.view_json(seat)
        extra = ""
        if seat is not None and conn.player_id is not None:
            extra = f',"last_seq":{self.last_seq.get(conn.player_id, 0)}'
            if conn.hints:
                extra += self._hints_json(g, seat)
        conn.sent_v = v
        return (f'{{"type":"{kind}","v":{v},"seat":{dumps(seat)},"view":{view},'
                f'"match_id":{dumps(self.match_id)},"events":[{",".join(events)}],'
                f'"deadline":{dumps(self.deadline_for(seat))}{extra}}}')

    def _hints_json(self, g: GameSession, seat: int) -> str:
        """``,"hints":…`` for a seat with a decision to make (cached per version)."""
        key = (g.version, seat)
        out = self._hints.get(key)
        if out is None:
            if len(self._hints) > 8:
                self._hints.clear()
            sv = g.seat_view(seat)
            out = (f',"hints":{dumps(hints_for_view(sv))}'
                   if sv is not None and sv.legal and not g.over else "")
            self._hints[key] = out
        return out

    def deadline_for(self, seat: int | None) -> float | None:
        """Seconds left for ``seat``'s decision (only its own deadline is disclosed)."""
        if seat is None or seat not in self.deadlines:
            return None
        return max(0.0, round(self.deadlines[seat] - time.monotonic(), 2))

    def push_updates(self) -> None:
        for c in list(self.conns):
            if c.closed:
                continue
            msg = self.frame(c)
            if msg is not None:
                c.send(msg)

    # ------------------------------------------------------------- persistence
    async def persist(self) -> None:
        """Write the journal and the events not yet stored (awaited: durable before shown)."""
        g = self.game
        if g is None or self.match_id is None:
            return
        mid = self.match_id
        ops = g.journal[self.persisted_ops:]
        events = g.log[self.persisted_events:]
        if not ops and not events:
            return
        op_base = self.persisted_ops
        ev_base = self.persisted_events
        pending_meta = [self._op_meta.pop(op_base + i, None) for i in range(len(ops))]
        hand_no = g.hand_no
        scores = g.match.score_values()
        over = g.over
        status = "finished" if over else "playing"
        hand_rows: list[dict[str, Any]] = []
        for ev in events:
            if ev["type"] == "start_hand":
                hand_rows.append({"number": ev["hand"], "dealer": ev["dealer"],
                                  "commitment": ev["commitment"], "end": None})
            elif ev["type"] == "end_hand":
                hand_rows.append({"number": ev["hand"], "end": ev})
        ev_hands = []
        h = self._event_hand
        for ev in events:
            if ev["type"] == "start_hand":
                h = ev["hand"]
            ev_hands.append(h)
        self._event_hand = h
        escape_rows = [(ev["seat"], ev["deltas"]) for ev in events if ev["type"] == "escape"]
        seats_json = [s.to_json() for s in self.seats]
        room_status = self.status
        code = self.code
        seat_pids = [s.player_id for s in self.seats]
        # The match and room rows change rarely (hand ends, escapes, 托管 seats, the
        # end): they are only rewritten when what they hold changed.
        match_state = (scores, status, seats_json)
        match_dirty = match_state != self._saved_match
        room_dirty = (room_status, seats_json) != self._saved_room
        self._saved_match = match_state
        self._saved_room = (room_status, seats_json)

        action_rows = []
        for i, op in enumerate(ops):
            meta = pending_meta[i] or {}
            action_rows.append({
                "match_id": mid, "n": op_base + i + 1, "seat": op.get("seat", -1), "action": op,
                "source": meta.get("source", "server"), "player_id": meta.get("player_id"),
                "client_seq": meta.get("seq"), "version": meta.get("v", 0)})
        event_rows = [{"match_id": mid, "n": ev_base + i + 1, "hand": ev_hands[i], "kind": ev["type"],
                       "data": ev} for i, ev in enumerate(events)]

        def write(s: Session) -> None:
            # Core executemany inserts: the hot path of every action (no ORM unit of work).
            # Flush first: an ORM write earlier in the same batch must not land after these.
            s.flush()
            conn = s.connection()
            if action_rows:
                conn.execute(ACTIONS.insert(), action_rows)
            if event_rows:
                conn.execute(EVENTS.insert(), event_rows)
            now = datetime.now(UTC)
            for hr in hand_rows:
                if hr.get("end") is None:
                    conn.execute(HANDS.insert(), [{"match_id": mid, "number": hr["number"],
                                                   "dealer": hr["dealer"],
                                                   "commitment": hr["commitment"]}])
                else:
                    end = hr["end"]
                    conn.execute(
                        update(HANDS).where(HANDS.c.match_id == mid, HANDS.c.number == hr["number"])
                        .values(seed=end.get("seed"), ended_at=now,
                                result={"winner": end.get("winner"), "deltas": end.get("deltas"),
                                        "hands": end.get("hands")}))
                    score_rows = [{"match_id": mid, "hand": hr["number"], "seat": seat,
                                   "player_id": seat_pids[seat], "kind": "hand", "delta": d}
                                  for seat, d in enumerate(end.get("deltas") or [])]
                    if score_rows:
                        conn.execute(SCORES.insert(), score_rows)
            for seat, deltas in escape_rows:
                conn.execute(SCORES.insert(), [
                    {"match_id": mid, "hand": hand_no, "seat": st, "player_id": seat_pids[st],
                     "kind": f"escape{seat}", "delta": d} for st, d in enumerate(deltas)])
            if match_dirty:
                values: dict[str, Any] = {"scores": scores, "status": status, "seats": seats_json}
                if over:
                    values["result"] = {"scores": scores}
                conn.execute(update(MATCHES).where(MATCHES.c.id == mid).values(**values))
                if over:
                    conn.execute(update(MATCHES).where(MATCHES.c.id == mid,
                                                       MATCHES.c.finished_at.is_(None))
                                 .values(finished_at=now))
            if room_dirty:
                conn.execute(update(ROOMS).where(ROOMS.c.code == code)
                             .values(status=room_status, seats=seats_json, updated_at=now))

        self.persisted_ops += len(ops)
        self.persisted_events += len(events)
        await self.hub.writer.write(write)

    def note_op(self, meta: dict[str, Any]) -> None:
        """Attach who/why to the journal entry just appended (stored with it)."""
        assert self.game is not None
        self._op_meta[len(self.game.journal) - 1] = meta

    async def save_room(self) -> None:
        code = self.code
        seats = [s.to_json() for s in self.seats]
        status = self.status
        match_id = self.match_id
        settings = self.settings.model_dump()
        owner = self.owner_id

        def write(s: Session) -> None:
            r = s.get(db.RoomRow, code)
            if r is None:
                s.add(db.RoomRow(code=code, owner_id=owner, status=status, settings=settings,
                                 seats=seats, match_id=match_id))
            else:
                r.status = status
                r.seats = seats
                r.match_id = match_id
                r.updated_at = datetime.now(UTC)

        await self.hub.writer.write(write)

    # ------------------------------------------------------------- match
    async def start_match(self) -> None:
        seed = seed_from_text(self.settings.seed)
        self.game = GameSession(self.rules, seed, max_hands=self.settings.max_hands)
        for i, s in enumerate(self.seats):
            if s.bot:
                self.bots[i] = SeatBot(s.bot, random.Random(seed + bytes([i])).randrange(2**31))
        self.status = "playing"
        rules_json = self.rules.model_dump(mode="json")
        max_hands = self.settings.max_hands
        seats = [s.to_json() for s in self.seats]
        code = self.code
        settings = self.settings.model_dump()
        owner = self.owner_id

        def write(s: Session) -> int:
            m = db.MatchRow(room_code=code, status="playing", rules=rules_json, seed=seed.hex(),
                            max_hands=max_hands,
                            seats=seats, scores=[0, 0, 0, 0], penalties=[0, 0, 0, 0])
            s.add(m)
            s.flush()
            r = s.get(db.RoomRow, code)
            if r is None:
                s.add(db.RoomRow(code=code, owner_id=owner, status="playing", settings=settings,
                                 seats=seats, match_id=m.id))
            else:
                r.status = "playing"
                r.match_id = m.id
                r.seats = seats
            return m.id

        self.match_id = await self.hub.writer.write(write)
        self.persisted_events = 0
        self.persisted_ops = 0
        await self.persist()
        for c in self.conns:
            c.seat = self.seat_of(c.player_id)
            c.sent_v = 0
        self.reset_deadlines(set())
        self.bot_ready_at = time.monotonic() + self.bot_delay
        self.broadcast_lobby()
        for c in list(self.conns):
            msg = self.frame(c, "snapshot")
            if msg:
                c.send(msg)
        self.schedule()

    def bot_for(self, seat: int) -> SeatBot:
        b = self.bots.get(seat)
        if b is None:
            level = self.seats[seat].bot or AUTO_BOT
            if level not in _bot_levels():
                level = _bot_levels()[-1]
            b = self.bots[seat] = SeatBot(level, seat * 7919 + (self.match_id or 0))
        return b

    def bot_controlled(self, seat: int) -> bool:
        s = self.seats[seat]
        g = self.game
        return bool(s.bot or s.escaped or s.player_id is None or (g is not None and g.match.auto[seat]))

    def reset_deadlines(self, keep: set[int]) -> None:
        """New deadlines for the seats that must act now, except those in ``keep``."""
        g = self.game
        if g is None or g.over or g.hand_over:
            self.deadlines = {}
            return
        now = time.monotonic()
        phase = g.phase
        claimish = phase in ("claim", "rob", "haidi")
        dur = self.rules.claim_seconds if claimish else self.settings.turn_seconds
        acting = g.to_act()
        new: dict[int, float] = {}
        for s in acting:
            if s in keep and s in self.deadlines:
                new[s] = self.deadlines[s]
            else:
                new[s] = now + dur
        self.deadlines = new

    def schedule(self) -> None:
        """(Re)arm the room's single timer for the next bot move, deadline or deal."""
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        g = self.game
        if g is None or self.status != "playing" or g.over:
            return
        loop = asyncio.get_running_loop()
        now = time.monotonic()
        due: float | None = None
        if g.hand_over:
            if self.next_hand_at is None:
                self.next_hand_at = now + self.hub.cfg.hand_pause
            due = self.next_hand_at
        else:
            for s in g.to_act():
                if self.bot_controlled(s):
                    cand = max(now, self.bot_ready_at)
                else:
                    cand = self.deadlines.get(s, now)
                    seat = self.seats[s]
                    if seat.disconnected_at is not None:
                        cand = min(cand, seat.disconnected_at + self.hub.cfg.disconnect_grace)
                due = cand if due is None else min(due, cand)
        for s in range(4):
            seat = self.seats[s]
            if seat.disconnected_at is not None and not g.match.auto[s]:
                t = seat.disconnected_at + self.hub.cfg.disconnect_grace
                due = t if due is None else min(due, t)
        if due is None:
            return
        delay = max(0.0, due - now)
        self._timer = loop.call_later(delay, self._fire)

    def _fire(self) -> None:
        self._timer = None
        self._timer_task = asyncio.ensure_future(self.on_timer())

    async def on_timer(self) -> None:
        try:
            async with self.lock:
                await self._tick()
        except Exception:  # noqa: BLE001 - never let a timer kill the room
            log.exception("room %s: timer failed", self.code)
            with contextlib.suppress(Exception):
                self.schedule()

    async def _tick(self) -> None:
        g = self.game
        if g is None or g.over or self.status != "playing":
            return
        now = time.monotonic()
        changed = False
        # Disconnected beyond grace → 托管.
        for s in range(4):
            seat = self.seats[s]
            if (seat.disconnected_at is not None and not g.match.auto[s]
                    and now >= seat.disconnected_at + self.hub.cfg.disconnect_grace):
                g.set_auto(s, True)
                self.note_op({"source": "disconnect"})
                changed = True
        if g.hand_over:
            if self.next_hand_at is not None and now >= self.next_hand_at - 0.001:
                self.next_hand_at = None
                g.next_hand()
                self.note_op({"source": "server"})
                self.reset_deadlines(set())
                changed = True
        else:
            steps = 0
            bot_wait = self.bot_delay
            budget_end = time.perf_counter() + self.hub.cfg.bot_tick_budget
            while (not g.hand_over and steps < self.hub.cfg.bot_steps_per_tick
                   and (steps == 0 or time.perf_counter() < budget_end)):
                acted = False
                for s in g.to_act():
                    if self.bot_controlled(s):
                        if now < self.bot_ready_at:
                            continue
                        self._bot_move(s, "bot")
                        acted = True
                        break
                    if now >= self.deadlines.get(s, float("inf")):
                        g.set_auto(s, True)  # timeout → 托管
                        self.note_op({"source": "timeout"})
                        self._bot_move(s, "auto")
                        acted = True
                        break
                if not acted:
                    break
                steps += 1
                changed = True
                if bot_wait > 0:
                    break
        if changed:
            await self.after_change()
        else:
            self.schedule()

    def _bot_move(self, seat: int, source: str) -> None:
        g = self.game
        assert g is not None
        before = set(g.to_act())
        action = self.bot_for(seat).choose(g, seat)
        g.act(seat, action)
        self.hub.stats["bot_moves"] += 1
        self.note_op({"source": source})
        self.reset_deadlines(before - {seat})

    async def after_change(self) -> None:
        g = self.game
        assert g is not None
        if g.over and self.status == "playing":
            self.status = "finished"
            self.deadlines = {}
        await self.persist()
        self.bot_ready_at = time.monotonic() + self.bot_delay
        self.push_updates()
        if g.over:
            self.broadcast_lobby()
            self.hub.finished_room(self)
        self.schedule()


# ----------------------------------------------------------------------- hub
class Hub:
    def __init__(self, cfg: ServerConfig) -> None:
        self.cfg = cfg
        self.rooms: dict[str, Room] = {}
        self.players: dict[str, str] = {}  # id -> nickname
        self.engine: Any = None
        self.writer: db.Writer = None  # type: ignore[assignment]
        self.auth: GuestAuth = None  # type: ignore[assignment]
        self.chat_limiter = RateLimiter()
        self.db_label = db.normalize_url(cfg.db_url).split("@")[-1]
        self.started = False
        self.stats: dict[str, float] = {"actions": 0, "bot_moves": 0, "errors": 0, "gc_passes": 0,
                                          "gc_max_ms": 0.0}
        self._gc_timer: asyncio.TimerHandle | None = None

    # ------------------------------------------------------------- lifecycle
    async def start(self) -> None:
        if self.started:
            return
        self.engine = db.make_engine(self.cfg.db_url)
        await asyncio.to_thread(db.migrate, self.engine)
        secret = self.cfg.secret or os.environ.get("LAIZI_SECRET")
        if not secret:
            secret = await asyncio.to_thread(
                db.set_meta_if_missing, self.engine, "token_secret", secrets.token_hex(32))
        self.auth = GuestAuth(secret)
        self.writer = db.Writer(self.engine)
        await asyncio.to_thread(self._load)
        self.started = True
        _warm_up()
        if self.cfg.gc_freeze:
            _freeze_heap()
            if self.cfg.gc_interval > 0:
                self._gc_timer = asyncio.get_running_loop().call_later(self.cfg.gc_interval,
                                                                       self._gc_pass)
        for room in self.rooms.values():
            if room.status == "playing":
                room.schedule()

    def health_stats(self) -> dict[str, Any]:
        out: dict[str, Any] = dict(self.stats)
        w = self.writer
        if w is not None:
            out.update(db_batches=w.batches, db_writes=w.writes, db_busy_s=round(w.busy_seconds, 2))
        out["gc_frozen"] = gc.get_freeze_count()
        return out

    def _gc_pass(self) -> None:
        dt = _freeze_heap(1)
        self.stats["gc_passes"] += 1
        self.stats["gc_max_ms"] = max(self.stats["gc_max_ms"], round(dt * 1000, 1))
        if dt > 0.05:
            log.warning("gc pass took %.0f ms", dt * 1000)
        self._gc_timer = asyncio.get_running_loop().call_later(self.cfg.gc_interval, self._gc_pass)

    async def stop(self) -> None:
        if self._gc_timer is not None:
            self._gc_timer.cancel()
            self._gc_timer = None
        for room in self.rooms.values():
            if room._timer is not None:
                room._timer.cancel()
        if self.writer is not None:
            await asyncio.to_thread(self.writer.flush)
            self.writer.close()
        if self.engine is not None:
            self.engine.dispose()
        self.started = False

    def _load(self) -> None:
        """Rebuild every unfinished room; matches in progress are replayed from the journal."""
        with Session(self.engine) as s:
            for p in s.scalars(select(db.PlayerRow)):
                self.players[p.id] = p.nickname
            rows = list(s.scalars(select(db.RoomRow).where(db.RoomRow.status.in_(("lobby", "playing")))))
            for r in rows:
                try:
                    room = self._room_from_row(s, r)
                except Exception:  # noqa: BLE001 - a broken room must not stop the server
                    log.exception("room %s could not be resumed", r.code)
                    continue
                self.rooms[room.code] = room

    def _room_from_row(self, s: Session, r: db.RoomRow) -> Room:
        settings = RoomSettings(**r.settings)
        room = Room(self, r.code, settings, r.owner_id)
        room.status = r.status
        room.seats = [Seat.from_json(d) for d in r.seats]
        room.match_id = r.match_id
        if r.status == "playing" and r.match_id is not None:
            m = s.get(db.MatchRow, r.match_id)
            assert m is not None
            journal = [a.action for a in s.scalars(
                select(db.ActionRow).where(db.ActionRow.match_id == m.id).order_by(db.ActionRow.n))]
            rules = RuleSet(**m.rules)
            game = GameSession.rebuild(rules, bytes.fromhex(m.seed), journal, max_hands=m.max_hands)
            stored = s.scalar(select(func.count()).select_from(db.EventRow)
                              .where(db.EventRow.match_id == m.id)) or 0
            if stored != len(game.log):
                # Check the stored events agree with the replay; extra rebuilt events
                # (if a crash hit between two writes) are simply written now.
                log.warning("room %s: %d stored events, %d rebuilt", r.code, stored, len(game.log))
            last = list(s.scalars(select(db.EventRow.data).where(db.EventRow.match_id == m.id)
                                  .order_by(db.EventRow.n.desc()).limit(1)))
            if last and stored <= len(game.log) and game.log[stored - 1] != last[0]:
                raise RuntimeError(f"room {r.code}: replay differs from the stored event log")
            room.rules = rules
            room.game = game
            room.persisted_ops = len(journal)
            room.persisted_events = min(stored, len(game.log))
            hands = [ev for ev in game.log[:room.persisted_events] if ev["type"] == "start_hand"]
            room._event_hand = hands[-1]["hand"] if hands else 0
            for pid, seq in s.execute(
                    select(db.ActionRow.player_id, func.max(db.ActionRow.client_seq))
                    .where(db.ActionRow.match_id == m.id, db.ActionRow.player_id.is_not(None))
                    .group_by(db.ActionRow.player_id)):
                if pid is not None and seq is not None:
                    room.last_seq[pid] = int(seq)
            now = time.monotonic()
            for i, seat in enumerate(room.seats):
                if seat.player_id and not seat.escaped and not seat.bot:
                    seat.disconnected_at = now  # nobody is connected after a restart
                if seat.bot:
                    room.bots[i] = SeatBot(seat.bot, random.Random(bytes.fromhex(m.seed) + bytes([i]))
                                           .randrange(2**31))
            room.reset_deadlines(set())
        return room

    def finished_room(self, room: Room) -> None:
        pass  # finished rooms stay in memory (viewable) until the process ends

    def bot_levels(self) -> list[str]:
        return _bot_levels()

    # ------------------------------------------------------------- players
    async def guest(self, token: str | None, nickname: Any) -> dict[str, Any]:
        pid = self.auth.check(token) if token else None
        nick = None
        if nickname is not None and nickname != "":
            nick = clean_nickname(nickname)
        if pid is not None and pid in self.players:
            if nick and nick != self.players[pid]:
                self.players[pid] = nick
                await self.writer.write(_set_nick(pid, nick))
            return {"player_id": pid, "nickname": self.players[pid], "token": self.auth.issue(pid)}
        pid = new_player_id()
        nick = nick or f"游客{secrets.randbelow(9000) + 1000}"
        self.players[pid] = nick

        def write(s: Session) -> None:
            s.add(db.PlayerRow(id=pid, nickname=nick))

        await self.writer.write(write)
        return {"player_id": pid, "nickname": nick, "token": self.auth.issue(pid)}

    # ------------------------------------------------------------- queries
    def list_rooms(self) -> list[dict[str, Any]]:
        out = []
        for r in self.rooms.values():
            out.append({"code": r.code, "status": r.status, "preset": r.settings.preset,
                        "rounds": r.settings.rounds, "match_id": r.match_id,
                        "players": [s.nickname or (s.bot and f"bot:{s.bot}") or None for s in r.seats]})
        out.sort(key=lambda d: (d["status"] != "lobby", d["code"]))
        return out[:200]

    async def room_info(self, code: str) -> dict[str, Any] | None:
        room = self.rooms.get(code.upper())
        return None if room is None else room.lobby_json()

    async def replay(self, match_id: int) -> dict[str, Any] | None:
        def load() -> dict[str, Any] | None:
            with Session(self.engine) as s:
                m = s.get(db.MatchRow, match_id)
                if m is None:
                    return None
                journal = [a.action for a in s.scalars(
                    select(db.ActionRow).where(db.ActionRow.match_id == m.id).order_by(db.ActionRow.n))]
                frames = hand_frames(RuleSet(**m.rules), bytes.fromhex(m.seed), journal,
                                     max_hands=m.max_hands)
                return {"match_id": m.id, "room": m.room_code, "status": m.status,
                        "seats": m.seats, "scores": m.scores,
                        "hands": [{"hand": h, "frames": f} for h, f in sorted(frames.items())]}

        return await asyncio.to_thread(load)

    # ------------------------------------------------------------- websocket
    async def serve_ws(self, ws: WebSocket) -> None:
        await ws.accept()
        conn = Conn(self, ws)
        sender = asyncio.ensure_future(conn.sender())
        try:
            while not conn.closed:
                try:
                    msg = await ws.receive()
                except (WebSocketDisconnect, RuntimeError):
                    break
                if msg["type"] == "websocket.disconnect":
                    break
                raw = msg.get("text")
                if raw is None:
                    raw = msg.get("bytes")
                if raw is None:
                    continue
                if not conn.throttle():
                    conn.error("rate_limited", "too many messages; slow down")
                    continue
                try:
                    m = parse_client_message(raw)
                    await self.dispatch(conn, m)
                except ProtocolError as exc:
                    self.stats["errors"] += 1
                    conn.error(exc.code, exc.message)
                except Exception:  # noqa: BLE001 - one bad command must not drop the socket
                    self.stats["errors"] += 1
                    log.exception("conn %s: command failed", conn.id)
                    conn.error("internal", "the server could not process that message")
        finally:
            await self.disconnected(conn)
            conn.close()
            with contextlib.suppress(Exception):
                await asyncio.wait_for(sender, 2)

    async def disconnected(self, conn: Conn) -> None:
        room = conn.room
        if room is None:
            return
        async with room.lock:
            room.conns.discard(conn)
            pid = conn.player_id
            seat = room.seat_of(pid)
            still = any(c.player_id == pid and not c.closed for c in room.conns)
            if seat is not None and not still and room.status == "playing":
                room.seats[seat].disconnected_at = time.monotonic()
                room.schedule()
            room.broadcast_lobby()

    # ------------------------------------------------------------- dispatch
    async def dispatch(self, conn: Conn, m: Any) -> None:
        t = m.type
        if t == "ping":
            conn.send({"type": "pong", "t": m.t})
            return
        if t == "hello":
            try:
                info = await self.guest(m.token, m.nickname)
            except ValueError as exc:
                raise ProtocolError("bad_nickname", str(exc)) from None
            conn.player_id = info["player_id"]
            conn.nickname = info["nickname"]
            conn.send({"type": "welcome", **info, "bot_levels": self.bot_levels(),
                       "phrases": {k: list(v) for k, v in QUICK_PHRASES.items()}})
            return
        if conn.player_id is None:
            raise ProtocolError("hello_first", "say hello first (with your token or a nickname)")
        if t == "create":
            await self.create_room(conn, m.settings)
            return
        if t == "join":
            await self.join(conn, m.room, m.spectate)
            return
        room = conn.room
        if room is None:
            raise ProtocolError("no_room", "join a room first")
        async with room.lock:
            if conn.room is not room:  # left while waiting
                raise ProtocolError("no_room", "join a room first")
            handler = getattr(self, f"_on_{t}")
            await handler(conn, room, m)

    async def create_room(self, conn: Conn, settings: RoomSettings) -> None:
        try:
            RuleSet.preset(settings.preset, **{**settings.options, "rounds": settings.rounds,
                                               **({"claim_seconds": settings.claim_seconds}
                                                  if settings.claim_seconds else {})})
        except LaiziError as exc:
            raise ProtocolError("bad_settings", str(exc)) from None
        for _ in range(100):
            code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LEN))
            if code not in self.rooms:
                break
        room = Room(self, code, settings, conn.player_id)
        self.rooms[code] = room
        await room.save_room()
        await self.join(conn, code, False)

    async def join(self, conn: Conn, code: str, spectate: bool) -> None:
        code = code.strip().upper()
        room = self.rooms.get(code)
        if room is None:
            raise ProtocolError("unknown_room", f"no room with code {code[:8]!r}")
        old = conn.room
        if old is not None and old is not room:
            async with old.lock:
                old.conns.discard(conn)
                old.broadcast_lobby()
        async with room.lock:
            conn.room = room
            room.conns.add(conn)
            seat = None if spectate else room.seat_of(conn.player_id)
            conn.seat = seat if room.game is not None else None
            conn.sent_v = 0
            if seat is not None and room.status == "playing":
                room.seats[seat].disconnected_at = None
                room.schedule()
            conn.send({"type": "joined", "room": room.lobby_json(), "seat": seat,
                       "chat": room.chat_log[-30:]})
            if room.game is not None:
                msg = room.frame(conn, "snapshot")
                if msg:
                    conn.send(msg)
            room.broadcast_lobby()

    # ------------------------------------------------------------- lobby commands
    def _lobby_only(self, room: Room) -> None:
        if room.status != "lobby":
            raise ProtocolError("match_started", "the match has already started")

    async def _on_sit(self, conn: Conn, room: Room, m: Any) -> None:
        self._lobby_only(room)
        seat = room.seats[m.seat]
        if seat.player_id == conn.player_id:
            return
        if not seat.empty:
            raise ProtocolError("seat_taken", f"seat {m.seat} is taken")
        old = room.seat_of(conn.player_id)
        if old is not None:
            room.seats[old] = Seat()
        room.seats[m.seat] = Seat(player_id=conn.player_id, nickname=conn.nickname)
        await room.save_room()
        room.broadcast_lobby()

    async def _on_stand(self, conn: Conn, room: Room, m: Any) -> None:
        self._lobby_only(room)
        old = room.seat_of(conn.player_id)
        if old is not None:
            room.seats[old] = Seat()
            await room.save_room()
        room.broadcast_lobby()

    async def _on_bot(self, conn: Conn, room: Room, m: Any) -> None:
        self._lobby_only(room)
        seat = room.seats[m.seat]
        if m.level is None:
            if seat.bot is None:
                raise ProtocolError("no_bot", f"no bot on seat {m.seat}")
            room.seats[m.seat] = Seat()
        else:
            if m.level not in self.bot_levels():
                raise ProtocolError("bad_bot", f"unknown bot level {m.level!r} "
                                                f"(choose from {', '.join(self.bot_levels())})")
            if seat.player_id is not None:
                raise ProtocolError("seat_taken", f"seat {m.seat} is taken by a player")
            room.seats[m.seat] = Seat(bot=m.level, nickname=f"bot·{m.level}")
        await room.save_room()
        room.broadcast_lobby()

    async def _on_start(self, conn: Conn, room: Room, m: Any) -> None:
        self._lobby_only(room)
        if any(s.empty for s in room.seats):
            raise ProtocolError("seats_empty", "fill every seat (players or bots) before starting")
        await room.start_match()

    # ------------------------------------------------------------- game commands
    def _game(self, conn: Conn, room: Room) -> tuple[GameSession, int]:
        g = room.game
        if g is None or room.status == "lobby":
            raise ProtocolError("not_started", "the match has not started")
        seat = room.seat_of(conn.player_id)
        if seat is None or conn.seat is None:
            raise ProtocolError("not_seated", "spectators cannot act")
        return g, seat

    async def _on_action(self, conn: Conn, room: Room, m: Any) -> None:
        g, seat = self._game(conn, room)
        pid = conn.player_id
        assert pid is not None
        last = room.last_seq.get(pid, 0)
        if m.seq <= last:
            if m.seq == last:
                conn.send({"type": "ack", "seq": m.seq, "duplicate": True, "v": g.stream_v(seat)})
                return
            raise ProtocolError("stale_seq", f"sequence number {m.seq} is stale (last applied {last})")
        if g.over:
            raise ProtocolError("match_over", "the match is over")
        cur_v = g.stream_v(seat)
        if m.version is not None and m.version != cur_v:
            conn.error("stale_version", f"your table is at version {m.version}, the server at "
                                        f"{cur_v}; resynchronising", ref=m.seq)
            msg = room.frame(conn, "snapshot")
            if msg:
                conn.send(msg)
            return
        try:
            action = Action.from_json(m.action)
        except ValueError as exc:
            raise ProtocolError("bad_action", str(exc)) from None
        before = set(g.to_act())
        if g.match.auto[seat] and not room.seats[seat].escaped:
            g.set_auto(seat, False)  # acting again ends 托管
            room.note_op({"source": "player", "player_id": pid})
        try:
            g.act(seat, action)
        except OpError as exc:
            room.push_updates()
            raise ProtocolError(exc.code, str(exc)) from None
        room.last_seq[pid] = m.seq
        room.note_op({"source": "player", "player_id": pid, "seq": m.seq, "v": g.stream_v(seat)})
        room.reset_deadlines(before - {seat})
        self.stats["actions"] += 1
        await room.after_change()
        conn.send({"type": "ack", "seq": m.seq, "v": g.stream_v(seat)})

    async def _on_resync(self, conn: Conn, room: Room, m: Any) -> None:
        conn.send({"type": "room", "room": room.lobby_json()})
        msg = room.frame(conn, "snapshot")
        if msg:
            conn.send(msg)

    async def _on_auto(self, conn: Conn, room: Room, m: Any) -> None:
        g, seat = self._game(conn, room)
        if room.seats[seat].escaped:
            raise ProtocolError("escaped", "you left this match")
        if g.set_auto(seat, m.on):
            room.note_op({"source": "player", "player_id": conn.player_id})
            if not m.on:
                room.reset_deadlines(set(g.to_act()) - {seat})
            await room.after_change()
            room.broadcast_lobby()

    async def _on_hints(self, conn: Conn, room: Room, m: Any) -> None:
        conn.hints = m.on
        if room.game is not None:
            msg = room.frame(conn, "snapshot")
            if msg:
                conn.send(msg)

    async def _on_chat(self, conn: Conn, room: Room, m: Any) -> None:
        if (m.text is None) == (m.phrase is None):
            raise ProtocolError("bad_chat", "send either text or a quick phrase")
        try:
            if m.phrase is not None:
                if m.phrase not in QUICK_PHRASES:
                    raise ChatError("bad_phrase", f"unknown quick phrase {m.phrase!r}")
                text = QUICK_PHRASES[m.phrase][0]
            else:
                text = clean_text(m.text)
        except ChatError as exc:
            raise ProtocolError(exc.code, str(exc)) from None
        key = f"{room.code}:{conn.player_id}"
        if not self.chat_limiter.allow(key):
            wait = self.chat_limiter.retry_after(key)
            raise ProtocolError("chat_rate", f"at most 5 chat messages per 10 seconds; wait {wait:.1f} s")
        entry = {"type": "chat", "from": conn.nickname, "player_id": conn.player_id,
                 "seat": room.seat_of(conn.player_id), "text": text, "phrase": m.phrase,
                 "t": time.time()}
        room.chat_log.append(entry)
        del room.chat_log[:-100]
        code, pid, nick, phrase = room.code, conn.player_id, conn.nickname, m.phrase

        def write(s: Session) -> None:
            s.add(db.ChatRow(room_code=code, player_id=pid, nickname=nick, text=text, phrase=phrase))

        await self.writer.write(write)
        text = dumps(entry)
        for c in list(room.conns):
            c.send(text)

    async def _on_leave(self, conn: Conn, room: Room, m: Any) -> None:
        seat = room.seat_of(conn.player_id)
        g = room.game
        if room.status == "lobby":
            if seat is not None:
                room.seats[seat] = Seat()
                await room.save_room()
        elif room.status == "playing" and seat is not None and g is not None and not g.over:
            # Escape: penalty, and a bot takes the seat for good.
            before = set(g.to_act())
            g.escape(seat)
            room.note_op({"source": "escape", "player_id": conn.player_id})
            room.seats[seat].escaped = True
            room.seats[seat].disconnected_at = None
            room.reset_deadlines(before - {seat})
            for c in room.conns:
                if c.player_id == conn.player_id:
                    c.seat = None
            await room.after_change()
        room.conns.discard(conn)
        conn.room = None
        conn.seat = None
        conn.send({"type": "left", "room": room.code})
        room.broadcast_lobby()


def _set_nick(pid: str, nick: str):  # type: ignore[no-untyped-def]
    def write(s: Session) -> None:
        p = s.get(db.PlayerRow, pid)
        if p is not None:
            p.nickname = nick
            p.last_seen = datetime.now(UTC)

    return write
