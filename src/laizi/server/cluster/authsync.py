"""Identities across nodes: what one node learns in memory at start (registered players,
live sessions, token generations — :mod:`laizi.server.accounts.auth`) follows the database while
it runs, so a player who logs in, out or rotates a token on one node is the same on every
node. A change is announced to the other nodes at once over the bus (:func:`apply`: the
session opened, the sessions ended, the generation raised, a guest become an account, as
:attr:`GuestAuth.on_change` reports them; the node that made a change that ends tokens
answers only once every live node confirmed it applied it: ``Node.announced``); a sync
every second reads what changed in the database since the last one (with a margin for
commits still on their way) in case an announcement was lost, and a token a node does not
know yet triggers one at once."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import select
from sqlalchemy.engine import Engine
from sqlalchemy.orm import Session

from laizi.server.accounts.auth import GEN_KEY_PREFIX, GuestAuth
from laizi.server.persistence import db

__all__ = ["MARGIN", "AuthSync", "apply"]

MARGIN = timedelta(seconds=30)  # rows committed this long before the last sync are read again


def apply(auth: GuestAuth, what: str, data: list[Any]) -> None:
    """An identity change another node announced (``GuestAuth.on_change``)."""
    if what == "session":
        h, pid, ends = data
        auth.load_sessions([(str(h), str(pid), float(ends))])
    elif what == "ended":
        auth.forget_sessions([str(h) for h in data])
    elif what == "account":  # a guest became an account: its guest tokens are dead
        auth.accounts.update(str(pid) for pid in data)
    elif what == "generation":
        pid, gen = data
        auth.load_generations([(auth.gen_key(str(pid)), str(int(gen)))])


class AuthSync:
    def __init__(self, engine: Engine, auth: GuestAuth) -> None:
        self.engine = engine
        self.auth = auth
        self.since = datetime.now(UTC) - MARGIN  # the start-up load read everything before
        self.last = 0.0  # time.monotonic() when the last sync started
        self.syncs = 0
        self.asked = 0  # of them, asked for by a token this node did not know

    def sync(self) -> None:
        """Read the changes (in a thread: blocking SQL)."""
        now = datetime.now(UTC)
        since = self.since - MARGIN
        s_t = db.SessionRow
        with Session(self.engine) as s:
            self.auth.accounts.update(s.scalars(select(db.AccountRow.player_id)
                                                .where(db.AccountRow.created_at >= since)))
            live = s.execute(select(s_t.id_hash, s_t.player_id, s_t.expires_at)
                             .where(s_t.created_at >= since, s_t.revoked_at.is_(None))).all()
            revoked = list(s.scalars(select(s_t.id_hash).where(s_t.revoked_at >= since)))
            gens = s.execute(select(db.Meta.key, db.Meta.value)
                             .where(db.Meta.key.like(GEN_KEY_PREFIX + "%"))).all()
        rows = []
        for h, pid, ends in live:
            if ends.tzinfo is None:  # SQLite gives naive datetimes back
                ends = ends.replace(tzinfo=UTC)
            rows.append((h, pid, ends.timestamp()))
        self.auth.load_sessions(rows)
        self.auth.forget_sessions(revoked)
        self.auth.load_generations([(k, v) for k, v in gens])
        self.since = now
        self.syncs += 1
