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
its end, then its replay stepped through from the middle of the hand to the end (▶, then the → key). The boxes are
read at every moment the table waits for a move (tiles still dropping in are left out of that
moment). One hand for both languages: the player's table is open in two pages, Chinese and
English (the same seat, support.webhelpers.same_player_page); then each page replays it.
Screenshots go to screens_dir()."""

from __future__ import annotations

import re
import time
from typing import Any

import pytest

from support.webhelpers import (
    BAR_ROWS,
    BAR_WORDS,
    TABLE_REGIONS,
    act_quick,
    caught_up,
    new_page,
    poll,
    same_player_page,
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


def test_small_landscape_late_in_a_long_hand(browser: Any, server: str) -> None:
    """Both languages at once: a page each (zh plays, en shows the same seat)."""
    ids: list[int] = []

    def listen(page: Any) -> None:  # the match's id, for its replay, from the table's frames
        page.on("websocket", lambda ws: ws.on("framereceived", lambda f: ids.extend(
            int(x) for x in re.findall(r'"match_id":\s*(\d+)', f if isinstance(f, str) else ""))))

    page = new_page(browser, server, "小屏检查员", size=SIZE, setup=listen)
    code = start_fixed_deal(page, SEED, lang="zh", turn=90, seat=0, level="greedy", hands=1)
    pages = {"zh": page, "en": same_player_page(browser, page, server, code, SIZE, "en")}

    checked = dict.fromkeys(pages, 0)
    last: dict[str, Any] = dict.fromkeys(pages)
    late: dict[str, bytes | None] = dict.fromkeys(pages)
    problems: dict[str, dict[str, str]] = {lang: {} for lang in pages}
    settled = '[data-testid="settlement"]:not(.hidden)'
    deadline = time.time() + 240
    while not page.locator(settled).count():
        assert time.time() < deadline, "the hand did not end"
        for lang, p in pages.items():
            caught_up(page, p)
            now = table_regions(p)
            if now is not None:
                _note(problems[lang], now, p, f"polish6-small-overlap-table-{lang}.png")
                if last[lang] is None or sum(now["rivers"]) >= sum(last[lang]["rivers"]):
                    last[lang] = now
                    if min(now["rivers"]) >= 12:  # the table late in the hand (not its settlement)
                        png = p.screenshot()
                        late[lang] = png if not p.locator(settled).count() else late[lang]
                checked[lang] += 1
        act_quick(page)
        page.wait_for_timeout(40)
    for lang, png in late.items():
        if png:
            (screens_dir() / f"polish6-small-table-{lang}-667x375.png").write_bytes(png)
    for lang in pages:
        assert not problems[lang], f"the table ({lang}):\n" + "\n".join(f"{k}: {v}" for k, v in problems[lang].items())
        assert last[lang] is not None and checked[lang] >= 10, (lang, checked[lang])
        assert min(last[lang]["rivers"]) >= 14 and last[lang]["melds"] >= 8, (lang, last[lang])  # checked late, long rivers, many melds
    assert ids, "no match id in the table's frames"
    for lang, p in pages.items():
        _replay(p, server, ids[-1], lang)
        p.context.close()


def _replay(page: Any, server: str, match_id: int, lang: str) -> None:
    """The same hand's replay, from its middle to its end."""
    problems: dict[str, str] = {}
    page.goto(f"{server}/replay/{match_id}")
    poll(page, "() => document.querySelectorAll('#rp-table .tile').length > 13")
    poll(page, "() => document.getElementById('rp-rules').textContent.length > 0")  # the rule card is in
    rows = page.evaluate(BAR_ROWS)
    assert rows <= 2, f"the replay's controls on {rows} rows ({lang})"
    page.screenshot(path=str(screens_dir() / f"polish7-small-replay-bar-{lang}-667x375.png"))
    assert page.evaluate(BAR_WORDS) == [], lang
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
        if steps == 1:
            page.click("#rp-next")  # a tap on ▶ (the button within reach) …
        else:
            page.keyboard.press("ArrowRight")  # … then the → key (the same step, without a tap's waits)
        poll(page, "n => +document.getElementById('rp-pos').value === n", pos + 1)
    page.screenshot(path=str(screens_dir() / f"polish6-small-replay-{lang}-667x375.png"))
    assert not problems, f"the replay ({lang}):\n" + "\n".join(f"{k}: {v}" for k, v in problems.items())
    assert steps > 40 and min(last["rivers"]) >= 14, (lang, steps, last)
    assert page.evaluate(BAR_ROWS) <= 2, lang
    assert page.evaluate(BAR_WORDS) == [], lang
    assert page.errors == [], lang  # type: ignore[attr-defined]
    assert page.evaluate("window.__csp") == [], lang
