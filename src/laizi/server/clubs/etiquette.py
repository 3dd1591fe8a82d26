"""Table etiquette (issue 26): mute and report at every table (``docs/clubs.md``).

- **Mute** (``mute`` over the socket, at a table): the muted player's chat is not delivered
  to the player who muted it — not live, not in the chat history a join sends — at every
  table, until unmuted; the client hides what it showed already. Stored (``chat_mutes``)
  and cached per node: read again each time the player joins a room (the room's node
  filters its chat), changed on the room's node by the ``mute`` command.
- **Report** (``POST /api/reports``): a player reports another met at a table (seated or
  speaking there) for a reason of :data:`REPORT_REASONS`, with up to :data:`REPORT_CHARS`
  characters of words; the report keeps the reported player's last :data:`EVIDENCE_LINES`
  chat lines in that room. Read by the club's owner and admins for a club table
  (``GET /api/clubs/{id}/reports``) and by the server's admins (``GET /api/reports``: the
  usernames in ``LAIZI_ADMINS``, comma-separated).

Limits (each with a test in ``tests/server/test_etiquette.py``): :data:`MUTES_PER_PLAYER`,
:data:`REPORTS_PER_HOUR` per reporter (counted in the database: the whole cluster),
:data:`REPORT_CHARS`, one report per (reporter, player, room); lists show the newest
:data:`REPORTS_LIST_MAX`.
"""

from __future__ import annotations

import asyncio
import os
import unicodedata
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING, Any

from sqlalchemy import delete, func, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from laizi.server.clubs.fields import ClubError
from laizi.server.clubs.ranking import player_names
from laizi.server.persistence import db
from laizi.server.persistence.clubdb import ClubTableRow
from laizi.server.persistence.etiquettedb import ChatMuteRow, ReportRow

if TYPE_CHECKING:
    from sqlalchemy.engine import Engine

    from laizi.server.accounts.site import Site

__all__ = ["EVIDENCE_LINES", "MUTES_PER_PLAYER", "REPORTS_LIST_MAX", "REPORTS_PER_HOUR",
           "REPORT_CHARS", "REPORT_REASONS", "Mutes", "MuteError", "Reports", "server_admins"]

MUTES_PER_PLAYER = 100   # players one player may mute
REPORTS_PER_HOUR = 5     # reports one player may file in any hour
REPORT_CHARS = 200       # characters of a report's words
REPORT_REASONS = ("abuse", "cheating", "spam", "other")  # 辱骂 作弊 刷屏 其他
EVIDENCE_LINES = 10      # the reported player's last chat lines in the room, kept with the report
REPORTS_LIST_MAX = 200   # reports a list shows (the newest)


class MuteError(ValueError):
    def __init__(self, code: str, message: str) -> None:
        self.code = code
        super().__init__(message)


class Mutes:
    """Who mutes whom: stored, and cached on this node for the rooms' chat."""

    def __init__(self) -> None:
        self._cache: dict[str, frozenset[str]] = {}

    def of(self, pid: str | None) -> frozenset[str]:
        """The players ``pid`` muted, as last read on this node (empty if never read)."""
        return self._cache.get(pid or "", frozenset())

    async def load(self, engine: Engine, pid: str) -> frozenset[str]:
        def read() -> frozenset[str]:
            with Session(engine) as s:
                return frozenset(s.scalars(select(ChatMuteRow.muted_id).where(
                    ChatMuteRow.player_id == pid)))

        got = await asyncio.to_thread(read)
        self._cache[pid] = got
        return got

    def forget(self, pid: str) -> None:
        self._cache.pop(pid, None)

    async def set(self, site: Site, pid: str, target: str, on: bool) -> frozenset[str]:
        """Mute (``on``) or unmute ``target`` for ``pid``; the muted players after."""
        if target == pid:
            raise MuteError("bad_mute", "you cannot mute yourself")

        def write(s: Session) -> Any:
            row = s.get(ChatMuteRow, (pid, target))
            if on and row is None:
                n = s.scalar(select(func.count()).select_from(ChatMuteRow).where(
                    ChatMuteRow.player_id == pid)) or 0
                if n >= MUTES_PER_PLAYER:
                    return MuteError("too_many_mutes", f"at most {MUTES_PER_PLAYER} muted players: "
                                                       "unmute someone first")
                s.add(ChatMuteRow(player_id=pid, muted_id=target))
            elif not on and row is not None:
                s.execute(delete(ChatMuteRow).where(ChatMuteRow.player_id == pid,
                                                    ChatMuteRow.muted_id == target))
            return None

        try:
            out = await site.store.writer.write(write)
        except IntegrityError:  # the same mute twice at once: it is there
            out = None
        if isinstance(out, MuteError):
            raise out
        return await self.load(site.store.engine, pid)


def server_admins(engine: Engine) -> frozenset[str]:
    """The player ids of the server's admins: the accounts named in ``LAIZI_ADMINS``."""
    names = [n.strip() for n in os.environ.get("LAIZI_ADMINS", "").split(",") if n.strip()]
    if not names:
        return frozenset()
    keys = [unicodedata.normalize("NFKC", n).casefold() for n in names]
    with Session(engine) as s:
        return frozenset(s.scalars(select(db.AccountRow.player_id).where(
            db.AccountRow.username_key.in_(keys))))


