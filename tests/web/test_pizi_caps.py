"""Words of the table (an audit, words9): under 七皮四赖 the 皮子 are marked and their kongs are
皮子杠; a settlement that topped out names its cap; honours read 中 发 白 (TABLE.md's words).

1. A live 七皮四赖 table (room seed ``pizi-1``; the plan below checks the deal on the server's own
   :class:`GameSession`): the dealer, at seat 0, holds the 皮子 四条 and a 红中 at its first
   turn. Every 皮子 in its hand and the centre's 皮子 carry the 皮 mark; it lays 四条 aside — the log
   and the announcement say 皮子杠 (they said 红中杠 for every special kong) and the laid-out
   tile is marked — then 中, which stays 红中杠. Screenshots at 844×390, 390×844, 1366×900.
2. settle.js on settlements priced by the scorer itself (the spec example v08, 金顶 with one
   阳光顶; the same hand's losers all unopened, 哈顶; a hand where one loser passed the cap,
   封顶): the tags name the cap (only 封顶 was said, and only when the hand topped out) and each
   capped loser's row carries its mark.
3. The words of an event or action on crafted inputs: a special kong by its tile (发财杠 under
   红中发财杠; 皮子杠 for a 皮子 发 under 七皮四赖), honours 中 发 白.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from laizi.scoring.request import score_json
from laizi.server.common.config import room_rules
from laizi.server.common.protocol import RoomSettings
from laizi.server.tables.engine import GameSession, seed_from_text
from support.webhelpers import (
    SIZES,
    add_bots,
    new_page,
    outside,
    overflow_x,
    poll,
    screens_dir,
    sit,
)

pytestmark = [pytest.mark.browser]

SEED = "pizi-1"
V08 = Path(__file__).resolve().parents[1] / "scoring" / "spec_examples" / "v08_pengpeng_golden_sunshine.json"
TILE_ORDER = "mpsz"


def _code(k: int) -> str:
    return f"{k % 9 + 1}{TILE_ORDER[k // 9]}"


def test_the_deal_offers_a_pizi_kong_and_a_red_kong() -> None:
    st = RoomSettings(seed=SEED, max_hands=1, preset="qipisilai", claim_seconds=120, turn_seconds=600)
    g = GameSession(room_rules(st), seed_from_text(SEED), max_hands=1)
    h = g.match.hand
    assert h is not None and g.to_act() == [0]
    assert sorted(_code(k) for k in h.setup.pizi) == ["4s", "5s"]
    kongs = {a.to_json()["tile"] for a in g.legal(0) if a.type == "special_kong"}
    assert {"4s", "7z"} <= kongs, kongs


def _special_kong(page: Any, tile: str) -> None:
    """Lay ``tile`` aside (and draw) as a player does: two taps on it. (A tap used to discard a
    special tile — that counts as a kong but draws nothing — and the table offered the lay-aside
    no other way.)"""
    before = page.inner_text("#ver")
    page.locator(f'#hand .tile.clickable[data-tile="{tile}"]').first.click()
    page.locator("#hand .tile.raised").first.click()
    poll(page, "v => document.getElementById('ver').textContent !== v", before)


HAND_MARKS = """() => [...document.querySelectorAll('#hand .tile')].map(e =>
    [e.dataset.tile, e.classList.contains('pizi'), !!e.querySelector('.pz-badge')])"""
KONG_LINES = "() => [...document.querySelectorAll('#log > div')].map(d => d.textContent).filter(s => /杠/.test(s))"


@pytest.mark.slow
def test_a_qipisilai_table_marks_the_pizi_and_names_their_kong(browser: Any, server: str) -> None:
    page = new_page(browser, server, "皮子", size=SIZES[0])
    page.select_option("#c-preset", "qipisilai")
    page.fill("#c-turn", "600")
    page.fill("#c-claim", "120")
    page.click("details.more > summary")
    page.fill("#c-seed", SEED)
    page.fill("#c-hands", "1")
    page.click("#btn-create")
    page.wait_for_selector("#roomview:not(.hidden)")
    sit(page, 0)
    add_bots(page, [1, 2, 3], "greedy")
    page.click("#btn-start")
    page.wait_for_selector('#hand .tile.clickable[data-tile="4s"]')
    marks = page.evaluate(HAND_MARKS)
    assert any(t == "4s" for t, _, _ in marks)
    for tile, marked, badge in marks:  # every 皮子 in the hand, and nothing else
        assert marked == badge == (tile in ("4s", "5s")), marks
    centre = page.eval_on_selector_all('#table [data-testid="pizi"] .tile',
                                       "es => es.map(e => [e.dataset.tile, e.classList.contains('pizi')])")
    assert centre == [["4s", True], ["5s", True]], centre
    assert page.inner_text('#table [data-testid="pizi"] .clabel') == "皮子"
    for w, h in SIZES:  # the marks and the centre's 皮子 at every size, inside the screen
        page.set_viewport_size({"width": w, "height": h})
        poll(page, "([w, h]) => innerWidth === w && innerHeight === h", [w, h])
        assert outside(page, "pizi") is None, f"{w}x{h}: the centre's 皮子 outside the screen"
        assert outside(page, "own-hand") is None and overflow_x(page) <= 0
        page.screenshot(path=str(screens_dir() / f"pizi-table-{w}x{h}.png"))
    page.set_viewport_size({"width": SIZES[0][0], "height": SIZES[0][1]})

    _special_kong(page, "4s")  # 皮子杠
    poll(page, "() => document.querySelector('#table .seat[data-seat=\"0\"] .melds .spk .tile')")
    lines = poll(page, f"() => {{ const k = ({KONG_LINES})(); return k.length ? k : null; }}")
    assert len(lines) == 1 and lines[0].endswith("皮子杠 四条"), lines
    said = page.inner_text('#table .seat[data-seat="0"] .announce')
    assert said == "皮子杠!", said
    spk = page.eval_on_selector_all('#table .seat[data-seat="0"] .melds .spk .tile',
                                    "es => es.map(e => [e.dataset.tile, e.classList.contains('pizi')])")
    assert spk == [["4s", True]], spk
    page.wait_for_selector('#hand .tile.clickable[data-tile="7z"]')
    _special_kong(page, "7z")  # 红中杠 stays 红中杠
    poll(page, "() => document.querySelectorAll('#table .seat[data-seat=\"0\"] .melds .spk .tile').length === 2")
    lines = poll(page, f"() => {{ const k = ({KONG_LINES})(); return k.length === 2 ? k : null; }}")
    assert lines[1].endswith("红中杠 中"), lines
    page.screenshot(path=str(screens_dir() / "pizi-kongs-844x390.png"))
    assert page.errors == []  # type: ignore[attr-defined]
    page.context.close()


def _settlement(unopened: bool = False, capped_only: bool = False) -> dict[str, Any]:
    """A finished hand's view around the scorer's own result for the spec's v08 hand."""
    req = copy.deepcopy(json.loads(V08.read_text())["input"])
    if unopened:  # the losers' melds gone: all three unopened → 哈顶
        for s in (0, 2, 3):
            req["players"][s]["melds"] = []
    rules = {"cap": 300}
    sc = score_json(req)
    if capped_only:  # the same result read under a cap only one loser's raw amount passes
        rules = {"cap": 900}
        sc = {**sc, "topped_out": False, "breakdown": [x for x in sc["breakdown"] if "金顶" not in x]}
    pay = sc["payments"]
    players = [{"hand": [], "melds": [], "special_kongs": []} for _ in range(4)]
    players[1]["hand"] = ["4m", "4m", "4m", "3z", "3z"]
    return {"hand_no": 1, "dealer": 0, "rules": rules, "payments": pay, "scores": pay, "players": players,
            "laizi": "6m", "result": {"winner": 1, "by": "discard", "from": 2, "tile": "3z", "score": sc}}


