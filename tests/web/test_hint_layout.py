"""Layout boxes at the phone sizes (issue 21): the hint panel covers no seat's name, melds or
hand, no river, not the wall count nor the claim card nor an action button — not even the widest
bar of them (three chow choices and 过, on two rows on a 667×375 phone) — and nothing spills
sideways; the top seat beside it keeps its name whole and its hidden tiles on one row; the
phone-landscape settlement fits the screen with its four score rows clear of its buttons; 离开
in the 菜单 sheet is reachable without scrolling.

A real `laizi serve`, the system Chromium, a seated player with hints on playing one hand with
bots, on a fixed deal that ends drawn with the own river two rows long; the table's boxes are
checked at every moment while hints are on, the panel's at every moment it shows — at the three
phone sizes at once: the player's table is open in three pages, one a size (the same seat,
support.webhelpers.same_player_page; not one page turned from size to size: a word that popped
up (碰!) keeps the place it was given for the old size, and on a page turned upright its box ran
past the right edge — #game could scroll sideways, which this test forbids). The menu's 离开 at
both phone sizes on one page, turned to each (support.webhelpers.resize). Screenshots go to
screens_dir()."""

from __future__ import annotations

import time
from typing import Any

import pytest

from support.webhelpers import HINT_BLOCKERS as BLOCKERS
from support.webhelpers import HINT_COVERS as OVERLAPS
from support.webhelpers import (
    act_once,
    act_quick,
    caught_up,
    new_page,
    resize,
    same_player_page,
    screens_dir,
    start_table,
)

pytestmark = pytest.mark.browser

SPILL = """() => {
  const out = [];
  const g = document.getElementById("game");
  if (g.scrollWidth > g.clientWidth + 1 || g.scrollLeft !== 0) out.push(`game scrolls sideways ${g.scrollWidth}/${g.clientWidth}`);
  for (const e of document.querySelectorAll(".seat .plate, #hand .tile, #actions button, #wall-count")) {
    const r = e.getBoundingClientRect();
    if (r.width && (r.left < -1 || r.right > innerWidth + 1)) out.push(`${e.className || e.id} at ${Math.round(r.left)}-${Math.round(r.right)}`);
    if (r.width && r.bottom > innerHeight + 1) out.push(`${e.className || e.id} below the screen (${Math.round(r.bottom)})`);
  }
  // the HUD (菜单 提示 聊天 公平性) over no seat
  for (const b of document.querySelectorAll(".hud-btn")) {
    const h = b.getBoundingClientRect();
    if (!h.width) continue;
    for (const e of document.querySelectorAll(".seat .plate, .seat .meld, .seat .concealed .tile")) {
      const r = e.getBoundingClientRect();
      if (r.width && Math.min(h.right, r.right) - Math.max(h.left, r.left) > 1 && Math.min(h.bottom, r.bottom) - Math.max(h.top, r.top) > 1) {
        out.push(`${b.id} over ${e.className}@${Math.round(r.left)},${Math.round(r.top)}`); break;
      }
    }
  }
  // the own hand and plate, squeezed by the panel's room, must not run into the table above
  const own = [...document.querySelectorAll("#hand .tile, .seat.pos-bottom .plate")].map(e => e.getBoundingClientRect());
  for (const e of document.querySelectorAll(".river .tile, .seat:not(.pos-bottom) .concealed .tile, .seat:not(.pos-bottom) .meld, .seat:not(.pos-bottom) .plate")) {
    const r = e.getBoundingClientRect();
    if (!r.width) continue;
    for (const o of own) {
      if (Math.min(o.right, r.right) - Math.max(o.left, r.left) > 1 && Math.min(o.bottom, r.bottom) - Math.max(o.top, r.top) > 1) {
        out.push(`own hand over ${e.className}@${Math.round(r.left)},${Math.round(r.top)}`); break;
      }
    }
  }
  // the own river's row ends above the own plate, whatever the number of its rows (its tiles
  // may run wider than the row's column, so the plate keeps below the row, not just aside)
  const rb = document.querySelector(".river.rpos-bottom"), pl = document.querySelector(".seat.pos-bottom .plate");
  if (rb && pl) {
    const a = rb.getBoundingClientRect(), p = pl.getBoundingClientRect();
    if (p.width && a.bottom > p.top + 1) out.push(`own river's row ends at ${Math.round(a.bottom)}, under the own plate (${Math.round(p.top)})`);
  }
  return out;
}"""

