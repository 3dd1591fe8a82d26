"""Rules the client's files keep (no browser needed): no HTML built from strings, no eval, no
inline styles, no inline scripts or handlers in the pages (the CSP forbids them anyway)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

WEB = Path(__file__).resolve().parents[2] / "src" / "laizi" / "web"
OWN_JS = sorted(p for p in WEB.rglob("*.js") if "vendor" not in p.parts) + [WEB / "sw.js"]
PAGES = sorted(WEB.glob("*.html"))


@pytest.mark.parametrize("path", OWN_JS, ids=lambda p: str(p.relative_to(WEB)))
def test_scripts_never_build_html_from_strings(path: Path) -> None:
    code = re.sub(r"/\*.*?\*/|(?<![:\"'])//[^\n]*", "", path.read_text(), flags=re.S)  # comments may name it
    for bad in ("innerHTML", "outerHTML", "insertAdjacentHTML", "document.write", "eval(",
                "new Function", ".style.", 'setAttribute("style"'):
        assert bad not in code, f"{path.name} uses {bad}"


@pytest.mark.parametrize("path", PAGES, ids=lambda p: p.name)
def test_pages_have_no_inline_script_handlers_or_styles(path: Path) -> None:
    html = path.read_text()
    assert not re.search(r"<script(?![^>]*\bsrc=)[^>]*>", html), "inline <script>"
    assert not re.search(r"\son[a-z]+\s*=", html), "inline event handler"
    assert not re.search(r"\sstyle\s*=", html), "style attribute"
    assert "<style" not in html, "inline <style>"


def test_every_module_import_resolves() -> None:
    for path in OWN_JS:
        for spec in re.findall(r'^import [^"]*"(\.[^"]+)"', path.read_text(), flags=re.M):
            assert (path.parent / spec).resolve().exists(), f"{path.name}: {spec}"
