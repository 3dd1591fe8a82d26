"""复盘 over HTTP (``GET /api/matches/{id}/review?seat=N``, laizi.server.tables.review) against a real
``laizi serve``: a finished match's review (built in the worker, polled while it is built,
then cached), 409 while the match is in play, the replay's gates, and the per-IP limit."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Iterator
from typing import Any

import pytest

from laizi.server.common.protocol import PROTOCOL
from laizi.server.tables.review import REQUESTS_PER_MINUTE, ReviewError, ReviewService
from support.srvhelpers import LiveServer, tracebacks, viewed

websockets_sync = pytest.importorskip("websockets.sync.client")

pytestmark = [pytest.mark.timeout(300)]


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


def greet(ws: Any, name: str) -> Any:
    send(ws, type="hello", proto=PROTOCOL, nickname=name)
    until(ws, lambda m: m["type"] == "welcome")
    return ws


@pytest.fixture(scope="module")
def srv(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[LiveServer, int, int]]:
    s = LiveServer.plain(tmp_path_factory.mktemp("review"),
                         args=["--bot-delay", "0", "--hand-pause", "0"]).start()
    try:
        with websockets_sync.connect(s.ws_url, max_size=2**24) as ws:  # a finished match of four bots
            greet(ws, "reviewer")
            send(ws, type="create", settings={"max_hands": 4, "rounds": 4})
            until(ws, lambda m: m["type"] == "joined")
            for i, level in enumerate(("random", "greedy", "strong", "expert")):
                send(ws, type="bot", seat=i, level=level)
            send(ws, type="start")
            room = until(ws, lambda m: m["type"] == "room" and m["room"]["status"] == "finished", 120)
            finished = int(room["room"]["match_id"])
        with websockets_sync.connect(s.ws_url, max_size=2**24) as ws2:  # a match in play:
            greet(ws2, "player")  # seat 0 is a person who does not act
            send(ws2, type="create", settings={"max_hands": 2, "rounds": 4})
            until(ws2, lambda m: m["type"] == "joined")
            send(ws2, type="sit", seat=0)
            for i in (1, 2, 3):
                send(ws2, type="bot", seat=i, level="random")
            send(ws2, type="start")
            room = until(ws2, lambda m: m["type"] == "room" and m["room"].get("match_id"))
            yield s, finished, int(room["room"]["match_id"])
    finally:
        s.stop()
        assert tracebacks(s.log_text()) == 0, s.log_text()[-4000:]


def review(s: LiveServer, mid: int, seat: int, timeout: float = 120) -> tuple[dict[str, Any], list[float]]:
    """Ask until the review is there (202 while it is built); its JSON and the progress seen."""
    seen: list[float] = []
    deadline = time.time() + timeout
    while time.time() < deadline:
        status, headers, body = s.request("GET", f"/api/matches/{mid}/review?seat={seat}")
        data = json.loads(body)
        if status == 200:
            return data, seen
        assert status == 202, (status, data)
        assert data["pending"] is True and 0 <= data["progress"] <= 1
        assert headers["retry-after"] == "1"
        seen.append(data["progress"])
        time.sleep(0.2)
    raise AssertionError("the review never came")


def test_a_finished_match_is_reviewed_then_cached(srv: tuple[LiveServer, int, int]) -> None:
    s, mid, _ = srv
    data, _ = review(s, mid, 0)  # the random bot
    assert data["match_id"] == mid and data["seat"] == 0 and data["hands"] >= 1
    assert data["decisions"] == len(data["all"]) > 10
    assert 0 <= data["accuracy"] <= 100 and data["mean_loss"] > 0
    assert 3 <= len(data["costliest"]) <= 5
    for d in data["costliest"]:
        assert d["why"]["zh"] and d["why"]["en"] and d["loss"] > 0 and isinstance(d["v"], int)
    t0 = time.perf_counter()
    status, _, body = s.request("GET", f"/api/matches/{mid}/review?seat=0")  # cached
    assert status == 200 and json.loads(body) == data and time.perf_counter() - t0 < 1.0
    expert, _ = review(s, mid, 3)
    assert expert["mean_loss"] < 0.05 and expert["accuracy"] == 100


def test_bad_requests_and_a_match_in_play(srv: tuple[LiveServer, int, int]) -> None:
    s, mid, playing = srv
    assert s.request("GET", f"/api/matches/{mid}/review")[0] == 400
    assert s.request("GET", f"/api/matches/{mid}/review?seat=4")[0] == 400
    assert s.request("GET", "/api/matches/x/review?seat=0")[0] == 400
    status, _, body = s.request("GET", "/api/matches/999999/review?seat=0")
    assert status == 404 and json.loads(body)["error"] == "unknown match"
    deadline = time.time() + 60
    while True:
        status, _, body = s.request("GET", f"/api/matches/{playing}/review?seat=1")
        if status != 202:
            break
        assert time.time() < deadline
        time.sleep(0.2)
    assert status == 409 and "in play" in json.loads(body)["error"]


def test_the_result_card_data(srv: tuple[LiveServer, int, int]) -> None:
    s, mid, playing = srv
    status, _, body = s.request("GET", f"/api/matches/{mid}/card")
    card = json.loads(body)
    assert status == 200 and card["match_id"] == mid and len(card["seats"]) == 4
    assert sum(card["scores"]) == 0 and card["rule_card"]["zh"].startswith("开口番")
    assert card["rule_card"]["en"].startswith("open-fan") and card["finished_at"]
    assert [x["bot"] for x in card["seats"]] == ["random", "greedy", "strong", "expert"]
    status, _, body = s.request("GET", f"/api/matches/{mid}/card?origin=https://laizi.example:8443")
    qr = json.loads(body)["qr"]
    assert status == 200 and qr["link"] == f"https://laizi.example:8443/replay/{mid}?card=1"
    n = len(qr["rows"])
    assert n >= 21 and (n - 17) % 4 == 0 and all(len(r) == n for r in qr["rows"])
    assert qr["rows"][0][:7] == "1111111" and qr["rows"][-1][:7] == "1111111"  # finder patterns
    for bad in ("javascript:alert(1)", "https://x/evil?", "ftp://x", "https://" + "a" * 90):
        assert s.request("GET", f"/api/matches/{mid}/card?origin={bad}")[0] == 400, bad
    assert s.request("GET", f"/api/matches/{playing}/card")[0] == 409
    assert s.request("GET", "/api/matches/999999/card")[0] == 404
    assert s.request("GET", "/api/matches/0/card")[0] == 400


def test_the_profile_shows_the_accuracy_of_reviews_built(srv: tuple[LiveServer, int, int]) -> None:
    """A person's finished match: its profile has no review figure until its 复盘 is built,
    then that review's accuracy (nothing is built for the profile itself)."""
    s, _, _ = srv
    from support.srvhelpers import Client, step

    me = Client(s.port, "复盘者")  # plays its own seat (the first legal move each time)
    try:
        pid = me.pid
        me.send({"type": "create", "settings": {"max_hands": 1}})
        me.until("joined")
        me.send({"type": "sit", "seat": 0})
        for i in (1, 2, 3):
            me.send({"type": "bot", "seat": i, "level": "greedy"})
            me.until(lambda m, i=i: m["type"] == "room" and m["room"]["seats"][i]["bot"])
        me.send({"type": "start"})
        me.until("snapshot")
        end = time.time() + 120
        while time.time() < end and step([me]):
            pass
        assert me.last is not None and me.last["view"].get("match_over"), "the match did not end"
    finally:
        me.close()

    def prof() -> dict[str, Any]:
        status, _, body = s.request("GET", f"/api/players/{pid}")
        assert status == 200
        out: dict[str, Any] = json.loads(body)
        return out

    deadline = time.time() + 30
    while not prof()["recent"] and time.time() < deadline:
        time.sleep(0.1)
    p = prof()
    assert len(p["recent"]) == 1 and p["review"] is None  # nothing reviewed yet
    mid = p["recent"][0]["match_id"]
    data, _ = review(s, mid, 0)
    assert data["rated"] > 0  # the person's own decisions
    got = prof()["review"]
    assert got == {"accuracy": data["accuracy"], "matches": 1, "decisions": data["rated"]}, got


