"""Hand-worked scenarios for the sources' house rules (docs/rules.md §7.3-§7.5) and the tie of
readings (docs/rules-choices.md), on every preset where each applies.

Every expected value was derived by hand from docs/rules.md, never copied from the scorer.
Notation as in test_scenarios.py: raw(i) = base × 2^W × 2^Li (× 1.5 where it applies); W the
winner's fan, Li loser i's. Seat 1 wins unless said; dealer seat 0; laizi 6m unless said (for
``qipisilai`` then the pizi are 4m and 5m, which no hand below holds).
"""

from __future__ import annotations

from typing import Any

import pytest

from laizi.scoring.request import score_json
from support.scoring_steps import check, fail, req, seat, win

ALL = ("kaikoufan", "kaikoufan_fa", "qipisilai", "koukoufan", "jiayu")
S: list[Any] = []


def case(id_: str, request: dict[str, Any], expect: dict[str, Any]) -> None:
    S.append(pytest.param(request, expect, id=id_))


# ================================================================ the tie of readings
# The position: laizi 8p; seat 1 has chi 123s, chi 456s (from seat 0), peng 9s (from
# seat 2), a 红中 kong; concealed 7s7s 8p8p; draws 7s after the kong (杠上开花).
#   hard: 777s + 8p8p pair (the laizi as themselves) → 杠开 alone, base 10.
#   soft: 777s + the two laizi as 8s8s → 清一色 + 杠开, base 20; 正包: seat 2 fed the third
#         opening (peng 9s) and pays for everyone.
TIE = seat("7s7s8p8p", "chi 123s from 0", "chi 456s from 0", "peng 9s from 2", sk="7z")
TIE_WIN = {"laizi": "8p", "after_kong": True}
# kaikoufan, kaikoufan_fa, qipisilai (min 32): hard W = open 1 + 中 1 + hard 1 = 3 → 10 × 8 = 80
# each (杠开: no self-draw factor) = 240; soft W = 2 → 20 × 4 = 80 each = 240. Equal: the soft
# reading names more big hands and is scored, so seat 2 pays all 240.
for p in ("kaikoufan", "kaikoufan_fa", "qipisilai"):
    case(f"tie-{p}", req({1: TIE}, "7s", "self_draw", preset=p, **TIE_WIN),
         win([0, 240, -240, 0], ["qingyise", "gangkai"], hard=False, liable=2,
             raw=[-80, 0, -80, -80], base=20, winner_fan=2))
# koukoufan: hard W = 3 openings + 中 1 + hard 1 = 5 → 320; soft W = 4 → 20 × 16 = 320. All three
# ≥ 300 and every loser unopened → 哈顶 700 each = 2100 on both readings; soft: seat 2 pays 2100.
case("tie-koukoufan", req({1: TIE}, "7s", "self_draw", preset="koukoufan", **TIE_WIN),
     win([0, 2100, -2100, 0], ["qingyise", "gangkai"], hard=False, liable=2, topped=True))
# jiayu (no opening fan, big hands add): hard base 10, W = 中 1 + hard 1 = 2 → 40 each = 120;
# soft base 10 + 10 = 20, W = 1 → 40 each, but liable_pays=golden: seat 2 pays 200 > 120.
case("tie-jiayu", req({1: TIE}, "7s", "self_draw", preset="jiayu", **TIE_WIN),
     win([0, 200, -200, 0], ["qingyise", "gangkai"], hard=False, liable=2))

