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
host and two greedy bots to the hand's end. Screenshots go to screens_dir()."""

from __future__ import annotations

import time
from typing import Any

import pytest

from support.webhelpers import (
    HINT_BLOCKERS,
    HINT_COVERS,
    act_once,
    add_bots,
    new_page,
    poll,
    screens_dir,
    sit,
    table_regions,
)

pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.timeout(600)]

SEED = "fan1467"
SMALL, SHORT = (667, 375), (740, 360)
PHONE, UPRIGHT, DESK = (844, 390), (390, 844), (1366, 900)
# every size, both languages, hints on and off; English (the longer words) and hints on (the
# panel) wherever the line was short of room before the fix (each case plays a whole hand: ~20 s)
CASES = [(SMALL, True, "zh"), (SMALL, True, "en"), (SHORT, False, "en"), (SHORT, True, "en"),
         (PHONE, False, "zh"), (PHONE, True, "en"), (UPRIGHT, True, "en"), (DESK, False, "zh")]
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


@pytest.mark.parametrize(("size", "hints", "lang"), CASES,
                         ids=[f"{s[0]}x{s[1]}-hints-{'on' if h else 'off'}-{lang}" for s, h, lang in CASES])
def test_the_ready_line_and_the_table_apart_on_small_phones(browser: Any, server: str, size: tuple[int, int],
                                                           hints: bool, lang: str) -> None:
    tag = f"{size[0]}x{size[1]}_{'hints' if hints else 'nohints'}_{lang}"
    host = new_page(browser, server, "小屏听牌", size=size)
    _lang(host, lang)
    poll(host, "() => [...document.querySelectorAll('#c-preset option')].some(o => o.value === 'jiayu')")
    host.select_option("#c-preset", "jiayu")
    host.fill("#c-turn", "90")
    host.click("details.more > summary")  # the fixed deal is among the further options
    host.fill("#c-seed", SEED)
    host.fill("#c-hands", "1")
    host.click("#btn-create")
    host.wait_for_selector("#roomview:not(.hidden)")
    poll(host, "() => document.getElementById('room-code').textContent.length >= 4")
    code = host.inner_text("#room-code")
    sit(host, 0)
    guest = new_page(browser, server, "下家", size=size)
    guest.fill("#j-code", code)
    guest.click("#btn-join")
    guest.wait_for_selector("#roomview:not(.hidden)")
    guest.click('button[data-sit="1"]')
    guest.wait_for_selector('[data-testid="ready"]')
    guest.click('[data-testid="ready"]')
    add_bots(host, [2, 3], "greedy")
    host.click("#btn-start")
    host.wait_for_selector("#hand .tile")
    if hints:
        host.click("#btn-menu")
        host.check("#hints-toggle")
        host.click('[data-close="sheet-menu"]')

    # the dealer's 六万: ready; the guest holds its turn, so the line stays to be read
    host.locator('#hand .tile.clickable[data-tile="6m"]').first.click()
    host.locator("#hand .tile.raised").first.click()
    host.locator('[data-testid="ready-line"] [data-testid="wait"]').first.wait_for()
    guest.wait_for_selector("#hand .tile.clickable")
    poll(host, "() => !document.querySelector('#table .tile.fresh') || "
               "!document.querySelector('#table .tile.fresh').getAnimations().length")
    bad = _problems(host)
    host.screenshot(path=str(screens_dir() / f"small-ready_{tag}.png"))
    assert bad == [], bad
    line = host.evaluate("""() => { const e = document.querySelector('[data-testid="ready-line"]'), r = e.getBoundingClientRect();
        const chips = [...e.querySelectorAll('.wait-chip')];
        return {w: r.width, h: r.height, chips: chips.length, text: chips.map(c => c.textContent),
                cut: chips.filter(c => c.scrollWidth > c.clientWidth + 1).map(c => c.textContent)}; }""")
    assert line["w"] > 0 and line["chips"] >= 1, line  # shown
    assert line["cut"] == [], line  # each wait in words whole (English: short words on a phone sideways)
    if size[1] <= 600 and size[0] > size[1]:  # a phone sideways: one row (≤380 px high: one line)
        assert line["h"] <= (30 if size[1] <= 380 else 36), line

    # the rest of the hand: every moment the host's table waits, and the ready line whenever shown
    problems: dict[str, str] = {}
    checked = ready_seen = 0
    deadline = time.time() + 240
    while not host.locator(SETTLED).count():
        assert time.time() < deadline, "the hand did not end"
        bad = _problems(host)
        if bad is not None:
            for b in bad:
                if not problems:
                    host.screenshot(path=str(screens_dir() / f"small-overlap_{tag}.png"))
                problems.setdefault(b.partition(": ")[0], b)
            checked += 1
            ready_seen += host.locator('[data-testid="ready-line"]').count() > 0
        act_once(host, take_claims=False)  # (the drawn tile goes: the hand stays ready)
        act_once(guest)
        host.wait_for_timeout(40)
    assert not problems, "\n".join(problems.values())
    assert checked >= 5 and ready_seen >= 1, (checked, ready_seen)
    print(f"{tag}: {checked} moments, the ready line at {ready_seen}")
    assert not host.errors and not guest.errors  # type: ignore[attr-defined]
    guest.context.close()
    host.context.close()
