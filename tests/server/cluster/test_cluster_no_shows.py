"""Tournament no-shows on a cluster (two real nodes, private PostgreSQL and Redis): an
entrant who never comes to a table owned by a node that does not lead the tournaments job
is charged all the same — each node charges the no-shows of the tables it holds (issue 27:
only tables in the leader's memory were looked at)."""

from __future__ import annotations

import time
from typing import Any

import pytest
import redis

from laizi.server.cluster.leader import leader_key
from support.clusterplay import ARGS
from support.tournkit import account, call, query, wait_for

pytestmark = [pytest.mark.slow, pytest.mark.timeout(300)]


def test_a_no_show_at_a_table_the_leader_does_not_hold_is_charged(
        make_nodes: Any, pg_url: str, redis_url: str) -> None:
    na, nb = make_nodes(["na", "nb"], ARGS)
    r = redis.Redis.from_url(redis_url)
    end = time.monotonic() + 30
    while time.monotonic() < end and not r.get(leader_key("tournaments")):
        time.sleep(0.1)  # a node's first tick takes the job
    leader = (r.get(leader_key("tournaments")) or b"").decode()
    assert leader in ("na", "nb"), leader
    other = nb if leader == "na" else na  # the start goes here: it opens (and holds) the table
    org = account(other, "organiser")
    absent = account(other, "absent")
    # The start request opens the table on `other`; but the leader's tick may reach the new
    # round first on a loaded machine (then the leader holds it, and the case under test did
    # not arise): the no-show is charged either way, and the case is tried again (≤ 3 times).
    holders = []
    for attempt in range(3):
        st, out = call(other, "POST", "/api/tournaments", {
            "name": f"缺席杯{attempt}", "rounds": 1, "hands_per_round": 1, "seats": 4,
            "bots_fill": True, "continue_seconds": 0, "turn_seconds": 30, "bot_delay": 0,
            "no_show_seconds": 1}, org)
        assert st == 200, out
        tid = out["id"]
        assert call(other, "POST", f"/api/tournaments/{tid}/register", {}, absent)[0] == 200
        assert call(other, "POST", f"/api/tournaments/{tid}/check-in", {}, absent)[0] == 200
        st, out = call(other, "POST", f"/api/tournaments/{tid}/start", {}, org)
        assert st == 200 and out["entrants"] == 4 and out["bots"] == 3, out
        d = wait_for(other, tid, lambda d: d["status"] == "finished", 180)
        assert (r.get(leader_key("tournaments")) or b"").decode() == leader  # it never moved
        (table,) = d["rounds"][0]["tables"]
        ((node, token),) = query(pg_url, "SELECT node, token FROM room_fences WHERE code = :c",
                                 c=table["room"])
        assert token == 1, (node, token)  # opened once, never taken over
        row = next(e for e in d["final"] if e["nickname"] == "absent")
        assert row["escapes"] == 1, (row, d["final"])  # charged as a no-show
        assert sum(e["escapes"] for e in d["final"]) == 1
        holders.append(node)
        if node == other.name:  # not the leader's table: the case under test
            break
    assert holders[-1] == other.name, (holders, leader)
    for n in (na, nb):
        assert "Traceback" not in n.log_text()
