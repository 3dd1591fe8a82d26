"""听牌 as 下小雨 reads it (RULES §7.5.3: the 全求人 discarder is not liable if it was ready
when it discarded): "ready" means some tile would let that seat win now — the 258 pair (or a
big hand that waives it), no special tile held, opened — not merely a shape that waits on a
tile (docs/rules-choices.md). Whole games through the engine: the discarder's 5s gives seat 3
its 全求人; who pays depends on the discarder's hand after the discard."""

from __future__ import annotations

from typing import Any

import pytest

from laizi.game.actions import ACT
from laizi.game.position import position
from laizi.rules import RuleSet
from laizi.scoring.model import Meld
from laizi.tiles import NUM_KINDS, parse_tiles


def _i(s: str) -> int:
    return parse_tiles(s)[0].index


def _counts(s: str) -> list[int]:
    c = [0] * NUM_KINDS
    for t in parse_tiles(s):
        c[t.index] += 1
    return c


def _play(seat1: str, seat1_melds: list[Meld]) -> tuple[bool, dict[str, Any]]:
    """Seat 1 (14 tiles: ``seat1`` plus its melds) discards 5s; seat 3, four exposed melds
    and a lone 5s, wins 全求人 on it. (Seat 1's readiness after the discard, the score.)"""
    rules = RuleSet.preset("kaikoufan")
    ind = _i("5m")  # laizi 6m
    hands = [_counts("1m1m1m2m2m2m3m3m3m4m4m4m9m"), _counts(seat1),
             _counts("2z2z2z3z3z3z4z5z5z5z6z6z6z"), _counts("5s")]
    melds = [[], seat1_melds, [],
             [Meld("chi", _i("1p"), 2), Meld("peng", _i("9p"), 0), Meld("peng", _i("1z"), 1),
              Meld("kong", _i("7s"), 2)]]
    used = [0] * NUM_KINDS
    used[ind] += 1
    for h in hands:
        for k in range(NUM_KINDS):
            used[k] += h[k]
    for ms in melds:
        for m in ms:
            for k in m.tiles():
                used[k] += 1
    assert all(u <= 4 for u in used) and sum(used) <= 136
    live = [k for k in range(NUM_KINDS) for _ in range(4 - used[k])]
    st = position(rules, dealer=0, indicator=ind, hands=hands, melds=melds,
                  rivers=[[], [], [], []], special_kongs=[[]] * 4, special_discards=[[]] * 4,
                  live_wall=live, turn=1, last_draw=None)
    t = _i("5s")
    st.apply(1, ACT["discard"][t])
    ready = st.is_ready(1)
    for s in range(4):
        legal = st.legal_actions(s)
        if ACT["ron"][t] in legal:
            st.apply(s, ACT["ron"][t])
        elif legal:
            st.apply(s, next(a for a in legal if a.type == "pass"))
    assert st.result is not None
    return ready, st.result["score"]


@pytest.mark.parametrize(("seat1", "melds", "ready"), [
    # opened (a peng of 9m), waits on a 2s pair: ready, not liable
    ("4p5p6p6p7p8p8s8s8s2s5s", [Meld("peng", _i("9m"), 0)], True),
    # the same shape waiting on a 3s pair: a small hand needs a 258 pair, so nothing wins it
    ("4p5p6p6p7p8p8s8s8s3s5s", [Meld("peng", _i("9m"), 0)], False),
    # waits on 2s but still holds 红中 (special tiles: no win until they are laid aside)
    ("4p5p6p6p7p8p7z7z7z2s5s", [Meld("peng", _i("9m"), 0)], False),
    # unopened, 红中 triplet, a 3s pair wait: the auditor's hand
    ("7z7z7z4p5p6p6p7p8p8s8s8s3s5s", [], False),
])
def test_the_discarder_is_liable_unless_it_could_win(seat1: str, melds: list[Meld],
                                                     ready: bool) -> None:
    got_ready, score = _play(seat1, melds)
    assert score["big_hands"] == ["quanqiuren"]
    assert got_ready is ready
    assert sum(score["payments"]) == 0
    if ready:
        assert score["liable"] is None and score["payments"][1] > -score["payments"][3]
    else:
        assert score["liable"] == 1
        assert score["payments"][1] == -score["payments"][3] and score["payments"][0] == 0
