"""The tournament list says who takes an event's places: two players in an 8-place event
whose empty places bots filled at the start read 8/8 with its 6 bots (it said 2/8), in
Chinese and in English; an event still taking entries reads as entered so far; a club's
events on its page say their bots too. Real ``laizi serve``, the system Chromium, a phone
upright and sideways (screenshots looked at)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest

from support.srvhelpers import http_ok
from support.webhelpers import PW, live_server, new_page, overflow_x, poll, screens_dir

pytestmark = pytest.mark.browser


call = http_ok  # (base, path, token, body): the JSON of a request that must succeed


@pytest.fixture(scope="module")
def events(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    """A server with two 8-place events: one started with 2 players (bots took 6 places), one
    with 1 player entered, not started; and a club's 4-place event its owner (``organiser``)
    entered alone, started (3 bots)."""
    with live_server(tmp_path_factory.mktemp("tournbots"), "--hand-pause", "0") as base:
        org = call(base, "/api/account/register", body={"username": "organiser", "password": PW})
        tok = [call(base, "/api/account/register", body={"username": f"entrant{i}", "password": PW})["token"]
               for i in range(2)]
        made = [call(base, "/api/tournaments", org["token"], {
            "name": name, "rounds": 1, "hands_per_round": 1, "seats": 8, "bots_fill": True,
            "bot_delay": 0.02})["id"] for name in ("机器人补位杯", "报名中杯")]
        for t in tok:
            call(base, f"/api/tournaments/{made[0]}/register", t, {})
            call(base, f"/api/tournaments/{made[0]}/check-in", t, {})
        call(base, f"/api/tournaments/{made[1]}/register", tok[0], {})
        out = call(base, f"/api/tournaments/{made[0]}/start", org["token"], {})
        assert out["entrants"] == 8 and out["bots"] == 6, out
        club = call(base, "/api/clubs", org["token"], {"name": "汉阳棋牌"})
        ev = call(base, "/api/tournaments", org["token"], {
            "name": "圈赛", "club": club["id"], "rounds": 1, "hands_per_round": 1, "seats": 4,
            "bots_fill": True, "bot_delay": 0.02})["id"]
        call(base, f"/api/tournaments/{ev}/register", org["token"], {})
        call(base, f"/api/tournaments/{ev}/check-in", org["token"], {})
        assert call(base, f"/api/tournaments/{ev}/start", org["token"], {})["bots"] == 3
        yield {"base": base, "started": made[0], "open": made[1], "token": org["token"],
               "club": club["id"]}


def line(page: Any, tid: int) -> str:
    sel = f"#t-list li:has(a[href='/tournaments/{tid}']) span.muted"
    page.wait_for_selector(sel)
    return str(page.inner_text(sel))


@pytest.mark.parametrize("size", [(390, 844), (844, 390)])
def test_the_list_counts_the_bots_that_filled_the_places(browser: Any, events: dict[str, Any],
                                                          size: tuple[int, int]) -> None:
    base, started, open_ = events["base"], events["started"], events["open"]
    listed = {x["id"]: x for x in call(base, "/api/tournaments")["tournaments"]}
    assert (listed[started]["entrants"], listed[started]["bots"]) == (2, 6)
    assert (listed[open_]["entrants"], listed[open_]["bots"]) == (1, 0)
    page = new_page(browser, base, size=size)
    page.goto(base + "/tournaments")
    poll(page, "() => document.body.dataset.ready === '1'")
    assert line(page, started).startswith("8/8（含6个机器人） · ")
    assert line(page, started).endswith(" · 1轮 × 每轮1手 · 8个名额")
    assert line(page, open_).startswith("1/8 · ")
    assert overflow_x(page) <= 0
    page.screenshot(path=str(screens_dir() / f"tourney-list-bots-{size[0]}x{size[1]}.png"), full_page=True)
    # the page takes the language the lobby chose
    page.evaluate("() => localStorage.setItem('laizi.lang', 'en')")
    page.reload()
    poll(page, "() => document.body.dataset.ready === '1'")
    assert line(page, started).startswith("8/8 (6 bots) · ")
    assert line(page, started).endswith(" · 1 round × 1 hand · 8 seats")  # (it said "1 rounds × 1 hands")
    assert line(page, open_).startswith("1/8 · ")
    assert overflow_x(page) <= 0
    page.screenshot(path=str(screens_dir() / f"tourney-list-bots-en-{size[0]}x{size[1]}.png"), full_page=True)
    assert not page.errors, page.errors
    assert not page.evaluate("window.__csp"), page.evaluate("window.__csp")
    page.context.close()


def test_a_clubs_events_say_their_bots(browser: Any, events: dict[str, Any]) -> None:
    base = events["base"]
    page = new_page(browser, base, size=(390, 844), setup=lambda p: p.add_init_script(
        f"try {{ localStorage.setItem('laizi.token', {json.dumps(events['token'])}); }} catch (e) {{}}"))
    page.goto(f"{base}/clubs/{events['club']}")
    poll(page, "() => document.body.dataset.ready === '1'")
    said = page.locator("#o-events li[data-event] span.muted")
    said.wait_for()
    assert said.inner_text() == "1 人报名 · 3个机器人"
    assert overflow_x(page) <= 0
    assert not page.errors, page.errors
    page.context.close()
