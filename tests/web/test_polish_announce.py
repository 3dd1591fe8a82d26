"""Playwright (system Chromium) on a live ``laizi serve``: a spectator watches four greedy bots at
a phone in portrait (390×844), in landscape (844×390) and on a desktop (1366×900); every announcement (碰! 杠! 胡! …) is
placed inside the screen where it covers no meld, no river tile, no tile of the centre, no seat's name plate, none of the
top bar's buttons (菜单 …), the status line or the action buttons — the boxes are compared at the moment each
announcement appears, and sampled every 40 ms while it shows —, and no meld lies off the screen. Upright,
a seated player's own word stands clear (10 px) of its hand's first row and of its plate while it pops in and
after (its box came within 5 px of the plate, which stands 22 px above the hand: it seemed to sit on
the hand as it popped in; polish9).

The three sizes watch one match at once, a page each (a word is placed by a render for its page's
size); the placements asked of placeAnnounce are read on one page turned to each size in turn
(support.webhelpers.resize: it places by the boxes at the moment it is called)."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from laizi.server.common.protocol import PROTOCOL
from support.webhelpers import (
    act_quick,
    live_server,
    new_page,
    poll,
    resize,
    screens_dir,
    start_fixed_deal,
)

pytestmark = pytest.mark.browser

# the controls around the table: the top bar's buttons (菜单 提示 聊天 公平性), the status line,
# the action buttons (碰 杠 胡 过 …)
UI_SELECTOR = "#game .hud button, #game .status-line, #actions button"

WATCH = """() => {
  const UI = '__UI__';
  window.__ann = [];
  const rect = e => { const r = e.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; };
  new MutationObserver(muts => {
    const done = new Set();  // one record per element per batch (a flush changes its class thrice)
    for (const m of muts) {
      const el = m.target;
      if (done.has(el) || !el.classList || !el.classList.contains('announce') || !el.classList.contains('show')) continue;
      if (m.oldValue && m.oldValue.includes('show')) continue;
      done.add(el);
      const anims = el.getAnimations();          // the box at scale 1 (70 % into the pop)
      for (const a of anims) { a.pause(); a.currentTime = 700; }
      const r = el.getBoundingClientRect();
      const op = getComputedStyle(el).opacity;
      for (const a of anims) { a.currentTime = 0; a.play(); }
      if (!anims.length || op !== '1') { window.__ann.push({ word: el.textContent, box: null }); continue; }
      const w = r.width * 1.15, h = r.height * 1.15;   // at the pop's largest
      const cx = (r.left + r.right) / 2, cy = (r.top + r.bottom) / 2;
      const box = [cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2];
      const tiles = [...document.querySelectorAll('#table .meld, #table .river .tile, #table .ctile .tile, #table .plate, ' + UI)]
        .map(e => [e.className.split(' ')[0] || e.id, rect(e)]).filter(([, r]) => r[2] > r[0]);
      window.__ann.push({ word: el.textContent, seat: el.parentElement.dataset.seat, box, tiles, t: Math.round(performance.now()),
                          vw: innerWidth, vh: innerHeight });
    }
  }).observe(document.getElementById('game'), { subtree: true, attributes: true, attributeFilter: ['class'], attributeOldValue: true });
  // while a word shows, the table keeps changing: sample what it really covers
  window.__cover = [];
  window.__samples = 0;
  setInterval(() => {
    const tiles = [...document.querySelectorAll('#table .meld, #table .river .tile, #table .ctile .tile, #table .plate')];
    const ui = [...document.querySelectorAll(UI)].filter(e => e.getBoundingClientRect().width > 0);
    for (const el of document.querySelectorAll('#table .announce')) {
      if (parseFloat(getComputedStyle(el).opacity) < 0.5) continue;
      window.__samples++;
      const a = el.getBoundingClientRect();
      if (a.left < -1 || a.top < -1 || a.right > innerWidth + 1 || a.bottom > innerHeight + 1)
        window.__cover.push(`${el.textContent} off screen at ${[a.left, a.top, a.right, a.bottom].map(Math.round)}`);
      for (const t of [...tiles, ...ui]) {
        const b = t.getBoundingClientRect();
        const w = Math.min(a.right, b.right) - Math.max(a.left, b.left), h = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
        if (w > 1 && h > 1) window.__cover.push(`${el.textContent} over ${t.className} (${Math.round(w)}x${Math.round(h)} px)`);
      }
    }
  }, 40);
}""".replace("__UI__", UI_SELECTOR)


@pytest.fixture(scope="module")
def slow_bots(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    # loopback exempt: the six tests start six tables of four bots (3 at once per address)
    with live_server(Path(tmp_path_factory.mktemp("announce")), "--hand-pause", "1",
                     env={"LAIZI_RATE_EXEMPT": "127.0.0.1"}) as base:
        yield base


def bot_room(base: str, hands: int) -> str:
    import websockets

    async def run() -> str:
        ws = await websockets.connect(base.replace("http", "ws") + "/ws")

        async def until(ok: Any) -> dict[str, Any]:
            """The first frame ``ok`` takes (its type, or a test of it); an error fails."""
            while True:
                m = json.loads(await asyncio.wait_for(ws.recv(), 30))
                assert m.get("type") != "error", m
                if m.get("type") == ok if isinstance(ok, str) else ok(m):
                    return dict(m)

        await ws.send(json.dumps({"type": "hello", "proto": PROTOCOL, "nickname": "watch"}))
        await until("welcome")
        await ws.send(json.dumps({"type": "create", "settings": {"max_hands": hands, "bot_delay": 0.12}}))
        code = str((await until("joined"))["room"]["code"])
        for seat in range(4):
            await ws.send(json.dumps({"type": "bot", "seat": seat, "level": "greedy"}))
        # (waited for, not slept on: a start before the four bots sat, or a close before the
        # start ran, left a room that never played — its pages never showed the table, CI)
        await until(lambda m: m.get("type") == "room" and all(x["bot"] for x in m["room"]["seats"]))
        await ws.send(json.dumps({"type": "start"}))
        await until(lambda m: m.get("type") == "room" and m["room"]["status"] == "playing")
        await ws.close()
        return code

    with ThreadPoolExecutor(1) as ex:  # Playwright's sync API owns this thread's event loop
        return ex.submit(lambda: asyncio.run(run())).result()


def overlaps(a: list[float], b: list[float]) -> float:
    w = min(a[2], b[2]) - max(a[0], b[0])
    h = min(a[3], b[3]) - max(a[1], b[1])
    return w * h if w > 0.5 and h > 0.5 else 0.0


SIZES = [(390, 844), (844, 390), (1366, 900)]


@pytest.mark.slow
def test_announcements_cover_no_melds_or_rivers(browser: Any, slow_bots: str) -> None:
    """One match of four bots, watched at the three sizes at once (a spectator's page each)."""
    base = slow_bots
    pages = [(size, new_page(browser, base, size=size)) for size in SIZES]
    code = bot_room(base, 4)
    for _, page in pages:
        page.goto(f"{base}/room/{code}")
    for _, page in pages:
        page.wait_for_selector("#game:not(.hidden)")
        page.evaluate(WATCH)
    seen: dict[tuple[int, int], list[dict[str, Any]]] = {size: [] for size in SIZES}
    end = time.time() + 45
    over = False
    while time.time() < end and not over and min(len(a) for a in seen.values()) < 4:
        pages[0][1].wait_for_timeout(400)
        for size, page in pages:
            if len(seen[size]) >= 4:
                continue
            seen[size] = page.evaluate("() => window.__ann")
            if len(seen[size]) == 1:
                page.screenshot(path=str(screens_dir() / f"polish-announce-{size[0]}x{size[1]}.png"))
            if page.locator('[data-testid="settlement"]:not(.hidden)').count() and \
                    page.evaluate("() => document.body.textContent.includes('比赛结束')"):
                over = True
    for size, page in pages:
        _covers_nothing(seen[size], size)
        assert page.evaluate("() => window.__samples") > 0, size
        assert page.evaluate("() => window.__cover") == [], size
        assert page.errors == [], size
        poll(page, "() => true")
    for _, page in pages:
        page.context.close()


def _covers_nothing(seen: list[dict[str, Any]], size: tuple[int, int]) -> None:
    assert seen, f"no announcement in the match ({size})"
    for a in seen:
        assert a["box"] is not None, f"{a['word']}: not shown by its animation ({size})"
        x0, y0, x1, y1 = a["box"]
        assert x0 >= -1 and y0 >= -1 and x1 <= a["vw"] + 1 and y1 <= a["vh"] + 1, f"off screen: {a['word']} {a['box']} ({size})"
        off = [r for kind, r in a["tiles"] if kind == "meld" and (r[0] < -1 or r[2] > a["vw"] + 1)]
        assert off == [], f"melds off screen: {off} ({size})"
        hits = [(kind, r) for kind, r in a["tiles"] if overlaps(a["box"], r)]
        assert hits == [], f"{a['word']} (seat {a['seat']}) at {a['box']} covers {hits} ({size})"
    assert any(a["tiles"] and any(k == "meld" for k, _ in a["tiles"]) for a in seen), f"no melds on the table ({size})"


PLACE_ALL = """async (words) => {
  const { placeAnnounce } = await import('/static/js/table.js');  // the module main.js runs
  const rect = e => { const r = e.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; };
  const ui = [...document.querySelectorAll('__UI__')].filter(e => e.getBoundingClientRect().width > 0)
    .map(e => [e.id || e.className || e.textContent, rect(e)]);
  const out = [];
  for (const el of document.querySelectorAll('#table .announce')) {
    for (const word of words) {
      el.textContent = word;
      const box = placeAnnounce(el);
      const anims = el.getAnimations();
      for (const a of anims) { a.pause(); a.currentTime = 150; }   // the pop at its largest
      out.push({ word, seat: el.parentElement.dataset.seat, placed: box !== null, box: rect(el), ui });
      for (const a of anims) a.cancel();
    }
  }
  return out;
}""".replace("__UI__", UI_SELECTOR)


SHOW_ALL = """async () => {
  const { placeAnnounce } = await import('/static/js/table.js');
  for (const el of document.querySelectorAll('#table .announce')) {
    el.textContent = '红中杠!';
    placeAnnounce(el);
    for (const a of el.getAnimations()) { a.pause(); a.currentTime = 500; }
  }
}"""


@pytest.mark.slow
def test_announcements_clear_of_the_controls(browser: Any, slow_bots: str) -> None:
    """Every word (the longest, 红中杠!, and the short 吃!) at every seat, placed as a render
    places it: inside the screen, over none of the top bar's buttons, the status line or the
    action buttons (a bot's 红中杠! once covered 菜单 at 844×390; 吃! was cut at the right edge
    at 390×844) — at each size, the page turned to it."""
    base = slow_bots
    page = new_page(browser, base, size=SIZES[0])
    code = bot_room(base, 4)
    page.goto(f"{base}/room/{code}")
    page.wait_for_selector("#game:not(.hidden)")
    poll(page, "() => document.querySelectorAll('#table .announce').length === 4")
    for size in SIZES:
        resize(page, size)
        got = page.evaluate(PLACE_ALL, ["红中杠!", "吃!", "胡!", "Red Dragon kong!"])
        assert len(got) == 16 and any(g["ui"] for g in got), size
        _placed_clear(got, size)
        page.evaluate(SHOW_ALL)  # every seat's 红中杠! at once, held still: a picture to look at
        page.screenshot(path=str(screens_dir() / f"polish-announce-controls-{size[0]}x{size[1]}.png"))
    assert page.errors == []
    page.context.close()


def _placed_clear(got: list[dict[str, Any]], size: tuple[int, int]) -> None:
    """Every word placeAnnounce placed lies inside the screen and covers none of the controls."""
    for g in got:
        assert g["placed"], (size, g)
        x0, y0, x1, y1 = g["box"]
        assert x0 >= -1 and y0 >= -1 and x1 <= size[0] + 1 and y1 <= size[1] + 1, f"off screen: {g} ({size})"
        hits = [(name, r) for name, r in g["ui"] if overlaps(g["box"], r)]
        assert hits == [], f"{g['word']} (seat {g['seat']}) at {g['box']} covers {hits} ({size})"


SEATED = """async () => {
  const net = await import('/static/js/net.js');   // the page's own socket, as its buttons use it
  net.send({ type: 'create', settings: { max_hands: 4, bot_delay: 0.3, turn_seconds: 600 } });
}"""


@pytest.mark.slow
def test_announcements_clear_of_the_action_bar(browser: Any, slow_bots: str) -> None:
    """A seated player on 托管 has its 取消托管 button in the action bar all match long: every
    word at every seat keeps off it (and off the rest of the controls, inside the screen) — upright
    and sideways, the page turned to each."""
    base = slow_bots
    page = new_page(browser, base, size=(390, 844))
    send = "async m => (await import('/static/js/net.js')).send(m)"
    # one socket: the server takes the messages in order (joined before sit, ready before start)
    page.evaluate(SEATED)
    page.evaluate(send, {"type": "sit", "seat": 0})
    for seat in (1, 2, 3):
        page.evaluate(send, {"type": "bot", "seat": seat, "level": "greedy"})
    page.evaluate(send, {"type": "ready"})
    page.evaluate(send, {"type": "start"})
    page.wait_for_selector("#game:not(.hidden)", timeout=20000)
    page.evaluate(send, {"type": "auto", "on": True})
    page.wait_for_selector("#actions .cancel-auto", timeout=20000)
    poll(page, "() => document.querySelectorAll('#table .announce').length === 4")
    for size in [(390, 844), (844, 390)]:
        resize(page, size)
        got = page.evaluate(PLACE_ALL, ["红中杠!", "吃!", "Red Dragon kong!"])
        assert any(name == "cancel-auto" for name, _ in got[0]["ui"]), (size, got[0]["ui"])
        _placed_clear(got, size)
        page.evaluate(SHOW_ALL)
        page.screenshot(path=str(screens_dir() / f"polish-announce-seated-{size[0]}x{size[1]}.png"))
    assert page.errors == []
    page.context.close()


# The own seat's word upright, as a render places it (placeAnnounce), its pop stepped through
# every 20 ms while it shows: the least gap between its box and the hand's first row (the row's
# tiles; its top where test_drawn_tile_layout reads it, transforms left out), and the own plate
# (the gap between two boxes: along the axis they are apart on, or corner to corner); where it
# was largest, and whether anything it must not cover lies under it (the word's spot may have
# to give way to a crowded table). Null once the settlement is open.
OWN_CLEAR = """async (words) => {
  if (document.querySelector('[data-testid="settlement"]:not(.hidden)')) return null;
  const { placeAnnounce } = await import('/static/js/table.js');
  const el = document.querySelector('#table .seat.pos-bottom .announce');
  const hand = document.getElementById('hand');
  const tiles = [...hand.querySelectorAll('.tile')];
  const first = Math.min(...tiles.map(e => e.offsetTop));
  const row = tiles.filter(e => e.offsetTop === first).map(e => e.getBoundingClientRect());
  const top = hand.getBoundingClientRect().top + parseFloat(getComputedStyle(hand).paddingTop);
  const R = { left: Math.min(...row.map(r => r.left)), right: Math.max(...row.map(r => r.right)),
              top, bottom: top + Math.max(...row.map(r => r.height)) };
  const P = el.parentElement.querySelector('.plate').getBoundingClientRect();
  const gap = (a, b) => Math.hypot(Math.max(0, b.left - a.right, a.left - b.right), Math.max(0, b.top - a.bottom, a.top - b.bottom));
  const keep = el.textContent, out = [];
  for (const word of words) {
    el.textContent = word;
    const placed = placeAnnounce(el) !== null;
    let hand = Infinity, plate = Infinity, largest = null, shown = 0;
    for (let t = 0; t <= 1000; t += 20) {
      for (const a of el.getAnimations()) { a.pause(); a.currentTime = t; }
      if (parseFloat(getComputedStyle(el).opacity) < 0.05) continue;
      shown++;
      const r = el.getBoundingClientRect();
      hand = Math.min(hand, gap(r, R));
      plate = Math.min(plate, gap(r, P));
      if (!largest || r.width > largest[2] - largest[0]) largest = [r.left, r.top, r.right, r.bottom].map(Math.round);
    }
    for (const a of el.getAnimations()) a.cancel();
    el.classList.remove('placed');
    out.push({ word, placed, shown, hand: Math.round(hand * 10) / 10, plate: Math.round(plate * 10) / 10, box: largest,
               row: [R.left, R.top, R.right, R.bottom].map(Math.round), plateBox: [P.left, P.top, P.right, P.bottom].map(Math.round) });
  }
  el.textContent = keep;
  return out;
}"""

# the least gap, in px, between the own seat's word and the hand's first row or the own plate
# upright (before: 5.4 px from the plate, which stands 22 px above the hand, and 53 px from the
# first row, at the dealer's first turn of "r22")
CLEAR = 10
OWN_WORDS = ["杠!", "红中杠!", "胡!", "Red Dragon kong!"]


@pytest.mark.slow
def test_the_own_word_keeps_clear_of_the_hand_upright(browser: Any, slow_bots: str) -> None:
    """At 390×844 a seated player's own 杠! (and the longest words) stands clear of its hand's first
    row and of its plate while it pops in and after — at the dealer's first turn (14 tiles) and
    again with a meld laid down (the long fixed deal "r22": the player pungs early)."""
    page = new_page(browser, slow_bots, "杠的位置", size=(390, 844))
    start_fixed_deal(page, "r22", turn=90, seat=0, level="greedy", hands=1)
    page.wait_for_selector("#hand .tile.clickable")
    checked: dict[str, list[dict[str, Any]]] = {}
    deadline = time.time() + 150
    while "meld" not in checked:
        assert time.time() < deadline, f"no own turn with a meld seen ({list(checked)})"
        assert not page.locator('[data-testid="settlement"]:not(.hidden)').count(), f"the hand ended ({list(checked)})"
        mine = page.evaluate("() => !!document.querySelector('#hand .tile.drawn') && !!document.querySelector('#hand .tile.clickable')")
        melds = page.locator("#table .seat.pos-bottom .meld").count()
        which = "meld" if melds else "first" if not checked else None
        if mine and which and which not in checked:
            page.wait_for_timeout(300)  # the drawn tile's drop-in over
            got = page.evaluate(OWN_CLEAR, OWN_WORDS)
            if got is not None:
                checked[which] = got
                page.evaluate(SHOW_OWN, "杠!")
                page.screenshot(path=str(screens_dir() / f"polish-announce-own-{which}-390x844.png"))
                page.evaluate("() => { const el = document.querySelector('#table .seat.pos-bottom .announce'); "
                              "for (const a of el.getAnimations()) a.cancel(); el.classList.remove('placed'); }")
                continue
        act_quick(page)
        page.wait_for_timeout(40)
    for which, got in checked.items():
        for g in got:
            assert g["placed"] and g["shown"] > 10, (which, g)
            assert g["hand"] >= CLEAR, f"{which}: {g['word']} {g['hand']} px from the hand's first row: {g}"
            assert g["plate"] >= CLEAR, f"{which}: {g['word']} {g['plate']} px from the own plate: {g}"
    assert page.errors == []  # type: ignore[attr-defined]
    page.context.close()


# the own seat's word at the pop's largest, held still: a picture to look at
SHOW_OWN = """async (word) => {
  const { placeAnnounce } = await import('/static/js/table.js');
  const el = document.querySelector('#table .seat.pos-bottom .announce');
  el.textContent = word;
  placeAnnounce(el);
  for (const a of el.getAnimations()) { a.pause(); a.currentTime = 150; }
}"""
