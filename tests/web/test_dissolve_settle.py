"""解散 shown right (issue 26): a player alone with bots ends the match from the table menu
(申请解散; the only human's agreement is everyone's). The settlement says 牌局解散, not
荒庄, and the match result says the match was ended by vote — and again after a reload (the
client reconnects and rebuilds the panels from the server's frame alone). Real server, the
system Chromium, a phone held sideways and upright."""

from __future__ import annotations

import re
from typing import Any

import pytest

from support.webhelpers import act_once, new_page, overflow_x, poll, screens_dir, start_table

pytestmark = [pytest.mark.browser, pytest.mark.slow]

SETTLE = """() => { const l = document.querySelector('#hand-result + .settle-line');
    const m = document.querySelector('[data-testid="match-dissolved"]');
    const s = document.getElementById('settlement');
    return l && m && !s.classList.contains('hidden') ? [l.textContent, m.textContent] : null; }"""

STATE = """() => ({settlement: document.getElementById('settlement').className,
    settle: document.getElementById('settlement').textContent.slice(0, 120),
    menu: document.getElementById('sheet-menu').className,
    dissolveBar: document.getElementById('dissolve-bar').textContent,
    toast: document.getElementById('toast').textContent, error: document.getElementById('error').textContent,
    body: {...document.body.dataset}})"""


@pytest.mark.parametrize("size", [(844, 390), (390, 844)])
def test_dissolved_settlement_survives_a_reload(browser: Any, server: str, size: tuple[int, int]) -> None:
    page = new_page(browser, server, "解散者", size=size)
    start_table(page, seat=0, level="random", hands=4)
    for _ in range(40):  # a move or two of the first hand
        if act_once(page, take_claims=False) == "discard":
            break
        page.wait_for_timeout(100)
    page.click("#btn-menu")
    page.click("#btn-dissolve")
    try:
        line, match = poll(page, SETTLE, timeout=20)
    except AssertionError:  # (a CI run once waited 20 s in vain here, upright: what the page had)
        raise AssertionError(f"no dissolved settlement; the page: {page.evaluate(STATE)}; its sockets: "
                             f"{page.sockets}") from None
    assert line == "牌局解散（本局不计分）" and "荒庄" not in line
    assert match == "牌局已解散：已打完的局分数保留"
    assert overflow_x(page) <= 0
    page.screenshot(path=str(screens_dir() / f"dissolved-settlement-{size[0]}x{size[1]}.png"))
    page.reload()  # a reconnect: only the server's frame tells why the hand had no win
    line, match = poll(page, SETTLE, timeout=20)
    assert line == "牌局解散（本局不计分）" and match.startswith("牌局已解散")
    assert not page.errors, page.errors
    assert not page.evaluate("window.__csp"), page.evaluate("window.__csp")
    # the dissolved hand had no winner: its 晒 link says so in the page's language (the server's
    # refusal is coded, hand_not_won; the page showed "hand 1 was not won (a draw): no card")
    mid = re.search(r"/replay/(\d+)", page.get_attribute("#btn-card", "href") or "")
    assert mid, page.get_attribute("#btn-card", "href")
    page.goto(f"{server}/replay/{mid.group(1)}?hand=1&card=hand")
    said = poll(page, "() => { const e = document.getElementById('card-status');"
                      " return e && e.textContent.length > 1 ? e.textContent : null; }")
    assert "没有人胡牌" in said and "not won" not in said, said
    assert overflow_x(page) <= 0  # the words alone: no empty picture to download, no link to share
    assert page.is_hidden("#card-img") and page.is_hidden("#card-download") and page.is_hidden("#card-copy")
    assert page.is_visible("#card-close")
    page.screenshot(path=str(screens_dir() / f"hand-card-refused-{size[0]}x{size[1]}.png"))
    assert not page.errors, page.errors
