"""The match flow in the browser, on a fixed test wall (:mod:`flowwall`), at the three sizes:
准备, a claim and a win offered to the person at seat 0 and taken by tapping, the settlement
that waits for 继续 (with its countdown), a short match (two hands) to its result screen
(ranking, totals per hand), 托管 shown as the large 取消托管 button, and 再来一局.

At every step the own hand, the action bar and the claim prompt lie inside the viewport and the
page never scrolls sideways. Screenshots go to tests/web/screens (or $LAIZI_SCREENS_DIR).
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest

from support.flowwall import Plan, find
from support.webhelpers import (
    SIZES,
    act_once,
    add_bots,
    live_server,
    new_page,
    outside,
    overflow_x,
    poll,
    press_claim,
    screens_dir,
    sit,
    tap_twice,
)

pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.timeout(300)]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with live_server(tmp_path_factory.mktemp("flowweb"), "--hand-pause", "1") as base:
        yield base


@pytest.fixture(scope="module")
def plan() -> Plan:
    return find()


def _layout(page: Any, where: str) -> None:
    for testid in ("own-hand", "action-bar", "claim-prompt", "cancel-auto", "continue", "rematch"):
        bad = outside(page, testid)
        assert bad is None, f"{where}: {bad} lies outside the viewport"
    assert overflow_x(page) <= 0, f"{where}: the page scrolls sideways"


def _version(page: Any) -> str:
    return str(page.inner_text("#ver"))


DECISION = """() => document.querySelector('[data-testid="settlement"]:not(.hidden)') ? 'settle'
    : (document.querySelector('#actions button[data-act]') || document.querySelector('#hand .tile.clickable')) ? 'act' : ''"""


def _play_move(page: Any, move: dict[str, Any]) -> None:
    kind = move["type"]
    if kind == "discard":
        tap_twice(page, move["tile"])
    else:
        press_claim(page, kind, move.get("tile"))


def _slow_bots(page: Any) -> None:
    """The page's `create` asks for bots (and 托管) that wait 0.3 s before acting."""
    page.add_init_script("""(() => { const send = WebSocket.prototype.send;
        WebSocket.prototype.send = function (data) {
          if (typeof data === "string" && data.includes('"create"')) {
            const m = JSON.parse(data);
            if (m.type === "create") { m.settings.bot_delay = 0.3; data = JSON.stringify(m); }
          }
          return send.call(this, data);
        }; })();""")


def _create(page: Any, seed: str, hands: int) -> None:
    page.fill("#c-hands", str(hands))
    page.click("details.more summary")
    page.fill("#c-seed", seed)
    page.fill("#c-continue", "30")
    page.click("#btn-create")
    page.wait_for_selector("#roomview:not(.hidden)")
    poll(page, "() => document.getElementById('room-code').textContent.length >= 4")


