"""The big-hand card's tiles, every one of them: cards drawn in the system Chromium by the very
code the 晒大胡 sheet runs (``card.js`` ``drawHandCard``) for crafted hands of every shape — the
34 kinds, laizi-marked tiles first and in special kongs, kongs and pengs and chis, 7 pairs, the
most tiles a hand can show — each slot read back from the canvas: the tile's ivory face, never
an empty slot, every tile from its art (no plain stand-in). No bot match: a second or two."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from support.handcard import card_slots, empty_slots
from support.webhelpers import live_server, new_page

pytestmark = [pytest.mark.browser]

ALL = [f"{n}{s}" for s in "mps" for n in range(1, 10)] + [f"{n}z" for n in range(1, 8)]


def tiles(text: str) -> list[str]:
    return text.split()


def meld(kind: str, tiles: list[str]) -> dict[str, Any]:
    return {"type": kind, "tile": tiles[0], "tiles": tiles}


def card(tiles: list[str], win: str, laizi: str, melds: list[dict[str, Any]] | None = None,
         special_kongs: list[str] | None = None, by: str = "self_draw") -> dict[str, Any]:
    """Card data of the shape GET /api/matches/{id}/hands/{n}/card answers."""
    return {
        "match_id": 7, "hand": 3, "dealer": 0, "winner": 1, "by": by, "from": 2 if by == "discard" else None,
        "tile": win, "laizi": laizi, "tiles": sorted(tiles, key=ALL.index), "melds": melds or [],
        "special_kongs": special_kongs or [], "preset": "wuhan_hongzhong",
        "rule_card": {"zh": "红中赖子杠", "en": "Red Dragon laizi kong"},
        "seats": [{"nickname": f"p{s}"} for s in range(4)], "payments": [-8.0, 24.0, -8.0, -8.0],
        "score": {"big_hands": ["qingyise"], "winner_fan": 3, "breakdown": []},
    }


HANDS = {
    # 清一色 of 筒, the laizi (1p) first: 14 concealed tiles, the widest tiles (66 px)
    "pins_laizi_first": card(tiles("1p 1p 1p 2p 3p 4p 5p 5p 6p 7p 8p 9p 9p 9p"), "5p", "1p"),
    # 13 concealed 万 and the winning tile from a discard
    "wan_concealed": card(tiles("1m 1m 1m 2m 3m 4m 5m 6m 7m 8m 9m 9m 9m 5m"), "5m", "6p", by="discard"),
    # 7 pairs of honours (红中 among them)
    "honour_pairs": card([f"{n}z" for n in range(1, 8) for _ in range(2)], "7z", "2s"),
    # 条 with a concealed kong, a peng, a chi and special kongs of 红中 and the laizi (4m)
    "sou_melds": card(["2s", "2s", "3s", "4s", "5s"], "5s", "4m",
                      [meld("ankong", ["1s"] * 4), meld("peng", ["9s"] * 3), meld("chi", ["6s", "7s", "8s"])],
                      ["7z", "7z", "4m"]),
    # the most tiles: four kongs, a pair, four special kongs (22 tiles, 6 gaps: the narrowest)
    "four_kongs": card(["3p", "3p"], "3p", "5z",
                       [meld("kong", [c] * 4) for c in ("2m", "4p", "3z", "9s")], ["7z", "7z", "5z", "7z"]),
    # a 4p first at 66 px: its pips cover the card's pixel (70, 225), which the old check read
    # as "the first tile drawn" (7 of 139 real won hands put a pip or a stroke there)
    "first_on_art": card(tiles("4p 4p 4p 5p 6p 7p 7p"), "7p", "1z",
                         [meld("peng", ["2z"] * 3), meld("kong", ["5z"] * 4)], ["7z"]),
}


@pytest.fixture(scope="module")
def page(browser: Any, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    with live_server(tmp_path_factory.mktemp("cardtiles")) as base:
        p = new_page(browser, base, size=(844, 390))
        yield p
        p.context.close()


def draw(page: Any, data: dict[str, Any]) -> Any:
    return page.evaluate("""async data => {
        const { drawHandCard } = await import('/static/js/card.js');
        const c = document.querySelector('[data-testid="card-image"]');
        const drew = await drawHandCard(c, data);
        return { drew, size: [c.width, c.height], plain: c.dataset.plain }; }""", data)


@pytest.mark.parametrize("name", list(HANDS))
def test_every_slot_shows_its_tile(page: Any, name: str) -> None:
    data = HANDS[name]
    assert draw(page, data) == {"drew": True, "size": [1200, 630], "plain": "0"}
    slots = card_slots(page)
    concealed = [c for c in data["tiles"]]
    concealed.remove(data["tile"])
    want = [*concealed, data["tile"], *(c for m in data["melds"] for c in m["tiles"]), *data["special_kongs"]]
    assert [s["code"] for s in slots] == want
    assert empty_slots(page) == [], empty_slots(page)
    # left to right inside the card's frame, one size; the winning tile raised by 10 px
    xs = [s["x"] for s in slots]
    assert xs == sorted(xs) and xs[0] == 56 and xs[-1] + slots[-1]["w"] <= 1200 - 56
    assert len({(s["w"], s["h"]) for s in slots}) == 1 and 30 <= slots[0]["w"] <= 64
    win = len(concealed)
    assert {s["y"] for i, s in enumerate(slots) if i != win} == {200} and slots[win]["y"] == 190
    assert page.errors == []


def test_every_tile_code_is_drawn_marked_or_not(page: Any) -> None:
    """All 34 kinds on one card, then all 34 each as the laizi: each slot its face."""
    codes = set()
    for laizi in (None, *ALL):
        data = card(ALL, ALL[-1] if laizi is None else laizi, laizi or "")
        assert draw(page, data)["plain"] == "0"
        assert empty_slots(page) == [], (laizi, empty_slots(page))
        codes |= {s["code"] for s in card_slots(page)}
    assert codes == set(ALL)


def test_a_refused_image_leaves_no_empty_slot(page: Any) -> None:
    """A tile whose art the browser will not load (its image refused) is drawn as a plain ivory
    tile with its name: the card has no hole."""
    data = HANDS["pins_laizi_first"]
    got = page.evaluate("""async data => {
        const { drawHandCard } = await import('/static/js/card.js');
        const c = document.querySelector('[data-testid="card-image"]');
        const real = URL.createObjectURL;  // the next blob URLs point nowhere: every image fails
        URL.createObjectURL = () => 'blob:' + location.origin + '/00000000-0000-0000-0000-000000000000';
        try { await drawHandCard(c, data); } finally { URL.createObjectURL = real; }
        return c.dataset.plain; }""", data)
    assert got == str(len(data["tiles"]))
    assert empty_slots(page) == [], empty_slots(page)
