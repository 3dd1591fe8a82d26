"""复盘 (the replay viewer's review) fits a phone (review5): at 844×390, 1366×900, 390×844 and
667×375 the reviewed seat's hand lies whole on the screen with nothing over it, the timeline's
marks are finger-sized, the review panel's accuracy and costliest decisions (their sentences)
can be read inside the screen, and nothing runs off a side.

Where the panel stands beside the table (844×390, 1366×900) all of it shows at once. Where it
cannot (390×844 upright, 667×375 a small phone sideways), it opens over the table and folds
away when a decision is chosen: then the table at that step, the hand whole, the mark lit and
its sentence show (on the small phone sideways, two lines above the table, clear of the top seat;
tapped, the whole sentence); the head's 展开 (upright) or the bar's 复盘 (sideways) open it again. Folded
upright and turned sideways on a wide phone, it shows whole beside the table again.

Before the fix: at 844×390 and 667×375 the table kept the whole screen's width and the hand ran
on under the panel (2 and 4 tiles covered); at 390×844 the table had 60 % of the height and
the side seats' tiles lay over the hand; the marks were 16 px dots, the panel's seat buttons
34 px high.

A real `laizi serve`, a four-bot match played to its end over the WebSocket protocol, its review
built by the server, the system Chromium; one page, resized for each screen."""

from __future__ import annotations

import json
import time
from typing import Any

import pytest

from support.webhelpers import (
    REPLAY_HAND,
    bot_match,
    new_page,
    overflow_x,
    poll,
    review_built,
    screens_dir,
)

pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.timeout(600)]

# the panel beside the table; then the screens where it lies over the table and folds away
SIZES = [(844, 390), (1366, 900), (390, 844), (667, 375)]
NARROW = {(390, 844), (667, 375)}

# The panel's readable parts: the accuracy and the first decision (its head and its sentence)
# inside the screen and on top at their centres — a long sentence may run on below the screen
# if the panel's list scrolls it into sight (the match is random: some sentences are long);
# the panel's controls at least 36 px high.
PANEL = """() => {
  const bad = [];
  const on = (e, what) => {
    if (!e) { bad.push(`${what} missing`); return; }
    const r = e.getBoundingClientRect();
    const at = `${what} ${Math.round(r.left)},${Math.round(r.top)}-${Math.round(r.right)},${Math.round(r.bottom)}`;
    if (!r.width || !r.height) { bad.push(`${at} not shown`); return; }
    if (r.left < -1 || r.top < -1 || r.right > innerWidth + 1 || r.top + 10 > innerHeight) { bad.push(`${at} off the screen`); return; }
    if (r.bottom > innerHeight + 1) {
      // a long sentence runs on below the screen: the panel's list must scroll it into sight
      let box = e.parentElement;
      while (box && !(/(auto|scroll)/.test(getComputedStyle(box).overflowY) && box.scrollHeight > box.clientHeight + 1)) box = box.parentElement;
      if (!box) { bad.push(`${at} off the screen, and nothing scrolls it into sight`); return; }
      const keep = box.scrollTop;
      e.scrollIntoView({ block: "end" });
      const r2 = e.getBoundingClientRect();
      box.scrollTop = keep;
      if (r2.bottom > innerHeight + 1 && r2.height <= innerHeight) { bad.push(`${at} off the screen, even scrolled (${Math.round(r2.bottom)})`); return; }
    }
    const top = document.elementFromPoint(r.left + r.width / 2, r.top + Math.min(r.height / 2, 10));
    if (!top || !(e === top || e.contains(top))) bad.push(`${at} under ${top ? top.id || top.className || top.tagName : "nothing"}`);
  };
  on(document.querySelector('[data-testid="review-accuracy"]'), 'accuracy');
  const item = document.querySelector('[data-testid="review-item"]');
  on(item, 'first decision');
  on(item && item.querySelector('span'), "first decision's sentence");
  if (item && !/专家|expert/.test(item.textContent)) bad.push(`first decision without its sentence: ${item.textContent}`);
  for (const b of document.querySelectorAll('#rv-panel button')) {
    const r = b.getBoundingClientRect();
    if (r.height && r.height < 35.5) bad.push(`${b.id || b.className || b.textContent} ${Math.round(r.height)} px high`);
  }
  return bad;
}"""

