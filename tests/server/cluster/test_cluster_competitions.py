"""Competitions and quick match on a cluster (two real nodes, private PostgreSQL and Redis):
a tournament whose entrants play from both nodes runs to its end, its tables opened and
owned by the one node leading the tournaments job; a quick-match table made by a node is
owned (leased and fenced) by it, so its moves are stored and acknowledged."""

from __future__ import annotations

import time
from typing import Any

import pytest
import redis

from laizi.server.cluster.leader import leader_key
from support.clusterplay import ARGS, lease_owner
from support.socialkit import call as scall
from support.srvhelpers import Client, step
from support.tableopen import assert_table_open
from support.tournkit import Player, account, call, query, wait_for

pytestmark = [pytest.mark.slow, pytest.mark.timeout(300)]


def test_a_tournament_across_two_nodes(make_nodes: Any, pg_url: str, redis_url: str) -> None:
    na, nb = make_nodes(["na", "nb"], ARGS)
    r = redis.Redis.from_url(redis_url)
    org = account(na, "organiser")
    tokens = [account(na if i % 2 == 0 else nb, f"entrant{i}") for i in range(4)]
    st, out = call(na, "POST", "/api/tournaments", {
        "name": "两台服务器杯", "rounds": 2, "hands_per_round": 1, "seats": 8, "bots_fill": True,
        "continue_seconds": 0, "turn_seconds": 30, "bot_delay": 0, "no_show_seconds": 30}, org)
    assert st == 200, out
    tid = out["id"]
    for i, t in enumerate(tokens):  # half of them through the other node
        node = na if i % 2 == 0 else nb
        assert call(node, "POST", f"/api/tournaments/{tid}/register", {}, t)[0] == 200
        assert call(node, "POST", f"/api/tournaments/{tid}/check-in", {}, t)[0] == 200
    players = [Player(na if i % 2 == 0 else nb, tid, t) for i, t in enumerate(tokens)]
    for p in players:
        p.start()
    try:
        st, out = call(nb, "POST", f"/api/tournaments/{tid}/start", {}, org)
        assert st == 200 and out["entrants"] == 8 and out["bots"] == 4, out
        d = wait_for(na, tid, lambda d: d["status"] == "finished", 240)
    finally:
        for p in players:
            p.stop.set()
        for p in players:
            p.join(10)
    leader = (r.get(leader_key("tournaments")) or b"").decode()
    assert leader in ("na", "nb")
    tables = [t for rnd in d["rounds"] for t in rnd["tables"]]
    assert len(tables) == 4 and all(t["status"] == "finished" and t["match_id"] for t in tables)
    # Every table was opened once, by one node (round 1 by the node the organiser's start
    # came to, later rounds by the leader): its lease's first token, never taken again.
    codes = [t["room"] for t in tables]
    fences = {c: (n, tok) for c, n, tok in query(
        pg_url, "SELECT code, node, token FROM room_fences WHERE code = ANY(:c)", c=codes)}
    assert sorted(fences) == sorted(codes), fences
    assert all(n in ("na", "nb") and tok == 1 for n, tok in fences.values()), fences
    assert {fences[t["room"]][0] for t in d["rounds"][1]["tables"]} == {leader}, fences
    # Entrants on both nodes played (those on the other node relayed to the leader's tables).
    assert all(p.actions > 0 for p in players), [(p.actions, p.errors[:3]) for p in players]
    # Each table's match is stored to its end: four players' final places.
    for t in tables:
        assert query(pg_url, "SELECT count(*) FROM match_players WHERE match_id = :m",
                     m=t["match_id"])[0][0] == 4
        assert_table_open(pg_url, t["room"], match_id=t["match_id"])
    for n in (na, nb):
        assert "Traceback" not in n.log_text()


def test_quick_match_on_a_cluster_node(make_nodes: Any, pg_url: str, redis_url: str,
                                       monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LAIZI_QUICK_HANDS", "1")
    (na,) = make_nodes(["na"], ARGS)
    r = redis.Redis.from_url(redis_url)
    toks = [scall(na, "POST", "/api/guest", None, {"nickname": f"客{i}"})[1]["token"]
            for i in range(4)]
    clients = [Client(na.port, token=t) for t in toks]
    try:
        for t in toks:
            assert scall(na, "POST", "/api/quick", t, {"level": "novice"})[0] == 200
        got = [c.until("quick_match", 10) for c in clients]
        code = got[0]["room"]
        assert lease_owner(r, code) == "na"  # the node took the room's lease when it made it
        assert_table_open(pg_url, code, redis=r)  # and every other step of the start
        for c in clients:
            c.send({"type": "join", "room": code})
        end = time.monotonic() + 30

        def acked() -> int:
            return sum(1 for c in clients for m in c.frames if m["type"] == "ack")

        while time.monotonic() < end and acked() < 8 and step(clients):
            pass
        assert acked() >= 8, "the quick-match table's moves were not acknowledged"
        refused = [m for c in clients for m in c.frames
                   if m["type"] == "error" and m.get("code") == "room_moved"]
        assert not refused, refused  # (its writes were fenced out before: no lease)
        assert "room_moved" not in na.log_text() and "Traceback" not in na.log_text()
    finally:
        for c in clients:
            c.close()
