"""A phone held sideways (844×390), English, hints on — or the replay beside its 复盘 panel: the
side seats' badges (Dealer, the 番 badge) stay inside their plates. Found by playing it (stop
48): the hint column narrows the side columns, and "0 fan · unopened" (~107 px) ran out of the
right seat's 101 px plate under the column — "Deale" and "0 fan · unopen" cut by it (the
plate's own box, which the layout tests measure, stayed clear); beside the 复盘 panel the
plates are 81 px and both side badges ran 34 px out. As on a phone ≤380 px high, the side
plates show the 番 alone, the whole words in the badge's title.

A real `laizi serve`, the system Chromium: a seated player with three bots at the deal (every
seat "0 fan · unopened"); the right seat is the dealer's 下家, so the deal is looked at once as
dealer (seat 0: no side Dealer badge) and once from seat 3 (the dealer on the right). Then a
four-bot match's replay at its first step with the 复盘 panel open (?review=0; the panel stands
beside the table from the start, while the review is still being built)."""

from __future__ import annotations

from typing import Any

import pytest

from support.webhelpers import (
    HINT_BLOCKERS,
    HINT_COVERS,
    bot_match,
    new_page,
    poll,
    screens_dir,
    start_table,
)

pytestmark = pytest.mark.browser

SIZE = (844, 390)

# Every badge of the side seats' plates: its words, what is shown, its box against its plate's.
BADGES = """root => [...document.querySelectorAll(`${root} .seat.pos-left .plate .badge, ${root} .seat.pos-right .plate .badge`)]
  .filter(e => e.getBoundingClientRect().width > 0).map(e => {
    const r = e.getBoundingClientRect(), p = e.closest('.plate').getBoundingClientRect();
    return { cls: e.className, text: e.textContent, title: e.title, shown: e.innerText,
             l: r.left, r: r.right, pl: p.left, pr: p.right };
  })"""


# ... once both side seats' 番 badges show
TWO = f"root => {{ const b = ({BADGES})(root); return b.filter(x => x.cls.includes('b-fan')).length === 2 && b; }}"


def _inside(badges: list[dict[str, Any]]) -> None:
    for b in badges:
        assert b["l"] >= b["pl"] - 0.5 and b["r"] <= b["pr"] + 0.5, f"{b['text']!r} runs out of its plate: {b}"
        if "b-fan" in b["cls"]:  # the whole words stay in the badge's title
            assert " fan · " in b["text"] and b["title"] == b["text"], b


@pytest.mark.parametrize("seat", [0, 3])
def test_side_badges_stay_in_their_plates_beside_the_hint_column(browser: Any, server: str, seat: int) -> None:
    page = new_page(browser, server, "Side badges", size=SIZE)
    try:
        page.click("#langbtn")
        poll(page, "() => document.documentElement.lang === 'en'")
        page.fill("#c-turn", "120")
        start_table(page, seat=seat, level="greedy", hands=1)
        page.click("#btn-hints")
        poll(page, "() => document.getElementById('game').classList.contains('has-hint')")
        badges = poll(page, TWO, "#game")
        page.screenshot(path=str(screens_dir() / f"hint-side-badges-seat{seat}-{SIZE[0]}x{SIZE[1]}.png"))
        if seat == 3:
            assert any("b-dealer" in b["cls"] for b in badges), badges  # the dealer sits on the right
        _inside(badges)
        if page.locator("#hintbox:not(.hidden)").count():
            assert page.evaluate(HINT_COVERS, HINT_BLOCKERS) == []
        assert page.errors == []  # type: ignore[attr-defined]
        assert page.evaluate("window.__csp") == []
    finally:
        page.context.close()


def test_side_badges_stay_in_their_plates_beside_the_review_panel(browser: Any, server: str) -> None:
    mid = bot_match(server, hands=1, level="greedy")[1]
    page = new_page(browser, server, size=SIZE)
    try:
        page.click("#langbtn")
        poll(page, "() => document.documentElement.lang === 'en'")
        page.goto(f"{server}/replay/{mid}?review=0")
        poll(page, "() => document.body.classList.contains('reviewing')"
                   " && document.querySelectorAll('#rp-table .tile').length > 13")
        badges = poll(page, TWO, "#rp-table")
        page.screenshot(path=str(screens_dir() / f"review-side-badges-{SIZE[0]}x{SIZE[1]}.png"))
        _inside(badges)
        assert page.errors == []  # type: ignore[attr-defined]
        assert page.evaluate("window.__csp") == []
    finally:
        page.context.close()
