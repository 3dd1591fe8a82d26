"""The sources' house rules in the engine (docs/rules.md §2, §8, §9), worked by hand on
hand-built walls (indicator 1z 东 → laizi 2z 南, special 7z 中) for every preset.

Counting of a hand with no claims and no kongs: the dealer (seat 0) discards first; the live
wall after the deal is 136 − 53 dealt − 1 indicator = 82 tiles at positions 54…135; normal
draw #n takes position 53 + n and goes to seat n mod 4.
"""

from __future__ import annotations

import pytest

from laizi.errors import RuleError
from laizi.game import PASS, Action, EndReason, HandState, LogError, Match, ReplayError
from laizi.game.play import auto_action, play_match
from laizi.game.replay import replay
from laizi.game.seating import ceremony, draw_ceremony, tile_rank
from laizi.rules import RuleSet
from laizi.tiles import Tile
from support.game_helpers import PRESETS, check_replay, do, hand, settle_windows, t, throw_draws

# seat 0 (dealer) holds two 中; nobody can claim much: everyone throws its draw
HANDS = [
    "8m 5s 111p 999p 3z 4z 5z 7z 7z 9s",
    "88m 234p 567p 22m 4s6s 3z",
    "5s 111m 999m 3z 4z 5z 6z 7s 9s",
    "5s 444m 666m 3z 4z 6z 6z 7s 1s",
]


# ===================================================================== haidi_start
# seven_stacks (default): 82 − 14 = 68 normal draws (#68 → seat 0), then four haidi tiles at
# positions 122-125 to seats 1, 2, 3, 0; 10 tiles never drawn.
# five_stacks (S0): 82 − 10 = 72 normal draws (#72 → seat 0), haidi tiles at 126-129 to seats
# 1, 2, 3, 0; 6 tiles never drawn; a kong needs 11 tiles left.
@pytest.mark.parametrize("preset", PRESETS)
@pytest.mark.parametrize(("start", "first", "left"), [("seven_stacks", 122, 10), ("five_stacks", 126, 6)])
def test_where_the_haidi_starts(preset: str, start: str, first: int, left: int) -> None:
    s = hand(RuleSet.preset(preset, haidi_start=start), HANDS)
    do(s, 0, "discard 8m")
    throw_draws(s)
    assert s.over and s.result is None and s.wall_remaining == left
    front = [e for e in s.log if e["type"] == "draw" and e["src"] == "front"]
    haidi = [e for e in s.log if e["type"] == "draw" and e["src"] == "haidi"]
    assert len(front) == first - 54 and front[-1]["seat"] == 0
    assert [e["seat"] for e in haidi] == [1, 2, 3, 0]
    assert [t(e["tile"]) for e in haidi] == list(s.wall[first:first + 4])
    check_replay(s)


@pytest.mark.parametrize("preset", PRESETS)
def test_five_stacks_keeps_kongs_until_eleven_left(preset: str) -> None:
    # seat 0 holds 中 all hand long: a special kong is offered while 11 or more are left
    rules = RuleSet.preset(preset, haidi_start="five_stacks")
    s = hand(rules, HANDS)
    do(s, 0, "discard 8m")
    throw_draws(s, until_wall=19)  # draw #63 (seat 3), 19 left
    while not (s.phase == "turn" and s.turn == 0):
        throw_step(s)
    offered: dict[int, bool] = {}
    while not s.over and s.phase != "haidi":
        if s.phase == "turn" and s.turn == 0:
            offered[s.wall_remaining] = Action("special_kong", t("7z")) in s.legal_actions(0)
        throw_step(s)
    # seat 0 draws #64, #68, #72 (wall left 14, 10 … after each): kong with 14 left, not with 10
    assert offered == {18: True, 14: True, 10: False}