# The panel's head on top where it stands: its accuracy and its 关闭.
HEAD = """() => ['rv-acc', 'rv-close'].flatMap(id => {
  const e = document.getElementById(id), r = e.getBoundingClientRect();
  const top = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
  return top && (e === top || e.contains(top)) && r.top >= -1 ? [] : [`${id} ${Math.round(r.top)}-${Math.round(r.bottom)} under ${top ? top.id || top.className : 'nothing'}`];
})"""


# Each timeline mark's finger target: how far up/down and left/right of its centre a tap still
# lands on it, and how far its nearest neighbour is (two decisions a step or two apart share
# their targets: the later one is on top; the panel's list reaches both).
MARKS = """() => [...document.querySelectorAll('[data-testid="review-mark"]')].map((m, i, all) => {
  const r = m.getBoundingClientRect(), cx = r.left + r.width / 2, cy = r.top + r.height / 2;
  const hits = (dx, dy) => { const e = document.elementFromPoint(cx + dx, cy + dy); return e === m; };
  let up = 0, down = 0, left = 0, right = 0;
  while (up < 40 && hits(0, -(up + 1))) up++;
  while (down < 40 && hits(0, down + 1)) down++;
  while (left < 40 && hits(-(left + 1), 0)) left++;
  while (right < 40 && hits(right + 1, 0)) right++;
  const gap = Math.min(999, ...all.filter(o => o !== m).map(o => Math.abs(o.getBoundingClientRect().left - r.left)));
  return { h: up + down + 1, w: left + right + 1, gap: Math.round(gap), inside: r.left >= 0 && r.right <= innerWidth && r.top >= 0 && r.bottom <= innerHeight };
})"""


# The sentence of a marked step on a small phone sideways (folded): over none of the top seat's
# plate, tiles or river (it took three lines over the table and covered the top seat: polish7);
# ``cut``: whether it shows less than the whole sentence (two lines of it, until tapped).
NOTE_CLEAR = """() => {
  const n = document.querySelector('[data-testid="review-note"]'), a = n.getBoundingClientRect(), bad = [];
  for (const e of document.querySelectorAll('#rp-table .seat.pos-top .plate, #rp-table .seat.pos-top .tile, #rp-table .river.rpos-top .tile')) {
    const r = e.getBoundingClientRect();
    if (r.width && Math.min(a.right, r.right) - Math.max(a.left, r.left) > 1 && Math.min(a.bottom, r.bottom) - Math.max(a.top, r.top) > 1)
      bad.push(`${e.className} ${Math.round(r.left)},${Math.round(r.top)}-${Math.round(r.right)},${Math.round(r.bottom)}`);
  }
  return { bad, cut: n.scrollHeight > n.clientHeight + 1, note: [a.left, a.top, a.right, a.bottom].map(Math.round) };
}"""


@pytest.fixture(scope="module")
def match_id(server: str) -> int:
    # A match whose seat 0 has costly decisions to show (a CI run's had none rated but one: a
    # random bot that held its 红中 all hand, while the expert would lay it aside — a kong the
    # model gives no figure — leaves each of its turns unrated); built once here (minutes on a
    # loaded machine), the pages read it.
    for _ in range(4):
        mid = bot_match(server, hands=1, level="random")[1]
        if review_built(server, mid).get("costliest"):
            return mid
    raise AssertionError("four random matches without a costly decision of seat 0's")


def _shot(page: Any, size: tuple[int, int], what: str) -> None:
    page.screenshot(path=str(screens_dir() / f"review-layout-{what}-{size[0]}x{size[1]}.png"))


def _settled(page: Any, js: str, ok: Any, timeout: float = 5.0) -> Any:
    """js's value once ok(value) holds, or its last value after ``timeout`` s (a busy machine may
    still be laying the page out)."""
    deadline = time.time() + timeout
    while True:
        value = page.evaluate(js)
        if ok(value) or time.time() > deadline:
            return value
        page.wait_for_timeout(50)


