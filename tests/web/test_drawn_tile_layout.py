"""The own hand on a phone, upright and sideways (TABLE.md: "Own hand along the bottom edge, large,
the drawn tile set apart by a small gap on the right"): on the own turn the drawn tile stands on
the same row as the hand's last tile, right of it, a small gap between them, never alone on a row
of its own; upright the hand takes at most two rows; every tile of the hand and every region of the
table (seats' plates and what they hold, rivers, melds, the centre) lies on the screen, nothing
over anything; upright the own plate stands right above the hand (its melds beside it, or above
it when they do not fit there) — with 14 tiles (the dealer's first turn) and again with a meld
laid down (11 tiles), at 390×844 and 360×780 upright and 844×390 and 667×375 sideways, in Chinese
and English.

Before the fix (layout7): upright the hand wrapped at 7 tiles a row, so the dealer's 13 tiles and
the drawn one made rows of 7, 6 and the drawn tile alone on a third row, centred under the others;
at 360×780 the table's grid (two seats, two side rivers, the centre) and the hand's row were 20 px
wider than the screen: the right seat's plate and the hand's seventh tile ran off its right edge.
At 667×375 in English the right seat's fan badge ("1 fan · opened") ran off the right edge.
Upright, a meld took a line of its own between the plate and the hand (polish8): a band across
the seat for a pung 76 px wide, the plate 55 px above the hand's first row instead of 24.

A real `laizi serve`, the system Chromium, a seated player (the dealer) with three greedy bots
playing the long fixed deal "r22" (the player pungs early), played by act_once until a turn with
the meld is checked. One hand for all the cases: the player's table is open in two pages, Chinese
and English (the same seat, support.webhelpers.same_player_page), and at each of the two turns
each page is turned to each of its sizes in turn (support.webhelpers.resize: this layout is all
CSS, so a page turned to a size lays out as one opened at it). Screenshots go to screens_dir()."""

from __future__ import annotations

import time
from typing import Any

import pytest

from support.webhelpers import (
    act_quick,
    caught_up,
    new_page,
    overflow_x,
    poll,
    resize,
    same_player_page,
    screens_dir,
    start_fixed_deal,
    table_regions,
    turned,
)

pytestmark = pytest.mark.browser

SEED = "r22"
CASES = [((390, 844), "zh"), ((390, 844), "en"), ((360, 780), "zh"), ((360, 780), "en"),
         ((844, 390), "zh"), ((667, 375), "en")]
LANGS = ["zh", "en"]  # a page each, turned through its sizes

# The own hand at this moment when it is the own turn with a drawn tile, else null; "moving"
# while a tile still drops in (a discard just made: the bots play fast); then
# each tile's layout box (offset*: transforms left out) and its box on the screen, and the melds
# the own seat has laid down.
OWN_TURN = """() => {
  if (document.querySelector('[data-testid="settlement"]:not(.hidden)')) return null;
  const hand = document.getElementById('hand');
  const tiles = hand ? [...hand.querySelectorAll('.tile')] : [];
  const drawn = hand && hand.querySelector('.tile.drawn');
  if (!drawn || !hand.querySelector('.tile.clickable')) return null;
  const fresh = [...document.querySelectorAll('#game .tile.fresh')];
  if (fresh.some(e => e.getAnimations().some(a => a.playState === 'running'))) return "moving";
  return {tiles: tiles.map(e => { const r = e.getBoundingClientRect();
            return {x: e.offsetLeft, y: e.offsetTop, w: e.offsetWidth, drawn: e === drawn,
                    l: r.left, t: r.top, r: r.right, b: r.bottom, code: e.dataset.tile}; }),
          melds: document.querySelectorAll('.seat.pos-bottom .meld').length,
          vw: innerWidth, vh: innerHeight, plate: plateGap()};
  // the own plate's bottom, the top of the hand's first row (its layout: the room a raised tile
  // takes, the hand's padding, included; transforms left out) and the 听 line's height if shown
  function plateGap() {
    const seat = hand.closest('.seat'), row = seat.querySelector('.ready-row');
    return {bottom: seat.querySelector('.plate').getBoundingClientRect().bottom,
            hand: hand.getBoundingClientRect().top + parseFloat(getComputedStyle(hand).paddingTop),
            ready: row && row.childElementCount ? row.getBoundingClientRect().height : 0};
  }
}"""


# What of the seats' name plates (name, score, badges) lies off the screen: at 667×375 in English
# the side plates' fan badge ("1 fan · opened", ~107 px in a 96 px column) ran past the right edge
# (the plate's own box stayed inside, so table_regions did not see it).
PLATES_OFF = """() => [...document.querySelectorAll('#game .seat .plate, #game .seat .plate *')].flatMap(e => {
  const r = e.getBoundingClientRect();
  if (!r.width || !r.height || (r.left >= -1 && r.top >= -1 && r.right <= innerWidth + 1 && r.bottom <= innerHeight + 1)) return [];
  return [`${e.className || e.tagName} "${e.textContent}" off the screen at ${Math.round(r.left)},${Math.round(r.top)}-${Math.round(r.right)},${Math.round(r.bottom)}`];
})"""


