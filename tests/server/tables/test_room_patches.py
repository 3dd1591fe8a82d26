"""Issue 24, lean wire: a room's changes as patches (``hello`` ``room_patch``,
:mod:`laizi.server.tables.roomwire`). A connection that asked gets each ``room`` after its
``joined`` as a patch of the room it holds; applied, it is the room whole, as a connection
that did not ask gets it — through seats taken, 准备, the start, a player leaving, a
resync, and a second room."""

from __future__ import annotations

import json
from typing import Any

import pytest

from laizi.server.common.delta import canonical, diff
from support.srvhelpers import OPEN, WS, game_frame, hello_msg, new_room, room_state

pytestmark = pytest.mark.timeout(300)


def _client(client: Any, nick: str, **hello: Any) -> WS:
    cm = client.websocket_connect("/ws")
    ws = WS(cm.__enter__())
    OPEN.append(cm)
    ws.send(**hello_msg(nickname=nick, **hello))
    ws.until("welcome")
    return ws


def _barrier(*wss: WS) -> None:
    for ws in wss:
        ws.send(type="ping")
        ws.until("pong", timeout=30)


def _room_texts(ws: WS) -> list[str]:
    return [t for t in ws.raw if t.startswith('{"type":"room"')]


def test_room_changes_travel_as_patches_and_make_the_room(fast_client: Any) -> None:
    c = fast_client
    lean = [_client(c, f"lean{i}", room_patch=True) for i in range(2)]
    for ws in lean:
        ws.mirror.check = True  # a snapshot of the version held must be the view patched so far
    plain = [_client(c, f"plain{i}") for i in range(2)]
    owner = lean[0]
    code = new_room(owner, max_hands=1, turn_seconds=300, claim_seconds=120)
    owner.send(type="sit", seat=0)
    room_state(owner, lambda r: r["seats"][0]["player_id"] is not None)
    for i, ws in enumerate([lean[1], *plain], 1):
        ws.send(type="join", room=code)
        ws.until("joined")
        ws.send(type="sit", seat=i)
        room_state(ws, lambda r, i=i: r["seats"][i]["player_id"] is not None)
        ws.send(type="ready")
        room_state(ws, lambda r, i=i: r["seats"][i]["ready"])
    # a spectator that asks too, from the lobby on
    watcher = _client(c, "watcher", room_patch=True)
    watcher.send(type="join", room=code, spectate=True)
    watcher.until("joined")
    since = {id(ws): len(ws.raw) for ws in [*lean, *plain, watcher]}
    owner.send(type="start")
    everyone = [*lean, *plain, watcher]
    for ws in [*lean, *plain]:
        game_frame(ws, lambda m: m["type"] == "snapshot")
    _barrier(*everyone)

    def agree() -> dict[str, Any]:
        whole = plain[0].mirror.room
        assert whole is not None and whole["status"] != "lobby"
        for ws in everyone:
            assert ws.mirror.room is not None
            assert canonical(ws.mirror.room) == canonical(whole), diff(ws.mirror.room, whole)
        return whole

    agree()
    # a lean connection's snapshot leaves out the rules it holds in the room; a plain one's has them
    for ws in everyone:
        snap = next(json.loads(t) for t in ws.raw if t.startswith('{"type":"snapshot"'))
        assert ("rules" in snap["view"]) == (ws in plain), ws
        if ws in plain:
            assert snap["view"]["rules"] == ws.mirror.room["rules"]
    # the lean connections got patches, the plain ones the room whole: a fraction of the bytes
    for ws in [*lean, watcher]:
        texts = _room_texts(ws)
        assert texts and all('"p":' in t and '"room":' not in t for t in texts)
    for ws in plain:
        assert all('"room":{' in t for t in _room_texts(ws))
    # ... the start's: one room each (the status, the match), a tenth of the bytes
    started = {id(ws): [t for t in ws.raw[since[id(ws)]:] if t.startswith('{"type":"room"')]
               for ws in [lean[1], plain[0]]}
    assert started[id(lean[1])] and started[id(plain[0])]
    lean_bytes = sum(len(t.encode()) for t in started[id(lean[1])])
    plain_bytes = sum(len(t.encode()) for t in started[id(plain[0])])
    assert 10 * lean_bytes < plain_bytes, (lean_bytes, plain_bytes)

    # a player leaves mid-match (an escape: a bot takes the seat): a change the patch carries
    plain[1].send(type="leave")
    plain[1].until(lambda m: m["type"] == "left")
    _barrier(*lean, plain[0], watcher)
    everyone.remove(plain[1])
    room = agree()
    assert room["seats"][3]["connected"] is False

    # a resync gives the room whole again, and the patches after it follow that
    n = len(lean[1].raw)
    lean[1].send(type="resync")
    game_frame(lean[1], lambda m: m["type"] == "snapshot", timeout=30)
    assert any(t.startswith('{"type":"room","room":{') for t in lean[1].raw[n:])
    assert lean[1].mirror.checked >= 1
    lean[1].send(type="auto", on=True)  # 托管: the seat's plate says so
    _barrier(lean[1])  # (its command done, then everyone's frames taken)
    _barrier(*everyone)
    assert agree()["seats"][1]["auto"] is True

    # the watcher goes to a room of its own: whole there (its joined), patches after
    watcher.send(type="leave")
    watcher.until(lambda m: m["type"] == "left")
    other = new_room(watcher, max_hands=1)
    assert other != code and watcher.mirror.room is not None and watcher.mirror.room["code"] == other
    watcher.send(type="sit", seat=2)
    seated = room_state(watcher, lambda r: r["seats"][2]["player_id"] is not None)
    assert seated["code"] == other and json.loads(_room_texts(watcher)[-1]).get("p")
