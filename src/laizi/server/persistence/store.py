"""Every SQL statement the server runs: rooms, matches (the action journal and the event
log), hands, scores, players, chat — written through :class:`laizi.server.persistence.db.Writer`
(group commit; a caller awaits its write before it shows anything it describes) and
read back to resume rooms after a restart and to build replays.

What the features above add to a match's write registers with the store as hooks run in
the same transaction (:class:`TxHooks`): the coin ledger settles a coin table's hands and
escapes (``progress``), the ratings rate a finished rated match (``rate``). The store
itself knows neither."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import func, select, update
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from laizi.server.persistence import db
from laizi.server.persistence.fencing import Fenced, raise_fence
from laizi.server.persistence.socialdb import CoinTableRow
from laizi.server.persistence.writer import FenceCheck, Rows

log = logging.getLogger("laizi.server")

__all__ = ["MatchRecord", "Progress", "RoomRecord", "Store", "TxHooks", "places"]

_TABLES = db.Base.metadata.tables
ACTIONS = _TABLES["actions"]
EVENTS = _TABLES["events"]
HANDS = _TABLES["hands"]
SCORES = _TABLES["scores"]
MATCHES = _TABLES["matches"]
ROOMS = _TABLES["rooms"]
MATCH_PLAYERS = _TABLES["match_players"]
ACCOUNTS = _TABLES["accounts"]


@dataclass
class RoomRecord:
    """A room row (and, for a room in play, its match as stored)."""

    code: str
    owner_id: str | None
    status: str
    settings: dict[str, Any]
    seats: list[dict[str, Any]]
    match_id: int | None = None
    match: MatchRecord | None = None
    banned: list[str] = field(default_factory=list)
    coin_level: str | None = None  # a coin table's level (coins.LEVELS)


@dataclass
class MatchRecord:
    """A match as stored: enough to rebuild it (rules, seed, journal) and to check the rebuild."""

    id: int
    room_code: str
    status: str
    rules: dict[str, Any]
    seed: str
    max_hands: int | None
    seats: list[Any]
    scores: list[Any]
    journal: list[dict[str, Any]]
    stored_events: int = 0
    last_event: dict[str, Any] | None = None
    last_seq: dict[str, int] = field(default_factory=dict)
    fixed_dealers: bool = False


@dataclass
class Progress:
    """What one command added to a match: new journal entries and events, hands started or
    ended, escapes, and the match / room rows when what they hold changed."""

    match_id: int
    room_code: str
    actions: list[dict[str, Any]]
    events: list[dict[str, Any]]
    hands: list[dict[str, Any]]           # {"number", "dealer", "commitment"} or {"number", "end"}
    escapes: list[tuple[int, list[Any]]]  # (escaping seat, deltas)
    hand_no: int
    seat_pids: list[str | None]
    match_values: dict[str, Any] | None   # new scores/status/seats (None: unchanged)
    over: bool
    room_values: dict[str, Any] | None    # new status/seats (None: unchanged)
    escaped: frozenset[int] = frozenset()  # seats whose player escaped (their bot plays on)
    # filled by the write (coins.settle_progress): what each hand or escape settled in coins
    coin_results: list[dict[str, Any]] = field(default_factory=list)


def places(scores: Sequence[float]) -> list[int]:
    """1-based places by score, highest first; equal scores share the better place."""
    return [1 + sum(1 for o in scores if o > s) for s in scores]


# The rating hook: a finished match's connection, progress, seats (as stored), final scores
# and places; it rates the match if it is to be and returns the seats it rated.
RateHook = Callable[[Connection, "Progress", list[dict[str, Any]], list[float], list[int]], set[int]]


@dataclass
class TxHooks:
    """What other parts add to a match's write, in its transaction."""

    progress: list[Callable[[Connection, Progress], None]] = field(default_factory=list)
    rate: RateHook | None = None
    # a room's extras read with it (a coin table's level: laizi.server.ledger.coins)


