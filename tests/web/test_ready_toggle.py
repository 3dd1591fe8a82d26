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