# ================================================================ 狂风暴雨 kuangfeng_baoyu
# Seat 1: chi 123s, chi 456s (seat 0), peng 9s (seat 2, the third opening: 正包), peng 7s
# (seat 3); holds 5s; seat 3 (not ready) discards 5s: 清一色 + 全求人 (5s5s pair), hard.
STORM = seat("5s", "chi 123s from 0", "chi 456s from 0", "peng 9s from 2", "peng 7s from 3")
# kaikoufan, kaikoufan_fa, qipisilai: base 20, W = open 1 + hard 1 = 2 → seats 0, 2: 80,
# seat 3 (discarder) 80 × 1.5 = 120; total 280 (min 16/32 reached).
#   off: seat 2 pays 280.  on: seat 3 pays 280 / 2 = 140 (全求人's share), seat 2 the rest 140.
for p in ("kaikoufan", "kaikoufan_fa", "qipisilai"):
    case(f"storm-off-{p}", req({1: STORM}, "5s", "discard", 3, preset=p),
         win([0, 280, -280, 0], ["qingyise", "quanqiuren"], liable=2, raw=[-80, 0, -80, -120]))
    case(f"storm-on-{p}", req({1: STORM}, "5s", "discard", 3, preset=p,
                              options={"kuangfeng_baoyu": True}),
         win([0, 280, -140, -140], ["qingyise", "quanqiuren"], liable=2))
    # ready when it discarded (下小雨): the discarder owes no 全求人, seat 2 pays all
    case(f"storm-on-ready-{p}", req({1: STORM, 3: seat(ready=True)}, "5s", "discard", 3, preset=p,
                                    options={"kuangfeng_baoyu": True}),
         win([0, 280, -280, 0], ["qingyise", "quanqiuren"], liable=2))
# koukoufan: W = 4 openings + hard 1 = 5 → 20 × 32 = 640 (seat 3: 960); all ≥ 300, all three
# losers unopened → 哈顶 700 each = 2100; on: 2100 / 2 = 1050 each for seats 3 and 2.
case("storm-on-koukoufan", req({1: STORM}, "5s", "discard", 3, preset="koukoufan",
                               options={"kuangfeng_baoyu": True}),
     win([0, 2100, -1050, -1050], ["qingyise", "quanqiuren"], liable=2, topped=True))
# jiayu: liable_pays=golden → the liability pays 200; on: 200 / 2 = 100 each.
case("storm-on-jiayu", req({1: STORM}, "5s", "discard", 3, preset="jiayu",
                           options={"kuangfeng_baoyu": True}),
     win([0, 200, -100, -100], ["qingyise", "quanqiuren"], liable=2))
# 下大雨 (always): a ready discarder is liable too → split again.
case("storm-on-always-ready", req({1: STORM, 3: seat(ready=True)}, "5s", "discard", 3,
                                  options={"kuangfeng_baoyu": True, "quanqiuren_liability": "always"}),
     win([0, 280, -140, -140], ["qingyise", "quanqiuren"], liable=2))
# the third opening's feeder discards the winning tile: one seat owes both, no split.
STORM_SAME = seat("5s", "chi 123s from 0", "chi 456s from 0", "peng 9s from 3", "peng 7s from 2")
case("storm-on-same-seat", req({1: STORM_SAME}, "5s", "discard", 3, options={"kuangfeng_baoyu": True}),
     win([0, 280, 0, -280], ["qingyise", "quanqiuren"], liable=3))

# ================================================================ 下小雨 all-258 xiaoyu_258
# Seat 1's 全求人 alone (mixed suits): chi 123m, chi 789s (seat 0), peng 9p (seat 2), peng 1z
# (seat 3); holds 5s; seat 3 discards 5s holding 28m258p (all natural 258) and is not ready.
QQR = seat("5s", "chi 123m from 0", "peng 9p from 2", "peng 1z from 3", "chi 789s from 0")
ALL258 = seat("28m258p")
# kaikoufan, kaikoufan_fa, qipisilai: base 10, W = open 1 + hard 1 = 2 → 40, 40, seat 3 60 = 140.
#   off: seat 3 liable, pays 140.  on: nobody liable, each pays its own.
for p in ("kaikoufan", "kaikoufan_fa", "qipisilai"):
    case(f"xiaoyu258-off-{p}", req({1: QQR, 3: ALL258}, "5s", "discard", 3, preset=p),
         win([0, 140, 0, -140], ["quanqiuren"], liable=3))
    case(f"xiaoyu258-on-{p}", req({1: QQR, 3: ALL258}, "5s", "discard", 3, preset=p,
                                  options={"xiaoyu_258": True}),
         win([-40, 140, -40, -60], ["quanqiuren"], liable=None))
