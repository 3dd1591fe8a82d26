"""What of a room's match is durable: the journal entries and events already stored, who
did each move, and the one way they reach the database (:meth:`Recorder.durably`: a write
is retried until it succeeds; meanwhile the room is paused and its seats are told)."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Mapping
from typing import Any, TypeVar

from sqlalchemy.exc import InterfaceError, OperationalError

from laizi.server.common.protocol import paused, resumed
from laizi.server.ledger.coins import LEVELS, CoinError, take_seats
from laizi.server.persistence.fencing import Fenced
from laizi.server.persistence.store import Progress, Store
from laizi.server.tables.engine import GameSession

__all__ = ["RETRY_FIRST", "RETRY_MAX", "Recorder", "transient"]

log = logging.getLogger("laizi.server")

RETRY_FIRST = 0.1  # seconds before a failed database write is tried again ...
RETRY_MAX = 2.0    # ... doubling up to this, for as long as the database is away

T = TypeVar("T")


def transient(exc: BaseException) -> bool:
    """A failure the database may recover from (disk full, I/O error, server gone, locked)."""
    return isinstance(exc, OperationalError | InterfaceError | OSError)


class Recorder:
    """The durable part of one room's match. ``notify`` sends a message to the room's
    connections (``paused`` / ``resumed``)."""

    def __init__(self, code: str, store: Store, notify: Callable[[Mapping[str, Any]], None]) -> None:
        self.code = code
        self.store = store
        self.notify = notify
        self.paused = False            # the database is away: the table waits
        self.persisted_ops = 0
        self.persisted_events = 0
        self._op_meta: dict[int, dict[str, Any]] = {}
        self._event_hand = 0
        self._saved_match: Any = None  # (scores, status, seats) last written to the match row
        self._saved_room: Any = None   # (status, seats) last written to the room row

    def resume(self, game: GameSession, stored_ops: int, stored_events: int) -> None:
        """A match rebuilt from the database: that much of it is stored already."""
        self.persisted_ops = stored_ops
        self.persisted_events = min(stored_events, len(game.log))
        hands = [ev for ev in game.log[:self.persisted_events] if ev["type"] == "start_hand"]
        self._event_hand = hands[-1]["hand"] if hands else 0

    def new_match(self) -> None:
        """A new match in the same room (再来一局, the next match of a tournament table):
        nothing of it is stored yet. The room row's last state stays known."""
        self.persisted_ops = 0
        self.persisted_events = 0
        self._op_meta.clear()
        self._event_hand = 0
        self._saved_match = None

    async def take_coin_seats(self, coin: dict[str, Any] | None, pids: list[str]) -> None:
        """At a coin table (``coin``: its 场次), seat ``pids`` for the next match with the stake
        check (:meth:`Store.take_coin_seats`); raises :class:`CoinError` for a refusal."""
        level = LEVELS.get(coin["level"]) if coin else None
        if level is not None and level.stake > 0:
            code, floor = self.code, level.min_balance
            await self.durably(lambda retry: self.store.take_coin_seats(
                code, lambda conn: take_seats(conn, code, pids, floor)))

    def note_op(self, index: int, meta: dict[str, Any]) -> None:
        """Attach who/why to journal entry ``index`` (stored with it)."""
        self._op_meta[index] = meta

    async def durably(self, write: Callable[[bool], Awaitable[T]]) -> T:
        """Run a database write until it succeeds (``write(retry)``: ``retry`` is True from
        the second attempt on, when the first may have committed without saying so).

        While the writes fail the caller waits — a room holds its lock meanwhile, so no
        command, bot move or timer runs and nothing is acknowledged; the connections are
        told (``paused``) and told again when it goes on (``resumed``). A failure the
        database recovers from (disk full, server gone) is logged once per pause; any
        other is a bug, logged with its traceback, and the room waits all the same rather
        than show what is not stored."""
        delay = RETRY_FIRST
        attempt = 0
        while True:
            try:
                out = await write(attempt > 0)
                break
            except (Fenced, CoinError):
                raise  # another node owns the room now (laizi.server.cluster), or a refusal
            except Exception as exc:
                if not self.paused:
                    self.paused = True
                    if transient(exc):
                        log.warning("room %s: database write failed (%s: %s); paused, retrying",
                                    self.code, type(exc).__name__, str(exc).splitlines()[0][:200])
                    else:
                        log.exception("room %s: database write failed; paused, retrying", self.code)
                    self.notify(paused(self.code))
                await asyncio.sleep(delay)
                delay = min(delay * 2, RETRY_MAX)
                attempt += 1
        if self.paused:
            self.paused = False
            log.warning("room %s: database back; resumed", self.code)
            self.notify(resumed(self.code))
        return out

    async def persist(self, g: GameSession, mid: int, seats: list[dict[str, Any]],
                      seat_pids: list[str | None], room_status: str) -> list[dict[str, Any]]:
        """Write the journal and the events not yet stored (durable before shown); what the
        write settled in coins (a coin table's hands and escapes: ``Progress.coin_results``)."""
        if len(g.journal) == self.persisted_ops and len(g.log) == self.persisted_events:
            return []
        p = self._progress(g, mid, seats, seat_pids, room_status)
        await self.durably(lambda retry: self.store.write_progress(p, retry=retry))
        # Durable: only now does the room count it as stored.
        for i in range(len(p.actions)):
            self._op_meta.pop(self.persisted_ops + i, None)
        self.persisted_ops += len(p.actions)
        self.persisted_events += len(p.events)
        if p.events:
            self._event_hand = p.events[-1]["hand"]
        if p.match_values is not None:
            mv = p.match_values
            self._saved_match = (mv["scores"], mv["status"], mv["seats"])
        if p.room_values is not None:
            self._saved_room = (p.room_values["status"], p.room_values["seats"])
        return p.coin_results

    def _progress(self, g: GameSession, mid: int, seats_json: list[dict[str, Any]],
                  seat_pids: list[str | None], room_status: str) -> Progress:
        """The rows for what happened since the last successful write."""
        ops = g.journal[self.persisted_ops:]
        events = g.log[self.persisted_events:]
        op_base = self.persisted_ops
        ev_base = self.persisted_events
        hand_rows: list[dict[str, Any]] = []
        ev_hands = []
        h = self._event_hand
        for ev in events:
            if ev["type"] == "start_hand":
                h = ev["hand"]
                hand_rows.append({"number": ev["hand"], "dealer": ev["dealer"],
                                  "commitment": ev["commitment"]})
            elif ev["type"] == "end_hand":
                hand_rows.append({"number": ev["hand"], "end": ev})
            ev_hands.append(h)
        scores = g.match.score_values()
        over = g.over
        status = "finished" if over else "playing"
        # The match and room rows change rarely (hand ends, escapes, 托管 seats, the
        # end): they are only rewritten when what they hold changed.
        match_state = (scores, status, seats_json)
        room_state = (room_status, seats_json)
        action_rows = []
        for i, op in enumerate(ops):
            meta = self._op_meta.get(op_base + i) or {}
            action_rows.append({
                "match_id": mid, "n": op_base + i + 1, "seat": op.get("seat", -1), "action": op,
                "source": meta.get("source", "server"), "player_id": meta.get("player_id"),
                "client_seq": meta.get("seq"), "version": meta.get("v", 0)})
        return Progress(
            match_id=mid, room_code=self.code, actions=action_rows,
            events=[{"match_id": mid, "n": ev_base + i + 1, "hand": ev_hands[i], "kind": ev["type"],
                     "data": ev} for i, ev in enumerate(events)],
            hands=hand_rows,
            escapes=[(ev["seat"], ev["deltas"]) for ev in events if ev["type"] == "escape"],
            hand_no=g.hand_no, seat_pids=seat_pids,
            match_values=({"scores": scores, "status": status, "seats": seats_json}
                          if match_state != self._saved_match else None),
            over=over,
            room_values=({"status": room_status, "seats": seats_json}
                         if room_state != self._saved_room else None),
            escaped=frozenset(i for i, st in enumerate(seats_json) if st.get("escaped")),
        )
