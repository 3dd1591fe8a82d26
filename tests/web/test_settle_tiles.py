"""The winner's row on the settlement holds the winning hand once: 14 tiles plus one per kong
(issue 21: a win on a discard showed the winning tile twice — the stored hand already holds it).

Real hands: the engine plays deals with its bots until wins on a discard (one with a kong) and a
self-draw; the page's own settle.js renders each finished view in the system Chromium."""

from __future__ import annotations

from typing import Any

import pytest

from laizi.rules import RuleSet
from laizi.server.tables.engine import GameSession, seed_from_text
from laizi.server.tables.seats import SeatBot
from support.webhelpers import new_page, winning_row

pytestmark = pytest.mark.browser


def finished_hand(text: str) -> dict[str, Any] | None:
    g = GameSession(RuleSet.preset("kaikoufan", rounds=1), seed_from_text(text), max_hands=1)
    bots = [SeatBot("greedy", i) for i in range(4)]
    for _ in range(3000):
        if g.hand_over:
            break
        seat = g.to_act()[0]
        g.act(seat, bots[seat].choose(g, seat))
    view = g.view(0)
    return view if view.get("result") else None


def wins() -> list[dict[str, Any]]:
    """Finished views: a discard win without a kong, one with a kong, a self-draw."""
    want = {"discard": None, "discard+kong": None, "self_draw": None}
    for i in range(300):
        v = finished_hand(f"settle-tiles-{i}")
        if v is None:
            continue
        r = v["result"]
        kongs = any(len(m["tiles"]) == 4 for m in v["players"][r["winner"]]["melds"])
        key = "discard+kong" if r["by"] == "discard" and kongs else r["by"] if not kongs else None
        if key in want and want[key] is None:
            want[key] = v
        if all(want.values()):
            break
    assert all(want.values()), {k: v is not None for k, v in want.items()}
    return list(want.values())  # type: ignore[arg-type]


def test_the_winners_row_shows_fourteen_tiles_plus_kongs(browser: Any, server: str) -> None:
    page = new_page(browser, server, size=(390, 844))
    for v in wins():
        r = v["result"]
        page.evaluate(
            """async v => { const m = await import("/static/js/settle.js");
                 let box = document.getElementById("settle-test");
                 if (!box) { box = document.createElement("div"); box.id = "settle-test"; document.body.appendChild(box); }
                 m.renderSettlement(box, v, { seats: null, me: 0 }); }""", v)
        row = winning_row(page)
        assert row is not None
        p = v["players"][r["winner"]]
        assert len(row["tiles"]) == 14 + row["kongs"], (r["by"], row, p)
        assert row["win"] == [r["tile"]], row
        # the winning tile appears as often as in the hand and melds the engine holds
        held = list(p["hand"]) + [c for m in p["melds"] for c in m["tiles"]]
        assert sorted(row["tiles"]) == sorted(held), (row["tiles"], held)
    assert page.errors == []
    page.context.close()
