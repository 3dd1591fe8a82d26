"""The replay page (回放) fits a phone (ui34): at 844×390 and 390×844 (and still at 1366×900) a
finished match's replay, stepped to its end, runs off no side: no sideways overflow, no page
scroll, every control (大厅, the hand selector, 开头 上一步 播放 下一步 结尾, the step slider, 复盘,
战绩, English) inside the screen and at least 40 px high; the settlement lies over the table
inside the screen, its 关闭 shows the last table again, and then (and one step earlier) every
tile of the own seat's hand is on the screen, not covered. At 390×844 a side seat's 番 badge
("1番·金顶") is one line, even at 12番.

Before the fix (this test failed at all three sizes): at 844×390 the control bar ran past the
right edge (English cut, 13-22 px by the title's length) and the table past the bottom (the own
hand under the screen's edge; 28 px more than the screen at 390×844, 34 at 1366×900); at the last
step the page jumped down to the settlement and the controls were gone above the screen, with no
way back up (the page does not scroll by hand); at 390×844 the side badges broke 金 / 顶 onto
two lines.

A real `laizi serve`, a four-bot match played to its end over the WebSocket protocol, the system
Chromium. Screenshots go to screens_dir()."""

from __future__ import annotations

from typing import Any

import pytest

from support.webhelpers import (
    BAR_ROWS,
    BAR_WORDS,
    REPLAY_HAND,
    bot_match,
    new_page,
    overflow_x,
    poll,
    screens_dir,
)

pytestmark = [pytest.mark.browser, pytest.mark.slow]

# Every control of the replay's bar, as "id: left,top-right,bottom" when it is off the screen or
# lower than 40 px (a finger's target), with the page's scroll extent.
CONTROLS = """() => {
  const bad = [];
  for (const e of document.querySelectorAll('.rp-bar button, .rp-bar select, .rp-bar input, .rp-bar a.rp-home')) {
    const r = e.getBoundingClientRect();
    const at = `${e.id || e.className}: ${Math.round(r.left)},${Math.round(r.top)}-${Math.round(r.right)},${Math.round(r.bottom)}`;
    if (!r.width || !r.height) { bad.push(`${at} not shown`); continue; }
    if (r.left < -1 || r.top < -1 || r.right > innerWidth + 1 || r.bottom > innerHeight + 1) bad.push(`${at} off the screen`);
    if (e.tagName !== "INPUT" && r.height < 39.5) bad.push(`${at} lower than 40 px`);
  }
  const se = document.scrollingElement;
  return { bad, scrollH: se.scrollHeight, scrollY: se.scrollTop, h: innerHeight };
}"""

# A side seat's 番 badge: its height against its line height (one line: at most one line and
# its padding), its width against its plate's.
BADGES = """() => [...document.querySelectorAll('#rp-table .seat.pos-left .b-fan, #rp-table .seat.pos-right .b-fan')].map(e => {
  const r = e.getBoundingClientRect(), p = e.closest('.plate').getBoundingClientRect(), cs = getComputedStyle(e);
  return { text: e.textContent, h: r.height, line: parseFloat(cs.lineHeight), l: r.left, r: r.right, pl: p.left, pr: p.right,
           sw: e.scrollWidth, cw: e.clientWidth, vw: innerWidth };
})"""


@pytest.fixture(scope="module")
def match_id(server: str) -> int:
    return bot_match(server, hands=1, level="greedy")[1]


def _shot(page: Any, size: tuple[int, int], what: str) -> None:
    page.screenshot(path=str(screens_dir() / f"replay-layout-{what}-{size[0]}x{size[1]}.png"))


def _fits(page: Any, size: tuple[int, int], when: str) -> None:
    assert overflow_x(page) <= 0, f"{when}: sideways overflow {overflow_x(page)} px"
    c = page.evaluate(CONTROLS)
    assert c["bad"] == [], f"{when}: {c['bad']}"
    # the page itself never scrolls: the bar and the table share the screen's height
    assert c["scrollY"] == 0 and c["scrollH"] <= c["h"] + 1, f"{when}: the page scrolls ({c})"


