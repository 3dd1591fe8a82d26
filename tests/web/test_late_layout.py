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
fixed deal "r22" (it ends drawn, the rivers 15-17 tiles long, ten melds on the table) to its end.
One hand for every case: the player's table is open in four pages (Chinese and English, hints off
and on: the same seat, support.webhelpers.same_player_page) whose frames are held back
(support.webhelpers.HeldFrames), so the table stands still at each moment looked at: every moment
the player has a move, and between two of them one moment of the bots' play (the right, top and
left seat's turn and a claim window among them, in turn; these were met by chance before, ~40 ms
after the player's move, and the left seat's turn is where the polish7 overlap showed). At each,
every page is turned to each of its sizes in turn (support.webhelpers.resize: this layout is all
CSS, so a page turned to a size lays out as one opened at it: compared once with pages opened at
those sizes, at each of the player's moves, every box the same). Tiles still dropping in are left
out (their animation moves them). Screenshots go to screens_dir()."""

from __future__ import annotations

import time
from typing import Any

import pytest

from support.webhelpers import (
    VERSION,
    HeldFrames,
    act_quick,
    new_page,
    resize_all,
    same_player_page,
    screens_dir,
    start_fixed_deal,
    table_regions,
    turned,
)

pytestmark = pytest.mark.browser

SEED = "r22"  # the long fixed deal of test_hint_layout.py: drawn, every river two rows or more



def hints_on(page: Any) -> None:
    page.click("#btn-menu")
    page.check("#hints-toggle")
    page.click('[data-close="sheet-menu"]')


LANDSCAPE, PORTRAIT = (844, 390), (390, 844)
SMALL, SHORT = (667, 375), (740, 360)  # small phones sideways: the hint column's room, the centre's height
# (size, hints, language): (English: longer words, a wider HUD)
CASES = [(LANDSCAPE, False, "zh"), (LANDSCAPE, True, "zh"), (PORTRAIT, False, "zh"), (PORTRAIT, True, "zh"),
         (LANDSCAPE, False, "en"), (PORTRAIT, True, "en"),
         (SMALL, True, "zh"), (SMALL, True, "en"), (SHORT, False, "en"), (SHORT, True, "zh")]


class Case:
    """One (size, hints, language): what was seen at that size on its page."""

    def __init__(self, size: tuple[int, int], hints: bool, lang: str) -> None:
        self.size, self.hints, self.lang = size, hints, lang
        self.tag = f"{size[0]}x{size[1]}_{'hints' if hints else 'nohints'}_{lang}"
        self.checked = 0
        self.last: dict[str, Any] | None = None
        self.problems: dict[str, str] = {}  # each problem seen: where, and the rivers' lengths, when first seen

    def look(self, page: Any, shoot: bool) -> None:
        """The boxes at this moment; ``shoot``: a picture of the table too if it is late in the
        hand (at the player's moves: the last one the hand's end, as it is last seen)."""
        now = table_regions(page, note=True)  # (one evaluation: the hand may end between two)
        if now is None or now["hints"] != self.hints:
            return
        for b in now["bad"]:
            # (the hand is played to its end whatever is seen: the report lists every problem)
            if not self.problems:
                page.screenshot(path=str(screens_dir() / f"late-overlap_{self.tag}.png"))
            what, _, where = b.partition(": ")
            self.problems.setdefault(what, f"{where} (rivers {now['rivers']})")
        if self.last is None or sum(now["rivers"]) >= sum(self.last["rivers"]):
            self.last = now
            if shoot and min(now["rivers"]) >= 12:  # (the table late in the hand, as it is last seen)
                page.screenshot(path=str(screens_dir() / f"late-table_{self.tag}.png"))
        self.checked += 1

    def failures(self) -> list[str]:
        if self.problems:
            return [f"{self.tag}: " + "; ".join(f"{k}: {v}" for k, v in self.problems.items())]
        last = self.last
        # the deal did what it is here for: checked late, with long rivers and many melds
        if last is None or self.checked < 10:
            return [f"{self.tag}: checked at {self.checked} moments"]
        if not (min(last["rivers"]) >= 14 and max(last["rows"]) >= 3 and last["melds"] >= 8):
            return [f"{self.tag}: not checked late enough: {last}"]
        return []


# The moments the hand is held at (the pages' frames held back, support.webhelpers.HeldFrames):
# every moment the player has a move (its turn, a claim to take or pass), and between two of them
# one moment of the bots' play, in turn the right seat's turn, the top seat's, the left seat's
# (its plate with the turn's timer: polish7) and a claim window among them (the claim card).
BETWEEN = ["right", "top", "left", "claim"]
STOP = """target => {
  if (document.querySelector('[data-testid="settlement"]:not(.hidden)')) return "over";
  if (document.querySelector('[data-testid="cancel-auto"], #actions button, #hand .tile.clickable')) return "move";
  if (target === "claim" ? document.querySelector('#game .claim:not(.hidden)')
      : target && document.querySelector(`#game .seat.pos-${target}.turn`)) return target;
  return null;
}"""


def test_nothing_overlaps_late_in_a_long_hand(browser: Any, server: str) -> None:
    """Every case in one hand: a page a (hints, language), each turned through its sizes."""
    cases = [Case(*c) for c in CASES]
    views: list[tuple[Any, list[Case]]] = []  # the seat's pages: (zh, en) × (hints off, on)
    gates: list[HeldFrames] = []

    def gated(p: Any) -> None:
        gates.append(HeldFrames(p))

    for lang in ("zh", "en"):
        for hints in (False, True):
            mine = [c for c in cases if (c.lang, c.hints) == (lang, hints)]
            if not views:
                page = new_page(browser, server, "长局检查员", size=mine[0].size, setup=gated)
                code = start_fixed_deal(page, SEED, lang=lang, turn=90, seat=0, level="greedy", hands=1)
            else:
                page = same_player_page(browser, views[0][0], server, code, mine[0].size, lang, setup=gated)
            if hints:
                hints_on(page)
            views.append((page, mine))
    main, held = views[0][0], gates[0]  # (the page that plays)

    def look(shoot: bool) -> None:  # every case at this moment: each page at this version, turned through its sizes
        v = main.evaluate(VERSION)
        for gate in gates:
            gate.catch_up(v)
        turns = [(page, {c.size: c for c in mine}) for page, mine in views]
        turns = [(page, turned(page, list(by_size)), by_size) for page, by_size in turns]
        for i in range(max(len(sizes) for _, sizes, _ in turns)):  # the pages turned together
            now = [(page, sizes[i], by_size[sizes[i]]) for page, sizes, by_size in turns if i < len(sizes)]
            resize_all([(page, size) for page, size, _ in now])
            for page, _, case in now:
                case.look(page, shoot)

    for gate in gates:
        gate.hold()
    deadline = time.time() + 240
    at, k = held.step_until(STOP), 0  # (the dealer's first turn)
    while at != "over":
        assert time.time() < deadline, "the hand did not end"
        look(at == "move")
        if at == "move":
            while act_quick(main) is None:  # (a tap that missed: the table, held, still waits)
                assert time.time() < deadline, "no move made"
            at, k = held.step_until(STOP, BETWEEN[k % len(BETWEEN)], now=False), k + 1
        else:  # on to the player's next move
            at = held.step_until(STOP, now=False)
    for gate in gates:
        gate.hold(False)
    failures = [f for c in cases for f in c.failures()]
    assert not failures, "\n".join(failures)
    for c in cases:
        assert c.last is not None
        print(f"{c.tag}: checked at {c.checked} moments; last rivers {c.last['rivers']} "
              f"({c.last['rows']} rows), {c.last['melds']} melds")
    for page, _ in views:
        assert not page.errors
    for page, _ in views:
        page.context.close()
