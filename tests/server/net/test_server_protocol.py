"""The WebSocket protocol (Starlette TestClient): join, play, resync, duplicates, stale and
out-of-turn actions, malformed frames, chat limits, 托管, escape."""

from __future__ import annotations

import json
import time
from typing import Any

import pytest

from laizi.server.common.protocol import PROTOCOL
from support.srvhelpers import OPEN, WS, connect, four_players, game_frame, new_room, room_state

pytestmark = pytest.mark.timeout(120)


def latest_view(ws: WS) -> dict[str, Any]:
    for m in reversed(ws.frames):
        if m["type"] in ("update", "snapshot"):
            return m
    raise AssertionError("no game frame")


def drain(ws: WS, wait: float = 0.05) -> None:
    try:
        while True:
            ws.recv(wait)
    except TimeoutError:
        pass


def choose(legal: list[dict[str, Any]]) -> dict[str, Any]:
    for a in legal:
        if a["type"] in ("tsumo", "ron"):
            return a
    for a in legal:
        if a["type"] == "pass":
            return a
    discards = [a for a in legal if a["type"] == "discard"]
    return discards[-1] if discards else legal[0]


def play_until(wss: list[WS], done: Any, max_steps: int = 2000) -> None:
    for _ in range(max_steps):
        for ws in wss:
            drain(ws, 0.01)
        if done():
            return
        for ws in wss:
            m = latest_view(ws)
            legal = m["view"].get("legal") or []
            if legal and getattr(ws, "acted_v", None) != m["v"]:
                ws.acted_v = m["v"]  # type: ignore[attr-defined]
                ws.act(choose(legal), version=m["v"])
    raise AssertionError("game did not finish")


# ----------------------------------------------------------------- identity
def test_guest_token_names_the_same_player_across_connections(client: Any) -> None:
    ws, _ = connect(client, "阿明")
    welcome = next(f for f in ws.frames if f["type"] == "welcome")
    assert welcome["nickname"] == "阿明"
    ws2, _ = connect(client, None, token=welcome["token"])
    again = next(f for f in ws2.frames if f["type"] == "welcome")
    assert again["player_id"] == welcome["player_id"]
    assert again["nickname"] == "阿明"
    ws3, _ = connect(client, "x", token=welcome["token"] + "forged")
    assert next(f for f in ws3.frames if f["type"] == "welcome")["player_id"] != welcome["player_id"]


def test_a_remembered_name_does_not_undo_a_rename(client: Any) -> None:
    """Two devices of one player: one renames (``rename``), the other comes back later with
    the name it remembered. The rename stands (the other device renamed the player back)."""
    ws, _ = connect(client, "老王")
    welcome = next(f for f in ws.frames if f["type"] == "welcome")
    laptop, _ = connect(client, None, token=welcome["token"])
    laptop.send(type="hello", proto=PROTOCOL, token=welcome["token"], nickname="阿明", rename=True)
    renamed = laptop.until(lambda f: f["type"] == "welcome" and f["nickname"] == "阿明")
    assert renamed["player_id"] == welcome["player_id"]
    phone, _ = connect(client, "老王", token=welcome["token"])  # the phone's remembered name
    back = next(f for f in phone.frames if f["type"] == "welcome")
    assert back["player_id"] == welcome["player_id"] and back["nickname"] == "阿明"
    # a new guest (no token) is named as it asks, without rename
    guest, _ = connect(client, "小李")
    assert next(f for f in guest.frames if f["type"] == "welcome")["nickname"] == "小李"


def test_http_guest_and_calculator(client: Any) -> None:
    r = client.post("/api/guest", json={"nickname": "bob"})
    assert r.status_code == 200 and r.json()["nickname"] == "bob"
    assert client.post("/api/guest", json={"nickname": "x" * 40}).status_code == 400
    assert client.post("/api/score", content=b"{not json").status_code == 400
    bad = client.post("/api/score", json={"laizi": "6m"})
    assert bad.status_code == 400 and "dealer" in bad.json()["error"]
    assert client.get("/").status_code == 200
    assert client.get("/calc").status_code == 200
    assert client.get("/static/app.js").status_code == 200
    assert "kaikoufan" in client.get("/api/presets").json()["presets"]


