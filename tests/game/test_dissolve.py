"""解散 (Match.dissolve): the players end a match by vote. A hand in play ends as a draw with
no payments (``ryukyoku`` reason ``dissolved``), the scores of the finished hands stand
(zero-sum), every tile stays where it was (136), the match ends (``end_match`` reason
``dissolved``), and the log replays to the same match; between hands only the match ends."""

from __future__ import annotations

import random

import pytest

from laizi.game import EndReason, Match, MatchOverError
from laizi.game.replay import replay
from laizi.rules import RuleSet


def played(moves: int, seed: int, *, finish_hands: int = 0) -> Match:
    """A match after ``finish_hands`` whole hands and then ``moves`` more moves (random legal)."""
    rng = random.Random(seed)
    m = Match(RuleSet.preset("kaikoufan"), seed=bytes([seed]) * 32, auto_next=False)

    def move() -> None:
        s = m.to_act()[0]
        m.apply(s, rng.choice(m.legal_actions(s)))

    for _ in range(finish_hands):
        while not m.hand_over:
            move()
        m.start_next_hand()
    for _ in range(moves):
        if m.hand_over:
            break
        move()
    return m


@pytest.mark.parametrize("seed", range(6))
def test_dissolve_in_play_keeps_the_finished_hands(seed: int) -> None:
    m = played(moves=12 + seed, seed=seed, finish_hands=1 + seed % 2)
    assert not m.hand_over
    before = list(m.scores)
    hand = m.hand
    assert hand is not None
    m.dissolve()
    assert m.over and m.end_reason is EndReason.DISSOLVED
    assert m.scores == before and sum(m.scores) == 0  # the cut hand paid nothing
    assert hand.over and hand.payments == [0.0] * 4 and hand.result is None
    assert sum(hand.tile_total()) == 136
    types = [e["type"] for e in m.log[-4:]]
    assert types == ["ryukyoku", "end_hand", "scores", "end_match"]
    assert m.log[-4]["reason"] == "dissolved" and m.log[-1]["reason"] == "dissolved"
    again = replay(m.log)
    assert isinstance(again, Match) and again.over and again.log == m.log
    with pytest.raises(MatchOverError):
        m.dissolve()


def test_dissolve_between_hands_ends_only_the_match() -> None:
    m = played(moves=10_000, seed=3)  # the first hand to its end
    assert m.hand_over and not m.over
    n = len(m.log)
    m.dissolve()
    assert m.over and [e["type"] for e in m.log[n:]] == ["end_match"]
    assert replay(m.log).log == m.log
