"""The hub: every room in memory, the store, guest identities, the WebSocket connections'
whereabouts (which room each is in). Where rooms run — this process alone, or one node of
a cluster — it asks its room directory (:mod:`laizi.server.tables.directory`), set at start-up."""

from __future__ import annotations

import asyncio
import gc
import logging
import os
import secrets
import string
import time
from collections.abc import Awaitable, Callable
from typing import Any

from sqlalchemy.orm import Session

from laizi.errors import LaiziError
from laizi.rules import RuleSet
from laizi.server.accounts import ranks, ratings
from laizi.server.accounts.auth import GuestAuth, clean_nickname, new_player_id
from laizi.server.clubs.etiquette import Mutes
from laizi.server.clubs.fields import club_member, event_club
from laizi.server.common import protocol as p
from laizi.server.common.config import ServerConfig, room_rules
from laizi.server.common.connection import Conn
from laizi.server.common.connset import ConnSet
from laizi.server.common.protocol import ProtocolError, RoomSettings, RoomStatus
from laizi.server.common.shutdown import bounded
from laizi.server.guard.ops import Ops
from laizi.server.ledger import coins
from laizi.server.persistence.db import normalize_url
from laizi.server.persistence.socialdb import CoinTableRow
from laizi.server.persistence.store import Store
from laizi.server.tables.directory import LocalDirectory, RoomDirectory
from laizi.server.tables.engine import hand_frames
from laizi.server.tables.room import Room
from laizi.server.tables.roomwire import as_sent, remember
from laizi.server.tables.runtime import HeapFreezer, warm_up
from laizi.server.tables.seating import Seating
from laizi.server.tables.seats import bot_levels

__all__ = ["CODE_ALPHABET", "CODE_LEN", "Hub", "Refused"]

log = logging.getLogger("laizi.server")

CODE_ALPHABET = "".join(c for c in string.ascii_uppercase + string.digits if c not in "O0I1L")
CODE_LEN = 5
ROOM_LIST_MAX = 200  # rooms listed by GET /api/rooms
SESSION_SWEEP = 0.25  # seconds between checks of the open sockets' credentials
JOIN_TRIES = 5  # a join starts over this many times when its room left memory meanwhile

#: what a caller of :meth:`Hub.open_table` answers a refused coin seat: the seating instead
#: (given the one refused and the refusal), or None to give the table up
Refused = Callable[[Seating, coins.CoinError], Seating | None]