# koukoufan: W = 4 openings + hard 1 = 5 → 320, 320, 480: all ≥ 300, all three losers unopened
# → 哈顶 700 each. off: seat 3 pays 2100; on: 700 each.
case("xiaoyu258-off-koukoufan", req({1: QQR, 3: ALL258}, "5s", "discard", 3, preset="koukoufan"),
     win([0, 2100, 0, -2100], ["quanqiuren"], liable=3, topped=True))
case("xiaoyu258-on-koukoufan", req({1: QQR, 3: ALL258}, "5s", "discard", 3, preset="koukoufan",
                                   options={"xiaoyu_258": True}),
     win([-700, 2100, -700, -700], ["quanqiuren"], liable=None, topped=True))
# jiayu: W = hard 1 → 20, 20, seat 3 discarder +1 fan → 40. off: golden 200 from seat 3.
case("xiaoyu258-off-jiayu", req({1: QQR, 3: ALL258}, "5s", "discard", 3, preset="jiayu"),
     win([0, 200, 0, -200], ["quanqiuren"], liable=3))
case("xiaoyu258-on-jiayu", req({1: QQR, 3: ALL258}, "5s", "discard", 3, preset="jiayu",
                               options={"xiaoyu_258": True}),
     win([-20, 80, -20, -40], ["quanqiuren"], liable=None))
# "其中赖子不算258": with laizi 8p, seat 3's 8p is a laizi, not a 258 tile → still liable.
case("xiaoyu258-laizi-is-not-258", req({1: QQR, 3: ALL258}, "5s", "discard", 3, laizi="8p",
                                       options={"xiaoyu_258": True}),
     win([0, 140, 0, -140], ["quanqiuren"], liable=3))
# one tile that is not 2/5/8 (3p) keeps the liability; an unknown (empty) hand too.
case("xiaoyu258-not-all-258", req({1: QQR, 3: seat("28m253p")}, "5s", "discard", 3,
                                  options={"xiaoyu_258": True}),
     win([0, 140, 0, -140], ["quanqiuren"], liable=3))
case("xiaoyu258-empty-hand", req({1: QQR}, "5s", "discard", 3, options={"xiaoyu_258": True}),
     win([0, 140, 0, -140], ["quanqiuren"], liable=3))
# only under 下小雨: 下大雨 (always) keeps the liability.
case("xiaoyu258-always", req({1: QQR, 3: ALL258}, "5s", "discard", 3,
                             options={"xiaoyu_258": True, "quanqiuren_liability": "always"}),
     win([0, 140, 0, -140], ["quanqiuren"], liable=3))

# ================================================================ 抢杠 fixed qianggang_fixed
# Seat 1: chi 123m (seat 0) + 23p 456p 789s 55s robs seat 2's added kong of 1p (seat 2 has
# peng 1p from seat 3): 抢杠, hard.
ROB = seat("23p456p789s55s", "chi 123m from 0")
ROBBED = seat("", "peng 1p from 3")
# kaikoufan, kaikoufan_fa, qipisilai: base 10, W = open 1 + hard 1 = 2 → seats 0, 3: 40 (seat 0
# dealer: big hands ignore it), seat 2 (robbed, opened +1) 10 × 2^3 × 1.5 = 120; sum 200, all
# from seat 2.
#   qianggang_fixed=100: seat 2 pays exactly 100; =500: 500 (no cap on a fixed amount).
for p in ("kaikoufan", "kaikoufan_fa", "qipisilai"):
    case(f"qianggang-scored-{p}", req({1: ROB, 2: ROBBED}, "1p", "rob_kong", 2, preset=p),
         win([0, 200, -200, 0], ["qianggang"], liable=2, raw=[-40, 0, -120, -40]))
    case(f"qianggang-fixed-{p}", req({1: ROB, 2: ROBBED}, "1p", "rob_kong", 2, preset=p,
                                     options={"qianggang_fixed": 100}),
         win([0, 100, -100, 0], ["qianggang"], liable=2))
case("qianggang-fixed-above-cap", req({1: ROB, 2: ROBBED}, "1p", "rob_kong", 2,
                                      options={"qianggang_fixed": 500}),
     win([0, 500, -500, 0], ["qianggang"], liable=2))
