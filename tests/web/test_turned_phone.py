"""A phone turned round mid-hand: what the table draws by its size in JS follows the turn.

Three things on the table are drawn by a render for the screen's size, not by CSS alone: the own 听
line (fan.js: how many chips, and short words on a phone sideways in English), a word such as
碰! (table.js placeAnnounce: a free spot in pixels) and a chat bubble by a speaker's plate (table.js
showBubble, placed the same way). Before the fix a turn did not render: turned
from upright to sideways, the English waits stayed cut ("8 Characters×3 · 60 pts · enough…") until
the next frame; turned upright, a word placed sideways kept its pixel spot off the 390 px screen
(x 331–479) and ``#game`` scrolled sideways.

A real `laizi serve`, the system Chromium; the fixed deal of test_table_fan.py (``fan1467`` under
the Jiayu preset: the dealer, seat 0, discards 六万 and is ready) with a second player on seat 1 who
holds the turn while the page is turned."""

from __future__ import annotations

from typing import Any

import pytest

from support.webhelpers import (
    add_bots,
    create_room,
    join_seat,
    new_page,
    overflow_x,
    poll,
    resize,
    screens_dir,
    sit,
)

pytestmark = [pytest.mark.browser, pytest.mark.slow]

UPRIGHT, SIDEWAYS = (390, 844), (844, 390)

READY_LINE = """() => { const e = document.querySelector('[data-testid="ready-line"]');
  if (!e) return null;
  const chips = [...e.querySelectorAll('.wait-chip')];
  return {h: e.getBoundingClientRect().height, text: chips.map(c => c.textContent),
          cut: chips.filter(c => c.scrollWidth > c.clientWidth + 1).map(c => c.textContent)}; }"""

# a word on the top seat (placed sideways, its pixel spot lies right of an upright phone's 390 px),
# placed as the table places a 碰! (the page's own table.js), its pop slowed down so that it is
# still showing when the turn has settled
PLACE_WORD = """async () => {
  const m = await import('/static/js/table.js');
  const el = document.querySelector('.seat.pos-top .announce');
  el.textContent = 'Red Dragon kong!';
  const box = m.placeAnnounce(el);
  el.classList.add('show');
  for (const a of el.getAnimations()) a.playbackRate = 0.01;
  return box && [box.left, box.right];
}"""
# a chat bubble by the same seat (shown as the table shows a seated speaker's words), slowed too
PLACE_BUBBLE = """async () => {
  const m = await import('/static/js/table.js');
  const el = document.querySelector('.seat.pos-top .bubble');
  const box = m.showBubble(el, 'Good luck, everyone — 大家好运');
  for (const a of el.getAnimations()) a.playbackRate = 0.01;
  return box && [box.left, box.right];
}"""
BOX_OF = """(sel) => { const el = document.querySelector(sel), r = el.getBoundingClientRect();
  return {left: r.left, right: r.right, top: r.top, bottom: r.bottom, w: innerWidth, h: innerHeight,
          running: el.getAnimations().some(a => a.playState === 'running')}; }"""
WORD, BUBBLE = ".seat.pos-top .announce", ".seat.pos-top .bubble"


def _box(page: Any, sel: str) -> dict[str, Any]:
    return page.evaluate(BOX_OF, sel)  # type: ignore[no-any-return]


def _on_screen(b: dict[str, Any]) -> bool:
    return b["left"] >= 0 and b["right"] <= b["w"] and b["top"] >= 0 and b["bottom"] <= b["h"]


def test_a_turned_phone_draws_the_ready_line_and_moves_a_word(browser: Any, server: str) -> None:
    host = new_page(browser, server, "转屏", size=UPRIGHT)
    host.click("#langbtn")
    poll(host, "() => document.documentElement.lang === 'en'")
    poll(host, "() => [...document.querySelectorAll('#c-preset option')].some(o => o.value === 'jiayu')")
    host.select_option("#c-preset", "jiayu")
    host.fill("#c-turn", "90")
    host.click("details.more > summary")
    host.fill("#c-seed", "fan1467")
    code = create_room(host, hands=1)
    sit(host, 0)
    guest = new_page(browser, server, "下家", size=UPRIGHT)
    join_seat(guest, code, 1)
    guest.click('[data-testid="ready"]')
    add_bots(host, [2, 3], "greedy")
    host.click("#btn-start")
    host.wait_for_selector("#hand .tile")
    host.locator('#hand .tile.clickable[data-tile="6m"]').first.click()
    host.locator("#hand .tile.raised").first.click()
    host.locator('[data-testid="ready-line"] [data-testid="wait"]').first.wait_for()
    guest.wait_for_selector("#hand .tile.clickable")  # the guest holds the turn: nothing renders
    upright = host.evaluate(READY_LINE)
    assert upright and upright["text"], upright

    # turned sideways: the line drawn again for the size (short words, one row, none cut)
    resize(host, SIDEWAYS)
    poll(host, "() => { const c = document.querySelector('[data-testid=\"ready-line\"] .wait-chip');"
               " return c && c.scrollWidth <= c.clientWidth + 1; }")
    line = host.evaluate(READY_LINE)
    host.screenshot(path=str(screens_dir() / "turned-ready-844x390.png"))
    assert not line["cut"] and line["h"] <= 36, f"upright {upright}, then sideways {line}"
    assert line["text"] != upright["text"], "the sideways line keeps the upright words"

    # a word and a chat bubble placed sideways, then the phone turned upright: both move onto
    # the screen
    placed = host.evaluate(PLACE_WORD)
    assert placed, "no free spot for the word sideways"
    bubbled = host.evaluate(PLACE_BUBBLE)
    assert bubbled, "no free spot for the bubble sideways"
    resize(host, UPRIGHT)
    poll(host, f"() => ({BOX_OF})('{WORD}').right <= innerWidth && ({BOX_OF})('{BUBBLE}').right <= innerWidth")
    word, bubble = _box(host, WORD), _box(host, BUBBLE)
    host.screenshot(path=str(screens_dir() / "turned-word-390x844.png"))
    assert word["running"] and bubble["running"], (word, bubble)  # (still showing: the check means something)
    assert _on_screen(word), word
    assert _on_screen(bubble), bubble
    assert overflow_x(host) <= 0
    assert not host.errors and not guest.errors  # type: ignore[attr-defined]
    guest.context.close()
    host.context.close()