def _hand_whole(page: Any, when: str) -> None:
    poll(page, REPLAY_HAND)
    hand = _settled(page, REPLAY_HAND, lambda h: h and h["bad"] == [])
    assert hand["bad"] == [], f"{when}: {hand}"


def _fits(page: Any, when: str) -> None:
    assert overflow_x(page) <= 0, f"{when}: sideways overflow {overflow_x(page)} px"
    se = page.evaluate("() => [document.scrollingElement.scrollTop, document.scrollingElement.scrollHeight, innerHeight]")
    assert se[0] == 0 and se[1] <= se[2] + 1, f"{when}: the page scrolls {se}"


def _panel_readable(page: Any, when: str) -> None:
    bad = _settled(page, PANEL, lambda b: b == [])
    assert bad == [], f"{when}: {bad}"


def _marks_touchable(page: Any, when: str) -> None:
    marks = page.evaluate(MARKS)
    assert marks, f"{when}: no mark on the timeline"
    for m in marks:
        assert m["inside"], f"{when}: a mark off the screen {m}"
        assert m["gap"] < 20 or m["h"] >= 36, f"{when}: a mark's target too low {m}"
        assert m["gap"] < 38 or m["w"] >= 36, f"{when}: a mark's target too narrow {m}"


def test_review_fits_each_screen(browser: Any, server: str, match_id: int) -> None:
    page = new_page(browser, server, size=SIZES[0])
    for size in SIZES:
        page.set_viewport_size({"width": size[0], "height": size[1]})
        page.goto(f"{server}/replay/{match_id}?review=0")
        try:  # (the review is built: the page reads it from the server's cache)
            poll(page, """() => /^\\d+%$/.test(document.querySelector('[data-testid="review-accuracy"]').textContent)
                && document.querySelectorAll('[data-testid="review-item"]').length > 0""", timeout=120)
        except AssertionError as exc:
            raise AssertionError(f"{size}: no review shown; the panel says {page.inner_text('#rv-status')!r}") from exc
        poll(page, "() => document.getElementById('rp-rules').textContent.length > 0")  # the rule card's row is in
        where = f"{size[0]}x{size[1]}"
        _fits(page, f"{where}, opened")
        _panel_readable(page, f"{where}, opened")
        _shot(page, size, "open")
        if size not in NARROW:  # beside the table: the hand whole at once, and at the decision
            _marks_touchable(page, f"{where}, opened")
            _hand_whole(page, f"{where}, opened")
            page.locator('[data-testid="review-item"]').first.click()
            poll(page, "() => document.querySelector('.rp-mark.on') !== null")
            _hand_whole(page, f"{where}, at the first decision")
            _panel_readable(page, f"{where}, at the first decision")
            # the list read to its end: the head (accuracy, 关闭) stays in sight (a tapped decision
            # low in the list scrolled it under the bar: CI8 at 844x390)
            page.evaluate("() => { const p = document.getElementById('rv-panel'); p.scrollTop = p.scrollHeight; }")
            head = _settled(page, HEAD, lambda b: b == [])
            assert head == [], f"{where}, the list scrolled to its end: {head}"
            page.evaluate("() => { document.getElementById('rv-panel').scrollTop = 0; }")
        else:  # over the table: a decision chosen folds it away
            page.locator('[data-testid="review-item"]').first.click()
            poll(page, "() => document.body.classList.contains('rv-folded') && document.querySelector('.rp-mark.on') !== null")
            _hand_whole(page, f"{where}, folded at the first decision")
            page.click("#rp-first")  # and at the deal (upright, the side seats' tiles lay over the hand)
            poll(page, "() => document.getElementById('rp-pos').value === '0'")
            _hand_whole(page, f"{where}, folded at the deal")
            marks = page.evaluate(MARKS)  # a mark a step or two from another may lie under it
            alone = max(range(len(marks)), key=lambda i: marks[i]["gap"])
            page.locator('[data-testid="review-mark"]').nth(alone).click()
            poll(page, "() => document.querySelector('.rp-mark.on') !== null")
        note = page.locator('[data-testid="review-note"]')
        assert note.is_visible() and "专家" in note.inner_text()
        box = note.bounding_box()
        assert box and box["x"] >= -1 and box["y"] >= -1 and box["x"] + box["width"] <= size[0] + 1 \
            and box["y"] + box["height"] <= size[1] + 1, f"{where}: the sentence off the screen {box}"
        _fits(page, f"{where}, at a decision")
        _marks_touchable(page, f"{where}, at a decision")
        _shot(page, size, "decision")
        if size == (667, 375):  # the bar's narration: whole, or read out only — never cut short
            say = page.evaluate(SAY)
            assert say["text"] and (not say["shown"] or not say["cut"]), f"{where}: the narration cut {say}"
        if size == (667, 375):  # the sentence above the top seat; a tap on it shows it whole
            clear = _settled(page, NOTE_CLEAR, lambda c: c["bad"] == [])
            assert clear["bad"] == [], f"{where}: the sentence {clear['note']} over the top seat's {clear['bad']}"
            page.click('[data-testid="review-note"]')
            page.wait_for_timeout(100)  # (a sentence shown over the table would be laid out by now)
            clear = _settled(page, NOTE_CLEAR, lambda c: c["bad"] == [])
            assert clear["bad"] == [], f"{where}, tapped: the sentence {clear['note']} over the top seat's {clear['bad']}"
            lit = poll(page, LIT)  # whole in the panel, opened at its decision
            assert lit["same"] and lit["inside"] and lit["top"], f"{where}, tapped: {lit}"
            _shot(page, size, "decision-whole")
            page.click('[data-testid="review-fold"]')  # folded again: the table, the band's two lines
            poll(page, "() => document.body.classList.contains('rv-folded')")
        if size in NARROW:  # and open again: upright by the folded head's 展开, sideways by the bar's 复盘
            page.click('[data-testid="review-fold"]' if size[1] > size[0] else "#rp-review")
            poll(page, "() => !document.body.classList.contains('rv-folded')")
            # it opens where it was (a decision far down the list, shown whole, keeps it in
            # sight): the head on top; scrolled back up, the first decision readable
            head = _settled(page, HEAD, lambda b: b == [])
            assert head == [], f"{where}, opened again: {head}"
            page.evaluate("() => { document.getElementById('rv-panel').scrollTop = 0; }")
            _panel_readable(page, f"{where}, opened again")
            _fits(page, f"{where}, opened again")
    # folded upright, then turned sideways on a wide phone: the panel whole again beside the table
    page.set_viewport_size({"width": 390, "height": 844})
    page.locator('[data-testid="review-item"]').first.click()
    poll(page, "() => document.body.classList.contains('rv-folded')")
    page.set_viewport_size({"width": 844, "height": 390})
    _panel_readable(page, "folded at 390x844, then 844x390")
    _hand_whole(page, "folded at 390x844, then 844x390")
    assert page.errors == []  # type: ignore[attr-defined]
    assert page.evaluate("window.__csp") == []
    page.context.close()


