"""Test helpers: hands advanced by bots, and the same table rebuilt or with its hidden
tiles dealt anew (through :func:`laizi.game.position.position`)."""

from __future__ import annotations

import random

from laizi.bots.registry import make_bot
from laizi.game.position import position
from laizi.game.state import HandState
from laizi.rules import RuleSet
from laizi.tiles import NUM_KINDS
from laizi.views import SeatView


def advance(rules: RuleSet, seed: int, steps: int, bot: str = "greedy") -> HandState:
    """A hand played by ``bot`` at every seat for ``steps`` decisions, stopping at a turn
    decision with a choice (or at the hand's end)."""
    st = HandState.new(rules, seed % 4, seed=seed.to_bytes(32, "big"))
    bots = [make_bot(bot, seed + s) for s in range(4)]
    n = 0
    while not st.over:
        for seat in st.to_act():
            legal = st.legal_actions(seat)
            if n >= steps and st.phase == "turn" and len(legal) > 1:
                return st
            st.apply(seat, bots[seat].act(SeatView.from_state(st, seat, legal)))
            n += 1
            if st.over:
                break
    return st


def rebuild(st: HandState, hands: list[list[int]] | None = None,
            live: list[int] | None = None) -> HandState:
    """The same table as a fresh position (other ``hands`` / ``live`` wall if given)."""
    return position(st.rules, dealer=st.dealer, indicator=st.indicator,
                    hands=hands if hands is not None else st.hands, melds=st.melds,
                    rivers=st.rivers, special_kongs=st.special_kongs,
                    special_discards=st.special_discards,
                    live_wall=live if live is not None else list(st.wall[st.front:st.back + 1]),
                    turn=st.turn, last_draw=st.last_draw, after_claim=st.after_claim,
                    after_kong=st.after_kong)


def hidden_shuffled(st: HandState, seat: int, rng: random.Random,
                    keep: tuple[int, int] | None = None) -> HandState:
    """The same table seen from ``seat`` with every tile it cannot see dealt anew
    (``keep``: (seat, kind) — that seat still holds that kind)."""
    pool: list[int] = []
    for s in range(4):
        if s != seat:
            for k in range(NUM_KINDS):
                pool.extend([k] * st.hands[s][k])
    pool.extend(st.wall[st.front:st.back + 1])
    rng.shuffle(pool)
    hands = [list(h) for h in st.hands]
    pos = 0
    for s in range(4):
        if s == seat:
            continue
        n = sum(st.hands[s])
        if keep is not None and keep[0] == s and keep[1] not in pool[pos:pos + n]:
            j = pool.index(keep[1], pos + n)
            pool[pos], pool[j] = pool[j], pool[pos]
        hands[s] = [0] * NUM_KINDS
        for k in pool[pos:pos + n]:
            hands[s][k] += 1
        pos += n
    return rebuild(st, hands, pool[pos:])
