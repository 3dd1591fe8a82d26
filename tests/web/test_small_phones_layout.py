"""Small phones held sideways (667×375 with 智能提示 on, 740×360), the main phone sizes (844×390
sideways and 390×844 upright) and a laptop (1366×900), in Chinese and in English, hints on and off,
with the own hand ready (layout7): the own 听 line (its waits, unseen counts, points, 够番), the table's
regions (the centre with the fixed-deal note, the rivers, the plates, the hidden tiles and melds,
the status line, the HUD, the own hand) and the hint panel never overlap, all stay on the screen,
and the panel covers none of what it must not (test_hint_layout.py's list) — at the moment the
line shows (the next player holds the turn) and then at every moment the table waits for a move
through the rest of the hand.

Before the fix: on these short screens the 听 line stood above the hand's right end at its chips'
touch height (44 px; two rows of chips in English) and ran over the right seat's hidden tiles and
river and over the centre (740×360 and 667×375 in English; the checks of the late-layout tests
never met a ready hand: their deal's own hand is never ready). At 844×390 (stop 38) it stood there
too, 44 px high, and two rows high in English (86 px): over the centre and the right seat's hidden
tiles (their third row, with hints on); now one row, its chips 30 px high. Each wait reads whole
(not cut with …): in English at 667×375 the first read "8 Characters×3 · 60 pts · eno…"; a phone
sideways now shows short words ("8 Char×3 · 60 pts").

A real `laizi serve`, the system Chromium; the fixed, announced deal of test_table_fan.py
(``fan1467`` under the Jiayu preset: the dealer, seat 0, discards 六万 and waits on 八万 and 五条)
with a second player on seat 1 who holds the turn while the line is read, then plays on with the
host and two greedy bots to the hand's end. Two hands, each checking four cases at once: the
host's table is open in four pages (the same seat, support.webhelpers.same_player_page), one a
case, each opened at its size, in its language, hints on or off — not one page turned from size to
size: the 听 line's chips and words are drawn by a render for the size (fan.js), and this is the
line a player who opened the table at that size sees (a turned phone: test_turned_phone.py).
Screenshots go to screens_dir()."""

from __future__ import annotations

import time
from typing import Any

import pytest

from support.webhelpers import (
    HINT_BLOCKERS,
    HINT_COVERS,
    act_quick,
    add_bots,
    caught_up,
    create_room,
    join_seat,
    new_page,
    poll,
    same_player_page,
    screens_dir,
    sit,
    table_regions,
)

pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.timeout(600)]

SEED = "fan1467"
SMALL, SHORT = (667, 375), (740, 360)
PHONE, UPRIGHT, DESK = (844, 390), (390, 844), (1366, 900)
# every size, both languages, hints on and off; English (the longer words) and hints on (the
# panel) wherever the line was short of room before the fix; four cases a hand (its pages)
GROUPS = {"small-sideways": [(SMALL, True, "zh"), (SMALL, True, "en"), (SHORT, False, "en"), (SHORT, True, "en")],
          "phones-and-laptop": [(PHONE, False, "zh"), (PHONE, True, "en"), (UPRIGHT, True, "en"), (DESK, False, "zh")]}
SETTLED = '[data-testid="settlement"]:not(.hidden)'


def _lang(page: Any, lang: str) -> None:
    if lang == "en":
        page.click("#langbtn")
        poll(page, "() => document.documentElement.lang === 'en'")


def _problems(page: Any) -> list[str] | None:
    """What overlaps at this moment (regions; the panel over what it must not cover); None while
    the settlement is open."""
    now = table_regions(page)
    if now is None:
        return None
    covers = page.evaluate(HINT_COVERS, HINT_BLOCKERS) or []
    return list(now["bad"]) + [f"hint panel over {c}" for c in covers]


def _hints_on(page: Any) -> None:
    page.click("#btn-menu")
    page.check("#hints-toggle")
    page.click('[data-close="sheet-menu"]')


