"""The table's marks (TABLE.md §The table): the latest discard is lit until the next one, claim
window or not; a meld's claimed tile lies sideways on the side of the seat it came from, and a
蓄杠's fourth tile lies on top of that sideways tile (beyond it, as its owner sees it).

The meld and sequence checks render crafted views with the served table module (table.js, as
the replay and the tutorial use it) on the served page; the live check watches a real table."""

from __future__ import annotations

import contextlib
import time
from typing import Any

import pytest

from support.webhelpers import SIZES, auto_on, new_page, poll, start_fixed_deal, tap_twice

# The live tables play a fixed deal (their bots are seeded by it) with a long turn: the same hand in
# every run, so a hand that happens to end early never fails them, and a loaded machine's slow taps
# never run out a turn.
SEED = "table-marks-1"

pytestmark = [pytest.mark.browser, pytest.mark.timeout(180)]

# A table on the page from the served module: window.__mark(view, me) renders a view into it.
SETUP = """async () => {
  const T = await import('/static/js/table.js');
  const I = await import('/static/js/i18n.js');
  document.getElementById('game').classList.remove('hidden');
  for (const id of ['lobby', 'roomview']) { const e = document.getElementById(id); if (e) e.classList.add('hidden'); }
  const root = document.getElementById('game-table');
  const tbl = T.buildTable(root, { live: false });
  I.applyI18n(tbl);
  window.__mark = (v, me) => T.renderTable(tbl, v, { me, seats: null, live: false });
  return true;
}"""


def _view(players: list[dict[str, Any]], **kw: Any) -> dict[str, Any]:
    v = {"dealer": 0, "hand_no": 1, "round": 1, "rounds": 1, "wall_remaining": 50, "indicator": "2m",
         "laizi": "3m", "phase": "turn", "turn": 0, "scores": [0, 0, 0, 0], "pending": None}
    v.update(kw)
    v["players"] = [{"melds": [], "river": [], "special_kongs": [], "special_discards": [], "concealed": 7,
                     "fan": None, **p} for p in players]
    return v


def _lit(page: Any) -> list[list[int]]:
    """[seat, index, river length] of each lit river tile."""
    return page.evaluate("""() => [...document.querySelectorAll('#game-table .river .tile.last')].map(e =>
        [Number(e.parentElement.dataset.seat), [...e.parentElement.children].indexOf(e), e.parentElement.childElementCount])""")


def test_the_latest_discard_stays_lit_until_the_next(browser: Any, server: str) -> None:
    page = new_page(browser, server, None, SIZES[0])
    assert page.evaluate(SETUP)
    r = [["1m", "2m"], ["5p"], ["9s"], []]

    def show(rivers: list[list[str]], me: int = 0, **kw: Any) -> list[list[int]]:
        page.evaluate("([v, me]) => window.__mark(v, me)", [_view([{"river": x} for x in rivers], **kw), me])
        return _lit(page)

    assert show(r, turn=0) == []                                  # drawn mid-turn: not known yet
    r[1] = r[1] + ["7p"]                                          # seat 1 discards: a claim window
    assert show(r, phase="claim", turn=1, pending="7p") == [[1, 1, 2]]
    assert show(r, phase="turn", turn=2) == [[1, 1, 2]]           # nobody claims: seat 2 draws — still lit
    r[2] = r[2] + ["8s"]                                          # seat 2 discards, no claim possible
    assert show(r, phase="turn", turn=3) == [[2, 1, 2]]           # the highlight moves with it
    assert show(r, phase="turn", turn=3, wall_remaining=49) == [[2, 1, 2]]  # a draw changes nothing
    # a laizi laid aside (after the river's tiles) is the latest discard too
    page.evaluate("([v, me]) => window.__mark(v, me)",
                  [_view([{"river": r[0]}, {"river": r[1]}, {"river": r[2]}, {"river": r[3], "special_discards": ["3m"]}],
                         turn=3), 0])
    assert _lit(page) == [[3, 0, 1]]
    r[3] = ["6m"]                                                  # then a tile, then seat 0 takes it (碰)
    show(r, phase="claim", turn=3, pending="6m")
    r[3] = []
    assert show(r, phase="turn", turn=0) == []                    # a claimed tile leaves the river, and the mark
    # another seat below (the table turned): the same tile lit
    r[0] = r[0] + ["4s"]
    assert show(r, me=2, phase="turn", turn=1) == [[0, 2, 3]]
    page.context.close()