# ----------------------------------------------------------------- bad input
def test_malformed_frames_get_clear_errors_and_the_socket_survives(client: Any) -> None:
    ws, _ = connect(client)
    cases = [
        ("not json", "bad_json"),
        ("[1, 2]", "bad_frame"),
        ('{"no_type": 1}', "bad_frame"),
        ('{"type": "fly"}', "unknown_type"),
        ('{"type": "sit", "seat": 9}', "bad_message"),
        ('{"type": "action", "seq": "x", "action": {}}', "bad_message"),
        ('{"type": "join", "room": "ABCDE", "extra": 1}', "bad_message"),
        (json.dumps({"type": "chat", "text": "x" * 9000}), "frame_too_large"),
    ]
    for text, code in cases:
        ws.send_raw(text)
        err = ws.error()
        assert err["code"] == code, (text, err)
        assert err["message"]
    ws.s.send_bytes(b"\xff\xfe")
    assert ws.error()["code"] == "bad_frame"
    ws.send(type="ping", t=1.5)
    assert ws.until("pong")["t"] == 1.5


def test_hello_first_and_unknown_room(client: Any) -> None:
    cm = client.websocket_connect("/ws")
    ws = WS(cm.__enter__())
    OPEN.append(cm)
    ws.send(type="join", room="ZZZZZ")
    assert ws.error()["code"] == "hello_first"
    ws.send(type="hello", proto=PROTOCOL, nickname="n")
    ws.until("welcome")
    ws.send(type="join", room="nope!")
    err = ws.error()
    assert err["code"] == "unknown_room" and "NOPE!" in err["message"]
    ws.send(type="action", seq=1, action={"type": "pass"})
    assert ws.error()["code"] == "no_room"


def test_errors_stay_with_their_client_and_room(client: Any) -> None:
    a, _ = connect(client, "a")
    b, _ = connect(client, "b")
    code_a = new_room(a)
    new_room(b)
    c, _ = connect(client, "c")
    c.send(type="join", room=code_a)
    c.until("joined")
    drain(a)
    drain(b)
    c.send_raw("garbage")
    c.send(type="sit", seat=7)
    c.send(type="start")
    assert c.error()["code"] == "bad_json"
    a.send(type="ping")
    b.send(type="ping")
    assert a.recv()["type"] == "pong"
    assert b.recv()["type"] == "pong"


# ----------------------------------------------------------------- lobby
def test_lobby_seats_bots_and_start_rules(client: Any) -> None:
    ws, _ = connect(client)
    new_room(ws, preset="qipisilai", options={"min_points": 64}, rounds=2)
    ws.send(type="start")
    assert ws.error()["code"] == "seats_empty"
    ws.send(type="bot", seat=1, level="nope")
    assert ws.error()["code"] == "bad_bot"
    ws.send(type="sit", seat=0)
    ws.send(type="bot", seat=0, level="random")
    assert ws.error()["code"] == "seat_taken"
    for s in (1, 2, 3):
        ws.send(type="bot", seat=s, level="random")
    room = room_state(ws, lambda r: all(x["bot"] for x in r["seats"][1:]))
    assert room["rules"]["min_points"] == 64 and room["rules"]["rounds"] == 2
    ws.send(type="create", settings={"preset": "nope"})
    assert ws.error()["code"] == "bad_settings"


