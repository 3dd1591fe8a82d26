"""补 or 不补 after a kong (``kong_draw_choice``, docs/rules.md §5; S0 "杠牌后可以选择不从牌堆後面
起牌因为起牌后如果不胡牌就必须打出一张牌，给其他玩家增加进牌机会"), worked by hand on hand-built walls
(indicator 1z 东 → laizi 2z 南, special 7z 中) for every preset.

Counting: the live wall after the deal is 136 − 53 dealt − 1 indicator = 82 tiles, positions
54…135; normal draws take 54, 55, … from the front, replacements 135, 134, … from the back.
"""

from __future__ import annotations

import pytest

from laizi.game import DRAW, NODRAW, Action, HandState, IllegalActionError
from laizi.rules import RuleSet
from support.game_helpers import PRESETS, check_replay, do, hand, settle_windows, t, throw_draws

# ===================================================================== a concealed kong
# The dealer (seat 0) holds 1111p among its 14. It declares 暗杠 1p: 14 − 4 = 10 concealed +
# the kong (3) = 13, the size of a hand at rest. Without the option (or 补) it draws the back
# tile (position 135) and must discard; with 不补 it neither draws nor discards: seat 1 draws
# normal draw #1 (position 54), the wall goes 82 → 81 and the back stays at 135.
ANKONG = ["1111p 234m 567m 9s 9s 3z 4z", "", "", ""]


def kong_then(preset: str, *, choice: bool) -> HandState:
    s = hand(RuleSet.preset(preset, kong_draw_choice=choice), ANKONG)
    do(s, 0, "ankong 1p")
    return s


@pytest.mark.parametrize("preset", PRESETS)
def test_nodraw_after_a_concealed_kong_passes_the_turn(preset: str) -> None:
    s = kong_then(preset, choice=True)
    assert s.phase == "replace" and s.to_act() == [0] and s.wall_remaining == 82
    assert s.legal_actions(0) == [DRAW, NODRAW]
    assert all(s.legal_actions(x) == [] for x in (1, 2, 3))
    n = len(s.log)
    s.apply(0, NODRAW)
    assert [e["type"] for e in s.log[n:]] == ["replace", "draw"]
    assert s.log[n] == {"type": "replace", "seat": 0, "draw": False, "v": n + 1, "vis": "public"}
    drew = s.log[n + 1]
    assert drew["seat"] == 1 and drew["src"] == "front" and drew["tile"] == "1m"  # wall[54]
    assert s.wall[54] == t("1m") and s.phase == "turn" and s.turn == 1
    assert s.wall_remaining == 81 and s.back == 135 and s.front == 55
    assert sum(s.hands[0]) == 10 and s.rivers[0] == [] and s.special_discards[0] == []
    assert s.melds[0][0].type == "ankong"
    throw_draws(s)
    check_replay(s)


@pytest.mark.parametrize("preset", PRESETS)
def test_draw_is_the_game_without_the_option(preset: str) -> None:
    # 补: the same game as without the option, event for event, plus the public replace event
    plain = kong_then(preset, choice=False)
    assert plain.phase == "turn" and plain.last_draw == plain.wall[135]  # replacement at once
    throw_draws(plain)
    s = kong_then(preset, choice=True)
    s.apply(0, DRAW)
    assert s.phase == "turn" and s.last_draw == s.wall[135] and s.after_kong
    throw_draws(s)

    def bare(log: list[dict[str, object]]) -> list[dict[str, object]]:
        out = []
        for e in log[1:]:  # the start event names the rules
            if e["type"] != "replace":
                out.append({k: x for k, x in e.items() if k != "v"})
        return out

    assert [e for e in s.log if e["type"] == "replace"] == [
        {"type": "replace", "seat": 0, "draw": True, "v": 8, "vis": "public"}]  # start, secret, 4 deals, ankong
    assert bare(s.log) == bare(plain.log)
    assert s.payments == plain.payments
    check_replay(s)


# ===================================================================== 直杠 and 杠上开花
# Seat 0 (dealer) holds 555s 234m 678p 345p 8s 9m. It discards 9m; seat 1 draws and discards
# 5s; seat 0 claims 直杠 5s (opening): 10 concealed 234m 678p 345p 8s + the kong, waiting on 8s.
# The first back tile (position 135) is 8s.
# 补 → 杠上开花 with the pair 8s8s (no laizi: hard), a self-draw with no self-draw factor:
#   base 10; winner fan: opened ×2 (口口翻: one opening ×2; jiayu counts none), exposed kong
#   ×2, hard ×2 → 3 fan (jiayu 2); the losers have nothing open (fan 0):
#   10 × 2^3 = 80 from each, +240 (jiayu 10 × 2^2 = 40 each, +120).
# 不补 → no tile, no discard, no 杠开: seat 1 draws #2 (position 55), seat 0 keeps 10 + kong.
GANG = ["555s 234m 678p 345p 8s 9m", "5s 1m1m 7m7m 3p 9p 1s1s 6s 7s 3z 4z", "", ""]


def claimed_kong(preset: str) -> HandState:
    s = hand(RuleSet.preset(preset, kong_draw_choice=True), GANG, back="8s")
    do(s, 0, "discard 9m")
    do(s, 1, "discard 5s")
    s.apply(0, Action.parse("kong 5s"))
    settle_windows(s)  # the others pass
    assert s.phase == "replace" and s.turn == 0 and s.last_draw is None
    return s