class Store:
    """The database of one server: an engine, a writer thread, and the statements."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self.writer = db.Writer(engine)
        self.hooks = TxHooks()  # registered by the coin ledger and the ratings
        # Several nodes (laizi.server.cluster, which calls use_fences): the fencing token
        # this node holds per room it owns; every write of a room checks it in its
        # transaction. None: one process.
        self.fences: dict[str, int] | None = None
        self.node = ""
        self.on_fenced: Callable[[str], None] | None = None  # a write was refused
        self.fenced_writes = 0

    def use_fences(self, check: FenceCheck, node: str, on_fenced: Callable[[str], None]) -> None:
        """Fence every room write from now on (a node of a cluster named ``node``): the
        writer checks them with ``check``, in the batch's transaction; ``on_fenced`` is told
        of each refused one. The node fills :attr:`fences` with the tokens it holds."""
        self.writer.fence_check = check
        self.fences = {}
        self.node = node
        self.on_fenced = on_fenced

    async def _room_write(self, code: str, fn: Callable[[Session], Any] | None,
                          rows: Rows = ()) -> Any:
        """Write for room ``code`` (``rows`` inserted, then ``fn``): fenced when this server
        is a node of a cluster — the writer checks the fence of every room of a batch in the
        batch's transaction (:mod:`laizi.server.persistence.writer`)."""
        if self.fences is None:
            return await self.writer.write(fn, rows=rows)
        token = self.fences.get(code)
        try:
            if token is None:
                raise Fenced(code, token)
            return await self.writer.write(fn, fence=(code, token), rows=rows)
        except Fenced:
            self.fenced_writes += 1
            if self.on_fenced is not None:
                self.on_fenced(code)
            raise

    async def raise_fence(self, code: str, token: int) -> None:
        """Take room ``code`` over with ``token`` (raises :class:`Fenced` if a newer one is in)."""
        node = self.node
        await self.writer.write(lambda s: raise_fence(s, code, token, node))

    @classmethod
    async def open(cls, url: str) -> Store:
        engine = db.make_engine(url)
        # On PostgreSQL the upgrade holds an advisory lock (laizi.server.persistence.schema): nodes
        # starting together on an empty database migrate one at a time.
        await asyncio.to_thread(db.migrate, engine)
        return cls(engine)

    async def close(self) -> None:
        await asyncio.to_thread(self.writer.flush)
        self.writer.close()
        self.engine.dispose()

    def stats(self) -> dict[str, Any]:
        w = self.writer
        return {"db_batches": w.batches, "db_writes": w.writes, "db_busy_s": round(w.busy_seconds, 2)}

    async def meta_default(self, key: str, value: str) -> str:
        """The value stored under ``key``, storing ``value`` there first if there is none."""
        try:
            return await asyncio.to_thread(db.set_meta_if_missing, self.engine, key, value)
        except IntegrityError:  # another node stored one at the same moment: that one
            return await asyncio.to_thread(db.set_meta_if_missing, self.engine, key, value)

    # ------------------------------------------------------------- players
    def load_players(self) -> dict[str, str]:
        with Session(self.engine) as s:
            return {p.id: p.nickname for p in s.scalars(select(db.PlayerRow))}

    async def add_player(self, pid: str, nickname: str) -> None:
        def write(s: Session) -> None:
            s.add(db.PlayerRow(id=pid, nickname=nickname))

        await self.writer.write(write)

    async def set_nickname(self, pid: str, nickname: str) -> None:
        def write(s: Session) -> None:
            p = s.get(db.PlayerRow, pid)
            if p is not None:
                p.nickname = nickname
                p.last_seen = datetime.now(UTC)

        await self.writer.write(write)

    # ------------------------------------------------------------- chat
    async def add_chat(self, room_code: str, pid: str | None, nickname: str, text: str,
                       phrase: str | None) -> None:
        def write(s: Session) -> None:
            s.add(db.ChatRow(room_code=room_code, player_id=pid, nickname=nickname, text=text,
                             phrase=phrase))

        await self._room_write(room_code, write)

    # ------------------------------------------------------------- rooms and matches
    async def save_room(self, r: RoomRecord) -> None:
        def write(s: Session) -> None:
            row = s.get(db.RoomRow, r.code)
            if row is None:
                s.add(db.RoomRow(code=r.code, owner_id=r.owner_id, status=r.status,
                                 settings=r.settings, seats=r.seats, match_id=r.match_id,
                                 banned=r.banned))
            else:
                row.owner_id = r.owner_id
                row.banned = r.banned
                row.status = r.status
                row.seats = r.seats
                row.match_id = r.match_id
                row.updated_at = datetime.now(UTC)

        await self._room_write(r.code, write)

    async def create_match(self, r: RoomRecord, rules: dict[str, Any], seed: bytes,
                           max_hands: int | None, fixed_dealers: bool = False) -> int:
        """Insert a match row for room ``r`` (its status becomes ``playing``); its id."""

        def write(s: Session) -> int:
            row = s.get(db.RoomRow, r.code)
            if row is None:
                row = db.RoomRow(code=r.code, owner_id=r.owner_id, settings=r.settings, seats=r.seats)
                s.add(row)
                s.flush()
            m = db.MatchRow(room_code=r.code, status="playing", rules=rules, seed=seed.hex(),
                            max_hands=max_hands, seats=r.seats, scores=[0, 0, 0, 0],
                            penalties=[0, 0, 0, 0], fixed_dealers=fixed_dealers or None)
            s.add(m)
            s.flush()
            row.status = "playing"
            row.match_id = m.id
            row.seats = r.seats
            return m.id

        out: int = await self._room_write(r.code, write)
        return out

    async def take_coin_seats(self, code: str, take: Callable[[Connection], None]) -> None:
        """Seat the players of coin table ``code`` for its next match: ``take`` (the stake
        check and the seats in one transaction: :func:`laizi.server.ledger.coins.take_seats`)
        raises :class:`laizi.server.ledger.coins.CoinError` for a refusal."""
        await self._room_write(code, lambda s: take(s.connection()))

    async def write_progress(self, p: Progress, *, retry: bool = False) -> None:
        """Store one command's progress in one transaction (raises when the write fails).
        ``retry``: an earlier attempt failed, perhaps after its commit went through (a
        connection lost on the way back): if its last row is there, it did."""

        if retry:
            def again(s: Session) -> None:
                s.flush()
                if not _stored_already(s, p):
                    _progress_rest(s, p, self.hooks, insert=True)

            await self._room_write(p.room_code, again)
            return
        # The hot path of every action: its journal entry and events go in with the other
        # rooms' of the same batch (Core executemany, no ORM unit of work); the rest, when
        # there is any (a hand begun or ended, an escape, new scores or seats), after them.
        rest = (p.hands or p.escapes or p.match_values is not None or p.room_values is not None)
        await self._room_write(p.room_code, (lambda s: _progress_rest(s, p, self.hooks)) if rest else None,
                               rows=((ACTIONS, p.actions), (EVENTS, p.events)))

    # ------------------------------------------------------------- reading back
    def load_unfinished_rooms(self, finished_within: float = 0.0) -> list[RoomRecord]:
        """Every room in the lobby or in play, with the journal of the match in play — and the
        rooms whose match ended in the last ``finished_within`` seconds (their players may still
        agree on 再来一局), with the journal of that match."""
        out = []
        since = datetime.now(UTC) - timedelta(seconds=finished_within)
        with Session(self.engine) as s:
            rows = s.scalars(select(db.RoomRow).where(
                db.RoomRow.status.in_(("lobby", "playing"))
                | ((db.RoomRow.status == "finished") & (db.RoomRow.updated_at >= since))))
            for r in list(rows):
                rec = _room(r, s)
                if r.status in ("playing", "finished") and r.match_id is not None:
                    rec.match = _match(s, r.match_id, resume=True)
                out.append(rec)
        return out

    def load_resumable_room(self, code: str) -> RoomRecord | None:
        """Room ``code`` as :meth:`load_unfinished_rooms` gives it, if it is in the lobby or in
        play (a node taking the room over); None otherwise."""
        with Session(self.engine) as s:
            r = s.get(db.RoomRow, code)
            if r is None or r.status not in ("lobby", "playing"):
                return None
            rec = _room(r, s)
            if r.status == "playing" and r.match_id is not None:
                rec.match = _match(s, r.match_id, resume=True)
            return rec

    def unfinished_codes(self) -> list[str]:
        """The codes of every room in the lobby or in play."""
        with Session(self.engine) as s:
            return list(s.scalars(select(db.RoomRow.code)
                                  .where(db.RoomRow.status.in_(("lobby", "playing")))))

    def load_player(self, pid: str) -> str | None:
        """A player's nickname (a player another node created), or None."""
        with Session(self.engine) as s:
            p = s.get(db.PlayerRow, pid)
            return None if p is None else p.nickname

    def load_room(self, code: str) -> RoomRecord | None:
        """One room row (any status), without its match."""
        with Session(self.engine) as s:
            r = s.get(db.RoomRow, code)
            if r is None:
                return None
            return _room(r)

    def invited(self, code: str, pid: str) -> bool:
        """Whether ``pid`` was invited to room ``code`` (an invite not declined)."""
        from laizi.server.persistence.socialdb import InviteRow

        with Session(self.engine) as s:
            return s.scalars(select(InviteRow.id).where(
                InviteRow.room_code == code, InviteRow.to_id == pid,
                InviteRow.status != "declined").limit(1)).first() is not None

    def load_match(self, match_id: int) -> MatchRecord | None:
        """A match with its journal (for a replay)."""
        with Session(self.engine) as s:
            return _match(s, match_id, resume=False)