# ----------------------------------------------------------------- play
def test_join_play_versions_out_of_turn_duplicate_stale(client: Any) -> None:
    wss, code = four_players(client)
    first = [latest_view(ws) for ws in wss]
    dealer = first[0]["view"]["dealer"]
    assert dealer == 0
    me = wss[0]
    v0 = first[0]["view"]
    assert len(v0["hand"]) == 14 and v0["legal"]
    # Out of turn: seat 1 may not act now.
    wss[1].act({"type": "discard", "tile": first[1]["view"]["hand"][0]})
    err = wss[1].error()
    assert err["code"] == "not_your_turn"
    # An action with a key it does not have (another seat's, say) is refused, not dropped.
    wss[1].act({"type": "discard", "tile": first[1]["view"]["hand"][0], "seat": 0})
    err = wss[1].error()
    assert err["code"] == "bad_action" and "'seat'" in err["message"], err
    # Illegal action for the right seat.
    me.act({"type": "peng", "tile": "1m"})
    assert me.error()["code"] in ("illegal_action", "bad_action")
    # A legal discard (seq continues: the rejected actions did not consume numbers).
    tile = [a for a in v0["legal"] if a["type"] == "discard"][0]
    seq = me.act(tile, version=first[0]["v"])
    ack = me.until("ack")
    assert ack["seq"] == seq and not ack.get("duplicate")
    for ws, before in zip(wss, first, strict=True):
        seen = [f for f in ws.frames if f["type"] == "update"]
        up = seen[0] if seen else game_frame(ws, lambda m: m["type"] == "update")
        # Versions: consecutive per seat, events numbered without gaps.
        assert up["events"][0]["v"] == before["v"] + 1
        assert [e["v"] for e in up["events"]] == list(range(before["v"] + 1, up["v"] + 1))
        assert any(e["type"] == "discard" and e["seat"] == 0 for e in up["events"])
    # Duplicate: the same sequence number again is acknowledged, not re-applied.
    v_after = latest_view(me)["v"]
    me.act(tile, seq=seq)
    dup = me.until("ack")
    assert dup["duplicate"] is True and dup["v"] == v_after
    # Another action under that number (a second tab that counted from the same one) was never
    # applied: refused, not acknowledged as a duplicate.
    other = next(a for a in v0["legal"] if a["type"] == "discard" and a != tile)
    me.act(other, seq=seq)
    err = me.error()
    assert err["code"] == "stale_seq" and f"last applied {seq}" in err["message"], err
    # Stale: an older sequence number is refused.
    me.act(tile, seq=seq - 1) if seq > 1 else me.act(tile, seq=seq)
    if seq > 1:
        assert me.error()["code"] == "stale_seq"
    # Stale version: an action built on an old table is refused and a snapshot follows.
    drain(me)
    cur = latest_view(me)
    me.act({"type": "pass"}, version=cur["v"] - 1)
    assert me.error()["code"] == "stale_version"
    snap = game_frame(me, lambda m: m["type"] == "snapshot")
    assert snap["v"] == cur["v"]


def test_resync_and_reconnect_resume_the_same_seat(client: Any) -> None:
    wss, code = four_players(client)
    play_until(wss, lambda: latest_view(wss[0])["v"] >= 12, 200)
    drain(wss[2])
    cur = latest_view(wss[2])
    wss[2].send(type="resync")
    snap = game_frame(wss[2], lambda m: m["type"] == "snapshot")
    assert snap["v"] == cur["v"] and snap["view"]["hand"] == cur["view"]["hand"]
    # Reconnect seat 2 on a new socket with its token.
    token = next(f for f in wss[2].frames if f["type"] == "welcome")["token"]
    wss[2].s.close()
    ws, _ = connect(client, None, token=token)
    ws.send(type="join", room=code)
    joined = ws.until("joined")
    assert joined["seat"] == 2
    snap2 = game_frame(ws, lambda m: m["type"] == "snapshot")
    assert snap2["seat"] == 2 and snap2["v"] == cur["v"]
    assert snap2["view"]["hand"] == cur["view"]["hand"]
    ws.seq = snap2["last_seq"]
    wss[2] = ws
    play_until(wss, lambda: latest_view(wss[0])["view"].get("match_over"), 3000)
    final = latest_view(wss[0])["view"]
    assert sum(final["scores"]) == 0


def test_spectator_sees_no_concealed_tiles(client: Any) -> None:
    wss, code = four_players(client)
    spec, _ = connect(client, "watcher")
    spec.send(type="join", room=code, spectate=True)
    snap = game_frame(spec, lambda m: m["type"] == "snapshot")
    v = snap["view"]
    assert snap["seat"] is None and "hand" not in v and "legal" not in v
    assert all("hand" not in p for p in v["players"])
    spec.send(type="action", seq=1, action={"type": "pass"})
    assert spec.error()["code"] == "not_seated"


def test_chat_limits_and_quick_phrases(client: Any) -> None:
    a, _ = connect(client, "a")
    code = new_room(a)
    b, _ = connect(client, "b")
    b.send(type="join", room=code)
    b.until("joined")
    a.send(type="chat", text="x" * 141)
    assert a.error()["code"] == "chat_too_long"
    a.send(type="chat", text="   ")
    assert a.error()["code"] == "bad_chat"
    a.send(type="chat", phrase="nope")
    assert a.error()["code"] == "bad_phrase"
    a.send(type="chat", phrase="hello")
    assert b.until("chat")["text"] == "大家好"
    for i in range(4):
        a.send(type="chat", text=f"消息 {i}")
    got = [b.until("chat")["text"] for _ in range(4)]
    assert got == [f"消息 {i}" for i in range(4)]
    a.send(type="chat", text="one too many")
    err = a.error()
    assert err["code"] == "chat_rate" and "10 seconds" in err["message"]


