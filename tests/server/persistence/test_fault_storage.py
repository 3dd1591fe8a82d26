"""Finding 3: a database write that fails is never lost. A real ``laizi serve`` plays a match
while its database becomes unwritable for a few seconds (``RLIMIT_FSIZE`` = 0 on the server
process for SQLite; the PostgreSQL server stopped and started): the room pauses and tells its
seats, nothing is acknowledged before it is stored, it resumes by itself; afterwards every
acknowledged action is in the database and a kill -9 + restart resumes the room."""

from __future__ import annotations

import contextlib
import resource
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select
from sqlalchemy.orm import Session

from laizi.server.persistence import db
from support.srvhelpers import Client, LiveServer, caught_up, seated_room, step

pytestmark = [pytest.mark.timeout(300), pytest.mark.slow]

OUTAGE = 3.0  # seconds the database is away


def acked(c: Client) -> set[int]:
    return {m["seq"] for m in c.frames if m["type"] == "ack" and not m.get("duplicate")}


def stored_seqs(db_url: str, pid: str) -> set[int]:
    eng = db.make_engine(db_url)
    try:
        with Session(eng) as s:
            return {int(x) for x in s.scalars(select(db.ActionRow.client_seq).where(
                db.ActionRow.player_id == pid, db.ActionRow.client_seq.is_not(None)))}
    finally:
        eng.dispose()


def play(clients: list[Client], seconds: float, until: Callable[[], bool] = lambda: False) -> None:
    end = time.monotonic() + seconds
    while time.monotonic() < end and not until():
        if not step(clients):
            return


def run_outage(db_url: str, tmp: Path, down: Callable[[LiveServer], None],
               up: Callable[[LiveServer], None]) -> None:
    srv = LiveServer(db_url, tmp, bot_delay=0.0, hand_pause=0.0, disconnect_grace=60.0).start()
    clients: list[Client] = []
    try:
        clients, code = seated_room(srv.port, 4, max_hands=2, turn_seconds=600, claim_seconds=120)
        c0 = clients[0]
        play(clients, 30, lambda: (c0.last or {}).get("v", 0) >= 15)
        before_v = c0.last["v"] if c0.last else 0
        down(srv)
        try:
            play(clients, OUTAGE)
            paused = [m for c in clients for m in c.frames if m["type"] == "paused"]
            assert paused, "the seats were not told the room paused"
            v_down = c0.last["v"] if c0.last else 0
        finally:
            up(srv)
        for c in clients:
            c.until("resumed", timeout=15)
        play(clients, 60, lambda: (c0.last or {}).get("v", 0) >= v_down + 20
             or bool((c0.last or {}).get("view", {}).get("match_over")))
        assert c0.last is not None and c0.last["v"] > before_v
        # every action in flight answered and its frames read before the acks and the views
        # are taken (a sleep of 0.3 s was a guess: a busy server could still be storing the
        # last move, then acknowledged and stored after `acks`/`last` were read)
        caught_up(clients)
        internal = [m for c in clients for m in c.frames if m.get("code") == "internal"]
        assert not internal, internal
        tokens = [c.token for c in clients]
        acks = [acked(c) for c in clients]
        last = [c.last for c in clients]
        srv.kill()
        for c in clients:
            c.close()
        # Every acknowledged action is in the database.
        for c, a in zip(clients, acks, strict=True):
            assert a <= stored_seqs(db_url, c.pid), (a - stored_seqs(db_url, c.pid))
        assert any(acks)
        srv.start()
        clients = [Client(srv.port, token=t) for t in tokens]
        for i, c in enumerate(clients):
            c.send({"type": "join", "room": code})
            snap = c.until("snapshot")
            b = last[i]
            assert b is not None
            assert snap["v"] == b["v"] and snap["view"]["hand"] == b["view"]["hand"]
            assert snap["last_seq"] == max(acks[i], default=0)
            c.seq = snap["last_seq"]
        play(clients, 120, lambda: bool((clients[0].last or {}).get("view", {}).get("match_over")))
        if not (clients[0].last or {}).get("view", {}).get("match_over"):  # another seat saw it first
            clients[0].until(lambda m: m["type"] in ("update", "snapshot") and m["view"].get("match_over"))
        final = clients[0].last
        assert final is not None and final["view"]["match_over"] and sum(final["view"]["scores"]) == 0
    finally:
        for c in clients:
            c.close()
        srv.stop()


def test_sqlite_disk_full_mid_match(tmp_path: Path) -> None:
    def down(srv: LiveServer) -> None:
        resource.prlimit(srv.proc.pid, resource.RLIMIT_FSIZE, (0, resource.RLIM_INFINITY))

    def up(srv: LiveServer) -> None:
        with contextlib.suppress(ProcessLookupError):
            resource.prlimit(srv.proc.pid, resource.RLIMIT_FSIZE,
                             (resource.RLIM_INFINITY, resource.RLIM_INFINITY))

    run_outage(str(tmp_path / "fault.db"), tmp_path, down, up)


def test_postgres_stopped_mid_match(pg_cluster: Any, tmp_path: Path) -> None:
    # Always the private cluster (whatever LAIZI_TEST_PG_URL says): the test stops it.
    if not pg_cluster.ready():
        pg_cluster.start()
    eng = db.make_engine(pg_cluster.url)
    db.Base.metadata.drop_all(eng)
    eng.dispose()
    run_outage(pg_cluster.url, tmp_path, lambda srv: pg_cluster.stop(), lambda srv: pg_cluster.start())
