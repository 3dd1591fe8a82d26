"""Tournaments start by themselves at ``start_at`` once at least four players checked in (in
process, real SQLite, the app's own director loop): not before the time, not with three, at
once when the fourth checks in late; bots fill when allowed; a start the rules refuse (five
players, no bots) waits for the entrants to change; times with an offset are kept in UTC."""

from __future__ import annotations

import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from starlette.testclient import TestClient

from laizi.server.competitions.tournaments.autostart import AUTO_START_MIN, utc

PW = "autostart-pass-9"


def _account(c: TestClient, name: str) -> dict[str, str]:
    r = c.post("/api/account/register", json={"username": name, "password": PW})
    assert r.status_code == 200, r.text
    return {"Authorization": f"Bearer {r.json()['token']}"}


def _iso(seconds_from_now: float) -> str:
    return (datetime.now(UTC) + timedelta(seconds=seconds_from_now)).isoformat()


def _wait(c: TestClient, tid: int, status: str, timeout: float = 15.0) -> dict[str, Any]:
    end = time.monotonic() + timeout
    while True:
        d = c.get(f"/api/tournaments/{tid}").json()
        if d["status"] == status:
            return dict(d)
        assert time.monotonic() < end, d
        time.sleep(0.2)


def _still(c: TestClient, tid: int, seconds: float = 1.6) -> None:
    """The tournament stays open for ``seconds`` (three director ticks)."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        assert c.get(f"/api/tournaments/{tid}").json()["status"] == "registration"
        time.sleep(0.2)


def _enter(c: TestClient, tid: int, players: list[dict[str, str]], check_in: bool = True) -> None:
    for h in players:
        assert c.post(f"/api/tournaments/{tid}/register", headers=h).status_code == 200
        if check_in:
            assert c.post(f"/api/tournaments/{tid}/check-in", headers=h).status_code == 200


def test_utc() -> None:
    assert utc(datetime(2030, 1, 1, 8, tzinfo=UTC)) == datetime(2030, 1, 1, 8, tzinfo=UTC)
    assert utc(datetime(2030, 1, 1, 8)) == datetime(2030, 1, 1, 8, tzinfo=UTC)
    east8 = datetime.fromisoformat("2030-01-01T08:00:00+08:00")
    assert utc(east8) == datetime(2030, 1, 1, 0, tzinfo=UTC) and utc(east8).tzinfo is UTC


@pytest.mark.slow
def test_tournaments_start_at_their_time(make_app: Callable[..., Any]) -> None:
    assert AUTO_START_MIN == 4
    with TestClient(make_app()) as c:
        org = _account(c, "autoorg")
        players = [_account(c, f"auto{i}") for i in range(6)]
        common = {"rounds": 1, "hands_per_round": 1, "seats": 8, "bot_delay": 0,
                  "continue_seconds": 0, "no_show_seconds": 600}

        # a start time with an offset is kept (and shown) in UTC
        r = c.post("/api/tournaments", headers=org,
                   json={"name": "东八区", **common, "start_at": "2099-01-01T08:00:00+08:00"})
        assert r.status_code == 200, r.text
        assert c.get(f"/api/tournaments/{r.json()['id']}").json()["start_at"].startswith("2099-01-01T00:00:00")

        # the time has come, three checked in (a fourth registered only): it waits ...
        r = c.post("/api/tournaments", headers=org, json={"name": "准时", **common, "start_at": _iso(-1)})
        late = r.json()["id"]
        _enter(c, late, players[:3])
        _enter(c, late, players[3:4], check_in=False)
        _still(c, late)
        # ... and starts as soon as the fourth checks in
        assert c.post(f"/api/tournaments/{late}/check-in", headers=players[3]).status_code == 200
        d = _wait(c, late, "running")  # (a director tick away; 15 s for a busy machine, not 5)
        assert d["current_round"] == 1 and len(d["rounds"][0]["tables"]) == 1
        assert sum(1 for e in d["entrant_list"] if e["player_id"]) == 4
        assert d["started_at"] >= d["start_at"]

        # four checked in before the time, bots allowed: nothing until the time, then 4 bots
        at = time.monotonic() + 8
        r = c.post("/api/tournaments", headers=org,
                   json={"name": "补位", **common, "bots_fill": True, "start_at": _iso(8)})
        timed = r.json()["id"]
        _enter(c, timed, players[2:6])
        # still open until just before its time (what is left of it after the entries: a busy
        # machine takes longer to enter them)
        assert at - time.monotonic() > 1.5
        _still(c, timed, at - time.monotonic() - 0.5)
        d = _wait(c, timed, "running", timeout=10)
        assert len(d["entrant_list"]) == 8 and sum(1 for e in d["entrant_list"] if not e["player_id"]) == 4
        assert len(d["rounds"][0]["tables"]) == 2

        # five players, no bots: the start is refused (not a multiple of 4) and waits for a change
        r = c.post("/api/tournaments", headers=org, json={"name": "五人", **common, "start_at": _iso(-1)})
        odd = r.json()["id"]
        _enter(c, odd, players[:5])
        _still(c, odd)
        assert c.post(f"/api/tournaments/{odd}/unregister", headers=players[4]).status_code == 200
        d = _wait(c, odd, "running")
        assert len(d["entrant_list"]) == 4

        # no start time: never by itself
        r = c.post("/api/tournaments", headers=org, json={"name": "手动", **common})
        manual = r.json()["id"]
        _enter(c, manual, players[:4])
        _still(c, manual)
        assert c.post(f"/api/tournaments/{manual}/start", headers=org).status_code == 200


def test_an_idle_tick_reads_once(make_app: Callable[..., Any]) -> None:
    """A server with no tournament to start or advance asks the database once a tick (both
    questions, tournaments due and tournaments running, in one session; it ticks twice a
    second), not once per question; a tournament that starts by itself is read again in the
    same tick."""
    from sqlalchemy import event

    app = make_app()
    with TestClient(app) as c:
        director = app.state.director
        c.portal.call(director.stop)  # (its own loop would tick meanwhile)
        engine = app.state.hub.store.engine
        checkouts: list[int] = []

        def count(*_: Any) -> None:
            checkouts.append(1)

        event.listen(engine, "checkout", count)
        try:
            for _ in range(3):
                before = len(checkouts)
                c.portal.call(director.tick)
                assert len(checkouts) - before == 1, len(checkouts) - before
            # due now with four checked in: started by itself in this tick, and its first round
            # advanced at once (the running tournaments read again)
            org = _account(c, "idleorg")
            r = c.post("/api/tournaments", headers=org,
                       json={"name": "一读", "rounds": 1, "hands_per_round": 1, "seats": 4,
                             "bot_delay": 0, "continue_seconds": 0, "no_show_seconds": 600,
                             "start_at": _iso(-1)})
            tid = r.json()["id"]
            _enter(c, tid, [_account(c, f"idle{i}") for i in range(4)])
            c.portal.call(director.tick)
            d = c.get(f"/api/tournaments/{tid}").json()
            assert d["status"] == "running", d
            assert d["rounds"] and d["rounds"][0]["tables"], d
        finally:
            event.remove(engine, "checkout", count)