# Melds of every seat from each of the three others; expected place of the sideways tile on the
# screen (left to right) for 上家 / 对家 / 下家.
def _melds(owner: int) -> list[dict[str, Any]]:
    out = []
    for rel, tile in ((3, "1s"), (2, "5p"), (1, "9m")):
        frm = (owner + rel) % 4
        out.append({"type": "peng", "tile": tile, "tiles": [tile] * 3, "from": frm})
        out.append({"type": "kong", "tile": "4s", "tiles": ["4s"] * 4, "from": frm})
        out.append({"type": "addkong", "tile": "6p", "tiles": ["6p"] * 4, "from": frm})
    out.append({"type": "chi", "tile": "4m", "tiles": ["4m", "5m", "6m"], "from": (owner + 3) % 4})
    # a chi that says which tile it took (the 5p of 4-5-6p; the 3s of 1-2-3s): that one lies
    # sideways at the giver's end, the two from the hand after it in order
    out.append({"type": "chi", "tile": "4p", "tiles": ["4p", "5p", "6p"], "from": (owner + 3) % 4,
                "claimed": "5p"})
    out.append({"type": "chi", "tile": "1s", "tiles": ["1s", "2s", "3s"], "from": (owner + 3) % 4,
                "claimed": "3s"})
    return out


# the order a chi of _melds lies in, as its owner reads it (the taken tile first)
CHI_ROWS = {"4m": ["4m", "5m", "6m"], "4p": ["5p", "4p", "6p"], "1s": ["3s", "1s", "2s"]}


MELDS_JS = """() => [...document.querySelectorAll('#game-table .seat')].map(seat => ({
  seat: Number(seat.dataset.seat), pos: Number(seat.dataset.pos),
  melds: [...seat.querySelectorAll('.meld:not(.spk)')].map(m => {
    const tiles = [...m.querySelectorAll('.tile')];
    const flat = tiles.filter(e => !e.classList.contains('stacked'));
    const side = flat.findIndex(e => e.classList.contains('sideways'));
    const box = e => { const r = e.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; };
    const st = tiles.find(e => e.classList.contains('stacked'));
    return { type: m.dataset.type, codes: flat.map(e => e.dataset.tile || null), side,
             boxes: flat.map(box), stacked: st ? box(st) : null };
  })
}))"""