RENDER = """async (v) => { const m = await import("/static/js/settle.js");
    const box = document.createElement("div"); document.body.appendChild(box);
    m.renderSettlement(box, v, { seats: null, me: 0 });
    const out = { tags: [...box.querySelectorAll(".settle-tags .tag")].map(e => e.textContent),
      marks: [...box.querySelectorAll("table.pay tr")].slice(1).map(r => {
        const k = r.querySelector(".cap-mark"); return k ? [k.dataset.cap, k.textContent] : null; }),
      pays: [...box.querySelectorAll("table.pay tr")].slice(1).map(r => +r.cells[2].textContent) };
    box.remove(); return out; }"""


def test_a_settlement_names_its_cap(browser: Any, server: str) -> None:
    page = new_page(browser, server, None, size=(844, 390))
    golden = page.evaluate(RENDER, _settlement())
    assert "金顶 · 阳光顶" in golden["tags"] and "封顶" not in golden["tags"], golden
    assert golden["marks"] == [["golden", "金顶"], None, ["golden", "金顶"], ["sunshine", "阳光顶"]], golden
    assert golden["pays"] == [-400, 1300, -400, -500]   # the payment cells stay numbers
    ha = page.evaluate(RENDER, _settlement(unopened=True))
    assert "哈顶" in ha["tags"], ha
    assert ha["marks"] == [["ha", "哈顶"], None, ["ha", "哈顶"], ["ha", "哈顶"]], ha
    one = page.evaluate(RENDER, _settlement(capped_only=True))
    assert "封顶" in one["tags"], one   # one loser (raw 960) passed the cap 900: named, marked
    assert one["marks"] == [None, None, ["cap", "封顶"], None], one
    # a page that takes room patches gets views without the rules: the room's are read
    room_rules = """async (rules) => { const s = await import("/static/js/state.js"); s.S.room = rules && { rules }; }"""
    lean_view = _settlement(capped_only=True)
    del lean_view["rules"]
    page.evaluate(room_rules, {"cap": 900})
    assert page.evaluate(RENDER, lean_view)["marks"] == one["marks"]
    page.evaluate(room_rules, None)
    page.click("#langbtn")
    poll(page, "() => document.documentElement.lang === 'en'")
    en = page.evaluate(RENDER, _settlement())
    assert "golden cap · sunshine cap" in en["tags"], en
    page.click("#langbtn")
    # a picture of the settlement as a player sees it, at each size
    page.evaluate("""async (v) => { const m = await import("/static/js/settle.js");
        m.renderSettlement(document.getElementById("settle-body"), v, { seats: null, me: 0 });
        document.getElementById("settlement").classList.remove("hidden"); }""", _settlement())
    for w, h in SIZES:
        page.set_viewport_size({"width": w, "height": h})
        poll(page, "([w, h]) => innerWidth === w && innerHeight === h", [w, h])
        page.screenshot(path=str(screens_dir() / f"settle-caps-{w}x{h}.png"))
    assert page.errors == []  # type: ignore[attr-defined]
    page.context.close()


WORDS = """async () => { const i = await import("/static/js/i18n.js"); const w = await import("/static/js/words.js");
    const ev = tile => ({ type: "special_kong", seat: 0, tile });
    return [w.describe(ev("6z"), null, 0, []), w.describe(ev("6z"), null, 0, ["5z", "6z"]),
            w.describe(ev("7z"), null, 0, ["5z", "6z"]), w.describe(ev("3p"), null, 0, ["2p", "3p"]),
            i.actionLabel({ type: "special_kong", tile: "4s" }),
            i.tileName("5z"), i.tileName("6z"), i.tileName("7z"), i.localizeLine("红中杠 7z kong ×3 ×8")]; }"""


def test_special_kongs_and_honours_in_words(browser: Any, server: str) -> None:
    page = new_page(browser, server, None, size=(844, 390))
    got = page.evaluate(WORDS)
    assert got == ["东 发财杠 发", "东 皮子杠 发", "东 红中杠 中", "东 皮子杠 三筒",
                   "皮子杠 四条", "白", "发", "中", "红中杠 ×3 ×8"], got
    page.context.close()
