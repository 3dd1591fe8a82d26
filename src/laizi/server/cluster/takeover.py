"""A takeover's fence: the token a node takes a room with must be *above* the room's fence
in the database (:mod:`laizi.server.persistence.fencing`), not merely not below it.

Tokens come from a per-room Redis counter (:mod:`laizi.server.cluster.lease`). A Redis
restarted without its data counts every room's tokens from 1 again, so the first token it
hands out may be the very one the room's owner writes with: a takeover with it would pass
the fence, and then two nodes could write the room with one token, and the nodes relaying
into the room could not see that it changed hands (they compare tokens). Refused instead
(:class:`Fenced` with the token in the database): the caller moves the counter past it and
takes the room with the next token.
"""

from __future__ import annotations

from sqlalchemy.orm import Session

from laizi.server.persistence.fencing import Fenced, RoomFence, raise_fence
from laizi.server.persistence.store import Store

__all__ = ["raise_above"]


async def raise_above(store: Store, code: str, token: int, node: str) -> None:
    """Set room ``code``'s fence to ``token`` for ``node``; :class:`Fenced` (its ``newer``:
    the fence) when the fence is ``token`` or above already."""

    def write(s: Session) -> None:
        row = s.get(RoomFence, code, with_for_update=True)
        if row is not None and row.token >= token:
            raise Fenced(code, token, row.token)
        raise_fence(s, code, token, node)

    await store.writer.write(write)
