"""Persistence: a server killed mid-hand (SIGKILL) and restarted resumes every match at the
same event with the same scores, on SQLite and on PostgreSQL (``LAIZI_TEST_PG_URL``, else a private cluster)."""

from __future__ import annotations

import contextlib
from pathlib import Path

import pytest

from support.srvhelpers import Client, LiveServer, caught_up, step

websockets_sync = pytest.importorskip("websockets.sync.client")

pytestmark = pytest.mark.timeout(240)


def run_restart(db_url: str, tmp: Path) -> None:
    server = LiveServer(db_url, tmp)
    server.start()
    port = server.port
    clients: list[Client] = []
    try:
        clients = [Client(port, f"p{i}") for i in range(4)]
        c0 = clients[0]
        c0.send({"type": "create", "settings": {"max_hands": 2, "turn_seconds": 600,
                                                "claim_seconds": 120, "seed": "restart"}})
        code = c0.until(lambda m: m["type"] == "joined")["room"]["code"]
        for i, c in enumerate(clients):
            if i:
                c.send({"type": "join", "room": code})
                c.until(lambda m: m["type"] == "joined")
            c.send({"type": "sit", "seat": i})
            c.until(lambda m, i=i, pid=c.pid: m["type"] == "room"
                    and m["room"]["seats"][i]["player_id"] == pid)
            c.send({"type": "ready"})
            c.until(lambda m, i=i: m["type"] == "room" and m["room"]["seats"][i]["ready"])
        c0.send({"type": "start"})
        for c in clients:
            c.until(lambda m: m["type"] == "snapshot")
        # Play into the second hand, a few moves deep.
        for _ in range(20000):
            step(clients)
            v = c0.last["view"]  # type: ignore[index]
            if v["hand_no"] == 2 and v.get("phase") not in (None, "over") and v["wall_remaining"] < 70:
                break
        else:
            raise AssertionError("did not reach hand 2")
        # every action in flight answered and its frames read (a sleep of 0.3 s was a guess:
        # a busy server could still be applying the last move, and `before` was then stale)
        caught_up(clients)
        before = [c.last for c in clients]
        tokens = [c.token for c in clients]
        seqs = [c.seq for c in clients]
        server.kill()
        for c in clients:
            c.close()
        server.start()
        clients = [Client(port, token=t) for t in tokens]
        for i, c in enumerate(clients):
            c.send({"type": "join", "room": code})
            joined = c.until(lambda m: m["type"] == "joined")
            assert joined["seat"] == i
            snap = c.until(lambda m: m["type"] == "snapshot")
            b = before[i]
            assert b is not None
            # Same event, same table, same scores.
            assert snap["v"] == b["v"], (snap["v"], b["v"])
            assert snap["view"]["hand"] == b["view"]["hand"]
            assert snap["view"]["scores"] == b["view"]["scores"]
            assert snap["view"]["legal"] == b["view"]["legal"]
            assert snap["view"]["players"] == b["view"]["players"]
            assert snap["last_seq"] == seqs[i]
            c.seq = snap["last_seq"]
        # A duplicate of the last applied action is still recognised after the restart.
        c = next(c for c in clients if c.seq > 0)
        c.send({"type": "action", "seq": c.seq, "action": {"type": "pass"}})
        ack = c.until(lambda m: m["type"] in ("ack", "error"))
        assert ack["type"] == "ack" and ack["duplicate"] is True
        for _ in range(20000):
            if not step(clients):
                break
        if not clients[0].last["view"].get("match_over"):  # type: ignore[index]
            clients[0].until(lambda m: m["type"] == "update" and m["view"].get("match_over"))
        final = clients[0].last["view"]  # type: ignore[index]
        assert final["match_over"] and sum(final["scores"]) == 0
    finally:
        for c in clients:
            with contextlib.suppress(Exception):
                c.close()
        server.stop()


@pytest.mark.slow
def test_restart_resumes_match(db_url: str, tmp_path: Path) -> None:
    run_restart(db_url, tmp_path)
