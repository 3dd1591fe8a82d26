"""The same-network warning in the room's lobby (issue 26): the host creates a table with
开局前提醒同一网络的玩家 ticked, a guest (the same machine: the same address) sits and is
ready; 开始 shows both a warning naming the two players (never an address), the host alone
gets 仍然开始, which starts the match. Real server, the system Chromium, a phone sideways
and upright (screenshots looked at)."""

from __future__ import annotations

from typing import Any

import pytest

from support.webhelpers import add_bots, new_page, overflow_x, poll, screens_dir, sit

pytestmark = [pytest.mark.browser, pytest.mark.slow]


@pytest.mark.parametrize("size", [(844, 390), (390, 844)])
def test_same_network_warning_then_start_anyway(browser: Any, server: str, size: tuple[int, int]) -> None:
    host = new_page(browser, server, "房主", size)
    host.click("#c-ipwarn")
    host.click("#btn-create")
    host.wait_for_selector("#roomview:not(.hidden)")
    code = poll(host, "() => { const c = document.getElementById('room-code').textContent; return c.length >= 4 && c; }")
    sit(host, 0)
    add_bots(host, [2, 3], "random")
    guest = new_page(browser, server, "客人", size)
    guest.fill("#j-code", code)
    guest.click("#btn-join")
    guest.wait_for_selector("#roomview:not(.hidden)")
    guest.click('button[data-sit="1"]')
    guest.wait_for_selector('li.seat-row[data-seat="1"] >> text=★')
    guest.click('[data-testid="ready"]')
    host.wait_for_selector('li.seat-row[data-seat="1"] .b-seat-ready')
    poll(host, "() => !document.getElementById('btn-start').disabled")
    host.click("#btn-start")
    for p in (host, guest):
        p.wait_for_selector("#netwarn:not(.hidden)")
        words = p.inner_text("#netwarn-text")
        assert "房主" in words and "客人" in words and "同一地址" in words, words
        assert "127.0.0.1" not in words
    assert guest.is_hidden("#netwarn-go") and host.is_visible("#netwarn-go")
    host.locator("#netwarn").scroll_into_view_if_needed()
    host.screenshot(path=str(screens_dir() / f"netwarn-{size[0]}x{size[1]}.png"))
    assert overflow_x(host) <= 0
    host.click("#netwarn-go")
    for p in (host, guest):
        p.wait_for_selector("#game:not(.hidden)")
        assert not p.errors, p.errors
        assert not p.evaluate("window.__csp"), p.evaluate("window.__csp")
