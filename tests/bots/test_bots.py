"""Bots: legal play from a seat's view, JSON views, evaluation, rule-driven choices."""

from __future__ import annotations

import random

import pytest

from laizi.analysis import shanten
from laizi.analysis.profiles import HandEval, regular_shanten
from laizi.bots import BOT_NAMES, Bot, SeatView, make_bot
from laizi.bots.autoplay import SeatControl
from laizi.bots.bighands import pengpeng_distance, qingyise_distance
from laizi.bots.greedy import near_kinds
from laizi.bots.strong import StrongBot
from laizi.game import DRAW, NODRAW, Action, HandState, Match
from laizi.game.wall import hand_seed
from laizi.rules import RuleSet
from laizi.scoring import Meld
from laizi.tiles import counts_from_str
from laizi.views import view


@pytest.mark.parametrize("name", BOT_NAMES)
@pytest.mark.parametrize("preset", ["kaikoufan", "qipisilai", "jiayu", "kaikoufan_fa"])
def test_bots_play_legal_actions_to_the_end(name: str, preset: str) -> None:
    rules = RuleSet.preset(preset)
    hands = 1 if name == "expert" else 6  # four searching bots at one table are slow
    for i in range(hands):
        st = HandState.new(rules, i % 4, seed=hand_seed(b"bots", i))
        bots = [make_bot(name, i * 4 + s) for s in range(4)]
        steps = 0
        while not st.over:
            for seat in st.to_act():
                if st.over:
                    break
                v = SeatView.from_state(st, seat)
                a = bots[seat].act(v)
                assert a in v.legal
                st.apply(seat, a)  # raises on an illegal action
                steps += 1
        assert steps > 10
        assert abs(sum(st.payments or [0.0])) < 1e-9


#: Every house rule of the sources on at once (docs/rules.md §7.3-§7.5, §8).
HOUSE = {"haidi_start": "five_stacks", "haidi_kongs": True, "kuangfeng_baoyu": True,
         "xiaoyu_258": True, "qianggang_fixed": 100, "fengyise_golden": True, "pay_min_fan": 3,
         "kong_draw_choice": True}


@pytest.mark.parametrize("name", BOT_NAMES)
def test_bots_play_with_the_house_rules_on(name: str) -> None:
    for i, preset in enumerate(["kaikoufan", "koukoufan", "jiayu"][: 1 if name == "expert" else 3]):
        st = HandState.new(RuleSet.preset(preset, **HOUSE), i % 4, seed=hand_seed(b"house", i))
        bots = [make_bot(name, i * 4 + s) for s in range(4)]
        while not st.over:
            for seat in st.to_act():
                if st.over:
                    break
                v = SeatView.from_state(st, seat)
                a = bots[seat].act(v)
                assert a in v.legal
                st.apply(seat, a)
        assert abs(sum(st.payments or [0.0])) < 1e-9 and st.tile_total() == [4] * 34


def test_make_bot_names() -> None:
    for name in BOT_NAMES:
        bot = make_bot(name, 1)
        assert isinstance(bot, Bot)
        assert bot.name == name
    with pytest.raises(ValueError, match="unknown bot"):
        make_bot("genius", 1)


def test_json_view_equals_state_view_and_bots_agree() -> None:
    rules = RuleSet.preset("kaikoufan")
    m = Match(rules, seed=b"json-view", max_hands=2)
    bots = [make_bot("strong", s) for s in range(4)]
    n = 0
    while not m.over:
        for seat in m.to_act():
            if m.over:
                break
            hand = m.hand
            assert hand is not None
            jv = SeatView.from_json(view(m, seat), rules)
            sv = SeatView.from_state(hand, seat)
            assert jv.hand == sv.hand and jv.legal == sv.legal
            assert jv.melds == sv.melds and jv.rivers == sv.rivers
            assert jv.pending == sv.pending and jv.visible() == sv.visible()
            a = bots[seat].act(jv)
            assert a == bots[seat].act(sv)
            m.apply(seat, a)
            n += 1
    assert n > 50


def test_view_holds_no_hidden_information() -> None:
    st = HandState.new(RuleSet.preset("kaikoufan"), 0, seed=b"x" * 32)
    v = SeatView.from_state(st, 1)
    fields = set(SeatView.__dataclass_fields__)
    assert not {"hands", "wall", "seed"} & fields
    assert v.hand == st.hands[1]
    # visible counts never exceed what the seat may know
    assert sum(v.visible()) == sum(st.hands[1]) + 1  # own tiles + indicator


