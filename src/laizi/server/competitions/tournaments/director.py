"""The tournament director: registrations, the start, each round's seating and tables,
results and the next round — and, after a restart, picking all of it up again.

Everything it decides is written before it acts on it (a round's tables, seeds and
commitments are stored before their rooms open), and it only ever reads the rooms' own
durable records (the ``match_players`` rows a finished match writes in its last
transaction) to learn a result. So a server killed at any moment resumes: the hub
rebuilds the tables' matches from their journals, and :meth:`Director.start` finds the
running tournaments, opens the tables that were not open yet and records the results it
had not recorded.

A table's room is opened by the server (:meth:`laizi.server.tables.hub.Hub.open_table`, under
the table's code) with the seats reserved — the entrants' players, bots for bot entrants — and
its match starts at once from the table's secret seed (``Seating.deal_seed``). An entrant not at the table is
played by 托管 after the server's disconnect grace; one still absent ``no_show_seconds``
after the table opened (counted again from a restart) escapes — the engine charges the
escape penalty — as does a player who leaves the table.

A tournament with a start time (``start_at``) starts by itself once that time has come and
at least ``AUTO_START_MIN`` (4) players have checked in — as if its organiser had pressed
start (the same rules: without bots, a multiple of four). Until then it stays open, and each
tick looks again, so a late check-in starts it; the organiser may still start it earlier
(:mod:`laizi.server.competitions.tournaments.autostart`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING, Any

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from laizi.server.common.errors import ApiError
from laizi.server.competitions.tournaments import records
from laizi.server.competitions.tournaments.autostart import AutoStarter, due, utc
from laizi.server.competitions.tournaments.duplicate import dup_points, hand_commitments
from laizi.server.competitions.tournaments.settings import TournamentSettings
from laizi.server.competitions.tournaments.standings import rank
from laizi.server.competitions.tournaments.swiss import random_tables, swiss_tables
from laizi.server.persistence import db
from laizi.server.persistence.tournamentdb import EntrantRow, RoundRow, TableRow, TournamentRow
from laizi.server.tables.hub import CODE_ALPHABET, CODE_LEN
from laizi.server.tables.seating import Seating, bot_seat, player_seat

if TYPE_CHECKING:
    from laizi.server.tables.hub import Hub

__all__ = ["POLL_SECONDS", "Director", "TournamentError"]

log = logging.getLogger("laizi.server")

POLL_SECONDS = 0.5  # how often running tables are looked at
BOT_NAMES = "机器人"
OPEN_PER_ORGANISER = 5  # tournaments one organiser has in registration or running at once
CREATED_PER_DAY = 20    # tournaments one organiser creates in 24 hours (cancelled ones count)
STEMS = "甲乙丙丁戊己庚辛壬癸"  # bots of a tournament: 机器人甲, 机器人乙 … then 机器人11 …


def bot_nickname(k: int) -> str:
    """The name of a tournament's k-th bot entrant (0-based), the same in the standings and at
    its tables."""
    return f"{BOT_NAMES}{STEMS[k]}" if k < len(STEMS) else f"{BOT_NAMES}{k + 1}"


class TournamentError(ApiError):
    """A refused tournament operation: ``status`` is the HTTP status."""


def _now() -> datetime:
    return datetime.now(UTC)


def _running(s: Session) -> list[int]:
    """The ids of the running tournaments."""
    return [int(t) for t in s.scalars(select(TournamentRow.id).where(TournamentRow.status == "running"))]


def seat_order(table: list[int], index: int, duplicate: bool, rng: secrets.SystemRandom) -> list[int]:
    """Who sits where at a table (``table`` in standing order). Duplicate: the table's
    entrants rotate by the table's index, so the k-th of each table holds a different
    seat — and so a different hand of each deal; else a random order."""
    if duplicate:
        return [table[(s - index) % 4] for s in range(4)]
    out = list(table)
    rng.shuffle(out)
    return out


class Director:
    def __init__(self, hub: Hub) -> None:
        self.hub = hub
        self.lock = asyncio.Lock()
        self.rng = secrets.SystemRandom()
        self._task: asyncio.Task[None] | None = None
        self._opened: dict[str, float] = {}   # room code -> when the director saw it open
        self._no_show_done: set[str] = set()
        self.poll_seconds = POLL_SECONDS
        self.auto = AutoStarter()

    @property
    def engine(self) -> Any:
        return self.hub.store.engine

    async def _write(self, fn: Any) -> Any:
        return await self.hub.store.writer.write(fn)

    async def _read(self, fn: Any) -> Any:
        def run() -> Any:
            with Session(self.engine) as s:
                return fn(s)
        return await asyncio.to_thread(run)

    async def _duplicate_round(self, match_id: int) -> int | None:
        """The round number when ``match_id`` is a table of a duplicate round still in play
        (every table of the round deals the same walls), else None."""
        def read(s: Session) -> int | None:
            row = s.execute(select(TableRow.tournament_id, TableRow.round)
                            .where(TableRow.match_id == match_id).limit(1)).first()
            if row is None:
                return None
            tid, number = row
            t = s.get(TournamentRow, tid)
            if t is None or not (t.settings or {}).get("duplicate"):
                return None
            rnd = s.scalars(select(RoundRow.status).where(RoundRow.tournament_id == tid,
                                                          RoundRow.number == number)).first()
            return None if rnd == "finished" else int(number)
        out: int | None = await self._read(read)
        return out

    async def replay_withheld(self, match_id: int) -> str | None:
        """Why the replay of ``match_id`` is withheld now (None: it is not). A table of a
        duplicate round deals the walls every other table of the round deals: its replay
        (or any of its hands) would tell the tables still playing what they will draw, so
        it is withheld until the whole round is over."""
        number = await self._duplicate_round(match_id)
        if number is None:
            return None
        return (f"a table of round {number} of a duplicate tournament: every table of the "
                "round plays the same walls, so its replay opens when the round is over")

    async def watch_withheld(self, match_id: int) -> str | None:
        """Why a table of ``match_id`` may not be watched now (None: it may). Watching a table
        of a duplicate round shows how the walls of the round are played, and at each hand's
        end its seed and every hand: what the tables still playing it will draw. Its own
        players come back to their seats; nobody else watches until the round is over."""
        number = await self._duplicate_round(match_id)
        if number is None:
            return None
        return (f"a table of round {number} of a duplicate tournament: every table of the "
                "round plays the same walls, so it may be watched when the round is over")

    # ------------------------------------------------------------- lifecycle
    async def start(self) -> None:
        self._task = asyncio.ensure_future(self._loop())

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task
            self._task = None

    async def _loop(self) -> None:
        while True:
            try:
                await self.tick()
            except asyncio.CancelledError:
                raise
            except Exception:  # noqa: BLE001 - tried again on the next tick
                log.exception("tournament director: tick failed")
            await asyncio.sleep(self.poll_seconds)

    async def tick(self) -> None:
        """Start tournaments whose time has come; open tables not open yet, charge no-shows,
        record finished tables, advance rounds. In a cluster one node does it at a time (the
        leader of the job "tournaments": cluster/leader.py) — but the no-shows of a table
        are charged by the node that holds it, leader or not (:meth:`_charge_no_shows`)."""
        leading = await self.hub.directory.lead("tournaments")
        try:
            await self._charge_no_shows()
        except Exception:  # noqa: BLE001 - tried again on the next tick
            log.exception("tournament director: charging no-shows failed")
        if not leading:
            return
        # One read a tick for both questions (an idle server asks them twice a second); read
        # again only when a tournament has just started by itself.
        now = _now()
        due_now, running = await self._read(lambda s: (due(s, now), _running(s)))
        try:
            if await self.auto.start_due(due_now, self._start_on_time):
                running = await self._read(_running)
        except Exception:  # noqa: BLE001 - tried again on the next tick
            log.exception("tournament director: automatic starts failed")
        for tid in running:
            try:
                async with self.lock:
                    await self._advance(tid)
            except Exception:  # noqa: BLE001 - one tournament's trouble must not stop the others
                log.exception("tournament %s: could not advance", tid)

    # ------------------------------------------------------------- operations
    async def create(self, organiser: str, settings: TournamentSettings) -> dict[str, Any]:
        def write(s: Session) -> int:
            # checked in the writing transaction: a burst of requests cannot slip past it
            open_now = s.scalar(select(func.count()).select_from(TournamentRow).where(
                TournamentRow.organiser_id == organiser,
                TournamentRow.status.in_(("registration", "running")))) or 0
            if open_now >= OPEN_PER_ORGANISER:
                raise TournamentError(f"at most {OPEN_PER_ORGANISER} tournaments of yours open at "
                                      "once: start or finish one first", 429)
            # (created and cancelled in a loop, they pushed every other one off the list)
            made = s.scalar(select(func.count()).select_from(TournamentRow).where(
                TournamentRow.organiser_id == organiser,
                TournamentRow.created_at >= _now() - timedelta(days=1))) or 0
            if made >= CREATED_PER_DAY:
                raise TournamentError(f"at most {CREATED_PER_DAY} tournaments of yours a day: "
                                      "try again tomorrow", 429, code="tournaments_per_day",
                                      params={"max": CREATED_PER_DAY})
            t = TournamentRow(name=settings.name, organiser_id=organiser,
                              settings=settings.model_dump(mode="json", exclude={"name", "start_at"}),
                              start_at=utc(settings.start_at) if settings.start_at else None,
                              status="registration", club_id=settings.club)
            s.add(t)
            s.flush()
            return t.id

        tid = await self._write(write)
        return {"id": tid}

    async def _load(self, tid: int) -> tuple[TournamentRow, TournamentSettings]:
        row = await self._read(lambda s: records.tournament(s, tid))
        if row is None:
            raise TournamentError("unknown tournament", 404, code="unknown_tournament")
        return row, settings_of(row)

    async def register(self, tid: int, pid: str, nickname: str) -> dict[str, Any]:
        async with self.lock:
            t, st = await self._load(tid)
            if t.status != "registration":
                raise TournamentError(f"the tournament is {t.status}: registration is closed", 409)

            have = await self._read(lambda s: records.entrants(s, tid))
            if any(e["player_id"] == pid for e in have):
                raise TournamentError("you are registered already", 409)
            if len(have) >= st.seats:
                raise TournamentError(f"the tournament is full ({st.seats} seats)", 409)
            number = max((e["number"] for e in have), default=0) + 1

            def write(s: Session) -> None:
                s.add(EntrantRow(tournament_id=tid, number=number, player_id=pid,
                                 nickname=nickname[:32], checked_in=0))

            await self._write(write)
        return {"ok": True, "number": number}

    async def unregister(self, tid: int, pid: str) -> dict[str, Any]:
        async with self.lock:
            t, _ = await self._load(tid)
            if t.status != "registration":
                raise TournamentError(f"the tournament is {t.status}: entries are fixed", 409)

            if not await self._read(lambda s: self._entrant(s, tid, pid)):
                raise TournamentError("you are not registered", 409)

            def write(s: Session) -> None:
                e = s.scalar(select(EntrantRow).where(EntrantRow.tournament_id == tid,
                                                      EntrantRow.player_id == pid))
                if e is not None:
                    s.delete(e)

            await self._write(write)
        return {"ok": True}

    @staticmethod
    def _entrant(s: Session, tid: int, pid: str) -> bool:
        return s.scalar(select(EntrantRow.id).where(EntrantRow.tournament_id == tid,
                                                    EntrantRow.player_id == pid)) is not None

    async def check_in(self, tid: int, pid: str) -> dict[str, Any]:
        async with self.lock:
            t, _ = await self._load(tid)
            if t.status != "registration":
                raise TournamentError(f"the tournament is {t.status}: check-in is closed", 409)

            if not await self._read(lambda s: self._entrant(s, tid, pid)):
                raise TournamentError("register before checking in", 409)

            def write(s: Session) -> None:
                e = s.scalar(select(EntrantRow).where(EntrantRow.tournament_id == tid,
                                                      EntrantRow.player_id == pid))
                if e is not None:
                    e.checked_in = 1

            await self._write(write)
        return {"ok": True}

    async def cancel(self, tid: int, pid: str) -> dict[str, Any]:
        async with self.lock:
            t, _ = await self._load(tid)
            if t.organiser_id != pid:
                raise TournamentError("only the organiser can cancel this tournament", 403)
            if t.status in ("finished", "cancelled"):
                raise TournamentError(f"the tournament is {t.status} already", 409)

            def write(s: Session) -> None:
                row = s.get(TournamentRow, tid)
                assert row is not None
                row.status = "cancelled"
                row.finished_at = _now()

            await self._write(write)
        return {"ok": True}

    async def _start_on_time(self, tid: int, organiser: str) -> dict[str, Any] | str:
        """The start at ``start_at`` (autostart): the refusal's message instead of an error."""
        try:
            return await self.start_tournament(tid, organiser)
        except TournamentError as exc:
            return exc.message

    async def start_tournament(self, tid: int, pid: str) -> dict[str, Any]:
        async with self.lock:
            t, st = await self._load(tid)
            if t.organiser_id != pid:
                raise TournamentError("only the organiser can start this tournament", 403)
            if t.status != "registration":
                raise TournamentError(f"the tournament is {t.status} already", 409)
            present = await self._read(lambda s: records.entrants(s, tid, playing_only=True))
            humans = len(present)
            if humans == 0:
                raise TournamentError("nobody has checked in", 409)
            if st.bots_fill:
                total = max(4, (st.seats + 3) // 4 * 4)
            else:
                if humans < 4 or humans % 4:
                    raise TournamentError(
                        f"{humans} players checked in: tables need a multiple of 4 "
                        "(or allow bots to fill the empty seats)", 409)
                total = humans

            def enter(s: Session) -> None:
                row = s.get(TournamentRow, tid)
                assert row is not None
                # entrants who did not check in are not in the tournament
                for e in s.scalars(select(EntrantRow).where(EntrantRow.tournament_id == tid,
                                                            EntrantRow.checked_in == 0)):
                    s.delete(e)
                top = s.scalar(select(func.max(EntrantRow.number))
                               .where(EntrantRow.tournament_id == tid)) or 0
                for k in range(total - humans):
                    s.add(EntrantRow(tournament_id=tid, number=top + k + 1, player_id=None,
                                     bot=st.bot_level, nickname=bot_nickname(k), checked_in=1))
                row.status = "running"
                row.started_at = _now()

            # running and its first round are stored in one write: nobody sees (and a crash
            # cannot leave) a running tournament without tables
            await self._new_round(tid, st, 1, total // 4, before=enter)
        return {"ok": True, "entrants": total, "bots": total - humans}

    # ------------------------------------------------------------- rounds
    async def _new_round(self, tid: int, st: TournamentSettings, number: int,
                         n_tables: int | None = None,
                         before: Callable[[Session], None] | None = None) -> None:
        """Seat round ``number``, store its tables (seeds, commitments), then open them.
        ``before`` runs first in the same write (the start: entrants and status)."""
        if n_tables is None:
            n_tables = await self._read(lambda s: len(records.entrants(s, tid, playing_only=True))) // 4
        seeds, coms = await asyncio.to_thread(self._round_walls, st, n_tables)

        def write(s: Session) -> None:
            nonlocal seeds, coms
            if before is not None:
                before(s)
                s.flush()
            row = s.get(TournamentRow, tid)
            assert row is not None
            if s.scalar(select(RoundRow).where(RoundRow.tournament_id == tid, RoundRow.number == number)):
                return  # stored already (a retried write)
            ents = records.entrants(s, tid, playing_only=True)
            if number == 1:
                tables = random_tables([e["id"] for e in ents], self.rng)
            else:
                order = [r["entrant_id"] for r in standings_of(s, tid, st)]
                met = [frozenset(int(x) for x in t.entrants) for t in records.table_rows(s, tid)]
                tables = swiss_tables(order, met)
            if len(tables) != len(seeds):  # the entrants changed since the walls were drawn
                seeds, coms = self._round_walls(st, len(tables))
            codes = self._codes(s, len(tables))
            row.current_round = number
            s.add(RoundRow(tournament_id=tid, number=number, status="playing"))
            for i, table in enumerate(tables):
                s.add(TableRow(tournament_id=tid, round=number, number=i + 1, room_code=codes[i],
                               entrants=seat_order(table, i, st.duplicate, self.rng),
                               seed=seeds[i].hex(), commitments=coms[i], status="seating"))

        await self._write(write)
        await self._advance(tid)

    @staticmethod
    def _round_walls(st: TournamentSettings, n: int) -> tuple[list[bytes], list[list[str]]]:
        """A round's match seeds (one shared by every table of a duplicate round) and each
        seed's hand commitments."""
        shared = secrets.token_bytes(32)
        seeds = [shared if st.duplicate else secrets.token_bytes(32) for _ in range(n)]
        return seeds, [hand_commitments(sd, st.hands_per_round) for sd in seeds]

    def _codes(self, s: Session, n: int) -> list[str]:
        out: list[str] = []
        while len(out) < n:
            code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LEN))
            if code in self.hub.rooms or code in out or s.get(db.RoomRow, code) is not None:
                continue
            out.append(code)
        return out

    async def _advance(self, tid: int) -> None:
        """One look at a running tournament's current round (under the lock)."""
        def load(s: Session) -> tuple[TournamentRow | None, list[TableRow], list[dict[str, Any]]]:
            t = records.tournament(s, tid)
            if t is None or t.status != "running":
                return None, [], []
            return t, records.table_rows(s, tid, t.current_round), records.entrants(s, tid)

        t, tables, ents = await self._read(load)
        if t is None:
            return
        st = settings_of(t)
        if t.current_round == 0:  # started, but stopped before round 1 was stored
            await self._new_round(tid, st, 1)
            return
        if not tables:
            return
        by_id = {e["id"]: e for e in ents}
        done = 0
        for tr in tables:
            if tr.status == "seating":
                await self._open_table(tid, st, tr, by_id)
            elif tr.status == "playing":
                room = self.hub.rooms.get(tr.room_code)
                if room is not None and room.status == "playing" and room.match_id == tr.match_id:
                    pass  # still in play (its no-shows: _charge_no_shows, where it is held)
                elif await self._write(lambda s, i=tr.id: records.finish_table(s, i)):
                    self._forget(tr.room_code)
                    done += 1
            else:
                done += 1
        if done < len(tables):
            return
        number = t.current_round

        def close(s: Session) -> bool:
            rnd = s.scalar(select(RoundRow).where(RoundRow.tournament_id == tid, RoundRow.number == number))
            if rnd is not None and rnd.status != "finished":
                rnd.status = "finished"
                rnd.finished_at = _now()
            if number >= st.rounds:
                row = s.get(TournamentRow, tid)
                assert row is not None
                row.status = "finished"
                row.finished_at = _now()
                return False
            return True

        if await self._write(close):
            await self._new_round(tid, st, number + 1)

    async def _open_table(self, tid: int, st: TournamentSettings, tr: TableRow,
                          by_id: dict[int, dict[str, Any]]) -> None:
        code = tr.room_code
        room = self.hub.rooms.get(code)
        if room is None or room.game is None:
            seats = []
            for eid in tr.entrants:
                e = by_id[int(eid)]
                if e["player_id"]:
                    seats.append(player_seat(e["player_id"],
                                             self.hub.players.get(e["player_id"], e["nickname"])))
                else:
                    seats.append(bot_seat(e["bot"] or "greedy", e["nickname"]))
            # one wall and one dealer per deal at every table of a duplicate round;
            # whoever is not here yet: 托管 after the grace unless the player comes
            room = await self.hub.open_table(
                st.room_settings(tr.number), Seating(tuple(seats), deal_seed=bytes.fromhex(tr.seed),
                                                     fixed_dealers=st.duplicate, absent_wait=True),
                code=code, owner_id=f"t{tid}")
            if room is None:
                return  # another node of the cluster holds the table (it opens it)
        mid = room.match_id

        def write(s: Session) -> None:
            row = s.get(TableRow, tr.id)
            assert row is not None
            row.match_id = mid
            row.status = "playing"

        await self._write(write)
        self._opened.setdefault(code, time.monotonic())

    def _forget(self, code: str) -> None:
        self._opened.pop(code, None)
        self._no_show_done.discard(code)

    async def _charge_no_shows(self) -> None:
        """Charge the no-shows of the tournament tables this node holds (in a cluster a
        table is held by the node with its lease — the one that opened it or took it
        over — which need not lead the tournaments job)."""
        for code in [c for c in self._opened if c not in self.hub.rooms]:
            self._forget(code)  # no longer here (finished, moved): forgotten
        held = {code: room for code, room in self.hub.rooms.items()
                if room.status == "playing" and (room.owner_id or "").startswith("t")}
        if not held:
            return

        def load(s: Session) -> list[tuple[TableRow, TournamentRow]]:
            q = (select(TableRow, TournamentRow)
                 .join(TournamentRow, TournamentRow.id == TableRow.tournament_id)
                 .where(TableRow.room_code.in_(list(held)), TableRow.status == "playing",
                        TournamentRow.status == "running"))
            return [(tr, t) for tr, t in s.execute(q).all()]

        for tr, t in await self._read(load):
            room = held.get(tr.room_code)
            if room is not None and room.match_id == tr.match_id:
                await self._no_shows(settings_of(t), tr)

    async def _no_shows(self, st: TournamentSettings, tr: TableRow) -> None:
        """An entrant absent ``no_show_seconds`` after its table opened escapes (penalty)."""
        code = tr.room_code
        opened = self._opened.setdefault(code, time.monotonic())
        if code in self._no_show_done or time.monotonic() - opened < st.no_show_seconds:
            return
        room = self.hub.rooms.get(code)
        if room is None:
            return
        self._no_show_done.add(code)
        async with room.lock:
            if await room.escape(*room.absent()):
                room.broadcast_lobby()


