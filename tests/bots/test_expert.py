"""The expert bot: positions rebuilt from a view's world, decisions from the view alone."""

from __future__ import annotations

import random

import pytest

from laizi.bots.base import SeatView
from laizi.bots.experimental.expert import ExperimentalExpert, Experiments
from laizi.bots.experimental.search import SearchConfig
from laizi.bots.registry import make_bot
from laizi.game.position import PositionError
from laizi.game.state import HandState
from laizi.rules import RuleSet
from support.positions import advance, hidden_shuffled, rebuild

# the search (laizi.bots.experimental), made small
FAST = Experiments(search=SearchConfig(worlds=3, max_candidates=3, search="open"))


def ExpertBot(seed: int, experiments: Experiments) -> ExperimentalExpert:  # noqa: N802
    """The expert with the search."""
    return ExperimentalExpert(seed, experiments=experiments)


def _finish(st: HandState, seed: int) -> list[float]:
    bots = [make_bot("greedy", seed + s) for s in range(4)]
    while not st.over:
        for seat in st.to_act():
            legal = st.legal_actions(seat)
            st.apply(seat, bots[seat].act(SeatView.from_state(st, seat, legal)))
            if st.over:
                break
    return list(st.payments or [])


@pytest.mark.parametrize("preset", ["kaikoufan", "jiayu", "qipisilai"])
@pytest.mark.parametrize("seed", [3, 8, 21])
def test_position_rebuilds_the_same_game(preset: str, seed: int) -> None:
    rules = RuleSet.preset(preset)
    st = advance(rules, seed, 12 + seed)
    if st.over:
        pytest.skip("hand ended early")
    twin = rebuild(st)
    assert twin.tile_total() == [4] * 34
    assert twin.wall_remaining == st.wall_remaining
    assert twin.legal_actions(st.turn) == st.legal_actions(st.turn)
    assert _finish(twin, seed) == _finish(st.clone(), seed)


def test_position_refuses_a_table_that_does_not_add_up() -> None:
    st = advance(RuleSet.preset("kaikoufan"), 5, 10)
    hands = [list(h) for h in st.hands]
    k = next(i for i in range(34) if hands[(st.turn + 1) % 4][i])
    hands[(st.turn + 1) % 4][k] -= 1  # a tile vanishes
    with pytest.raises(PositionError):
        rebuild(st, hands=hands)


@pytest.mark.parametrize("seed", [4, 9, 17, 30])
def test_expert_sees_only_its_view(seed: int) -> None:
    """Altering every hidden tile leaves the view — and so the expert's choice — unchanged."""
    st = advance(RuleSet.preset("kaikoufan"), seed, 8 + seed % 7)
    if st.over:
        pytest.skip("hand ended early")
    me = st.turn
    other = hidden_shuffled(st, me, random.Random(seed))
    assert other.hands != st.hands or other.wall != st.wall
    v1 = SeatView.from_state(st, me)
    v2 = SeatView.from_state(other, me)
    assert v1.hand == v2.hand and v1.legal == v2.legal and v1.unseen() == v2.unseen()
    a1 = ExpertBot(7, FAST).act(v1)
    a2 = ExpertBot(7, FAST).act(v2)
    assert a1 == a2
    assert a1 in v1.legal


def test_expert_is_deterministic_and_searches() -> None:
    st = advance(RuleSet.preset("kaikoufan"), 12, 14)
    view = SeatView.from_state(st, st.turn)
    bot = ExpertBot(3, FAST)
    first = bot.act(view)
    assert all(ExpertBot(3, FAST).act(view) == first for _ in range(2))
    cands = [a for a in view.legal if a.type == "discard"][:3]
    values = bot.evaluate(view, cands)
    assert len(values) == len(cands)
    assert values == bot.evaluate(view, cands)


def test_expert_takes_a_win_and_answers_claims() -> None:
    """A whole hand with the expert at one seat: legal moves only, tiles conserved."""
    rules = RuleSet.preset("kaikoufan")
    st = HandState.new(rules, 0, seed=b"expert-hand".ljust(32, b"\0"))
    bots = [ExpertBot(1, FAST)] + [make_bot("strong", s) for s in (2, 3, 4)]
    while not st.over:
        for seat in st.to_act():
            legal = st.legal_actions(seat)
            a = bots[seat].act(SeatView.from_state(st, seat, legal))
            assert a in legal
            if any(x.type in ("tsumo", "ron") for x in legal) and seat == 0:
                assert a.type in ("tsumo", "ron")
            st.apply(seat, a)
            assert st.tile_total() == [4] * 34
            if st.over:
                break
    assert abs(sum(st.payments or [])) < 1e-9
    assert bots[0].searches > 0
    assert repr(bots[0]).startswith("ExperimentalExpert(seed=1, ")
