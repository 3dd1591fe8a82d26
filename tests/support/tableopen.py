"""One check for every way a table opens — the host's start, 再来一局, quick match, a
tournament table, a club table its bots fill: each must have taken every step of
``Room.seat_and_start`` (``laizi.server.tables.seating``), read back from where those steps
leave their mark — the database and, on a cluster, Redis. A caller that built and started a
table itself and skipped a step (the lease, the recorder's first write, a coin seat) fails it."""

from __future__ import annotations

import json
from collections.abc import Collection
from typing import Any

from support.tournkit import query

__all__ = ["assert_table_open"]


def assert_table_open(db_url: str, code: str, *, coin_players: Collection[str] = (),
                      redis: Any = None, match_id: int | None = None) -> int:
    """Room ``code`` has a match in play (or played) that was opened by every step: the room
    stored with its match (and, when given, that match is ``match_id``), the match stored
    with its four seats and first events (the recorder's first write, before anyone saw the
    table), each of ``coin_players`` holding its coin seat at this table (the ledger's stake
    check) and, on a cluster (``redis``: a client of its Redis), one node holding the room's
    lease. Returns the match's id."""
    rows = query(db_url, "SELECT status, match_id FROM rooms WHERE code = :c", c=code)
    assert len(rows) == 1, f"room {code} is not stored"
    status, mid = rows[0]
    assert status in ("playing", "finished") and mid is not None, (code, status, mid)
    if match_id is not None:
        assert mid == match_id, f"room {code} stores match {mid}, not {match_id}"
    match = query(db_url, "SELECT room_code, seats FROM matches WHERE id = :m", m=mid)
    assert len(match) == 1 and match[0][0] == code, (code, mid, match)
    seats = match[0][1]
    seats = json.loads(seats) if isinstance(seats, str) else seats
    assert len(seats) == 4 and all(s.get("player_id") or s.get("bot") for s in seats), seats
    events = query(db_url, "SELECT count(*) FROM events WHERE match_id = :m", m=mid)[0][0]
    assert events > 0, f"match {mid} of room {code}: no event stored"
    if coin_players:
        held = dict(query(db_url, "SELECT player_id, room_code FROM coin_seats"))
        assert {p: held.get(p) for p in coin_players} == dict.fromkeys(coin_players, code), held
        at = {s.get("player_id") for s in seats}
        assert set(coin_players) <= at, (coin_players, seats)
    if redis is not None:
        lease = redis.get(f"laizi:lease:{code}")
        assert lease is not None and lease.decode().rpartition("|")[0], f"room {code}: no lease"
    return int(mid)