@pytest.mark.parametrize("size", SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
def test_a_claimed_tile_lies_on_the_side_it_came_from(browser: Any, server: str, size: tuple[int, int]) -> None:
    page = new_page(browser, server, None, size)
    assert page.evaluate(SETUP)
    v = _view([{"melds": _melds(s)} for s in range(4)])
    page.evaluate("([v, me]) => window.__mark(v, me)", [v, 1])   # seat 1 below: every seat moves
    seats = page.evaluate(MELDS_JS)
    pos_of = {st["seat"]: st["pos"] for st in seats}
    for st in seats:
        owner, pos = st["seat"], st["pos"]
        assert pos == (owner - 1) % 4
        for k, m in enumerate(st["melds"]):
            n = len(m["boxes"])
            where = f"seat {owner} (pos {pos}) meld {k} {m['type']} {m['codes']}"
            if m["type"] == "chi":
                # from 上家: the owner's left — our right for the top seat (it faces us)
                assert m["side"] == (2 if pos == 2 else 0), where
                row = next(r for r in CHI_ROWS.values() if sorted(r) == sorted(m["codes"]))
                assert m["codes"] == (row[::-1] if pos == 2 else row), where
                assert m["codes"][m["side"]] == row[0], where   # the taken tile is the sideways one
                continue
            rel = (3, 2, 1)[k // 3]
            own = {3: 0, 2: 1, 1: n - 1}[rel]                  # as the owner sees the row
            want = n - 1 - own if pos == 2 else own
            assert m["side"] == want, where
            assert n == (4 if m["type"] == "kong" else 3), where
            frm = (owner + rel) % 4
            if pos in (0, 2) and rel != 2:
                # the bottom and top seats: the sideways tile is the meld's end towards the giver
                cx = [(b[0] + b[2]) / 2 for b in m["boxes"]]
                towards = min if pos_of[frm] == 3 else max   # the giver sits on our left / right
                assert towards(range(n), key=lambda i: cx[i]) == m["side"], where
            if m["type"] == "addkong":
                s, t = m["boxes"][m["side"]], m["stacked"]
                assert t is not None, where
                assert abs((s[0] + s[2]) / 2 - (t[0] + t[2]) / 2) < 1.5, f"{where}: stacked {t} not over {s}"
                # beyond the sideways tile as its owner sees it: above it, but the top seat's below
                # (towards the centre: it faces us)
                gap = t[1] - s[3] if pos == 2 else s[1] - t[3]
                assert abs(gap) < 1.5, f"{where}: stacked {t} not on top of {s}"
    page.context.close()


def test_a_live_tables_discards_are_lit(browser: Any, server: str) -> None:
    """A real table (托管 on: the hand plays itself): every tile that lands in a river is the one lit
    when the table is next drawn, claim window or not."""
    page = new_page(browser, server, "亮牌", SIZES[0])
    start_fixed_deal(page, SEED, turn=120, seat=0, hands=1)
    page.evaluate("""() => {
      window.__seen = { landed: 0, lit: 0, unlit: [], many: 0, quiet: 0 };
      const root = document.getElementById('game-table');
      const counts = new WeakMap();
      new MutationObserver(recs => {
        const S = window.__seen;
        const adds = recs.filter(r => r.type === 'childList' && r.target.classList.contains('river') && r.addedNodes.length);
        const rivers = new Set(adds.map(r => r.target));
        if (document.querySelectorAll('#game-table .river .tile.last').length > 1) S.many++;
        const river = [...rivers][0];
        const before = river ? counts.get(river) || 0 : 0;
        for (const r of document.querySelectorAll('#game-table .river')) counts.set(r, r.childElementCount);
        // one river a tile more (a claim from a seat with laid-aside 赖子/红中 redraws those: none more)
        if (rivers.size !== 1 || river.childElementCount <= before) return;
        // the tiles added (a tile before laid-aside 赖子/红中 redraws those after it too)
        const added = adds.flatMap(r => [...r.addedNodes]).filter(e => e.isConnected);
        S.landed++;
        if (added.some(e => e.classList.contains('last'))) {
          S.lit++;
          if (document.querySelector('#game-table .claim.hidden')) S.quiet++;
        } else S.unlit.push(river.dataset.seat);
      }).observe(root, { childList: true, subtree: true });
    }""")
    auto_on(page)
    poll(page, "() => window.__seen.quiet >= 3 || !!document.querySelector('[data-testid=\"settlement\"]:not(.hidden)')",
         timeout=120)
    seen = page.evaluate("() => window.__seen")
    assert seen["many"] == 0, seen
    assert seen["landed"] and not seen["unlit"], seen
    assert seen["quiet"] >= 1, seen   # lit with no claim window open
    page.context.close()


# our hand and how many tiles lie in our river (laid-aside ones too): a play changes it
HAND_JS = ("() => [...document.querySelectorAll('#hand .tile')].map(e => e.dataset.tile).join() + '|' + "
           "document.querySelectorAll('#game-table .river[data-seat=\"0\"] .tile').length")


def test_the_latest_discard_is_lit_after_a_reload(browser: Any, server: str) -> None:
    """A page drawn mid-turn (a reload: a reconnect) lights the latest discard at once: it knows
    it from the events its snapshot repeats. (Before, nothing was lit until the next discard.)"""
    page = new_page(browser, server, "重连亮牌", SIZES[0])
    start_fixed_deal(page, SEED, turn=120, seat=0, hands=1)
    mine = '#game-table .river[data-seat="0"] .tile.last'
    end = time.monotonic() + 90
    while True:  # pass every claim; discard until our turn comes after another seat's discard
        assert time.monotonic() < end, "our turn never came after another seat's discard"
        assert not page.locator('[data-testid="settlement"]:not(.hidden)').count(), "the hand ended first"
        passing = page.locator('#actions button[data-act="pass"]')
        if passing.count():
            with contextlib.suppress(Exception):
                passing.first.click(timeout=1000)
            continue
        if not page.locator('#hand .tile.clickable[data-act="discard"]').count():
            page.wait_for_timeout(100)  # (the bots' turns: a short look again)
            continue
        lit = _lit(page)
        if len(lit) == 1 and not page.locator(mine).count():
            break
        hand = page.evaluate(HAND_JS)
        tile = page.locator('#hand .tile.clickable[data-act="discard"]').last.get_attribute("data-tile")
        with contextlib.suppress(Exception):
            tap_twice(page, str(tile))
        # played (a 红中 or laizi is laid aside and a tile drawn: the turn goes on)
        poll(page, f"(was) => ({HAND_JS})() !== was", hand, timeout=10)
    page.reload()
    page.wait_for_selector('#hand .tile.clickable[data-act="discard"]')
    assert _lit(page) == lit
    page.context.close()
