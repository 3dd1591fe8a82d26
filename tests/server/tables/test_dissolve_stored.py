"""解散, stored and shown right: an open proposal (one player agreed) survives a SIGKILL of
the server — after the restart the player who comes back is shown the proposal again and
the other's agreement ends the match — and the settlement says 解散, not 荒庄, to a client
that reconnects afterwards and in the stored replay (the frame's ``drawn`` and
``match_end``: ``dissolved``). Real ``laizi serve`` subprocesses, real WebSockets, SQLite."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from support.socialkit import call, register
from support.srvhelpers import Client, LiveServer, eventually, seated_room, step

pytestmark = [pytest.mark.slow, pytest.mark.timeout(240)]


def _mid_hand(clients: list[Client], moves: int) -> None:
    """Play until at least ``moves`` frames went by, stopping in the middle of a hand."""
    end = time.monotonic() + 60
    c = clients[0]
    while (c.last or {}).get("v", 0) < moves or (c.last or {}).get("view", {}).get("phase") == "over":
        assert time.monotonic() < end, "the hand did not get going"
        step(clients)
    for x in clients:
        x.drain()


def test_dissolve_vote_survives_a_kill_and_the_settlement_says_dissolved(tmp_path: Path) -> None:
    srv = LiveServer(str(tmp_path / "dissolve.db"), tmp_path, bot_delay=0.0, hand_pause=0.0,
                     disconnect_grace=120.0).start()
    try:
        ta, _ = register(srv, "amei")
        tb, _ = register(srv, "bobo")
        (a, b), code = seated_room(srv.port, 2, tokens=[ta, tb])
        _mid_hand([a, b], 6)
        a.send({"type": "dissolve"})
        m = b.until("dissolve")
        assert m == {"type": "dissolve", "agreed": [0], "waiting": [1], "done": False}
        mid = int(b.last["match_id"])  # type: ignore[index]
        srv.kill()
        a.close()
        b.close()
        srv.start()
        b = Client(srv.port, token=tb)
        b.send({"type": "join", "room": code})
        b.until("snapshot", 20)
        m = b.until("dissolve", 10)  # the open proposal, shown again to who comes back
        assert m == {"type": "dissolve", "agreed": [0], "waiting": [1], "done": False}
        assert not b.last["view"]["match_over"]  # type: ignore[index]
        b.send({"type": "dissolve"})  # the last agreement needed: amei's was kept
        m = b.until(lambda m: m["type"] == "dissolve" and m["done"], 20)
        assert m["agreed"] == [0, 1]
        view = b.last["view"]  # type: ignore[index]
        assert view["match_over"] and view["match_end"] == "dissolved"
        assert view["phase"] == "over" and view["result"] is None and view["drawn"] == "dissolved"
        assert view["payments"] == [0, 0, 0, 0] or view["payments"] == [0.0] * 4
        b.close()
        # a client coming back after the end: its snapshot says 解散 too
        a = Client(srv.port, token=ta)
        snap = a.request({"type": "join", "room": code}, "snapshot", 20)
        assert snap["type"] == "snapshot", snap
        assert snap["view"]["drawn"] == "dissolved" and snap["view"]["match_end"] == "dissolved"
        a.close()
        # and the stored replay: its last hand's last frame
        body = eventually(lambda: (lambda r: r[1] if r[0] == 200 else None)(
            srv.get(f"/api/matches/{mid}/replay")), 30, "the replay")
        last = body["hands"][-1]["frames"][-1]
        assert last["phase"] == "over" and last["drawn"] == "dissolved", last
        st, _ = call(srv, "GET", f"/api/rooms/{code}", ta)
        assert st == 200
    finally:
        srv.stop()


def test_a_drawn_hand_is_exhausted_not_dissolved() -> None:
    """The other side: a wall played out is 荒庄 (``drawn``: ``exhausted``), never 解散."""
    import random

    from laizi.game import Match
    from laizi.rules import RuleSet
    from laizi.server.tables.frames import public_part
    from laizi.views import match_view

    for seed in range(40):
        rng = random.Random(seed)
        m = Match(RuleSet.preset("kaikoufan"), seed=bytes([seed]) * 32, auto_next=False)
        while not m.hand_over:
            s = m.to_act()[0]
            legal = [x for x in m.legal_actions(s) if x.type not in ("tsumo", "ron")]
            m.apply(s, rng.choice(legal or m.legal_actions(s)))
        hand = m.hand
        assert hand is not None
        if hand.result is None:
            out = public_part(match_view(m, None), {})
            assert out["drawn"] == "exhausted" and "match_end" not in out
            m.dissolve()  # between hands: the match ends, the hand stays 荒庄
            out = public_part(match_view(m, None), {})
            assert out["drawn"] == "exhausted" and out["match_end"] == "dissolved"
            return
    raise AssertionError("no drawn hand in 40 seeds")
