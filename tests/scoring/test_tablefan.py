"""``table_fan``: a seat's public table 番 is what the scorer multiplies by.

The positions are worked by hand from RULES.md §7.2 (the expected numbers are not
read off the scorer), then checked twice: against :func:`table_fan` and against the
``winner_fan`` / ``loser_fan`` the scorer reports for the same table.

The table (preset ``kaikoufan_fa``: 红中 and 发财 are special; laizi 6m, dealer seat 0;
seat 1 wins 2s by self-draw, a hard small hand)::

    seat 0  kong 4m from 2, ankong 7p, laid aside 中, discarded a laizi (6m)
    seat 1  peng 1p from 0; hand 123m 456p 789s 2s + 2s
    seat 2  chi 123s from 1, peng 白 from 3, discarded 中 中
    seat 3  laid aside a laizi (6m) and 发

Seat 0: opening (1 once / 1 per opening / 0 none) + exposed kong 1 + concealed kong 2
+ 红中杠 1 + the discarded laizi (2 kong / 1 half / 0 forbidden).
Seat 1: opening (1 / 1 / 0).  Seat 2: opening (1 / 2 / 0) + two 红中 2.
Seat 3: 赖子杠 2 + 发财杠 1 = 3.
The winner adds hard +1 and small-hand self-draw +1; the dealer (seat 0) as a loser
of a small hand +1.
"""

from __future__ import annotations

import random

import pytest

from laizi.rules import RuleSet
from laizi.scoring import Meld, PlayerTable, WinContext, score, table_fan, table_fan_items
from laizi.scoring.model import MeldType
from laizi.scoring.score import seat_fan
from laizi.tiles import GREEN, RED, WHITE, counts_from_str, tile_from_str

LAIZI = tile_from_str("6m")


def _hand(text: str) -> tuple[int, ...]:
    counts = counts_from_str(text)
    return tuple(k for k, n in enumerate(counts) for _ in range(n))


def _tables() -> tuple[PlayerTable, PlayerTable, PlayerTable, PlayerTable]:
    m = Meld.parse
    return (
        PlayerTable(melds=(m("kong 4m from 2"), m("ankong 7p")), special_kongs=(RED,),
                    special_discards=(LAIZI,)),
        PlayerTable(hand=_hand("123m456p789s2s"), melds=(m("peng 1p from 0"),)),
        PlayerTable(melds=(m("chi 123s from 1"), m("peng 5z from 3")),
                    special_discards=(RED, RED)),
        PlayerTable(special_kongs=(LAIZI, GREEN)),
    )


# (laizi_discard, opening_fan) -> table fan of seats 0-3, worked by hand (module docstring)
HAND_WORKED = {
    ("kong", "once"): [7, 1, 3, 3],
    ("half", "once"): [6, 1, 3, 3],
    ("forbidden", "once"): [5, 1, 3, 3],
    ("kong", "per_opening"): [7, 1, 4, 3],
    ("half", "per_opening"): [6, 1, 4, 3],
    ("kong", "none"): [6, 0, 2, 3],
    ("half", "none"): [5, 0, 2, 3],
}


def _rules(laizi_discard: str, opening_fan: str) -> RuleSet:
    return RuleSet.preset("kaikoufan_fa", laizi_discard=laizi_discard, opening_fan=opening_fan,
                          min_points=0)


@pytest.mark.parametrize(("laizi_discard", "opening_fan"), sorted(HAND_WORKED))
def test_table_fan_matches_the_hand_worked_table(laizi_discard: str, opening_fan: str) -> None:
    rules = _rules(laizi_discard, opening_fan)
    got = [table_fan(rules, LAIZI, p.melds, p.special_kongs, p.special_discards)
           for p in _tables()]
    assert got == HAND_WORKED[(laizi_discard, opening_fan)]


@pytest.mark.parametrize(("laizi_discard", "opening_fan"), sorted(HAND_WORKED))
def test_the_scorer_multiplies_by_the_table_fan(laizi_discard: str, opening_fan: str) -> None:
    rules = _rules(laizi_discard, opening_fan)
    tables = _tables()
    ctx = WinContext(rules=rules, setup=rules.setup(laizi=LAIZI), dealer=0, winner=1,
                     tile=tile_from_str("2s"), by="self_draw", players=tables)
    res = score(ctx)
    assert res.ok and res.small and res.hard, res.breakdown
    fan = HAND_WORKED[(laizi_discard, opening_fan)]
    assert res.winner_fan == fan[1] + 2  # + hard + small-hand self-draw
    assert res.loser_fan == [fan[0] + 1, 0, fan[2], fan[3]]  # the dealer's +1
    for s, p in enumerate(tables):
        assert table_fan(rules, LAIZI, p.melds, p.special_kongs, p.special_discards) \
            == sum(n for _, n in seat_fan(ctx, s))
    # what was paid: 2^(winner fan + loser fan) each (no cap reached here)
    assert res.raw[3] == -(2 ** (fan[1] + 2 + fan[3]))


def test_items_name_what_the_breakdown_names() -> None:
    rules = _rules("half", "per_opening")
    p0, _p1, p2, p3 = _tables()
    assert table_fan_items(rules, LAIZI, p0.melds, p0.special_kongs, p0.special_discards) == [
        ("口口翻 openings ×1", 1), ("明杠 exposed kong ×1", 1), ("暗杠 concealed kong ×1", 2),
        ("红中杠 7z kong ×1", 1), ("打赖子 laizi discard (half) ×1", 1),
    ]
    assert table_fan_items(rules, LAIZI, p2.melds, p2.special_kongs, p2.special_discards) == [
        ("口口翻 openings ×2", 2), ("红中杠 7z kong ×2", 2),
    ]
    assert table_fan_items(rules, LAIZI, p3.melds, p3.special_kongs, p3.special_discards) == [
        ("发财杠 6z kong ×1", 1), ("赖子杠 laizi kong ×1", 2),
    ]


def test_without_the_opening() -> None:
    rules = _rules("kong", "per_opening")
    p0, p1, p2, _p3 = _tables()
    assert table_fan(rules, LAIZI, p0.melds, p0.special_kongs, p0.special_discards,
                     opening=False) == 6
    assert table_fan(rules, LAIZI, p1.melds, opening=False) == 0
    assert table_fan(rules, LAIZI, p2.melds, p2.special_kongs, p2.special_discards,
                     opening=False) == 2


def test_table_fan_is_the_sum_of_its_items_on_random_tables() -> None:
    rng = random.Random(22)
    kinds: list[MeldType] = ["chi", "peng", "kong", "addkong", "ankong"]
    for _ in range(500):
        rules = RuleSet.preset(rng.choice(["kaikoufan", "koukoufan", "jiayu", "qipisilai"]),
                               laizi_discard=rng.choice(["kong", "half", "forbidden"]))
        laizi = rng.randrange(27)
        melds = [Meld(t, rng.randrange(7) if t == "chi" else rng.randrange(34),
                      None if t == "ankong" else rng.randrange(4))
                 for t in rng.choices(kinds, k=rng.randrange(5))]
        aside = [laizi, RED, GREEN, WHITE]
        sk = rng.choices(aside, k=rng.randrange(4))
        sd = rng.choices(aside, k=rng.randrange(4))
        opening = rng.random() < 0.5
        items = table_fan_items(rules, laizi, melds, sk, sd, opening=opening)
        assert table_fan(rules, laizi, melds, sk, sd, opening=opening) == sum(n for _, n in items)
        assert all(n > 0 for _, n in items)