def throw_step(s: HandState) -> None:
    if s.phase in ("claim", "rob"):
        settle_windows(s)
        return
    seat = s.to_act()[0]
    if s.phase == "haidi":
        s.apply(seat, PASS)
        return
    legal = s.legal_actions(seat)
    drawn = Action("discard", s.last_draw) if s.last_draw is not None else None
    s.apply(seat, drawn if drawn in legal else next(a for a in legal if a.type == "discard"))


# ===================================================================== haidi_kongs
# Seat 0 draws the last normal tile (#68) with 14 left. Default: no kong. haidi_kongs: it lays a
# 中 aside and draws nothing (its turn ends without a discard); seat 1 is due to draw with 14
# left, so the haidi starts at seat 1; seat 0's own haidi turn (the 4th) offers the other 中
# although it cannot win; that kong ends the haidi: the hand is drawn with 10 tiles left, seat
# 0 holding 13 tiles (14 after its haidi tile, less the 中) and two 中 kongs.
@pytest.mark.parametrize("preset", PRESETS)
def test_kongs_at_the_haidi_draw_nothing(preset: str) -> None:
    plain = hand(RuleSet.preset(preset), HANDS)
    do(plain, 0, "discard 8m")
    throw_draws(plain, until_wall=14)
    assert plain.turn == 0 and plain.wall_remaining == 14
    assert not any("kong" in a.type for a in plain.legal_actions(0))

    s = hand(RuleSet.preset(preset, haidi_kongs=True), HANDS)
    do(s, 0, "discard 8m")
    throw_draws(s, until_wall=14)
    assert s.turn == 0 and s.wall_remaining == 14
    assert Action("special_kong", t("7z")) in s.legal_actions(0)
    n = len(s.log)
    s.apply(0, Action("special_kong", t("7z")))
    assert s.phase == "haidi" and s.special_kongs[0] == [t("7z")]
    kong, first = s.log[n], s.log[n + 1]
    assert kong["type"] == "special_kong" and kong["seat"] == 0
    assert first["type"] == "draw" and first["seat"] == 1 and first["src"] == "haidi"  # no replacement
    while s.to_act() != [0]:  # seats 1-3 pass their haidi tiles (or are passed automatically)
        s.apply(s.to_act()[0], PASS)
    assert s.phase == "haidi" and s.haidi_n == 4
    legal = s.legal_actions(0)  # (qipisilai: the pizi 东 and 白 may be kong'ed too)
    assert legal[0] == PASS and Action("special_kong", t("7z")) in legal
    assert all(a == PASS or a.type == "special_kong" for a in legal)
    s.apply(0, Action("special_kong", t("7z")))
    assert s.over and s.result is None and s.wall_remaining == 10
    assert sum(s.hands[0]) == 13 and s.special_kongs[0] == [t("7z"), t("7z")]
    check_replay(s)