class Case:
    """One (size, hints, language): its own page of the host's seat, and what it saw."""

    def __init__(self, page: Any, size: tuple[int, int], hints: bool, lang: str) -> None:
        self.page, self.size, self.hints, self.lang = page, size, hints, lang
        self.tag = f"{size[0]}x{size[1]}_{'hints' if hints else 'nohints'}_{lang}"
        self.problems: dict[str, str] = {}
        self.checked = self.ready_seen = 0

    def ready_line(self) -> list[str]:
        """The moment the line shows (the guest holds the turn): nothing overlaps, each wait whole,
        on a phone sideways one row. What is wrong, if anything."""
        page, size = self.page, self.size
        page.locator('[data-testid="ready-line"] [data-testid="wait"]').first.wait_for()
        poll(page, "() => !document.querySelector('#table .tile.fresh') || "
                   "!document.querySelector('#table .tile.fresh').getAnimations().length")
        bad = _problems(page)
        page.screenshot(path=str(screens_dir() / f"small-ready_{self.tag}.png"))
        if bad:
            return [f"{self.tag}: {bad}"]
        line = page.evaluate("""() => { const e = document.querySelector('[data-testid="ready-line"]'), r = e.getBoundingClientRect();
            const chips = [...e.querySelectorAll('.wait-chip')];
            return {w: r.width, h: r.height, chips: chips.length, text: chips.map(c => c.textContent),
                    cut: chips.filter(c => c.scrollWidth > c.clientWidth + 1).map(c => c.textContent)}; }""")
        if not (line["w"] > 0 and line["chips"] >= 1):  # shown
            return [f"{self.tag}: the line not shown: {line}"]
        if line["cut"]:  # each wait in words whole (English: short words on a phone sideways)
            return [f"{self.tag}: waits cut: {line}"]
        if size[1] <= 600 and size[0] > size[1]:  # a phone sideways: one row (≤380 px high: one line)
            most = 30 if size[1] <= 380 else 36
            if line["h"] > most:
                return [f"{self.tag}: the line {line['h']} px high (at most {most}): {line}"]
        return []

    def look(self) -> None:
        bad = _problems(self.page)
        if bad is None:
            return
        for b in bad:
            if not self.problems:
                self.page.screenshot(path=str(screens_dir() / f"small-overlap_{self.tag}.png"))
            self.problems.setdefault(b.partition(": ")[0], b)
        self.checked += 1
        self.ready_seen += self.page.locator('[data-testid="ready-line"]').count() > 0


@pytest.mark.parametrize("group", list(GROUPS))
def test_the_ready_line_and_the_table_apart_on_small_phones(browser: Any, server: str, group: str) -> None:
    (size, hints, lang), *more = GROUPS[group]
    host = new_page(browser, server, "小屏听牌", size=size)
    _lang(host, lang)
    poll(host, "() => [...document.querySelectorAll('#c-preset option')].some(o => o.value === 'jiayu')")
    host.select_option("#c-preset", "jiayu")
    host.fill("#c-turn", "90")
    host.click("details.more > summary")  # the fixed deal is among the further options
    host.fill("#c-seed", SEED)
    code = create_room(host, hands=1)
    sit(host, 0)
    guest = new_page(browser, server, "下家", size=size)
    join_seat(guest, code, 1)
    guest.click('[data-testid="ready"]')
    add_bots(host, [2, 3], "greedy")
    host.click("#btn-start")
    host.wait_for_selector("#hand .tile")
    cases = [Case(host, size, hints, lang)]
    for s, h, g in more:  # the host's seat in pages of their own, one a case
        cases.append(Case(same_player_page(browser, host, server, code, s, g), s, h, g))
        cases[-1].page.wait_for_selector("#hand .tile")
    for c in cases:
        if c.hints:
            _hints_on(c.page)

    # the dealer's 六万: ready; the guest holds its turn, so the line stays to be read
    host.locator('#hand .tile.clickable[data-tile="6m"]').first.click()
    host.locator("#hand .tile.raised").first.click()
    host.locator('[data-testid="ready-line"] [data-testid="wait"]').first.wait_for()
    guest.wait_for_selector("#hand .tile.clickable")
    wrong = []
    for c in cases:
        caught_up(host, c.page)
        wrong += c.ready_line()
    assert not wrong, "\n".join(wrong)

    # the rest of the hand: every moment the host's table waits, and the ready line whenever shown
    deadline = time.time() + 240
    while not host.locator(SETTLED).count():
        assert time.time() < deadline, "the hand did not end"
        for c in cases:
            caught_up(host, c.page)
            c.look()
        act_quick(host, take_claims=False)  # (the drawn tile goes: the hand stays ready)
        act_quick(guest)
        host.wait_for_timeout(40)
    failures = [f"{c.tag}: " + "\n".join(c.problems.values()) for c in cases if c.problems]
    assert not failures, "\n".join(failures)
    for c in cases:
        assert c.checked >= 5 and c.ready_seen >= 1, (c.tag, c.checked, c.ready_seen)
        print(f"{c.tag}: {c.checked} moments, the ready line at {c.ready_seen}")
    for c in cases:
        assert not c.page.errors, (c.tag, c.page.errors)
    assert not guest.errors  # type: ignore[attr-defined]
    guest.context.close()
    for c in cases:
        c.page.context.close()
