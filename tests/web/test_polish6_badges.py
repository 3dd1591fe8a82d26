"""The side seats' 番 badges in English on a phone held upright (390×844): one line, inside the
seat's plate, on the replay page and on the live table, with the whole words ("1 fan · opened")
in the badge's title; the own seat's badge keeps its whole words on screen.

Before the fix: "1 fan · unopened" broke onto two lines ("1 fan · / unopened") in the 52 px side
plates of both (tests/web/test_replay_layout.py checked only the Chinese badges).

A real `laizi serve`, a four-bot match played to its end over the WebSocket protocol (the
replay) and a seated player with three bots (the live table), the system Chromium. Screenshots go
to screens_dir()."""

from __future__ import annotations

from typing import Any

import pytest

from support.webhelpers import bot_match, new_page, poll, screens_dir, start_table

pytestmark = [pytest.mark.browser, pytest.mark.slow]

SIZE = (390, 844)

# Each side seat's 番 badge (under `root`): its text, its title, what is shown of it, its height
# against its line height, and its box against its plate's.
BADGES = """root => [...document.querySelectorAll(`${root} .seat.pos-left .b-fan, ${root} .seat.pos-right .b-fan`)].map(e => {
  const r = e.getBoundingClientRect(), p = e.closest('.plate').getBoundingClientRect(), cs = getComputedStyle(e);
  return { text: e.textContent, title: e.title, shown: e.innerText, h: r.height, line: parseFloat(cs.lineHeight),
           l: r.left, r: r.right, pl: p.left, pr: p.right };
})"""


def _english(page: Any) -> None:
    page.click("#langbtn")
    poll(page, "() => document.documentElement.lang === 'en'")


def _one_line(badges: list[dict[str, Any]], when: str) -> None:
    assert len(badges) == 2, f"{when}: {badges}"
    for b in badges:
        assert b["h"] <= 1.5 * b["line"], f"{when}: {b['text']!r} on more than one line: {b}"
        assert b["l"] >= b["pl"] - 0.5 and b["r"] <= b["pr"] + 0.5, f"{when}: {b['text']!r} wider than its plate: {b}"
        # the whole words stay in the badge (its title) when the plate shows the 番 alone
        assert " fan · " in b["text"] and b["title"] == b["text"], f"{when}: {b}"
        assert b["shown"].strip().endswith("fan") or b["shown"] == b["text"], f"{when}: {b}"


def test_replay_side_badges_one_line_in_english(browser: Any, server: str) -> None:
    mid = bot_match(server, hands=1, level="greedy")[1]
    page = new_page(browser, server, size=SIZE)
    _english(page)
    page.goto(f"{server}/replay/{mid}")
    poll(page, "() => document.querySelectorAll('#rp-table .tile').length > 13")
    _one_line(poll(page, BADGES, "#rp-table"), "first step")
    page.click("#rp-last")
    poll(page, """() => { const b = document.querySelector('[data-testid="replay-settle"]');
        return b && !b.classList.contains('hidden'); }""")
    page.click('[data-testid="replay-settle-close"]')
    poll(page, "() => document.querySelector('[data-testid=\"replay-settle\"]').classList.contains('hidden')")
    _one_line(poll(page, BADGES, "#rp-table"), "last step")
    # the widest: two-digit 番 and the longer standing
    page.evaluate("""() => { for (const e of document.querySelectorAll('#rp-table .seat.pos-right .b-fan .fan-n'))
        e.textContent = e.textContent.replace(/^\\d+/, "12"); }""")
    wide = page.evaluate(BADGES, "#rp-table")
    right = [b for b in wide if b["text"].startswith("12")]
    assert right and all(b["h"] <= 1.5 * b["line"] and b["r"] <= b["pr"] + 0.5 for b in right), wide
    page.screenshot(path=str(screens_dir() / "polish6-replay-badges-en-390x844.png"))
    assert page.errors == []  # type: ignore[attr-defined]
    assert page.evaluate("window.__csp") == []
    page.context.close()


def test_live_table_side_badges_one_line_in_english(browser: Any, server: str) -> None:
    page = new_page(browser, server, "Badge check", size=SIZE)
    _english(page)
    start_table(page, seat=0, level="greedy")
    _one_line(poll(page, BADGES, "#game"), "the deal")
    # the own seat's badge: the whole words on screen
    own = page.inner_text('#game .seat.pos-bottom .b-fan')
    assert own.endswith("fan · unopened") or own.endswith("fan · opened"), own
    page.screenshot(path=str(screens_dir() / "polish6-table-badges-en-390x844.png"))
    assert page.errors == []  # type: ignore[attr-defined]
    assert page.evaluate("window.__csp") == []
    page.context.close()
