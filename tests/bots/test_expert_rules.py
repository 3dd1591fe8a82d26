"""The expert's decision rules on top of ``strong``: each reads the view only, the
claim rule reproduces ``strong`` at ``strong``'s numbers, and an arena with the expert
is reproducible. (Strength itself is shown by ``laizi arena``, not here.)"""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from laizi.analysis.profiles import shanten258
from laizi.arena import arena
from laizi.bots.base import SeatView
from laizi.bots.experimental.block import block_action, hopeless
from laizi.bots.experimental.claims import RuleParams, claim_choice
from laizi.bots.experimental.expert import ExperimentalExpert, Experiments
from laizi.bots.experimental.ready import ready_price
from laizi.bots.expert import ExpertBot
from laizi.bots.expert_rules import acceptance_choice, strong_tie_break
from laizi.bots.greedy import natural
from laizi.bots.registry import make_bot
from laizi.bots.strong import StrongBot
from laizi.bots.toolkit import completing_kinds
from laizi.game.actions import Action
from laizi.game.state import HandState
from laizi.rules import RuleSet
from support.positions import advance, hidden_shuffled

RULES = RuleSet.preset("kaikoufan")


def _views(seeds: range) -> Iterator[tuple[HandState, SeatView]]:
    """Every decision with a choice in hands of four ``strong`` bots."""
    for seed in seeds:
        st = HandState.new(RULES, seed % 4, seed=seed.to_bytes(32, "big"))
        bots = [make_bot("strong", seed + s) for s in range(4)]
        while not st.over:
            for seat in st.to_act():
                legal = st.legal_actions(seat)
                view = SeatView.from_state(st, seat, legal)
                if len(legal) > 1:
                    yield st, view
                st.apply(seat, bots[seat].act(view))
                if st.over:
                    break


def test_claim_rule_at_strongs_numbers_is_strong() -> None:
    claims = 0
    for _st, view in _views(range(6)):
        if view.phase != "claim" or any(a.type == "ron" for a in view.legal):
            continue
        strong = StrongBot(1)
        assert claim_choice(strong, view, RuleParams()) == strong.claim_action(view)
        claims += 1
    assert claims > 10


def test_eager_opening_takes_every_claim_strong_takes_and_more() -> None:
    """A lower value for an unopened hand never passes a claim ``strong`` takes."""
    more = 0
    for _st, view in _views(range(8)):
        if view.phase != "claim" or view.opened() or any(a.type == "ron" for a in view.legal):
            continue
        strong = StrongBot(1)
        mine = claim_choice(strong, view, RuleParams(unopened_discount=0.3))
        theirs = strong.claim_action(view)
        if theirs.type != "pass":
            assert mine.type != "pass"
        more += mine.type != "pass" and theirs.type == "pass"
    assert more >= 1


def _base_and_shanten(strong: StrongBot, view: SeatView) -> dict[Action, tuple[float, int]]:
    """``strong``'s value of each discard without its tie-break, and the 2/5/8-pair
    shanten it leaves."""
    nat, wilds = natural(view)
    n = 4 - len(view.melds[view.seat])
    discards = [a for a in view.legal if a.type == "discard" and a.tile is not None
                and a.tile != view.laizi and a.tile not in view.special]
    out = {}
    for s, a in strong.rank_discards_strong(view, discards, nat, wilds):
        k = a.tile or 0
        nat[k] -= 1
        out[a] = (s - _tie_of(nat, k), shanten258(nat, wilds, n))
        nat[k] += 1
    return out


def _tie_of(nat_after: list[int], k: int) -> float:
    nat = list(nat_after)
    nat[k] += 1
    return strong_tie_break(nat, k)


@pytest.mark.parametrize("tolerance", [0.0, 0.05])
def test_acceptance_choice_keeps_strongs_value(tolerance: float) -> None:
    """The tie-break picks among the discards ``strong`` values (nearly) as high as its
    best, and never one leaving the small hand further from ready than its own choice."""
    changed = 0
    for _st, view in _views(range(4)):
        if view.phase != "turn" or not any(a.type == "discard" for a in view.legal):
            continue
        strong = StrongBot(1)
        default = strong.act(view)
        if default.type != "discard" or default.tile in view.special:
            continue
        got = acceptance_choice(strong, view, default, tolerance)
        assert got in view.legal and got.type == "discard"
        if got != default:
            table = _base_and_shanten(strong, view)
            top = max(v for v, _sh in table.values())
            assert table[got][0] >= top - tolerance * abs(top) - 1e-9
            assert table[got][1] <= table[default][1]
            changed += 1
    assert changed >= 1


def test_block_mode_passes_and_keeps_special_tiles() -> None:
    seen = 0
    for _st, view in _views(range(10)):
        if not hopeless(view, 4):
            continue
        a = block_action(StrongBot(1), view)
        assert a in view.legal
        if view.phase == "claim":
            assert a.type == "pass"
        elif a.type == "discard":
            assert a.tile != view.laizi and a.tile not in view.special
        seen += 1
    assert seen > 0


def test_ready_price_is_none_unless_ready_and_pays_when_ready() -> None:
    ready = 0
    for _st, view in _views(range(6)):
        if view.phase != "turn":
            continue
        hand = list(view.hand)
        for a in view.legal:
            if a.type != "discard" or a.tile is None:
                continue
            hand[a.tile] -= 1
            price = ready_price(view, hand, a.tile)
            if not completing_kinds(view, hand):
                assert price is None
            else:
                assert price is not None and price.payment >= 0 and 0 <= price.win_prob <= 1
                ready += price.payment > 0
            hand[a.tile] += 1
    assert ready > 0


@pytest.mark.parametrize("seed", [4, 9, 17])
def test_default_expert_sees_only_its_view(seed: int) -> None:
    """The default policy (no search) too: hidden tiles dealt anew, same choice."""
    st = advance(RULES, seed, 8 + seed % 7, bot="strong")
    if st.over:
        pytest.skip("hand ended early")
    me = st.turn
    other = hidden_shuffled(st, me, random.Random(seed))
    v1 = SeatView.from_state(st, me)
    v2 = SeatView.from_state(other, me)
    assert ExpertBot(7).act(v1) == ExpertBot(7).act(v2)
    ex = Experiments(ready_rule=True, fold_shanten=3)
    assert (ExperimentalExpert(7, experiments=ex).act(v1)
            == ExperimentalExpert(7, experiments=ex).act(v2))


def test_arena_with_the_expert_is_reproducible() -> None:
    lineup = ["expert", "strong", "strong", "strong"]
    a = arena(2, lineup=lineup, seed=11)
    b = arena(2, lineup=lineup, seed=11)
    assert a.zero_sum()
    assert a.to_json(timing=False) == b.to_json(timing=False)
    assert a.to_json()["bots"][0]["decision_ms"]["p50"] >= 0