def test_auto_play_timeout_and_escape(client: Any) -> None:
    wss, code = four_players(client, turn_seconds=0.5, claim_seconds=0.5)
    # Nobody acts: the dealer's timer lapses again and again (each lapse plays one move), so it
    # goes to 托管 (auto_after_lapses, 2 by default) and its bot plays.
    up = game_frame(wss[1], lambda m: any(e["type"] == "auto" and e["on"] and e["seat"] == 0
                                          for e in m.get("events", [])), timeout=20)
    assert up["view"]["auto"][0] is True
    # Seat 3 leaves for good: escape penalty, its bot takes the seat.
    wss[3].send(type="leave")
    wss[3].until("left")
    esc = game_frame(wss[1], lambda m: any(e["type"] == "escape" for e in m.get("events", [])))
    ev = next(e for e in esc["events"] if e["type"] == "escape")
    assert ev["seat"] == 3 and ev["penalty"] == 400
    assert esc["view"]["escaped"][3] is True
    # Everyone timed out or escaped: bots finish the hand (max_hands=1) and the match.
    game_frame(wss[1], lambda m: m["view"].get("match_over"), timeout=30)


def test_auto_toggle_and_acting_again_ends_it(client: Any) -> None:
    wss, code = four_players(client)
    me = wss[0]
    me.send(type="auto", on=True)
    up = game_frame(wss[1], lambda m: any(e["type"] == "auto" for e in m.get("events", [])))
    assert up["view"]["auto"][0] is True
    # The dealer's bot discards at once (bot_delay 0).
    game_frame(wss[1], lambda m: any(e["type"] == "discard" and e["seat"] == 0
                                     for e in m.get("events", [])))
    me.send(type="auto", on=False)
    off = game_frame(me, lambda m: any(e["type"] == "auto" and not e["on"] for e in m.get("events", [])))
    assert off["view"]["auto"][0] is False


def test_rooms_list_and_replay_after_match(client: Any) -> None:
    ws, _ = connect(client)
    code = new_room(ws, max_hands=1)
    for s in range(4):
        ws.send(type="bot", seat=s, level="random")
    room_state(ws, lambda r: all(x["bot"] for x in r["seats"]))
    ws.send(type="start")
    over = game_frame(ws, lambda m: m["view"].get("match_over"), timeout=60)
    mid = over["match_id"]
    assert any(r["code"] == code for r in client.get("/api/rooms").json()["rooms"])
    deadline = time.time() + 10
    while True:
        rp = client.get(f"/api/matches/{mid}/replay").json()
        if rp["hands"] or time.time() > deadline:
            break
        time.sleep(0.1)
    assert rp["status"] == "finished" and len(rp["hands"]) == 1
    frames = rp["hands"][0]["frames"]
    assert frames[0]["players"][0]["hand"]  # a finished hand's replay shows every hand
    assert client.get("/api/matches/99999/replay").status_code == 404


def test_the_seating_ceremony_moves_each_player_to_the_seat_it_drew(client: Any) -> None:
    """摸牌定东 (`seating_ceremony`): the player who sat down at place 0 moves to the seat the
    ceremony gave that place (the match's recorded seating), and plays from there."""
    from laizi.game.match import Match
    from laizi.rules import RuleSet
    from laizi.server.tables.engine import seed_from_text

    rules = RuleSet.preset("kaikoufan", seating_ceremony=True)
    text = next(s for s in (f"seat{i}" for i in range(100))
                if (m := Match(rules, seed=seed_from_text(s))).seating is not None
                and m.seating.seats[0] != 0)
    want = Match(rules, seed=seed_from_text(text)).seating
    assert want is not None
    ws, _ = connect(client, "东家")
    new_room(ws, options={"seating_ceremony": True}, seed=text)
    ws.send(type="sit", seat=0)
    for s in (1, 2, 3):
        ws.send(type="bot", seat=s, level="random")
    room_state(ws, lambda r: all(x["bot"] for x in r["seats"][1:]))
    ws.send(type="start")
    frame = game_frame(ws)
    assert frame["seat"] == want.seats[0], (frame["seat"], want)
    room = [m["room"] for m in ws.frames if m["type"] == "room" and m["room"]["status"] == "playing"][-1]
    assert room["seats"][want.seats[0]]["nickname"] == "东家"
    assert all(room["seats"][s]["bot"] for s in range(4) if s != want.seats[0])
    assert frame["view"]["dealer"] == want.east