# The top seat beside the panel (phone landscape: between the HUD and the column): its name
# whole (not ellipsized) and its hidden tiles on one row — boxes, not pixels.
TOP_SEAT = """() => {
  const seat = document.querySelector(".seat.pos-top");
  const out = [];
  const name = seat && seat.querySelector(".plate .pname");
  if (!name || !name.textContent) return ["no top seat name"];
  if (name.scrollWidth > name.clientWidth + 1) out.push(`name ${name.textContent} cut: ${name.scrollWidth} > ${name.clientWidth}`);
  const rows = new Set([...seat.querySelectorAll(".concealed .tile")].map(t => Math.round(t.getBoundingClientRect().top)));
  if (rows.size > 1) out.push(`hidden tiles on ${rows.size} rows`);
  return out;
}"""


def hints_on(page: Any) -> None:
    page.click("#btn-menu")
    page.check("#hints-toggle")
    page.click('[data-close="sheet-menu"]')


def leave_reachable(page: Any) -> str | None:
    """None when 离开 lies inside the open menu sheet's visible part and the screen."""
    return page.evaluate("""() => {
      const body = document.querySelector("#sheet-menu .sheet-body").getBoundingClientRect();
      const b = document.getElementById("btn-leave2").getBoundingClientRect();
      const ok = b.height > 0 && b.top >= body.top && b.bottom <= body.bottom && b.bottom <= innerHeight;
      return ok ? null : `离开 at ${Math.round(b.top)}-${Math.round(b.bottom)}, sheet ${Math.round(body.top)}-${Math.round(body.bottom)}`;
    }""")


def settlement_fits(page: Any) -> list[str]:
    return list(page.evaluate("""() => {
      const out = [];
      const card = document.querySelector("#settlement .settle-card").getBoundingClientRect();
      if (card.top < 0 || card.bottom > innerHeight || card.left < 0 || card.right > innerWidth) out.push("card outside the screen");
      const btns = document.querySelector("#settlement .settle-btns").getBoundingClientRect();
      const rows = [...document.querySelectorAll("#settle-body table.pay tr")];
      if (rows.length !== 5) out.push(`${rows.length} rows`);
      for (const r of rows) {
        const b = r.getBoundingClientRect();
        if (b.top < card.top || b.bottom > btns.top + 1) out.push(`row at ${Math.round(b.top)}-${Math.round(b.bottom)} under the buttons (${Math.round(btns.top)})`);
      }
      const hand = document.getElementById("winning-hand");
      if (hand) { const h = hand.getBoundingClientRect(); if (h.top < card.top || h.bottom > btns.top) out.push("winning hand hidden"); }
      if (btns.bottom > innerHeight) out.push("buttons below the screen");
      return out;
    }"""))


# A fixed deal (the same hand every run) that ends drawn (荒庄), the own river two rows long
# (14+ tiles, 13 a row at 844x390) at the own turns near its end. Its note in the centre makes
# the centre taller too: before the fix the own river ran under the own plate at 844x390 from the
# first own discard on (a random deal did so only late in a long hand — 2 runs in 6).
PANEL_SEED = "r22"

# (layout rows: offsetTop, which the newest tile's drop-in animation does not move)
OWN_RIVER_ROWS = """() => new Set([...document.querySelectorAll(".river.rpos-bottom .tile")].map(t => t.offsetTop)).size"""

# The widest action bar a player meets, while the panel shows at an own turn (no buttons yet):
# three chow choices and 过, with their English labels (several chow or kong choices wrap onto a
# second row at 667×375: it ran up into the panel). The buttons are put in, measured against the
# panel and taken out again in the same moment; null when the panel does not show or the bar
# already has buttons. ``rows``: how many rows the bar took.
WIDEST_BAR = """() => {
  const box = document.getElementById("hintbox"), bar = document.getElementById("actions");
  if (!box || box.classList.contains("hidden") || bar.childElementCount) return null;
  const added = ["Chow 4-5-6 Dots", "Chow 5-6-7 Dots", "Chow 6-7-8 Dots", "Pass"].map(label => {
    const b = document.createElement("button");
    b.type = "button";
    b.className = label === "Pass" ? "act act-pass" : "act act-chi";
    b.textContent = label;
    return bar.appendChild(b);
  });
  bar.classList.remove("empty");
  const h = box.getBoundingClientRect(), bad = [];
  for (const b of added) {
    const r = b.getBoundingClientRect();
    if (Math.min(h.right, r.right) - Math.max(h.left, r.left) > 1 && Math.min(h.bottom, r.bottom) - Math.max(h.top, r.top) > 1)
      bad.push(`hint panel ${Math.round(h.left)},${Math.round(h.top)}-${Math.round(h.right)},${Math.round(h.bottom)} over ${b.textContent}@${Math.round(r.left)},${Math.round(r.top)}`);
    if (r.left < -1 || r.right > innerWidth + 1 || r.top < -1) bad.push(`${b.textContent} off the screen`);
  }
  const rows = new Set(added.map(b => Math.round(b.getBoundingClientRect().top))).size;
  for (const b of added) b.remove();
  bar.classList.add("empty");
  return {bad, rows};
}"""

