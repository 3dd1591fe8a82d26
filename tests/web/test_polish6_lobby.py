"""The lobby's links under the greeting (新手教程, 玩法说明, 比赛 →, 亲友圈 →) on a phone held upright
(390×844), in Chinese and English: the tutorial button on a row of its own, the three links
together on the row under it (none alone on a line of its own), each whole (not cut, inside the
screen) and a finger's target (at least 36 px high and wide); held sideways (844×390) all four
stay on one row.

Before the fix: at 390×844 亲友圈 → wrapped alone onto a second line, and the three links were
24 px high lines of text.

A real `laizi serve`, the system Chromium. Screenshots go to screens_dir()."""

from __future__ import annotations

from typing import Any

import pytest

from support.webhelpers import new_page, overflow_x, poll, screens_dir

pytestmark = [pytest.mark.browser, pytest.mark.slow]

# Each link of the row: its text, box, and whether its words are cut (wider than its box).
LINKS = """() => [...document.querySelectorAll('#lobby .learn-links > a')].map(e => {
  const r = e.getBoundingClientRect();
  return { text: e.textContent.trim(), tutorial: e.classList.contains('tutorial-link'), l: r.left, t: r.top, r: r.right,
           b: r.bottom, w: r.width, h: r.height, cut: e.scrollWidth > e.clientWidth + 1 };
})"""


def _row_of(links: list[dict[str, Any]], top: float) -> list[str]:
    return [a["text"] for a in links if abs(a["t"] - top) < 4]


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_lobby_links_are_a_tidy_row(browser: Any, server: str, lang: str) -> None:
    for size in ((390, 844), (844, 390)):
        page = new_page(browser, server, size=size)
        if lang == "en":
            page.click("#langbtn")
            poll(page, "() => document.documentElement.lang === 'en'")
        links = poll(page, LINKS)
        assert len(links) == 4, links
        at = f"{lang} {size[0]}x{size[1]}"
        page.screenshot(path=str(screens_dir() / f"polish6-lobby-links-{lang}-{size[0]}x{size[1]}.png"))
        assert overflow_x(page) <= 0, at
        for a in links:
            assert a["l"] >= -0.5 and a["r"] <= size[0] + 0.5, f"{at}: {a} off the screen"
            assert not a["cut"], f"{at}: {a} cut"
            assert a["h"] >= 36 and a["w"] >= 36, f"{at}: {a} smaller than a finger"
        others = [a for a in links if not a["tutorial"]]
        rows = {round(a["t"]) for a in others}
        # the three links on one row (亲友圈 → was alone on a line of its own)
        assert len(_row_of(others, others[0]["t"])) == 3, f"{at}: the links on {len(rows)} rows: {links}"
        tutorial = next(a for a in links if a["tutorial"])
        if size[0] > size[1]:  # held sideways: all four on one row
            assert len(_row_of(links, tutorial["t"])) == 4, f"{at}: {links}"
        else:  # upright: the tutorial above them, the links spread over the width
            assert tutorial["b"] <= min(a["t"] for a in others) + 0.5, f"{at}: {links}"
            assert others[-1]["r"] - others[0]["l"] >= 0.6 * size[0], f"{at}: {links}"
        assert page.errors == []  # type: ignore[attr-defined]
        assert page.evaluate("window.__csp") == []
        page.context.close()


LEVELS = """() => { const b = [...document.querySelectorAll('#levels .level-btn')];
  return b.length ? b.map(e => { const r = e.getBoundingClientRect();
    return {top: r.top, bottom: r.bottom, h: innerHeight}; }) : null; }"""


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_quick_match_on_the_first_screen(browser: Any, server: str, lang: str) -> None:
    """快速开始's three tables lie on the lobby's first screen, held upright and sideways
    (TABLE.md: the lobby's first screen is its big buttons). At 844×390 they lay below the
    fold, under the intro line and the nickname (stop 51)."""
    for size in ((844, 390), (390, 844)):
        page = new_page(browser, server, size=size)
        if lang == "en":
            page.click("#langbtn")
            poll(page, "() => document.documentElement.lang === 'en'")
        page.evaluate("scrollTo(0, 0)")
        levels = poll(page, LEVELS)
        assert len(levels) == 3, levels
        for b in levels:
            assert b["top"] >= 0 and b["bottom"] <= b["h"], f"{lang} {size}: {levels} below the fold"
        page.screenshot(path=str(screens_dir() / f"lobby-first-screen-{lang}-{size[0]}x{size[1]}.png"))
        assert page.errors == []  # type: ignore[attr-defined]
        page.context.close()
