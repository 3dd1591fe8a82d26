"""Quick match (快速开始): one waiting queue per level (场次, :data:`laizi.server.ledger.coins.LEVELS`).

A player joins a level's queue (``POST /api/quick``); it must be registered for a coin
level, hold the level's minimum balance, have the game's WebSocket open (the table is
announced on it) and hold no seat in a match in play. Four waiting players make a table at once; otherwise, when the first in
the queue has waited :attr:`QuickMatch.wait` seconds (``LAIZI_QUICK_WAIT``, default
:data:`QUICK_WAIT`), everyone waiting sits down and bots fill the other seats. Seats are
drawn at random (``secrets``).

The table is a room opened through the hub (private: not listed; no host), the match
starts at once, and each player gets ``{"type": "quick_match", "room", "level", "seat"}``
on its connections and joins the room like any other (``join``). A player who does not
come goes to 托管 after the server's disconnect grace. Rooms of a coin level are recorded
in ``coin_tables`` before the start, so their hands settle in coins
(:func:`laizi.server.ledger.coins.settle_progress`), and are rated.

Table settings: preset ``kaikoufan``, one round; ``LAIZI_QUICK_HANDS`` caps the hands
(default: no cap), ``LAIZI_QUICK_TURN`` sets the turn timer (default 20 s).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import secrets
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from laizi.server.common import protocol as proto
from laizi.server.common.errors import ApiError
from laizi.server.common.protocol import RoomSettings, error_msg
from laizi.server.ledger import coins
from laizi.server.persistence import db
from laizi.server.persistence.socialdb import CoinTableRow
from laizi.server.social.presence import LocalPresence, Presence
from laizi.server.tables.seats import AUTO_BOT, Seat

if TYPE_CHECKING:
    from laizi.server.tables.hub import Hub

__all__ = ["QUICK_WAIT", "QuickError", "QuickMatch"]

log = logging.getLogger("laizi.server")

QUICK_WAIT = 10.0      # seconds the first waiting player waits before bots fill the table
SEATED_KEEP = 600.0    # seconds a player's last table is remembered (GET /api/quick)


class QuickError(ApiError):
    """A refused quick-match request."""


@dataclass
class Waiter:
    pid: str
    nickname: str
    since: float


def _env_float(name: str, default: float, lo: float, hi: float) -> float:
    raw = os.environ.get(name)
    if not raw:
        return default
    try:
        v = float(raw)
    except ValueError:
        raise ValueError(f"{name} must be a number, not {raw!r}") from None
    if not lo <= v <= hi:
        raise ValueError(f"{name} must be from {lo:g} to {hi:g}")
    return v


table_info = coins.table_info  # the 场次 a room shows (its home: laizi.server.ledger.coins)


class QuickMatch:
    def __init__(self, hub: Hub, presence: Presence | None = None) -> None:
        self.hub = hub
        self.presence: Presence = presence or LocalPresence(hub)
        self.wait = _env_float("LAIZI_QUICK_WAIT", QUICK_WAIT, 0.0, 600.0)
        hands = _env_float("LAIZI_QUICK_HANDS", 0, 0, 400)
        self.max_hands = int(hands) or None
        self.turn = _env_float("LAIZI_QUICK_TURN", 20.0, 0.5, 600.0)
        self.queues: dict[str, list[Waiter]] = {name: [] for name in coins.LEVELS}
        self.timers: dict[str, asyncio.TimerHandle] = {}
        self.seated: dict[str, dict[str, Any]] = {}
        self.lock = asyncio.Lock()
        self._tasks: set[asyncio.Task[None]] = set()

    # ------------------------------------------------------------- requests
    def _registered(self, pid: str) -> bool:
        with self.hub.store.engine.connect() as conn:
            return conn.execute(select(db.AccountRow.player_id)
                                .where(db.AccountRow.player_id == pid)).first() is not None

    def _balance(self, pid: str) -> tuple[int, str | None]:
        """The balance of ``pid`` and the coin table it sits at (on any node)."""
        with self.hub.store.engine.connect() as conn:
            return coins.balances(conn, [pid])[pid], coins.seat_of(conn, pid)

    async def enqueue(self, pid: str, level_name: object) -> dict[str, Any]:
        level = coins.LEVELS.get(level_name) if isinstance(level_name, str) else None
        if level is None:
            raise QuickError(f"unknown level; one of {', '.join(coins.LEVELS)}")
        if not level.guests and pid not in self.hub.auth.accounts \
                and await asyncio.to_thread(self._registered, pid):
            self.hub.auth.accounts.add(pid)  # registered on another node a moment ago
        if not level.guests and pid not in self.hub.auth.accounts:
            raise QuickError(f"{level.label} is for registered players (guests play "
                             f"{coins.LEVELS['novice'].label})", 403)
        bal, busy = await asyncio.to_thread(self._balance, pid)
        if level.min_balance > 0 and bal < level.min_balance:
            raise QuickError(f"{level.label} needs {level.min_balance} coins; you have {bal} "
                             "(claim the daily top-up)", 403)
        busy = busy or self._playing_at(pid)
        if busy is not None:
            raise QuickError(f"you are playing at room {busy}: finish or leave that match first", 409)
        if not self.presence.where([pid], fresh=True)[pid]["online"]:
            raise QuickError("connect to the game first (the table is announced on the "
                             "WebSocket)", 409)
        async with self.lock:
            self._drop(pid)
            self.seated.pop(pid, None)
            q = self.queues[level.name]
            q.append(Waiter(pid, self.hub.players.get(pid, "?"), time.monotonic()))
            if len(q) >= 4:
                online = self.presence.where((w.pid for w in q), fresh=True)
                q[:] = [w for w in q if online[w.pid]["online"]]  # gone: no longer waiting
            if len(q) >= 4:
                await self._table(level.name, [q.pop(0) for _ in range(4)])
            self._arm(level.name)
        return self.status(pid)

    async def leave(self, pid: str) -> dict[str, Any]:
        async with self.lock:
            was = self._drop(pid)
            self._arm_all()
        return {"ok": True, "left": was}

    def status(self, pid: str) -> dict[str, Any]:
        now = time.monotonic()
        for name, q in self.queues.items():
            for w in q:
                if w.pid == pid:
                    return {"status": "waiting", "level": name, "waiting": len(q),
                            "waited": round(now - w.since, 1),
                            "bots_in": round(max(0.0, q[0].since + self.wait - now), 1)}
        s = self.seated.get(pid)
        if s is not None and now - s["at"] < SEATED_KEEP:
            return {"status": "seated", "room": s["room"], "level": s["level"], "seat": s["seat"]}
        return {"status": "idle"}

    def queue_sizes(self) -> dict[str, int]:
        return {name: len(q) for name, q in self.queues.items()}

    def _playing_at(self, pid: str) -> str | None:
        """The room of a match in play where ``pid`` still holds a seat (not escaped)."""
        for room in self.hub.rooms.values():
            if room.status == "playing" and room.seat_of(pid) is not None:
                return room.code
        return None

    # ------------------------------------------------------------- queue
    def _drop(self, pid: str) -> bool:
        found = False
        for q in self.queues.values():
            for w in [w for w in q if w.pid == pid]:
                q.remove(w)
                found = True
        return found

    def _arm_all(self) -> None:
        for name in self.queues:
            self._arm(name)

    def _arm(self, name: str) -> None:
        t = self.timers.pop(name, None)
        if t is not None:
            t.cancel()
        q = self.queues[name]
        if not q:
            return
        delay = max(0.0, q[0].since + self.wait - time.monotonic())
        self.timers[name] = asyncio.get_running_loop().call_later(delay, self._fire, name)

    def _fire(self, name: str) -> None:
        self.timers.pop(name, None)
        task = asyncio.ensure_future(self._due(name))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _due(self, name: str) -> None:
        try:
            async with self.lock:
                q = self.queues[name]
                online = self.presence.where((w.pid for w in q), fresh=True)
                q[:] = [w for w in q if online[w.pid]["online"]]  # gone: no longer waiting
                if q and time.monotonic() - q[0].since >= self.wait - 0.01:
                    await self._table(name, [q.pop(0) for _ in range(min(4, len(q)))])
                self._arm(name)
        except Exception:  # noqa: BLE001 - a failed table must not stop the queue
            log.exception("quick match %s: could not make a table", name)
            with contextlib.suppress(Exception):
                self._arm(name)

    async def _table(self, name: str, waiters: list[Waiter]) -> None:
        """Seat ``waiters`` (1-4) at a new room of level ``name``, bots on the other seats."""
        level = coins.LEVELS[name]
        settings = RoomSettings.model_validate({
            "preset": "kaikoufan", "rounds": 1, "max_hands": self.max_hands,
            "turn_seconds": self.turn, "private": True, "rated": level.stake > 0})
        room = await self.hub.open_room(settings)
        room.coin = table_info(name)
        if level.stake > 0:
            def write(s: Session) -> None:
                s.add(CoinTableRow(room_code=room.code, level=name, stake=level.stake))

            await self.hub.store.writer.write(write)
        order = list(range(4))
        secrets.SystemRandom().shuffle(order)
        where: dict[str, int] = {}
        seats = [Seat(bot=AUTO_BOT) for _ in range(4)]
        for i, w in enumerate(waiters):
            seats[order[i]] = Seat(player_id=w.pid, nickname=w.nickname, ready=True)
            where[w.pid] = order[i]
        async with room.lock:
            # not in the room yet: 托管 after the grace unless they come
            try:
                await room.seat_and_start(seats, absent_wait=True)  # a coin level: coin seats first
            except coins.CoinError as exc:
                # another node seated one of them meanwhile, or a balance fell: a bot instead
                log.info("quick match %s: room %s: %s", name, room.code, exc.message)
                for pid in exc.refused:
                    if pid in where:
                        seats[where.pop(pid)] = Seat(bot=AUTO_BOT)
                        self.presence.push(pid, error_msg("quick_refused", exc.message))
                if not where:  # nobody left to play: no table of bots alone
                    await self.hub.close_room(room)
                    return
                await room.seat_and_start(seats, absent_wait=True)
        at = time.monotonic()
        for pid, seat in where.items():
            self.seated[pid] = {"room": room.code, "level": name, "seat": seat, "at": at}
            self.presence.push(pid, proto.quick_match(room.code, name, level.label, level.stake, seat))
        log.info("quick match %s: room %s, %d players, %d bots", name, room.code, len(waiters),
                 4 - len(waiters))

    async def restore_tables(self) -> int:
        """After a restart: the resumed rooms that are coin tables get their 场次 back
        (``Room.coin``, shown on the table); how many."""
        codes = list(self.hub.rooms)
        if not codes:
            return 0

        def read() -> list[tuple[str, str]]:
            with self.hub.store.engine.connect() as conn:
                rows = conn.execute(select(coins.TABLES.c.room_code, coins.TABLES.c.level)
                                    .where(coins.TABLES.c.room_code.in_(codes))).all()
            return [(str(c), str(lv)) for c, lv in rows]

        n = 0
        for code, name in await asyncio.to_thread(read):
            room = self.hub.rooms.get(code)
            if room is not None and name in coins.LEVELS:
                room.coin = table_info(name)
                n += 1
        return n

    def stop(self) -> None:
        for t in self.timers.values():
            t.cancel()
        self.timers.clear()
