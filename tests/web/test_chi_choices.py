"""Several 吃 at once (TABLE.md, "Actions"): the action bar shows one 吃 button; its tap shows the
choices as tile groups (each the run it melds), 返回 goes back, and a group's tap makes that chow.

A fixed, announced deal (room seed ``chis-2``, found by trying seeds on the server's own
:class:`GameSession` with its seat bots, as in :mod:`test_kong_choices`): the person at seat 0
discards each drawn tile and passes every claim until a discard offers it two chows. The plan is
recomputed here, so the test fails if the deal stops offering them.

Screenshots of the choices at 844×390 and 390×844 in tests/web/screens/.
"""

from __future__ import annotations

from typing import Any

import pytest

from laizi.game import Action
from laizi.server.common.config import room_rules
from laizi.server.common.protocol import RoomSettings
from laizi.server.tables.engine import GameSession, seed_from_text
from laizi.server.tables.room import _bot_seed
from laizi.server.tables.seats import SeatBot
from support.webhelpers import (
    add_bots,
    new_page,
    outside,
    overflow_x,
    poll,
    screens_dir,
    sit,
    tap_twice,
)

pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.timeout(300)]

SEED = "chis-2"
SIZES = [(844, 390), (390, 844)]
DECISION = """() => document.querySelector('[data-testid="settlement"]:not(.hidden)') ? 'settle'
    : (document.querySelector('#actions button[data-act], #actions button[data-choose]')
       || document.querySelector('#hand .tile.clickable')) ? 'act' : ''"""


def plan() -> tuple[list[dict[str, Any]], list[str]]:
    """Seat 0's moves up to its first decision with two chows or more, and those chows' tiles."""
    settings = RoomSettings(seed=SEED, max_hands=1, claim_seconds=120, turn_seconds=600)
    seed = seed_from_text(SEED)
    g = GameSession(room_rules(settings), seed, max_hands=1)
    bots = {i: SeatBot("greedy", _bot_seed(seed, i)) for i in (1, 2, 3)}
    moves: list[dict[str, Any]] = []
    while not g.hand_over:
        s = g.to_act()[0]
        if s != 0:
            g.act(s, bots[s].choose(g, s))
            continue
        h = g.match.hand
        assert h is not None
        legal = g.legal(0)
        chis = [a.to_json()["tile"] for a in legal if a.type == "chi"]
        if len(chis) >= 2:
            return moves, chis
        by = {a.type: a for a in legal}
        if "pass" in by:
            pick = by["pass"]
        else:
            drawn = Action("discard", h.last_draw) if h.last_draw is not None else None
            pick = drawn if drawn in legal else next(a for a in legal if a.type == "discard")
        moves.append(pick.to_json())
        g.act(0, pick)
    raise AssertionError(f"the deal {SEED} no longer offers seat 0 two chows")


def _run(low: str) -> list[str]:
    return [f"{int(low[0]) + k}{low[1]}" for k in range(3)]


def _choices(page: Any) -> list[list[str]]:
    return page.eval_on_selector_all(
        '#actions button.choice[data-act="chi"]',
        "bs => bs.map(b => [...b.querySelectorAll('.tile')].map(t => t.dataset.tile))")


def test_several_chows_are_chosen_as_tile_groups(browser: Any, server: str) -> None:
    moves, chis = plan()
    page = new_page(browser, server, "吃牌", size=SIZES[0])
    page.fill("#c-turn", "600")
    page.fill("#c-claim", "120")  # time for the screenshots
    page.click("details.more > summary")
    page.fill("#c-seed", SEED)
    page.fill("#c-hands", "1")
    page.click("#btn-create")
    page.wait_for_selector("#roomview:not(.hidden)")
    poll(page, "() => document.getElementById('room-code').textContent.length >= 4")
    sit(page, 0)
    add_bots(page, [1, 2, 3], "greedy")
    page.click("#btn-start")
    page.wait_for_selector("#hand .tile")

    for i, move in enumerate(moves):
        assert poll(page, DECISION, timeout=20) == "act", f"move {i}: no decision offered"
        before = page.inner_text("#ver")
        if move["type"] == "pass":
            page.locator('#actions button[data-act="pass"]').click()
        else:
            tap_twice(page, move["tile"])
        poll(page, "v => document.getElementById('ver').textContent !== v", before)

    # the decision: one 吃 button (no chow played by a single tap), beside 过
    group = page.locator('#actions button[data-choose="chi"]')
    group.wait_for(timeout=20000)
    assert page.locator('#actions button[data-act="chi"]').count() == 0
    assert group.count() == 1 and group.inner_text().startswith("吃")
    assert page.locator('#actions button[data-act="pass"]').count() == 1
    # the seat that must act has the countdown ring round its avatar, and it runs down
    timing = page.eval_on_selector_all(".seat img.avatar.timing", "es => es.map(e => e.closest('.seat').dataset.seat)")
    assert timing == ["0"], timing
    ring = "() => +getComputedStyle(document.querySelector('.seat.me img.avatar.timing')).getPropertyValue('--ring')"
    r0 = page.evaluate(ring)
    assert 0.8 < r0 <= 1, r0  # (in twelfths: 120 s of 120, then 110 s the next step)
    poll(page, f"r0 => ({ring})() < r0", r0)
    # its tap: the chows as tile groups, each the run it melds; 返回 goes back
    group.click()
    assert _choices(page) == [_run(c) for c in chis]
    assert page.locator('#actions button[data-act="pass"]').count() == 0
    claimed = page.eval_on_selector_all('#actions button.choice', "bs => bs.map(b => [...b.querySelectorAll('.tile.claimed')].map(t => t.dataset.tile))")
    pending = page.get_attribute('[data-testid="claim-prompt"] .tile', "data-tile") if page.locator('[data-testid="claim-prompt"] .tile').count() else None
    assert pending and claimed == [[pending]] * len(chis), (claimed, pending)  # the discard taken, marked once
    labels = page.eval_on_selector_all('#actions button.choice', "bs => bs.map(b => b.getAttribute('aria-label'))")
    assert all(label.startswith("吃 ") for label in labels), labels
    page.click('#actions button[data-choose="back"]')
    group.wait_for()
    assert _choices(page) == []
    group.click()
    for w, h in SIZES:
        page.set_viewport_size({"width": w, "height": h})
        poll(page, "([w, h]) => innerWidth === w && innerHeight === h", [w, h])
        assert len(_choices(page)) == len(chis)
        for b in page.locator("#actions button.choice").all():
            box = b.bounding_box()
            assert box is not None and box["height"] >= 40 and box["width"] >= 40, box  # a finger's target
        assert outside(page, "action-bar") is None, f"{w}x{h}: the choices outside the viewport"
        assert overflow_x(page) <= 0
        page.screenshot(path=str(screens_dir() / f"chi-choices-{w}x{h}.png"))
    # the second choice: that chow is melded
    page.click(f'#actions button.choice[data-tile="{chis[1]}"]')
    melds = '[data-testid="seat-0"] .melds .meld .tile'
    poll(page, "sel => document.querySelectorAll(sel).length >= 3", melds)
    got = sorted(page.eval_on_selector_all(melds, "es => es.map(e => e.dataset.tile)"))
    assert got == sorted(_run(chis[1])), got
    assert page.errors == []  # type: ignore[attr-defined]
    page.context.close()
