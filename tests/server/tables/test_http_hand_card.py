"""The big-hand card's data (``GET /api/matches/{id}/hands/{n}/card``, laizi.server.tables.review)
against a real ``laizi serve``: every won hand of a finished bot match has a card (the winner's
tiles and melds, its 番, the payments — which add up to the match's totals with the draws),
and the refusals: an unknown match or hand, a hand not over yet, a hand not won."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from typing import Any

import pytest

from laizi.server.common.protocol import PROTOCOL
from support.srvhelpers import LiveServer, tracebacks, viewed

websockets_sync = pytest.importorskip("websockets.sync.client")

pytestmark = [pytest.mark.timeout(300)]

HANDS = 6


def send(ws: Any, **msg: Any) -> None:
    ws.send(json.dumps(msg))


def until(ws: Any, pred: Any, timeout: float = 60) -> dict[str, Any]:
    deadline = time.time() + timeout
    while True:
        m = viewed(ws, json.loads(ws.recv(timeout=max(0.01, deadline - time.time()))))
        if m.get("type") == "error" and m.get("code") not in ("stale_version",):
            raise AssertionError(m)
        if pred(m):
            return m


@pytest.fixture(scope="module")
def srv(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[LiveServer, int]]:
    s = LiveServer.plain(tmp_path_factory.mktemp("handcard"),
                         args=["--bot-delay", "0", "--hand-pause", "0"]).start()
    try:
        with websockets_sync.connect(s.ws_url, max_size=2**24) as ws:  # a finished match of four bots
            send(ws, type="hello", proto=PROTOCOL, nickname="cards")
            until(ws, lambda m: m["type"] == "welcome")
            send(ws, type="create", settings={"max_hands": HANDS, "rounds": 4})
            until(ws, lambda m: m["type"] == "joined")
            for i in range(4):
                send(ws, type="bot", seat=i, level="strong")
            send(ws, type="start")
            room = until(ws, lambda m: m["type"] == "room" and m["room"]["status"] == "finished", 180)
            yield s, int(room["room"]["match_id"])
    finally:
        s.stop()
        assert tracebacks(s.log_text()) == 0, s.log_text()[-4000:]


def get(s: LiveServer, path: str) -> tuple[int, dict[str, Any]]:
    status, _, body = s.request("GET", path)
    return status, json.loads(body)


def test_every_won_hand_has_its_card(srv: tuple[LiveServer, int]) -> None:
    s, mid = srv
    st, match = get(s, f"/api/matches/{mid}/card")
    assert st == 200
    totals = [0.0] * 4
    won = 0
    for n in range(1, HANDS + 1):
        st, card = get(s, f"/api/matches/{mid}/hands/{n}/card")
        if st == 409:
            assert "not won" in card["error"], card  # a draw: no card, no payments
            continue
        assert st == 200, card
        won += 1
        w = card["winner"]
        assert card["match_id"] == mid and card["hand"] == n and 0 <= w <= 3
        assert card["seats"] == match["seats"] and card["rule_card"] == match["rule_card"]
        assert card["by"] in ("self_draw", "discard", "rob_kong") and card["tile"] in card["tiles"]
        # a complete hand: 3k+2 tiles with the melds (a kong counts as three)
        assert len(card["tiles"]) + 3 * len(card["melds"]) == 14, card
        assert all(len(m["tiles"]) in (3, 4) for m in card["melds"])
        sc = card["score"]
        assert isinstance(sc["winner_fan"], int) and sc["breakdown"] and isinstance(sc["big_hands"], list)
        pay = card["payments"]
        assert abs(sum(pay)) < 1e-6 and pay[w] > 0 and max(pay) == pay[w]
        totals = [a + b for a, b in zip(totals, pay, strict=True)]
        assert get(s, f"/api/matches/{mid}/hands/{n}/card") == (200, card)  # kept: the same
    assert won >= 1, "no hand of the match was won"
    # the cards' payments are the match's (draws pay nothing): the totals on the result card
    assert [round(x, 1) for x in totals] == [round(x, 1) for x in match["scores"]]
    st, card = get(s, f"/api/matches/{mid}/hands/{HANDS + 1}/card")
    assert st == 404 and "no hand" in card["error"] and card["code"] == "unknown_hand"
    st, card = get(s, f"/api/matches/{mid}/hands/1/card?origin=https://laizi.example")
    if st == 200:
        assert card["qr"]["link"] == f"https://laizi.example/replay/{mid}?hand=1&card=hand"


def test_the_refusals(srv: tuple[LiveServer, int]) -> None:
    s, mid = srv
    st, card = get(s, "/api/matches/999999/hands/1/card")
    assert st == 404 and card["error"] == "unknown match"
    for bad in ("0", "x", "10001"):
        assert get(s, f"/api/matches/{mid}/hands/{bad}/card")[0] == 400, bad
    assert get(s, f"/api/matches/{mid}/hands/1/card?origin=ftp://x")[0] in (400, 409)
    with websockets_sync.connect(s.ws_url, max_size=2**24) as ws:  # a person who does not act
        send(ws, type="hello", proto=PROTOCOL, nickname="stuck")
        until(ws, lambda m: m["type"] == "welcome")
        send(ws, type="create", settings={"max_hands": 2, "rounds": 4})
        until(ws, lambda m: m["type"] == "joined")
        send(ws, type="sit", seat=0)
        for i in (1, 2, 3):
            send(ws, type="bot", seat=i, level="random")
        send(ws, type="start")
        room = until(ws, lambda m: m["type"] == "room" and m["room"].get("match_id"))
        playing = int(room["room"]["match_id"])
        deadline = time.time() + 30
        while True:  # its first hand waits for seat 0: not over
            st, card = get(s, f"/api/matches/{playing}/hands/1/card")
            if st == 409 or time.time() > deadline:
                break
            time.sleep(0.2)  # the match's row not written yet
        assert st == 409 and "not over yet" in card["error"] and card["code"] == "hand_not_over", card
        st, card = get(s, f"/api/matches/{playing}/hands/2/card")
        assert st == 409 and "not over yet" in card["error"] and card["code"] == "hand_not_over", card
        st, card = get(s, f"/api/matches/{playing}/card")  # the match's 战绩 card: not yet either
        assert st == 409 and card["code"] == "match_in_play", card
        send(ws, type="dissolve")  # 解散: the hand ends as a draw, the match is over
        until(ws, lambda m: m["type"] == "dissolve" and m.get("done"))
    deadline = time.time() + 30
    while True:
        st, card = get(s, f"/api/matches/{playing}/hands/1/card")
        if "not won" in card.get("error", "") or time.time() > deadline:
            break
        time.sleep(0.2)
    assert st == 409 and "not won" in card["error"] and card["code"] == "hand_not_won", card
    st, card = get(s, f"/api/matches/{playing}/hands/2/card")
    assert st == 404 and card["code"] == "unknown_hand", card
