"""Chat at the seat (issue 21): a seated speaker's message shows as a bubble by its own name
plate on the table — as text, over no tile of the own hand, the melds, the rivers or the
centre — and fades after a few seconds; the chat log keeps it. Real server, the system
Chromium, phone portrait and landscape."""

from __future__ import annotations

from typing import Any

import pytest

from support.webhelpers import new_page, poll, screens_dir, start_table

pytestmark = [pytest.mark.browser, pytest.mark.slow]

HOSTILE = "<b>胡了</b> 大家好"


@pytest.mark.parametrize("size", [(390, 844), (844, 390)])
def test_a_message_shows_by_the_speakers_plate(browser: Any, server: str, size: tuple[int, int]) -> None:
    page = new_page(browser, server, "冒泡", size=size)
    start_table(page, seat=0, level="random", hands=1)
    page.click("#btn-chat-open")
    page.fill("#chat-input", HOSTILE)
    page.keyboard.press("Enter")
    page.click('[data-close="sheet-chat"]')
    got = poll(page, """() => {
        const b = document.querySelector('#table .seat.pos-bottom [data-testid="chat-bubble"]');
        if (!b || !b.classList.contains('placed') || +getComputedStyle(b).opacity < 0.5) return null;
        const r = b.getBoundingClientRect(), p = b.parentElement.querySelector('.plate').getBoundingClientRect();
        const blockers = [...document.querySelectorAll('#hand .tile, .meld, .river .tile, .ctile .tile, #table .plate')]
          .map(e => e.getBoundingClientRect())
          .filter(x => x.width && Math.min(x.right, r.right) > Math.max(x.left, r.left)
                       && Math.min(x.bottom, r.bottom) > Math.max(x.top, r.top));
        return {text: b.textContent, html: b.innerHTML, overlaps: blockers.length,
                inside: r.left >= 0 && r.right <= innerWidth && r.top >= 0 && r.bottom <= innerHeight,
                dist: Math.hypot((r.left + r.right - p.left - p.right) / 2, (r.top + r.bottom - p.top - p.bottom) / 2)};
    }""")
    assert got["text"] == HOSTILE and "<b>" not in got["html"]  # text, never HTML
    assert got["overlaps"] == 0 and got["inside"], got
    assert got["dist"] < max(size) * 0.6, got  # by the speaker's own plate, not across the table
    page.screenshot(path=str(screens_dir() / f"chat-bubble-{size[0]}x{size[1]}.png"))
    assert HOSTILE in page.text_content("#chatlog")
    # it fades: gone after its few seconds
    poll(page, """() => { const b = document.querySelector('#table .seat.pos-bottom [data-testid="chat-bubble"]');
                          return b && +getComputedStyle(b).opacity === 0; }""", timeout=15)
    assert page.errors == []  # type: ignore[attr-defined]
    page.context.close()


def test_an_emote_shows_its_picture_by_the_plate(browser: Any, server: str) -> None:
    """An emote at the table shows its picture by the sender's plate (it said "[气死了]", in
    Chinese on an English page too), whole and over nothing of the table."""
    page = new_page(browser, server, "表情", size=(844, 390))
    start_table(page, seat=0, level="random", hands=1)
    page.click("#btn-chat-open")
    page.click('#emotes button[data-emote="qi"]')
    page.click('[data-close="sheet-chat"]')
    got = poll(page, """() => {
        const b = document.querySelector('#table .seat.pos-bottom [data-testid="chat-bubble"]');
        const i = b && b.querySelector('img.emote[data-emote="qi"]');
        if (!i || !i.complete || !i.naturalWidth || !b.classList.contains('placed') || +getComputedStyle(b).opacity < 0.5) return null;
        const r = b.getBoundingClientRect();
        const blockers = [...document.querySelectorAll('#hand .tile, .meld, .river .tile, .ctile .tile, #table .plate')]
          .map(e => e.getBoundingClientRect())
          .filter(x => x.width && Math.min(x.right, r.right) > Math.max(x.left, r.left)
                       && Math.min(x.bottom, r.bottom) > Math.max(x.top, r.top));
        return {text: b.textContent, alt: i.alt, w: i.getBoundingClientRect().width, overlaps: blockers.length,
                inside: r.left >= 0 && r.right <= innerWidth && r.top >= 0 && r.bottom <= innerHeight};
    }""")
    assert got["text"] == "" and got["alt"] == "气死了" and got["w"] >= 30, got
    assert got["overlaps"] == 0 and got["inside"], got
    page.screenshot(path=str(screens_dir() / "chat-bubble-emote-844x390.png"))
    assert page.errors == []  # type: ignore[attr-defined]
    page.context.close()
