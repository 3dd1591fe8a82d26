"""Hand-computed scoring scenarios (RULES.md §3, §4, §6, §7; SCORE_API.md).

Every expected value below was derived by hand from RULES.md, never copied from
the scorer. Notation of the comments (§7.2):

    raw(i) = base × 2^W × 2^Li (× 1.5 where it applies)

W = the winner's fan (own opening, kongs, special/laizi kongs, hard, small-hand
self-draw), Li = loser i's fan (own table; small hand: discarder +1, dealer +1).
Unless a scenario says otherwise: preset ``kaikoufan``, laizi 6m, dealer seat 0,
and the seats not mentioned have an empty table.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from laizi.rules import RuleSet
from laizi.scoring.request import score_json
from laizi.tiles import Tile
from support.scoring_steps import check, fail, req, seat, win

REPO = Path(__file__).resolve().parents[2]


# ----------------------------------------------------------------------------- helpers


# Reusable winner tables (seat 1 unless said otherwise).
# SMALL: chi 123m + 123p 456p 789s 55s on 1p — a hard small hand, W = open 1 + hard 1.
SMALL = "23p456p789s55s"
CHI0 = "chi 123m from 0"
# PENG: 碰碰胡 444m + 33z pair on 3z, pengs fed by 3, 0, 2 (W = open 1 + hard 1 on a discard).
PENG_MELDS = ("peng 9p from 3", "peng 2s from 0", "peng 1z from 2")
# 全求人 for seat 2 on 8p (four exposed melds, single 8p).
QQR_MELDS = ("chi 345m from 1", "peng 7p from 0", "peng 1s from 3", "chi 789s from 1")
# 清一色 for seat 1 with three openings, the third (peng 5s) fed by seat 2.
QYS_MELDS = ("chi 123s from 0", "peng 9s from 3", "peng 5s from 2")
# 碰碰胡 with the winner's three 红中 kongs: W = open 1 + 中 3 + hard 1 = 5 → 10 × 32 = 320.
BIG320 = seat("444m3z", *PENG_MELDS, sk="7z7z7z")


S: list[Any] = []


def case(id_: str, request: dict[str, Any], expect: dict[str, Any], xfail: str | None = None) -> None:
    marks = [pytest.mark.xfail(reason=xfail, strict=True)] if xfail else []
    S.append(pytest.param(request, expect, id=id_, marks=marks))


# ==================================================================== reasons (§6 checks 1-7)
# 10 tiles + 9s make no shape at all.
case("reason-not_a_win",
     req({1: seat("456p789s13z25s", CHI0)}, "9s", "discard", 2),
     fail("not_a_win"))
# Complete 123m 777z 456p 789s 55s, unopened and holding 中: check 2 fails before check 3.
case("reason-holds_special-before-not_open",
     req({1: seat("123m777z456p78s55s")}, "9s", "discard", 2),
     fail("holds_special"))
case("reason-holds_special-opened",
     req({1: seat("777z456p78s55s", CHI0)}, "9s", "self_draw"),
     fail("holds_special"))
# Complete 123m 345m 456p 789s 55s with no meld at all.
case("reason-not_open",
     req({1: seat("123m345m456p78s55s")}, "9s", "discard", 2),
     fail("not_open"))
# A concealed kong and a 红中 kong do not open (§6 check 3).
case("reason-not_open-ankong-and-special-kong",
     req({1: seat("123m456p78s55s", "ankong 1z", sk="7z")}, "9s", "self_draw"),
     fail("not_open"))
# Unopened AND two laizi in a small hand: check 3 fails first.
case("reason-not_open-before-two_laizi",
     req({1: seat("6m6m123m456p789s55s")}, "2p", "discard", 2),
     fail("not_open"))
# 123m(chi) 456p 789s 55s + (6m6m 3p): a small hand with two laizi.
case("reason-two_laizi_small",
     req({1: seat("6m6m456p789s55s", CHI0)}, "3p", "self_draw"),
     fail("two_laizi_small"))
# Same with a 33s pair: check 4 fails before check 5.
case("reason-two_laizi-before-pair_not_258",
     req({1: seat("6m6m456p789s33s", CHI0)}, "3p", "self_draw"),
     fail("two_laizi_small"))
# 123m(chi) 234m 456p 789s + natural 33s pair.
case("reason-pair_not_258-natural",
     req({1: seat("23m456p789s33s", CHI0)}, "4m", "discard", 2),
     fail("pair_not_258"))
# Pair = 3s + laizi: a laizi only helps a 258 pair.
case("reason-pair_not_258-laizi-with-3s",
     req({1: seat("234m456p789s6m", "chi 123p from 0")}, "3s", "discard", 2),
     fail("pair_not_258"))
# Pair = 5s + laizi is fine (soft); W = open 1 = 1 → 2; seat 0 dealer +1 → 4, seat 2 discarder
# +1 → 4, seat 3 → 2: below 16, but the score fields are still filled.
case("reason-below_minimum-soft-small",
     req({1: seat("234m456p789s6m", "chi 123p from 0")}, "5s", "discard", 2),
     fail("below_minimum", hard=False, big_hands=[], winner_fan=1, loser_fan=[1, 0, 1, 0],
          raw=[-4, 0, -4, -2], payments=[-4, 10, -4, -2]))
# 444m + lone laizi, pengs: 3z pairs with the laizi in a 碰碰胡 → waits on any tile → 见字胡.
case("reason-jianzi_on_discard",
     req({1: seat("444m6m", *PENG_MELDS)}, "3z", "discard", 2),
     fail("jianzi_on_discard"))
# The same hand self-drawn: pengpeng soft, W = open 1 → 20, ×1.5 self-draw → 30 each.
case("jianzi-self_draw-ok",
     req({1: seat("444m6m", *PENG_MELDS)}, "3z", "self_draw"),
     win([-30, 90, -30, -30], ["pengpeng"], hard=False, winner_fan=1))
# Robbing seat 2's 3z 蓄杠 is allowed: pengpeng+qianggang base 20, W 1 → 40; seat 2 opened +1
# → 80 ×1.5 = 120; seats 0, 3 → 40; robbed pays 200.
case("jianzi-rob_kong-ok",
     req({1: seat("444m6m", *PENG_MELDS), 2: seat("", "peng 3z from 0")}, "3z", "rob_kong", 2),
     win([0, 200, -200, 0], ["pengpeng", "qianggang"], hard=False, liable=2))
# Option jianzi_hu off: W 1 → 20; discarder ×1.5 → 30.
case("jianzi-option-off",
     req({1: seat("444m6m", *PENG_MELDS)}, "3z", "discard", 2, options={"jianzi_hu": False}),
     win([-20, 70, -30, -20], ["pengpeng"], hard=False))
# 全求人 with a lone laizi waits only on 258 (not 见字胡): 5s + laizi; W = open 1 → 20; seat 0
# discarder ×1.5 → 30, seats 1, 3 → 20; seat 0 not ready → liable for 70.
case("quanqiuren-lone-laizi-not-jianzi",
     req({2: seat("6m", *QQR_MELDS)}, "5s", "discard", 0, winner=2),
     win([-70, 0, 70, 0], ["quanqiuren"], hard=False, liable=0))
# 全求人 does not waive the 258 pair: 3s + laizi.
case("quanqiuren-pair_not_258",
     req({2: seat("6m", *QQR_MELDS)}, "3s", "discard", 0, winner=2),
     fail("pair_not_258"))

# The laizi may not stand for 中: 7z + laizi is no pair, so the shape fails (check 1).
case("laizi-not-for-zhong-not_a_win",
     req({1: seat("7z6m456p55s", CHI0, "peng 9p from 2")}, "5s", "self_draw"),
     fail("not_a_win"))
# 清一色 456s + lone laizi on 7s: one way pairs 7s with the laizi, another (567s + 4s/laizi)
# does not → not 见字胡. Soft, W = open 1 → 20; seat 3 discarder ×1.5 → 30; the third opening
# (peng 1s) was fed by seat 3, which pays 20 + 20 + 30.
case("qingyise-lone-laizi-not-jianzi",
     req({1: seat("456s6m", "chi 123s from 0", "peng 9s from 2", "peng 1s from 3")},
         "7s", "discard", 3),
     win([0, 70, 0, -70], ["qingyise"], hard=False, liable=3))
# Two laizi may win a big hand: 44m+laizi, 3z+laizi (or 44m pair, 3z+2 laizi); W 1 → 20;
# seat 2 ×1.5 → 30.
case("two-laizi-big-hand-ok",
     req({1: seat("4m4m6m6m", *PENG_MELDS)}, "3z", "discard", 2),
     win([-20, 70, -30, -20], ["pengpeng"], hard=False))
# The laizi may stand for 4s (3s-laizi-5s) although all four 4s sit in seat 2's kong: only the
# winner's own holdings limit it. Soft: W = open 1 + self 1 = 2 → 4; seat 0 dealer → 8;
# seat 2 opened 1 + exposed kong 1 → 16; seat 3 → 4: below 16.
case("laizi-as-kind-others-hold-four",
     req({1: seat("456p789p3s55s6m", CHI0), 2: seat("", "kong 4s from 0")}, "5s", "self_draw"),
     fail("below_minimum", hard=False, big_hands=[], raw=[-8, 0, -16, -4]))

# A self-drawn laizi is held at the win: with the laizi in hand that makes two (small hand).
case("self-drawn-laizi-counts-two_laizi_small",
     req({1: seat("23p456p789s5s6m", CHI0)}, "6m", "self_draw"),
     fail("two_laizi_small"))
# Two laizi win a 杠上开花 (a situational big hand): 456p, 9s + 2 laizi, 55s; soft;
# W = open 1 + 直杠 1 = 2 → 40 each, no self-draw ×1.5.
case("two-laizi-gangkai-ok",
     req({1: seat("456p6m6m55s", CHI0, "kong 9p from 2")}, "9s", "self_draw", after_kong=True),
     win([-40, 120, -40, -40], ["gangkai"], hard=False))
# 全求人 + 碰碰胡 with a lone laizi waits on any tile: 3p on a discard is 见字胡.
case("quanqiuren-pengpeng-lone-laizi-jianzi",
     req({2: seat("6m", "peng 7p from 0", "peng 1s from 3", "peng 4m from 1", "kong 9s from 1")},
         "3p", "discard", 0, winner=2),
     fail("jianzi_on_discard"))
# Robbing a kong still needs an opened hand.
case("rob_kong-unopened-not_open",
     req({1: seat("123m23p456p789s55s"), 3: seat("", "peng 1p from 2")}, "1p", "rob_kong", 3),
     fail("not_open"))

# ============================================================================ big hands
# 碰碰胡: W = open 1 + hard 1 = 2 → 40; seat 2 discarder ×1.5 → 60; others 40.
case("pengpeng-discard",
     req({1: seat("444m3z", *PENG_MELDS)}, "3z", "discard", 2),
     win([-40, 140, -60, -40], ["pengpeng"], winner_fan=2, loser_fan=[0, 0, 0, 0],
         raw=[-40, 0, -60, -40], base=10))
# Same with the winner as dealer: big hands ignore the dealer ("大胡不计庄").
case("pengpeng-winner-dealer-no-dealer-fan",
     req({1: seat("444m3z", *PENG_MELDS)}, "3z", "discard", 2, dealer=1),
     win([-40, 140, -60, -40], ["pengpeng"], loser_fan=[0, 0, 0, 0]))
# 清一色 123s(chi) 345s 789s 999s 11s: W 2 → 40; seat 3 discarder 60.
case("qingyise-discard",
     req({1: seat("345s789s11s99s", "chi 123s from 0")}, "9s", "discard", 3),
     win([-40, 140, -40, -60], ["qingyise"]))
# Self-drawn big hand: ×1.5 for all three → 60 each.
case("qingyise-self_draw-x1.5",
     req({1: seat("345s789s11s99s", "chi 123s from 0")}, "9s", "self_draw"),
     win([-60, 180, -60, -60], ["qingyise"]))
# 乱风 风一色 (pengs 1z 2z + pairs 33z 44z 55z 66z): W 2 → 40; seat 2 中 kong +1 → 80;
# seat 3 discarder 60.
case("fengyise-luan",
     req({1: seat("3z4z5z6z3z4z5z", "peng 1z from 0", "peng 2z from 2"), 2: seat(sk="7z")},
         "6z", "discard", 3),
     win([-40, 180, -80, -60], ["fengyise"]))
case("fengyise-luan-strict-not_a_win",
     req({1: seat("3z4z5z6z3z4z5z", "peng 1z from 0", "peng 2z from 2"), 2: seat(sk="7z")},
         "6z", "discard", 3, options={"luan_feng_jiang": False}),
     fail("not_a_win"))
# Strict 风一色 in the normal shape is also 碰碰胡: base 20, W 2 → 80; seat 3 ×1.5 → 120;
# 80 + 80 + 120 = 280.
case("fengyise-strict-regular-plus-pengpeng",
     req({1: seat("3z3z3z4z4z4z5z", "peng 1z from 0", "peng 2z from 2")}, "5z", "discard", 3,
         options={"luan_feng_jiang": False}),
     win([-80, 280, -80, -120], ["pengpeng", "fengyise"], base=20))
# Two big hands with big_stack add: 10 + 10 = 20, the same as doubling.
case("fengyise-pengpeng-add-two",
     req({1: seat("3z3z3z4z4z4z5z", "peng 1z from 0", "peng 2z from 2")}, "5z", "discard", 3,
         options={"big_stack": "add"}),
     win([-80, 280, -80, -120], ["pengpeng", "fengyise"], base=20))
# 乱将 将一色 (pengs 2m 5p + pairs 88p 22s 55s 88s): W 2 → 40; seat 3 discarder 60.
case("jiangyise-luan",
     req({1: seat("8p8p2s2s5s5s8s", "peng 2m from 0", "peng 5p from 2")}, "8s", "discard", 3),
     win([-40, 140, -40, -60], ["jiangyise"]))
case("jiangyise-luan-strict-not_a_win",
     req({1: seat("8p8p2s2s5s5s8s", "peng 2m from 0", "peng 5p from 2")}, "8s", "discard", 3,
         options={"luan_feng_jiang": False}),
     fail("not_a_win"))
# 全求人 on 8p: W 2 → 40; seat 0 discarder ×1.5 → 60; seats 1, 3 → 40; seat 0 not ready → pays 140.
case("quanqiuren-liable-discarder",
     req({2: seat("8p", *QQR_MELDS)}, "8p", "discard", 0, winner=2),
     win([-140, 0, 140, 0], ["quanqiuren"], liable=0))
# 下小雨: the discarder was ready → nobody is liable.
case("quanqiuren-ready-no-liability",
     req({2: seat("8p", *QQR_MELDS), 0: seat(ready=True)}, "8p", "discard", 0, winner=2),
     win([-60, -40, 140, -40], ["quanqiuren"], liable=None))
# 下大雨 (always): liable even if ready.
case("quanqiuren-liability-always",
     req({2: seat("8p", *QQR_MELDS), 0: seat(ready=True)}, "8p", "discard", 0, winner=2,
         options={"quanqiuren_liability": "always"}),
     win([-140, 0, 140, 0], ["quanqiuren"], liable=0))
case("quanqiuren-liability-none",
     req({2: seat("8p", *QQR_MELDS)}, "8p", "discard", 0, winner=2,
         options={"quanqiuren_liability": "none"}),
     win([-60, -40, 140, -40], ["quanqiuren"], liable=None))
# 全求人 + 碰碰胡 (33p pair waived): base 20; W = open 1 + 直杠 1 + hard 1 = 3 → 160;
# seat 0 discarder ×1.5 → 240; no 全求人 liability with another big hand.
case("quanqiuren-plus-pengpeng-no-liability",
     req({2: seat("3p", "peng 7p from 0", "peng 1s from 3", "peng 4m from 1", "kong 9s from 1")},
         "3p", "discard", 0, winner=2),
     win([-240, -160, 560, -160], ["pengpeng", "quanqiuren"], liable=None, winner_fan=3))
# 杠上开花: W = open 1 + 直杠 1 + hard 1 = 3 → 80; no self-draw ×1.5.
case("gangkai-no-selfdraw-bonus",
     req({1: seat("456p78s55s", CHI0, "kong 9p from 2")}, "9s", "self_draw", after_kong=True),
     win([-80, 240, -80, -80], ["gangkai"], winner_fan=3))
case("gangkai-selfdraw-bonus-option",
     req({1: seat("456p78s55s", CHI0, "kong 9p from 2")}, "9s", "self_draw", after_kong=True,
         options={"selfdraw_bonus_on_gangkai_haidi": True}),
     win([-120, 360, -120, -120], ["gangkai"]))
# 杠开 after a laizi kong: W = open 1 + laizi kong 2 + hard 1 = 4 → 160 each.
case("gangkai-after-laizi-kong",
     req({1: seat("456p78s55s", CHI0, "peng 9p from 2", sk="6m")}, "9s", "self_draw",
         after_kong=True),
     win([-160, 480, -160, -160], ["gangkai"], winner_fan=4))
# 杠开 does not waive the 258 pair.
case("gangkai-pair_not_258",
     req({1: seat("456p78s33s", CHI0, "kong 9p from 2")}, "9s", "self_draw", after_kong=True),
     fail("pair_not_258"))
# 抢杠 of seat 3's 1p: W 2 → 40; seat 3 opened +1 → 80 ×1.5 → 120; robbed pays 40+40+120.
case("qianggang-robbed-pays",
     req({1: seat(SMALL, CHI0), 3: seat("", "peng 1p from 2")}, "1p", "rob_kong", 3),
     win([0, 200, 0, -200], ["qianggang"], liable=3))
case("qianggang-liable_pays-golden",
     req({1: seat(SMALL, CHI0), 3: seat("", "peng 1p from 2")}, "1p", "rob_kong", 3,
         options={"liable_pays": "golden"}),
     win([0, 400, 0, -400], ["qianggang"], liable=3))
# 海底捞: W 2 → 40 each, no self-draw ×1.5 (S0 "不计自摸").
case("haidi-no-selfdraw-bonus",
     req({1: seat(SMALL, CHI0)}, "1p", "self_draw", haidi=True),
     win([-40, 120, -40, -40], ["haidi"]))
case("haidi-selfdraw-bonus-option",
     req({1: seat(SMALL, CHI0)}, "1p", "self_draw", haidi=True,
         options={"selfdraw_bonus_on_gangkai_haidi": True}),
     win([-60, 180, -60, -60], ["haidi"]))
# jiayu 门前清 unopened, self-drawn: no opening fan; W = hard 1 + self-draw 1 (big_factor fan)
# = 2 → 40 each; no ×1.5.
case("jiayu-menqing-self_draw",
     req({1: seat("123m456p789s55s23p")}, "1p", "self_draw", preset="jiayu"),
     win([-40, 120, -40, -40], ["menqing"], winner_fan=2))
# jiayu 门前清 on a discard: W = hard 1 → 20; discarder +1 fan → 40.
case("jiayu-menqing-discard",
     req({1: seat("123m456p789s55s23p")}, "1p", "discard", 2, preset="jiayu"),
     win([-20, 80, -40, -20], ["menqing"], winner_fan=1, loser_fan=[0, 0, 1, 0]))
# jiayu 门前清 with three 中 kongs: W = 中 3 + hard 1 + self 1 = 5 → 320 ≥ cap 160 for all three,
# all unopened → 哈顶 200 each.
case("jiayu-menqing-ha",
     req({1: seat("123m456p789s55s23p", sk="7z7z7z")}, "1p", "self_draw", preset="jiayu"),
     win([-200, 600, -200, -200], ["menqing"], topped=True, raw=[-320, 0, -320, -320]))
# jiayu 七对 (not also 门前清): W = hard 1 → 20; seat 3 discarder +1 → 40.
case("jiayu-qidui",
     req({1: seat("1m1m2m2m3p3p4p4p5s5s7s7s9s")}, "9s", "discard", 3, preset="jiayu"),
     win([-20, 80, -20, -40], ["qidui"]))
# jiayu soft 七对 (9s + laizi): six pairs + a lone laizi are not "complete sets" → not 见字胡.
# W 0 → 10; seat 3 discarder +1 → 20; two highest 20 + 10 ≥ 20.
case("jiayu-qidui-soft-on-discard",
     req({1: seat("1m1m2m2m3p3p4p4p5s5s7s7s6m")}, "9s", "discard", 3, preset="jiayu"),
     win([-10, 40, -10, -20], ["qidui"], hard=False, winner_fan=0))
# jiayu 抢杠: robbed seat 3 is liable and pays golden 200 once (whatever its fan).
case("jiayu-qianggang-liable-golden",
     req({1: seat(SMALL, CHI0), 3: seat("", "peng 1p from 2")}, "1p", "rob_kong", 3,
         preset="jiayu"),
     win([0, 200, 0, -200], ["qianggang"], liable=3, winner_fan=1))
case("qidui-not-in-kaikoufan",
     req({1: seat("1m1m2m2m3p3p4p4p5s5s7s7s9s")}, "9s", "discard", 3),
     fail("not_a_win"))

# ======================================================================= stacking
# 碰碰胡+清一色+海底 (pengs 1s 9s, 333s 444s 77s): base 40; W 2 → 160 each, no ×1.5.
case("three-big-double",
     req({1: seat("333s444s7s", "peng 1s from 0", "peng 9s from 2")}, "7s", "self_draw",
         haidi=True),
     win([-160, 480, -160, -160], ["pengpeng", "qingyise", "haidi"], base=40))
# big_stack add: base 10+10+10 = 30 → 120 each.
case("three-big-add",
     req({1: seat("333s444s7s", "peng 1s from 0", "peng 9s from 2")}, "7s", "self_draw",
         haidi=True, options={"big_stack": "add"}),
     win([-120, 360, -120, -120], ["pengpeng", "qingyise", "haidi"], base=30))
# 碰碰胡+清一色: base 20, W 2 → 80; seat 2 discarder ×1.5 → 120; total 280 paid by seat 3,
# whose 3s gave the third opening (正包).
case("qingyise-pengpeng-third-opening-liable",
     req({1: seat("444s7s", "peng 1s from 0", "peng 9s from 2", "peng 3s from 3")},
         "7s", "discard", 2),
     win([0, 280, 0, -280], ["pengpeng", "qingyise"], liable=3))
# 清一色 123s(chi) 9s 5s(pengs) 678s 44s: W 2 → 40; seat 3 discarder 60; third opening fed by 2.
case("qingyise-third-opening-liable",
     req({1: seat("678s4s", *QYS_MELDS)}, "4s", "discard", 3),
     win([0, 140, -140, 0], ["qingyise"], liable=2))
# 清一色+全求人 on seat 3's discard: base 20, W 2 → 80; seat 3 ×1.5 → 120; total 280 paid by
# seat 2 (third opening, 清一色 liability comes before 全求人's).
case("qingyise-quanqiuren-third-opening-liable",
     req({1: seat("4s", *QYS_MELDS, "chi 678s from 0")}, "4s", "discard", 3),
     win([0, 280, -280, 0], ["qingyise", "quanqiuren"], liable=2))
case("qingyise-fanbao-flag-without-option",
     req({1: seat("678s4s", *QYS_MELDS), 0: seat(fanbao=True)}, "4s", "discard", 3),
     win([0, 140, -140, 0], ["qingyise"], liable=2))
case("qingyise-fanbao",
     req({1: seat("678s4s", *QYS_MELDS), 0: seat(fanbao=True)}, "4s", "discard", 3,
         options={"fanbao": True}),
     win([-140, 140, 0, 0], ["qingyise"], liable=0))

# ======================================================================= presets
# kaikoufan_fa: 发 is special → holds_special; in kaikoufan the same hand is a plain small hand:
# W = open 1 + hard 1 = 2 → 4; seat 0 dealer → 8, seat 2 discarder → 8, seat 3 → 4.
case("fa-holds_special",
     req({1: seat("666z456p78s55s", CHI0)}, "9s", "discard", 2, preset="kaikoufan_fa"),
     fail("holds_special"))
case("fa-is-ordinary-in-kaikoufan",
     req({1: seat("666z456p78s55s", CHI0)}, "9s", "discard", 2),
     fail("below_minimum", raw=[-8, 0, -8, -4]))
# 发 kong +1 and a discarded 发 +1: W = open 1 + 发 1 + 中 1 + hard 1 + self 1 = 5 → 32;
# seat 0 dealer → 64; seat 2 → 32; seat 3 discarded 发 → 64.
case("fa-kong-and-fa-discard",
     req({1: seat(SMALL, CHI0, sk="6z7z"), 3: seat(sd="6z")}, "1p", "self_draw",
         preset="kaikoufan_fa"),
     win([-64, 160, -32, -64], winner_fan=5, loser_fan=[1, 0, 0, 1]))
# Indicator 北 with 中 and 发 special → laizi 白 (5z): pair 5s + 5z(wild) → soft.
# W = open 1 + 中中发 3 + self 1 = 5 → 32; seat 0 dealer → 64.
case("fa-indicator-north-gives-white",
     req({1: seat("23p456p789s5s5z", CHI0, sk="7z7z6z")}, "1p", "self_draw",
         preset="kaikoufan_fa", laizi=None, indicator="4z"),
     win([-64, 128, -32, -32], hard=False, winner_fan=5))
# qipisilai, indicator 4p: laizi 5p, pizi 3p 4p. W = open 1 + pizi 1 + 中 1 + hard 1 + self 1
# = 5 → 32; seat 0 dealer → 64; seats 2, 3 → 32 (min 32 reached).
case("qipisilai-pizi-kong",
     req({1: seat("789m678s12s22s", CHI0, sk="4p7z")}, "3s", "self_draw",
         preset="qipisilai", laizi=None, indicator="4p"),
     win([-64, 128, -32, -32], winner_fan=5))
# Without the pizi kong: W 4 → 16; seats 2, 3 raw 16 < 32.
case("qipisilai-min-32",
     req({1: seat("789m678s12s22s", CHI0, sk="7z")}, "3s", "self_draw",
         preset="qipisilai", laizi=None, indicator="4p"),
     fail("below_minimum", raw=[-32, 0, -16, -16]))
# Holding pizi 3p 4p.
case("qipisilai-holds-pizi",
     req({1: seat("34p789m678s22s", CHI0)}, "2p", "self_draw",
         preset="qipisilai", laizi=None, indicator="4p"),
     fail("holds_special"))
# The laizi 5p may not stand for the pizi 3p (12p + laizi).
case("qipisilai-laizi-not-for-pizi",
     req({1: seat("12p5p789s222z5s", CHI0)}, "5s", "discard", 2,
         preset="qipisilai", laizi=None, indicator="4p"),
     fail("not_a_win"))
# Control: in kaikoufan with laizi 5p the same hand is a shape (123p soft): W 1 → 2, below 16.
case("laizi-for-3p-in-kaikoufan",
     req({1: seat("12p5p789s222z5s", CHI0)}, "5s", "discard", 2, laizi="5p"),
     fail("below_minimum", hard=False, raw=[-4, 0, -4, -2]))
# 口口翻: chi + peng + 蓄杠 = 3 openings, 蓄杠 also +1 kong; W = 3 + 1 + hard 1 + self 1 = 6
# → 64; seat 0 dealer → 128; seats 2, 3 → 64 (min 64 reached).
case("koukoufan-per-opening",
     req({1: seat("78s55s", CHI0, "peng 9p from 2", "addkong 1z from 3")}, "9s", "self_draw",
         preset="koukoufan"),
     win([-128, 256, -64, -64], winner_fan=6))
# Seat 2 with two openings of its own: L2 = 2 → 256.
case("koukoufan-loser-per-opening",
     req({1: seat("78s55s", CHI0, "peng 9p from 2", "addkong 1z from 3"),
          2: seat("", "chi 456p from 1", "peng 1m from 0")}, "9s", "self_draw", preset="koukoufan"),
     win([-128, 448, -256, -64], loser_fan=[1, 0, 2, 0]))
# The same in kaikoufan: W = open 1 + kong 1 + hard 1 + self 1 = 4 → 16; seat 0 → 32.
case("kaikoufan-opening-once",
     req({1: seat("78s55s", CHI0, "peng 9p from 2", "addkong 1z from 3")}, "9s", "self_draw"),
     win([-32, 64, -16, -16], winner_fan=4))
# koukoufan min 64: W = open 1 + 中 1 + hard 1 + self 1 = 4 → 16; seat 0 32 < 64.
case("koukoufan-min-64",
     req({1: seat(SMALL, CHI0, sk="7z")}, "1p", "self_draw", preset="koukoufan"),
     fail("below_minimum", raw=[-32, 0, -16, -16]))
# koukoufan 碰碰胡: W = 3 openings + hard 1 = 4 → 160; seat 0 (1 peng) → 320; seat 2 (1 chi)
# → 320 ×1.5 = 480; seat 3 中 kong → 320: topped out; golden 500, seat 3 unopened → sunshine 600.
case("koukoufan-golden-500",
     req({1: seat("444m3z", *PENG_MELDS), 0: seat("", "peng 8m from 2"),
          2: seat("", "chi 567p from 1"), 3: seat(sk="7z")}, "3z", "discard", 2,
         preset="koukoufan"),
     win([-500, 1600, -500, -600], ["pengpeng"], topped=True, raw=[-320, 0, -480, -320]))
# jiayu small: W = small 1 + hard 1 + self 1 = 3 → 8; seat 0 dealer → 16; two highest 16 + 8 ≥ 20.
case("jiayu-two_sum-ok",
     req({1: seat(SMALL, CHI0)}, "1p", "self_draw", preset="jiayu"),
     win([-16, 32, -8, -8], winner_fan=3))
# jiayu on a discard: W = 2 → 4; seat 0 dealer → 8; seat 2 discarder → 8; 8 + 8 < 20.
case("jiayu-two_sum-fail",
     req({1: seat(SMALL, CHI0)}, "1p", "discard", 2, preset="jiayu"),
     fail("below_minimum", raw=[-8, 0, -8, -4]))
# jiayu 全求人: W = hard 1 → 20; seat 0 discarder +1 → 40; liable pays golden 200 once.
case("jiayu-quanqiuren-liable-golden",
     req({2: seat("8p", *QQR_MELDS)}, "8p", "discard", 0, winner=2, preset="jiayu"),
     win([-200, 0, 200, 0], ["quanqiuren"], liable=0, winner_fan=1))

# ============================================================== minimum rules (§7.4)
# W = open 1 + hard 1 + self 1 = 3 → 8; seat 0 dealer → 16; seats 2, 3 → 8.
case("min-each-fails",
     req({1: seat(SMALL, CHI0)}, "1p", "self_draw"),
     fail("below_minimum", raw=[-16, 0, -8, -8], payments=[-16, 32, -8, -8]))
case("min-any-ok",
     req({1: seat(SMALL, CHI0)}, "1p", "self_draw", options={"min_rule": "any"}),
     win([-16, 32, -8, -8]))
case("min-two_sum-ok",
     req({1: seat(SMALL, CHI0)}, "1p", "self_draw", options={"min_rule": "two_sum"}),
     win([-16, 32, -8, -8]))
# Soft (5s + laizi pair): W = open 1 + self 1 = 2 → 4; seat 0 → 8 < 16; 8 + 4 < 16.
case("min-any-fails",
     req({1: seat("23p456p789s5s6m", CHI0)}, "1p", "self_draw", options={"min_rule": "any"}),
     fail("below_minimum", hard=False, raw=[-8, 0, -4, -4]))
case("min-two_sum-fails",
     req({1: seat("23p456p789s5s6m", CHI0)}, "1p", "self_draw", options={"min_rule": "two_sum"}),
     fail("below_minimum", raw=[-8, 0, -4, -4]))

# ======================================================================= hard / soft
# 44m + laizi (444m) and 33z pair: soft pengpeng, W = open 1 → 20; seat 2 ×1.5 → 30.
case("soft-pengpeng",
     req({1: seat("44m6m3z", *PENG_MELDS)}, "3z", "discard", 2),
     win([-20, 70, -30, -20], ["pengpeng"], hard=False, winner_fan=1))
# 456m with the laizi 6m as itself → hard: W = open 1 + 中 1 + hard 1 + self 1 = 4 → 16.
case("laizi-as-itself-is-hard",
     req({1: seat("456m789s55s78p", "chi 123p from 0", sk="7z")}, "9p", "self_draw"),
     win([-32, 64, -16, -16], hard=True, winner_fan=4))
# 4444s in hand + laizi: the pair would need a fifth 4s.
case("laizi-not-fifth-copy",
     req({1: seat("444s6m", *PENG_MELDS)}, "4s", "self_draw"),
     fail("not_a_win"))
# With laizi_may_be_fifth: pengpeng soft, W 1 → 20 ×1.5 = 30 each.
case("laizi-may-be-fifth",
     req({1: seat("444s6m", *PENG_MELDS)}, "4s", "self_draw", options={"laizi_may_be_fifth": True}),
     win([-30, 90, -30, -30], ["pengpeng"], hard=False))

# 5m5m6m7m + 5m: hard small (567m, 55m) scores 4/8/8 (below 16); soft 碰碰胡 (555m, 6m as 7m
# → 77m) scores W = open 1 → 20, seat 2 ×1.5 → 30: the best-paying reading wins.
case("best-reading-soft-big-over-hard-small",
     req({1: seat("5m5m6m7m", *PENG_MELDS)}, "5m", "discard", 2),
     win([-20, 70, -30, -20], ["pengpeng"], hard=False))
# 乱风 with a laizi on a discard (the rest is no set of sets → not 见字胡): W = open 1 → 20;
# seat 3 ×1.5 → 30.
case("fengyise-luan-soft-discard",
     req({1: seat("3z4z5z6z3z4z6m", "peng 1z from 0", "peng 2z from 2")}, "5z", "discard", 3),
     win([-20, 70, -20, -30], ["fengyise"], hard=False))

# ===================================================== laizi kongs, special kongs and discards
# W = open 1 + laizi kong 2 + hard 1 + self 1 = 5 → 32; seat 0 dealer → 64; seat 2 discarded
# laizi (kong) +2 → 128; seat 3 discarded 中 +1 → 64.
case("laizi-kong-and-discards",
     req({1: seat(SMALL, CHI0, sk="6m"), 2: seat(sd="6m"), 3: seat(sd="7z")}, "1p", "self_draw"),
     win([-64, 256, -128, -64], winner_fan=5, loser_fan=[1, 0, 2, 1]))
# laizi_discard half: seat 2 +1 → 64.
case("laizi-discard-half",
     req({1: seat(SMALL, CHI0, sk="6m"), 2: seat(sd="6m"), 3: seat(sd="7z")}, "1p", "self_draw",
         options={"laizi_discard": "half"}),
     win([-64, 192, -64, -64], loser_fan=[1, 0, 1, 1]))

# ================================================================= dealer (small hands)
# Winner = dealer 0: W = open 1 + 中 1 + hard 1 + self 1 = 4 → 16; every loser +1 → 32.
case("dealer-wins-small",
     req({0: seat(SMALL, "chi 123m from 3", sk="7z")}, "1p", "self_draw", winner=0),
     win([96, -32, -32, -32], loser_fan=[0, 1, 1, 1]))
# Dealer 2 discards: W = open 1 + 中中 2 + hard 1 = 4 → 16; seat 2 dealer +1 discarder +1 → 64.
case("dealer-loser-discarder-small",
     req({1: seat(SMALL, CHI0, sk="7z7z")}, "1p", "discard", 2, dealer=2),
     win([-16, 96, -64, -16], loser_fan=[0, 0, 2, 0]))

# ============================================================================== caps
# W = open 1 + 中中 2 + hard 1 = 4 → 160; seat 2 ×1.5 → 240; seat 3 中 kong → 320 → cap 300.
case("cap-300",
     req({1: seat("444m3z", *PENG_MELDS, sk="7z7z"), 3: seat(sk="7z")}, "3z", "discard", 2),
     win([-160, 700, -240, -300], ["pengpeng"], raw=[-160, 0, -240, -320], topped=False))
# W 5 → 320; every loser opened (+1) → 640, 960, 640 → 金顶 400 each.
case("golden-all-opened",
     req({1: BIG320, 0: seat("", "peng 8m from 2"), 2: seat("", "chi 567p from 1"),
          3: seat("", "peng 3p from 0")}, "3z", "discard", 2),
     win([-400, 1200, -400, -400], ["pengpeng"], topped=True, raw=[-640, 0, -960, -640]))
# Seat 3 only has a concealed kong (+2 → 1280): unopened → 阳光顶 500.
case("sunshine-ankong-does-not-open",
     req({1: BIG320, 0: seat("", "peng 8m from 2"), 2: seat("", "chi 567p from 1"),
          3: seat("", "ankong 1p")}, "3z", "discard", 2),
     win([-400, 1300, -400, -500], ["pengpeng"], topped=True, raw=[-640, 0, -960, -1280]))
case("kong_avoids_sunshine",
     req({1: BIG320, 0: seat("", "peng 8m from 2"), 2: seat("", "chi 567p from 1"),
          3: seat("", "ankong 1p")}, "3z", "discard", 2, options={"kong_avoids_sunshine": True}),
     win([-400, 1200, -400, -400], ["pengpeng"], topped=True))
# 对罚: 阳光顶 500 ×2 = 1000.
case("sunshine_double-on-sunshine-top",
     req({1: BIG320, 0: seat("", "peng 8m from 2"), 2: seat("", "chi 567p from 1"),
          3: seat("", "ankong 1p")}, "3z", "discard", 2, options={"sunshine_double": True}),
     win([-400, 1800, -400, -1000], ["pengpeng"], topped=True))
# All three losers unopened: 320, 480, 320 all ≥ 300 → 哈顶 600 each.
case("ha-all-unopened",
     req({1: BIG320}, "3z", "discard", 2),
     win([-600, 1800, -600, -600], ["pengpeng"], topped=True, raw=[-320, 0, -480, -320]))
# 对罚 below the caps: 40, 60, 40 all unopened → ×2.
case("sunshine_double-uncapped",
     req({1: seat("444m3z", *PENG_MELDS)}, "3z", "discard", 2, options={"sunshine_double": True}),
     win([-80, 280, -120, -80], ["pengpeng"], raw=[-40, 0, -60, -40]))


# ============================================ issue 15: tile patterns on every reading, §7 order
# 清一色 looks only at the tiles, so it stacks on the jiayu 七对 reading (RULES.md §6). jiayu:
# big_stack add (10 + 10 = 20), no opening fan, big_factor fan (self-draw +1 W, discarder +1 L).
# 11m33m55m77m99m22m + laizi 6m, 4m self-drawn: the laizi pairs the 4m (soft) → 七对 + 清一色,
# base 20, not 门前清. W = self-draw 1 → 20 × 2 = 40 each; two_sum 40 + 40 ≥ 20.
case("jiayu-qidui-qingyise-laizi-wild",
     req({1: seat("1m1m3m3m5m5m7m7m9m9m2m2m6m")}, "4m", "self_draw", preset="jiayu"),
     win([-40, 120, -40, -40], ["qingyise", "qidui"], hard=False, base=20, winner_fan=1,
         raw=[-40, 0, -40, -40]))
# The same with a natural 4m pair: hard → W = hard 1 + self-draw 1 = 2 → 20 × 4 = 80 each.
case("jiayu-qidui-qingyise-natural",
     req({1: seat("1m1m3m3m5m5m7m7m9m9m2m2m4m")}, "4m", "self_draw", preset="jiayu"),
     win([-80, 240, -80, -80], ["qingyise", "qidui"], base=20, winner_fan=2))
# Loose 将一色 on seven pairs (22m55m88m 22p55p88p 22s, 2s from seat 3): 七对 + 将一色 base 20.
# W = hard 1 → 40; seat 3 discarder +1 → 80. (The 乱将 reading, 将一色 + 门前清, pays the same;
# the 七对 reading comes first.)
case("jiayu-qidui-jiangyise-loose",
     req({1: seat("2m2m5m5m8m8m2p2p5p5p8p8p2s")}, "2s", "discard", 3, preset="jiayu"),
     win([-40, 160, -40, -80], ["jiangyise", "qidui"], base=20, winner_fan=1,
         loser_fan=[0, 0, 0, 1]))
# Strict (luan_feng_jiang false): 将一色 needs 4 sets + pair → 七对 alone, base 10:
# W = hard 1 → 20; seat 3 → 40.
case("jiayu-qidui-jiangyise-strict-refused",
     req({1: seat("2m2m5m5m8m8m2p2p5p5p8p8p2s")}, "2s", "discard", 3, preset="jiayu",
         options={"luan_feng_jiang": False}),
     win([-20, 80, -20, -40], ["qidui"], base=10))
# Loose 风一色 on seven pairs (1z×4 as two pairs, 22z 33z 44z 55z 6z, 6z self-drawn): 七对 + 风一色
# base 20; W = hard 1 + self-draw 1 = 2 → 80 each.
case("jiayu-qidui-fengyise-loose",
     req({1: seat("1z1z1z1z2z2z3z3z4z4z5z5z6z")}, "6z", "self_draw", preset="jiayu"),
     win([-80, 240, -80, -80], ["fengyise", "qidui"], base=20, winner_fan=2))
# Strict: 七对 alone, base 10 → 40 each.
case("jiayu-qidui-fengyise-strict-refused",
     req({1: seat("1z1z1z1z2z2z3z3z4z4z5z5z6z")}, "6z", "self_draw", preset="jiayu",
         options={"luan_feng_jiang": False}),
     win([-40, 120, -40, -40], ["qidui"], base=10))
# §7.3 the cap is reached when raw ≥ cap. jiayu 门前清 with two 中 kongs, self-drawn: W = 中中 2 +
# hard 1 + self-draw 1 = 4 → 10 × 16 = 160 = cap 160 for all three, all unopened → 哈顶 200
# each (with "raw > cap" it would be 160 each).
case("cap-reached-at-equal-raw-jiayu-ha",
     req({1: seat("123m456p789s55s23p", sk="7z7z")}, "1p", "self_draw", preset="jiayu"),
     win([-200, 600, -200, -200], ["menqing"], topped=True, raw=[-160, 0, -160, -160]))
# kaikoufan with cap 320: BIG320 (W 5 → 320); seat 0 opened +1 → 640; seat 2 opened +1, ×1.5
# → 960; seat 3 → 320 = cap: all three reach it → 金顶 400, 400, seat 3 unopened 阳光顶 500.
case("cap-reached-at-equal-raw-golden-sunshine",
     req({1: BIG320, 0: seat("", "peng 8m from 2"), 2: seat("", "chi 567p from 1")},
         "3z", "discard", 2, options={"cap": 320}),
     win([-400, 1300, -400, -500], ["pengpeng"], topped=True, raw=[-640, 0, -960, -320]))
# One point higher, seat 3's 320 stays below the cap 321: no top, each pays min(raw, 321).
case("cap-not-reached-just-below",
     req({1: BIG320, 0: seat("", "peng 8m from 2"), 2: seat("", "chi 567p from 1")},
         "3z", "discard", 2, options={"cap": 321}),
     win([-321, 962, -321, -320], ["pengpeng"], topped=False))
# §7.3/§7.5 对罚 doubles after the caps, before liability moves the payments. 抢杠 of seat 3's
# 1p: W 2 → 40; seat 0 40 and seat 2 40, both unopened → ×2 = 80 each; seat 3 (opened +1)
# 80 ×1.5 = 120; robbed seat 3 pays 80 + 80 + 120 = 280 (200 without 对罚).
case("sunshine_double-then-liable-rob_kong",
     req({1: seat(SMALL, CHI0), 3: seat("", "peng 1p from 2")}, "1p", "rob_kong", 3,
         options={"sunshine_double": True}),
     win([0, 280, 0, -280], ["qianggang"], liable=3, raw=[-40, 0, -40, -120]))
# 清一色 with three 中 kongs: W = open 1 + 中 3 + hard 1 = 5 → 320; seat 0 (peng) → 640; seat 2
# → 320; seat 3 discarder ×1.5 → 480: all ≥ 300 → 金顶 400 for seat 0, 阳光顶 500 for the
# unopened seats 2 and 3, 对罚 → 1000 each; the third opening (peng 5s) came from seat 2,
# which pays 400 + 1000 + 1000 = 2400.
case("sunshine_double-capped-then-qingyise-liable",
     req({1: seat("678s4s", *QYS_MELDS, sk="7z7z7z"), 0: seat("", "peng 8m from 2")},
         "4s", "discard", 3, options={"sunshine_double": True}),
     win([0, 2400, -2400, 0], ["qingyise"], liable=2, topped=True, raw=[-640, 0, -320, -480]))
# §7.2 kong_avoids_sunshine changes who is unopened for 阳光, never the opening fan: seat 3's
# concealed kong gives L3 = 2 (no opening +1): 320 × 4 = 1280, and the golden top for all.
case("kong_avoids_sunshine-opening-fan-unchanged",
     req({1: BIG320, 0: seat("", "peng 8m from 2"), 2: seat("", "chi 567p from 1"),
          3: seat("", "ankong 1p")}, "3z", "discard", 2, options={"kong_avoids_sunshine": True}),
     win([-400, 1200, -400, -400], ["pengpeng"], topped=True, loser_fan=[1, 0, 1, 2],
         raw=[-640, 0, -960, -1280]))
# koukoufan (an opening fan per opening): seat 3's concealed kong adds no opening either.
# W = 3 openings + 中 3 + hard 1 = 7 → 10 × 128 = 1280; seat 0 → 1280; seat 2 discarder ×1.5
# → 1920; seat 3 L = 2 → 5120. All ≥ 300: seats 0 and 2 are unopened → 阳光顶 600; seat 3's
# kong avoids 阳光 → 金顶 500.
case("kong_avoids_sunshine-koukoufan-opening-fan-unchanged",
     req({1: BIG320, 3: seat("", "ankong 1p")}, "3z", "discard", 2, preset="koukoufan",
         options={"kong_avoids_sunshine": True}),
     win([-600, 1700, -600, -500], ["pengpeng"], topped=True, winner_fan=7,
         loser_fan=[0, 0, 0, 2], raw=[-1280, 0, -1920, -5120]))
# Nor does it open the winner (check 3): a concealed kong and a 中 kong stay unopened.
case("kong_avoids_sunshine-winner-still-not_open",
     req({1: seat("123m456p78s55s", "ankong 1z", sk="7z")}, "9s", "self_draw",
         options={"kong_avoids_sunshine": True}),
     fail("not_open"))
# With 对罚 as well: 对罚 falls on the seats that are 阳光, so seat 3 (kong) is spared.
case("kong_avoids_sunshine-spares-sunshine_double",
     req({1: BIG320, 0: seat("", "peng 8m from 2"), 2: seat("", "chi 567p from 1"),
          3: seat("", "ankong 1p")}, "3z", "discard", 2,
         options={"kong_avoids_sunshine": True, "sunshine_double": True}),
     win([-400, 1200, -400, -400], ["pengpeng"], topped=True))

@pytest.mark.parametrize(("request_", "expect"), S)
def test_scenario(request_: dict[str, Any], expect: dict[str, Any]) -> None:
    check(score_json(request_), expect)


def test_enough_scenarios() -> None:
    assert len(S) >= 45
    codes = {p.values[1].get("reason") for p in S}
    assert {"not_a_win", "holds_special", "not_open", "two_laizi_small", "pair_not_258",
            "jianzi_on_discard", "below_minimum"} <= codes
    bigs = {b for p in S for b in p.values[1].get("big_hands", [])}
    assert bigs == {"pengpeng", "qingyise", "fengyise", "jiangyise", "quanqiuren", "gangkai",
                    "qianggang", "haidi", "menqing", "qidui"}


# ========================================================== indicator derivations (§2, §3)
@pytest.mark.parametrize(("preset", "indicator", "laizi", "pizi"), [
    ("kaikoufan", "4z", "6z", ""),   # 北 → 发
    ("kaikoufan", "7z", "6z", ""),   # 中 → 发
    ("kaikoufan", "6z", "5z", ""),   # 发 → 白
    ("kaikoufan", "5z", "1z", ""),   # 白 → 东
    ("kaikoufan", "9m", "1m", ""),   # suits cycle 9 → 1
    ("kaikoufan", "3z", "4z", ""),
    ("kaikoufan_fa", "4z", "5z", ""),  # 北, 中, 发 all give 白
    ("kaikoufan_fa", "7z", "5z", ""),
    ("kaikoufan_fa", "6z", "5z", ""),
    ("kaikoufan_fa", "5z", "1z", ""),
    ("qipisilai", "4p", "5p", "3p4p"),  # 前皮后赖
    ("qipisilai", "1m", "2m", "9m1m"),
    ("qipisilai", "7z", "6z", "3z4z"),  # 中 read as 北: pizi 西 北, laizi 发
])
def test_indicator(preset: str, indicator: str, laizi: str, pizi: str) -> None:
    setup = RuleSet.preset(preset).setup(indicator=Tile.parse(indicator))
    assert setup.laizi == Tile.parse(laizi).index
    want_pizi = {Tile.parse(pizi[i:i + 2]).index for i in range(0, len(pizi), 2)}
    assert set(setup.pizi) == want_pizi
    special = {Tile.parse("7z").index} | want_pizi
    if preset == "kaikoufan_fa":
        special.add(Tile.parse("6z").index)
    assert set(setup.special) == special


# ================================================================ input errors (exit 2)
def _cli() -> list[str]:
    exe = REPO / ".venv" / "bin" / "laizi"
    return [str(exe), "score", "-"] if exe.exists() else [sys.executable, "-m", "laizi", "score", "-"]


def _base(**changes: Any) -> dict[str, Any]:
    r = req({1: seat(SMALL, CHI0, sk="7z")}, "1p", "self_draw")
    r.update(changes)
    return r


def _with_seat(n: int, s: dict[str, Any], **win_changes: Any) -> dict[str, Any]:
    r = _base()
    r["players"][n] = s
    r["win"].update(win_changes)
    return r


def _win(**changes: Any) -> dict[str, Any]:
    r = _base()
    r["win"].update(changes)
    return r


ERRORS = [
    pytest.param("{not json", ("JSON",), id="bad-json"),
    pytest.param(_with_seat(1, seat("23p456p789s5x5s", CHI0)), ("hand",), id="unknown-tile"),
    pytest.param(_base(preset="nosuch"), ("preset",), id="unknown-preset"),
    pytest.param(_base(options={"no_such_option": True}), ("no_such_option",), id="unknown-option"),
    pytest.param(_with_seat(2, seat("", "kong 9s from 3")), ("9s",), id="five-copies"),
    pytest.param(_with_seat(2, seat("", "peng 9s from 3")) | {"laizi": None, "indicator": "9s"},
                 ("9s",), id="five-copies-with-indicator"),
    pytest.param(_base(winner=4), ("winner",), id="seat-out-of-range"),
    pytest.param(_with_seat(1, seat(SMALL, "chi 123m from 2")), ("melds",), id="chi-not-from-shangjia"),
    pytest.param(_with_seat(1, seat(SMALL, "chi 135m from 0")), ("melds",), id="chi-not-a-run"),
    pytest.param(_with_seat(1, seat("23p456p789s5s", CHI0)), ("hand",), id="winner-tile-count"),
    pytest.param(_with_seat(1, seat(SMALL, CHI0), after_kong=True), ("after_kong",),
                 id="after_kong-without-kong"),
    pytest.param(_win(after_kong=True, haidi=True), ("after_kong", "haidi"),
                 id="after_kong-and-haidi"),
    pytest.param(_win(by="rob_kong", **{"from": 3}), ("from",), id="rob_kong-without-peng"),
    pytest.param(_win(by="discard", **{"from": 1}), ("from",), id="from-names-winner"),
]


@pytest.mark.parametrize(("payload", "fields"), ERRORS)
def test_input_error(payload: Any, fields: tuple[str, ...]) -> None:
    text = payload if isinstance(payload, str) else json.dumps(payload, ensure_ascii=False)
    proc = subprocess.run(_cli(), input=text, capture_output=True, text=True, timeout=30)
    assert proc.returncode == 2, (proc.returncode, proc.stdout, proc.stderr)
    err = proc.stderr.strip()
    assert err and "\n" not in err, f"stderr must be one line: {proc.stderr!r}"
    assert "Traceback" not in proc.stderr
    assert any(f in err for f in fields), f"stderr {err!r} names none of {fields}"
    assert proc.stdout == ""