@pytest.mark.parametrize("preset", PRESETS)
def test_draw_after_a_claimed_kong_can_win_gangkai(preset: str) -> None:
    s = claimed_kong(preset)
    s.apply(0, DRAW)
    assert s.last_draw == t("8s") and s.legal_actions(0)[0] == Action("tsumo")
    s.apply(0, Action("tsumo"))
    assert s.result is not None and s.result["after_kong"]
    score = s.result["score"]
    assert score["big_hands"] == ["gangkai"] and score["hard"] and score["base"] == 10
    each = 40 if preset == "jiayu" else 80
    assert score["winner_fan"] == (2 if preset == "jiayu" else 3)
    assert s.payments == [3 * each, -each, -each, -each]
    check_replay(s)


@pytest.mark.parametrize("preset", PRESETS)
def test_nodraw_after_a_claimed_kong_gives_up_the_replacement(preset: str) -> None:
    s = claimed_kong(preset)
    front = s.front
    s.apply(0, NODRAW)
    assert s.phase == "turn" and s.turn == 1 and s.front == front + 1 and s.back == 135
    assert s.last_draw == s.wall[55]
    assert sum(s.hands[0]) == 10 and s.rivers[0] == [t("9m")] and s.rivers[1] == []
    assert s.melds[0][0].type == "kong" and s.melds[0][0].from_seat == 1
    assert s.wall[135] == t("8s")  # the 杠开 tile stays in the wall, last in line
    throw_draws(s)
    assert s.tile_total() == [4] * 34
    check_replay(s)


# ===================================================================== special kong
# The dealer lays its 中 aside (special kong, +1 fan as usual): 14 − 1 = 13 concealed. 不补:
# seat 1 draws #1; the 中 stands in for the discard.
@pytest.mark.parametrize("preset", PRESETS)
def test_nodraw_after_a_special_kong(preset: str) -> None:
    s = hand(RuleSet.preset(preset, kong_draw_choice=True), ["7z 234m 567m 9s 9s 1p 2p 3p 4z 6s"])
    do(s, 0, "special_kong 7z")
    assert s.phase == "replace"
    s.apply(0, NODRAW)
    assert s.special_kongs[0] == [t("7z")] and sum(s.hands[0]) == 13
    assert s.turn == 1 and s.phase == "turn" and s.wall_remaining == 81
    check_replay(s)


# ===================================================================== 蓄杠: robbing first
# Seat 0 pengs seat 1's 5s and discards 3z; normal draws #2-#4 (seats 1, 2, 3) are 1z 1z 9m,
# thrown at once; seat 0 draws #5, the fourth 5s, and adds it: the robbing window comes first
# (passed), then 补/不补. 不补: 10 concealed + peng-made-kong = 13; seat 1 draws #6.
def test_addkong_then_replace() -> None:
    s = hand(RuleSet.preset("kaikoufan", kong_draw_choice=True),
             ["55s 234m 678p 345p 8s 9m 3z", "5s 1m1m 7m7m 3p 9p 1s1s 6s 7s 3z 4z"],
             front="6z 6z 6z 9m 5s")
    do(s, 0, "discard 9m")  # seat 1 draws #1 6z
    do(s, 1, "discard 5s")
    s.apply(0, Action.parse("peng 5s"))
    settle_windows(s)
    do(s, 0, "discard 3z")
    for seat in (1, 2, 3):
        settle_windows(s)
        assert s.turn == seat and s.phase == "turn"
        s.apply(seat, Action("discard", s.last_draw))
    settle_windows(s)
    assert s.turn == 0 and s.last_draw == t("5s")
    s.apply(0, Action("addkong", t("5s")))
    settle_windows(s)  # the robbing window, if any seat could rob
    assert s.phase == "replace" and s.melds[0][0].type == "addkong"
    s.apply(0, NODRAW)
    assert s.turn == 1 and s.phase == "turn" and s.last_draw == s.wall[59]  # draw #6
    assert s.concealed_count(0) + 3 * len(s.melds[0]) == 13
    check_replay(s)


# ===================================================================== not asked
def test_no_choice_without_the_option_or_when_nothing_would_be_drawn() -> None:
    plain = kong_then("kaikoufan", choice=False)
    assert plain.phase == "turn"
    with pytest.raises(IllegalActionError):
        plain.apply(0, NODRAW)
    s = kong_then("kaikoufan", choice=True)
    with pytest.raises(IllegalActionError, match="not legal now"):
        s.apply(0, Action("discard", t("9s")))
    with pytest.raises(IllegalActionError, match="not this seat"):
        s.apply(1, DRAW)
    # haidi_kongs: a kong at 14 left draws nothing anyway, so nothing is asked (docs/rules.md §8)
    h = hand(RuleSet.preset("kaikoufan", haidi_kongs=True, kong_draw_choice=True),
             ["8m 5s 111p 999p 3z 4z 5z 7z 7z 9s"])
    do(h, 0, "discard 8m")
    throw_draws(h, until_wall=14)
    assert h.turn == 0 and h.wall_remaining == 14
    h.apply(0, Action("special_kong", t("7z")))
    assert h.phase == "haidi" and h.turn == 1
    assert not any(e["type"] == "replace" for e in h.log)
