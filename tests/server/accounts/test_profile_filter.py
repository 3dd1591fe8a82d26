"""The profile's match list filtered by rule set, result and date (SQL on SQLite and
PostgreSQL alike: the preset read from the room's settings JSON), and its bad inputs over
a live server (400 with the reason)."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from laizi.server.accounts.players import MatchFilter, match_list
from laizi.server.persistence import db
from support.matchrows import PID
from support.matchrows import empty_matches as _empty
from support.matchrows import fill_matches as _fill
from support.srvhelpers import LiveServer


def _ids(url: str, **kw: object) -> list[int]:
    eng = db.make_engine(url)
    try:
        with eng.connect() as c:
            out = match_list(c, PID, 20, None, MatchFilter(**kw) if kw else None)  # type: ignore[arg-type]
    finally:
        eng.dispose()
    return [m["match_id"] for m in out]


def _check(url: str) -> None:
    _fill(url)
    assert _ids(url) == [4, 3, 2, 1]
    assert _ids(url, preset="jiayu") == [3, 2]
    assert _ids(url, result="win") == [3, 1]
    assert _ids(url, result="loss") == [4, 2]
    assert _ids(url, result="escaped") == [4]
    assert _ids(url, preset="jiayu", result="win") == [3]
    assert _ids(url, since=datetime(2026, 11, 2, tzinfo=UTC), until=datetime(2026, 11, 4, tzinfo=UTC)) == [3, 2]
    assert _ids(url, preset="qipisilai") == []
    eng = db.make_engine(url)
    with eng.connect() as c:
        assert [m["preset"] for m in match_list(c, PID)] == ["koukoufan", "jiayu", "jiayu", "kaikoufan"]
    eng.dispose()


def test_filters(db_url: str) -> None:
    _check(db_url)
    _empty(db_url)


def test_filters_over_http(tmp_path: Path) -> None:
    url = str(tmp_path / "h.db")
    _fill(url)
    srv = LiveServer(url, tmp_path).start()
    try:
        st, out = srv.get(f"/api/players/{PID}?preset=jiayu&result=win")
        assert st == 200 and [m["match_id"] for m in out["recent"]] == [3]
        st, out = srv.get(f"/api/players/{PID}?since=2026-11-03&until=2026-11-03")  # until inclusive
        assert st == 200 and [m["match_id"] for m in out["recent"]] == [3]
        for bad, why in (("preset=nope", "unknown rule set"), ("result=draw", "result is one of"),
                         ("since=2026-13-01", "since must be a date"), ("until=yesterday", "until must be a date")):
            st, out = srv.get(f"/api/players/{PID}?{bad}")
            assert st == 400 and why in out["error"], (bad, out)
        assert "Traceback" not in srv.log.read_text()
    finally:
        _empty(url)  # the made-up matches have no journal: out before `laizi check` at stop
        srv.stop()
