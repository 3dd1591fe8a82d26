"""继续 votes survive a restart: a player who pressed 继续 before a kill -9 need not press again
after the server comes back on the same database — the others' 继续 deals the next hand at once
— while a vote of an earlier hand does not count for the next settlement. Real ``laizi serve``
(uvicorn in a subprocess), real WebSockets; plus the pieces (Flow.restore, the seat's stored
vote) on their own."""

from __future__ import annotations

import time

import pytest

from laizi.server.tables.flow import Flow, vote_key
from laizi.server.tables.seats import Seat
from support.flowsteps import play, room_with, settling, view
from support.srvhelpers import Client, LiveServer


def test_seat_vote_is_stored_and_flow_restores_only_this_hand() -> None:
    seats = [Seat(player_id="a", continued=vote_key(7, 2)), Seat(player_id="b", continued=vote_key(7, 1)),
             Seat(bot="greedy"), Seat(player_id="c")]
    back = [Seat.from_json(s.to_json()) for s in seats]
    assert [s.continued for s in back] == ["7:2", "7:1", None, None]
    assert "continued" not in Seat(player_id="x").to_json()  # nothing new for a seat without a vote
    flow = Flow(continue_seconds=60.0, auto_after_lapses=2)
    flow.continued = {3}  # whatever was in memory before does not matter
    assert flow.restore(back, vote_key(7, 2), now=100.0, waiting=[0, 1, 3], pause=1.0) == {0}
    assert flow.next_hand_at == 160.0  # a full wait for the others
    assert not flow.settled(101.0, [0, 1, 3])
    flow.continued.update({1, 3})
    assert flow.settled(101.0, [0, 1, 3])
    assert Flow(60.0, 2).restore(back, vote_key(8, 2), 0.0, [0, 1], 1.0) == set()  # another match


@pytest.mark.slow
@pytest.mark.timeout(240)
def test_continue_vote_survives_kill_and_restart(tmp_path_factory: pytest.TempPathFactory) -> None:
    tmp = tmp_path_factory.mktemp("flowvotes")
    srv = LiveServer(str(tmp / "v.db"), tmp, bot_delay=0.0, hand_pause=0.0, disconnect_grace=60.0).start()
    opened: list[Client] = []
    try:
        cs, code = room_with(srv, opened, 2, max_hands=3, continue_seconds=120, seed="flow-votes")
        a, b = cs
        play(cs, lambda: settling(a) and settling(b))
        a.send({"type": "continue"})
        assert b.until("settle")["continued"] == [0]
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
            assert snap["settle"]["waiting"] == [0, 1]
            assert snap["settle"]["continued"] == [0]  # a's vote came back
            assert snap["settle"]["left"] > 60
        # only b presses: the next hand is dealt at once (a is not asked again)
        t0 = time.monotonic()
        again[1].send({"type": "continue"})
        nxt = again[0].until(lambda m: m["type"] == "update" and m["view"]["hand_no"] == 2, timeout=10)
        assert nxt["view"]["phase"] != "over" and time.monotonic() - t0 < 10
        # hand 2 ends; nobody presses; kill: the votes of hand 1 do not count for hand 2
        a2, b2 = again
        for c in again:
            c.seq = 100_000  # the server remembers the last seq of each player (across the restart)
        play(again, lambda: settling(a2) and settling(b2) and view(a2)["hand_no"] == 2)
        srv.kill()
        for c in opened:
            c.close()
        srv.start()
        third = [Client(srv.port, token=t) for t in tokens]
        opened.extend(third)
        snap = third[0].request({"type": "join", "room": code}, "snapshot")
        assert snap["view"]["hand_no"] == 2 and snap["view"]["phase"] == "over"
        assert snap["settle"]["continued"] == [] and snap["settle"]["waiting"] == [0, 1]
        third[0].send({"type": "continue"})
        time.sleep(0.5)
        third[0].drain()
        assert view(third[0])["hand_no"] == 2  # still waiting for b
    finally:
        for c in opened:
            c.close()
        srv.stop()


@pytest.mark.slow
@pytest.mark.timeout(240)
def test_rematch_vote_survives_kill_and_restart(tmp_path_factory: pytest.TempPathFactory) -> None:
    """A match just ended; a accepts 再来一局; the server is killed (-9) and restarted on the
    same database: the room is back (its match over), a's vote with it, and b's acceptance
    starts the next match — stored like any other (issue 27: 继续/再来一局 votes lost)."""
    from laizi.server.tables.audit import check_url

    tmp = tmp_path_factory.mktemp("rematchvotes")
    url = str(tmp / "r.db")
    srv = LiveServer(url, tmp, bot_delay=0.0, hand_pause=0.0, disconnect_grace=60.0).start()
    opened: list[Client] = []
    try:
        cs, code = room_with(srv, opened, 2, max_hands=1, seed="rematch-votes")
        a, b = cs
        play(cs, lambda: bool(a.last and view(a).get("match_over")) and bool(b.last and view(b).get("match_over")))
        first = a.last["match_id"]  # type: ignore[index]
        a.send({"type": "rematch"})
        assert b.until("rematch")["accepted"] == [0]
        tokens = [a.token, b.token]
        srv.kill()
        for c in opened:
            c.close()
        srv.start()
        again = [Client(srv.port, token=t) for t in tokens]
        opened.extend(again)
        snaps = [c.request({"type": "join", "room": code}, "snapshot") for c in again]
        for s in snaps:
            assert s["match_id"] == first and s["view"]["match_over"]
            assert s.get("rematch") == [0], s.get("rematch")  # a's vote came back
        again[1].send({"type": "rematch"})
        nxt = again[0].until(lambda m: m["type"] == "snapshot" and m["match_id"] != first, 20)
        assert nxt["view"]["hand_no"] == 1 and not nxt["view"]["match_over"]
    finally:
        for c in opened:
            c.close()
        srv.stop()
    assert check_url(url) == []
