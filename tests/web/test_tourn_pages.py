"""Playwright (system Chromium) on a live ``laizi serve``: a guest registers an account, enters
a tournament from its page and checks in; the organiser starts it; the player sits at its table
from the tournament page, lets 托管 play, sees the final standings, opens its profile and the
table's replay — on a landscape phone and on a desktop. Screenshots go to the screens dir."""

from __future__ import annotations

import json
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from support.webhelpers import auto_on, live_server, new_page, overflow_x, poll, screens_dir

pytestmark = pytest.mark.browser

PW = "plum blossom 7"


def call(base: str, path: str, body: Any = None, token: str | None = None) -> tuple[int, Any]:
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    req = urllib.request.Request(base + path, data=None if body is None else json.dumps(body).encode(),
                                 headers=headers, method="GET" if body is None else "POST")
    try:
        with urllib.request.urlopen(req, timeout=20) as r:
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read())


@pytest.fixture(scope="module")
def tserver(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with live_server(tmp_path_factory.mktemp("tourney"), "--hand-pause", "0") as base:
        yield base


@pytest.mark.slow
@pytest.mark.parametrize("size", [(844, 390), (1366, 900)])
def test_join_play_standings_profile_replay(browser: Any, tserver: str, size: tuple[int, int]) -> None:
    base = tserver
    tag = f"{size[0]}x{size[1]}"
    st, org = call(base, "/api/account/register", {"username": f"org{size[0]}", "password": PW})
    assert st == 200, org
    st, out = call(base, "/api/tournaments", {
        "name": f"网页杯{size[0]}", "rounds": 1, "hands_per_round": 1, "seats": 4, "bots_fill": True,
        "continue_seconds": 0, "bot_delay": 0.02, "turn_seconds": 10}, org["token"])
    assert st == 200, out
    tid = out["id"]

    page = new_page(browser, base, nick=f"赛{size[0]}", size=size)
    # the lobby links to the tournaments
    page.click("#nav-tourney")
    poll(page, "() => document.body.dataset.ready === '1'")
    assert page.is_visible("#c-login") and not page.is_visible("#f-create")  # a guest: log in first
    # register an account (the guest becomes it)
    page.goto(base + "/account")
    poll(page, "() => document.body.dataset.ready === '1'")
    page.fill("#r-user", f"web{size[0]}")
    page.fill("#r-pass", PW)
    page.click("#btn-register")
    poll(page, "() => !document.getElementById('acc-in').classList.contains('hidden')")
    token = page.evaluate("() => localStorage.getItem('laizi.token')")
    page.goto(base + "/tournaments")
    poll(page, "() => document.querySelectorAll('#t-list li').length > 0")
    assert page.is_visible("#f-create")
    shown = page.eval_on_selector_all("#c-preset option", "os => os.map(o => o.textContent)")
    assert "开口番" in shown and "kaikoufan" not in shown, shown  # its names, not the ids
    assert overflow_x(page) <= 0
    page.screenshot(path=str(screens_dir() / f"tourney-list-{tag}.png"), full_page=True)
    page.click(f"#t-list a[href='/tournaments/{tid}']")
    page.wait_for_selector("#b-register")
    page.click("#b-register")
    page.wait_for_selector("#b-checkin")
    page.click("#b-checkin")
    poll(page, "() => document.getElementById('o-entrants').textContent.includes('✓')")
    # the rule card its tables play under, with its 玩法说明 (issue 23)
    poll(page, "() => document.getElementById('o-card').textContent === '开口番（按预设规则）'")
    assert "howto.html?rules=" in (page.get_attribute("#o-howto", "href") or "")
    assert not page.is_visible("#b-start")  # not the organiser
    page.screenshot(path=str(screens_dir() / f"tourney-registration-{tag}.png"), full_page=True)
    st, out = call(base, f"/api/tournaments/{tid}/start", {}, org["token"])
    assert st == 200 and out["bots"] == 3, out
    # the page refreshes itself: the player's table appears; sit down
    page.wait_for_selector("#b-sit", timeout=20000)
    _, d0 = call(base, f"/api/tournaments/{tid}", token=token)
    assert overflow_x(page) <= 0
    page.screenshot(path=str(screens_dir() / f"tourney-running-{tag}.png"), full_page=True)
    page.click("#b-sit")
    page.wait_for_selector("#game:not(.hidden)")
    poll(page, "() => document.getElementById('me').textContent.length > 0")
    assert page.url.endswith("/room/" + d0["me"]["table"]["room"])
    auto_on(page)  # 托管 plays the table (unless a bot won at once)
    deadline = time.monotonic() + 90
    while True:
        st, d = call(base, f"/api/tournaments/{tid}")
        if d["status"] == "finished":
            break
        assert time.monotonic() < deadline, "the table did not finish"
        time.sleep(0.3)
    seat = d["rounds"][0]["tables"][0]["seats"]
    assert sum(1 for s in seat if s["player_id"]) == 1 and all(s["score"] is not None for s in seat)
    # the final standings, with the player in them
    page.goto(f"{base}/tournaments/{tid}")
    poll(page, "() => document.querySelectorAll('#o-standings tbody tr').length === 4")
    assert page.text_content("#o-standings-title") in ("最终排名", "Final ranking")
    mine = page.locator("#o-standings td.me a")
    assert mine.count() == 1 and mine.text_content() == f"赛{size[0]}"
    assert page.get_attribute("[data-round='1'] .t-verify", "data-ok") == "1"
    assert overflow_x(page) <= 0
    page.screenshot(path=str(screens_dir() / f"tourney-final-{tag}.png"), full_page=True)
    # the profile: the tournament's match is in the history, with its replay
    mine.click()
    poll(page, "() => document.querySelectorAll('#pf-matches tbody tr').length === 1")
    assert page.text_content("#pf-figures [data-key=matches] dd") == "1"
    assert overflow_x(page) <= 0
    page.click("#pf-matches tbody tr a")
    page.wait_for_url("**/replay/*")
    assert page.url.endswith(f"/replay/{d['rounds'][0]['tables'][0]['match_id']}")
    page.wait_for_timeout(1000)
    page.screenshot(path=str(screens_dir() / f"tourney-replay-{tag}.png"))
    assert page.evaluate("() => window.__csp") == []
    assert not page.errors  # type: ignore[attr-defined]
    page.context.close()


def test_pages_have_no_inner_html() -> None:
    js = (Path(__file__).parents[2] / "src" / "laizi" / "web" / "js" / "tourney.js").read_text()
    assert "innerHTML" not in js and "insertAdjacentHTML" not in js and "eval(" not in js
