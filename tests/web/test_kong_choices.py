"""Two house rules of issue 23 in the browser: 补/不补 after a kong (``kong_draw_choice``) and kongs
at the 海底 (``haidi_kongs``), both switched on through the create-room form.

A fixed, announced deal (room seed ``kongs-7``, found by trying seeds on the server's own
:class:`GameSession` with its seat bots, like :mod:`flowwall`): the person at seat 0 discards
each drawn tile and passes every claim, except that it takes the 直杠 2s it is offered (5th
decision) and then declines the replacement (不补: the card asks, the 补牌/不补 buttons answer;
its turn ends with no discard and seat 1 draws); at the end of the wall nobody wins and the
haidi reaches it holding a laizi: the 海底 offers 过 and the laizi kong (the laizi tile in hand is
the tap target, as for every laizi kong), which it takes — the hand is drawn (荒庄) with the laizi
laid aside. The plan is recomputed here, so the test fails if the deal stops offering either.

Screenshots of both moments at 844×390 and 390×844 in tests/web/screens/.
"""

from __future__ import annotations

from dataclasses import dataclass, field
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
    press_claim,
    screens_dir,
    sit,
    tap_twice,
)

pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.timeout(300)]

SEED = "kongs-7"
OPTIONS = {"haidi_kongs": True, "kong_draw_choice": True}
KONGS = ("kong", "ankong", "addkong", "special_kong", "laizi_kong")
SIZES = [(844, 390), (390, 844)]
DECISION = """() => document.querySelector('[data-testid="settlement"]:not(.hidden)') ? 'settle'
    : (document.querySelector('#actions button[data-act]') || document.querySelector('#hand .tile.clickable')) ? 'act' : ''"""


@dataclass
class Plan:
    moves: list[dict[str, Any]] = field(default_factory=list)  # seat 0's decisions of the hand
    marks: dict[str, int] = field(default_factory=dict)  # "replace", "haidi": index in moves
    phases: list[str] = field(default_factory=list)
    legal: list[list[dict[str, Any]]] = field(default_factory=list)  # what each decision offered


def plan(seed_text: str = SEED) -> Plan:
    """Seat 0's moves on the room's deal, the greedy bots (the room's, with its seeds) answering."""
    settings = RoomSettings(seed=seed_text, max_hands=1, claim_seconds=120, turn_seconds=600,
                            options=OPTIONS)
    seed = seed_from_text(seed_text)
    g = GameSession(room_rules(settings), seed, max_hands=1)
    bots = {i: SeatBot("greedy", _bot_seed(seed, i)) for i in (1, 2, 3)}
    p = Plan()
    while not g.hand_over:
        s = g.to_act()[0]
        if s != 0:
            g.act(s, bots[s].choose(g, s))
            continue
        h = g.match.hand
        assert h is not None
        legal = g.legal(0)
        by = {a.type: a for a in legal}
        kongs = [a for a in legal if a.type in KONGS]
        if h.phase == "replace":
            pick = by["nodraw"]
            p.marks.setdefault("replace", len(p.moves))
        elif h.phase == "haidi":
            pick = kongs[0] if kongs and "haidi" not in p.marks else by["pass"]
            if pick.type != "pass":
                p.marks["haidi"] = len(p.moves)
        elif h.phase == "claim":
            pick = by["kong"] if "kong" in by and "replace" not in p.marks else by["pass"]
        else:
            drawn = Action("discard", h.last_draw) if h.last_draw is not None else None
            pick = drawn if drawn in legal else next(a for a in legal if a.type == "discard")
        p.moves.append(pick.to_json())
        p.phases.append(str(h.phase))
        p.legal.append([a.to_json() for a in legal])
        g.act(0, pick)
    return p


def _play(page: Any, move: dict[str, Any]) -> None:
    if move["type"] in ("discard", "laizi_kong", "special_kong"):
        tap_twice(page, move["tile"])
    else:
        press_claim(page, move["type"])


def _shots(page: Any, name: str, check: Any) -> None:
    """The moment at both phone sizes: what ``check`` asserts, inside the viewport, no sideways
    scroll; a screenshot of each."""
    for w, h in SIZES:
        page.set_viewport_size({"width": w, "height": h})
        poll(page, "([w, h]) => innerWidth === w && innerHeight === h", [w, h])
        check()
        for testid in ("own-hand", "action-bar", "claim-prompt"):
            assert outside(page, testid) is None, f"{name} {w}x{h}: {testid} outside the viewport"
        assert overflow_x(page) <= 0
        page.screenshot(path=str(screens_dir() / f"{name}-{w}x{h}.png"))


def _walk(x: Any) -> Any:
    """Every dict inside a JSON value."""
    if isinstance(x, dict):
        yield x
        for v in x.values():
            yield from _walk(v)
    elif isinstance(x, list):
        for v in x:
            yield from _walk(v)


def _hand_size(page: Any) -> int:
    return int(page.locator("#hand .tile").count())


