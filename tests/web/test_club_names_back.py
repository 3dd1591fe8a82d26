"""The club page names players by the nicknames they chose, as its tables do (its members
list and its ranking showed the accounts' usernames), and a table opened from a club leads
back to that club once its match is over (回大厅 went to the main lobby), after a reload of
the table's page too. Real ``laizi serve``, the system Chromium, a phone upright and sideways
(screenshots looked at)."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from typing import Any

import pytest

from support.srvhelpers import http_ok
from support.webhelpers import PW, auto_on, live_server, new_page, overflow_x, poll, screens_dir

pytestmark = pytest.mark.browser


call = http_ok  # (base, path, token, body): the JSON of a request that must succeed


@pytest.fixture(scope="module")
def nserver(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with live_server(tmp_path_factory.mktemp("clubnames"), "--hand-pause", "0") as base:
        yield base


def club_with_members(base: str, tag: str) -> tuple[dict[str, Any], str]:
    """A club (its bots random) of an owner 圈主老王 and a member 阿梅 — accounts whose
    usernames are not their nicknames — with a one-hand rule template; (club, owner's token)."""
    owner = call(base, "/api/account/register", body={"username": f"wang{tag}", "password": PW,
                                                      "nickname": "圈主老王"})
    member = call(base, "/api/account/register", body={"username": f"amei{tag}", "password": PW,
                                                       "nickname": "阿梅"})
    club = call(base, "/api/clubs", owner["token"], {"name": "武昌牌友", "bots": "random"})
    call(base, "/api/clubs/join", member["token"], {"code": club["code"]})
    call(base, f"/api/clubs/{club['id']}/templates", owner["token"],
         {"name": "一手", "settings": {"preset": "kaikoufan", "max_hands": 1}})
    return club, owner["token"]


def as_account(browser: Any, base: str, token: str, size: tuple[int, int]) -> Any:
    """A page of the account ``token`` names (logged in before the first load: no guest's
    nickname in the page's storage to rename the account with)."""
    return new_page(browser, base, size=size, setup=lambda p: p.add_init_script(
        f"try {{ localStorage.setItem('laizi.token', {json.dumps(token)}); }} catch (e) {{}}"))


def on_club_page(page: Any, base: str, cid: int) -> None:
    page.goto(f"{base}/clubs/{cid}")
    poll(page, "() => document.body.dataset.ready === '1'")


def shot(page: Any, name: str) -> None:
    assert overflow_x(page) <= 0, name
    page.screenshot(path=str(screens_dir() / f"{name}.png"), full_page=True)


@pytest.mark.parametrize("size", [(390, 844), (844, 390)])
def test_members_are_named_by_their_nicknames(browser: Any, nserver: str, size: tuple[int, int]) -> None:
    tag = str(size[0])
    club, token = club_with_members(nserver, tag)
    page = as_account(browser, nserver, token, size)
    on_club_page(page, nserver, club["id"])
    page.wait_for_selector(f"#o-members li[data-player='amei{tag}']")
    names = page.eval_on_selector_all("#o-members li > span:first-child", "es => es.map(e => e.textContent)")
    assert names == ["圈主老王", "阿梅"], names
    assert f"amei{tag}" not in page.inner_text("#o-members-card")
    page.locator("#o-members-card").scroll_into_view_if_needed()
    shot(page, f"club-member-names-{size[0]}x{size[1]}")
    assert not page.errors, page.errors
    assert not page.evaluate("window.__csp"), page.evaluate("window.__csp")
    page.context.close()


@pytest.mark.slow
def test_a_club_table_leads_back_to_its_club(browser: Any, nserver: str) -> None:
    club, token = club_with_members(nserver, "back")
    cid = club["id"]
    page = as_account(browser, nserver, token, (844, 390))
    on_club_page(page, nserver, cid)
    page.click("#o-templates li[data-template] button[data-k='bots_now']")  # a table of bots, started
    page.wait_for_url("**/room/*")
    page.wait_for_selector("#game:not(.hidden)")
    auto_on(page)  # 托管 plays the one hand (unless a bot won at once)
    back = page.locator("#btn-lobby")
    back.wait_for(state="visible", timeout=90000)
    assert back.inner_text() == "回亲友圈"
    # the way back is the room's (its settings name the club), not the page's memory: a reload
    page.reload()
    back.wait_for(state="visible", timeout=30000)
    assert back.inner_text() == "回亲友圈"
    shot(page, "club-table-over-844x390")
    back.click()
    page.wait_for_url(f"{nserver}/clubs/{cid}")
    poll(page, "() => document.body.dataset.ready === '1'")
    assert page.evaluate("() => localStorage.getItem('laizi.room')") is None  # the table is left
    # the ranking names the owner as the table did, by its nickname (it said wangback)
    deadline = time.monotonic() + 20
    while not call(nserver, f"/api/clubs/{cid}/ranking", token)["ranking"]:
        assert time.monotonic() < deadline, "the ranking was not stored"
        time.sleep(0.2)
    for size in ((390, 844), (844, 390)):
        page.set_viewport_size({"width": size[0], "height": size[1]})
        on_club_page(page, nserver, cid)
        page.wait_for_selector("#o-ranking tr[data-player='wangback']")
        assert page.inner_text("#o-ranking tr[data-player='wangback'] td:nth-child(2)") == "圈主老王"
        assert "wangback" not in page.inner_text("#o-ranking-card")
        page.locator("#o-ranking-card").scroll_into_view_if_needed()
        shot(page, f"club-ranking-names-{size[0]}x{size[1]}")
    assert not page.errors, page.errors
    assert not page.evaluate("window.__csp"), page.evaluate("window.__csp")
    page.context.close()