@pytest.mark.parametrize("size", [(844, 390), (390, 844), (1366, 900)])
def test_replay_fits_the_screen(browser: Any, server: str, match_id: int, size: tuple[int, int]) -> None:
    page = new_page(browser, server, size=size)
    page.goto(f"{server}/replay/{match_id}")
    poll(page, "() => document.querySelectorAll('#rp-table .tile').length > 13")
    poll(page, "() => document.getElementById('rp-rules').textContent.length > 0")  # the rule card's row is in
    _fits(page, size, "first step")

    page.click("#rp-last")  # the end: the settlement over the table, inside the screen
    poll(page, """() => { const b = document.querySelector('[data-testid="replay-settle"]');
        return b && !b.classList.contains('hidden') && b.querySelectorAll('table.pay tr').length === 5; }""")
    _shot(page, size, "end")
    _fits(page, size, "last step, settlement open")
    box = page.evaluate("""() => { const r = document.querySelector('[data-testid="replay-settle"]').getBoundingClientRect();
        const x = document.querySelector('[data-testid="replay-settle-close"]').getBoundingClientRect();
        return { l: r.left, t: r.top, r: r.right, b: r.bottom, xt: x.top, xb: x.bottom, xr: x.right, xh: x.height }; }""")
    assert box["l"] >= -1 and box["t"] >= -1 and box["r"] <= size[0] + 1 and box["b"] <= size[1] + 1, box
    assert box["xt"] >= box["t"] - 1 and box["xb"] <= size[1] + 1 and box["xr"] <= size[0] + 1 and box["xh"] >= 39.5, box

    page.click('[data-testid="replay-settle-close"]')  # 关闭: the last table, the own hand whole
    poll(page, "() => document.querySelector('[data-testid=\"replay-settle\"]').classList.contains('hidden')")
    hand = poll(page, REPLAY_HAND)
    _shot(page, size, "end-closed")
    assert hand["bad"] == [], hand
    _fits(page, size, "last step, settlement closed")

    page.click("#rp-prev")  # one step before the end: the hand whole, no settlement
    poll(page, "() => { const p = document.getElementById('rp-pos'); return +p.value === +p.max - 1"
               " && document.querySelector('[data-testid=\"replay-settle\"]').classList.contains('hidden'); }")
    hand = poll(page, REPLAY_HAND)
    assert hand["bad"] == [], hand
    _fits(page, size, "the step before the end")

    if size == (390, 844):  # the side seats' 番 badge on one line, inside its plate
        badges = poll(page, BADGES)
        assert len(badges) == 2, badges
        for b in badges:
            assert b["h"] <= 1.5 * b["line"], f"{b['text']!r} on more than one line: {b}"
            assert b["l"] >= b["pl"] - 0.5 and b["r"] <= b["pr"] + 0.5, b
        # the widest a Chinese badge gets: two-digit 番 (the words' table: "{0}番·{1}")
        page.evaluate("""() => { for (const e of document.querySelectorAll('#rp-table .seat.pos-right .b-fan'))
            e.textContent = e.textContent.replace(/^\\d+/, "12"); }""")
        wide = page.evaluate(BADGES)
        right = [b for b in wide if b["text"].startswith("12")]
        assert right and all(b["h"] <= 1.5 * b["line"] and b["r"] <= b["pr"] + 0.5 for b in right), wide
    _shot(page, size, "prev")
    assert page.errors == []  # type: ignore[attr-defined]
    assert page.evaluate("window.__csp") == []
    page.context.close()


# A room's changed options make the longest rule card ("开口番 · 金顶：500 分 · 反包：开 · 逃跑扣分：50 分",
# "open-fan · Golden cap: 500 pts · Reverse liability: on · Escape penalty: 50 pts").
BAR_BOXES = """() => [...document.querySelectorAll('.rp-bar > *')].filter(e => e.getBoundingClientRect().height > 0
  && getComputedStyle(e).display !== 'none' && getComputedStyle(e).position !== 'absolute').map(e => { const r = e.getBoundingClientRect();
  return `${e.id || e.className || e.tagName} ${Math.round(r.top)}-${Math.round(r.bottom)}`; })"""
LONG_CARD = {"fanbao": True, "golden": 500, "escape_penalty": 50}


@pytest.fixture(scope="module")
def ruled_match(server: str) -> int:
    return bot_match(server, hands=1, level="greedy", options=LONG_CARD)[1]


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_small_phone_sideways_title_and_card_whole(browser: Any, server: str, ruled_match: int, lang: str) -> None:
    """At 667×375 the replay bar's title (which match) and its rule card read whole — the card of
    a room's changed options too (it was clamped to two lines ending in "…", the English one at
    "Reverse…"), the bar still on two rows; and with 复盘 open (folded to the table) the title
    still shows (it was hidden there: only the hand's number told which replay this was)."""
    size = (667, 375)
    page = new_page(browser, server, size=size)
    if lang == "en":
        page.click("#langbtn")
        poll(page, "() => document.documentElement.lang === 'en'")
    page.goto(f"{server}/replay/{ruled_match}")
    poll(page, "() => document.querySelectorAll('#rp-table .tile').length > 13")
    card = poll(page, "() => document.getElementById('rp-rules').textContent")
    assert ("金顶" if lang == "zh" else "Golden cap") in card, card  # the long card
    _shot(page, size, f"long-card-{lang}")
    assert page.evaluate(BAR_WORDS) == []
    assert page.evaluate(BAR_ROWS) <= 2, " ".join(page.evaluate(BAR_BOXES))
    _fits(page, size, "the long card")
    # the side seats' 番 badges ("0 fan · unopened" at the start: wider than the 96 px side
    # plates here) stay inside their plates and the screen: the right one ran off the edge
    badges = page.evaluate(BADGES)
    assert len(badges) == 2, badges
    for b in badges:
        assert b["pl"] - 1 <= b["l"] and b["r"] <= b["pr"] + 1 and b["r"] <= b["vw"], b
        assert b["sw"] <= b["cw"] + 1, f"the badge's words run past it: {b}"

    page.click("#rp-review")  # 复盘: the panel over the table; a decision chosen folds it away
    poll(page, """() => /^\\d+%$/.test(document.querySelector('[data-testid="review-accuracy"]').textContent)""", timeout=120)
    assert page.evaluate(BAR_WORDS, ["rp-title"]) == []
    items = page.locator('[data-testid="review-item"]')  # (a greedy seat may have no costly decision)
    page.click('[data-testid="review-item"] >> nth=0' if items.count() else '[data-testid="review-fold"]')
    poll(page, "() => document.body.classList.contains('rv-folded')")
    _shot(page, size, f"review-title-{lang}")
    assert page.evaluate(BAR_WORDS, ["rp-title"]) == []
    assert page.evaluate(BAR_ROWS) <= 2, " ".join(page.evaluate(BAR_BOXES))
    assert overflow_x(page) <= 0
    se = page.evaluate("() => [document.scrollingElement.scrollTop, document.scrollingElement.scrollHeight, innerHeight]")
    assert se[0] == 0 and se[1] <= se[2] + 1, f"复盘, folded: the page scrolls {se}"
    hand = poll(page, REPLAY_HAND)
    assert hand["bad"] == [], hand
    assert page.errors == []  # type: ignore[attr-defined]
    assert page.evaluate("window.__csp") == []
    page.context.close()