# koukoufan: W = 1 opening + hard 1 = 2 → 40 < 64: below the minimum, fixed amount or not.
case("qianggang-fixed-below-minimum-koukoufan",
     req({1: ROB, 2: ROBBED}, "1p", "rob_kong", 2, preset="koukoufan", options={"qianggang_fixed": 100}),
     fail("below_minimum"))
# jiayu: W = hard 1 → 20, robbed +1 fan → 40 (no opening fan); liable_pays=golden 200;
# fixed 100 → 100.
case("qianggang-scored-jiayu", req({1: ROB, 2: ROBBED}, "1p", "rob_kong", 2, preset="jiayu"),
     win([0, 200, -200, 0], ["qianggang"], liable=2))
case("qianggang-fixed-jiayu", req({1: ROB, 2: ROBBED}, "1p", "rob_kong", 2, preset="jiayu",
                                  options={"qianggang_fixed": 100}),
     win([0, 100, -100, 0], ["qianggang"], liable=2))

# ================================================================ 风一色 金顶 fengyise_golden
# Seat 1: peng 白 (seat 0), holds 111z 22z 33z 44z 5z, wins 2z on seat 2's discard: loose
# 风一色 (111 222 33 44 5 is no regular shape), hard. Each loser opened once.
FENG = seat("1z1z1z2z2z3z3z4z4z5z", "peng 5z from 0")
FENG_LOSERS = {0: seat("", "chi 123m from 3"), 2: seat("", "peng 9p from 3"), 3: seat("", "chi 789s from 2")}
# kaikoufan, kaikoufan_fa, qipisilai: base 10, W = open 1 + hard 1 = 2, each loser +1 (opened)
# → 10 × 8 = 80, seat 2 (discarder) × 1.5 = 120.  off: 80 + 120 + 80 = 280.
#   on: each raw raised to 300 → all three reach the cap, all opened → 金顶 400 each = 1200.
for p in ("kaikoufan", "kaikoufan_fa", "qipisilai"):
    case(f"fengyise-off-{p}", req({1: FENG, **FENG_LOSERS}, "2z", "discard", 2, preset=p),
         win([-80, 280, -120, -80], ["fengyise"], raw=[-80, 0, -120, -80]))
    case(f"fengyise-golden-{p}", req({1: FENG, **FENG_LOSERS}, "2z", "discard", 2, preset=p,
                                     options={"fengyise_golden": True}),
         win([-400, 1200, -400, -400], ["fengyise"], topped=True, raw=[-300, 0, -300, -300]))
# koukoufan: the same fan (one opening each) → 80, 120, 80 ≥ 64; on: 金顶 500 each.
case("fengyise-off-koukoufan", req({1: FENG, **FENG_LOSERS}, "2z", "discard", 2, preset="koukoufan"),
     win([-80, 280, -120, -80], ["fengyise"]))
case("fengyise-golden-koukoufan", req({1: FENG, **FENG_LOSERS}, "2z", "discard", 2, preset="koukoufan",
                                      options={"fengyise_golden": True}),
     win([-500, 1500, -500, -500], ["fengyise"], topped=True))
# jiayu: no opening fan; W = hard 1 → 20, seat 2 +1 → 40. on: raised to 160 → 金顶 200 each.
case("fengyise-off-jiayu", req({1: FENG, **FENG_LOSERS}, "2z", "discard", 2, preset="jiayu"),
     win([-20, 80, -40, -20], ["fengyise"]))
case("fengyise-golden-jiayu", req({1: FENG, **FENG_LOSERS}, "2z", "discard", 2, preset="jiayu",
                                  options={"fengyise_golden": True}),
     win([-200, 600, -200, -200], ["fengyise"], topped=True))
# an unopened loser pays 阳光顶 (kaikoufan 500); with 对罚 × 2 = 1000.
case("fengyise-golden-sunshine", req({1: FENG, 0: FENG_LOSERS[0], 2: FENG_LOSERS[2]}, "2z", "discard", 2,
                                     options={"fengyise_golden": True, "sunshine_double": True}),
     win([-400, 1800, -400, -1000], ["fengyise"], topped=True))