# ===================================================================== winds
# fixed_dealers: one deal pass per hand, so a match of w winds × r rounds is 4·w·r hands.
@pytest.mark.parametrize("preset", PRESETS)
@pytest.mark.parametrize(("winds", "per", "hands"), [(1, 5, 20), (2, 4, 32)])
def test_a_match_of_winds(preset: str, winds: int, per: int, hands: int) -> None:
    rules = RuleSet.preset(preset, winds=winds, rounds_per_wind=per)
    assert rules.match_rounds == winds * per
    m = Match(rules, seed=b"w" * 32, fixed_dealers=True)
    seen: list[tuple[int, int]] = []
    while not m.over:
        seen.append((m.round, m.wind))
        hand_no = m.hand_no
        while m.hand_no == hand_no and not m.over:
            for seat in m.to_act():
                assert m.hand is not None
                m.apply(seat, auto_action(m.hand, seat))
    assert m.hand_no == hands and m.end_reason == EndReason.ROUNDS
    # hand n is in round (n − 1) // 4 + 1 and wind (round − 1) // per + 1
    assert seen == [((n - 1) // 4 + 1, ((n - 1) // 4) // per + 1) for n in range(1, hands + 1)]


def test_match_length_in_rounds_or_winds_not_both() -> None:
    with pytest.raises(RuleError, match="rounds or in winds"):
        RuleSet.preset("kaikoufan", winds=1, rounds=2)
    with pytest.raises(RuleError, match="rounds_per_wind"):
        RuleSet.preset("kaikoufan", rounds_per_wind=6)
    assert RuleSet.preset("kaikoufan", rounds=3).match_rounds == 3  # winds 0: rounds count


# ===================================================================== 摸牌定东
def k(text: str) -> int:
    return Tile.parse(text).index


def test_ceremony_ranks_suits_then_winds_then_dragons() -> None:
    # 9 above 1; same number 筒 > 条 > 万; any suited tile above 东; 北 above 白; 中 > 发 > 白
    order = ["9m", "8p", "8s", "8m", "1p", "1z", "2z", "4z", "7z", "6z", "5z"]
    ranks = [tile_rank(k(x)) for x in order]
    assert ranks == sorted(ranks, reverse=True) and len(set(ranks)) == len(ranks)


@pytest.mark.parametrize(("dice", "move"), [
    ((1, 1), 1), ((3, 3), 1), ((4, 6), 1),   # 2, 6, 10: to its 下家
    ((1, 2), 2), ((3, 4), 2), ((5, 6), 2),   # 3, 7, 11: opposite
    ((2, 2), 3), ((4, 4), 3), ((6, 6), 3),   # 4, 8, 12: to its 上家
    ((1, 4), 0), ((4, 5), 0),                # 5, 9: stays
])
def test_ceremony_dice_move_east(dice: tuple[int, int], move: int) -> None:
    # places 0-3 turn up 3万, 9筒, 东, 3筒: 9筒 (place 1) is 东, 3筒 南, 3万 西, 东 北
    s = ceremony([k("3m"), k("9p"), k("1z"), k("3p")], dice)
    assert s.winds == [2, 0, 3, 1]
    assert s.east == (1 + move) % 4
    # 南 sits at 东 + 1, 西 + 2, 北 + 3
    assert s.seats == [(s.east + 2) % 4, s.east, (s.east + 3) % 4, (s.east + 1) % 4]


def test_ceremony_equal_tiles_rank_by_place() -> None:
    # places 0 and 2 both turn up 5s: place 0 ranks higher (南), place 2 西; 7m at place 3 东
    s = ceremony([k("5s"), k("2z"), k("5s"), k("7m")], (2, 3))  # 5: stays
    assert s.winds == [1, 3, 2, 0] and s.east == 3 and s.seats == [0, 2, 1, 3]


@pytest.mark.parametrize("preset", PRESETS)
def test_a_match_with_the_ceremony_is_dealt_by_east_and_replays(preset: str) -> None:
    seed = bytes(range(32))
    want = draw_ceremony(seed)
    m = Match(RuleSet.preset(preset, seating_ceremony=True), seed=seed, first_dealer=0, max_hands=2)
    assert m.seating == want and m.first_dealer == want.east and m.dealer == want.east
    assert m.log[0]["seating"] == want.to_json() and m.log[0]["first_dealer"] == want.east
    assert m.log[1]["type"] == "start_hand" and m.log[1]["dealer"] == want.east
    play_match(m, lambda h, s, legal: auto_action(h, s))
    again = replay(m.log)
    assert isinstance(again, Match) and again.hash() == m.hash()
    forged = [dict(e) for e in m.log]
    forged[0]["seating"] = {**want.to_json(), "east": (want.east + 1) % 4}
    with pytest.raises(LogError, match="seating"):
        replay(forged)
    # without the option the log carries no seating and seat 0 deals first
    plain = Match(RuleSet.preset(preset), seed=seed, max_hands=1)
    assert plain.seating is None and "seating" not in plain.log[0] and plain.dealer == 0
    with pytest.raises((ReplayError, LogError)):
        replay([{**m.log[0], "seating": None}, *m.log[1:]])
