"""What a room sends its connections about the match in play (:class:`RoomFrames`, a part
of :class:`laizi.server.tables.room.Room`): each connection's next frame — its new events
and the patch of its view since its last frame, or a snapshot (docs/server.md, "Table
frames") —, the public countdowns, the own decision's deadline, the hints of a seat that
asked for them, the ``settle`` message, and :meth:`RoomFrames.push_updates` after a change.

Frames are built from texts the :class:`~laizi.server.tables.engine.GameSession` caches per
version, so a change costs one public patch plus a small private part per seat, whatever
the number of connections.
"""

from __future__ import annotations

import time

from laizi.server.common import protocol as p
from laizi.server.common.connection import Conn
from laizi.server.common.connset import ConnSet
from laizi.server.common.protocol import RoomSettings
from laizi.server.tables.engine import GameSession, dumps
from laizi.server.tables.flow import Flow
from laizi.server.tables.frames import EVENT_SHAPES, TABLES_ID, VIEW_KEYS
from laizi.server.tables.seats import Seat, hints_for_view

__all__ = ["HINT_CACHE", "MAX_STREAM_GAP", "RoomFrames"]

MAX_STREAM_GAP = 200  # a connection further behind than this gets a snapshot instead
HINT_CACHE = 8        # (version, seat) hint texts kept per room
VIEW_KEYS_JSON = dumps(list(VIEW_KEYS))
SHAPES_JSON = dumps([list(x) for x in EVENT_SHAPES])


class RoomFrames:
    """The frames part of a room (mixed into :class:`~laizi.server.tables.room.Room`, which
    sets these)."""

    game: GameSession | None
    settings: RoomSettings
    match_id: int | None
    flow: Flow
    seats: list[Seat]
    conns: ConnSet[Conn]
    _deadlines: dict[int, float]
    _last_seq: dict[str, int]
    _hints: dict[tuple[int, int], str]

    def frame(self, conn: Conn, kind: str = "update", timers: tuple[str, str] | None = None) -> str | None:
        """The next frame for ``conn`` (JSON text): its new events ``e`` and the patch ``p``
        of its view since the last frame, or a snapshot with the whole view (docs/server.md,
        "Table frames"; an update leaves out what the applier knows: ``from`` — its ``v``
        minus its events —, the :data:`~laizi.server.common.delta.STICKY` keys unchanged,
        a null ``deadline``).

        Built from texts cached per version (:meth:`GameSession.view_json`,
        :meth:`GameSession.view_patch`, the seats' event streams), so a change costs one
        public patch plus a small private part per seat, whatever the number of connections.
        ``timers``: the public countdowns' texts (:meth:`_timers_json`), when the caller made
        them once for every connection (:meth:`push_updates`).
        """
        g = self.game
        if g is None:
            return None
        if conn.legacy:  # it said no protocol (on_hello): told to reload instead, and closed
            if not conn.closed:
                conn.send(p.old_client(None))
                conn.close()
            return None
        seat = conn.seat
        stream = g.stream(seat)
        v = stream.v
        if kind == "update" and v == conn.sent_v:
            return None
        body = ""
        if kind == "update":
            base = conn.view_base
            if conn.sent_v > v or v - conn.sent_v > MAX_STREAM_GAP:
                kind = "snapshot"
            else:
                events = stream.since(conn.sent_v)
                # (the patch applies after the events since the base: they must be the same)
                patch = (None if events is None or base is None or base[0] is not g.key
                         or base[1] != seat or base[3] != conn.sent_v else g.view_patch(seat, base[2]))
                if patch is None:
                    kind = "snapshot"
                else:
                    # (no change beyond what the events say: no "p" at all)
                    e = f'"e":[{",".join(events)}]'  # type: ignore[arg-type]
                    body = e if patch == "[]" else f'"p":{patch},{e}'
        whole, short = self._timers_json(g) if timers is None else timers
        deadline = self.deadline_for(seat)
        last_seq = None if seat is None or conn.player_id is None else self._last_seq.get(conn.player_id, 0)
        extra = short if kind == "update" else whole
        if kind != "update":
            tables = "" if conn.tables == TABLES_ID else f'"keys":{VIEW_KEYS_JSON},"shapes":{SHAPES_JSON},'
            # (a client that takes room patches holds the room's rules: its view leaves them out)
            body = (f'"view":{g.view_json(seat, conn.room_patch)},{tables}'
                    f'"seat":{dumps(seat)},'
                    f'"match_id":{dumps(self.match_id)},"e":[{",".join(stream.last(40))}],'
                    f'"deadline":{dumps(deadline)}')
            if self.settings.seed is not None:
                extra += f',"fixed_deal":{dumps(self.settings.seed)}'
        elif deadline is not None:
            extra += f',"deadline":{deadline}'
        if last_seq is not None and (kind != "update" or last_seq != conn.sent_seq):
            extra += f',"last_seq":{last_seq}'
            conn.sent_seq = last_seq
        if seat is not None and conn.player_id is not None and conn.hints:
            extra += self._hints_json(g, seat)
        conn.sent_v = v
        conn.view_base = (g.key, seat, g.version, v)
        return f'{{"type":"{kind}","v":{v},{body}{extra}}}'

    def _timers_json(self, g: GameSession) -> tuple[str, str]:
        """Public countdowns (:meth:`Flow.timers`) as extra frame keys: for a snapshot, and
        for an update (``timer`` as ``t``: ``[seat, left]``, made whole by the applier)."""
        d = self.flow.timers(g.phase, g.hand_over, g.over, self._deadlines, self.waiting(), time.monotonic())
        whole = "".join(f',"{k}":{dumps(v)}' for k, v in d.items())
        timer = d.pop("timer", None)
        short = "".join(f',"{k}":{dumps(v)}' for k, v in d.items())
        if timer is not None:
            short = f',"t":[{dumps(timer["seat"])},{dumps(timer["left"])}]{short}'
        return whole, short

    def waiting(self) -> list[int]:
        """Seats whose player must press 继续 (seated humans not in 托管)."""
        g = self.game
        return [s for s in range(4) if self.seats[s].human and not (g is not None and g.match.auto[s])]

    def send_snapshot(self, conn: Conn) -> None:
        msg = self.frame(conn, "snapshot")
        if msg:
            conn.send(msg)

    def send_hints(self, conn: Conn) -> None:
        """Hints just switched on: those for the seat's decision now, if it has one, in a
        small ``hints`` frame ``{v, hints}``."""
        g = self.game
        if g is None or conn.seat is None or conn.player_id is None:
            return
        extra = self._hints_json(g, conn.seat)  # ',"hints":[…]' or '' without a decision
        if extra:
            conn.send(f'{{"type":"hints","v":{g.stream(conn.seat).v}{extra}}}')

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
        if seat is None or seat not in self._deadlines:
            return None
        return max(0.0, round(self._deadlines[seat] - time.monotonic(), 2))

    def settle_msg(self) -> p.SettleMsg:
        """The ``settle`` message: seconds left of the settlement, who must press 继续, who did."""
        g = self.game
        assert g is not None
        d = self.flow.timers(g.phase, g.hand_over, g.over, self._deadlines, self.waiting(), time.monotonic())
        return p.settle_msg(d.get("settle", {}))

    def push_updates(self) -> None:
        g = self.game
        timers = None if g is None else self._timers_json(g)  # once for every connection
        for c in list(self.conns):
            if c.closed:
                continue
            msg = self.frame(c, timers=timers)
            if msg is not None:
                c.send(msg)
        if self.game is not None:
            self.game.trim()

