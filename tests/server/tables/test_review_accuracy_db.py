"""The profile's 复盘 accuracy comes from the database (``review_results``), so every node shows the
same: a review built by a live ``laizi serve`` is stored with its figures, and another
:class:`ReviewService` on the same database (what a second node runs) reads the same accuracy
without building anything; after a restart of the server its profile still has it."""

from __future__ import annotations

import asyncio
import json
import time
from pathlib import Path
from typing import Any

import pytest

from laizi.server.persistence import db
from laizi.server.tables.review import ReviewService, note_result, read_accuracy
from support.srvhelpers import Client, LiveServer, step, tracebacks

pytestmark = [pytest.mark.timeout(300)]


def review(s: LiveServer, mid: int, seat: int, timeout: float = 120) -> dict[str, Any]:
    deadline = time.time() + timeout
    while time.time() < deadline:
        status, _, body = s.request("GET", f"/api/matches/{mid}/review?seat={seat}")
        if status == 200:
            out: dict[str, Any] = json.loads(body)
            return out
        assert status == 202, (status, body)
        time.sleep(0.2)
    raise AssertionError("the review never came")


def profile(s: LiveServer, pid: str) -> dict[str, Any]:
    status, _, body = s.request("GET", f"/api/players/{pid}")
    assert status == 200
    out: dict[str, Any] = json.loads(body)
    return out


def test_the_accuracy_is_the_databases(tmp_path: Path) -> None:
    for d in ("a", "b"):
        (tmp_path / d).mkdir()
    s = LiveServer.plain(tmp_path / "a", args=["--bot-delay", "0", "--hand-pause", "0"]).start()
    url = s.db_url
    try:
        me = Client(s.port, "精算者")
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
        finally:
            me.close()
        deadline = time.time() + 30
        while not profile(s, pid)["recent"] and time.time() < deadline:
            time.sleep(0.1)
        mid = profile(s, pid)["recent"][0]["match_id"]
        assert profile(s, pid)["review"] is None
        other = ReviewService(url)  # a second node's service on the same database
        try:
            assert asyncio.run(other.accuracy_of([(mid, 0)])) is None
            data = review(s, mid, 0)
            want = {"accuracy": data["accuracy"], "matches": 1, "decisions": data["rated"]}
            assert data["rated"] > 0 and profile(s, pid)["review"] == want
            assert asyncio.run(other.accuracy_of([(mid, 0)])) == want  # nothing built there
            assert other.stats["builds"] == 0 and other._pool is None
            assert asyncio.run(other.accuracy_of([(mid, 1)])) is None  # another seat: not built
        finally:
            other.close()
        eng = db.make_engine(url)
        try:  # built again (another node, after eviction): the first figures stay
            note_result(eng, mid, 0, 0.0, 999)
            assert read_accuracy(eng, [(mid, 0)]) == want
            note_result(eng, mid, 1, 50.0, 10)  # two seats' reviews: weighted by rated decisions
            both = read_accuracy(eng, [(mid, 0), (mid, 1), (mid + 1, 0)])
            assert both == {"matches": 2, "decisions": data["rated"] + 10, "accuracy": round(
                (data["accuracy"] * data["rated"] + 500) / (data["rated"] + 10), 1)}
            assert read_accuracy(eng, []) is None
        finally:
            eng.dispose()
    finally:
        s.stop()
    assert tracebacks(s.log_text()) == 0
    s2 = LiveServer.plain(tmp_path / "b", db_url=url, args=["--bot-delay", "0"]).start()
    try:  # a restarted server (its cache empty) shows the same
        assert profile(s2, pid)["review"] == want
    finally:
        s2.stop()
