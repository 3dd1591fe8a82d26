"""Coins on the result screen of a coin table (issue 21): a registered player at 初级场 sees,
in the hand's settlement, each seat's coins of that hand beside the points and its own balance
after it; on the match result, the match's coins and the balance — the same figures the
ledger holds (``GET /api/coins``). Real server, the system Chromium, phone landscape."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from support.webhelpers import act_once, live_server, new_page, poll, register_here, screens_dir

pytestmark = [pytest.mark.browser, pytest.mark.slow]

PW = "plum blossom 7"


@pytest.fixture(scope="module")
def coin_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with live_server(Path(tmp_path_factory.mktemp("coinres")), "--hand-pause", "2",
                         "--bot-delay", "0", env={"LAIZI_QUICK_WAIT": "0.3", "LAIZI_QUICK_HANDS": "1", "LAIZI_RATE_EXEMPT": "127.0.0.1"}) as base:
        yield base


def test_the_settlement_and_the_result_show_the_coins(browser: Any, coin_server: str) -> None:
    page = new_page(browser, coin_server, size=(844, 390))
    register_here(page, coin_server, "coinresult")
    page.click('button[data-level="junior"]')
    page.wait_for_selector("#game:not(.hidden)", timeout=20000)
    page.wait_for_selector("#hand .tile")
    end = time.monotonic() + 180
    while not page.locator('[data-testid="settlement"]:not(.hidden)').count():
        assert time.monotonic() < end, "the hand did not end"
        act_once(page)
        page.wait_for_timeout(50)
    # the hand's coins: a column beside the points, the balance after it under the table
    got = poll(page, """() => {
        const cells = [...document.querySelectorAll('#settle-body table.pay td.coin-col')];
        const bal = document.querySelector('#settle-body .coin-balance');
        return cells.length === 4 && bal ? {coins: cells.map(c => +c.textContent), bal: bal.textContent,
          me: [...document.querySelectorAll('#settle-body table.pay tr')].findIndex(r => r.classList.contains('mine')) - 1,
          pays: [...document.querySelectorAll('#settle-body table.pay tr')].slice(1).map(r => +r.cells[2].textContent)} : null;
    }""", timeout=20)
    token = page.evaluate("() => localStorage.getItem('laizi.token')")
    ledger = page.evaluate("t => fetch('/api/coins', {headers: {Authorization: 'Bearer ' + t}}).then(r => r.json())", token)
    me = got["me"]
    assert 0 <= me < 4
    want = round(got["pays"][me] * 10)  # points × stake 10 (a loser pays at most what it holds)
    assert got["coins"][me] == want or (want < 0 and got["coins"][me] > want)
    assert f"{ledger['balance']}" in got["bal"] and "游戏币余额" in got["bal"]
    assert ledger["balance"] == 5000 + got["coins"][me]
    page.screenshot(path=str(screens_dir() / "coin-settlement-844x390.png"))
    # the match (one hand) is over: the result shows the match's coins and the balance
    line = poll(page, """() => { const e = document.querySelector('[data-testid="match-coins"]');
                                 return e && e.offsetParent !== null ? e.textContent : null; }""", timeout=20)
    sign = "+" if got["coins"][me] > 0 else ""
    assert f"本场游戏币 {sign}{got['coins'][me]}" in line and str(ledger["balance"]) in line
    page.screenshot(path=str(screens_dir() / "coin-result-844x390.png"))
    assert page.errors == []  # type: ignore[attr-defined]
    page.context.close()


def test_a_lost_balance_answer_is_asked_again(browser: Any, coin_server: str) -> None:
    """The lobby's first GET /api/coins is lost (the network, a busy server): the balance is asked
    again within seconds, not only at the lobby's 15-second round."""
    page = new_page(browser, coin_server, size=(390, 844))
    register_here(page, coin_server, "coinretry")
    asked: list[str] = []

    def lose_the_first(route: Any) -> None:
        asked.append(route.request.url)
        if len(asked) == 1:
            route.abort()
        else:
            route.continue_()

    page.route("**/api/coins?*", lose_the_first)
    page.goto(coin_server + "/")
    poll(page, "() => document.getElementById('coins-bal').textContent === '5000'", timeout=12)
    assert len(asked) >= 2
