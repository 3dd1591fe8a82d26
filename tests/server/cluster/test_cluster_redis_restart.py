"""Redis restarted empty (no persistence) in the middle of play: leases, token counters,
the active set and the room list are gone. The nodes go on: the rooms are given up and
taken again (token counters catching up with the database's fences, a takeover's token
above the fence), relayed seats are resynced once each node's bus has subscribed again,
and the database stays consistent. The parts, each on its own and quicker:
test_cluster_redis_recovery.py."""

from __future__ import annotations

import time
from typing import Any

import pytest
from clusterplay import check_database, seat_players
from test_cluster_failover import ARGS, bot_room, lease_owner, pump

redis = pytest.importorskip("redis")

pytestmark = [pytest.mark.slow, pytest.mark.timeout(180)]


def test_redis_restarted_empty(make_nodes: Any, pg_url: str, redis_server: Any,
                               redis_url: str) -> None:
    na, nb = make_nodes(["na", "nb"], ARGS)
    ps, code = seat_players(na.port, [nb.port], bots=2)
    host, bcode = bot_room(nb.port)
    everyone = [*ps, host]
    end = time.monotonic() + 60
    while time.monotonic() < end and min(len(p.acked) for p in ps) < 3:
        pump(everyone)
    before = {p.pid: len(p.acked) for p in ps}
    frames = host.frames
    redis_server.stop()
    t0 = time.monotonic()
    while time.monotonic() - t0 < 1.5:
        pump(everyone)
    redis_server.start()
    end = time.monotonic() + 40
    while time.monotonic() < end and (min(len(p.acked) - before[p.pid] for p in ps) < 3
                                      or host.frames < frames + 20):
        pump(everyone)
    took = time.monotonic() - t0
    assert min(len(p.acked) - before[p.pid] for p in ps) >= 3, "the players' room did not go on"
    assert host.frames >= frames + 20, "the bot room did not go on"
    r = redis.Redis.from_url(redis_url)
    # A room may go on briefly on its owner before the owner finds its lapsed lease lost and
    # takes the room again (the next tick): both are owned again within a few seconds.
    owned = time.monotonic() + 5
    while time.monotonic() < owned and not (lease_owner(r, code) in ("na", "nb")
                                            and lease_owner(r, bcode) in ("na", "nb")):
        pump(everyone)
    assert lease_owner(r, code) in ("na", "nb") and lease_owner(r, bcode) in ("na", "nb")
    for n in (na, nb):
        text = n.log_text()
        assert "Redis unreachable" in text and "Traceback" not in text, text[-3000:]
        assert "the bus is back" in text, text[-3000:]  # subscribed again (and resynced)
    for p in everyone:
        p.close()
    totals = check_database(pg_url, {p.pid: p.acked for p in ps})
    print(f"\nredis restarted: both rooms going on again {took:.1f} s after it went away; {totals}")


def test_a_relayed_seat_is_resynced_once_after_a_redis_restart(make_nodes: Any, pg_url: str,
                                                                redis_server: Any,
                                                                redis_url: str) -> None:
    """A seat relayed by node B into node A's room gets exactly one resync (one fresh
    ``snapshot``) for a Redis restart — not one for its own bus coming back, another for
    the owner's, and a third for the room's lease taken again (issue 27: a burst)."""
    na, nb = make_nodes(["na", "nb"], ARGS)
    ps, code = seat_players(na.port, [nb.port], bots=2)
    relayed = ps[1]
    end = time.monotonic() + 60
    while time.monotonic() < end and min(len(p.acked) for p in ps) < 3:
        pump(ps)
    backs = [n.log_text().count("the bus is back") for n in (na, nb)]
    snaps = relayed.snapshots
    redis_server.stop()
    t0 = time.monotonic()
    while time.monotonic() - t0 < 1.5:
        pump(ps)
    redis_server.start()
    r = redis.Redis.from_url(redis_url)
    # Wait for the whole recovery: both buses back, the room owned again, and the relayed
    # seat playing on (five moves acknowledged after its resync, some seconds of play).
    end = time.monotonic() + 60
    acked: dict[str, int] = {}

    def recovered() -> bool:
        if not all(n.log_text().count("the bus is back") > b for n, b in zip((na, nb), backs, strict=True)):
            return False
        if lease_owner(r, code) not in ("na", "nb") or relayed.snapshots == snaps:
            acked.clear()
            return False
        for p in ps:
            acked.setdefault(p.pid, len(p.acked))
        return min(len(p.acked) - acked[p.pid] for p in ps) >= 5

    while time.monotonic() < end and not recovered():
        pump(ps)
    assert recovered(), (relayed.snapshots - snaps, relayed.seen[-10:])
    quiet = time.monotonic() + 3  # and nothing more comes while play goes on
    while time.monotonic() < quiet:
        pump(ps)
    for p in ps:
        p.close()
    assert relayed.snapshots - snaps == 1, f"{relayed.snapshots - snaps} resyncs of the relayed seat"
    for n in (na, nb):
        assert "Traceback" not in n.log_text()
    check_database(pg_url, {p.pid: p.acked for p in ps})
