"""The table late in a hand on a phone (ui33): with the rivers long (15+ tiles a seat) and melds at
every seat, the centre box (wall count, 翻牌, 赖子, the last move, the fixed-deal note), the four
rivers, the four name plates, the other seats' hidden tiles and melds, the status line, the HUD
buttons, the own hand and (hints on) the hint panel never overlap and all stay on the screen —
at 844×390 and 390×844, hints on and off, in Chinese (and two cases in English), and on small
phones sideways (667×375 with hints, 740×360); the fixed-deal note is shown whole (it was cut
with … at 844×390; beside the hint column on a small phone, in its short form).

Before the fix: at 844×390 the centre ran over the top and bottom rivers from the middle of a hand
on and, hints off, the top seat's hidden tiles ran under the status line; at 390×844 with hints on
the centre ran over the rivers once they had three rows; in English the status line ran over the
HUD's 公平性 (Fairness) button at 390×844. At 740×360 in English the centre (with the fixed-deal
note on two lines) ran over the top and bottom rivers, and at 667×375 with hints (the note on
three lines, the wall count on four) too; at 667×375 with hints the left seat, on its turn (the
plate's timer), stood taller than its rows and ran up over the top seat's melds (polish7).

A real `laizi serve`, the system Chromium, a seated player with three greedy bots playing the long
fixed deal "r22" (it ends drawn, the rivers 15-17 tiles long, ten melds on the table) to its end;
the boxes are read at every moment the table waits for a move (tiles still dropping in are left
out of that moment: their animation moves them). Screenshots go to screens_dir()."""

from __future__ import annotations

import time
from typing import Any

import pytest

from support.webhelpers import act_once, new_page, screens_dir, start_fixed_deal, table_regions

pytestmark = pytest.mark.browser

SEED = "r22"  # the long fixed deal of test_hint_layout.py: drawn, every river two rows or more



def hints_on(page: Any) -> None:
    page.click("#btn-menu")
    page.check("#hints-toggle")
    page.click('[data-close="sheet-menu"]')


LANDSCAPE, PORTRAIT = (844, 390), (390, 844)
SMALL, SHORT = (667, 375), (740, 360)  # small phones sideways: the hint column's room, the centre's height
CASES = [(LANDSCAPE, False, "zh"), (LANDSCAPE, True, "zh"), (PORTRAIT, False, "zh"), (PORTRAIT, True, "zh"),
         (LANDSCAPE, False, "en"), (PORTRAIT, True, "en"),  # (English: longer words, a wider HUD)
         (SMALL, True, "zh"), (SMALL, True, "en"), (SHORT, False, "en"), (SHORT, True, "zh")]
NAMES = {LANDSCAPE: "landscape", PORTRAIT: "portrait", SMALL: "667x375", SHORT: "740x360"}


@pytest.mark.parametrize(("size", "hints", "lang"), CASES,
                         ids=[f"{NAMES[s]}-hints-{'on' if h else 'off'}-{lang}" for s, h, lang in CASES])
def test_nothing_overlaps_late_in_a_long_hand(browser: Any, server: str, size: tuple[int, int],
                                              hints: bool, lang: str) -> None:
    tag = f"{size[0]}x{size[1]}_{'hints' if hints else 'nohints'}_{lang}"
    page = new_page(browser, server, "长局检查员", size=size)
    start_fixed_deal(page, SEED, lang=lang, turn=90, seat=0, level="greedy", hands=1)
    if hints:
        hints_on(page)
    checked, last = 0, None
    problems: dict[str, str] = {}  # each problem seen: where, and the rivers' lengths, when first seen
    deadline = time.time() + 240
    while not page.locator('[data-testid="settlement"]:not(.hidden)').count():
        assert time.time() < deadline, "the hand did not end"
        now = table_regions(page, note=True)  # (one evaluation: the hand may end between two)
        if now is not None and now["hints"] == hints:
            for b in now["bad"]:
                # (the hand is played to its end whatever is seen: the report lists every problem)
                if not problems:
                    page.screenshot(path=str(screens_dir() / f"late-overlap_{tag}.png"))
                what, _, where = b.partition(": ")
                problems.setdefault(what, f"{where} (rivers {now['rivers']})")
            if last is None or sum(now["rivers"]) >= sum(last["rivers"]):
                last = now
                if min(now["rivers"]) >= 12:  # (the table late in the hand, as it is last seen)
                    page.screenshot(path=str(screens_dir() / f"late-table_{tag}.png"))
            checked += 1
        act_once(page)
        page.wait_for_timeout(40)
    assert not problems, "\n".join(f"{k}: {v}" for k, v in problems.items())
    # the deal did what it is here for: checked late, with long rivers and many melds
    assert last is not None and checked >= 10, checked
    assert min(last["rivers"]) >= 14 and max(last["rows"]) >= 3 and last["melds"] >= 8, last
    print(f"{tag}: checked at {checked} moments; last rivers {last['rivers']} "
          f"({last['rows']} rows), {last['melds']} melds")
    assert not page.errors
    page.context.close()
