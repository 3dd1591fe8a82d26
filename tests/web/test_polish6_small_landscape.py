"""A small phone held sideways (667×375), late in a long hand: on the live table and on that
hand's replay, in Chinese and in English, the centre box (wall count, 翻牌, 赖子, the last move),
the four rivers, the four name plates, the other seats' hidden tiles and melds, the status line,
the HUD buttons and the own hand never overlap and all stay on the screen; the replay's controls
take two rows at most (a third left the table 190 px of the screen's 375), and its title and rule
card show whole on them (the title was hidden and the English card cut to "open-fan…": polish7).

Before the fix: late in the hand the left seat's tiles ran over the own seat's name plate, and
in English the centre box ran over the top and bottom rivers (on the live table and in the
replay); the replay's controls took three rows.

A real `laizi serve`, the system Chromium, a seated player with three greedy bots playing the
long fixed deal "r22" (drawn; rivers 15-17 tiles, ten melds; tests/web/test_late_layout.py) to
its end, then its replay stepped through from the middle of the hand to the end. The boxes are
read at every moment the table waits for a move (tiles still dropping in are left out of that
moment). Screenshots go to screens_dir()."""

from __future__ import annotations

import re
import time
from typing import Any

import pytest

from support.webhelpers import (
    BAR_ROWS,
    BAR_WORDS,
    TABLE_REGIONS,
    act_once,
    new_page,
    poll,
    screens_dir,
    start_fixed_deal,
    table_regions,
)

pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.timeout(600)]

SIZE = (667, 375)
SEED = "r22"


def _note(problems: dict[str, str], now: dict[str, Any], page: Any, shot: str) -> None:
    for b in now["bad"]:
        if not problems:
            page.screenshot(path=str(screens_dir() / shot))
        what, _, where = b.partition(": ")
        problems.setdefault(what, f"{where} (rivers {now['rivers']})")


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_small_landscape_late_in_a_long_hand(browser: Any, server: str, lang: str) -> None:
    ids: list[int] = []

    def listen(page: Any) -> None:  # the match's id, for its replay, from the table's frames
        page.on("websocket", lambda ws: ws.on("framereceived", lambda f: ids.extend(
            int(x) for x in re.findall(r'"match_id":\s*(\d+)', f if isinstance(f, str) else ""))))

    page = new_page(browser, server, "小屏检查员", size=SIZE, setup=listen)
    start_fixed_deal(page, SEED, lang=lang, turn=90, seat=0, level="greedy", hands=1)

    checked, last, late = 0, None, None
    problems: dict[str, str] = {}
    settled = '[data-testid="settlement"]:not(.hidden)'
    deadline = time.time() + 240
    while not page.locator(settled).count():
        assert time.time() < deadline, "the hand did not end"
        now = table_regions(page)
        if now is not None:
            _note(problems, now, page, f"polish6-small-overlap-table-{lang}.png")
            if last is None or sum(now["rivers"]) >= sum(last["rivers"]):
                last = now
                if min(now["rivers"]) >= 12:  # the table late in the hand (not its settlement)
                    png = page.screenshot()
                    late = png if not page.locator(settled).count() else late
            checked += 1
        act_once(page)
        page.wait_for_timeout(40)
    if late:
        (screens_dir() / f"polish6-small-table-{lang}-667x375.png").write_bytes(late)
    assert not problems, "the table:\n" + "\n".join(f"{k}: {v}" for k, v in problems.items())
    assert last is not None and checked >= 10, checked
    assert min(last["rivers"]) >= 14 and last["melds"] >= 8, last  # checked late, long rivers, many melds
    assert ids, "no match id in the table's frames"

    # the same hand's replay, from its middle to its end
    page.goto(f"{server}/replay/{ids[-1]}")
    poll(page, "() => document.querySelectorAll('#rp-table .tile').length > 13")
    poll(page, "() => document.getElementById('rp-rules').textContent.length > 0")  # the rule card is in
    rows = page.evaluate(BAR_ROWS)
    assert rows <= 2, f"the replay's controls on {rows} rows"
    page.screenshot(path=str(screens_dir() / f"polish7-small-replay-bar-{lang}-667x375.png"))
    assert page.evaluate(BAR_WORDS) == []
    total = int(page.get_attribute("#rp-pos", "max") or 0)
    assert total > 100, total
    page.evaluate("n => { const p = document.getElementById('rp-pos'); p.value = String(n); p.dispatchEvent(new Event('input')); }",
                  total // 2)
    steps, last = 0, None
    while True:
        pos = int(page.input_value("#rp-pos"))
        now = poll(page, TABLE_REGIONS, {"root": "#rp-table"})
        _note(problems, now, page, f"polish6-small-overlap-replay-{lang}.png")
        last, steps = now, steps + 1
        if pos >= total - 1:
            break
        page.click("#rp-next")
        poll(page, "n => +document.getElementById('rp-pos').value === n", pos + 1)
    page.screenshot(path=str(screens_dir() / f"polish6-small-replay-{lang}-667x375.png"))
    assert not problems, "the replay:\n" + "\n".join(f"{k}: {v}" for k, v in problems.items())
    assert steps > 40 and min(last["rivers"]) >= 14, (steps, last)
    assert page.evaluate(BAR_ROWS) <= 2
    assert page.evaluate(BAR_WORDS) == []
    assert page.errors == []  # type: ignore[attr-defined]
    assert page.evaluate("window.__csp") == []
    page.context.close()
