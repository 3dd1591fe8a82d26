"""A room: lobby (seats, bots, settings), then one match with its timers and bots; the
flow around the match (ready, 继续, rematch, lapses) is :mod:`laizi.server.tables.flow`.

**A room is an actor.** Whatever changes its match goes through one of its commands —
:meth:`Room.play`, :meth:`Room.escape`, :meth:`Room.set_auto`, :meth:`Room.press_continue`,
:meth:`Room.seat_and_start` (who sits: a ``tables.seating.Seating``) — or its own timer (bot
moves, lapses, 托管, the next deal); its lobby and votes through their own (``tables.lobby``,
``tables.votes``). Each command runs under the room's lock (``room.lock``: the socket
handlers' dispatch holds it; ``Hub.open_table`` and the tournament director take it), one at a
time; rooms never wait for each other. Every change of the match takes the same steps
(:meth:`Room._step`): note who must act, apply to the engine, note the journal entry's origin,
renew the deadlines — then (:meth:`Room._after_change`) write the journal and the new events
to the database (awaited), send each connection its own frames, rearm the timer. The room
reaches the rest of the server only through what it is given (store, config,
``hold`` — the room directory's lease check — and ``on_finished``).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import time
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from typing import Any

from laizi.game import Action
from laizi.rules import RuleSet
from laizi.server.common.config import ServerConfig, room_rules
from laizi.server.common.connection import Conn
from laizi.server.common.connset import ConnSet
from laizi.server.common.protocol import ProtocolError, RoomSettings, RoomStatus
from laizi.server.ledger import coins
from laizi.server.persistence.fencing import Fenced
from laizi.server.persistence.store import RoomRecord, Store
from laizi.server.tables.engine import GameSession, OpError, dumps, seed_from_text
from laizi.server.tables.flow import Flow, resume_settlement, vote_key
from laizi.server.tables.framing import MAX_STREAM_GAP, RoomFrames
from laizi.server.tables.lobby import LobbyCommands
from laizi.server.tables.recorder import Recorder
from laizi.server.tables.roominfo import live_info, stored_info
from laizi.server.tables.roomwire import send_room
from laizi.server.tables.seating import Seating
from laizi.server.tables.seats import AUTO_BOT, Seat, SeatBot, bot_levels
from laizi.server.tables.votes import VoteCommands

__all__ = ["MAX_STREAM_GAP", "Played", "Room"]

log = logging.getLogger("laizi.server")



def stored_settings(settings: RoomSettings) -> dict[str, Any]:
    """A room's settings as stored: the club fields only when set, so a server of the
    previous version (which forbids unknown fields) still loads every other room."""
    return settings.model_dump(exclude={k for k in ("bots_fill", "club") if getattr(settings, k) is None})


def _bot_seed(seed: bytes, seat: int) -> int:
    return random.Random(seed + bytes([seat])).randrange(2**31)


async def _always(code: str) -> bool:
    return True


@dataclass(frozen=True)
class Played:
    """The outcome of :meth:`Room.play`: the seat's stream version after it, and whether the
    action was a repeat (``duplicate``, applied before) or made on an older table
    (``stale_version``: nothing applied, the client resynchronises)."""

    v: int
    duplicate: bool = False
    stale_version: bool = False


class Room(LobbyCommands, VoteCommands, RoomFrames):
    def __init__(self, code: str, settings: RoomSettings, owner_id: str | None, *,
                 cfg: ServerConfig, store: Store, stats: dict[str, float],
                 on_finished: Callable[[Room], None] | None = None,
                 hold: Callable[[str], Awaitable[bool]] = _always,
                 conn_index: ConnSet[Conn] | None = None) -> None:
        self.code = code
        self.settings = settings
        self.owner_id = owner_id
        self.cfg = cfg
        self.store = store
        self.stats = stats
        self.on_finished = on_finished
        self.status = RoomStatus.LOBBY
        self.seats = [Seat() for _ in range(4)]
        self.match_id: int | None = None
        self.game: GameSession | None = None
        # (kept in step with the hub's index of connections in rooms: laizi.server.common.connset)
        self.conns: ConnSet[Conn] = ConnSet(conn_index)
        self.lock = asyncio.Lock()
        self.coin: dict[str, Any] | None = None  # 场次 of a quick-match table (quickmatch.table_info)
        self.tiers: dict[str, dict[str, Any]] = {}  # 段位 of the players who came in (accounts.ranks)
        self.chat_log: list[dict[str, Any]] = []
        self.rules: RuleSet = room_rules(settings)
        self.banned: set[str] = set()  # players the host kicked out
        self.idle_since: float | None = time.monotonic()  # no connection since (None: someone here)
        self.started_by = ""  # the address whose host started the match (bot-only tables' cap)
        self.flow = Flow(settings.continue_seconds, settings.auto_after_lapses)
        # the actor's own state: only its commands and its timer touch it
        self._hold = hold  # the room directory's lease check (laizi.server.tables.directory)
        self._last_seq: dict[str, int] = {}
        self._last_action: dict[str, Action] = {}  # (the action of each player's last seq, here)
        self._bots: dict[int, SeatBot] = {}
        self._deadlines: dict[int, float] = {}
        self._recorder = Recorder(code, store, self.broadcast)
        self._timer: asyncio.TimerHandle | None = None
        self._timer_task: asyncio.Task[None] | None = None
        self._bot_ready_at = 0.0  # bots wait bot_delay after the last change
        self._hints: dict[tuple[int, int], str] = {}
        self._deal_seed: bytes | None = None  # the next match's secret seed (a tournament table)
        self._fixed_dealers = False  # a duplicate round: no 连庄

    def close(self) -> None:
        """Let go of everything (the room leaves memory; it lives on in the database)."""
        self.cancel_timer()
        for c in self.conns:
            if c.room_code == self.code:
                c.room_code = None
                c.seat = None
        self.conns.clear()
        self.game = None
        self._bots.clear()
        self._hints.clear()
        self.on_finished = None
        self._recorder.notify = lambda msg: None

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

    def listed(self) -> bool:
        """Whether the room is in the public room list: not private, and — a lobby — with
        someone in it (a lobby nobody is in waits for nobody: it leaves the list at once, not
        when the sweep closes it; its code still lets its players back in)."""
        return not self.settings.private and (self.status != RoomStatus.LOBBY or bool(self.conns))

    def summary(self) -> dict[str, Any]:
        """The room's line in the public room list (``GET /api/rooms``)."""
        return {"code": self.code, "status": self.status, "preset": self.settings.preset,
                "rounds": self.settings.rounds, "match_id": self.match_id,
                "players": [s.nickname or (s.bot and f"bot:{s.bot}") or None for s in self.seats],
                # (each seat's bot level where a bot plays it for nobody: the list names it
                # 机器人甲… as the table does, not by its seat's "bot·greedy")
                "bots": [s.bot if s.bot and not s.player_id else None for s in self.seats]}

    def broadcast(self, msg: Mapping[str, Any]) -> None:
        text = dumps(msg)
        for c in list(self.conns):
            c.send(text)

    def broadcast_lobby(self) -> None:
        """The room's new state to everyone here (``room``: whole, or a patch to those that
        asked, :mod:`laizi.server.tables.roomwire`)."""
        send_room(list(self.conns), self.code, self.lobby_json())

    def record(self) -> RoomRecord:
        return RoomRecord(code=self.code, owner_id=self.owner_id, status=self.status,
                          settings=stored_settings(self.settings),
                          seats=[s.to_json() for s in self.seats], match_id=self.match_id,
                          banned=sorted(self.banned))

    # ------------------------------------------------------------- persistence
    async def _persist(self, status: RoomStatus | None = None) -> None:
        """Write the journal and the events not yet stored (awaited: durable before shown),
        with the room's status (``status``: the one it takes once this is written)."""
        if self.game is not None and self.match_id is not None:
            settled = await self._recorder.persist(
                self.game, self.match_id, [s.to_json() for s in self.seats],
                [s.player_id for s in self.seats], status or self.status)
            for res in settled:  # a coin table: what each seat won or paid, one's own balance
                for c in list(self.conns):
                    c.send(dumps(coins.news(res, self.match_id, c.player_id)))

    def _note_op(self, meta: dict[str, Any]) -> None:
        """Attach who/why to the journal entry just appended (stored with it)."""
        assert self.game is not None
        self._recorder.note_op(len(self.game.journal) - 1, meta)

    async def save_room(self) -> None:
        rec = self.record()
        await self._recorder.durably(lambda retry: self.store.save_room(rec))

    # ------------------------------------------------------------- commands
    # Each runs under ``self.lock`` (held by its caller: the socket dispatch, the director,
    # quick match) and ends with _after_change: stored, shown, the timer rearmed.
    def _playing(self) -> GameSession:
        g = self.game
        if g is None or self.status == RoomStatus.LOBBY:
            raise ProtocolError("not_started", "the match has not started")
        return g

    def _change(self, apply: Callable[[GameSession], Any],
                meta: Callable[[GameSession], dict[str, Any]]) -> bool:
        """The one way the match changes (every journal entry goes through here): apply,
        then note the new entry's origin (``meta``, read after the change). ``apply`` may
        decline (:meth:`GameSession.set_auto` returns False when nothing changed): then
        nothing is noted and the result is False. The caller then ends the command with
        :meth:`_after_change` (stored, shown, the timer rearmed)."""
        g = self.game
        assert g is not None
        n = len(g.journal)
        if apply(g) is False:
            return False
        assert len(g.journal) == n + 1, "one journal entry per change"
        self._note_op(meta(g))
        return True

    def _step(self, seat: int, apply: Callable[[GameSession], Any],
              meta: Callable[[GameSession], dict[str, Any]]) -> None:
        """One move of the match by ``seat`` (a move, an escape, a bot's move): note who
        must act, :meth:`_change`, renew the other seats' deadlines (those that still must
        act keep theirs)."""
        g = self.game
        assert g is not None
        before = set(g.to_act())
        self._change(apply, meta)
        self._reset_deadlines(before - {seat})

    def _auto(self, seat: int, on: bool, meta: dict[str, Any]) -> bool:
        """托管 on or off for ``seat`` through :meth:`_change` (False: it already was)."""
        return self._change(lambda g: g.set_auto(seat, on), lambda g: meta)

    async def play(self, seat: int, action: Action, seq: int, source: str,
                   version: int | None = None) -> Played:
        """Seat ``seat`` plays ``action``: its player ``source``'s ``seq``-th action (applied
        at most once: the same ``seq`` again is a duplicate, an older one refused), made on
        the table at ``version`` (another: nothing applied, :attr:`Played.stale_version`).
        Returns once the action is stored and shown (the caller acknowledges it then)."""
        g = self._playing()
        last = self._last_seq.get(source, 0)
        if seq <= last:
            # the same seq again is a duplicate of the same action (a resend); another action
            # under it — a second tab of the player's that counted from the same number — was
            # never applied and must not be told it was (after a restart the action is unknown:
            # a duplicate, as before)
            if seq == last and self._last_action.get(source, action) == action:
                return Played(g.stream_v(seat), duplicate=True)
            raise ProtocolError("stale_seq", f"sequence number {seq} is stale (last applied {last}"
                                f"{'' if seq < last else ', another action'})")
        if g.over:
            raise ProtocolError("match_over", "the match is over")
        cur_v = g.stream_v(seat)
        if version is not None and version != cur_v:
            return Played(cur_v, stale_version=True)
        if g.match.auto[seat] and not self.seats[seat].escaped:
            self._auto(seat, False, {"source": "player", "player_id": source})  # acting again ends 托管
        try:
            self._step(seat, lambda g: g.act(seat, action),
                       lambda g: {"source": "player", "player_id": source, "seq": seq,
                                  "v": g.stream_v(seat)})
        except OpError as exc:
            self.push_updates()
            raise ProtocolError(exc.code, str(exc)) from None
        self._last_seq[source] = seq
        self._last_action[source] = action
        self.flow.acted(seat)
        self.stats["actions"] += 1
        await self._after_change()
        return Played(g.stream_v(seat))

    async def escape(self, *seats: int) -> bool:
        """The players of ``seats`` leave the match for good (a penalty; a bot plays on for
        each); their connections here watch from then on. False if no match is in play."""
        g = self.game
        if g is None or g.over or self.status != RoomStatus.PLAYING or not seats:
            return False
        for seat in seats:
            s = self.seats[seat]
            pid = s.player_id  # (each lambda runs at once, in its own iteration)
            self._step(seat, lambda g: g.escape(seat),  # noqa: B023
                       lambda g: {"source": "escape", "player_id": pid})  # noqa: B023
            s.escaped = True
            s.disconnected_at = None
            for c in self.conns:
                if c.player_id == pid:
                    c.seat = None
        await self._after_change()
        return True

    async def dissolve(self) -> bool:
        """解散: the match ends now, its scores so far standing and stored (every seated
        human agreed: :meth:`VoteCommands.vote_dissolve`). False if none in play."""
        g = self.game
        if g is None or g.over or self.status != RoomStatus.PLAYING:
            return False
        self._step(-1, lambda g: g.dissolve(), lambda g: {"source": "vote"})
        await self._after_change()
        return True

    def away(self, *seats: int) -> None:
        """The players of ``seats`` are not here: 托管 after the disconnect grace unless they come."""
        now = time.monotonic()
        for i in seats:
            self.seats[i].disconnected_at = now
        self.schedule()

    def back(self, seat: int) -> None:
        """The player of ``seat`` is here again: its absence no longer counts."""
        self.seats[seat].disconnected_at = None
        self.schedule()

    def absent(self) -> list[int]:
        """Seats of human players with no live connection here."""
        here = {c.player_id for c in self.conns if not c.closed}
        return [i for i, s in enumerate(self.seats) if s.human and s.player_id not in here]

    async def set_auto(self, seat: int, on: bool, source: str | None) -> None:
        """托管 on or off for ``seat``, asked by its player ``source``."""
        g = self._playing()
        if not on:
            self.flow.acted(seat)
        if self._auto(seat, on, {"source": "player", "player_id": source}):
            if not on:
                self._reset_deadlines(set(g.to_act()) - {seat})
            await self._after_change()
            self.broadcast_lobby()

    async def press_continue(self, seat: int) -> None:
        """``seat`` presses 继续 after a hand: the next hand is dealt once everyone waited
        for did (or its time is up), else the others are told who still must."""
        g = self.game
        if g is None or self.status != RoomStatus.PLAYING or not g.hand_over or g.over:
            raise ProtocolError("not_between_hands", "there is no settlement to continue from")
        self.flow.arm(time.monotonic(), self.waiting(), self.cfg.hand_pause)
        key = vote_key(self.match_id, g.hand_no)
        if self.seats[seat].continued != key:  # stored first: the vote survives a restart
            self.seats[seat].continued = key
            await self.save_room()
        self.flow.continued.add(seat)
        if self.flow.settled(time.monotonic(), self.waiting()):
            self._deal_next()
            await self._after_change()
        else:
            self.broadcast(self.settle_msg())

    async def seat_and_start(self, seating: Seating) -> bool:
        """Seat and start a match as ``seating`` says (:class:`Seating`: who sits, the
        club's bots, the deal seed, …): this node holds the room first (a cluster: its
        lease, taken if need be; False when another node has it and nothing changes). At a
        coin table every human first takes its coin seat with the stake check
        (:meth:`Store.take_coin_seats`): a refusal raises
        :class:`laizi.server.ledger.coins.CoinError` and starts nothing."""
        if not await self._hold(self.code):
            return False
        self.seats = seating.seated(self.seats)
        if seating.started_by is not None:
            self.started_by = seating.started_by
        self._deal_seed, self._fixed_dealers = seating.deal_seed, seating.fixed_dealers
        await self._start_match()
        if seating.absent_wait:
            self.away(*self.absent())
        return True

    async def _start_match(self) -> None:
        """A new match with the seats as they are."""
        await self._recorder.take_coin_seats(self.coin, [s.player_id for s in self.seats
                                                          if s.human and s.player_id])
        self.flow.new_match()
        for s in self.seats:
            s.ready, s.rematch = False, None  # the next match needs a new 准备 (or rematch vote)
        self._bots.clear()
        seed, self._deal_seed = self._deal_seed or seed_from_text(self.settings.seed), None
        self.game = GameSession(self.rules, seed, max_hands=self.settings.max_hands,
                                fixed_dealers=self._fixed_dealers)
        seating = self.game.match.seating  # 摸牌定东: each player moves to the seat it drew
        if seating is not None:
            moved = list(self.seats)
            for place, seat in enumerate(seating.seats):
                moved[seat] = self.seats[place]
            self.seats = moved
        self._recorder.new_match()  # its counters belong to the match before
        for i, s in enumerate(self.seats):
            if s.bot:
                self._bots[i] = SeatBot(s.bot, _bot_seed(seed, i))
        self.status = RoomStatus.PLAYING
        rec, rules = self.record(), self.rules.model_dump(mode="json")
        self.match_id = await self._recorder.durably(
            lambda retry: self.store.create_match(rec, rules, seed, self.settings.max_hands,
                                                  self._fixed_dealers))
        await self._persist()
        for c in self.conns:
            c.seat = self.seat_of(c.player_id)
            c.sent_v = 0
        self._reset_deadlines(set())
        self._bot_ready_at = time.monotonic() + self.bot_delay
        self.broadcast_lobby()
        for c in list(self.conns):
            self.send_snapshot(c)
        self.schedule()

    @classmethod
    def resume(cls, rec: RoomRecord, **kw: Any) -> Room:
        """Rebuild a stored room (a match in play: its journal replayed, checked by the log)."""
        room = cls(rec.code, RoomSettings(**rec.settings), rec.owner_id, **kw)
        room.status = RoomStatus(rec.status)
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
        room._fixed_dealers = m.fixed_dealers
        stored = m.stored_events
        if stored != len(game.log):
            # Extra rebuilt events (a crash between two writes) are simply written now.
            log.warning("room %s: %d stored events, %d rebuilt", rec.code, stored, len(game.log))
        if m.last_event is not None and stored <= len(game.log) and game.log[stored - 1] != m.last_event:
            raise RuntimeError(f"room {rec.code}: replay differs from the stored event log")
        room.rules = rules
        room.game = game
        room._recorder.resume(game, len(m.journal), stored)
        room._last_seq = dict(m.last_seq)
        now = time.monotonic()
        for i, seat in enumerate(room.seats):
            if seat.player_id and not seat.escaped and not seat.bot:
                seat.disconnected_at = now  # nobody is connected after a restart
            if seat.bot:
                room._bots[i] = SeatBot(seat.bot, _bot_seed(seed, i))
        room._reset_deadlines(set())
        return resume_settlement(room)  # polish: 继续 votes stored on the seats survive a restart

    def _bot_for(self, seat: int) -> SeatBot:
        b = self._bots.get(seat)
        if b is None:
            level = self.seats[seat].bot or AUTO_BOT
            if level not in bot_levels():
                level = bot_levels()[-1]
            b = self._bots[seat] = SeatBot(level, seat * 7919 + (self.match_id or 0))
        return b

    def _bot_controlled(self, seat: int) -> bool:
        s = self.seats[seat]
        g = self.game
        return bool(s.bot or s.escaped or s.player_id is None or (g is not None and g.match.auto[seat]))

    def _reset_deadlines(self, keep: set[int]) -> None:
        """New deadlines for the seats that must act now, except those in ``keep``."""
        g = self.game
        if g is None or g.over or g.hand_over:
            self._deadlines = {}
            return
        now = time.monotonic()
        claimish = g.phase in ("claim", "rob", "haidi")
        dur = self.rules.claim_seconds if claimish else self.settings.turn_seconds
        old = self._deadlines
        self._deadlines = {s: old[s] if s in keep and s in old else now + dur for s in g.to_act()}

    # ------------------------------------------------------------- timers
    def cancel_timer(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None

    def _due(self, g: GameSession, now: float) -> float | None:
        """When the room must next act by itself (a bot move, a deadline, a deal, 托管)."""
        grace = self.cfg.disconnect_grace
        due: float | None = None
        if g.hand_over:
            due = self.flow.arm(now, self.waiting(), self.cfg.hand_pause)
        else:
            for s in g.to_act():
                if self._bot_controlled(s):
                    cand = max(now, self._bot_ready_at)
                else:
                    cand = self._deadlines.get(s, now)
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
        if g is None or self.status != RoomStatus.PLAYING or g.over:
            return
        now = time.monotonic()
        due = self._due(g, now)
        if due is None:
            return
        self._timer = asyncio.get_running_loop().call_later(max(0.0, due - now), self._fire)

    def _fire(self) -> None:
        self._timer = None
        self._timer_task = asyncio.ensure_future(self._on_timer())

    async def _on_timer(self) -> None:
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
        if g is None or g.over or self.status != RoomStatus.PLAYING:
            return
        now = time.monotonic()
        changed = False
        # Disconnected beyond grace → 托管.
        for s in range(4):
            seat = self.seats[s]
            if (seat.disconnected_at is not None and not g.match.auto[s]
                    and now >= seat.disconnected_at + self.cfg.disconnect_grace):
                changed = self._auto(s, True, {"source": "disconnect"}) or changed
        if g.hand_over:
            if self.flow.settled(now, self.waiting()):
                self._deal_next()
                changed = True
        elif self._bot_steps(g, now):
            changed = True
        if changed:
            await self._after_change()
        else:
            self.schedule()

    def _deal_next(self) -> None:
        """Deal the next hand (the settlement is over)."""
        g = self.game
        assert g is not None
        self.flow.dealt()
        self._change(lambda g: g.next_hand(), lambda g: {"source": "server"})
        self._reset_deadlines(set())

    def _bot_steps(self, g: GameSession, now: float) -> bool:
        """Play the bot-controlled and timed-out seats (a few moves, a small time budget)."""
        steps = 0
        budget_end = time.perf_counter() + self.cfg.bot_tick_budget
        while (not g.hand_over and steps < self.cfg.bot_steps_per_tick
               and (steps == 0 or time.perf_counter() < budget_end)):
            acted = False
            for s in g.to_act():
                if self._bot_controlled(s):
                    if now < self._bot_ready_at:
                        continue
                    self._bot_move(s, "bot")
                    acted = True
                    break
                if now >= self._deadlines.get(s, float("inf")):
                    # a lapse: the bot plays this one move; repeated turn lapses → 托管
                    # (a claim window left to lapse is no sign of absence: not counted)
                    if g.phase not in ("claim", "rob") and self.flow.lapse(s):
                        self._auto(s, True, {"source": "timeout"})
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
        action = self._bot_for(seat).choose(g, seat)
        self._step(seat, lambda g: g.act(seat, action), lambda g: {"source": source})
        self.stats["bot_moves"] += 1

    async def _after_change(self) -> None:
        g = self.game
        assert g is not None
        finishing = g.over and self.status == RoomStatus.PLAYING
        if finishing:
            self._deadlines = {}
        if g.hand_over and not g.over:
            self.flow.arm(time.monotonic(), self.waiting(), self.cfg.hand_pause)
        # finished once stored: the room says so (its API, its lobby line) only when the last
        # hand, its coins and its status are written (written together)
        await self._persist(RoomStatus.FINISHED if finishing else None)
        if finishing:
            self.status = RoomStatus.FINISHED
        self._bot_ready_at = time.monotonic() + self.bot_delay
        self.push_updates()
        if g.over:
            self.broadcast_lobby()
            if self.on_finished is not None:
                self.on_finished(self)
        self.schedule()
