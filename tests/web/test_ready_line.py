"""The 听牌 line (issue 21): with hints off, a seated player whose hand is ready sees by its
plate its winning tiles, each with the copies it cannot see — the server's ``waits`` of its
own frame (laizi.hints.ready_waits, the seat's view only). A fixed, announced deal (seed
``ready146``): the dealer discards 四万 and waits on 六条, four unseen."""

from __future__ import annotations

from typing import Any

import pytest

from support.webhelpers import add_bots, new_page, poll, screens_dir, sit

pytestmark = [pytest.mark.browser, pytest.mark.slow]


@pytest.mark.parametrize("size", [(390, 844), (844, 390)])
def test_a_ready_hand_shows_its_waits(browser: Any, server: str, size: tuple[int, int]) -> None:
    page = new_page(browser, server, "听牌", size=size)
    page.click("details.more > summary")  # the fixed deal is among the further options
    page.fill("#c-seed", "ready146")
    page.fill("#c-hands", "1")
    page.click("#btn-create")
    page.wait_for_selector("#roomview:not(.hidden)")
    sit(page, 0)
    add_bots(page, [1, 2, 3], "greedy")
    page.click("#btn-start")
    page.wait_for_selector("#hand .tile")
    assert not page.locator('[data-testid="ready-line"]').count()  # 14 tiles: not yet
    # the line shows from the discard until the next own draw (a second or two): every
    # appearance is recorded as it happens (a MutationObserver), with its box
    page.evaluate("""() => { window.__ready = [];
        new MutationObserver(() => { const e = document.querySelector('[data-testid="ready-line"]');
            if (e && e.offsetParent !== null) { const r = e.getBoundingClientRect();
                window.__ready.push({text: e.textContent, left: r.left, right: r.right}); } })
          .observe(document.getElementById('table'), {subtree: true, childList: true, characterData: true}); }""")
    four = page.locator('#hand .tile.clickable[data-tile="4m"]')
    four.first.click()
    page.locator("#hand .tile.raised").first.click()
    seen = poll(page, "() => window.__ready.length ? window.__ready : null")
    page.screenshot(path=str(screens_dir() / f"ready-line-{size[0]}x{size[1]}.png"))
    assert {x["text"].split(" · ")[0] for x in seen} == {"听六条×4"}, seen  # the next own draw (14 tiles) ends it
    assert all(x["left"] >= 0 and x["right"] <= size[0] for x in seen), seen
    assert page.errors == []  # type: ignore[attr-defined]
    page.context.close()
