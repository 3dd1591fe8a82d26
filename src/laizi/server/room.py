"""A room: lobby (seats, bots, settings), then one match with its timers and bots; the
flow around the match (ready, 继续, rematch, lapses) is :mod:`laizi.server.flow`.

**A room processes its commands one at a time** (an :class:`asyncio.Lock` around every
command, timer and bot move); rooms never wait for each other. It reaches the rest of the
server only through the callbacks it is given. Order inside a command: apply to the
engine → write the journal and the new events to the database (awaited) → send each
connection its own frames → reschedule timers.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import time
from collections.abc import Callable
from typing import Any

from laizi.rules import RuleSet
from laizi.server import coins
from laizi.server.cluster.fence import Fenced
from laizi.server.config import ServerConfig, room_rules
from laizi.server.connection import Conn
from laizi.server.engine import GameSession, dumps, seed_from_text
from laizi.server.flow import Flow, resume_settlement
from laizi.server.protocol import RoomSettings
from laizi.server.recorder import Recorder
from laizi.server.roominfo import live_info, stored_info
from laizi.server.seats import AUTO_BOT, Seat, SeatBot, bot_levels, hints_for_view
from laizi.server.store import RoomRecord, Store

__all__ = ["MAX_STREAM_GAP", "Room"]

log = logging.getLogger("laizi.server")

MAX_STREAM_GAP = 200  # a connection further behind than this gets a snapshot instead
HINT_CACHE = 8        # (version, seat) hint texts kept per room


def _bot_seed(seed: bytes, seat: int) -> int:
    return random.Random(seed + bytes([seat])).randrange(2**31)


class Room:
    coin: dict[str, Any] | None = None  # polish: 场次 of a quick-match table (quickmatch.table_info)
    def __init__(self, code: str, settings: RoomSettings, owner_id: str | None, *,
                 cfg: ServerConfig, store: Store, stats: dict[str, float],
                 on_finished: Callable[[Room], None] | None = None) -> None:
        self.code = code
        self.settings = settings
        self.owner_id = owner_id
        self.cfg = cfg
        self.store = store
        self.stats = stats
        self.on_finished = on_finished
        self.status = "lobby"
        self.seats = [Seat() for _ in range(4)]
        self.match_id: int | None = None
        self.game: GameSession | None = None
        self.conns: set[Conn] = set()
        self.lock = asyncio.Lock()
        self.last_seq: dict[str, int] = {}
        self.bots: dict[int, SeatBot] = {}
        self.deadlines: dict[int, float] = {}
        self.flow = Flow(settings.continue_seconds, settings.auto_after_lapses)
        self.recorder = Recorder(code, store, self.broadcast)
        self.timer: asyncio.TimerHandle | None = None
        self._timer_task: asyncio.Task[None] | None = None
        self.chat_log: list[dict[str, Any]] = []
        self.bot_ready_at = 0.0  # bots wait bot_delay after the last change
        self._hints: dict[tuple[int, int], str] = {}
        self.rules: RuleSet = room_rules(settings)
        self.banned: set[str] = set()  # players the host kicked out
        self.idle_since: float | None = time.monotonic()  # no connection since (None: someone here)
        self.deal_seed: bytes | None = None  # hook (tournaments): the next match's secret seed
        self.fixed_dealers = False  # hook (tournaments): a duplicate round, no 连庄
        self.started_by = ""  # the address whose host started the match (bot-only tables' cap)

    def close(self) -> None:
        """Let go of everything (the room leaves memory; it lives on in the database)."""
        self.cancel_timer()
        for c in self.conns:
            if c.room_code == self.code:
                c.room_code = None
                c.seat = None
        self.conns.clear()
        self.game = None
        self.bots.clear()
        self._hints.clear()
        self.on_finished = None
        self.recorder.notify = lambda msg: None

    # ------------------------------------------------------------- host
    def is_host(self, player_id: str | None) -> bool:
        return player_id is not None and player_id == self.owner_id

    def present(self) -> list[str]:
        """Players with a live connection here: seated ones in seat order, then the others."""
        live = [c for c in sorted(self.conns, key=lambda c: c.id) if not c.closed and c.player_id]
        ids = {c.player_id for c in live}
        out = [s.player_id for s in self.seats
               if s.player_id in ids and not s.escaped and s.player_id is not None]
        for c in live:
            if c.player_id is not None and c.player_id not in out:
                out.append(c.player_id)
        return out

    def hand_on_host(self, leaving: str | None) -> bool:
        """The host left: the role passes to one still here (seated first); True if it did."""
        if leaving is None or leaving != self.owner_id:
            return False
        for pid in self.present():
            if pid != leaving:
                self.owner_id = pid
                return True
        return False

    # ------------------------------------------------------------- settings
    @property
    def bot_delay(self) -> float:
        d = self.settings.bot_delay
        return self.cfg.bot_delay if d is None else d

    def seat_of(self, player_id: str | None) -> int | None:
        if player_id is None:
            return None
        for i, s in enumerate(self.seats):
            if s.player_id == player_id and not s.escaped:
                return i
        return None

    def lobby_json(self) -> dict[str, Any]:
        return live_info(self)

    @staticmethod
    def stored_json(rec: RoomRecord) -> dict[str, Any]:
        """Room info of a room that is only in the database (a finished one)."""
        return stored_info(rec)

    def broadcast(self, msg: dict[str, Any]) -> None:
        text = dumps(msg)
        for c in list(self.conns):
            c.send(text)

    def broadcast_lobby(self) -> None:
        self.broadcast({"type": "room", "room": self.lobby_json()})

    def record(self) -> RoomRecord:
        return RoomRecord(code=self.code, owner_id=self.owner_id, status=self.status,
                          settings=self.settings.model_dump(),
                          seats=[s.to_json() for s in self.seats], match_id=self.match_id,
                          banned=sorted(self.banned))

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
        extra = self._timers_json(g)
        if seat is not None and conn.player_id is not None:
            extra += f',"last_seq":{self.last_seq.get(conn.player_id, 0)}'
            if conn.hints:
                extra += self._hints_json(g, seat)
        if self.settings.seed is not None:
            extra += f',"fixed_deal":{dumps(self.settings.seed)}'
        conn.sent_v = v
        return (f'{{"type":"{kind}","v":{v},"seat":{dumps(seat)},"view":{view},'
                f'"match_id":{dumps(self.match_id)},"events":[{",".join(events)}],'
                f'"deadline":{dumps(self.deadline_for(seat))}{extra}}}')

    def _timers_json(self, g: GameSession) -> str:
        """Public countdowns (:meth:`Flow.timers`) as extra frame keys."""
        d = self.flow.timers(g.phase, g.hand_over, g.over, self.deadlines, self.waiting(), time.monotonic())
        return "".join(f',"{k}":{dumps(v)}' for k, v in d.items())

    def waiting(self) -> list[int]:
        """Seats whose player must press 继续 (seated humans not in 托管)."""
        g = self.game
        return [s for s in range(4) if self.seats[s].human and not (g is not None and g.match.auto[s])]

    def send_snapshot(self, conn: Conn) -> None:
        msg = self.frame(conn, "snapshot")
        if msg:
            conn.send(msg)

    def _hints_json(self, g: GameSession, seat: int) -> str:
        """``,"hints":…`` for a seat with a decision to make (cached per version)."""
        key = (g.version, seat)
        out = self._hints.get(key)
        if out is None:
            if len(self._hints) > HINT_CACHE:
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
        if self.game is not None and self.match_id is not None:
            settled = await self.recorder.persist(
                self.game, self.match_id, [s.to_json() for s in self.seats],
                [s.player_id for s in self.seats], self.status)
            for res in settled:  # a coin table: what each seat won or paid, one's own balance
                for c in list(self.conns):
                    c.send(dumps(coins.news(res, self.match_id, c.player_id)))

    def note_op(self, meta: dict[str, Any]) -> None:
        """Attach who/why to the journal entry just appended (stored with it)."""
        assert self.game is not None
        self.recorder.note_op(len(self.game.journal) - 1, meta)

    async def save_room(self) -> None:
        rec = self.record()
        await self.recorder.durably(lambda retry: self.store.save_room(rec))

    # ------------------------------------------------------------- match
    async def start_match(self) -> None:
        """A new match with the seats as they are. At a coin table every human first takes
        its coin seat with the stake check (:meth:`Store.take_coin_seats`): a refusal raises
        :class:`laizi.server.coins.CoinError` and changes nothing."""
        await self.recorder.take_coin_seats(self.coin, [s.player_id for s in self.seats
                                                         if s.human and s.player_id])
        self.flow.new_match()
        for s in self.seats:
            s.ready, s.rematch = False, None  # the next match needs a new 准备 (or rematch vote)
        self.bots.clear()
        seed, self.deal_seed = self.deal_seed or seed_from_text(self.settings.seed), None  # hook (tournaments)
        self.game = GameSession(self.rules, seed, max_hands=self.settings.max_hands,
                                fixed_dealers=self.fixed_dealers)
        self.recorder.new_match()  # its counters belong to the match before
        for i, s in enumerate(self.seats):
            if s.bot:
                self.bots[i] = SeatBot(s.bot, _bot_seed(seed, i))
        self.status = "playing"
        rec, rules = self.record(), self.rules.model_dump(mode="json")
        self.match_id = await self.recorder.durably(
            lambda retry: self.store.create_match(rec, rules, seed, self.settings.max_hands,
                                                  self.fixed_dealers))
        await self.persist()
        for c in self.conns:
            c.seat = self.seat_of(c.player_id)
            c.sent_v = 0
        self.reset_deadlines(set())
        self.bot_ready_at = time.monotonic() + self.bot_delay
        self.broadcast_lobby()
        for c in list(self.conns):
            self.send_snapshot(c)
        self.schedule()

    @classmethod
    def resume(cls, rec: RoomRecord, **kw: Any) -> Room:
        """Rebuild a stored room (a match in play: its journal replayed, checked by the log)."""
        room = cls(rec.code, RoomSettings(**rec.settings), rec.owner_id, **kw)
        room.status = rec.status
        room.seats = [Seat.from_json(d) for d in rec.seats]
        room.match_id = rec.match_id
        room.banned = set(rec.banned)
        if rec.coin_level in coins.LEVELS:
            room.coin = coins.table_info(rec.coin_level)  # a coin table's 场次, on any node
        m = rec.match
        if rec.status not in ("playing", "finished") or m is None:
            return room
        rules = RuleSet(**m.rules)
        seed = bytes.fromhex(m.seed)
        game = GameSession.rebuild(rules, seed, m.journal, max_hands=m.max_hands,
                                   fixed_dealers=m.fixed_dealers)
        room.fixed_dealers = m.fixed_dealers
        stored = m.stored_events
        if stored != len(game.log):
            # Extra rebuilt events (a crash between two writes) are simply written now.
            log.warning("room %s: %d stored events, %d rebuilt", rec.code, stored, len(game.log))
        if m.last_event is not None and stored <= len(game.log) and game.log[stored - 1] != m.last_event:
            raise RuntimeError(f"room {rec.code}: replay differs from the stored event log")
        room.rules = rules
        room.game = game
        room.recorder.resume(game, len(m.journal), stored)
        room.last_seq = dict(m.last_seq)
        now = time.monotonic()
        for i, seat in enumerate(room.seats):
            if seat.player_id and not seat.escaped and not seat.bot:
                seat.disconnected_at = now  # nobody is connected after a restart
            if seat.bot:
                room.bots[i] = SeatBot(seat.bot, _bot_seed(seed, i))
        room.reset_deadlines(set())
        return resume_settlement(room)  # polish: 继续 votes stored on the seats survive a restart

    def bot_for(self, seat: int) -> SeatBot:
        b = self.bots.get(seat)
        if b is None:
            level = self.seats[seat].bot or AUTO_BOT
            if level not in bot_levels():
                level = bot_levels()[-1]
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
        claimish = g.phase in ("claim", "rob", "haidi")
        dur = self.rules.claim_seconds if claimish else self.settings.turn_seconds
        old = self.deadlines
        self.deadlines = {s: old[s] if s in keep and s in old else now + dur for s in g.to_act()}

    # ------------------------------------------------------------- timers
    def cancel_timer(self) -> None:
        if self.timer is not None:
            self.timer.cancel()
            self.timer = None

    def _due(self, g: GameSession, now: float) -> float | None:
        """When the room must next act by itself (a bot move, a deadline, a deal, 托管)."""
        grace = self.cfg.disconnect_grace
        due: float | None = None
        if g.hand_over:
            due = self.flow.arm(now, self.waiting(), self.cfg.hand_pause)
        else:
            for s in g.to_act():
                if self.bot_controlled(s):
                    cand = max(now, self.bot_ready_at)
                else:
                    cand = self.deadlines.get(s, now)
                    seat = self.seats[s]
                    if seat.disconnected_at is not None:
                        cand = min(cand, seat.disconnected_at + grace)
                due = cand if due is None else min(due, cand)
        for s in range(4):
            seat = self.seats[s]
            if seat.disconnected_at is not None and not g.match.auto[s]:
                t = seat.disconnected_at + grace
                due = t if due is None else min(due, t)
        return due

    def schedule(self) -> None:
        """(Re)arm the room's single timer for the next bot move, deadline or deal."""
        self.cancel_timer()
        g = self.game
        if g is None or self.status != "playing" or g.over:
            return
        now = time.monotonic()
        due = self._due(g, now)
        if due is None:
            return
        self.timer = asyncio.get_running_loop().call_later(max(0.0, due - now), self._fire)

    def _fire(self) -> None:
        self.timer = None
        self._timer_task = asyncio.ensure_future(self.on_timer())

    async def on_timer(self) -> None:
        try:
            async with self.lock:
                await self._tick()
        except Fenced:  # another node owns the room now (cluster): it leaves this one
            log.warning("room %s: a write was fenced; the room moved to another node", self.code)
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
                    and now >= seat.disconnected_at + self.cfg.disconnect_grace):
                g.set_auto(s, True)
                self.note_op({"source": "disconnect"})
                changed = True
        if g.hand_over:
            if self.flow.settled(now, self.waiting()):
                self.deal_next()
                changed = True
        elif self._bot_steps(g, now):
            changed = True
        if changed:
            await self.after_change()
        else:
            self.schedule()

    def deal_next(self) -> None:
        """Deal the next hand (the settlement is over)."""
        g = self.game
        assert g is not None
        self.flow.dealt()
        g.next_hand()
        self.note_op({"source": "server"})
        self.reset_deadlines(set())

    def _bot_steps(self, g: GameSession, now: float) -> bool:
        """Play the bot-controlled and timed-out seats (a few moves, a small time budget)."""
        steps = 0
        budget_end = time.perf_counter() + self.cfg.bot_tick_budget
        while (not g.hand_over and steps < self.cfg.bot_steps_per_tick
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
                    # a lapse: the bot plays this one move; repeated turn lapses → 托管
                    # (a claim window left to lapse is no sign of absence: not counted)
                    if g.phase not in ("claim", "rob") and self.flow.lapse(s) and g.set_auto(s, True):
                        self.note_op({"source": "timeout"})
                    self._bot_move(s, "timeout")
                    acted = True
                    break
            if not acted:
                break
            steps += 1
            if self.bot_delay > 0:
                break
        return steps > 0

    def _bot_move(self, seat: int, source: str) -> None:
        g = self.game
        assert g is not None
        before = set(g.to_act())
        action = self.bot_for(seat).choose(g, seat)
        g.act(seat, action)
        self.stats["bot_moves"] += 1
        self.note_op({"source": source})
        self.reset_deadlines(before - {seat})

    async def after_change(self) -> None:
        g = self.game
        assert g is not None
        if g.over and self.status == "playing":
            self.status = "finished"
            self.deadlines = {}
        if g.hand_over and not g.over:
            self.flow.arm(time.monotonic(), self.waiting(), self.cfg.hand_pause)
        await self.persist()
        self.bot_ready_at = time.monotonic() + self.bot_delay
        self.push_updates()
        if g.over:
            self.broadcast_lobby()
            if self.on_finished is not None:
                self.on_finished(self)
        self.schedule()
