"""Two people at one table (two browser contexts, 844×390): the guest's 准备 enables the host's
开始, the settlement waits for both to press 继续 (the first one sees that it waits for the
other), and 再来一局 needs both (the host may restart at once)."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest

from support.webhelpers import (
    SIZES,
    act_once,
    add_bots,
    live_server,
    new_page,
    overflow_x,
    poll,
    screens_dir,
    sit,
)

pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.timeout(300)]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with live_server(tmp_path_factory.mktemp("flowtwo"), "--hand-pause", "1") as base:
        yield base


def _settled(page: Any) -> bool:
    return bool(page.locator('[data-testid="settlement"]:not(.hidden)').count())


def _play_until_settlement(pages: list[Any], seconds: float = 200) -> None:
    end = time.time() + seconds
    while not all(_settled(p) for p in pages):
        assert time.time() < end, "the hand did not finish"
        moved = False
        for p in pages:
            if not _settled(p) and act_once(p):
                moved = True
        if not moved:
            pages[0].wait_for_timeout(60)


def test_two_players_ready_continue_and_rematch(browser: Any, server: str) -> None:
    size = SIZES[0]
    host = new_page(browser, server, "房主", size)
    host.fill("#c-hands", "1")
    host.click("details.more summary")
    host.fill("#c-continue", "60")
    host.click("#btn-create")
    host.wait_for_selector("#roomview:not(.hidden)")
    code = poll(host, "() => { const c = document.getElementById('room-code').textContent; return c.length >= 4 && c; }")
    sit(host, 0)  # the creator sits by itself
    add_bots(host, [2, 3], "random")
    guest = new_page(browser, server, "客人", size)
    guest.fill("#j-code", code)
    guest.click("#btn-join")
    guest.wait_for_selector("#roomview:not(.hidden)")
    guest.click('button[data-sit="1"]')
    guest.wait_for_selector('li.seat-row[data-seat="1"] >> text=★')
    # the guest is not ready: the host cannot start
    host.wait_for_selector('li.seat-row[data-seat="1"] .b-seat-unready')
    assert host.locator("#btn-start").is_disabled()
    guest.click('[data-testid="ready"]')
    host.wait_for_selector('li.seat-row[data-seat="1"] .b-seat-ready')
    poll(host, "() => !document.getElementById('btn-start').disabled")
    host.screenshot(path=str(screens_dir() / "flow_ready_844x390.png"))
    host.click("#btn-start")
    for p in (host, guest):
        p.wait_for_selector("#game:not(.hidden)")
    _play_until_settlement([host, guest])
    # the match (one hand) is over: the result screen; 再来一局 needs both
    for p in (host, guest):
        p.wait_for_selector("#match-result")
        assert overflow_x(p) <= 0
    host.click('[data-testid="rematch"]')
    poll(host, "() => document.querySelector('[data-testid=\"rematch\"]').disabled")
    assert _settled(guest) and _settled(host)          # nothing started yet
    assert host.locator("#btn-rematch-force").is_visible()
    # the guest sees that the host agreed before agreeing itself (it saw a bare 再来一局)
    poll(guest, "() => document.querySelector('[data-testid=\"rematch\"]').textContent === '再来一局（1/2 人已同意）'")
    guest.click('[data-testid="rematch"]')
    for p in (host, guest):
        p.wait_for_selector('[data-testid="settlement"]', state="hidden")
        p.wait_for_selector("#hand .tile")
    assert host.errors == [] and guest.errors == []
    host.context.close()
    guest.context.close()


def test_settlement_waits_for_both(browser: Any, server: str) -> None:
    size = SIZES[0]
    host = new_page(browser, server, "甲", size)
    host.fill("#c-hands", "2")
    host.click("details.more summary")
    host.fill("#c-continue", "120")
    host.click("#btn-create")
    host.wait_for_selector("#roomview:not(.hidden)")
    code = poll(host, "() => { const c = document.getElementById('room-code').textContent; return c.length >= 4 && c; }")
    sit(host, 0)  # the creator sits by itself
    add_bots(host, [2, 3], "random")
    guest = new_page(browser, server, "乙", size)
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
        p.wait_for_selector("#game:not(.hidden)")
    # the dealer's (host, seat 0) countdown is public: the guest sees it on seat 0
    guest.wait_for_selector('[data-testid="seat-0"] .b-public')
    assert any(ch.isdigit() for ch in guest.inner_text('[data-testid="seat-0"] .b-public'))
    # and the host its own (waited for: the guest's page drawing it says nothing of the host's)
    host.wait_for_selector('[data-testid="seat-0"] .b-timer')
    assert host.locator('[data-testid="seat-0"] .b-timer').count() == 1
    _play_until_settlement([host, guest])
    host.click('[data-testid="continue"]')
    host.wait_for_timeout(2000)  # longer than --hand-pause: the guest has not pressed 继续
    assert _settled(host) and _settled(guest)
    assert host.locator('[data-testid="continue"]').is_disabled()
    assert "等待其他玩家" in host.inner_text("#settle-next")
    guest.click('[data-testid="continue"]')
    for p in (host, guest):
        p.wait_for_selector('[data-testid="settlement"]', state="hidden")
    assert host.errors == [] and guest.errors == []
    host.context.close()
    guest.context.close()
