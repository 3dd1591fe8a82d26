"""Tile faces need no font; the lobby and the table pass axe-core without critical violations."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from support.webhelpers import ARGS, CHROMIUM, new_page, screens_dir, start_table

pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.timeout(120)]

LATIN_ONLY = "/usr/share/fonts/truetype/dejavu"


def _shots(browser: Any, server: str) -> tuple[bytes, bytes]:
    page = browser.new_page(viewport={"width": 1000, "height": 500})
    page.goto(server + "/static/tiles.html")
    page.wait_for_selector("#strip .tile[data-tile='7z']")
    # Pin the strip at a whole-pixel position: the text above it is taller or shorter with
    # another font, and a fractional offset would change the antialiasing.
    page.evaluate("document.getElementById('strip').classList.add('pinned')")
    box = page.evaluate("""() => { const ts = [...document.querySelectorAll('#strip .tile')].map(t => t.getBoundingClientRect());
        const l = Math.floor(Math.min(...ts.map(r => r.left))), tp = Math.floor(Math.min(...ts.map(r => r.top)));
        return {x: l, y: tp, width: Math.ceil(Math.max(...ts.map(r => r.right))) - l,
                height: Math.ceil(Math.max(...ts.map(r => r.bottom))) - tp}; }""")
    strip = page.screenshot(clip=box)  # the tiles only
    glyphs = page.locator("#glyphs").screenshot()
    page.close()
    return strip, glyphs


def test_tiles_render_the_same_without_a_cjk_font(browser: Any, server: str, tmp_path: Path) -> None:
    """The same tile strip in a Chromium that has the CJK fonts and in one whose fontconfig knows
    only DejaVu: identical pixels. The text probe beside it must differ (the font is really gone)."""
    if not os.path.isdir(LATIN_ONLY):
        pytest.skip(f"{LATIN_ONLY} not installed")
    conf = tmp_path / "fonts.conf"
    conf.write_text(f"""<?xml version="1.0"?><!DOCTYPE fontconfig SYSTEM "fonts.dtd">
<fontconfig><dir>{LATIN_ONLY}</dir><cachedir>{tmp_path / 'fc-cache'}</cachedir></fontconfig>""")
    strip_cjk, glyphs_cjk = _shots(browser, server)
    env = {**os.environ, "FONTCONFIG_FILE": str(conf)}
    plain = browser.browser_type.launch(executable_path=CHROMIUM, args=ARGS, headless=True, env=env)
    try:
        strip_plain, glyphs_plain = _shots(plain, server)
    finally:
        plain.close()
    out = screens_dir()
    (out / "tiles_with_cjk_font.png").write_bytes(strip_cjk)
    (out / "tiles_without_cjk_font.png").write_bytes(strip_plain)
    assert glyphs_cjk != glyphs_plain, "the CJK font was not removed: the probe text looks the same"
    assert strip_cjk == strip_plain, "tile faces depend on the installed fonts"


def _critical(results: Any) -> list[str]:
    return [f"{v['id']}: {v['help']} ({len(v['nodes'])} nodes)"
            for v in results.response["violations"] if v.get("impact") == "critical"]


def test_lobby_and_table_have_no_critical_accessibility_violations(browser: Any, server: str) -> None:
    axe_mod = pytest.importorskip("axe_playwright_python.sync_playwright",
                                  reason="axe-playwright-python not installed (pip install -e '.[dev]')")
    axe = axe_mod.Axe()
    page = new_page(browser, server, "无障碍", (844, 390), csp=False)
    lobby = axe.run(page)
    assert not _critical(lobby), _critical(lobby)
    start_table(page, seat=0)
    page.wait_for_selector("#hand .tile.clickable")
    table = axe.run(page)
    assert not _critical(table), _critical(table)
    serious = [v["id"] for v in table.response["violations"] if v.get("impact") == "serious"]
    (screens_dir() / "axe_table.txt").write_text("\n".join(
        f"{v['impact']}: {v['id']} {v['help']}" for v in table.response["violations"]) + "\n")
    assert "button-name" not in serious and "aria-allowed-attr" not in serious
    page.context.close()
