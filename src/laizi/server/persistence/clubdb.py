"""Tables of the clubs (亲友圈), on :class:`laizi.server.persistence.db.Base` (revision 0009;
the service: :mod:`laizi.server.clubs`).

- ``clubs``: a club: its name, drawn avatar, description, join ``code`` (unique), owner,
  whether joining needs approval, whether it is private (its tables, members and ranking
  shown to members only), the bot level that fills its new tables (NULL: none), and its
  season (the ranking counts the club tables opened since ``season_started_at``).
- ``club_members``: one row per (club, player): ``role`` owner | admin | member, or
  pending (asked to join, awaits approval) | invited (asked by the club, awaits the player).
- ``club_templates``: a club's rule template: a name and room settings (preset, options,
  rounds, hands).
- ``club_tables``: the rooms opened for a club, with the season they count in.
- ``club_pictures`` (revision 0012): a club's uploaded picture, re-encoded like a player's
  avatar (laizi.server.clubs.picture); ``clubs.picture`` names its version.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import (
    JSON,
    Boolean,
    DateTime,
    Index,
    Integer,
    LargeBinary,
    String,
    UniqueConstraint,
)
from sqlalchemy.orm import Mapped, mapped_column

from laizi.server.persistence.db import Base

__all__ = ["ClubMemberRow", "ClubPictureRow", "ClubRow", "ClubTableRow", "ClubTemplateRow"]


def _now() -> datetime:
    return datetime.now(UTC)


class ClubRow(Base):
    __tablename__ = "clubs"
    __table_args__ = (UniqueConstraint("code", name="uq_clubs_code"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    name: Mapped[str] = mapped_column(String(40))
    avatar: Mapped[str] = mapped_column(String(32))
    description: Mapped[str] = mapped_column(String(400), default="")
    code: Mapped[str] = mapped_column(String(8))
    owner_id: Mapped[str] = mapped_column(String(32), index=True)
    approval: Mapped[bool] = mapped_column(Boolean, default=False)
    private: Mapped[bool] = mapped_column(Boolean, default=True)
    bots: Mapped[str | None] = mapped_column(String(16), nullable=True)
    # the same-network warning required at its tables (revision 0011; NULL: not required)
    ip_warning: Mapped[bool | None] = mapped_column(Boolean, nullable=True)
    # the uploaded picture's version (revision 0012; NULL: the drawn avatar): club_pictures
    picture: Mapped[str | None] = mapped_column(String(64), nullable=True)
    season: Mapped[int] = mapped_column(Integer, default=1)
    season_started_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=_now)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=_now)


class ClubMemberRow(Base):
    __tablename__ = "club_members"
    __table_args__ = (UniqueConstraint("club_id", "player_id", name="uq_club_members_club_player"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    club_id: Mapped[int] = mapped_column(Integer, index=True)
    player_id: Mapped[str] = mapped_column(String(32))
    role: Mapped[str] = mapped_column(String(16))  # owner|admin|member|pending|invited
    invited_by: Mapped[str | None] = mapped_column(String(32), nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=_now)


Index("ix_club_members_player", ClubMemberRow.player_id, ClubMemberRow.role)


class ClubTemplateRow(Base):
    __tablename__ = "club_templates"
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    club_id: Mapped[int] = mapped_column(Integer, index=True)
    name: Mapped[str] = mapped_column(String(40))
    settings: Mapped[dict[str, Any]] = mapped_column(JSON)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=_now)


class ClubTableRow(Base):
    __tablename__ = "club_tables"
    room_code: Mapped[str] = mapped_column(String(8), primary_key=True)
    club_id: Mapped[int] = mapped_column(Integer)
    template_id: Mapped[int | None] = mapped_column(Integer, nullable=True)
    season: Mapped[int] = mapped_column(Integer)
    opened_by: Mapped[str] = mapped_column(String(32))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=_now)


Index("ix_club_tables_club", ClubTableRow.club_id, ClubTableRow.season)


class ClubPictureRow(Base):
    __tablename__ = "club_pictures"
    club_id: Mapped[int] = mapped_column(Integer, primary_key=True)
    image: Mapped[bytes] = mapped_column(LargeBinary)
    media_type: Mapped[str] = mapped_column(String(32))
    etag: Mapped[str] = mapped_column(String(64))
    updated_by: Mapped[str] = mapped_column(String(32))
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=_now)
