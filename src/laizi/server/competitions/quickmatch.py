"""Quick match (快速开始): one waiting line per 场次 (level, :data:`laizi.server.ledger.coins.LEVELS`),
rule set (preset, :data:`laizi.rules.PRESETS`) and rank band (段位,
:func:`laizi.server.accounts.ranks.band_of`: 新手; 雀士; 雀杰; 雀豪 and 雀圣): the line
``"{level}:{preset}:{band}"``. Four waiting players of one band make a table at once; the
neighbouring bands (band ± 1) join only when the first in a line has waited its wait out,
when the line takes the longest waiting of them to fill its table before bots do.

A player joins a line (``POST /api/quick`` ``{level, preset}``; preset default
``kaikoufan``); it must be registered for a coin level, hold the level's minimum balance,
have the game's WebSocket open (the table is announced on it) and hold no seat in a match
in play. Four waiting players of a line make a table at once; otherwise, when the first in
the line has waited :attr:`QuickMatch.wait` seconds (``LAIZI_QUICK_WAIT``, default
:data:`QUICK_WAIT`), everyone waiting in it sits down with the longest waiting of the
neighbouring bands' lines, and bots fill the other seats. Seats are
drawn at random (``secrets``).

The lines are the room directory's (``hub.directory.lines``,
:mod:`laizi.server.tables.lines`): in memory for one process, in Redis for a cluster, so
players waiting on different nodes share a line. Taking a group out of a line is atomic;
the node that takes it opens the table (``Hub.open_table``: the room's lease is this
node's) and each player gets ``{"type": "quick_match", "room", "level", "preset", "seat"}``
on the node it waits on, then joins the room like any other (``join``; relayed to the
owner from another node). Each node keeps the timers of the players waiting on it and
drops those of them that went offline. A player who does not come goes to 托管 after the
server's disconnect grace. Rooms of a coin level are recorded in ``coin_tables`` before the
start, so their hands settle in coins (:func:`laizi.server.ledger.coins.settle_progress`),
and are rated.

Table settings: the line's preset, one round; ``LAIZI_QUICK_HANDS`` caps the hands
(default: no cap), ``LAIZI_QUICK_TURN`` sets the turn timer (default 20 s).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import secrets
import time
from typing import TYPE_CHECKING, Any

from sqlalchemy import select

from laizi.rules import PRESETS
from laizi.server.accounts.ranks import BANDS, band_of, rank_of_player
from laizi.server.common import protocol as proto
from laizi.server.common.config import room_rules
from laizi.server.common.errors import ApiError
from laizi.server.common.protocol import RoomSettings, error_msg
from laizi.server.ledger import coins
from laizi.server.persistence import db
from laizi.server.social.presence import LocalPresence, Presence
from laizi.server.tables.lines import WaitingLines
from laizi.server.tables.seating import Seating, bot_seat, player_seat
from laizi.server.tables.seats import AUTO_BOT

if TYPE_CHECKING:
    from laizi.server.tables.hub import Hub

__all__ = ["DEFAULT_PRESET", "QUICK_WAIT", "QuickError", "QuickMatch", "line_of", "near_lines",
           "parse_line"]

log = logging.getLogger("laizi.server")

DEFAULT_PRESET = "kaikoufan"
QUICK_WAIT = 10.0      # seconds the first waiting player waits before bots fill the table


class QuickError(ApiError):
    """A refused quick-match request."""


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


def line_of(level: str, preset: str, band: int = 0) -> str:
    return f"{level}:{preset}:{band}"


def parse_line(line: str) -> tuple[str, str, int]:
    """A line's level, preset and rank band."""
    level, preset, band = (line.split(":") + ["0", "0"])[:3]
    return level, preset, int(band) if band.isdigit() else 0


def near_lines(line: str) -> list[str]:
    """The lines of the neighbouring rank bands (same level and rule set)."""
    level, preset, band = parse_line(line)
    return [line_of(level, preset, b) for b in (band - 1, band + 1) if 0 <= b < BANDS]


