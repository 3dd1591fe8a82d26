"""Finding 7: finished rooms and their matches leave memory (they live in the database):
room info, replays and the score table still answer; the match object is freed."""

from __future__ import annotations

import gc
import time
import weakref
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from laizi.server.common.config import FINISHED_LINGER, LOBBY_IDLE
from support.srvhelpers import (
    Client,
    LiveServer,
    close_all,
    connect,
    game_frame,
    new_room,
    room_state,
)

pytestmark = pytest.mark.timeout(120)


def bot_match(c: Client) -> tuple[str, int]:
    code = c.bot_table(max_hands=1)
    c.send({"type": "start"})
    over = c.until(lambda m: m["type"] in ("update", "snapshot") and m["view"].get("match_over"), 60)
    return code, over["match_id"]


def test_finished_rooms_leave_memory_and_stay_readable(tmp_path: Path) -> None:
    assert FINISHED_LINGER > 0
    srv = LiveServer(str(tmp_path / "evict.db"), tmp_path, bot_delay=0.0, hand_pause=0.0,
                     finished_linger=0.5).start()
    c = Client(srv.port, "watcher")
    try:
        code, mid = bot_match(c)
        deadline = time.time() + 10
        while srv.get("/healthz")[1]["stats"]["rooms_evicted"] < 1 and time.time() < deadline:
            time.sleep(0.1)
        health = srv.get("/healthz")[1]
        assert health["stats"]["rooms_evicted"] == 1 and health["rooms"] == 0
        status, info = srv.get(f"/api/rooms/{code}")
        assert status == 200 and info["status"] == "finished" and info["match_id"] == mid
        status, replay = srv.get(f"/api/matches/{mid}/replay")
        assert status == 200 and replay["status"] == "finished" and len(replay["hands"]) == 1
        err = c.request({"type": "join", "room": code}, "joined")
        assert err["type"] == "error" and err["code"] == "room_finished" and str(mid) in err["message"]
        assert srv.get("/api/rooms/ZZZZZ")[0] == 404
    finally:
        c.close()
        srv.stop()


def test_an_evicted_match_is_freed(make_app: Any) -> None:
    app = make_app(finished_linger=0.2, gc_freeze=False)
    with TestClient(app) as client:
        try:
            _evicted_and_freed(client, app.state.hub)
        finally:
            close_all()


def _evicted_and_freed(client: TestClient, hub: Any) -> None:
    ws, _ = connect(client, "w")
    code = new_room(ws, max_hands=1)
    for s in range(4):
        ws.send(type="bot", seat=s, level="random")
    room_state(ws, lambda r: all(x["bot"] for x in r["seats"]))
    ws.send(type="start")
    game_frame(ws, lambda m: m["view"].get("match_over"), timeout=60)
    game = weakref.ref(hub.rooms[code].game)
    room = weakref.ref(hub.rooms[code])
    deadline = time.time() + 10
    while code in hub.rooms and time.time() < deadline:
        time.sleep(0.05)
    assert code not in hub.rooms
    assert game() is None, "the finished match is still referenced"  # freed without a GC pass
    gc.collect()
    assert room() is None


def test_abandoned_lobbies_are_closed(tmp_path: Path) -> None:
    assert LOBBY_IDLE >= 60
    srv = LiveServer(str(tmp_path / "idle.db"), tmp_path, lobby_idle=0.5).start()
    a = Client(srv.port, "a")
    keep = Client(srv.port, "k")
    try:
        code = a.request({"type": "create", "settings": {}}, "joined")["room"]["code"]
        kept = keep.request({"type": "create", "settings": {}}, "joined")["room"]["code"]
        a.request({"type": "leave"}, "left")
        deadline = time.time() + 10
        while srv.get("/healthz")[1]["stats"]["rooms_evicted"] < 1 and time.time() < deadline:
            time.sleep(0.1)
        time.sleep(1.0)
        assert srv.get("/healthz")[1]["rooms"] == 1  # the room with someone in it stays
        assert {r["code"] for r in srv.get("/api/rooms")[1]["rooms"]} == {kept}
        assert srv.get(f"/api/rooms/{code}")[1]["status"] == "closed"
        assert a.request({"type": "join", "room": code}, "joined")["code"] == "room_closed"
    finally:
        a.close()
        keep.close()
        srv.stop()


def test_a_room_says_finished_once_its_end_is_stored(make_app: Any) -> None:
    """The room's status (its API, the lobby) turns finished only once the write holding the
    last hand, its coins and the finished status is done: read while that write runs, it is
    still playing. (It used to turn first: a reader of /api/rooms/{code} then of the stored
    match or a club ranking could find them not written yet.)"""
    app = make_app(finished_linger=30)
    with TestClient(app) as client:
        try:
            hub = app.state.hub
            store = hub.store
            seen: list[tuple[str | None, str]] = []
            write = store.write_progress

            async def watched(p: Any, **kw: Any) -> Any:
                room = hub.rooms.get(p.room_code)
                status = (p.room_values or {}).get("status")
                seen.append((status, str(room.status) if room is not None else "gone"))
                return await write(p, **kw)

            store.write_progress = watched
            ws, _ = connect(client, "w")
            code = new_room(ws, max_hands=1)
            for s in range(4):
                ws.send(type="bot", seat=s, level="random")
            room_state(ws, lambda r: all(x["bot"] for x in r["seats"]))
            ws.send(type="start")
            game_frame(ws, lambda m: m["view"].get("match_over"), timeout=60)
            ends = [mem for stored, mem in seen if stored == "finished"]
            assert ends and all(mem.endswith("playing") for mem in ends), seen[-3:]
            assert client.get(f"/api/rooms/{code}").json()["status"] == "finished"
        finally:
            close_all()


def test_a_lobby_nobody_is_in_leaves_the_room_list_at_once(tmp_path: Path) -> None:
    """A lobby its last person left is not listed (it waits for nobody), long before the
    sweep closes it; its code still lets its host back in, and it is listed again."""
    srv = LiveServer(str(tmp_path / "list.db"), tmp_path).start()  # the sweep: 10 minutes
    a = Client(srv.port, "a")
    b = Client(srv.port, "b")
    try:
        code = a.request({"type": "create", "settings": {}}, "joined")["room"]["code"]
        other = b.request({"type": "create", "settings": {}}, "joined")["room"]["code"]

        def listed() -> set[str]:
            return {r["code"] for r in srv.get("/api/rooms")[1]["rooms"]}

        assert listed() == {code, other}
        a.request({"type": "leave"}, "left")
        deadline = time.time() + 10
        while code in listed() and time.time() < deadline:
            time.sleep(0.05)
        assert listed() == {other}
        assert srv.get(f"/api/rooms/{code}")[1]["status"] == "lobby"  # not closed: still joinable
        assert a.request({"type": "join", "room": code}, "joined")["room"]["code"] == code
        assert listed() == {code, other}
    finally:
        a.close()
        b.close()
        srv.stop()
