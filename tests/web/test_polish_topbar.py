"""Playwright (system Chromium): the top bar of the lobby, the calculator and the account pages
fits the phone and desktop sizes in both languages — nothing in it lies outside the viewport, the
page does not scroll sideways, and the language button and the links stay whole and tappable."""

from __future__ import annotations

from typing import Any

import pytest

from support.webhelpers import SIZES, new_page, overflow_x, poll, screens_dir

pytestmark = pytest.mark.browser

BAR = """() => {
  const bar = document.getElementById('topbar');
  const out = [];
  for (const e of bar.querySelectorAll('nav a, button, .me-name, h1')) {
    const r = e.getBoundingClientRect();
    if (!r.width || getComputedStyle(e).display === 'none') continue;
    if (r.left < -0.5 || r.right > innerWidth + 0.5) out.push(`${e.tagName}#${e.id} ${e.textContent} ${Math.round(r.left)}-${Math.round(r.right)}`);
  }
  const lang = document.getElementById('langbtn');
  const lr = lang ? lang.getBoundingClientRect() : null;
  return { out, lang: lr ? [lr.width, lr.height, lang.scrollWidth <= lang.clientWidth + 1] : null };
}"""


@pytest.mark.slow
@pytest.mark.parametrize("lang", ["zh", "en"])
def test_topbar_fits(browser: Any, server: str, lang: str) -> None:
    for size in (*SIZES, (360, 740)):
        page = new_page(browser, server, size=size)
        page.evaluate("l => localStorage.setItem('laizi.lang', l)", lang)
        for path in ("/", "/calc", "/account"):
            page.goto(server + path)
            poll(page, "() => document.getElementById('topbar') !== null")
            page.wait_for_timeout(300)
            got = page.evaluate(BAR)
            where = f"{lang} {size} {path}"
            assert got["out"] == [], f"{where}: outside the viewport: {got['out']}"
            assert overflow_x(page) <= 0, f"{where}: sideways overflow"
            if got["lang"] is not None:
                w, h, whole = got["lang"]
                assert w >= 40 and h >= 40 and whole, f"{where}: language button {got['lang']}"
            links = page.evaluate("() => [...document.querySelectorAll('#topbar nav a')]"
                                  ".map(a => a.getBoundingClientRect()).filter(r => r.width)"
                                  ".map(r => [r.width, r.height])")
            assert all(w >= 40 and h >= 40 for w, h in links), f"{where}: small links {links}"
            if path == "/":
                page.screenshot(path=str(screens_dir() / f"polish-topbar-{lang}-{size[0]}x{size[1]}.png"),
                                clip={"x": 0, "y": 0, "width": size[0], "height": 64})
        assert page.errors == []
        page.context.close()
