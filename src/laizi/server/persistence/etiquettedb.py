"""Tables of table etiquette (revision 0011; the service: :mod:`laizi.server.clubs.etiquette`).

- ``chat_mutes``: one row per (player, muted player): the muted player's chat is not
  delivered to the player (every room, every node: read when the player joins a room).
- ``reports``: a player's report of another at a table: the reason, the reporter's words,
  the room (and its club, for a club table) and, as evidence, the reported player's last
  chat lines in that room. Read by the club's owner and admins and by the server's admins.
- ``club_chat``: the club's own chat channel (the club lobby): the newest messages of each
  club are kept (:data:`laizi.server.clubs.clubchat.KEEP`).
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import JSON, DateTime, Index, Integer, String
from sqlalchemy.orm import Mapped, mapped_column

from laizi.server.persistence.db import Base

__all__ = ["ChatMuteRow", "ClubChatRow", "ReportRow"]


def _now() -> datetime:
    return datetime.now(UTC)


class ChatMuteRow(Base):
    __tablename__ = "chat_mutes"
    player_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    muted_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=_now)


class ReportRow(Base):
    __tablename__ = "reports"
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    reporter_id: Mapped[str] = mapped_column(String(32))
    reported_id: Mapped[str] = mapped_column(String(32), index=True)
    room_code: Mapped[str] = mapped_column(String(8))
    club_id: Mapped[int | None] = mapped_column(Integer, nullable=True, index=True)
    reason: Mapped[str] = mapped_column(String(16))
    text: Mapped[str] = mapped_column(String(400), default="")
    evidence: Mapped[list[Any]] = mapped_column(JSON)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=_now)


Index("ix_reports_reporter", ReportRow.reporter_id, ReportRow.created_at)


class ClubChatRow(Base):
    __tablename__ = "club_chat"
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    club_id: Mapped[int] = mapped_column(Integer)
    player_id: Mapped[str] = mapped_column(String(32))
    text: Mapped[str] = mapped_column(String(280))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=_now)


Index("ix_club_chat_club", ClubChatRow.club_id, ClubChatRow.id)