# The decision lit in the panel (the step the replay stands at): its sentence the band's, whole
# inside the panel and the screen, on top at its centre.
LIT = """() => {
  const b = document.querySelector('[data-testid="review-item"][aria-current]'), s = b && b.querySelector('span');
  if (!s || document.body.classList.contains('rv-folded')) return null;
  const r = s.getBoundingClientRect(), p = document.getElementById('rv-panel').getBoundingClientRect();
  const top = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
  return { same: s.textContent === document.getElementById('rp-note').textContent,
           inside: r.height > 0 && r.top >= Math.max(0, p.top) - 1 && r.bottom <= Math.min(innerHeight, p.bottom) + 1,
           top: !!top && b.contains(top), box: [r.left, r.top, r.right, r.bottom].map(Math.round) };
}"""


# The replay bar's narration of the step (rp-say): its text, whether it shows (more than a
# read-out-only pixel) and whether it is cut short (an ellipsis: wider than its box).
SAY = """() => { const s = document.getElementById('rp-say'); const r = s.getBoundingClientRect();
  return { text: s.textContent, w: r.width, shown: r.width > 2 && r.height > 2,
           cut: s.scrollWidth > s.clientWidth + 1 }; }"""

# Decisions on consecutive steps (the review's answer changed on its way to the page): their
# marks lay over each other, 2-4 px apart on a phone's strip (polish7); each dot must show apart
# from the others and take its own tap — a whole finger's target (36 × 40 px), not the 24 px
# strip between two targets 24 px apart that the later one covered (stop 38).
DOTS = """() => [...document.querySelectorAll('[data-testid="review-mark"]')].map(m => {
  const r = m.getBoundingClientRect();
  const top = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
  return { l: r.left, r: r.right, mine: top === m };
})"""