def test_the_review_endpoint_is_rate_limited_per_ip(srv: tuple[LiveServer, int, int]) -> None:
    s, mid, _ = srv
    review(s, mid, 0)
    codes = []
    for _ in range(REQUESTS_PER_MINUTE + 5):
        status, headers, body = s.request("GET", f"/api/matches/{mid}/review?seat=0")
        codes.append(status)
        if status == 429:
            assert int(headers["retry-after"]) >= 1
            refusal = json.loads(body)
            assert refusal["code"] == "rate_limited", refusal
            assert refusal["params"]["wait"] == int(headers["retry-after"]), (refusal, headers)
            break
    assert codes[-1] == 429 and codes.count(200) <= REQUESTS_PER_MINUTE
    assert s.request("GET", "/api/rooms")[0] == 200  # the rest of the server still answers


def test_the_replays_gates_withhold_the_review(tmp_path: Any) -> None:
    async def withheld(match_id: int) -> str | None:
        return "a duplicate round in play: no replay until it is over" if match_id == 7 else None

    svc = ReviewService(f"sqlite:///{tmp_path / 'none.db'}", gates=[withheld])
    with pytest.raises(ReviewError) as exc:
        asyncio.run(svc.get(7, 0, "1.2.3.4"))
    assert exc.value.status == 403 and "duplicate" in exc.value.message and exc.value.code == "replay_withheld"
    assert svc._pool is None  # refused before any build

