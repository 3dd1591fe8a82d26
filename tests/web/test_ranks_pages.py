"""段位 in the browser: the profile and the leaderboard show a rated player's tier (zh and en),
the room form offers a tier range, and a player outside a table's range who tries to sit is
told why in words (``rank_out_of_range``), not with a code."""

from __future__ import annotations

import json
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from laizi.server.persistence import db
from support.webhelpers import live_server, lobby_panel, new_page, poll

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    tmp = Path(tmp_path_factory.mktemp("ranks"))
    with live_server(tmp, env={"LAIZI_RATE_EXEMPT": "127.0.0.1"}) as base:
        yield base, tmp


def _post(base: str, path: str, body: dict[str, Any]) -> dict[str, Any]:
    req = urllib.request.Request(base + path, json.dumps(body).encode(),
                                 {"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=10) as r:
        out: dict[str, Any] = json.loads(r.read())
        return out


def test_tier_on_profile_board_and_a_refused_seat(browser: Any, server: tuple[str, Path]) -> None:
    base, tmp = server
    reg = _post(base, "/api/account/register", {"username": "tiered", "password": "plum blossom 7"})
    eng = db.make_engine(str(tmp / "web.db"))
    try:
        with eng.begin() as conn:
            conn.execute(db.Base.metadata.tables["ratings"].insert().values(
                player_id=reg["player_id"], mu=30.0, sigma=2.0, ordinal=24.0, matches=12))  # 雀豪一
    finally:
        eng.dispose()
    page = new_page(browser, base, size=(844, 390))
    page.goto(f"{base}/players/{reg['player_id']}")
    poll(page, "() => document.getElementById('pf-tier').textContent === '雀豪一'")
    page.goto(f"{base}/leaderboard")
    poll(page, "() => /雀豪一/.test(document.getElementById('lb').textContent)")
    page.evaluate("() => localStorage.setItem('laizi.lang', 'en')")
    page.goto(f"{base}/players/{reg['player_id']}")
    poll(page, "() => document.getElementById('pf-tier').textContent === 'Master I'")
    page.evaluate("() => localStorage.setItem('laizi.lang', 'zh')")
    # a guest (新手) creates a room for 雀士一 and up: sitting down is refused, in words
    page.goto(base + "/")
    lobby_panel(page, "create")
    page.wait_for_selector("#c-rank-min option[value='1']", state="attached")
    assert page.eval_on_selector_all("#c-rank-max option", "os => os.length") == 12
    page.evaluate("() => { for (const d of document.querySelectorAll('details.more')) d.open = true; }")
    page.select_option("#c-rank-min", "1")
    page.click("#btn-create")
    poll(page, "() => /段位不在这桌的范围内/.test(document.body.innerText)")
    assert "rank_out_of_range" not in page.inner_text("body")
    assert page.errors == []
    page.context.close()


def test_profile_match_filter(browser: Any, server: tuple[str, Path]) -> None:
    """The profile's match list narrows by rule set, result and date, and says so when
    nothing fits (matches written straight into the server's database)."""
    from datetime import UTC, datetime

    from support.matchrows import PID, ROWS
    from support.matchrows import empty_matches as _empty
    from support.matchrows import fill_matches as _fill

    base, tmp = server
    url = str(tmp / "web.db")
    _fill(url)
    try:
        page = new_page(browser, base, size=(390, 844))
        page.goto(f"{base}/players/{PID}")
        poll(page, "() => document.querySelectorAll('#pf-matches tbody tr').length === 4")
        assert "嘉鱼" in page.inner_text("#pf-matches")  # each match names its rule set
        page.wait_for_selector("#pf-f-preset option[value='jiayu']", state="attached")
        page.select_option("#pf-f-preset", "jiayu")
        poll(page, "() => document.querySelectorAll('#pf-matches tbody tr').length === 2")
        page.select_option("#pf-f-result", "win")
        poll(page, "() => document.querySelectorAll('#pf-matches tbody tr').length === 1")
        assert page.inner_text("#pf-matches tbody").startswith("#3")
        page.fill("#pf-f-since", "2026-11-04")
        page.dispatch_event("#pf-f-since", "change")
        poll(page, "() => document.querySelectorAll('#pf-matches tbody tr').length === 0")
        assert page.inner_text("#pf-none") == "没有符合条件的对局。"
        assert page.errors == []
        assert len(ROWS) == 4 and datetime(2026, 11, 4, tzinfo=UTC) > ROWS[2][4]
        page.context.close()
    finally:
        _empty(url)