def _room(r: db.RoomRow, s: Session | None = None) -> RoomRecord:
    level = None if s is None else s.scalar(select(CoinTableRow.level)
                                            .where(CoinTableRow.room_code == r.code))
    return RoomRecord(code=r.code, owner_id=r.owner_id, status=r.status, settings=dict(r.settings),
                      seats=list(r.seats), match_id=r.match_id, banned=list(r.banned or []),
                      coin_level=level)


def _match(s: Session, match_id: int, *, resume: bool) -> MatchRecord | None:
    m = s.get(db.MatchRow, match_id)
    if m is None:
        return None
    journal = [a.action for a in s.scalars(
        select(db.ActionRow).where(db.ActionRow.match_id == m.id).order_by(db.ActionRow.n))]
    rec = MatchRecord(id=m.id, room_code=m.room_code, status=m.status, rules=dict(m.rules),
                      seed=m.seed, max_hands=m.max_hands, seats=list(m.seats),
                      scores=list(m.scores), journal=journal,
                      fixed_dealers=bool(m.fixed_dealers))
    if resume:
        rec.stored_events = s.scalar(select(func.count()).select_from(db.EventRow)
                                     .where(db.EventRow.match_id == m.id)) or 0
        last = list(s.scalars(select(db.EventRow.data).where(db.EventRow.match_id == m.id)
                              .order_by(db.EventRow.n.desc()).limit(1)))
        rec.last_event = last[0] if last else None
        for pid, seq in s.execute(
                select(db.ActionRow.player_id, func.max(db.ActionRow.client_seq))
                .where(db.ActionRow.match_id == m.id, db.ActionRow.player_id.is_not(None))
                .group_by(db.ActionRow.player_id)):
            if pid is not None and seq is not None:
                rec.last_seq[pid] = int(seq)
    return rec