# All of it at one moment, while the table is laid out with the panel's room (null otherwise).
NOW = ("sel => { if (!document.querySelector('#game.has-hint') || "
       "document.querySelector('[data-testid=\"settlement\"]:not(.hidden)')) return null; "
       f"return {{bad: ({OVERLAPS})(sel), spill: ({SPILL})(), top: ({TOP_SEAT})(), rows: ({OWN_RIVER_ROWS})(), "
       f"claim: !!document.querySelector('.claim:not(.hidden)'), wide: ({WIDEST_BAR})()}}; }}")


SIZES = {"portrait": (390, 844), "landscape": (844, 390), "small-landscape": (667, 375)}


class Seen:
    """What was seen at one size through the hand."""

    def __init__(self, size: tuple[int, int]) -> None:
        self.size, self.tag = size, f"{size[0]}x{size[1]}"
        self.checked = self.claims = self.laid = self.two_rows = self.wide = self.shots = 0
        self.wide_rows: set[int] = set()

    def look(self, page: Any) -> None:
        # the table laid out with the panel's room: checked at every moment (the game waits for
        # the own move, so every own turn is seen, the last ones with two river rows); what the
        # panel itself may cover, at every moment it shows
        # (one evaluation: the hand may end between two, and the layout leaves hints then)
        now = page.evaluate(NOW, BLOCKERS)
        if now is None:
            return
        bad, spill, top, rows = now["bad"], now["spill"], now["top"], now["rows"]
        if bad or spill or top:
            page.screenshot(path=str(screens_dir() / f"hint-overlap_{self.tag}.png"))
        assert not bad and not spill and not top, (self.tag, bad, spill, top, rows)
        if now["wide"] is not None:  # the widest bar keeps clear of the panel too
            assert not now["wide"]["bad"], (self.tag, now["wide"])
            self.wide += 1
            self.wide_rows.add(now["wide"]["rows"])
        self.laid += 1
        self.two_rows += rows >= 2
        if bad is not None:
            self.checked += 1
            self.claims += now["claim"]
            if self.shots < 2 and (self.claims or self.checked > 3):
                page.screenshot(path=str(screens_dir() / f"hint-panel{self.shots}_{self.tag}.png"))
                self.shots += 1
        if rows >= 2 and self.two_rows == 1:
            page.screenshot(path=str(screens_dir() / f"hint-river2_{self.tag}.png"))


def test_the_hint_panel_covers_nothing_and_the_settlement_fits(browser: Any, server: str) -> None:
    """Portrait, landscape and a small phone sideways: one hand, a page of the seat at each size."""
    page = new_page(browser, server, "版面检查员", size=SIZES["portrait"])
    page.click("details.more > summary")  # the fixed deal is among the further options
    page.fill("#c-seed", PANEL_SEED)
    page.fill("#c-turn", "90")
    code = start_table(page, seat=0, level="greedy", hands=1)
    pages = [(page, Seen(SIZES["portrait"]))]
    for size in (SIZES["landscape"], SIZES["small-landscape"]):
        pages.append((same_player_page(browser, page, server, code, size), Seen(size)))
    for p, _ in pages:
        hints_on(p)
    deadline = time.time() + 240
    while not page.locator('[data-testid="settlement"]:not(.hidden)').count():
        assert time.time() < deadline, "the hand did not end"
        for p, seen in pages:
            caught_up(page, p)
            seen.look(p)
        act_quick(page)
        page.wait_for_timeout(40)
    for _, s in pages:
        assert s.checked >= 1 and s.two_rows >= 1, (s.tag, s.laid, s.checked, s.two_rows)  # the deal did what it is here for
        assert s.wide >= 1, (s.tag, s.wide)  # the widest bar was tried (on a small phone sideways: on two rows)
        assert s.size != (667, 375) or max(s.wide_rows) >= 2, s.wide_rows
        print(f"{s.tag}: layout checked at {s.laid} moments ({s.two_rows} with two own river rows), "
              f"the panel's boxes at {s.checked} ({s.claims} with the claim card)")
    # the settlement: within the screen, the four rows and the hand clear of the buttons
    for p, _ in pages:
        caught_up(page, p)
        p.wait_for_selector('[data-testid="settlement"]:not(.hidden)')
    page.wait_for_timeout(300)  # (its entrance) — the boxes are then read once
    for p, s in pages:
        p.screenshot(path=str(screens_dir() / f"settle-fit_{s.tag}.png"))
        assert settlement_fits(p) == [], s.tag
    for p, _ in pages:
        p.context.close()