# ================================================================ 不到n番不用付 pay_min_fan
# A small self-draw by seat 1 (chi 123m from 0, 23p 456p 789s 55s + 1p) with k 红中 kongs:
# W = open 1 + hard 1 + self-draw 1 + k; the dealer (seat 0) +1; raw = 2^(W + Li).
def small_kongs(k: int) -> dict[str, Any]:
    return seat("23p456p789s55s", "chi 123m from 0", sk="7z" * k)


# kaikoufan / kaikoufan_fa (min 16), k = 1: W = 4 → seats 2, 3: 16, dealer 32.
#   pay_min_fan=5 (32): seats 2 and 3 (16 < 32) pay nothing, the dealer 32.
for p in ("kaikoufan", "kaikoufan_fa"):
    case(f"paymin-off-{p}", req({1: small_kongs(1)}, "1p", "self_draw", preset=p),
         win([-32, 64, -16, -16], raw=[-32, 0, -16, -16]))
    case(f"paymin-5-{p}", req({1: small_kongs(1)}, "1p", "self_draw", preset=p, options={"pay_min_fan": 5}),
         win([-32, 32, 0, 0], raw=[-32, 0, -16, -16]))
    # at 4 (16) nobody is under: the same as off
    case(f"paymin-4-{p}", req({1: small_kongs(1)}, "1p", "self_draw", preset=p, options={"pay_min_fan": 4}),
         win([-32, 64, -16, -16]))
# qipisilai (min 32), k = 2: W = 5 → 32, 32, dealer 64; pay_min_fan=6 (64): only the dealer pays.
case("paymin-6-qipisilai", req({1: small_kongs(2)}, "1p", "self_draw", preset="qipisilai",
                               options={"pay_min_fan": 6}),
     win([-64, 64, 0, 0], raw=[-64, 0, -32, -32]))
# koukoufan (min 64), k = 3: W = 6 → 64, 64, dealer 128; pay_min_fan=7 (128): only the dealer.
case("paymin-7-koukoufan", req({1: small_kongs(3)}, "1p", "self_draw", preset="koukoufan",
                               options={"pay_min_fan": 7}),
     win([-128, 128, 0, 0], raw=[-128, 0, -64, -64]))
# jiayu (S1 "不到3番不用付钱", min two_sum 20): seat 1 wins 1p on seat 2's discard; seat 2 has a
# 红中 kong. W = hard 1 + small-hand 1 = 2 (no opening fan); seat 0 dealer +1 → 8; seat 2
# discarder +1 + 中 1 → 16; seat 3 → 4. Two losers 16 + 8 = 24 ≥ 20: a win.
#   off: 8 + 16 + 4 = 28.  pay_min_fan=3 (8): seat 3 (4 < 8) pays nothing → 24.
JIAYU_SMALL = seat("23p456p789s55s", "chi 123m from 0")
case("paymin-off-jiayu", req({1: JIAYU_SMALL, 2: seat(sk="7z")}, "1p", "discard", 2, preset="jiayu"),
     win([-8, 28, -16, -4], raw=[-8, 0, -16, -4]))
case("paymin-3-jiayu", req({1: JIAYU_SMALL, 2: seat(sk="7z")}, "1p", "discard", 2, preset="jiayu",
                           options={"pay_min_fan": 3}),
     win([-8, 24, -16, 0], raw=[-8, 0, -16, -4]))


@pytest.mark.parametrize(("request_", "expect"), S)
def test_house_rule_scenario(request_: dict[str, Any], expect: dict[str, Any]) -> None:
    check(score_json(request_), expect)


def test_every_preset_is_covered_by_each_scoring_house_rule() -> None:
    ids = [p.id for p in S]
    for prefix in ("tie-", "storm-on-", "xiaoyu258-on-", "qianggang-fixed-", "fengyise-golden-", "paymin-"):
        covered = {p for p in ALL if any(i.startswith(prefix) and i.endswith(p) for i in ids)}
        assert covered == set(ALL), (prefix, set(ALL) - covered)