def test_from_state_sets_every_field() -> None:
    """from_state fills the view field by field: a new field must not be forgotten."""
    import dataclasses

    st = HandState.new(RuleSet.preset("kaikoufan"), 0, seed=b"y" * 32)
    for copy in (True, False):
        v = SeatView.from_state(st, 0, copy=copy)
        built = SeatView(**{f.name: getattr(v, f.name) for f in dataclasses.fields(SeatView)})
        assert built == v
        assert v.legal == st.legal_actions(0) and v.hand_sizes == [14, 13, 13, 13]


def test_improving_draws_match_one_by_one_shanten() -> None:
    rng = random.Random(7)
    checked = 0
    for _ in range(300):
        counts = [0] * 34
        n = rng.choice([1, 2, 3, 4])
        for _j in range(3 * n + 1 - (w := rng.choice([0, 0, 1, 2]))):
            k = rng.randrange(34)
            while counts[k] >= 4:
                k = rng.randrange(34)
            counts[k] += 1
        ev = HandEval(counts, w, n)
        sh = ev.shanten
        got = ev.improving_draws(sh)
        want = []
        for k in near_kinds(counts):
            if counts[k] < 4:
                c = list(counts)
                c[k] += 1
                if regular_shanten(c, w, n) < sh:
                    want.append(k)
        assert got == want
        checked += bool(want)
    assert checked > 200


def test_fast_shanten_matches_analysis() -> None:
    rng = random.Random(4)
    for _ in range(400):
        wall = [k for k in range(34) for _ in range(4)]
        rng.shuffle(wall)
        n = rng.choice([13, 14, 10, 11, 7, 8])
        c = [0] * 34
        for k in wall[:n]:
            c[k] += 1
        w = rng.choice([0, 0, 1, 2])
        for _ in range(w):
            ks = [k for k in range(34) if c[k]]
            c[rng.choice(ks)] -= 1
        if w and 4 in c:
            continue  # analysis's exact fifth-copy path; bots use the plain estimate
        assert regular_shanten(c, w) == shanten(c, w), (c, w)


def test_big_hand_distances() -> None:
    assert pengpeng_distance(counts_from_str("111m222p333s444z5z"), 0, 4) == 0
    assert pengpeng_distance(counts_from_str("111m222p333s444z55z"), 0, 4) == -1
    assert qingyise_distance(counts_from_str("11123455678999m"), 0, 4, 0) == -1
    assert qingyise_distance(counts_from_str("1112345678999m"), 0, 4, 0) == 0
    assert qingyise_distance(counts_from_str("111234567899m1p"), 0, 4, 0) == 1


def _view(hand: str, *, melds: list[list[Meld]] | None = None, legal: list[Action] | None = None,
          laizi: str = "6m", wall: int = 60) -> SeatView:
    rules = RuleSet.preset("kaikoufan")
    setup = rules.setup(laizi=counts_from_str(laizi).index(1))
    counts = counts_from_str(hand)
    return SeatView(
        seat=0, rules=rules, setup=setup, dealer=0, phase="turn", turn=0, hand=counts,
        melds=melds or [[], [], [], []], rivers=[[], [], [], []],
        special_kongs=[[], [], [], []], special_discards=[[], [], [], []],
        hand_sizes=[sum(counts), 13, 13, 13], wall_remaining=wall,
        legal=legal if legal is not None else [Action("discard", k) for k in range(34) if counts[k]],
    )


def test_strong_lays_special_tiles_aside_and_takes_wins() -> None:
    v = _view("123m456p789s1122z7z")
    v.legal = [*v.legal, Action("special_kong", 33)]
    assert StrongBot().act(v) == Action("special_kong", 33)
    v.legal = [Action("tsumo"), *v.legal]
    assert StrongBot().act(v) == Action("tsumo")


def test_strong_avoids_feeding_a_quanqiuren_when_not_ready() -> None:
    # seat 1 has four exposed melds and one tile: any 2/5/8 may be its single wait
    melds: list[list[Meld]] = [[], [Meld("peng", 0, 2), Meld("peng", 10, 3),
                                    Meld("chi", 18, 0), Meld("peng", 29, 2)], [], []]
    hand = "139m19p5s1357z88s2m"  # far from ready; 5s and 2m are 2/5/8 tiles
    v = _view(hand, melds=melds)
    v.hand_sizes = [14, 1, 13, 13]
    choice = StrongBot().act(v)
    assert choice.type == "discard"
    assert choice.tile not in (1, 4, 7, 19, 22, 25, 10, 13, 16)  # no 2/5/8


def _replace_view(hand: str, melds: list[list[Meld]]) -> SeatView:
    """Seat 0 just declared a kong under kong_draw_choice: draw the replacement or not."""
    v = _view(hand, melds=melds, legal=[DRAW, NODRAW], wall=30)
    v.rules = RuleSet.preset("kaikoufan", kong_draw_choice=True)
    v.phase = "replace"
    v.hand_sizes = [sum(v.hand), 1, 13, 13]
    return v