class QuickMatch:
    def __init__(self, hub: Hub, presence: Presence | None = None) -> None:
        self.hub = hub
        self.presence: Presence = presence or LocalPresence(hub)
        self.wait = _env_float("LAIZI_QUICK_WAIT", QUICK_WAIT, 0.0, 600.0)
        hands = _env_float("LAIZI_QUICK_HANDS", 0, 0, 400)
        self.max_hands = int(hands) or None
        self.turn = _env_float("LAIZI_QUICK_TURN", 20.0, 0.5, 600.0)
        self.mine: dict[str, str] = {}  # players waiting on this node → their line
        self.timers: dict[str, asyncio.TimerHandle] = {}
        self.lock = asyncio.Lock()
        self._tasks: set[asyncio.Task[None]] = set()
        self._presets: list[dict[str, Any]] | None = None

    def settings(self, preset: str, rated: bool) -> RoomSettings:
        """The settings of a quick-match table of rule set ``preset``."""
        return RoomSettings.model_validate({
            "preset": preset, "rounds": 1, "max_hands": self.max_hands,
            "turn_seconds": self.turn, "private": True, "rated": rated})

    def presets(self) -> list[dict[str, Any]]:
        """The rule sets to pick, each with its card (zh, en): its minimum and cap, then
        how it differs from :data:`DEFAULT_PRESET` (``laizi.rulecatalog``)."""
        from laizi.rulecatalog import OPTIONS, Lang, catalogue, rule_card_items, value_words

        if self._presets is None:
            names = {p["id"]: p for p in catalogue()["presets"]}
            out = []
            for name in PRESETS:
                rules = room_rules(self.settings(name, False))
                card = {}
                langs: tuple[Lang, Lang] = ("zh", "en")
                for i, lang in enumerate(langs):
                    sep = ("：", ": ")[i]
                    items = [f"{(OPTIONS[o].zh, OPTIONS[o].en)[i]}{sep}"
                             f"{value_words(o, getattr(rules, o), lang)}" for o in ("min_points", "cap")]
                    items += [f"{it['label']}{sep}{it['words']}"
                              for it in rule_card_items(rules, lang, DEFAULT_PRESET)
                              if it["name"] not in ("min_points", "cap")]
                    card[lang] = " · ".join(items)
                out.append({"id": name, "zh": names[name]["zh"], "en": names[name]["en"], "card": card})
            self._presets = out
        return self._presets

    @property
    def lines(self) -> WaitingLines:
        return self.hub.directory.lines

    # ------------------------------------------------------------- requests
    def _registered(self, pid: str) -> bool:
        with self.hub.store.engine.connect() as conn:
            return conn.execute(select(db.AccountRow.player_id)
                                .where(db.AccountRow.player_id == pid)).first() is not None

    def _balance(self, pid: str) -> tuple[int, str | None, int]:
        """The balance of ``pid``, the coin table it sits at (on any node), its rank band."""
        with self.hub.store.engine.connect() as conn:
            return (coins.balances(conn, [pid])[pid], coins.seat_of(conn, pid),
                    band_of(rank_of_player(conn, pid)))

    async def enqueue(self, pid: str, level_name: object,
                      preset: object = DEFAULT_PRESET) -> dict[str, Any]:
        level = coins.LEVELS.get(level_name) if isinstance(level_name, str) else None
        if level is None:
            raise QuickError(f"unknown level; one of {', '.join(coins.LEVELS)}")
        if not isinstance(preset, str) or preset not in PRESETS:
            raise QuickError(f"unknown rule set; one of {', '.join(PRESETS)}")
        if not level.guests and pid not in self.hub.auth.accounts \
                and await asyncio.to_thread(self._registered, pid):
            self.hub.auth.accounts.add(pid)  # registered on another node a moment ago
        if not level.guests and pid not in self.hub.auth.accounts:
            raise QuickError(f"{level.label} is for registered players (guests play "
                             f"{coins.LEVELS['novice'].label})", 403, code="quick_registered_only", params={"level": level.label})
        bal, busy, band = await asyncio.to_thread(self._balance, pid)
        if level.min_balance > 0 and bal < level.min_balance:
            raise QuickError(f"{level.label} needs {level.min_balance} coins; you have {bal} "
                             "(claim the daily top-up)", 403, code="quick_needs_coins", params={"level": level.label, "min": level.min_balance, "have": bal})
        busy = busy or self._playing_at(pid)
        if busy is not None:
            raise QuickError(f"you are playing at room {busy}: finish or leave that match first", 409, code="quick_busy", params={"room": busy})
        if not self.presence.where([pid], fresh=True)[pid]["online"]:
            raise QuickError("connect to the game first (the table is announced on the "
                             "WebSocket)", 409, code="quick_connect")
        line = line_of(level.name, preset, band)
        async with self.lock:
            self.mine[pid] = line
            await self.lines.add(line, {"pid": pid, "nick": self.hub.players.get(pid, "?"),
                                        "since": time.time(), "node": self.hub.directory.name})
            await self._try(line, full_only=True)
            self._arm(line, await self.lines.peek(line))
        return await self.status(pid)

    async def leave(self, pid: str) -> dict[str, Any]:
        async with self.lock:
            self.mine.pop(pid, None)
            was = await self.lines.remove(pid)
        return {"ok": True, "left": was}

    async def status(self, pid: str) -> dict[str, Any]:
        """``pid`` waiting in a line, seated by one (``in_play``: its match goes on — the lobby
        offers the way back to it, after a reload elsewhere or another device), or idle."""
        rec = await self.lines.find(pid)
        if rec is None or "seated" in rec:
            busy = self._playing_at(pid)
            if busy is None:  # a coin table of another node's (this node's rooms know their
                # seats at once; the coin seat of an escape is let go by the writer a moment later)
                seat = await asyncio.to_thread(self._coin_seat, pid)
                busy = seat if seat is not None and seat not in self.hub.rooms else None
            if busy is not None:
                seated = rec["seated"] if rec is not None and rec["seated"].get("room") == busy else {}
                return {"status": "seated", **seated, "room": busy, "in_play": True}
            if rec is None:
                return {"status": "idle"}
            return {"status": "seated", **rec["seated"], "in_play": False}
        line = str(rec["line"])
        level, preset, band = parse_line(line)
        if pid not in self.mine and self.presence.where([pid])[pid]["online"]:
            # waiting, and connected here now (its node stopped, or it moved): this node
            # keeps its line's timer from now on, and tells it here when it is seated
            async with self.lock:
                self.mine[pid] = line
                self._arm(line, await self.lines.peek(line))
        n, head = await self.lines.peek(line)
        now = time.time()
        return {"status": "waiting", "level": level, "preset": preset, "band": band, "waiting": n,
                "waited": round(max(0.0, now - float(rec["since"])), 1),
                "bots_in": round(max(0.0, (head or now) + self.wait - now), 1)}

    async def queue_sizes(self) -> dict[str, dict[str, int]]:
        """How many wait in each 场次 × rule set queue (every level and preset, zeros
        included; the cluster's when the lines are in Redis)."""
        out = {lv: dict.fromkeys(PRESETS, 0) for lv in coins.LEVELS}
        for line, n in (await self.lines.sizes()).items():
            level, preset, _ = parse_line(line)
            if level in out and preset in out[level]:
                out[level][preset] += n
        return out

    def _coin_seat(self, pid: str) -> str | None:
        """The coin table ``pid`` holds a seat at while its match is in play (any node)."""
        with self.hub.store.engine.connect() as conn:
            return coins.seat_of(conn, pid)

    def _playing_at(self, pid: str) -> str | None:
        """The room of a match in play where ``pid`` still holds a seat (not escaped)."""
        for room in self.hub.rooms.values():
            if room.status == "playing" and room.seat_of(pid) is not None:
                return room.code
        return None

    # ------------------------------------------------------------- lines
    async def _prune(self, line: str) -> None:
        """This node's waiters of ``line`` that went offline, or were taken elsewhere, out."""
        pids = [p for p, ln in self.mine.items() if ln == line]
        online = self.presence.where(pids, fresh=True)
        for p in pids:
            rec = await self.lines.find(p)
            if rec is None or rec.get("line") != line:
                self.mine.pop(p, None)  # seated (by any node) or gone
            elif not online[p]["online"]:
                self.mine.pop(p, None)
                await self.lines.remove(p)

    async def _try(self, line: str, *, full_only: bool = False) -> None:
        """Take a table's worth of ``line`` if there is one (four, or anyone due: then with
        the neighbouring bands' longest waiting)."""
        due = -1.0 if full_only else time.time() - self.wait + 0.01
        near = [] if full_only else near_lines(line)
        while True:
            got = await self.lines.take(line, 4, due, near)
            if not got:
                return
            for e in got:
                self.mine.pop(e["pid"], None)
            await self._table(line, got)
            if len(got) < 4:
                return

    def _arm(self, line: str, state: tuple[int, float | None]) -> None:
        t = self.timers.pop(line, None)
        if t is not None:
            t.cancel()
        n, head = state
        if not n or head is None or line not in self.mine.values():
            return  # only the nodes with players in the line keep its timer
        delay = max(0.0, head + self.wait - time.time())
        self.timers[line] = asyncio.get_running_loop().call_later(delay, self._fire, line)

    def _fire(self, line: str) -> None:
        self.timers.pop(line, None)
        task = asyncio.ensure_future(self._due(line))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _due(self, line: str) -> None:
        try:
            async with self.lock:
                await self._prune(line)
                await self._try(line)
                self._arm(line, await self.lines.peek(line))
        except Exception:  # noqa: BLE001 - a failed table must not stop the line
            log.exception("quick match %s: could not make a table", line)
            with contextlib.suppress(Exception):
                self._arm(line, (1, time.time()))  # try again after a wait

    async def _table(self, line: str, waiters: list[dict[str, Any]]) -> None:
        """Seat ``waiters`` (1-4) at a new room of ``line``, bots on the other seats."""
        name, preset, _ = parse_line(line)
        level = coins.LEVELS[name]
        order = list(range(4))
        secrets.SystemRandom().shuffle(order)
        where = {str(e["pid"]): order[i] for i, e in enumerate(waiters)}
        entries = {str(e["pid"]): e for e in waiters}
        at = {where[pid]: e for pid, e in entries.items()}
        seats = tuple(player_seat(e["pid"], e["nick"], ready=True) if (e := at.get(i)) is not None
                      else bot_seat(AUTO_BOT) for i in range(4))

        def refused(seating: Seating, exc: coins.CoinError) -> Seating | None:
            # another node seated one of them meanwhile, or a balance fell: a bot instead
            for pid in exc.refused:
                if where.pop(pid, None) is not None:
                    self.lines.tell(entries[pid], error_msg("quick_refused", exc.message))
            return seating.instead(exc.refused, bot_seat(AUTO_BOT)) if where else None

        # not in the room yet: 托管 after the grace unless they come; a coin level: coin
        # seats first (nobody left to play after a refusal: no table of bots alone)
        room = await self.hub.open_table(self.settings(preset, level.stake > 0),
                                         Seating(seats, absent_wait=True), coin_level=name,
                                         refused=refused)
        if room is None:
            return
        for pid, seat in where.items():
            await self.lines.note(pid, {"room": room.code, "level": name, "preset": preset,
                                        "seat": seat})
            self.lines.tell(entries[pid], proto.quick_match(room.code, name, level.label,
                                                            level.stake, seat, preset))
        log.info("quick match %s: room %s, %d players, %d bots", line, room.code, len(waiters),
                 4 - len(waiters))

    def stop(self) -> None:
        for t in self.timers.values():
            t.cancel()
        self.timers.clear()
