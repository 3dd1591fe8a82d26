"""Another player's chat, the chat sheet closed: the words show once, in the bubble by the
speaker's plate (TABLE.md), and the 聊天 button counts them unread — not a second time in a toast.
Found by playing it (stop 48): every message also came as a toast in the middle of the table
(fixed at 30 % from the bottom: over the own river and the centre) while the bubble said it by
the plate.

A real `laizi serve`, the system Chromium: two players at one table with two bots, one on a
phone held upright and one held sideways; each says something, the other looks."""

from __future__ import annotations

from typing import Any

import pytest

from support.webhelpers import add_bots, create_room, join_seat, new_page, poll, screens_dir

pytestmark = pytest.mark.browser

SAID = "<b>过早</b> 了冇？"

# The bubble by seat `seat`'s plate, shown with `text`; and what the toast shows meanwhile.
SEEN = """([seat, text]) => {
  const b = document.querySelector(`#table .seat[data-seat="${seat}"] [data-testid="chat-bubble"]`);
  if (!b || !b.classList.contains('placed') || b.textContent !== text) return null;
  const t = document.getElementById('toast');
  return {toast: t.classList.contains('hidden') ? '' : t.textContent,
          unread: document.getElementById('btn-chat-open').dataset.unread || ''};
}"""


def _say(page: Any, text: str) -> None:
    page.click("#btn-chat-open")
    page.fill("#chat-input", text)
    page.keyboard.press("Enter")
    poll(page, "t => [...document.querySelectorAll('#chatlog div')].some(d => d.textContent.endsWith(t))", text)
    page.click('[data-close="sheet-chat"]')


def test_a_message_shows_once_by_the_speakers_plate(browser: Any, server: str) -> None:
    a = new_page(browser, server, "阿华", size=(390, 844))
    b = new_page(browser, server, "阿明", size=(844, 390))
    try:
        code = create_room(a, hands=1)
        join_seat(b, code, 2)
        add_bots(a, [1, 3], "greedy")
        b.click('[data-testid="ready"]')
        poll(a, "() => !document.getElementById('btn-start').disabled")
        a.click("#btn-start")
        for p in (a, b):
            p.wait_for_selector("#game:not(.hidden)")
            p.wait_for_selector("#hand .tile")
        for speaker, seat, listener, words in ((a, 0, b, SAID), (b, 2, a, "莫慌，稳到起")):
            _say(speaker, words)
            seen = poll(listener, SEEN, [seat, words])
            listener.screenshot(path=str(screens_dir() / f"chat-once-seat{seat}.png"))
            assert words not in seen["toast"], f"the words came twice, in a toast too: {seen}"
            assert seen["unread"] == "1", seen
            listener.click("#btn-chat-open")  # read: the count goes
            listener.click('[data-close="sheet-chat"]')
        for p in (a, b):
            assert p.errors == []  # type: ignore[attr-defined]
            assert p.evaluate("window.__csp") == []
    finally:
        for p in (a, b):
            p.context.close()
