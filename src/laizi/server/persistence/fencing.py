"""Fencing tokens in the database: the last word on who may write a room.

A node that owns a room (a lease in Redis, :mod:`laizi.server.cluster.lease`) holds that
lease's token, a number that only grows per room (Redis ``INCR``). Before it loads a room it
took over it raises the room's row in ``room_fences`` to its token (:func:`raise_fence`);
every write of that room then runs :func:`check_fence` in the same transaction::

    UPDATE room_fences SET token = :mine WHERE code = :code AND token <= :mine

No row updated: a newer owner raised the fence, the write is refused (:class:`Fenced`) and
the whole transaction rolls back. The UPDATE locks the row until the commit, so a write
already past the check and the new owner's raise are serialised: the new owner reads the
room only after every older write is committed or refused.

The table is declared here on :class:`laizi.server.persistence.db.Base` (so ``create_all`` and the
schema's metadata include it) rather than in :mod:`laizi.server.persistence.db`.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import BigInteger, DateTime, String, text, update
from sqlalchemy.orm import Mapped, Session, mapped_column

from laizi.server.common.protocol import ProtocolError
from laizi.server.persistence import db

__all__ = ["Fenced", "FENCES", "RoomFence", "check_fence", "check_fences", "raise_fence"]


class RoomFence(db.Base):
    """The highest fencing token a node used to write a room (``code``)."""

    __tablename__ = "room_fences"
    code: Mapped[str] = mapped_column(String(8), primary_key=True)
    token: Mapped[int] = mapped_column(BigInteger)
    node: Mapped[str] = mapped_column(String(64), default="")
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=db._now)


class Fenced(ProtocolError):
    """A write of a room this node no longer owns (a newer token is in the database, or
    the node let the lease go): refused, nothing of it is stored."""

    def __init__(self, code: str, token: int | None, newer: int | None = None) -> None:
        self.room = code
        self.token = token
        self.newer = newer  # the token in the database, when known
        super().__init__("room_moved", f"room {code} moved to another server; "
                                       "you are being reconnected to it")


def check_fence(s: Session, code: str, token: int | None) -> None:
    """Refuse (raise :class:`Fenced`) unless ``token`` is still the room's newest one; the
    row stays locked until the transaction ends."""
    if token is None:
        raise Fenced(code, token)
    res = s.connection().execute(
        update(RoomFence).where(RoomFence.code == code, RoomFence.token <= token)
        .values(token=token))
    if res.rowcount != 1:
        raise Fenced(code, token)


# Every room of a batch in one statement (PostgreSQL): the fences read and share-locked
# until the commit — a takeover's raise (SELECT ... FOR UPDATE) waits for the batch, and a
# batch after it reads the raised token. A lock, not an UPDATE: no new row version and no
# index entry per room and batch.
_MANY_PG = text("SELECT code, token FROM room_fences "
                "WHERE code = ANY(CAST(:codes AS varchar[])) FOR SHARE")


def check_fences(s: Session, fences: dict[str, int]) -> set[str]:
    """:func:`check_fence` for several rooms at once (a batch of the writer: one statement
    on PostgreSQL, one per room elsewhere); the codes whose fence held."""
    if not fences:
        return set()
    conn = s.connection()
    if conn.dialect.name != "postgresql":
        return {code for code, token in fences.items() if _holds(s, code, token)}
    stored = {str(c): int(t) for c, t in conn.execute(_MANY_PG, {"codes": list(fences)})}
    passed = set()
    for code, token in fences.items():
        have = stored.get(code)
        if have == token or (have is not None and have < token and _holds(s, code, token)):
            passed.add(code)  # (a lower stored token — not raised yet — is raised to ours)
    return passed


def _holds(s: Session, code: str, token: int) -> bool:
    try:
        check_fence(s, code, token)
    except Fenced:
        return False
    return True


class _Fences:
    """The fence check of :class:`laizi.server.persistence.writer.Writer` (``writer.fence_check``)."""

    def many(self, s: Session, fences: dict[str, int]) -> set[str]:
        return check_fences(s, fences)

    def one(self, s: Session, code: str, token: int) -> None:
        check_fence(s, code, token)

    def refused(self, code: str, token: int) -> BaseException:
        return Fenced(code, token)


FENCES = _Fences()


def raise_fence(s: Session, code: str, token: int, node: str) -> None:
    """Set the room's fence to ``token`` (a takeover, or a new room): raises :class:`Fenced`
    when a newer token is there already."""
    row = s.get(RoomFence, code, with_for_update=True)
    if row is None:
        s.add(RoomFence(code=code, token=token, node=node, updated_at=db._now()))
        s.flush()
        return
    if row.token > token:
        raise Fenced(code, token, row.token)
    row.token = token
    row.node = node
    row.updated_at = db._now()
