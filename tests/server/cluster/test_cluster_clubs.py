"""A club table on a cluster (two real nodes, private PostgreSQL and Redis): a club made on
one node is the same club on the other; a table opened from a template through node B is
leased and fenced by B; the club lobby lists it through node A; the host plays from node A
(relayed to B), a member from B; the club's bots fill the empty seats at the start; moves
are acknowledged through the relay; a 解散 vote across both nodes closes the table and the
ranking read through A counts both players."""

from __future__ import annotations

import time
from typing import Any

import pytest
import redis

from support.clusterplay import ARGS, lease_owner
from support.socialkit import PASSWORD, call
from support.srvhelpers import Client, step
from support.tableopen import assert_table_open
from support.tournkit import query

pytestmark = [pytest.mark.slow, pytest.mark.timeout(300)]


def ok(out: tuple[int, Any]) -> Any:
    assert out[0] == 200, out
    return out[1]


def known(node: Any, token: str) -> None:
    """Wait until ``node`` knows the account registered on the other node (its session
    reaches every node: cluster.authsync)."""
    end = time.monotonic() + 15
    while call(node, "GET", "/api/clubs", token)[0] == 401:
        assert time.monotonic() < end, "the other node never learnt the session"
        time.sleep(0.2)


def test_a_club_table_across_two_nodes(make_nodes: Any, pg_url: str, redis_url: str) -> None:
    na, nb = make_nodes(["na", "nb"], ARGS)
    r = redis.Redis.from_url(redis_url)
    ta = ok(call(na, "POST", "/api/account/register", None, {"username": "clubhost", "password": PASSWORD}))["token"]
    tb = ok(call(nb, "POST", "/api/account/register", None, {"username": "clubmate", "password": PASSWORD}))["token"]
    known(na, tb)
    club = ok(call(na, "POST", "/api/clubs", ta, {"name": "双机俱乐部", "bots": "random"}))
    cid = club["id"]
    assert ok(call(nb, "POST", "/api/clubs/join", tb, {"code": club["code"]}))["status"] == "member"
    # the club's card names its owner on a node the owner never came to (it said "?", stop 50)
    assert ok(call(nb, "GET", f"/api/clubs/{cid}", tb))["owner"]["nickname"] == "clubhost"
    assert [c["owner"]["nickname"] for c in ok(call(nb, "GET", "/api/clubs", tb))["clubs"]] == ["clubhost"]
    known(nb, ta)  # the host calls node B from here on, without ever saying hello there
    tpl = ok(call(nb, "POST", f"/api/clubs/{cid}/templates", ta,
                  {"name": "一圈", "settings": {"preset": "kaikoufan", "turn_seconds": 30}}))
    code = ok(call(nb, "POST", f"/api/clubs/{cid}/tables", ta,
                   {"template": tpl["id"], "fill": False}))["code"]
    assert lease_owner(r, code) == "nb"  # the node that opened it took its lease
    listed = ok(call(na, "GET", f"/api/clubs/{cid}/tables", tb))["tables"]
    assert [t["code"] for t in listed] == [code]  # the club lobby is the same on every node
    assert listed[0]["seats"][0]["nickname"] == "clubhost"  # named though B never saw the host
    assert ok(call(nb, "POST", f"/api/clubs/{cid}/quick", tb)) == {"code": code, "seat": 1}
    host, mate = Client(na.port, token=ta), Client(nb.port, token=tb)  # the host through A
    try:
        for c in (host, mate):
            c.send({"type": "join", "room": code})
            c.until("joined")
        mate.send({"type": "ready"})
        host.until(lambda m: m["type"] == "room" and m["room"]["seats"][1]["ready"])
        host.send({"type": "start"})
        room = mate.until(lambda m: m["type"] == "room" and m["room"]["status"] == "playing")["room"]
        assert [s["bot"] for s in room["seats"]] == [None, None, "random", "random"]
        assert_table_open(pg_url, code, redis=r)  # the host's start, relayed: every step taken
        end = time.monotonic() + 60

        def acked() -> int:
            return sum(1 for c in (host, mate) for m in c.frames if m["type"] == "ack")

        while time.monotonic() < end and acked() < 4 and step([host, mate]):
            pass
        assert acked() >= 4, "the club table's moves were not acknowledged"
        host.send({"type": "dissolve"})
        mate.until(lambda m: m["type"] == "dissolve" and m["waiting"] == [1])
        mate.send({"type": "dissolve"})
        host.until(lambda m: m["type"] == "dissolve" and m["done"], 20)
    finally:
        host.close()
        mate.close()
    end = time.monotonic() + 20
    while query(pg_url, "SELECT status FROM matches WHERE room_code = :c", c=code)[0][0] != "finished":
        assert time.monotonic() < end, "the match did not end"
        time.sleep(0.2)
    fences = query(pg_url, "SELECT node, token FROM room_fences WHERE code = :c", c=code)
    assert [tuple(f) for f in fences] == [("nb", 1)]  # opened once, by B, never taken over
    rank = ok(call(na, "GET", f"/api/clubs/{cid}/ranking", ta))["ranking"]
    assert {x["username"] for x in rank} == {"clubhost", "clubmate"}
    assert all(x["matches"] == 1 for x in rank)
    for n in (na, nb):
        assert "Traceback" not in n.log_text()