@pytest.mark.parametrize("size", SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
def test_fixed_wall_claim_win_continue_match_rematch(browser: Any, server: str, plan: Plan,
                                                     size: tuple[int, int]) -> None:
    w, h = size
    out = screens_dir()
    # At 390×844 the person ends 托管 with one tap in hand 2. With the server's bots at 0.02 s a
    # move, a busy machine let the hand end first (CI, stop 50): the settlement then covered the
    # button. That room's bots (and 托管) wait 0.3 s instead, a room setting the protocol allows.
    page = new_page(browser, server, f"流程{w}", size,
                    setup=_slow_bots if size == SIZES[1] else None)
    _create(page, plan.seed, 2)
    if size == SIZES[1]:  # the room took the setting (else the race above is back)
        code = page.inner_text("#room-code").strip()
        info = page.evaluate("async c => (await fetch('/api/rooms/' + c)).json()", code)
        assert info["settings"]["bot_delay"] == 0.3, info.get("settings")
    sit(page, 0)  # the creator sits by itself
    add_bots(page, [1, 2, 3], "greedy")
    # 准备: the own seat's ready button toggles the badge the others see
    page.click('[data-testid="ready"]')
    page.wait_for_selector('li.seat-row[data-seat="0"] .b-seat-ready')
    assert page.get_attribute('[data-testid="ready"]', "aria-pressed") == "true"
    page.click("#btn-start")
    page.wait_for_selector("#game:not(.hidden)")
    page.wait_for_selector("#hand .tile")

    # hand 1: exactly the planned moves (the bots answer the same way on this wall)
    for i, move in enumerate(plan.moves):
        assert poll(page, DECISION, timeout=20) == "act", f"move {i}: no decision offered"
        _layout(page, f"{w}x{h} move {i}")
        if i == plan.claim_at:
            page.wait_for_selector('[data-testid="claim-prompt"]:not(.hidden)')
            assert page.locator(f'#actions button[data-act="{move["type"]}"]').count() == 1
            assert page.locator('[data-testid="claim-prompt"] .claim-timer').inner_text()  # its countdown
            page.screenshot(path=str(out / f"flow_claim_{w}x{h}.png"))
        if i == 2:
            page.screenshot(path=str(out / f"flow_table_{w}x{h}.png"))
        if i == plan.win_at:
            assert page.locator('#actions button.win').count() >= 1
            page.screenshot(path=str(out / f"flow_win_offer_{w}x{h}.png"))
        before = _version(page)
        _play_move(page, move)
        poll(page, "v => document.getElementById('ver').textContent !== v", before)

    # the settlement stays, with its countdown, until 继续
    settle = page.locator('[data-testid="settlement"]')
    page.wait_for_selector('[data-testid="settlement"]:not(.hidden)')
    assert settle.locator("#hand-result").count() == 1
    page.wait_for_selector("#settle-next:not(.hidden)")
    assert any(ch.isdigit() for ch in page.inner_text("#settle-next"))
    _layout(page, f"{w}x{h} settlement")
    page.screenshot(path=str(out / f"flow_settlement_{w}x{h}.png"))
    page.wait_for_timeout(1500)  # --hand-pause 1: the server does not deal by itself meanwhile
    assert settle.is_visible()
    page.click('[data-testid="continue"]')
    page.wait_for_selector('[data-testid="settlement"]', state="hidden")

    # hand 2: 托管 from the menu shows the large 取消托管 button
    page.click("#btn-menu")
    page.check("#auto-toggle")
    page.click('[data-close="sheet-menu"]')
    box = poll(page, """() => { const e = document.querySelector('[data-testid="cancel-auto"]');
        if (!e) return null; const r = e.getBoundingClientRect();
        return r.width ? {w: r.width, h: r.height, inside: r.left >= 0 && r.top >= 0
                          && r.right <= innerWidth && r.bottom <= innerHeight} : null; }""")
    assert box["h"] >= 40 and box["w"] >= 80 and box["inside"], box
    # ... and it leaves the own river free (its six columns, full or not), as it lasts the hand
    clash = page.evaluate("""() => {
        const b = document.querySelector('[data-testid="cancel-auto"]').getBoundingClientRect();
        const river = document.querySelector('.river.rpos-bottom');
        const r = river.getBoundingClientRect(), st = getComputedStyle(river);
        const cols = st.gridTemplateColumns.split(' ').map(parseFloat);
        const w = cols.reduce((a, c) => a + c, 0) + (cols.length - 1) * (parseFloat(st.columnGap) || 0);
        const left = r.left + (r.width - w) / 2, right = left + w;
        const apart = b.right <= left || b.left >= right || b.bottom <= r.top || b.top >= r.bottom;
        return apart ? null : {button: [b.left, b.top, b.right, b.bottom], river: [left, r.top, right, r.bottom]}; }""")
    assert clash is None, f"{w}x{h}: 取消托管 lies over the own river {clash}"
    # the status says 托管中, not 请出牌 (the bot plays; found by playing it, stop 48) — read in
    # one evaluation with the hand's state: on a loaded machine 托管 and the bots can finish the
    # hand before the first read, and a finished hand's status rightly says neither (a CI run
    # failed on that race)
    said = poll(page, """() => {
        const over = !!document.querySelector('[data-testid="settlement"]:not(.hidden)');
        const text = document.getElementById('status-line').textContent;
        return over || text.includes('托管中')
            ? {over, text, turn: !!document.getElementById('your-turn')} : null; }""")
    assert not said["turn"], said
    if size == SIZES[1] and not said["over"]:  # one tap ends it; the person plays on by tapping
        page.click('[data-testid="cancel-auto"]')
        page.wait_for_selector('[data-testid="cancel-auto"]', state="detached")
    deadline = time.time() + 150
    while not page.locator('[data-testid="settlement"]:not(.hidden)').count():
        assert time.time() < deadline, "hand 2 did not finish"
        _layout(page, f"{w}x{h} hand 2")
        if size != SIZES[1]:  # 托管 plays the rest of the match
            page.wait_for_timeout(100)
        elif not act_once(page):
            page.wait_for_timeout(60)

    # the result screen: ranking, totals per hand, 再来一局 and 回大厅
    page.wait_for_selector("#match-result")
    assert settle.locator(".ranking li").count() == 4
    assert settle.locator("#scoretable tr").count() == 4        # header, hands 1 and 2, total
    assert page.locator("#btn-lobby").is_visible()
    assert not page.locator('[data-testid="continue"]').is_visible()
    _layout(page, f"{w}x{h} result")
    page.screenshot(path=str(out / f"flow_result_{w}x{h}.png"))
    page.click('[data-testid="rematch"]')
    page.wait_for_selector('[data-testid="settlement"]', state="hidden")
    page.wait_for_selector("#hand .tile")
    poll(page, "() => document.querySelectorAll('#hand .tile').length === 14")  # a new match, dealt again
    _layout(page, f"{w}x{h} rematch")
    assert page.evaluate("window.__csp") == []
    assert page.errors == []
    page.context.close()
