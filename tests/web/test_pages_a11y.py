"""Every page a player opens passes axe-core with no critical and no serious violation (colour
contrast included), upright on a phone and on a desktop: the lobby (as a new guest sees it, quick
match's 场次 with their queue counts), the score calculator, the account, leaderboard, clubs and
tournaments pages, 玩法说明, 新手教程, the tile sheet, the page of an address that does not
exist, and a player's, a tournament's and a club's page that is not there. (The table itself: test_tiles_a11y.py.)"""

from __future__ import annotations

from typing import Any

import pytest

from support.webhelpers import new_page, poll, screens_dir

pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.timeout(240)]

PAGES = {
    "/": "#btn-create",
    "/calc": "#topbar",
    "/account": "#topbar",
    "/leaderboard": "#topbar",
    "/clubs": "body",
    "/tournaments": "body",
    "/static/howto.html": "body",
    "/static/tutorial.html": "body",
    "/static/tiles.html": "#strip .tile",
    "/no/such/page": '[data-testid="not-found"]',
    # a link to what is not there (test_missing_pages.py): the card in the page's place
    "/players/p_nobody": '[data-testid="missing"]',
    "/tournaments/99999": '[data-testid="missing"]',
    "/clubs/99999": '[data-testid="missing"]',
}


def _bad(results: Any) -> list[str]:
    return [f"{v['impact']} {v['id']}: {v['help']} — " + "; ".join(
                f"{n['target']} {[a.get('data') for a in n['any']][:1]}" for n in v["nodes"][:3])
            for v in results.response["violations"] if v.get("impact") in ("critical", "serious")]


@pytest.mark.parametrize("size", [(390, 844), (1366, 900)], ids=["390x844", "1366x900"])
def test_every_page_passes_axe(browser: Any, server: str, size: tuple[int, int]) -> None:
    axe_mod = pytest.importorskip("axe_playwright_python.sync_playwright",
                                  reason="axe-playwright-python not installed (pip install -e '.[dev]')")
    axe = axe_mod.Axe()
    page = new_page(browser, server, "无障碍页", size, csp=False)
    poll(page, "() => !!document.querySelector('[data-testid=\"queue-count\"]')")  # 场次 drawn
    found: dict[str, list[str]] = {}
    for path, ready in PAGES.items():
        page.goto(server + path)
        page.wait_for_selector(ready, state="attached")
        page.wait_for_load_state("networkidle")
        bad = _bad(axe.run(page))
        if bad:
            found[path] = bad
    (screens_dir() / f"axe_pages_{size[0]}x{size[1]}.txt").write_text(
        "".join(f"{p}\n  " + "\n  ".join(v) + "\n" for p, v in found.items()) or "none\n")
    assert not page.errors, page.errors  # type: ignore[attr-defined]
    page.context.close()
    assert not found, found
