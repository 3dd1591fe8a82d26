"""Mute and report in the chat sheet (issue 26): two players at a table. The guest mutes the
host from the chat sheet: what the host said is hidden at once, what the host says next
never arrives; the host still reads the guest. Unmute shows the host's new words again.
The guest reports the host (a reason and words with markup, sent as text): the server
answers that it is stored (the API's own checks: tests/server/test_etiquette.py). Real server, the system Chromium, a phone sideways and upright."""

from __future__ import annotations

from typing import Any

import pytest

from support.webhelpers import add_bots, new_page, overflow_x, poll, screens_dir, sit

pytestmark = [pytest.mark.browser, pytest.mark.slow]

LINES = """() => [...document.querySelectorAll('#chatlog div')]
    .filter(d => !d.classList.contains('hidden')).map(d => d.textContent)"""


def _say(page: Any, text: str) -> None:
    page.fill("#chat-input", text)
    page.click("#btn-chat")


@pytest.mark.parametrize("size", [(844, 390), (390, 844)])
def test_mute_and_report_from_the_chat_sheet(browser: Any, server: str, size: tuple[int, int]) -> None:
    host = new_page(browser, server, "房主", size)
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
    host.click("#btn-start")
    for p in (host, guest):
        p.wait_for_selector("#game:not(.hidden)")
        p.click("#btn-chat-open")
        p.wait_for_selector("#sheet-chat:not(.hidden)")
    _say(host, "大家好")
    poll(guest, "() => document.getElementById('chatlog').textContent.includes('大家好')")
    guest.wait_for_selector('#chat-people .chat-person[data-player] >> text=房主')
    assert guest.locator("#chat-people .chat-person").count() == 1  # bots and oneself are not listed
    guest.click('#chat-people button[data-k="mute"]')
    guest.wait_for_selector('#chat-people button[data-k="mute"] >> text=取消屏蔽')
    assert not any("大家好" in x for x in guest.evaluate(LINES))  # hidden at once
    _say(host, "你打得真慢")
    _say(guest, "不理你")
    poll(host, "() => document.getElementById('chatlog').textContent.includes('不理你')")
    guest.wait_for_timeout(300)
    assert "你打得真慢" not in guest.inner_text("#chatlog")  # never delivered
    # report, with words that look like markup
    guest.click('#chat-people button[data-k="report"]')
    guest.select_option("#report-reason", "abuse")
    guest.fill("#report-text", "<b>骂人</b>")
    guest.screenshot(path=str(screens_dir() / f"etiquette-chat-{size[0]}x{size[1]}.png"))
    assert overflow_x(guest) <= 0
    guest.click('#chat-people button[data-k="report_send"]')
    poll(guest, "() => document.getElementById('toast').textContent.startsWith('已举报')")
    assert not guest.locator('[data-testid="report-form"]').count()
    # the same report again: refused, in the page's language (it showed the server's English)
    guest.click('#chat-people button[data-k="report"]')
    guest.select_option("#report-reason", "abuse")
    guest.click('#chat-people button[data-k="report_send"]')
    poll(guest, "() => document.getElementById('toast').textContent.includes('已经在这一桌举报过')")
    assert "already" not in guest.inner_text("#toast")
    if guest.locator('[data-testid="report-form"]').count():  # (the form stays open to change it)
        guest.click('#chat-people button[data-k="report"]')
    # unmute: the host's next words arrive
    guest.click('#chat-people button[data-k="mute"]')
    guest.wait_for_selector('#chat-people button[data-k="mute"] >> text=屏蔽')
    _say(host, "好吧")
    poll(guest, "() => document.getElementById('chatlog').textContent.includes('好吧')")
    for p in (host, guest):
        assert not p.errors, p.errors
        assert not p.evaluate("window.__csp"), p.evaluate("window.__csp")
