"""The room before the start: a seated player's 准备 toggle, pressed, reads "取消准备" ("Not yet"
in English) and is drawn as a ghost button — whose pale yellow (#fde68a, made for the dark red
top bar) stood on the cream room card at 1.2:1. Its text must reach WCAG AA (4.5:1) against the
background it really stands on, in both languages, at 390×844, 844×390 and 1366×900 (and axe's
color-contrast rule finds nothing on the room's seats).

A real `laizi serve` and the system Chromium: the player creates a room (and so sits), presses
准备 and the test reads the toggle's colours from getComputedStyle — the background the first
ancestor's that is not transparent, colours with alpha laid over what lies under them."""

from __future__ import annotations

from typing import Any

import pytest

from support.webhelpers import create_room, new_page, poll, screens_dir, sit

pytestmark = pytest.mark.browser

# The contrast of an element's text against the background under it (WCAG 2: relative luminance
# of sRGB). Backgrounds are read from the element up to the root; a colour with alpha (the
# text's too) is composited over what lies under it; the page's canvas is white.
CONTRAST = """sel => {
  const e = document.querySelector(sel);
  if (!e) return null;
  const rgba = s => { const m = s.match(/rgba?\\(([^)]+)\\)/); if (!m) return null;
    const p = m[1].split(/[ ,\\/]+/).filter(Boolean).map(Number); return [p[0], p[1], p[2], p.length > 3 ? p[3] : 1]; };
  const over = (top, under) => [0, 1, 2].map(i => top[i] * top[3] + under[i] * (1 - top[3])).concat(1);
  const layers = [];
  for (let n = e; n && n.nodeType === 1; n = n.parentElement) {
    const cs = getComputedStyle(n);
    if (cs.backgroundImage && cs.backgroundImage !== 'none') return { error: `background image on ${n.tagName}.${n.className}` };
    const c = rgba(cs.backgroundColor);
    if (c && c[3] > 0) { layers.push(c); if (c[3] >= 1) break; }
  }
  let bg = [255, 255, 255, 1];
  for (const c of layers.reverse()) bg = over(c, bg);
  const fg = over(rgba(getComputedStyle(e).color), bg);
  const lum = c => { const [r, g, b] = c.slice(0, 3).map(v => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b; };
  const [a, b] = [lum(fg), lum(bg)].sort((x, y) => y - x);
  return { ratio: (a + 0.05) / (b + 0.05), fg: fg.slice(0, 3).map(Math.round), bg: bg.slice(0, 3).map(Math.round),
           text: e.textContent, pressed: e.getAttribute('aria-pressed'), opacity: getComputedStyle(e).opacity };
}"""

TOGGLE = 'li.seat-row button[data-testid="ready"]'
CASES = [((390, 844), "zh"), ((390, 844), "en"), ((844, 390), "zh"), ((1366, 900), "en")]


@pytest.mark.parametrize(("size", "lang"), CASES, ids=[f"{s[0]}x{s[1]}-{lang}" for s, lang in CASES])
def test_the_pressed_ready_toggle_is_readable(browser: Any, server: str, size: tuple[int, int], lang: str) -> None:
    page = new_page(browser, server, "准备对比", size=size)
    if lang == "en":
        page.click("#langbtn")
        poll(page, "() => document.documentElement.lang === 'en'")
    create_room(page)
    sit(page, 0)
    page.wait_for_selector(f'{TOGGLE}[aria-pressed="false"]')
    before = page.evaluate(CONTRAST, TOGGLE)  # 准备 / I'm in: the red primary button
    page.click(TOGGLE)
    page.wait_for_selector(f'{TOGGLE}[aria-pressed="true"]')
    got = page.evaluate(CONTRAST, TOGGLE)
    page.screenshot(path=str(screens_dir() / f"ready-toggle_{size[0]}x{size[1]}_{lang}.png"))
    assert got and "error" not in got, got
    assert got["text"] == ("取消准备" if lang == "zh" else "Not yet"), got
    assert got["opacity"] == "1", got
    assert before["ratio"] >= 4.5, f"准备 before the tap: {before}"
    assert got["ratio"] >= 4.5, f"the pressed toggle \"{got['text']}\": {got['ratio']:.2f}:1 ({got['fg']} on {got['bg']})"
    badge = page.evaluate(CONTRAST, "li.seat-row .badge.b-seat-ready")  # 已准备 / in
    assert badge and "error" not in badge, badge
    assert badge["ratio"] >= 4.5, f"the seat's badge \"{badge['text']}\": {badge['ratio']:.2f}:1"
    assert page.errors == []  # type: ignore[attr-defined]
    page.context.close()