def test_quick_seat_at_a_table_another_node_holds(make_nodes: Any, redis_url: str) -> None:
    """A club table opened through node A waits in its lobby there; a member asks node B for a
    quick seat: B answers the table's code and a free seat (``sit``: the client sits through
    the socket, the join routed to A), and the member ends up seated at A's table."""
    na, nb = make_nodes(["na", "nb"], ARGS)
    r = redis.Redis.from_url(redis_url)
    ta = ok(call(na, "POST", "/api/account/register", None, {"username": "qhost", "password": PASSWORD}))
    tb = ok(call(nb, "POST", "/api/account/register", None, {"username": "qmate", "password": PASSWORD}))
    known(nb, ta["token"])
    known(na, tb["token"])
    club = ok(call(na, "POST", "/api/clubs", ta["token"], {"name": "跨机快速入座"}))
    cid = club["id"]
    assert ok(call(nb, "POST", "/api/clubs/join", tb["token"], {"code": club["code"]}))["status"] == "member"
    tpl = ok(call(na, "POST", f"/api/clubs/{cid}/templates", ta["token"],
                  {"name": "一圈", "settings": {"preset": "kaikoufan", "turn_seconds": 30}}))
    code = ok(call(na, "POST", f"/api/clubs/{cid}/tables", ta["token"],
                   {"template": tpl["id"], "fill": False}))["code"]
    assert lease_owner(r, code) == "na"
    out = ok(call(nb, "POST", f"/api/clubs/{cid}/quick", tb["token"]))
    assert out == {"code": code, "seat": 1, "sit": True}  # B does not hold it: the client sits
    assert lease_owner(r, code) == "na"  # asking B took nothing over
    mate = Client(nb.port, token=tb["token"])
    try:
        mate.send({"type": "join", "room": code})
        assert mate.until("joined")["seat"] is None
        mate.send({"type": "sit", "seat": out["seat"]})
        room = mate.until(lambda m: m["type"] == "room" and (m["room"]["seats"][1] or {}).get("player_id")
                          == mate.pid)["room"]
        assert room["seats"][0]["player_id"] == ta["player_id"]
    finally:
        mate.close()
    end = time.monotonic() + 15
    while True:  # the seat is stored by its owner (A): the lobby read through B lists it
        listed = ok(call(nb, "GET", f"/api/clubs/{cid}/tables", tb["token"]))["tables"]
        if [x["player_id"] for x in listed[0]["seats"] if x] == [ta["player_id"], tb["player_id"]]:
            break
        assert time.monotonic() < end, listed
        time.sleep(0.2)
    # seated already (the stored seats say so): asking again answers the same seat
    assert ok(call(nb, "POST", f"/api/clubs/{cid}/quick", tb["token"])) == {"code": code, "seat": 1, "sit": True}
    for n in (na, nb):
        assert "Traceback" not in n.log_text()
