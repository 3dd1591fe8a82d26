"""Emotes in the chat sheet (issue 26): a player at a table taps an emote; the other
player's chat log shows its picture (the project's SVG, its name as text alternative), and
the Wuhan phrases are among the quick phrases. Real server, the system Chromium, a phone
sideways and upright (screenshots looked at)."""

from __future__ import annotations

from typing import Any

import pytest

from support.webhelpers import new_page, overflow_x, poll, screens_dir

pytestmark = [pytest.mark.browser, pytest.mark.slow]


@pytest.mark.parametrize("size", [(844, 390), (390, 844)])
def test_an_emote_reaches_the_other_player(browser: Any, server: str, size: tuple[int, int]) -> None:
    host = new_page(browser, server, "甲", size)
    host.click("#btn-create")
    host.wait_for_selector("#roomview:not(.hidden)")
    code = poll(host, "() => { const c = document.getElementById('room-code').textContent; return c.length >= 4 && c; }")
    guest = new_page(browser, server, "乙", size)
    guest.fill("#j-code", code)
    guest.click("#btn-join")
    guest.wait_for_selector("#roomview:not(.hidden)")
    host.evaluate("() => document.getElementById('sheet-chat').classList.remove('hidden')")
    host.wait_for_selector('#emotes button[data-emote="zan"]')
    assert host.locator("#emotes button").count() == 6
    assert "你蛮狠咧！" in host.inner_text("#phrases")
    host.click('#emotes button[data-emote="zan"]')
    got = poll(guest, """() => { const i = document.querySelector('#chatlog img.emote[data-emote="zan"]');
        return i && i.complete && i.naturalWidth > 0 ? i.alt : null; }""")
    assert got == "赞"
    host.wait_for_selector('#chatlog img.emote[data-emote="zan"]')
    host.screenshot(path=str(screens_dir() / f"emotes-{size[0]}x{size[1]}.png"))
    assert overflow_x(host) <= 0
    for p in (host, guest):
        assert not p.errors, p.errors
        assert not p.evaluate("window.__csp"), p.evaluate("window.__csp")