# Upright, between the own plate's bottom and the hand's first row (the 听 line, when shown, left
# out): the room a raised tile takes (14 px) and the seat's gaps; 24 px without melds before the
# fix, 55 px with a pung (its line of its own between the plate and the hand).
PLATE_GAP = 26


def hand_problems(h: dict[str, Any], upright: bool) -> list[str]:
    tiles = h["tiles"]
    drawn, prev = tiles[-1], tiles[-2]
    bad = []
    if not drawn["drawn"]:
        bad.append("the drawn tile is not the hand's last")
    rows = sorted({t["y"] for t in tiles})
    if len(rows) > (2 if upright else 1):
        bad.append(f"the hand takes {len(rows)} rows")
    if abs(drawn["y"] - prev["y"]) > 1:
        bad.append(f"the drawn tile on a row of its own (top {drawn['y']}, the last tile's {prev['y']})")
    gap = drawn["x"] - (prev["x"] + prev["w"])
    if not 4 <= gap <= drawn["w"] * 0.4:
        bad.append(f"the drawn tile {gap} px right of the last tile (a small gap wanted)")
    if upright:  # the plate right above the hand (the melds beside it or above it, not between)
        p = h["plate"]
        gap = p["hand"] - p["bottom"] - p["ready"]
        if gap > PLATE_GAP:
            bad.append(f"the own plate {round(gap)} px above the hand's first row (at most {PLATE_GAP} wanted)")
    for t in tiles:
        if t["l"] < -1 or t["t"] < -1 or t["r"] > h["vw"] + 1 or t["b"] > h["vh"] + 1:
            bad.append(f"{t['code']} off the screen at {round(t['l'])},{round(t['t'])}-{round(t['r'])},{round(t['b'])}")
    return bad


def _check(page: Any, size: tuple[int, int], lang: str, which: str) -> list[str]:
    """The own turn ``which`` ("14", "meld") at ``size``, the page turned to it: what is wrong."""
    resize(page, size)
    try:  # the turn stands until the test moves (turn=90): a page busy re-rendering is waited out
        h = poll(page, "() => { const h = (" + OWN_TURN + ")(); return h === 'moving' ? null : h; }")
    except AssertionError:
        return [f"{size[0]}x{size[1]}_{lang}: no own turn with a drawn tile at {which}"]
    upright = size[1] > size[0]
    regions = table_regions(page)
    bad = hand_problems(h, upright) + (regions["bad"] if regions else []) + page.evaluate(PLATES_OFF)
    if overflow_x(page) > 0:
        bad.append(f"the page {overflow_x(page)} px wider than the screen")
    page.screenshot(path=str(screens_dir() / f"drawn-tile_{size[0]}x{size[1]}_{lang}_{which}.png"))
    return [f"{size[0]}x{size[1]}_{lang} {which}: {len(h['tiles'])} tiles, {h['melds']} melds: {b}" for b in bad]


def test_the_drawn_tile_ends_the_hands_last_row(browser: Any, server: str) -> None:
    sizes = {lang: [s for s, g in CASES if g == lang] for lang in LANGS}
    page = new_page(browser, server, "摸牌位置", size=sizes["zh"][0])
    code = start_fixed_deal(page, SEED, lang="zh", turn=90, seat=0, level="greedy", hands=1)
    pages = {"zh": page, "en": same_player_page(browser, page, server, code, sizes["en"][0], "en")}

    seen: dict[str, int] = {}  # "14" and "meld": the hand's size when checked
    bad: list[str] = []
    deadline = time.time() + 180
    while "meld" not in seen:
        assert time.time() < deadline, f"no own turn with a meld seen ({seen})"
        assert not page.locator('[data-testid="settlement"]:not(.hidden)').count(), f"the hand ended ({seen})"
        h = page.evaluate(OWN_TURN)
        if h == "moving":  # the own turn: look once everything stands still
            page.wait_for_timeout(40)
            continue
        if h is not None:
            n = len(h["tiles"])
            which = "14" if n == 14 and not h["melds"] else "meld" if h["melds"] and n <= 11 else None
            if which and which not in seen:  # every case at this turn: each page at each of its sizes
                for lang, p in pages.items():
                    caught_up(page, p)
                    for size in turned(p, sizes[lang]):
                        bad += _check(p, size, lang, which)
                seen[which] = n
        act_quick(page)
        page.wait_for_timeout(40)
    assert bad == [], "\n".join(bad)
    assert set(seen) == {"14", "meld"}, seen
    for p in pages.values():
        assert not p.errors  # type: ignore[attr-defined]
    for p in pages.values():
        p.context.close()
