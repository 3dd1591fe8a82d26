"""Split brain: the owner of a room is paused (SIGSTOP) past its lease and another node
takes the room over. A player's move reaches the old owner as it is resumed (SIGCONT):
its write is refused by the fencing token in PostgreSQL (no ack: the player is told the
room moved), the old owner gives the room up, and the player goes on with the new owner.
The database stays one consistent match."""

from __future__ import annotations

import signal
import time
from typing import Any

import pytest

from support.clusterplay import bot_room, check_database, lease_owner, pump, seat_players
from support.srvhelpers import choose

redis = pytest.importorskip("redis")

pytestmark = [pytest.mark.slow, pytest.mark.timeout(180)]


def test_a_paused_owner_cannot_write_after_a_takeover(make_nodes: Any, pg_url: str,
                                                      redis_url: str) -> None:
    na, nb = make_nodes(["na", "nb"], ["--bot-delay", "0.02", "--hand-pause", "0.2"])
    r = redis.Redis.from_url(redis_url)
    (p0,), code = seat_players(na.port, [], bots=3)  # p0 on na, the owner; three bots
    watcher, _ = bot_room(nb.port)                   # nb is busy too
    assert lease_owner(r, code) == "na"
    # Wait for p0's turn (the room then waits for it: turn_seconds 600).
    end = time.monotonic() + 30
    while time.monotonic() < end:
        p0.pump(0.02)
        watcher.pump(0.005)
        v = (p0.last or {}).get("view") or {}
        if v.get("legal") and any(a["type"] == "discard" for a in v["legal"]):
            break
    assert p0.last is not None
    legal = p0.last["view"]["legal"]
    assert legal
    na.signal(signal.SIGSTOP)
    t0 = time.monotonic()
    while lease_owner(r, code) != "nb" and time.monotonic() - t0 < 15:
        pump([watcher])
    took = time.monotonic() - t0
    assert lease_owner(r, code) == "nb", "nb did not take the room over"
    # The lease lapses 2-3 s after the pause (3 s, renewed every 1 s) and nb looks every 0.5 s:
    # about 3.5 s at most, idle (the design's "takeover < 5 s"). 8 s, not 5, for a busy
    # machine whose nb ticks late; a lease that does not lapse, or a takeover that waits for
    # something else, still fails.
    assert took < 8.0, took
    token_new = int(r.get(f"laizi:lease:{code}").decode().rpartition("|")[2])
    from sqlalchemy import create_engine, text

    from laizi.server.persistence.db import normalize_url

    eng = create_engine(normalize_url(pg_url))

    def fence() -> tuple[str, int]:
        with eng.connect() as c:
            token, node = c.execute(text("select token, node from room_fences where code = :c"),
                                    {"c": code}).one()
        return str(node), int(token)

    # The takeover is complete once nb raised the room's fence in the database (a write of
    # na's that got in before that is simply part of what nb loads).
    while fence() != ("nb", token_new) and time.monotonic() - t0 < 15:
        pump([watcher])
    assert fence() == ("nb", token_new)
    # p0's move waits in na's socket; na wakes up with it and with its lease gone.
    p0.seq += 1
    p0.c.send({"type": "action", "seq": p0.seq, "action": choose(legal), "version": p0.last["v"]})
    na.signal(signal.SIGCONT)
    # Its answer, read through the player (the resync from the new owner may come first:
    # na may have found its lease gone and re-joined p0 there before the refusal came back).
    reply = p0.next(lambda m: m["type"] in ("ack", "error"), 15)
    assert reply["type"] == "error" and reply["code"] == "room_moved", reply
    st: dict[str, Any] = {}
    end = time.monotonic() + 10
    while time.monotonic() < end:
        st = na.status()
        if code not in st["rooms"] and st["rooms_given_up"] >= 1:
            break
        time.sleep(0.05)
    assert code not in st["rooms"] and st["rooms_given_up"] >= 1 and st["fenced_writes"] >= 1, \
        {k: st.get(k) for k in ("rooms", "rooms_given_up", "fenced_writes", "leases_lost")}
    assert lease_owner(r, code) == "nb"
    # p0's socket (on na) follows the room to nb: a resync, then its move is applied there.
    # (The resync's snapshot may have come before the refusal: p0 plays on whatever frame it
    # holds — play() acts once per version, and a snapshot lets it act again.)
    end = time.monotonic() + 30
    while time.monotonic() < end and not p0.acked:
        p0.pump(0.02)
        p0.play()
        watcher.pump(0.005)
    assert p0.acked, ("p0 could not go on with the new owner", p0.seen[-15:])
    assert p0.reconnects == 0
    with eng.connect() as c:
        refused = c.execute(text("select count(*) from actions where player_id = :p and client_seq = 1"),
                            {"p": p0.pid}).scalar()
    assert fence() == ("nb", token_new)
    eng.dispose()
    assert refused == 0 or 1 in p0.acked  # the fenced move is not stored (unless acked later)
    p0.close()
    watcher.close()
    totals = check_database(pg_url, {p0.pid: p0.acked})
    assert "Traceback" not in na.log_text() and "Traceback" not in nb.log_text()
    print(f"\nsplit brain: taken over in {took:.2f} s; old node: {st['fenced_writes']} writes "
          f"refused, {st['leases_lost']} leases lost; {totals}")
