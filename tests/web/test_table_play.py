"""A person plays a whole hand by tapping, against bots, at the three sizes players use.

At every step: the own hand, the action bar and the claim prompt lie inside the viewport, the page
never scrolls sideways, and no Content-Security-Policy violation happens. A claim or a win offered
is taken. Screenshots of the table mid-hand, a claim window and the settlement are written to
tests/web/screens (or $LAIZI_SCREENS_DIR). The settlement stays open (the server deals the next
hand only after 继续 or its countdown) and closes with 继续.
"""

from __future__ import annotations

import json
import re
import time
from typing import Any

import pytest

from support.webhelpers import (
    SIZES,
    act_once,
    new_page,
    outside,
    overflow_x,
    screens_dir,
    start_table,
)

pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.timeout(240)]
CJK = re.compile(r"[\u3400-\u9fff]")


def _check_layout(page: Any, where: str) -> None:
    for testid in ("own-hand", "action-bar", "claim-prompt", "cancel-auto"):
        bad = outside(page, testid)
        assert bad is None, f"{where}: {bad} lies outside the viewport"
    assert overflow_x(page) <= 0, f"{where}: the page scrolls sideways"


def _touch_targets(page: Any) -> list[str]:
    return page.evaluate(
        """() => [...document.querySelectorAll('#game button, #actions button, #hand .tile.clickable')]
             .filter(e => e.offsetParent !== null)
             .map(e => [e, e.getBoundingClientRect()])
             .filter(([e, r]) => r.width < 40 || r.height < 40)
             .map(([e, r]) => `${e.id || e.dataset.act || e.className} ${Math.round(r.width)}x${Math.round(r.height)}`)""")