class Hub:
    def __init__(self, cfg: ServerConfig) -> None:
        self.cfg = cfg
        self.rooms: dict[str, Room] = {}
        self.players: dict[str, str] = {}  # id -> nickname
        self.conns: ConnSet[Conn] = ConnSet()  # every open WebSocket
        self.in_rooms: ConnSet[Conn] = ConnSet()  # every connection in a room here (relayed too)
        self._store: Store | None = None
        self._auth: GuestAuth | None = None
        self.ops = Ops(cfg, self)  # rate limits, connection caps, metrics (laizi.server.guard.ops)
        self.limits = self.ops.limits
        self.db_label = normalize_url(cfg.db_url).split("@")[-1]
        self.started = False
        self.stats: dict[str, float] = {"actions": 0, "bot_moves": 0, "errors": 0,
                                          "rooms_evicted": 0, "conns_dropped": 0,
                                          "conns_refused": 0, "conns_direct": 0,
                                          "frames_direct": 0, "writes_direct": 0}
        self.freezer = HeapFreezer(cfg.gc_interval)
        self.mutes = Mutes()  # who mutes whose chat (laizi.server.clubs.etiquette)
        # Why a match's table may not be watched now (None: it may), asked when someone not
        # seated there joins: a duplicate tournament round in play (competitions.tournaments)
        self.watch_gates: list[Callable[[int], Awaitable[str | None]]] = []
        self._sweeper: asyncio.Future[None] | None = None
        self._session_sweeper: asyncio.Future[None] | None = None
        # Where rooms run (laizi.server.tables.directory): this process alone, unless the wiring
        # makes it one node of a cluster (laizi.server.cluster.node.Node) before start.
        self.directory: RoomDirectory = LocalDirectory(self.rooms, self.load_all, self.conns)

    @property
    def store(self) -> Store:
        assert self._store is not None, "the hub is not started"
        return self._store

    @property
    def auth(self) -> GuestAuth:
        assert self._auth is not None, "the hub is not started"
        return self._auth

    # ------------------------------------------------------------- lifecycle
    async def start(self) -> None:
        if self.started:
            return
        self._store = await Store.open(self.cfg.db_url)
        coins.register(self._store)  # coin tables settle in the match's own transaction
        ratings.register(self._store)  # and rated matches are rated there
        secret = self.cfg.secret or os.environ.get("LAIZI_SECRET")
        if not secret:
            secret = await self.store.meta_default("token_secret", secrets.token_hex(32))
        self._auth = GuestAuth(secret)
        await self.directory.start()
        self.started = True
        await self.ops.start()
        warm_up()
        if self.cfg.gc_freeze:
            self.freezer.start()
        self._sweeper = asyncio.ensure_future(self._sweep_lobbies())
        self._session_sweeper = asyncio.ensure_future(self._sweep_sessions())
        for room in self.rooms.values():
            if room.status == RoomStatus.PLAYING:
                room.schedule()
            elif room.status == RoomStatus.FINISHED:  # back for its 再来一局 votes, then gone again
                self._finished(room)

    async def stop(self) -> None:
        if self._store is not None:  # a cluster node hands its rooms over first (drain)
            await bounded("the directory", self.directory.stop())
        self.freezer.stop()
        await bounded("the operations", self.ops.stop())
        if self._sweeper is not None:
            self._sweeper.cancel()
        if self._session_sweeper is not None:
            self._session_sweeper.cancel()
        for room in self.rooms.values():
            room.cancel_timer()
        if self._store is not None:
            await self._store.close()
        self.started = False

    def health_stats(self) -> dict[str, Any]:
        out: dict[str, Any] = dict(self.stats)
        out.update(gc_passes=self.freezer.passes, gc_max_ms=self.freezer.max_ms)
        if self._store is not None:
            out.update(self._store.stats())
        out["gc_frozen"] = gc.get_freeze_count()
        out["connections"] = len(self.conns)
        return out

    def load_all(self) -> None:
        """Rebuild every unfinished room; matches in progress are replayed from the journal
        (one process: :class:`laizi.server.tables.directory.LocalDirectory`)."""
        self.players.update(self.store.load_players())
        for rec in self.store.load_unfinished_rooms(finished_within=self.cfg.finished_linger):
            try:
                room = Room.resume(rec, **self._room_kw())
            except Exception:  # noqa: BLE001 - a broken room must not stop the server
                log.exception("room %s could not be resumed", rec.code)
                continue
            self.rooms[room.code] = room

    def _room_kw(self) -> dict[str, Any]:
        """What a room is given of the hub."""
        return {"cfg": self.cfg, "store": self.store, "stats": self.stats,
                "on_finished": self._finished, "hold": self.directory.hold,
                "conn_index": self.in_rooms}

    def room_kw(self) -> dict[str, Any]:
        """What a room is given of the hub (a room taken over: laizi.server.cluster.node)."""
        return self._room_kw()

    def _finished(self, room: Room) -> None:
        """A match ended: its room leaves memory after ``finished_linger`` seconds."""
        asyncio.get_running_loop().call_later(self.cfg.finished_linger, self._evict, room.code)

    async def _sweep_sessions(self) -> None:
        """Close the open WebSockets whose credential ended (log out, log out everywhere, a
        password change, a rotated token, a guest who became an account) — on this node or
        any other, whose changes reach :attr:`auth` over the bus at once (and the database
        sync every second): within :data:`SESSION_SWEEP` seconds of it."""
        while True:
            await asyncio.sleep(SESSION_SWEEP)
            try:
                for conn in list(self.conns):
                    cred = conn.credential
                    if cred is None or conn.closed or self.auth.still_valid(cred):
                        continue
                    conn.credential = None
                    self.stats["sessions_closed"] = self.stats.get("sessions_closed", 0) + 1
                    conn.error("session_ended", "this session ended (logged out, a new password, "
                                                "or the account changed): sign in again")
                    conn.close()
            except Exception:  # noqa: BLE001 - the sweep goes on
                log.exception("session sweep failed")

    async def _sweep_lobbies(self) -> None:
        """Close lobbies nobody has been in for ``lobby_idle`` seconds (abandoned rooms
        must not pile up in memory); a closed room cannot be joined again."""
        while True:
            await asyncio.sleep(min(60.0, self.cfg.lobby_idle))
            now = time.monotonic()
            for room in [r for r in self.rooms.values() if r.status == RoomStatus.LOBBY]:
                if room.conns or room.idle_since is None or now - room.idle_since < self.cfg.lobby_idle:
                    continue
                try:
                    async with room.lock:
                        if room.conns or room.status != RoomStatus.LOBBY:
                            continue
                        await self.close_room(room)
                except Exception:  # noqa: BLE001 - tried again on the next sweep
                    log.exception("room %s: could not close an idle lobby", room.code)
                    room.status = RoomStatus.LOBBY
                    continue
                self.stats["rooms_evicted"] += 1

    async def close_room(self, room: Room) -> None:
        """Close ``room`` for good (stored as closed; it cannot be joined again) and let it
        go from memory (under its lock)."""
        room.status = RoomStatus.CLOSED
        await room.save_room()
        self.rooms.pop(room.code, None)
        room.close()
        self.directory.room_gone(room.code)

    def _evict(self, code: str) -> None:
        room = self.rooms.get(code)
        if room is None or room.status != RoomStatus.FINISHED:
            return
        if room.lock.locked():  # a command is running: try again shortly
            asyncio.get_running_loop().call_later(1.0, self._evict, code)
            return
        del self.rooms[code]
        room.close()
        self.stats["rooms_evicted"] += 1
        self.directory.room_gone(code)

    # ------------------------------------------------------------- players
    async def check_rank(self, pid: str | None, settings: RoomSettings) -> None:
        """A table limited to a 段位 range (``rank_min``/``rank_max``) seats only players in
        it: :class:`ProtocolError` ``rank_out_of_range`` otherwise. Every way to a seat asks
        here (the socket's ``sit``, a club's quick seat, the host of a club table)."""
        lo, hi = settings.rank_min, settings.rank_max
        if lo is None and hi is None or pid is None:
            return

        def read() -> ranks.Rank:
            with self.store.engine.connect() as c:
                return ranks.rank_of_player(c, pid)

        r = await asyncio.to_thread(read)
        if (lo is not None and r.index < lo) or (hi is not None and r.index > hi):
            span = f"{ranks.RANKS[lo or 0].en} to {ranks.RANKS[ranks.RANK_MAX if hi is None else hi].en}"
            raise ProtocolError("rank_out_of_range", f"this table seats {span}; you are {r.en} "
                                                     "(you may watch)")

    async def known_player(self, pid: str) -> bool:
        """Whether ``pid`` is a player of this server: made here, or (a cluster) made on
        another node — then learnt from the database and remembered."""
        if pid not in self.players:
            known = await self.directory.find_player(pid)
            if known is not None:
                self.players[pid] = known
        return pid in self.players

    async def identify(self, token: object) -> str | None:
        """The player a token names (:meth:`GuestAuth.check`) — on a cluster also when the
        login, registration or rotation that made it happened on another node a moment ago
        and its announcement has not arrived yet (or was lost): a well-signed token this node
        does not know yet triggers one catch-up read of the database (shared by every request
        that arrived before it started) before it is refused. Every token-checked entry point
        (HTTP APIs, the socket's hello) asks here."""
        arrived = time.monotonic()
        pid = self.auth.check(token)
        if pid is None and self.auth.stale(token) and \
                await self.directory.sync_identities(after=arrived):
            pid = self.auth.check(token)
        return pid

    async def guest(self, token: str | None, nickname: Any, *, rename: bool = False,
                    peer: str | None = None) -> dict[str, Any]:
        """The identity a token names (renamed to ``nickname`` if given with ``rename``:
        otherwise its stored name stands), else a new guest named ``nickname`` (at most
        ``GUESTS_PER_IP`` from ``peer``: a :class:`ProtocolError`)."""
        pid = await self.identify(token) if token else None
        if pid is not None:
            await self.known_player(pid)
        nick = None
        if nickname is not None and nickname != "":
            nick = clean_nickname(nickname)
        if pid is not None and pid in self.players:
            if rename and nick and nick != self.players[pid]:
                self.players[pid] = nick
                await self.store.set_nickname(pid, nick)
            return {"player_id": pid, "nickname": self.players[pid],
                    "token": self.auth.reissue(token, pid)}  # accounts: keeps the session
        if peer is not None:
            await self.limits.check("guest", peer)
        pid = new_player_id()
        nick = nick or f"游客{secrets.randbelow(9000) + 1000}"
        self.players[pid] = nick
        await self.store.add_player(pid, nick)
        return {"player_id": pid, "nickname": nick, "token": self.auth.issue(pid)}

    def bot_levels(self) -> list[str]:
        return bot_levels()

    # ------------------------------------------------------------- queries
    def list_rooms(self) -> list[dict[str, Any]]:
        """The public rooms, lobbies first (a cluster: every node's, a second old)."""
        return self.directory.list_rooms(ROOM_LIST_MAX)

    async def room_info(self, code: str, viewer: str | None = None, *,
                        private_ok: bool = False) -> dict[str, Any] | None:
        """A room's lobby info; None when there is no such room — or it is private and
        ``viewer`` is not one of its members (its host, a player seated there, one in the
        room now, or one it was invited to), so its code cannot be found by asking."""
        code = code.strip().upper()
        if len(code) > CODE_LEN:
            return None
        room = self.rooms.get(code)
        if room is not None:
            info = room.lobby_json()
            members = {room.owner_id, *(s.player_id for s in room.seats),
                       *(c.player_id for c in room.conns)}
        else:
            rec = await asyncio.to_thread(self.store.load_room, code)
            if rec is None:
                return None
            info = Room.stored_json(rec)
            members = {rec.owner_id, *(s.get("player_id") for s in rec.seats)}
        if not info.get("private") or private_ok:
            return info
        if viewer is not None and (viewer in members or await asyncio.to_thread(
                self.store.invited, code, viewer)):
            return info
        return None

    async def replay(self, match_id: int) -> dict[str, Any] | None:
        def load() -> dict[str, Any] | None:
            m = self.store.load_match(match_id)
            if m is None:
                return None
            frames = hand_frames(RuleSet(**m.rules), bytes.fromhex(m.seed), m.journal,
                                 max_hands=m.max_hands)
            return {"match_id": m.id, "room": m.room_code, "status": m.status,
                    "seats": m.seats, "scores": m.scores,
                    "hands": [{"hand": h, "frames": f} for h, f in sorted(frames.items())]}

        return await asyncio.to_thread(load)

    # ------------------------------------------------------------- rooms and connections
    def room_of(self, conn: Conn) -> Room | None:
        room = self.rooms.get(conn.room_code) if conn.room_code else None
        return room if room is not None and conn in room.conns else None

    async def create_room(self, conn: Conn, settings: RoomSettings) -> None:
        if settings.club is not None:
            raise ProtocolError("bad_settings", "a club's tables are opened through the club "
                                                "(POST /api/clubs/{id}/tables)", "club")
        try:
            room_rules(settings)
        except LaiziError as exc:
            raise ProtocolError("bad_settings", str(exc), getattr(exc, "option", None)) from None
        await self.limits.check("room", conn.peer, conn.player_id)
        room = await self.open_room(settings, conn.player_id)
        await self.join(conn, room.code, False)

    # a room opened by the server, not by a connection
    async def open_room(self, settings: RoomSettings, owner_id: str | None = None) -> Room:
        """A new room under a fresh code, stored, in memory; nobody is in it yet."""
        room_rules(settings)
        code = await self._new_code()
        room = Room(code, settings, owner_id, **self._room_kw())
        self.rooms[code] = room
        await room.save_room()
        return room

    async def open_table(self, settings: RoomSettings, seating: Seating, *,
                         code: str | None = None, owner_id: str | None = None,
                         coin_level: str | None = None,
                         before: Callable[[Room], Awaitable[None]] | None = None,
                         refused: Refused | None = None) -> Room | None:
        """The server opens a table and starts its match (quick match, a tournament table, a
        club table its bots fill): the one way it does, the caller saying only who sits and
        with what settings. ``code``: the table's own code (a tournament's: the room in
        memory if it is here, else opened under it — a cluster: its lease claimed first),
        else a fresh one. ``coin_level``: a coin table of that 场次 (recorded before the
        start: its hands settle in coins). ``before``: what the caller records of the room
        before its match starts. Then, under the room's lock, the match starts unless it has
        (:meth:`Room.seat_and_start`); a refused coin seat asks ``refused`` for the seating
        instead (None: the table is given up and the room closed; no ``refused``: the
        :class:`CoinError` is the caller's). None when another node holds the room, or the
        table was given up."""
        if code is None:
            room: Room | None = await self.open_room(settings, owner_id)
        else:
            room = self.rooms.get(code) or await self._claimed_room(code, settings, owner_id)
        if room is None:
            return None  # another node of the cluster holds the table (it opens it)
        if coin_level is not None:
            await self._coin_table(room, coin_level)
        if before is not None:
            await before(room)
        async with room.lock:
            while room.game is None:
                try:
                    if not await room.seat_and_start(seating):
                        return None  # another node of the cluster holds the table now
                except coins.CoinError as exc:
                    if refused is None:
                        raise
                    log.info("room %s: %s", room.code, exc.message)
                    instead = refused(seating, exc)
                    if instead is None:
                        await self.close_room(room)
                        return None
                    seating = instead
        return room

    async def _coin_table(self, room: Room, level: str) -> None:
        """``room`` is a coin table of 场次 ``level``: shown, and (a stake) recorded, so its
        hands settle in coins and it is rated."""
        room.coin = coins.table_info(level)
        stake = coins.LEVELS[level].stake
        if stake > 0:
            def write(s: Session) -> None:
                s.add(CoinTableRow(room_code=room.code, level=level, stake=stake))

            await self.store.writer.write(write)

    def _tier(self, pid: str) -> dict[str, Any]:
        with self.store.engine.connect() as c:
            return ranks.rank_json(ranks.rank_of_player(c, pid))

    async def join(self, conn: Conn, code: str, spectate: bool) -> None:
        code = code.strip().upper()
        for _ in range(JOIN_TRIES):
            if await self._join(conn, code, spectate):
                return
        raise ProtocolError("room_moved", f"room {code} moved to another server; join it again")

    async def _join(self, conn: Conn, code: str, spectate: bool) -> bool:
        """One try of :meth:`join`; False when the room left this node's memory while the
        join waited (for the room's lock, the player's tier, a take in flight: a cluster
        node gave it up or drained it) — the join starts over and finds where it runs now."""
        if conn.relay is not None:
            self.directory.unbind(conn)  # it was in a room on another node
        room = self.rooms.get(code)
        if room is None and not conn.remote:
            where = await self.directory.locate(code)  # taken over here, or another node's
            if isinstance(where, str):
                old = self.room_of(conn)
                if old is not None:
                    await self.leave_room(conn, old)
                self.directory.relay(conn, code, where, spectate)  # the owner answers
                return True
            room = where
        if room is None:
            info = await self.room_info(code)
            if info is not None and info["status"] == "finished":
                raise ProtocolError("room_finished", f"room {code} has finished; see the replay of "
                                                     f"match {info['match_id']}")
            if info is not None and info["status"] == "closed":
                raise ProtocolError("room_closed", f"room {code} was closed: nobody was in it")
            raise ProtocolError("unknown_room", f"no room with code {code[:8]!r}")
        if conn.player_id in room.banned:
            raise ProtocolError("kicked", "the host removed you from this room")
        await self._club_door(room, conn, spectate)
        await self._watch_door(room, conn)
        old = self.room_of(conn)
        if old is not None and old is not room:
            await self.leave_room(conn, old)
        pid = conn.player_id
        if pid is not None and pid not in room.tiers:  # its 段位, shown on its plate
            room.tiers[pid] = await asyncio.to_thread(self._tier, pid)
        muted = frozenset() if pid is None else await self.mutes.load(self.store.engine, pid)
        async with room.lock:
            if self.rooms.get(code) is room and room.owner_id is None and room.coin is None:
                # a room left without a host: the next one in (a quick-match table has none)
                room.owner_id = conn.player_id
                await room.save_room()
            if self.rooms.get(code) is not room:
                # Given up meanwhile (closed: no game, no connections): joining that copy
                # left the seat in a room nobody plays, without a snapshot (a frozen table).
                if conn.remote:  # its node finds the room again (RemoteConns: "moved")
                    raise ProtocolError("room_moved", f"room {code} moved to another server")
                return False
            room.idle_since = None
            conn.room_code = room.code
            room.conns.add(conn)
            seat = None if spectate else room.seat_of(conn.player_id)
            conn.seat = seat if room.game is not None else None
            conn.sent_v = 0
            if seat is not None and room.status == RoomStatus.PLAYING:
                room.back(seat)
            log = [e for e in room.chat_log if e.get("player_id") not in muted][-30:]
            info = as_sent(room.lobby_json())
            conn.send(p.joined(info, seat, log))
            remember(conn, room.code, info)
            if muted:
                conn.send(p.muted(sorted(muted)))
            if room.game is not None:
                room.send_snapshot(conn)
                vote = None if room.game.over else room.flow.dissolve_open(room.seats)
                if vote is not None:  # an open 解散 proposal: its bar again
                    conn.send(p.dissolve(*vote))
            room.broadcast_lobby()
        return True

    async def _club_door(self, room: Room, conn: Conn, spectate: bool) -> None:
        """A club's table admits its members only. A club event's table (a tournament's room,
        its owner ``t<id>``): its entrants (members when they registered) come back to their
        seats, anyone else must be a member to join — and to watch, if the club is private."""
        club, owner, pid = room.settings.club, room.owner_id or "", conn.player_id
        what = "a club's table"
        if club is None and owner[:1] == "t" and owner[1:].isdigit():
            event = await asyncio.to_thread(event_club, self.store.engine, int(owner[1:]))
            if event is None or (pid is not None and room.seat_of(pid) is not None):
                return
            club, what = event[0], "a club event's table"
            if spectate and not event[1]:
                return  # a public club's event: anyone may watch
        if club is not None and not await asyncio.to_thread(club_member, self.store.engine, club, pid):
            raise ProtocolError("club_only", f"this is {what}: the club's members only")

    async def _watch_door(self, room: Room, conn: Conn) -> None:
        """Anyone not seated at ``room`` watches it — unless a watch gate withholds its match
        now (:attr:`watch_gates`: a duplicate tournament round in play)."""
        pid = conn.player_id
        if room.match_id is None or (pid is not None and room.seat_of(pid) is not None):
            return
        for gate in self.watch_gates:
            why = await gate(room.match_id)
            if why is not None:
                raise ProtocolError("watch_withheld", why)

    async def leave_room(self, conn: Conn, room: Room) -> None:
        async with room.lock:
            await self.detach(conn, room)
            room.broadcast_lobby()

    async def detach(self, conn: Conn, room: Room) -> None:
        """Take ``conn`` out of ``room`` (under its lock); the last connection of the host
        hands the role on."""
        room.conns.discard(conn)
        if conn.room_code == room.code:
            conn.room_code = None
            conn.seat = None
        if not room.conns:
            room.idle_since = time.monotonic()
        pid = conn.player_id
        if room.conns.of(pid):
            return
        if room.hand_on_host(pid):
            await room.save_room()

    async def disconnected(self, conn: Conn) -> None:
        if not conn.remote:
            self.directory.unbind(conn, closing=True)  # relayed: the owner is told
        pid = conn.player_id
        if pid is not None and not any(c is not conn for c in self.in_rooms.of(pid)):
            self.mutes.forget(pid)  # read again at the player's next join
        room = self.room_of(conn)
        if room is None:
            return
        async with room.lock:
            await self.detach(conn, room)
            pid = conn.player_id
            seat = room.seat_of(pid)
            still = bool(room.conns.of(pid))
            if seat is not None and not still and room.status == RoomStatus.PLAYING:
                room.away(seat)
            room.broadcast_lobby()

    # ------------------------------------------------------------- room codes
    async def _new_code(self) -> str:
        """A fresh room code, owned by this node in a cluster (its lease and fence taken)."""
        for _ in range(100):
            code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LEN))
            if code not in self.rooms and await self.directory.claim(code):
                return code
        raise ProtocolError("busy", "no free room code now; try again")

    async def _claimed_room(self, code: str, settings: RoomSettings,
                            owner_id: str | None) -> Room | None:
        """A room the server itself opens under ``code`` (a tournament table:
        :meth:`open_table`). In a cluster this node takes the room's lease first: None when
        another node holds it."""
        if not await self.directory.claim(code):
            return None
        room = Room(code, settings, owner_id, **self._room_kw())
        self.rooms[code] = room
        return room
