"""Playwright (system Chromium) on a live ``laizi serve``: a registered player presses 快速开始 at
初级场 and, seated with bots, sees the table's level and stake in the centre (初级场 · 底注 10),
in Chinese and in English; a table of a room made by hand shows no level."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from support.webhelpers import (
    live_server,
    new_page,
    outside,
    overflow_x,
    poll,
    screens_dir,
    start_table,
)

pytestmark = pytest.mark.browser

PW = "plum blossom 7"


@pytest.fixture(scope="module")
def quick_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with live_server(Path(tmp_path_factory.mktemp("cointable")), "--hand-pause", "2", env={"LAIZI_QUICK_WAIT": "0.5", "LAIZI_RATE_EXEMPT": "127.0.0.1"}) as base:
        yield base


def quick_table(browser: Any, base: str, user: str, size: tuple[int, int], lang: str) -> Any:
    page = new_page(browser, base, size=size)
    page.evaluate("l => localStorage.setItem('laizi.lang', l)", lang)
    page.click("#nav-account")
    poll(page, "() => document.body.dataset.ready === '1'")
    page.fill("#r-user", user)
    page.fill("#r-pass", PW)
    page.click("#btn-register")
    poll(page, "() => !document.getElementById('acc-in').classList.contains('hidden')")
    page.goto(base + "/")
    poll(page, "() => document.getElementById('coins-bal').textContent === '5000'")
    page.click('button[data-level="junior"]')
    page.wait_for_selector("#game:not(.hidden)", timeout=20000)
    page.wait_for_selector("#hand .tile")
    return page


@pytest.mark.slow
@pytest.mark.parametrize(("size", "lang", "want"), [
    ((844, 390), "zh", "初级场 · 底注 10"),
    ((390, 844), "en", "Junior · stake 10"),
])
def test_coin_table_shows_level_and_stake(browser: Any, quick_server: str, size: tuple[int, int],
                                          lang: str, want: str) -> None:
    tag = f"{size[0]}x{size[1]}"
    page = quick_table(browser, quick_server, f"lv{lang}{size[0]}", size, lang)
    poll(page, "() => document.querySelector('[data-testid=\"coin-level\"]')")
    assert page.text_content('[data-testid="coin-level"]') == want
    assert page.get_attribute('[data-testid="coin-level"]', "data-stake") == "10"
    assert page.is_visible('[data-testid="coin-level"]')
    assert outside(page, "coin-level") is None
    assert overflow_x(page) <= 0
    page.screenshot(path=str(screens_dir() / f"polish-coin-table-{lang}-{tag}.png"))
    assert page.errors == [] and page.evaluate("() => window.__csp") == []
    page.context.close()
    # a room made by hand: no level
    other = new_page(browser, quick_server, nick="手动", size=size)
    start_table(other)
    page2 = other
    page2.wait_for_timeout(500)
    assert page2.locator('[data-testid="coin-level"]').count() == 0
    page2.context.close()
