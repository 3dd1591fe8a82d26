"""Rule knowledge has one home: the bots and the hints call the scorer's table 番, the
toolkit's completing kinds and tiles after a claim instead of copies of them.

Two of the former copies differed from the rule; each has a test here that failed on
the code before the copies were removed:

- ``outlook.kong_fan`` counted a discarded laizi as 2 番 whatever ``laizi_discard`` says
  (``"half"``: 1; ``"forbidden"``: it cannot happen, 0);
- the hints' completing kinds (the table's 听牌 line) lacked ``expert_ready``'s guard: they
  listed 红中 (holding it, a hand cannot win) and the laizi as winning tiles.
"""

from __future__ import annotations

import pytest

from laizi.bots import SeatView, make_bot
from laizi.bots.outlook import kong_fan
from laizi.bots.strong import StrongBot
from laizi.bots.toolkit import claimed_hand, completing_kinds, natural, tiles_after_claim
from laizi.game import Action, HandState
from laizi.hints import ready_waits
from laizi.rules import RuleSet
from laizi.scoring import Meld, PlayerTable, WinContext, table_fan
from laizi.scoring.score import seat_fan
from laizi.tiles import RED, counts_from_str, tile_from_str

LAIZI = tile_from_str("6s")


def _view(rules: RuleSet, hand: str, *, melds: list[list[Meld]] | None = None,
          special_kongs: list[list[int]] | None = None,
          special_discards: list[list[int]] | None = None) -> SeatView:
    counts = counts_from_str(hand)
    return SeatView(
        seat=0, rules=rules, setup=rules.setup(laizi=LAIZI), dealer=0, phase="claim", turn=3,
        hand=counts, melds=melds or [[], [], [], []], rivers=[[], [], [], []],
        special_kongs=special_kongs or [[], [], [], []],
        special_discards=special_discards or [[], [], [], []],
        hand_sizes=[sum(counts), 13, 13, 13], wall_remaining=50, legal=[],
    )


@pytest.mark.parametrize(("laizi_discard", "fan"), [("kong", 2), ("half", 1), ("forbidden", 0)])
def test_kong_fan_counts_a_discarded_laizi_as_the_rules_say(laizi_discard: str, fan: int) -> None:
    rules = RuleSet.preset("kaikoufan", laizi_discard=laizi_discard)
    v = _view(rules, "123m456m789p111s4s", special_discards=[[], [LAIZI], [], []])
    assert kong_fan(v, 1) == fan  # before: 2 whatever laizi_discard said
    assert kong_fan(v, 2) == 0


def test_kong_fan_is_the_table_fan_without_the_opening() -> None:
    rules = RuleSet.preset("koukoufan", laizi_discard="half")
    melds = [[], [Meld("peng", 0, 0), Meld("kong", 9, 2), Meld("ankong", 18)], [], []]
    v = _view(rules, "123m456m789p111s4s", melds=melds, special_kongs=[[], [RED, LAIZI], [], []],
              special_discards=[[], [LAIZI, RED], [], []])
    # 明杠 1 + 暗杠 2 + 红中杠 ×2 (one laid aside, one discarded) 2 + 赖子杠 2 + half 1
    assert kong_fan(v, 1) == 8
    assert table_fan(rules, LAIZI, melds[1], [RED, LAIZI], [LAIZI, RED]) == 8 + 2  # 口口翻 ×2


def test_a_wild_single_wait_lists_neither_red_nor_the_laizi() -> None:
    """Four sets and a laizi wait on any tile (the laizi pairs with it) — but drawing 红中
    cannot win (a hand holding a special tile never wins) and the laizi is a wild, not a
    wait: the 听牌 line lists the other kinds."""
    rules = RuleSet.preset("kaikoufan")
    v = _view(rules, "123m456m789p111s6s")
    got = {w["tile"] for w in ready_waits(v)}
    assert "7z" not in got  # 红中: before, it was listed
    assert "6s" not in got  # the laizi: before, it was listed
    assert {"1m", "5p", "9s", "1z", "6z"} <= got
    assert completing_kinds(v, v.hand) == sorted(
        tile_from_str(w["tile"]) for w in ready_waits(v))


def test_completing_kinds_of_a_hand_that_is_not_ready() -> None:
    rules = RuleSet.preset("kaikoufan")
    v = _view(rules, "13m46m79p258s147z")
    assert completing_kinds(v, v.hand) == []
    assert ready_waits(v) == []


def test_tiles_after_a_claim() -> None:
    nat = counts_from_str("2345m55p")
    t = tile_from_str("3m")
    c, m = claimed_hand(nat, Action("chi", tile_from_str("1m")), tile_from_str("1m"), 3)
    assert c == counts_from_str("45m55p") and m == Meld("chi", 0, 3)
    assert tiles_after_claim(nat, Action("chi", tile_from_str("2m")), t) == counts_from_str("35m55p")
    five = tile_from_str("5p")
    c, m = claimed_hand(nat, Action("peng", five), five, 1)
    assert c == counts_from_str("2345m") and m == Meld("peng", five, 1)
    kong = counts_from_str("2345m555p")
    c, m = claimed_hand(kong, Action("kong", five), five, 2)
    assert c == counts_from_str("2345m") and m == Meld("kong", five, 2)


def _public(v: SeatView, s: int, hand: tuple[int, ...] = ()) -> PlayerTable:
    return PlayerTable(hand=hand, melds=tuple(v.melds[s]), special_kongs=tuple(v.special_kongs[s]),
                       special_discards=tuple(v.special_discards[s]))


@pytest.mark.parametrize("preset", ["kaikoufan", "koukoufan", "qipisilai"])
def test_strongs_fan_estimate_is_what_the_scorer_counts(preset: str) -> None:
    """On live tables: each other seat's fan in ``strong``'s estimate is the loser fan the
    scorer gives that seat for the seat's self-drawn small win (no dealer on either side),
    and the own fan is the scorer's winner fan less the self-draw, once opened."""
    rules = RuleSet.preset(preset)
    checked = 0
    for seed in range(6):
        st = HandState.new(rules, 0, seed=bytes([seed]) * 32)
        bots = [make_bot("strong", seed + s) for s in range(4)]
        while not st.over:
            for seat in st.to_act():
                legal = st.legal_actions(seat)
                v = SeatView.from_state(st, seat, legal)
                if seat != 0 and v.phase == "turn" and any(m.opens for m in v.melds[seat]):
                    nat, wilds = natural(v)
                    own, others = StrongBot().fan_estimate(v, v.melds[seat], wilds)
                    tables = [_public(v, s) for s in range(4)]
                    ctx = WinContext(rules=rules, setup=v.setup, dealer=0, winner=seat,
                                     tile=0, by="self_draw", players=(
                                         tables[0], tables[1], tables[2], tables[3]))
                    for s in range(4):
                        if s not in (seat, 0):
                            assert others[s] == sum(n for _, n in seat_fan(ctx, s))
                    assert own == sum(n for _, n in seat_fan(ctx, seat)) + (wilds == 0)
                    checked += 1
                st.apply(seat, bots[seat].act(v))
                if st.over:
                    break
    assert checked > 20