# A fixed deal whose top seat melds at once (seen from seat 0): before the fix its name was cut
# to 机器… and a hidden tile wrapped from the second moment the panel showed.
TOP_SEED = "top1"
TOP_NOW = ("() => { if (!document.querySelector('#game.has-hint') || document.querySelector('#hintbox.hidden') || "
           "document.querySelector('[data-testid=\"settlement\"]:not(.hidden)')) return null; "
           f"return {{bad: ({TOP_SEAT})(), meld: !!document.querySelector('.seat.pos-top .meld')}}; }}")


def test_the_top_seat_beside_the_panel_keeps_its_name_and_one_row(browser: Any, server: str) -> None:
    page = new_page(browser, server, "顶座检查员", size=(844, 390))
    page.click("details.more > summary")  # the fixed deal is among the further options
    page.fill("#c-seed", TOP_SEED)
    page.fill("#c-turn", "90")
    start_table(page, seat=0, level="greedy", hands=1)
    hints_on(page)
    checked = with_meld = 0
    deadline = time.time() + 240
    while not page.locator('[data-testid="settlement"]:not(.hidden)').count():
        assert time.time() < deadline, "the hand did not end"
        top = page.evaluate(TOP_NOW)  # (one evaluation: the hand may end meanwhile)
        if top is not None:
            if top["bad"]:
                page.screenshot(path=str(screens_dir() / "hint-top-seat_844x390.png"))
            assert not top["bad"], top["bad"]
            checked += 1
            with_meld += top["meld"]
        act_quick(page)
        page.wait_for_timeout(40)
    assert with_meld >= 1, (checked, with_meld)  # the deal did what it is here for
    print(f"top seat checked at {checked} moments, {with_meld} with a meld")
    page.context.close()


def test_leave_is_reachable_in_the_menu_without_scrolling(browser: Any, server: str) -> None:
    """Portrait and landscape: one table, the page turned to each."""
    page = new_page(browser, server, "菜单检查员", size=(390, 844))
    page.click("details.more > summary")  # the long fixed deal: no settlement over the menu
    page.fill("#c-seed", PANEL_SEED)      # after a few moves (a random one could end at once)
    start_table(page, seat=0, level="greedy")
    moves, deadline = 0, time.time() + 60
    while moves < 6:  # a few moves, so the log and tables have grown
        assert time.time() < deadline, moves
        if act_once(page):
            moves += 1
        else:
            page.wait_for_timeout(50)
    assert not page.locator('[data-testid="settlement"]:not(.hidden)').count()
    for size in [(390, 844), (844, 390)]:
        resize(page, size)
        page.click("#btn-menu")
        page.wait_for_selector("#sheet-menu:not(.hidden)")
        assert leave_reachable(page) is None, (size, leave_reachable(page))
        # scrolled down to the log and closed, it opens again at its top
        page.evaluate("() => { const b = document.querySelector('#sheet-menu .sheet-body'); b.scrollTop = b.scrollHeight; }")
        page.click('[data-close="sheet-menu"]')
        page.click("#btn-menu")
        page.wait_for_selector("#sheet-menu:not(.hidden)")
        page.screenshot(path=str(screens_dir() / f"menu_{size[0]}x{size[1]}.png"))
        assert leave_reachable(page) is None, (size, leave_reachable(page))
        page.click('[data-close="sheet-menu"]')
        page.wait_for_selector("#sheet-menu", state="hidden")
    page.context.close()