def _words(raw: object) -> str:
    if raw is None:
        return ""
    if not isinstance(raw, str):
        raise ClubError("text must be a string")
    text = "".join(ch for ch in raw if unicodedata.category(ch) not in ("Cc", "Cf", "Cs", "Co"))
    text = text.strip()
    if len(text) > REPORT_CHARS:
        raise ClubError(f"a report's words are at most {REPORT_CHARS} characters",
                        code="report_words_long", params={"max": REPORT_CHARS})
    return text


def _at_table(s: Session, code: str, pid: str, seats: list[Any]) -> bool:
    """Was ``pid`` at the room: seated (now or when stored) or speaking in its chat."""
    if any(isinstance(x, dict) and x.get("player_id") == pid for x in seats):
        return True
    return s.scalar(select(db.ChatRow.id).where(db.ChatRow.room_code == code,
                                                db.ChatRow.player_id == pid).limit(1)) is not None


class Reports:
    """Reports of players met at a table (the service behind ``/api/reports``)."""

    def __init__(self, site: Site) -> None:
        self.site = site

    async def file(self, pid: str, d: dict[str, Any]) -> dict[str, Any]:
        target, code, reason = d.get("player_id"), d.get("room"), d.get("reason")
        if not isinstance(target, str) or not 0 < len(target) <= 32:
            raise ClubError("name the player you report (player_id)")
        if not isinstance(code, str) or not 0 < len(code.strip()) <= 8:
            raise ClubError("name the room where it happened (room: its code)")
        code = code.strip().upper()
        if reason not in REPORT_REASONS:
            raise ClubError(f"reason must be one of {', '.join(REPORT_REASONS)}")
        words = _words(d.get("text"))
        if target == pid:
            raise ClubError("you cannot report yourself", code="report_self")
        since = datetime.now(UTC) - timedelta(hours=1)

        def write(s: Session) -> Any:
            room = s.get(db.RoomRow, code)
            if room is None:
                return ClubError(f"no room {code[:8]!r}", 404)
            seats = list(room.seats or [])
            if not _at_table(s, code, pid, seats):
                return ClubError("you were not at that table", 403, code="report_not_there")
            if not _at_table(s, code, target, seats):
                return ClubError("that player was not at that table", 404, code="report_they_not_there")
            n = s.scalar(select(func.count()).select_from(ReportRow).where(
                ReportRow.reporter_id == pid, ReportRow.created_at >= since)) or 0
            if n >= REPORTS_PER_HOUR:
                return ClubError(f"at most {REPORTS_PER_HOUR} reports per hour: try later", 429,
                                 code="report_rate", params={"max": REPORTS_PER_HOUR})
            if s.scalar(select(ReportRow.id).where(
                    ReportRow.reporter_id == pid, ReportRow.reported_id == target,
                    ReportRow.room_code == code)) is not None:
                return ClubError("you reported this player at this table already", 409, code="report_again")
            lines = s.execute(select(db.ChatRow.text, db.ChatRow.created_at).where(
                db.ChatRow.room_code == code, db.ChatRow.player_id == target)
                .order_by(db.ChatRow.id.desc()).limit(EVIDENCE_LINES)).all()
            evidence = [{"text": t, "at": _iso(at)} for t, at in reversed(lines)]
            club = s.scalar(select(ClubTableRow.club_id).where(ClubTableRow.room_code == code))
            row = ReportRow(reporter_id=pid, reported_id=target, room_code=code, club_id=club,
                            reason=reason, text=words, evidence=evidence)
            s.add(row)
            s.flush()
            return self._json(s, row)

        out = await self.site.store.writer.write(write)
        if isinstance(out, ClubError):
            raise out
        return dict(out)

    def _json(self, s: Session, r: ReportRow, names: dict[str, dict[str, str | None]] | None = None
              ) -> dict[str, Any]:
        """A report; the players' names as stored (made or renamed on another node of a
        cluster too: :func:`player_names`), ``names`` when the caller read them for many."""
        if names is None:
            names = player_names(s, [r.reporter_id, r.reported_id], self.site.players.get)
        return {"id": r.id, "reporter": {"player_id": r.reporter_id, "nickname": names[r.reporter_id]["nickname"]},
                "reported": {"player_id": r.reported_id, "nickname": names[r.reported_id]["nickname"]},
                "room": r.room_code, "club": r.club_id, "reason": r.reason, "text": r.text,
                "evidence": list(r.evidence or []), "at": _iso(r.created_at)}

    async def listed(self, club: int | None = None) -> list[dict[str, Any]]:
        """The newest reports (of one club's tables, or all)."""
        def read() -> list[dict[str, Any]]:
            with Session(self.site.store.engine) as s:
                q = select(ReportRow).order_by(ReportRow.id.desc()).limit(REPORTS_LIST_MAX)
                if club is not None:
                    q = q.where(ReportRow.club_id == club)
                rows = list(s.scalars(q))
                names = player_names(s, [p for r in rows for p in (r.reporter_id, r.reported_id)],
                                     self.site.players.get)
                return [self._json(s, r, names) for r in rows]

        return await asyncio.to_thread(read)

    async def for_admin(self, pid: str) -> list[dict[str, Any]]:
        admins = await asyncio.to_thread(server_admins, self.site.store.engine)
        if pid not in admins:
            raise ClubError("only the server's admins may read every report", 403)
        return await self.listed()


def _iso(at: datetime | None) -> str | None:
    if at is None:
        return None
    return (at if at.tzinfo else at.replace(tzinfo=UTC)).isoformat()
