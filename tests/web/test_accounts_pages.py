"""Playwright (system Chromium) on a live ``laizi serve``: a guest registers, logs out, logs in,
opens its profile and the leaderboard (filled by a rated match of protocol clients), follows a
leaderboard entry to a profile with a replay link — on a landscape phone and on a desktop."""

from __future__ import annotations

import secrets
import time
from typing import Any

import pytest

from support.srvhelpers import http, seated_room, step  # noqa: E402
from support.webhelpers import new_page, overflow_x, poll, screens_dir

pytestmark = pytest.mark.browser

PW = "plum blossom 7"


def rated_match(base: str) -> list[str]:
    """Two protocol clients and two bots finish a one-hand rated match; their player ids."""
    port = int(base.rsplit(":", 1)[1])
    toks = []
    for i in range(2):  # only registered players are rated
        st, reg = http(base + "/api/account/register",
                       {"username": f"rated{i}{secrets.token_hex(3)}", "password": PW})
        assert st == 200, reg
        toks.append(reg["token"])
    clients, _ = seated_room(port, 2, rated=True, max_hands=1, tokens=toks)
    end = time.monotonic() + 90
    while step(clients):
        assert time.monotonic() < end
    pids = [c.pid for c in clients]
    for c in clients:
        c.close()
    return pids


@pytest.fixture(scope="module")
def rated(server: str) -> list[str]:
    return rated_match(server)


@pytest.mark.slow
@pytest.mark.parametrize("size", [(844, 390), (1366, 900)])
def test_register_login_profile_leaderboard(browser: Any, server: str, rated: list[str],
                                            size: tuple[int, int]) -> None:
    tag = f"{size[0]}x{size[1]}"
    user = f"web{size[0]}"
    page = new_page(browser, server, nick=f"网{size[0]}", size=size)
    guest_pid = page.evaluate("() => localStorage.getItem('laizi.token')") and \
        poll(page, "() => document.getElementById('me').textContent")
    assert guest_pid
    # register: the guest becomes the account
    page.click("#nav-account")
    poll(page, "() => document.body.dataset.ready === '1'")
    page.fill("#r-user", user)
    page.fill("#r-pass", "short")
    page.click("#btn-register")
    poll(page, "() => !document.getElementById('p-error').classList.contains('hidden')")
    assert "至少 8 个字符" in page.text_content("#p-error")  # (the server's "at least 8 characters", in Chinese)
    page.fill("#r-pass", PW)
    page.click("#btn-register")
    poll(page, "() => !document.getElementById('acc-in').classList.contains('hidden')")
    assert page.text_content("#acc-name") == user
    assert overflow_x(page) <= 0
    page.screenshot(path=str(screens_dir() / f"account-{tag}.png"))
    # log out, then a wrong password, then log in
    page.click("#btn-logout")
    poll(page, "() => !document.getElementById('acc-out').classList.contains('hidden')")
    assert page.evaluate("() => localStorage.getItem('laizi.token')") is None
    page.fill("#l-user", user.upper())
    page.fill("#l-pass", "wrong password")
    page.click("#btn-login")
    poll(page, "() => !document.getElementById('p-error').classList.contains('hidden')")
    assert "用户名或密码错误" in page.text_content("#p-error")  # the refusal in the page's language
    page.fill("#l-pass", PW)
    page.click("#btn-login")
    poll(page, "() => !document.getElementById('acc-in').classList.contains('hidden')")
    # the token plays: the lobby's hello names the account's player
    me = page.evaluate("() => fetch('/api/account/me', {headers: {Authorization: 'Bearer ' + "
                       "localStorage.getItem('laizi.token')}}).then(r => r.json())")
    assert me["registered"] and me["username"] == user
    page.goto(server + "/")
    poll(page, "n => document.getElementById('me').textContent === n", f"网{size[0]}")
    # own profile
    page.goto(server + "/account")
    poll(page, "() => !document.getElementById('acc-in').classList.contains('hidden')")
    page.click("#acc-profile")
    poll(page, "() => document.querySelectorAll('#pf-figures [data-key]').length === 12")
    assert f"@{user}" in page.text_content("#pf-name")
    assert page.text_content("#pf-figures [data-key=matches] dd") == "0"
    # (the empty match list says so once the rule sets' words are in: after the figures)
    poll(page, "() => document.getElementById('pf-none').checkVisibility()")
    assert overflow_x(page) <= 0
    # the leaderboard: the two rated players, best first; follow one to its profile and replay
    page.click("#topbar >> text=排行榜")
    poll(page, "() => document.querySelectorAll('#lb tbody tr').length === 2")
    page.screenshot(path=str(screens_dir() / f"leaderboard-{tag}.png"))
    assert overflow_x(page) <= 0
    ratings = page.evaluate("() => [...document.querySelectorAll('#lb tbody tr')]"
                            ".map(r => +r.cells[2].textContent)")
    assert ratings == sorted(ratings, reverse=True)
    page.click("#lb tbody tr:first-child a")
    poll(page, "() => document.querySelectorAll('#pf-matches tbody tr').length === 1")
    assert page.url.split("/players/")[1] in rated
    assert page.text_content("#pf-figures [data-key=matches] dd") == "1"
    assert page.text_content("#pf-figures [data-key=rated_matches] dd") == "1"
    assert overflow_x(page) <= 0
    page.screenshot(path=str(screens_dir() / f"profile-{tag}.png"))
    href = page.get_attribute("#pf-matches tbody tr a", "href")
    assert href is not None and href.startswith("/replay/")
    review = page.get_attribute("#pf-matches tbody tr a.pf-review", "href") or ""  # 复盘 of this seat
    assert review.startswith(href + "?review=") and review[-1] in "0123"
    page.click("#pf-matches tbody tr a")
    page.wait_for_url("**/replay/*")
    assert page.evaluate("() => window.__csp") == []
    assert not page.errors  # type: ignore[attr-defined]
    page.context.close()