def test_bots_choose_to_draw_after_a_kong_or_not() -> None:
    # seat 1: four exposed melds and one tile (a 全求人 that may wait on anything); seat 0 has
    # an ankong 9s and a hand five steps from ready: its safest tile (an honour, 0.95 ready ×
    # 0.09 wait × 0.6 pay × scale 10 × weight 2 ≈ 1.03) costs more than the hand is worth
    # (≈ 0.52), so strong and expert decline the replacement (不补) and discard nothing.
    melds: list[list[Meld]] = [[Meld("ankong", 26)], [Meld("peng", 0, 2), Meld("peng", 10, 3),
                                                      Meld("chi", 18, 0), Meld("peng", 29, 2)], [], []]
    far = _replace_view("139m19p5s1456z8s", melds)
    assert StrongBot().act(far) == NODRAW and make_bot("expert", 1).act(far) == NODRAW
    assert make_bot("greedy", 1).act(far) == DRAW  # greedy always draws
    # 3z instead of 4z: the fourth 3z in sight (seat 1 pengs three), a safe discard → draw
    assert StrongBot().act(_replace_view("139m19p5s1356z8s", melds)) == DRAW
    # a ready hand draws (杠上开花 is possible); so does one holding a 中 it can lay aside
    assert StrongBot().act(_replace_view("123m456p789s5s", melds)) == DRAW
    assert StrongBot().act(_replace_view("139m19p5s1457z8s", melds)) == DRAW
    # random picks among the legal actions: both in 40 tries
    rnd = make_bot("random", 3)
    assert {rnd.act(far) for _ in range(40)} == {DRAW, NODRAW}


def test_seat_control_switches_a_seat_to_a_bot_and_back() -> None:
    rules = RuleSet.preset("kaikoufan")
    m = Match(rules, seed=b"auto", max_hands=1)
    ctl = SeatControl({1: "greedy", 2: "greedy", 3: "random"}, seed=3, match=m)
    assert not ctl.is_auto(0)
    ctl.set_auto(0, True)
    assert m.auto[0]
    n = ctl.play_auto(m)
    assert n > 0 and m.over
    ctl.set_auto(0, False)
    assert not ctl.is_auto(0)
    with pytest.raises(ValueError):
        ctl.set_auto(4, True)


def test_bots_have_a_pasteable_repr() -> None:
    from laizi.bots.greedy import GreedyBot
    from laizi.bots.random_bot import RandomBot

    for bot in (GreedyBot(seed=3), StrongBot(seed=None), RandomBot(seed=7)):
        text = repr(bot)
        assert text == f"{type(bot).__name__}(seed={bot.seed!r})"
        again = eval(text, {"GreedyBot": GreedyBot, "StrongBot": StrongBot, "RandomBot": RandomBot})
        assert type(again) is type(bot) and again.seed == bot.seed
    assert repr(make_bot("strong", 5)) == "StrongBot(seed=5)"


def test_big_hand_targets() -> None:
    from laizi.bots.bighands import reachable_targets, target_distance

    nat = counts_from_str("1112345678999m")
    assert target_distance("qingyise0", nat, 0, 4) == qingyise_distance(nat, 0, 4, 0) == 0
    assert "qingyise0" in reachable_targets(nat, 0, [], luan_feng_jiang=False)
    jiang = counts_from_str("22558m22558p258s")
    assert "jiangyise" in reachable_targets(jiang, 0, [], luan_feng_jiang=True)
    assert "jiangyise" not in reachable_targets(jiang, 0, [], luan_feng_jiang=False)
    assert target_distance("jiangyise", jiang, 0, 4) == 0  # 13 tiles: ready
    assert target_distance("jiangyise", counts_from_str("22558m22558p2558s"), 0, 4) == -1
    with pytest.raises(ValueError, match="unknown big-hand target"):
        target_distance("qingyise7", nat, 0, 4)


def test_improving_kinds_cache_keeps_the_bound_apart() -> None:
    """The memo must not answer a query for one shanten bound with another's result."""
    from laizi.bots.greedy import improving_kinds

    nat = counts_from_str("1357m2468p19s125z")  # 13 tiles, no wilds
    ev = HandEval(nat, 0, 4)
    for sh in (ev.shanten + 1, ev.shanten, ev.shanten - 1):
        fresh = HandEval(nat, 0, 4).improving_draws(sh)
        assert improving_kinds(nat, 0, 4, sh) == fresh
    assert improving_kinds(nat, 0, 4, ev.shanten + 1) != improving_kinds(nat, 0, 4, ev.shanten)