def _stored_already(s: Session, p: Progress) -> bool:
    """Whether ``p`` was committed (it is one transaction: its last row tells)."""
    if p.actions:
        table, n = ACTIONS, p.actions[-1]["n"]
    elif p.events:
        table, n = EVENTS, p.events[-1]["n"]
    else:
        return False
    found = s.connection().execute(
        select(table.c.n).where(table.c.match_id == p.match_id, table.c.n == n)).first()
    return found is not None


def _progress_rest(s: Session, p: Progress, hooks: TxHooks, *, insert: bool = False) -> None:
    """What ``p`` stores beyond its journal entries and events (those too with ``insert``)."""
    s.flush()  # an ORM write earlier in the same batch lands first
    conn = s.connection()
    mid = p.match_id
    wins = {e["hand"]: e["data"] for e in p.events if e["kind"] == "win"}
    if insert and p.actions:
        conn.execute(ACTIONS.insert(), p.actions)
    if insert and p.events:
        conn.execute(EVENTS.insert(), p.events)
    now = datetime.now(UTC)
    for hr in p.hands:
        end = hr.get("end")
        if end is None:
            conn.execute(HANDS.insert(), [{"match_id": mid, "number": hr["number"],
                                           "dealer": hr["dealer"], "commitment": hr["commitment"]}])
            continue
        conn.execute(
            update(HANDS).where(HANDS.c.match_id == mid, HANDS.c.number == hr["number"])
            .values(seed=end.get("seed"), ended_at=now,
                    result={"winner": end.get("winner"), "deltas": end.get("deltas"),
                            "hands": end.get("hands")}))
        score_rows = _hand_score_rows(p, hr["number"], end, wins.get(hr["number"]))
        if score_rows:
            conn.execute(SCORES.insert(), score_rows)
    for seat, deltas in p.escapes:
        conn.execute(SCORES.insert(), [
            {"match_id": mid, "hand": p.hand_no, "seat": st, "player_id": p.seat_pids[st],
             "kind": f"escape{seat}", "delta": d} for st, d in enumerate(deltas)])
    for hook in hooks.progress:  # coin tables settle hands and escapes (laizi.server.ledger.coins)
        hook(conn, p)
    if p.match_values is not None:
        values = dict(p.match_values)
        if p.over:
            values["result"] = {"scores": values["scores"]}
        conn.execute(update(MATCHES).where(MATCHES.c.id == mid).values(**values))
        if p.over:
            conn.execute(update(MATCHES).where(MATCHES.c.id == mid, MATCHES.c.finished_at.is_(None))
                         .values(finished_at=now))
            _match_players(conn, p, values, hooks.rate)  # history and ratings (laizi.server.accounts.ratings)
    if p.room_values is not None:
        conn.execute(update(ROOMS).where(ROOMS.c.code == p.room_code)
                     .values(**p.room_values, updated_at=now))


