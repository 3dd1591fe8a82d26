"""A refusal during play is said at the table. ``#error`` sat inside the lobby's pages, hidden
while the table shows: a chat line over the limit (``chat_rate``) was dropped without a word,
and a refused 再来一局 too (found by playing it, stop 48). Races of a move (a tap as the turn
passed) stay unsaid: the table already shows what is true. A real ``laizi serve``, the
system Chromium, a phone held sideways."""

from __future__ import annotations

from typing import Any

import pytest

from support.webhelpers import new_page, poll, start_table

pytestmark = pytest.mark.browser

SHOWN = """() => { const e = document.getElementById('error'), r = e.getBoundingClientRect();
  return !e.classList.contains('hidden') && r.width > 0 && r.top >= 0 && r.right <= innerWidth
    && r.left >= 0 ? e.dataset.code : null; }"""


def test_a_chat_over_the_limit_is_said_at_the_table(browser: Any, server: str) -> None:
    page = new_page(browser, server, "话多", size=(844, 390))
    start_table(page, seat=0, level="greedy")
    assert page.is_visible("#game")
    page.click("#btn-chat-open")
    for i in range(8):  # the limit: 5 lines in its window (docs/security.md)
        page.fill("#chat-input", f"第{i}句")
        page.keyboard.press("Enter")
        if page.evaluate("() => document.getElementById('error').dataset.code") == "chat_rate":
            break
    assert poll(page, SHOWN) == "chat_rate"
    assert page.is_visible("#error") and "发言太频繁" in page.inner_text("#error")
    assert page.is_visible("#game")  # said over the table, not after it
    assert page.errors == []
    page.context.close()