@pytest.mark.parametrize("size", SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
def test_marks_a_step_apart_show_apart(browser: Any, server: str, match_id: int, size: tuple[int, int]) -> None:
    import json
    import urllib.request

    with urllib.request.urlopen(f"{server}/api/matches/{match_id}/replay") as r:
        replay = json.loads(r.read())

    def close(route: Any) -> None:
        resp = route.fetch()
        if resp.status != 200:
            route.fulfill(response=resp)
            return
        data = resp.json()
        c = data["costliest"][0]
        frames = next(h for h in replay["hands"] if h["hand"] == c["hand"])["frames"]
        vs = [f["event"]["v"] for f in frames if isinstance((f.get("event") or {}).get("v"), int)]
        mid = len(vs) // 2
        data["costliest"] = [{**c, "v": v, "loss": c["loss"] + k} for k, v in enumerate(vs[mid:mid + 5])]
        route.fulfill(response=resp, json=data)

    page = new_page(browser, server, size=size)
    page.route("**/api/matches/*/review*", close)
    page.goto(f"{server}/replay/{match_id}?review=0")
    poll(page, f"() => ({DOTS})().length === 5", timeout=120)  # five: the most a review marks
    if size in NARROW:  # the panel lies over the bar's right side: a decision chosen folds it away
        page.locator('[data-testid="review-item"]').first.click()
        poll(page, "() => document.body.classList.contains('rv-folded')")
    page.wait_for_timeout(100)  # (the marks are placed by held animations: read once placed)
    marks = sorted(page.evaluate(DOTS), key=lambda m: m["l"])
    _shot(page, size, "close-marks")
    for a, b in zip(marks, marks[1:], strict=False):
        assert b["l"] >= a["r"] + 1, f"two marks over each other: {marks}"
    assert all(m["mine"] for m in marks), f"a mark under another: {marks}"
    for m in page.evaluate(MARKS):  # each its own finger's target, inside the screen
        assert m["inside"] and m["w"] >= 36 and m["h"] >= 40, f"a mark's own target {m['w']}x{m['h']} px: {marks}"
    assert page.errors == []  # type: ignore[attr-defined]
    page.context.close()


def test_a_busy_review_is_waited_for_not_failed(browser: Any, server: str, match_id: int) -> None:
    """Too many reviews at once: the server answers 429 (a client's budget) or 503 (builds
    queued), each with Retry-After. The panel says it waits, asks again after that time and
    shows the review — it used to say 复盘失败 and stop. (The two refusals are answered here by
    the page's route, once each, with a 1 s Retry-After; then the real server answers.)"""
    page = new_page(browser, server, size=SIZES[0])
    refusals = [(429, "too many review requests; slow down"), (503, "reviews are busy; try again shortly")]
    said: list[int] = []

    def busy(route: Any) -> None:
        if refusals:
            status, error = refusals.pop(0)
            said.append(status)
            route.fulfill(status=status, headers={"Retry-After": "1", "Content-Type": "application/json"},
                          body=json.dumps({"error": error}))
        else:
            route.continue_()

    page.route("**/api/matches/*/review?seat=*", busy)
    page.goto(f"{server}/replay/{match_id}?review=0")
    waiting = poll(page, "() => { const t = document.getElementById('rv-status').textContent; return /稍后|again/.test(t) ? t : null; }")
    assert "失败" not in waiting
    poll(page, """() => /^\\d+%$/.test(document.querySelector('[data-testid="review-accuracy"]').textContent)""",
         timeout=120)
    assert said == [429, 503]
    assert "失败" not in page.inner_text("#rv-status")
    page.context.close()