def settings_of(t: TournamentRow) -> TournamentSettings:
    return TournamentSettings.model_validate({**t.settings, "name": t.name, "start_at": t.start_at})


def standings_of(s: Session, tid: int, st: TournamentSettings) -> list[dict[str, Any]]:
    ents = records.entrants(s, tid, playing_only=True)
    res = records.results(s, tid)
    dup: dict[int, float] | None = None
    if st.duplicate:
        dup = {}  # entrant -> duplicate points
        score = {(r["round"], r["table"], r["seat"]): r["score"] for r in res}
        rounds: dict[int, list[dict[str, Any]]] = {}
        for tr in records.table_rows(s, tid):
            if tr.status != "finished" or tr.hands is None:
                continue
            rounds.setdefault(tr.round, []).append(
                {"entrants": tr.entrants, "hands": tr.hands,
                 "scores": [score.get((tr.round, tr.number, k), 0.0) for k in range(4)]})
        per_round: dict[int, dict[int, float]] = {}
        for number, tabs in sorted(rounds.items()):
            per_round[number] = dup_points(tabs)
            for eid, pts in per_round[number].items():
                dup[eid] = dup.get(eid, 0.0) + pts
        out = rank(ents, res, dup)
        for row in out:  # each round's duplicate points
            row["dup_rounds"] = [round(per_round[n].get(row["entrant_id"], 0.0), 4) for n in per_round]
        return out
    return rank(ents, res, dup)