def test_the_room_passes_axe_color_contrast(browser: Any, server: str) -> None:
    """axe-core's color-contrast rule on the room's seats, 准备 pressed, in English."""
    axe_mod = pytest.importorskip("axe_playwright_python.sync_playwright",
                                  reason="axe-playwright-python not installed (pip install -e '.[dev]')")
    page = new_page(browser, server, "axe准备", (390, 844), csp=False)
    page.click("#langbtn")
    poll(page, "() => document.documentElement.lang === 'en'")
    create_room(page)
    sit(page, 0)
    page.click(TOGGLE)
    page.wait_for_selector(f'{TOGGLE}[aria-pressed="true"]')
    results = axe_mod.Axe().run(page, context="#seats", options={"runOnly": ["color-contrast"]})
    bad = [(n["target"], n.get("any", [{}])[0].get("message", "")) for v in results.response["violations"] for n in v["nodes"]]
    assert bad == [], bad
    page.context.close()


# The room's 已准备/未准备 badge (lobby.js) and the table's 听 line (fan.js readyBadge) shared the
# class b-ready, so the lobby badge's green (.badge.b-ready) coloured the 听 line and the 听 line's
# rules (.b-ready: inline-flex, wrapping, …) applied to the badge. Each of the two given: its
# classes, and every style rule whose subject (the selector's last compound, pseudo-elements
# left out) names one of its own classes but whose subject the other element fits too. The
# generic `badge` (both are badges) is left out.
SHARED = """async () => {
  const { readyBadge } = await import('/static/js/fan.js');  // the module table.js renders it with
  const ting = readyBadge({ waits: [{ tile: '5m', unseen: 2 }] });
  const badges = [...document.querySelectorAll('li.seat-row .badge[data-ready]')];
  if (window.__unready) badges.push(window.__unready);
  const own = e => [...e.classList].filter(c => c !== 'badge');
  const parts = s => {  // at the top level (not inside :is(…), :not(…))
    const out = []; let depth = 0, cur = '';
    for (const ch of s) {
      if (ch === '(') depth++; else if (ch === ')') depth--;
      if (ch === ',' && !depth) { out.push(cur.trim()); cur = ''; } else cur += ch;
    }
    return out.concat(cur.trim());
  };
  const subject = sel => {  // the last compound: after the last combinator outside parentheses
    let depth = 0, start = 0;
    for (let i = 0; i < sel.length; i++) {
      const ch = sel[i];
      if (ch === '(') depth++; else if (ch === ')') depth--;
      else if (!depth && (ch === ' ' || ch === '>' || ch === '+' || ch === '~')) start = i + 1;
    }
    return sel.slice(start).replace(/::[\\w-]+(\\([^)]*\\))?$/, '') || '*';
  };
  const fits = (e, sel) => { try { return e.matches(sel); } catch (err) { return false; } };
  const rules = [];
  const walk = list => { for (const r of list) { if (r.selectorText) rules.push(r.selectorText); else if (r.cssRules) walk(r.cssRules); } };
  for (const sheet of document.styleSheets) { try { walk(sheet.cssRules); } catch (err) { /* another origin */ } }
  const bad = [];
  for (const text of rules) for (const part of parts(text)) {
    const subj = subject(part);
    for (const [mine, others] of [[ting, badges], ...badges.map(b => [b, [ting]])]) {
      const keys = own(mine).filter(c => new RegExp(`\\\\.${c}(?![\\\\w-])`).test(subj));
      if (keys.length && others.some(o => fits(o, subj))) bad.push(`${part} (${keys.join(' ')})`);
    }
  }
  return { ting: [...ting.classList], badges: badges.map(b => [...b.classList]),
           shared: [...new Set(badges.flatMap(b => own(b).filter(c => ting.classList.contains(c))))],
           bad: [...new Set(bad)], rules: rules.length };
}"""


def test_the_ready_badge_and_the_ting_line_share_no_class(browser: Any, server: str) -> None:
    page = new_page(browser, server, "两个徽章", (844, 390))
    create_room(page)
    sit(page, 0)
    page.wait_for_selector('li.seat-row .badge[data-ready="0"]')  # 未准备
    page.evaluate("() => { window.__unready = document.querySelector('li.seat-row .badge[data-ready]').cloneNode(true); }")
    page.click(TOGGLE)
    page.wait_for_selector('li.seat-row .badge[data-ready="1"]')  # 已准备
    got = page.evaluate(SHARED)
    assert got["rules"] > 100 and len(got["badges"]) == 2, got
    assert "ready-line" not in str(got["badges"]) and got["ting"], got
    assert got["shared"] == [], f"the room's 准备 badge and the 听 line share {got['shared']}: {got}"
    assert got["bad"] == [], f"rules meant for one that the other fits: {got['bad']}"
    assert page.errors == []  # type: ignore[attr-defined]
    page.context.close()
