"""The terminal table's words: the web client's glossary, complete in English."""

from __future__ import annotations

import re

from laizi.game.actions import ACTION_TYPES, Action
from laizi.game.match import Match
from laizi.rules import RuleSet
from laizi.scoring.patterns import BIG_HAND_IDS
from laizi.tui.render import settlement_text
from laizi.tui.session import Session
from laizi.tui.words import (
    W,
    action_label,
    big_hand_name,
    describe_event,
    localize_line,
    seat_label,
    tile_long,
    tile_short,
    wind_of,
)
from laizi.views import hand_log

CJK = re.compile(r"[\u3400-\u9fff\u3000-\u303f\uff00-\uffef]")


def _a(t: str, tile: str | None = None) -> Action:
    return Action.from_json({"type": t, **({"tile": tile} if tile else {})})


def test_chinese_words_of_the_table() -> None:
    assert action_label(_a("chi", "5s"), "zh") == "吃 五六七条"
    assert action_label(_a("discard", "7z"), "zh") == "打出 红中"
    assert action_label(_a("tsumo"), "zh") == "自摸"
    assert action_label(_a("pass"), "zh") == "过"
    assert action_label(_a("peng", "1p"), "zh") == "碰 一筒"
    assert action_label(_a("special_kong", "7z"), "zh") == "红中杠 红中"
    assert tile_short("9m", "zh") == "九万" and tile_short("7z", "zh") == "中"
    assert action_label(_a("chi", "5s"), "en") == "Chow 5-6-7 Bam"
    assert action_label(_a("discard", "7z"), "en") == "Discard Red Dragon"
    assert action_label(_a("special_kong", "7z"), "en") == "Red Dragon kong"
    assert action_label(_a("special_kong", "5m"), "en") == "Pizi kong 5 Char"
    assert action_label(_a("tsumo"), "en") == "Self-draw win"


def test_winds_rotate_with_the_dealer() -> None:
    assert [wind_of(s, 0, "zh") for s in range(4)] == ["东", "南", "西", "北"]
    assert [wind_of(s, 2, "zh") for s in range(4)] == ["西", "北", "东", "南"]
    assert wind_of(1, 1, "en") == "East"
    names = ["你", "下家", "对家", "上家"]
    assert seat_label(1, 1, names, "zh") == "东·下家"


def test_english_words_have_no_chinese() -> None:
    assert set(W["en"]) == set(W["zh"])
    texts = list(W["en"].values())
    texts += [tile_long(k, "en") for k in range(34)] + [tile_short(k, "en") for k in range(34)]
    texts += [big_hand_name(b, "en") for b in BIG_HAND_IDS]
    for t in ACTION_TYPES:
        tiles = ["3m"] if t not in ("tsumo", "pass", "draw", "nodraw") else [None]
        texts += [action_label(_a(t, x), "en") for x in tiles]
    for text in texts:
        assert not CJK.search(text), text


def test_every_event_of_bot_matches_reads_in_english() -> None:
    """Whole bot hands (with claims, kongs, wins) described and settled in English."""
    claims = 0
    for seed in range(3):
        s = Session(RuleSet.preset("kaikoufan"), seed=seed, hands=1, lang="en")
        s.set_auto(True)
        while not s.hand_over:
            s.step_bot()
        for e in hand_log(s.match, 1):
            line = describe_event(e, 0, 0, s.names, "en")
            claims += e["type"] in ("chi", "peng", "kong")
            if line is not None:
                assert not CJK.search(line), line
        s.new_events()
        rec = s.records[-1]
        hv = s.hand_view()
        table = settlement_text(rec, s.names, s.scores(), hv["laizi"], hv["special"], "en")
        from rich.console import Console

        con = Console(record=True, width=120)
        con.print(table)
        out = con.export_text()
        assert not CJK.search(out), out
        assert "settlement" in out
        zh = Session(RuleSet.preset("kaikoufan"), seed=seed, hands=1, lang="zh").names
        con = Console(record=True, width=120)
        con.print(settlement_text(rec, zh, s.scores(), hv["laizi"], hv["special"], "zh"))
        out = con.export_text()
        assert "结算" in out
        assert not re.search(r"[A-Za-z]{2,}", out), out  # Chinese mode: Chinese words only
    assert claims > 0


def test_breakdown_lines_localized() -> None:
    names = ["You", "Right", "Across", "Left"]
    line = "seat 1: 开口 opened +1, 红中杠 7z kong ×2 +2, 庄 dealer +1 → 1 × 2^5 = 32"
    assert localize_line(line, 0, names, "en") == (
        "South·Right: opened +1, Red Dragon kong ×2 +2, dealer +1 → 1 × 2^5 = 32")
    zh = localize_line(line, 0, ["你", "下家", "对家", "上家"], "zh")
    assert zh == "南·下家: 开口 +1, 红中杠 红中 ×2 +2, 庄 +1 → 1 × 2^5 = 32"
    assert localize_line("哈顶 ha: all three unopened, each pays 600", 0, ["你"] * 4, "zh") == (
        "哈顶: 三家未开口, 每家付 600")


def test_tile_count_is_conserved_through_a_hand() -> None:
    s = Session(RuleSet.preset("kaikoufan"), seed=4, hands=1)
    s.set_auto(True)
    while not s.hand_over:
        assert s.tile_total() == 136
        s.step_bot()
    assert s.tile_total() == 136
    assert isinstance(s.match, Match)


def test_a_chis_taken_tile_is_marked() -> None:
    """The terminal underlines a chi's tile taken from 上家 (the web table turns it sideways);
    the words stay as they were, and a chi that does not say has no mark."""
    from laizi.tui.render import TileStyler

    hv = {"laizi": "2z", "special": ["7z"]}
    chi = {"type": "chi", "tile": "4m", "tiles": "4m5m6m", "from": 3, "claimed": "5m"}
    for lang, plain in (("zh", "[四五六万]"), ("en", "[4C 5C 6C]")):
        text = TileStyler(hv, lang).meld(chi, 0, 0, ["a", "b", "c", "d"])
        assert text.plain.startswith(plain), text.plain
        marked = [text.plain[s.start:s.end] for s in text.spans if "underline" in str(s.style)]
        assert marked == (["五"] if lang == "zh" else ["5C"]), (lang, marked)
        bare = TileStyler(hv, lang).meld({**chi, "claimed": None}, 0, 0, ["a", "b", "c", "d"])
        assert not [s for s in bare.spans if "underline" in str(s.style)]
