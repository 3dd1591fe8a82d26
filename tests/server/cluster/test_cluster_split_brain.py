"""Split brain: the owner of a room is paused (SIGSTOP) past its lease, another node takes
the room over, the old owner is resumed (SIGCONT) — its writes are refused by the fencing
token in PostgreSQL and it gives the room up; the database stays one consistent match."""

from __future__ import annotations

import signal
import time
from typing import Any

import pytest
from clusterplay import check_database
from test_cluster_failover import bot_room, lease_owner, pump

redis = pytest.importorskip("redis")

pytestmark = [pytest.mark.slow, pytest.mark.timeout(180)]


def test_a_paused_owner_cannot_write_after_a_takeover(make_nodes: Any, pg_url: str,
                                                      redis_url: str) -> None:
    na, nb = make_nodes(["na", "nb"], ["--bot-delay", "0.02", "--hand-pause", "0.2"])
    r = redis.Redis.from_url(redis_url)
    host, code = bot_room(na.port)   # owned by na
    watcher, _ = bot_room(nb.port)   # a room on nb too (nb is busy as well)
    assert lease_owner(r, code) == "na"
    spectator_of = __import__("clusterplay").Player(nb.port, "spec")
    spectator_of.room = code
    spectator_of.c.send({"type": "join", "room": code, "spectate": True})
    everyone = [host, watcher, spectator_of]
    end = time.monotonic() + 3
    while time.monotonic() < end:
        pump(everyone)
    assert spectator_of.frames > 0  # relayed from na to nb
    na.signal(signal.SIGSTOP)
    t0 = time.monotonic()
    while lease_owner(r, code) != "nb" and time.monotonic() - t0 < 15:
        pump([watcher, spectator_of])
    took = time.monotonic() - t0
    assert lease_owner(r, code) == "nb", "nb did not take the room over"
    assert took < 5.0, took
    v_new = r.get(f"laizi:lease:{code}").decode()
    end = time.monotonic() + 1.0
    while time.monotonic() < end:  # nb plays the room on
        pump([watcher, spectator_of])
    na.signal(signal.SIGCONT)
    end = time.monotonic() + 10
    st: dict[str, Any] = {}
    while time.monotonic() < end:
        pump(everyone)
        st = na.status()
        if code not in st["rooms"] and st["rooms_given_up"] >= 1:
            break
        time.sleep(0.05)
    assert code not in st["rooms"] and st["rooms_given_up"] >= 1, st
    # The old owner tried to write (its bots' overdue moves) and the database refused.
    assert st["fenced_writes"] >= 1, st
    assert lease_owner(r, code) == "nb"
    end = time.monotonic() + 2
    while time.monotonic() < end:
        pump(everyone)
    from sqlalchemy import create_engine, text

    from laizi.server.db import normalize_url

    eng = create_engine(normalize_url(pg_url))
    with eng.connect() as c:
        token, node = c.execute(text("select token, node from room_fences where code = :c"),
                                {"c": code}).one()
    eng.dispose()
    assert (node, token) == ("nb", int(v_new.rpartition("|")[2]))
    for p in everyone:
        p.close()
    totals = check_database(pg_url, {})
    print(f"\nsplit brain: taken over in {took:.2f} s; old node: {st['fenced_writes']} writes "
          f"refused, {st['leases_lost']} leases lost; {totals}")
