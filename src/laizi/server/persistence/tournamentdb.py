"""Tournament tables (on :class:`laizi.server.persistence.db.Base`, so ``create_all`` and the Alembic
revision see them once this module is imported — :mod:`laizi.server.competitions.tournaments` imports it).

- ``tournaments``: one competition — its organiser, settings, status, current round;
- ``tournament_entrants``: who entered (an account, or a bot filling a seat), checked in or not;
- ``tournament_rounds``: one round — the seed commitments are public from its start, the
  seeds once it is over;
- ``tournament_tables``: one table of a round — its room, its four entrants by seat, the
  secret seed of its walls, the commitments of its hands, its match and result;
- ``tournament_results``: one entrant's result at one table (the standings add them up).
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import JSON, DateTime, Float, ForeignKey, Integer, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from laizi.server.persistence.db import Base

__all__ = ["EntrantRow", "ResultRow", "RoundRow", "TableRow", "TournamentRow"]


def _now() -> datetime:
    return datetime.now(UTC)


class TournamentRow(Base):
    __tablename__ = "tournaments"
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    name: Mapped[str] = mapped_column(String(64))
    organiser_id: Mapped[str] = mapped_column(String(32), index=True)
    # registration | running | finished | cancelled
    status: Mapped[str] = mapped_column(String(16), default="registration", index=True)
    settings: Mapped[dict[str, Any]] = mapped_column(JSON)
    current_round: Mapped[int] = mapped_column(Integer, default=0)
    start_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=_now)
    started_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    finished_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    # a club's event (its members only; listed on the club's page, not in the public list)
    club_id: Mapped[int | None] = mapped_column(Integer, nullable=True, index=True)


class EntrantRow(Base):
    __tablename__ = "tournament_entrants"
    __table_args__ = (UniqueConstraint("tournament_id", "player_id"),
                      UniqueConstraint("tournament_id", "number"))
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    tournament_id: Mapped[int] = mapped_column(ForeignKey("tournaments.id"), index=True)
    number: Mapped[int] = mapped_column(Integer)  # 1, 2, 3… in order of entry (bots last)
    player_id: Mapped[str | None] = mapped_column(String(32), nullable=True)  # None: a bot
    bot: Mapped[str | None] = mapped_column(String(16), nullable=True)
    nickname: Mapped[str] = mapped_column(String(32))
    checked_in: Mapped[int] = mapped_column(Integer, default=0)
    registered_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=_now)


class RoundRow(Base):
    __tablename__ = "tournament_rounds"
    __table_args__ = (UniqueConstraint("tournament_id", "number"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    tournament_id: Mapped[int] = mapped_column(ForeignKey("tournaments.id"), index=True)
    number: Mapped[int] = mapped_column(Integer)
    status: Mapped[str] = mapped_column(String(16), default="playing")  # playing | finished
    started_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=_now)
    finished_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)


class TableRow(Base):
    __tablename__ = "tournament_tables"
    __table_args__ = (UniqueConstraint("tournament_id", "round", "number"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    tournament_id: Mapped[int] = mapped_column(ForeignKey("tournaments.id"), index=True)
    round: Mapped[int] = mapped_column(Integer)
    number: Mapped[int] = mapped_column(Integer)  # 1, 2, 3… within the round
    room_code: Mapped[str] = mapped_column(String(8))
    entrants: Mapped[list[Any]] = mapped_column(JSON)  # entrant ids by seat 0-3
    seed: Mapped[str] = mapped_column(String(64))  # hex; secret until the round is over
    commitments: Mapped[list[Any]] = mapped_column(JSON)  # per hand, published at the start
    match_id: Mapped[int | None] = mapped_column(Integer, nullable=True)
    status: Mapped[str] = mapped_column(String(16), default="seating")  # seating | playing | finished
    # per hand: {"hand", "dealer", "deltas"} (the duplicate comparison), filled at the end
    hands: Mapped[list[Any] | None] = mapped_column(JSON, nullable=True)


class ResultRow(Base):
    __tablename__ = "tournament_results"
    __table_args__ = (UniqueConstraint("tournament_id", "round", "entrant_id"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    tournament_id: Mapped[int] = mapped_column(ForeignKey("tournaments.id"), index=True)
    round: Mapped[int] = mapped_column(Integer)
    table: Mapped[int] = mapped_column(Integer)
    entrant_id: Mapped[int] = mapped_column(Integer)
    seat: Mapped[int] = mapped_column(Integer)
    score: Mapped[float] = mapped_column(Float)  # the seat's final score (escape penalty in it)
    best_hand: Mapped[float] = mapped_column(Float)  # the biggest single hand it won
    escaped: Mapped[int] = mapped_column(Integer, default=0)
    match_id: Mapped[int] = mapped_column(Integer)