def test_kong_without_replacement_and_haidi_kong(browser: Any, server: str) -> None:
    p = plan()
    assert set(p.marks) == {"replace", "haidi"}, p.marks
    r, hd = p.marks["replace"], p.marks["haidi"]
    assert p.moves[r - 1] == {"type": "kong", "tile": "2s"} and p.moves[r] == {"type": "nodraw"}
    assert p.phases[hd] == "haidi" and p.moves[hd]["type"] == "laizi_kong"

    page = new_page(browser, server, "杠牌", size=SIZES[0])
    # the two options through the rules form (it is generated from /api/rules)
    page.click("#c-rules-box summary")
    page.wait_for_selector('#c-rules [data-opt="kong_draw_choice"]')
    page.check('#c-rules [data-opt="haidi_kongs"]')
    page.check('#c-rules [data-opt="kong_draw_choice"]')
    page.fill("#c-turn", "600")
    page.fill("#c-claim", "120")  # the 海底 decision runs on the claim clock: time for the shots
    page.click("details.more > summary")
    page.fill("#c-seed", SEED)
    page.fill("#c-hands", "1")
    page.click("#btn-create")
    page.wait_for_selector("#roomview:not(.hidden)")
    poll(page, "() => document.getElementById('room-code').textContent.length >= 4")
    card = page.inner_text("#room-card")
    assert "海底可杠：开" in card and "杠后可不补牌：开" in card, card
    sit(page, 0)
    add_bots(page, [1, 2, 3], "greedy")
    page.click("#btn-start")
    page.wait_for_selector("#hand .tile")

    for i, move in enumerate(p.moves):
        assert poll(page, DECISION, timeout=20) == "act", f"move {i}: no decision offered"
        if i == r:  # right after the 直杠: 补牌 or 不补, and the card says what 不补 means
            def replace_offered() -> None:
                acts = page.eval_on_selector_all("#actions button[data-act]", "bs => bs.map(b => [b.dataset.act, b.textContent])")
                assert acts == [["draw", "补牌"], ["nodraw", "不补"]], acts
                assert page.inner_text('[data-testid="claim-prompt"] .claim-title') == "杠后：补牌，还是不补（不用打牌）"
                assert page.locator("#hand .tile.clickable").count() == 0  # nothing to discard
            _shots(page, "kong-nodraw-offer", replace_offered)
            assert _hand_size(page) == 10  # 13 − 3 for the kong, no replacement yet
        if i == hd:  # the 海底 tile: 过, or the laizi kong by tapping the laizi
            def haidi_offered(move: dict[str, Any] = move) -> None:
                acts = page.eval_on_selector_all("#actions button[data-act]", "bs => bs.map(b => b.dataset.act)")
                assert acts == ["pass"], acts
                # the tap targets: one per kong on offer (the laizi, and any other), nothing else
                offered = sorted(a["tile"] for a in p.legal[hd] if a["type"] in KONGS)
                tapped = page.eval_on_selector_all("#hand .tile.clickable", "es => es.map(e => e.dataset.tile)")
                assert sorted(set(tapped)) == sorted(set(offered)), (tapped, offered)
                label = page.locator(f'#hand .tile.clickable[data-tile="{move["tile"]}"]').first.get_attribute("aria-label")
                assert label.startswith("赖子杠 "), label
                assert page.locator("#hand.kong-taps").count() == 1  # the kong tiles are lit
                assert page.inner_text('[data-testid="claim-prompt"] .claim-title') == "海底：点亮起的牌杠掉（不补牌），或者过"
            _shots(page, "haidi-kong-offer", haidi_offered)
            page.set_viewport_size({"width": SIZES[0][0], "height": SIZES[0][1]})
        river = page.locator('#table [data-testid="river-0"] .tile').count()
        before = page.inner_text("#ver")
        _play(page, move)
        poll(page, "v => document.getElementById('ver').textContent !== v", before)
        if i == r:  # 不补: no draw and no discard; seat 0's next decision: 10 + its next draw
            assert poll(page, DECISION, timeout=20) == "act"
            assert _hand_size(page) == 11 and page.locator("#hand .tile.drawn").count() == 1
            assert page.locator('#table [data-testid="river-0"] .tile').count() == river
    # the hand ends drawn (荒庄); the match's replay holds both decisions
    page.wait_for_selector('[data-testid="settlement"]:not(.hidden)')
    href = poll(page, "() => { const a = document.getElementById('replay-link'); "
                      "return a && a.getAttribute('href'); }", timeout=30)
    match_id = str(href).rstrip("/").rsplit("/", 1)[1]
    resp = page.request.get(f"{server}/api/matches/{match_id}/replay?hand=1")
    assert resp.ok, resp.status
    events = [e for e in _walk(resp.json()) if e.get("type") in ("replace", "laizi_kong", "ryukyoku")]
    mine = {(e["type"], e.get("seat"), e.get("draw")) for e in events}
    assert ("replace", 0, False) in mine and ("laizi_kong", 0, None) in mine, mine
    assert any(e["type"] == "ryukyoku" for e in events)
    assert page.errors == []