def _hand_score_rows(p: Progress, number: int, end: dict[str, Any],
                     win: dict[str, Any] | None) -> list[dict[str, Any]]:
    """The ``scores`` rows of a hand's end: each seat's delta and its figures (won, by
    self-draw, the big hands won with, what it paid as the liable seat)."""
    winner = end.get("winner")
    score = (win or {}).get("score") or {}
    liable = score.get("liable")
    self_draw = (win or {}).get("by") == "self_draw"
    big = ",".join(str(b) for b in score.get("big_hands") or [])[:200]
    rows = []
    for seat, d in enumerate(end.get("deltas") or []):
        won = winner == seat
        # A hand finished by the bot of an escaped player is not that player's hand.
        pid = None if seat in p.escaped else p.seat_pids[seat]
        rows.append({"match_id": p.match_id, "hand": number, "seat": seat,
                     "player_id": pid, "kind": "hand", "delta": d,
                     "won": int(won), "self_draw": int(won and self_draw),
                     "big": big if won and big else None,
                     "liable_paid": float(-d) if liable == seat and d < 0 else 0.0})
    return rows


def _match_players(conn: Any, p: Progress, values: dict[str, Any], rate: RateHook | None) -> None:
    """A finished match: who sat where, final score and place; the ratings of a rated room
    (``rate``: :func:`laizi.server.accounts.ratings.rate_finished`)."""
    seats = values.get("seats") or []
    scores = [float(x) for x in values.get("scores") or []]
    if len(seats) != 4 or len(scores) != 4:
        return
    if conn.execute(select(func.count()).select_from(MATCH_PLAYERS)
                    .where(MATCH_PLAYERS.c.match_id == p.match_id)).scalar():
        return  # stored already
    place = places(scores)
    rated = rate(conn, p, seats, scores, place) if rate is not None else set()
    conn.execute(MATCH_PLAYERS.insert(), [
        {"match_id": p.match_id, "seat": i, "player_id": st.get("player_id"), "bot": st.get("bot"),
         "escaped": int(bool(st.get("escaped"))), "score": scores[i], "place": place[i],
         "rated": int(i in rated)}
        for i, st in enumerate(seats)])
