"""Tables of coins (游戏币), coin tables (场次 rooms), friends and invites, on
:class:`laizi.server.persistence.db.Base` (created with the rest of the schema; imported by
:mod:`laizi.server.persistence.store`, so every place that builds the metadata sees them).

- ``coin_ledger``: every change of a balance, with its reason and match / hand; ``key`` is
  unique (one entry per (match, hand, player), per day's top-up, ...), so nothing is
  applied twice; ``balance`` is the player's balance after the entry, always the sum of
  the player's ``delta`` up to it.
- ``coin_tables``: a room that settles in coins (a quick-match room of a level with a stake).
- ``coin_seats``: the coin table each player sits at while its match is in play (at most
  one per player, across every node).
- ``friends``: one row per request; ``status`` pending → accepted (a declined or removed
  friendship is deleted).
- ``invites``: an invitation to a room, until it expires.
"""

from __future__ import annotations

from datetime import UTC, datetime

from sqlalchemy import BigInteger, DateTime, Index, Integer, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from laizi.server.persistence.db import Base

__all__ = ["Base", "CoinLedgerRow", "CoinSeatRow", "CoinTableRow", "FriendRow", "InviteRow"]


def _now() -> datetime:
    return datetime.now(UTC)


_ID = BigInteger().with_variant(Integer, "sqlite")


class CoinLedgerRow(Base):
    __tablename__ = "coin_ledger"
    id: Mapped[int] = mapped_column(_ID, primary_key=True, autoincrement=True)
    player_id: Mapped[str] = mapped_column(String(32))
    delta: Mapped[int] = mapped_column(BigInteger)
    balance: Mapped[int] = mapped_column(BigInteger)  # after this entry
    reason: Mapped[str] = mapped_column(String(16))    # welcome|daily|hand|escape|house
    match_id: Mapped[int | None] = mapped_column(Integer, nullable=True)
    hand: Mapped[int | None] = mapped_column(Integer, nullable=True)
    key: Mapped[str] = mapped_column(String(96), unique=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=_now)


Index("ix_coin_ledger_player", CoinLedgerRow.player_id, CoinLedgerRow.id)


class CoinTableRow(Base):
    __tablename__ = "coin_tables"
    room_code: Mapped[str] = mapped_column(String(8), primary_key=True)
    level: Mapped[str] = mapped_column(String(16))
    stake: Mapped[int] = mapped_column(Integer)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=_now)


class CoinSeatRow(Base):
    """A player's seat at a coin table whose match is in play: one per player, cluster-wide
    (the primary key), taken with the stake check in one transaction
    (:func:`laizi.server.ledger.coins.take_seats`), let go when the match ends or the player escapes."""
    __tablename__ = "coin_seats"
    player_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    room_code: Mapped[str] = mapped_column(String(8), index=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=_now)


class FriendRow(Base):
    __tablename__ = "friends"
    __table_args__ = (UniqueConstraint("from_id", "to_id"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    from_id: Mapped[str] = mapped_column(String(32), index=True)
    to_id: Mapped[str] = mapped_column(String(32), index=True)
    status: Mapped[str] = mapped_column(String(16), default="pending")  # pending|accepted
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=_now)
    accepted_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)


class InviteRow(Base):
    __tablename__ = "invites"
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    from_id: Mapped[str] = mapped_column(String(32))
    to_id: Mapped[str] = mapped_column(String(32), index=True)
    room_code: Mapped[str] = mapped_column(String(8))
    status: Mapped[str] = mapped_column(String(16), default="open")  # open|accepted|declined
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=_now)
    expires_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
