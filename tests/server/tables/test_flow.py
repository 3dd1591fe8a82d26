"""The match flow against a real ``laizi serve`` (uvicorn in a subprocess, real WebSockets):
ready-up before the start, the settlement that waits for 继续 (or its countdown), the
rematch, timer lapses (托管 only after repeated ones), public countdowns, and a restart in
the middle of a settlement."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest

from support.flowsteps import play, room_with, settling, view
from support.srvhelpers import Client, LiveServer
from support.tableopen import assert_table_open

pytestmark = [pytest.mark.timeout(180), pytest.mark.slow]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    tmp = tmp_path_factory.mktemp("flow")
    srv = LiveServer(str(tmp / "flow.db"), tmp, bot_delay=0.0, hand_pause=0.0,
                     disconnect_grace=60.0).start()
    yield srv
    srv.stop()


@pytest.fixture
def opened() -> Iterator[list[Client]]:
    out: list[Client] = []
    yield out
    for c in out:
        c.close()


# ----------------------------------------------------------------- ready-up
def test_start_needs_every_seated_human_ready_and_standing_clears_it(server: LiveServer,
                                                                     opened: list[Client]) -> None:
    (host, guest), _ = room_with(server, opened, 2, start=False)
    err = host.request({"type": "start"}, "never")
    assert err["code"] == "not_ready" and "seat 1" in err["message"]
    guest.send({"type": "ready"})
    room = guest.until(lambda m: m["type"] == "room" and m["room"]["seats"][1]["ready"])["room"]
    assert room["seats"][1]["ready"] and room["seats"][2]["ready"]  # bots are always ready
    assert not room["seats"][0]["ready"]  # the host's start will count as its ready
    guest.send({"type": "stand"})
    guest.until(lambda m: m["type"] == "room" and m["room"]["seats"][1]["player_id"] is None)
    guest.send({"type": "sit", "seat": 1})
    room = guest.until(lambda m: m["type"] == "room" and m["room"]["seats"][1]["player_id"])["room"]
    assert room["seats"][1]["ready"] is False  # standing up (or leaving) clears 准备
    assert host.request({"type": "start"}, "never")["code"] == "not_ready"
    guest.send({"type": "ready"})
    host.until(lambda m: m["type"] == "room" and m["room"]["seats"][1]["ready"])
    host.send({"type": "start"})
    assert guest.until("snapshot")["seat"] == 1
    # ready is a lobby command
    assert guest.request({"type": "ready"}, "never")["code"] == "match_started"


# ----------------------------------------------------------------- settlement
def test_settlement_waits_for_every_human_to_continue(server: LiveServer, opened: list[Client]) -> None:
    cs, _ = room_with(server, opened, 2, max_hands=2, continue_seconds=120)
    a, b = cs
    play(cs, lambda: settling(a) and settling(b))
    settle = a.last["settle"]  # type: ignore[index]
    assert settle["waiting"] == [0, 1] and settle["continued"] == []
    assert 100 < settle["left"] <= 120
    time.sleep(1.0)
    a.drain()
    assert view(a)["hand_no"] == 1 and settling(a)  # nothing dealt meanwhile
    a.send({"type": "continue"})
    msg = b.until("settle")
    assert msg["continued"] == [0] and msg["waiting"] == [0, 1]
    b.send({"type": "continue"})
    nxt = a.until(lambda m: m["type"] == "update" and m["view"]["hand_no"] == 2)
    assert nxt["view"]["phase"] != "over" and "settle" not in nxt
    # 继续 outside a settlement is refused
    assert a.request({"type": "continue"}, "never")["code"] == "not_between_hands"


def test_settlement_countdown_deals_by_itself(server: LiveServer, opened: list[Client]) -> None:
    cs, _ = room_with(server, opened, 1, max_hands=2, continue_seconds=3)
    (a,) = cs
    play(cs, lambda: settling(a))
    t0 = time.monotonic()
    a.until(lambda m: m["type"] == "update" and m["view"]["hand_no"] == 2, timeout=12)
    # Measured from when the test saw the settlement, some time after the countdown began: not
    # dealt at once (the 3 s leave a busy machine 2 s to show the settlement), and well before
    # the default 15 s countdown.
    assert 1.0 < time.monotonic() - t0 < 12


@pytest.mark.parametrize("bad", [-1, 301, "x"])
def test_continue_seconds_is_range_checked(server: LiveServer, opened: list[Client], bad: Any) -> None:
    c = Client(server.port, "bad")
    opened.append(c)
    err = c.request({"type": "create", "settings": {"continue_seconds": bad}}, "joined")
    assert err["type"] == "error" and "continue_seconds" in err["message"]
    err = c.request({"type": "create", "settings": {"auto_after_lapses": 0}}, "joined")
    assert err["type"] == "error" and "auto_after_lapses" in err["message"]


# ----------------------------------------------------------------- rematch
def test_rematch_when_every_human_accepts(server: LiveServer, opened: list[Client]) -> None:
    cs, code = room_with(server, opened, 2, max_hands=1)
    a, b = cs
    first = assert_table_open(server.db_url, code)  # the host's start took every step
    play(cs, lambda: bool(a.last and view(a).get("match_over")) and bool(b.last and view(b).get("match_over")))
    assert a.last["match_id"] == first  # type: ignore[index]
    assert a.last["rematch"] == []  # type: ignore[index]
    assert b.request({"type": "rematch", "force": True}, "never")["code"] == "not_host"
    a.send({"type": "rematch"})
    assert b.until("rematch")["accepted"] == [0]
    b.send({"type": "rematch"})
    snap = a.until("snapshot")
    assert snap["match_id"] != first and snap["view"]["hand_no"] == 1 and not snap["view"]["match_over"]
    assert b.until("snapshot")["seat"] == 1
    room = a.request({"type": "resync"}, "room")["room"]
    assert room["status"] == "playing" and room["match_id"] == snap["match_id"]
    assert [s["player_id"] for s in room["seats"][:2]] == [a.pid, b.pid]
    assert_table_open(server.db_url, code, match_id=snap["match_id"])  # and so did 再来一局


def test_host_restarts_without_waiting(server: LiveServer, opened: list[Client]) -> None:
    cs, _ = room_with(server, opened, 2, max_hands=1)
    a, b = cs
    play(cs, lambda: bool(a.last and view(a).get("match_over")) and bool(b.last and view(b).get("match_over")))
    first = a.last["match_id"]  # type: ignore[index]
    a.send({"type": "rematch", "force": True})
    assert b.until("snapshot")["match_id"] != first


# ----------------------------------------------------------------- timers and 托管
def test_one_lapse_plays_one_move_repeated_lapses_switch_to_auto(server: LiveServer,
                                                                 opened: list[Client]) -> None:
    cs, code = room_with(server, opened, 1, start=False, turn_seconds=1.0, claim_seconds=1.0,
                         auto_after_lapses=2)
    (a,) = cs
    # The watcher is in before the start: joining after it, a busy machine could take longer
    # than the dealer's 1 s, and the snapshot then showed a later turn's timer.
    spec = Client(server.port, "watcher")
    opened.append(spec)
    spec.request({"type": "join", "room": code, "spectate": True}, "joined")
    a.send({"type": "ready"})
    a.until(lambda m: m["type"] == "room" and m["room"]["seats"][0]["ready"])
    a.send({"type": "start"})
    snap = spec.until("snapshot")
    # The dealer's (seat 0) deadline is public: everyone sees whose turn it is and the time left.
    assert snap["timer"]["seat"] == 0 and 0 < snap["timer"]["left"] <= 1.0
    # Seat 0 lets its timer lapse: the bot plays that one move, no 托管 yet.
    moves = ("discard", "special_kong", "laizi_kong", "kong", "ankong", "addkong", "tsumo")
    first = a.until(lambda m: m["type"] == "update" and any(
        e["type"] in moves and e.get("seat") == 0 for e in m["events"]), timeout=10)
    assert not any(e["type"] == "auto" for e in first["events"]), first["events"]
    assert first["view"]["auto"][0] is False
    # It lapses again on its next decision: now 托管.
    on = a.until(lambda m: m["type"] == "update" and any(
        e["type"] == "auto" and e["on"] and e["seat"] == 0 for e in m["events"]), timeout=60)
    assert on["view"]["auto"][0] is True
    # One tap ends it; its next lapse only plays one move again.
    a.send({"type": "auto", "on": False})
    off = a.until(lambda m: m["type"] == "update" and any(
        e["type"] == "auto" and not e["on"] for e in m["events"]))
    assert off["view"]["auto"][0] is False


def test_claim_window_countdown_does_not_say_who_may_claim(server: LiveServer, opened: list[Client]) -> None:
    cs, code = room_with(server, opened, 2, max_hands=1, seed="flow-claims")
    spec = Client(server.port, "eye")
    opened.append(spec)
    spec.request({"type": "join", "room": code, "spectate": True}, "snapshot")
    seen: list[dict[str, Any]] = []

    def collect() -> bool:
        for c in (*cs, spec):
            for m in c.frames:
                if m["type"] in ("update", "snapshot") and m["view"].get("phase") in ("claim", "rob"):
                    seen.append(m)
            c.frames.clear()
        return len(seen) >= 3 or bool(cs[0].last and view(cs[0]).get("match_over"))

    play(cs, lambda: collect())
    spec.drain()
    collect()
    assert seen, "no claim window in this match"
    for m in seen:
        assert m["timer"]["seat"] is None and m["timer"]["left"] > 0
        assert set(m["timer"]) == {"seat", "left"}


# ----------------------------------------------------------------- restart
def test_restart_in_the_middle_of_a_settlement(tmp_path_factory: pytest.TempPathFactory) -> None:
    tmp = tmp_path_factory.mktemp("flowrestart")
    srv = LiveServer(str(tmp / "r.db"), tmp, bot_delay=0.0, hand_pause=0.0, disconnect_grace=60.0).start()
    opened: list[Client] = []
    try:
        cs, code = room_with(srv, opened, 2, max_hands=2, continue_seconds=60, seed="flow-restart")
        a, b = cs
        play(cs, lambda: settling(a) and settling(b))
        a.send({"type": "continue"})
        b.until("settle")
        tokens = [a.token, b.token]
        srv.kill()
        for c in opened:
            c.close()
        srv.start()
        again = [Client(srv.port, token=t) for t in tokens]
        opened.extend(again)
        for c in again:
            snap = c.request({"type": "join", "room": code}, "snapshot")
            assert snap["view"]["phase"] == "over" and snap["view"]["hand_no"] == 1
            assert snap["settle"]["waiting"] == [0, 1] and snap["settle"]["left"] > 30
        time.sleep(0.5)
        again[0].drain()
        assert view(again[0])["hand_no"] == 1  # still waiting for 继续
        for c in again:
            c.send({"type": "continue"})
        nxt = again[1].until(lambda m: m["type"] == "update" and m["view"]["hand_no"] == 2)
        assert nxt["view"]["phase"] != "over"
    finally:
        for c in opened:
            c.close()
        srv.stop()


def test_rematch_does_not_wait_for_a_player_who_left(server: LiveServer, opened: list[Client]) -> None:
    cs, code = room_with(server, opened, 2, max_hands=1)
    a, b = cs
    play(cs, lambda: bool(a.last and view(a).get("match_over")) and bool(b.last and view(b).get("match_over")))
    first = a.last["match_id"]  # type: ignore[index]
    b.request({"type": "leave"}, "left")
    a.send({"type": "rematch"})
    snap = a.until("snapshot")
    assert snap["match_id"] != first
    room = a.request({"type": "resync"}, "room")["room"]
    assert room["seats"][1]["bot"] and room["seats"][1]["player_id"] is None  # a bot took the seat
