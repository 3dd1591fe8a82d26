"""Playwright (system Chromium) on a live ``laizi serve``: the profile page shows the coin
balance, and on the player's own profile the coin ledger with its reasons in Chinese and in
English; someone else's profile shows the balance but not the ledger."""

from __future__ import annotations

import json
import urllib.request
from typing import Any

import pytest

from support.webhelpers import new_page, overflow_x, poll, screens_dir

pytestmark = pytest.mark.browser

PW = "plum blossom 7"


def register(browser: Any, base: str, user: str, size: tuple[int, int]) -> tuple[Any, str, str]:
    page = new_page(browser, base, size=size)
    page.click("#nav-account")
    poll(page, "() => document.body.dataset.ready === '1'")
    page.fill("#r-user", user)
    page.fill("#r-pass", PW)
    page.click("#btn-register")
    poll(page, "() => !document.getElementById('acc-in').classList.contains('hidden')")
    token = page.evaluate("() => localStorage.getItem('laizi.token')")
    href = page.get_attribute("#acc-profile", "href")
    assert href and href.startswith("/players/")
    return page, token, href


def daily(base: str, token: str) -> dict[str, Any]:
    req = urllib.request.Request(base + "/api/coins/daily", data=b"{}", method="POST",
                                 headers={"Authorization": "Bearer " + token,
                                          "Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=10) as r:
        out: dict[str, Any] = json.loads(r.read())
    return out


def ledger_rows(page: Any) -> list[list[str]]:
    rows: list[list[str]] = page.evaluate(
        "() => [...document.querySelectorAll('#pf-ledger tbody tr')].map("
        "tr => [tr.dataset.reason, ...[...tr.cells].map(c => c.textContent)])")
    return rows


@pytest.mark.slow
@pytest.mark.parametrize("size", [(390, 844), (1366, 900)])
def test_profile_coins_and_ledger(browser: Any, server: str, size: tuple[int, int]) -> None:
    tag = f"{size[0]}x{size[1]}"
    page, token, href = register(browser, server, f"coin{size[0]}", size)
    page.goto(server + href)
    poll(page, "() => document.getElementById('pf-balance').textContent === '5000'")
    poll(page, "() => document.querySelectorAll('#pf-ledger tbody tr').length === 1")
    assert ledger_rows(page) == [["welcome", ledger_rows(page)[0][1], "新手礼包", "+5000", "5000"]]
    assert page.is_visible('[data-testid="coin-ledger"]')
    assert daily(server, token)["balance"] == 7000
    page.reload()
    poll(page, "() => document.querySelectorAll('#pf-ledger tbody tr').length === 2")
    rows = ledger_rows(page)
    assert [r[0] for r in rows] == ["daily", "welcome"]  # newest first
    assert [r[2:] for r in rows] == [["每日领取", "+2000", "7000"], ["新手礼包", "+5000", "5000"]]
    assert page.text_content("#pf-balance") == "7000"
    assert overflow_x(page) <= 0
    page.screenshot(path=str(screens_dir() / f"polish-profile-zh-{tag}.png"), full_page=True)
    # English
    page.evaluate("() => localStorage.setItem('laizi.lang', 'en')")
    page.reload()
    poll(page, "() => document.querySelectorAll('#pf-ledger tbody tr').length === 2")
    assert [r[2] for r in ledger_rows(page)] == ["Daily top-up", "Welcome gift"]
    assert page.text_content("#v-ledger h2") == "Coin history"
    assert "Coins" in page.text_content("#pf-coins")
    assert overflow_x(page) <= 0
    page.screenshot(path=str(screens_dir() / f"polish-profile-en-{tag}.png"), full_page=True)
    # someone else's profile: the balance, no ledger
    other, _, other_href = register(browser, server, f"peer{size[0]}", size)
    other.goto(server + other_href)  # its welcome grant
    poll(other, "() => document.getElementById('pf-balance').textContent === '5000'")
    page.goto(server + other_href)
    poll(page, "() => document.getElementById('pf-balance').textContent === '5000'")
    page.wait_for_timeout(300)
    assert not page.is_visible('[data-testid="coin-ledger"]')
    assert page.evaluate("() => document.querySelectorAll('#pf-ledger tbody tr').length") == 0
    assert page.errors == [] and page.evaluate("() => window.__csp") == []
    other.context.close()
    page.context.close()