@pytest.mark.parametrize("size", SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
def test_a_person_plays_a_hand_to_settlement(browser: Any, server: str, size: tuple[int, int]) -> None:
    w, h = size
    out = screens_dir()
    page = new_page(browser, server, f"玩家{w}", size)
    desktop = size == SIZES[2]
    start_table(page, seat=0, hands=1 if desktop else None)  # desktop: a one-hand match
    for s in range(4):
        assert page.locator(f'[data-testid="seat-{s}"]').count() == 1
        assert page.locator(f'[data-testid="river-{s}"]').count() == 1
    assert page.locator('[data-testid="wall-count"]').inner_text()
    assert page.locator('[data-testid="laizi"].laizi .lz-badge').count() == 1   # the laizi is marked
    assert page.locator("#hand .tile").count() == 14                           # the dealer's 14
    assert not _touch_targets(page), _touch_targets(page)
    if size == SIZES[0]:
        # English mode: nothing Chinese left on the table (player names aside).
        page.click("#btn-menu")
        page.click("#menu-lang")
        page.click('[data-close="sheet-menu"]')
        text = page.evaluate("""() => { const c = document.getElementById('game').cloneNode(true);
            c.querySelectorAll('.pname').forEach(e => e.remove());
            return c.textContent + ' ' + [...c.querySelectorAll('[aria-label]')].map(e => e.getAttribute('aria-label')).join(' '); }""")
        text = text.replace(f"玩家{w}", "")  # the player's own (Chinese) nickname is user text
        assert "East" in text and not CJK.search(text), CJK.findall(text)[:10]
        page.screenshot(path=str(out / f"table_en_{w}x{h}.png"))
        page.click("#btn-menu")
        page.click("#menu-lang")
        page.click('[data-close="sheet-menu"]')
    moves: list[str] = []
    shot_mid = shot_claim = False
    deadline = time.time() + 150
    while not page.locator('[data-testid="settlement"]:not(.hidden)').count():
        assert time.time() < deadline, f"the hand did not finish; moves {moves}"
        _check_layout(page, f"{w}x{h} after {len(moves)} moves")
        if (not shot_claim and page.locator('[data-testid="claim-prompt"]:not(.hidden)').count()
                and page.locator("#actions button").count()):
            page.screenshot(path=str(out / f"claim_{w}x{h}.png"))
            shot_claim = True
            assert page.locator('[data-testid="claim-prompt"] .tile.t-big').count() == 1
        done = act_once(page)
        if done:
            moves.append(done)
            if len(moves) == 6 and not shot_mid:
                page.wait_for_timeout(250)
                page.screenshot(path=str(out / f"table_{w}x{h}.png"))
                shot_mid = True
        else:
            page.wait_for_timeout(60)
    assert "discard" in moves
    page.wait_for_timeout(200)
    page.screenshot(path=str(out / f"settlement_{w}x{h}.png"))
    settle = page.locator('[data-testid="settlement"]')
    assert settle.locator("#hand-result").count() == 1
    assert settle.locator("table.pay tr").count() == 5          # header + four seats
    assert settle.locator('[data-testid="settle-rule-card"]').inner_text() == "规则卡 开口番（按预设规则）"  # issue 23
    bad = outside(page, "continue")
    assert bad is None, bad
    if size == SIZES[0]:
        # The server waits for 继续 (or its countdown): the panel stays and shows the countdown.
        page.wait_for_selector("#settle-next:not(.hidden)", timeout=8000)
        page.wait_for_timeout(2500)  # longer than --hand-pause: nothing is dealt meanwhile
        assert settle.is_visible() and any(ch.isdigit() for ch in page.inner_text("#settle-next"))
    if size == SIZES[1]:
        # One tap re-derives the wall from the revealed seed and checks the commitment.
        page.click("#btn-settle-fair")
        page.click("#verify-btn")
        page.wait_for_selector("#verify-result.ok", timeout=10000)
        assert "验证通过" in page.inner_text("#verify-result")
        page.screenshot(path=str(out / f"fairness_{w}x{h}.png"))
        page.click('[data-close="sheet-fair"]')
    if desktop:
        # The match is over: ranking and the per-hand table, and the way back to the lobby.
        assert settle.locator("#match-result").count() == 1
        assert settle.locator(".ranking li").count() == 4
        assert settle.locator("#scoretable tr").count() == 3      # header, hand 1, total
        page.screenshot(path=str(out / f"result_{w}x{h}.png"))
        page.click("#btn-lobby")  # one tap: the server's `left` brings the lobby back
        page.wait_for_selector("#lobby:not(.hidden)")
        assert not settle.is_visible()
        assert page.locator("#error:not(.hidden)").count() == 0, page.inner_text("#error")
        assert "请先加入房间" not in page.evaluate("document.body.innerText")  # no_room, translated
    else:
        page.click('[data-testid="continue"]')  # the next hand is dealt once every human pressed it
        page.wait_for_selector('[data-testid="settlement"]', state="hidden")
    assert page.evaluate("window.__csp") == []
    assert page.errors == []
    page.context.close()


def test_swipe_up_discards_at_once(browser: Any, server: str) -> None:
    sent: list[dict[str, Any]] = []
    got: list[dict[str, Any]] = []

    def watch(page: Any) -> None:  # the frames of the page's sockets, from the first on
        def on_ws(ws: Any) -> None:
            ws.on("framesent", lambda data: sent.append(json.loads(data)))
            ws.on("framereceived", lambda data: got.append(json.loads(data)))
        page.on("websocket", on_ws)

    page = new_page(browser, server, "滑动", SIZES[0], setup=watch)
    start_table(page, seat=0)
    tile = page.locator('#hand .tile.clickable[data-act="discard"]').last.element_handle()
    code = tile.get_attribute("data-tile")
    box = tile.bounding_box()
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    page.mouse.move(x, y)
    page.mouse.down()
    page.mouse.move(x, y - 60, steps=4)
    page.mouse.up()
    # One swipe: that tile's discard sent at once (no second tap), and applied (acked). Not
    # read from the river alone: a bot (0.02 s) may claim it at once, and a claimed tile
    # leaves the river, perhaps before the page ever drew it there.
    deadline = time.monotonic() + 15
    acts: list[dict[str, Any]] = []
    while time.monotonic() < deadline:
        acts = [m for m in sent if m.get("type") == "action"]
        if acts and any(m.get("type") == "ack" and m.get("seq") == acts[0]["seq"] for m in list(got)):
            break
        page.wait_for_timeout(50)
    assert [m["action"] for m in acts[:1]] == [{"type": "discard", "tile": code}], acts
    assert any(m.get("type") == "ack" and m.get("seq") == acts[0]["seq"] for m in got), acts
    page.wait_for_function("e => !e.isConnected", arg=tile)  # and the hand drawn anew without it
    page.context.close()
