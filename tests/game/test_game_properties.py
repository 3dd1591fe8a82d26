"""Property tests: random legal play through whole matches for every preset."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from laizi.game import Action, HandState, Match
from laizi.game.replay import dump_log, parse_log, replay
from laizi.rules import RuleSet
from laizi.views import events_for, hand_log, view
from support.game_helpers import PRESETS, hidden_ok
from support.policies import greedy_policy, random_hand, random_policy

KONGS = ("ankong", "addkong", "special_kong", "laizi_kong", "kong")


#: The sources' house rules of the engine and the scorer (docs/rules.md §2, §7.3-§7.5, §8, §9).
HOUSE = st.fixed_dictionaries({}, optional={
    "haidi_start": st.sampled_from(["seven_stacks", "five_stacks"]), "haidi_kongs": st.booleans(),
    "seating_ceremony": st.booleans(), "rounds_per_wind": st.sampled_from([4, 5]),
    "winds": st.sampled_from([0, 1]), "kuangfeng_baoyu": st.booleans(), "xiaoyu_258": st.booleans(),
    "qianggang_fixed": st.sampled_from([0, 100]), "fengyise_golden": st.booleans(),
    "pay_min_fan": st.integers(0, 6), "fanbao": st.booleans(), "guoshou": st.booleans(),
    "quanqiuren_liability": st.sampled_from(["unless_ready", "always", "none"]),
    "kong_draw_choice": st.booleans(),
})


def check_step(hand: HandState) -> None:
    assert hand.tile_total() == [4] * 34
    rules = hand.rules
    for seat in hand.to_act():
        legal = hand.legal_actions(seat)
        assert legal, f"seat {seat} must act but has no legal action"
        if hand.wall_remaining <= rules.haidi_wall and not rules.haidi_kongs:
            assert not any(a.type in KONGS for a in legal)
    if hand.phase == "haidi":
        legal = hand.legal_actions(hand.turn)
        if rules.haidi_kongs:
            assert Action("pass") in legal and all(a.type in ("tsumo", "pass", *KONGS) for a in legal)
            assert len(legal) > 1  # asked only to win or to kong
        else:
            assert legal == [Action("tsumo"), Action("pass")]
    if hand.phase == "replace":  # kong_draw_choice: 补 or 不补, right after a kong, 13 at rest
        assert rules.kong_draw_choice and hand.wall_remaining > rules.haidi_wall
        assert hand.legal_actions(hand.turn) == [Action("draw"), Action("nodraw")]
        s = hand.turn
        assert hand.concealed_count(s) + 3 * len(hand.melds[s]) == 13


def check_view(hand: HandState, seat: int | None) -> None:
    """A view holds nothing hidden: it is unchanged when hidden information changes."""
    v = view(hand, seat)
    json.dumps(v)
    if not hand.over:
        assert "wall" not in v and "seed" not in v and "hands" not in v
        text = json.dumps(v)
        if hand.seed is not None:
            assert hand.seed.hex() not in text
    for o in range(4):
        if o == seat or hand.over:
            continue
        # Swap one of seat o's concealed tiles with an undrawn wall tile of another kind.
        mine = [k for k in range(34) if hand.hands[o][k]]
        wall_pos = [p for p in range(hand.front, hand.back + 1) if hand.wall[p] not in mine]
        if not mine or not wall_pos:
            continue
        clone = hand.clone()
        k, p = mine[0], wall_pos[0]
        clone.hands[o][k] -= 1
        clone.hands[o][clone.wall[p]] += 1
        w = list(clone.wall)
        w[p] = k
        clone.wall = tuple(w)
        assert view(clone, seat) == v, f"seat {seat}'s view depends on seat {o}'s hidden tiles"
        break


def drive_match(preset: str, seed: int, *, max_hands: int = 3, views_every: int = 0,
                escape: bool = True, options: dict[str, Any] | None = None) -> Match:
    rng = random.Random(seed)
    rules = RuleSet.preset(preset, **(options or {}))
    m = Match(rules, seed=rng.randbytes(32), first_dealer=rng.randrange(4), max_hands=max_hands)
    if rng.random() < 0.5:
        policy = greedy_policy(rng, claim=rng.random())
    else:
        policy = random_policy(rng, claim=rng.random(), kong=rng.random())
    steps = 0
    hand_steps = 0
    current = m.hand_no
    while not m.over:
        hand = m.hand
        assert hand is not None
        if m.hand_no != current:
            current, hand_steps = m.hand_no, 0
        check_step(hand)
        if views_every and steps % views_every == 0:
            for seat in (None, 0, 1, 2, 3):
                check_view(hand, seat)
        if escape and rng.random() < 0.002 and not all(m.escaped):
            m.escape(rng.choice([s for s in range(4) if not m.escaped[s]]))
        seat = rng.choice(hand.to_act())
        m.apply(seat, policy(hand, seat, hand.legal_actions(seat)))
        assert sum(m.scores) == 0
        steps += 1
        hand_steps += 1
        assert hand_steps < 1000, "a hand did not terminate"
    final = m.hand
    assert final is not None and final.over
    assert m.hand_no == max_hands or m.deal_passes == 4 * rules.match_rounds
    dealer = m.first_dealer
    for h in m.history:  # 连庄 on a dealer win or a draw, else the dealer's 下家 deals
        assert h["dealer"] == dealer
        if h["winner"] is not None and h["winner"] != dealer:
            dealer = (dealer + 1) % 4
        assert sum(h["deltas"]) == pytest.approx(0)
    assert m.dealer == dealer
    assert final.tile_total() == [4] * 34
    assert sum(final.payments or []) == pytest.approx(0)
    return m


@pytest.mark.slow
@pytest.mark.parametrize("preset", PRESETS)
@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1))
def test_random_matches(preset: str, seed: int) -> None:
    m = drive_match(preset, seed, max_hands=4, views_every=7)
    again = replay(parse_log(dump_log(m.log)))
    assert isinstance(again, Match)
    assert again.hash() == m.hash()
    assert again.scores == m.scores


@pytest.mark.parametrize("preset", PRESETS)
@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), options=HOUSE)
def test_random_matches_with_house_rules(preset: str, seed: int, options: dict[str, Any]) -> None:
    """Zero-sum scores, 136 tiles, legal actions and exact replays with the house rules on."""
    m = drive_match(preset, seed, max_hands=2, views_every=11, options=options)
    again = replay(parse_log(dump_log(m.log)))
    assert isinstance(again, Match) and again.hash() == m.hash() and again.scores == m.scores


@pytest.mark.parametrize("preset", PRESETS)
@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), options=HOUSE)
def test_random_matches_with_kong_draw_choice(preset: str, seed: int, options: dict[str, Any]) -> None:
    """The same with 补/不补 after every kong (kong_draw_choice) always on."""
    m = drive_match(preset, seed, max_hands=2, views_every=5,
                    options={**options, "kong_draw_choice": True})
    again = replay(parse_log(dump_log(m.log)))
    assert isinstance(again, Match) and again.hash() == m.hash() and again.scores == m.scores


class MatchMachine(RuleBasedStateMachine):
    """Hypothesis picks every action (and escapes) of a short match."""

    def __init__(self) -> None:
        super().__init__()
        self.m: Match | None = None

    @initialize(preset=st.sampled_from(PRESETS), seed=st.binary(min_size=32, max_size=32),
                dealer=st.integers(0, 3), options=HOUSE)
    def start(self, preset: str, seed: bytes, dealer: int, options: dict[str, Any]) -> None:
        rules = RuleSet.preset(preset, **options)
        self.m = Match(rules, seed=seed, first_dealer=dealer, max_hands=2)

    @precondition(lambda self: self.m is not None and not self.m.over)
    @rule(pick=st.integers(0, 10**6), which=st.integers(0, 10**6))
    def act(self, pick: int, which: int) -> None:
        m = self.m
        assert m is not None and m.hand is not None
        seats = m.to_act()
        seat = seats[which % len(seats)]
        legal = m.legal_actions(seat)
        # Mostly discards/passes so hands reach their end within the step budget.
        plain = [a for a in legal if a.type in ("discard", "pass")] or legal
        choices = legal if pick % 4 == 0 else plain
        m.apply(seat, choices[pick % len(choices)])

    @precondition(lambda self: self.m is not None and not self.m.over)
    @rule(seat=st.integers(0, 3))
    def escape(self, seat: int) -> None:
        m = self.m
        assert m is not None
        if not m.escaped[seat]:
            m.escape(seat)

    @invariant()
    def conserved(self) -> None:
        m = self.m
        if m is None or m.hand is None:
            return
        assert m.hand.tile_total() == [4] * 34
        assert sum(m.scores) == 0
        check_step(m.hand)
        for seat in (0, 1, 2, 3):
            hidden_tiles_absent(m, seat)

    def teardown(self) -> None:
        if self.m is not None:
            again = replay(parse_log(dump_log(self.m.log)))
            assert again.hash() == self.m.hash()


def hidden_tiles_absent(m: Match, seat: int) -> None:
    hand = m.hand
    assert hand is not None
    v: dict[str, Any] = view(m, seat)
    hv = v["hand_view"]
    if not hand.over:
        assert "hands" not in hv and "wall" not in hv
        assert "me" in hv and hv["me"]["seat"] == seat
        for other in hv["seats"]:
            assert set(other) == {"seat", "melds", "river", "special_kongs",
                                  "special_discards", "concealed", "opened"}


TestMatchMachine = MatchMachine.TestCase
TestMatchMachine.settings = settings(max_examples=15, stateful_step_count=120, deadline=None,
                                     suppress_health_check=[HealthCheck.too_slow])


def test_event_streams_hide_other_seats() -> None:
    m = drive_match("kaikoufan", 7, max_hands=2, escape=False)
    hand = m.hand
    assert hand is not None
    for seat in (None, 0, 1, 2, 3):
        hidden_ok(hand, seat)
        stream = events_for(m, seat)
        assert [e["v"] for e in stream] == list(range(1, len(stream) + 1))
        for e in stream:
            assert e["type"] != "secret"
            if e["type"] in ("deal", "draw") and e["seat"] != seat:
                assert "tile" not in e and "tiles" not in e
            if e["type"] == "response":
                assert e["seat"] == seat
        assert events_for(m, seat, since=5) == stream[5:]
    # Finished hands are public in full.
    full = hand_log(m, 1)
    assert full[0]["type"] == "start_hand" and full[-1]["type"] == "end_hand"
    assert any(e["type"] == "secret" for e in full)


@pytest.mark.slow
def test_replay_determinism_1000_hands() -> None:
    hashes = []
    wins = 0
    for i in range(1000):
        preset = PRESETS[i % len(PRESETS)]
        h = random_hand(RuleSet.preset(preset), 10_000 + i, greedy=i % 2 == 1)
        assert h.over and h.tile_total() == [4] * 34
        again = replay(parse_log(dump_log(h.log)))
        assert isinstance(again, HandState)
        assert again.hash() == h.hash(), f"hand {i} ({preset})"
        assert again.payments == h.payments
        hashes.append(h.hash())
        wins += h.result is not None
    assert len(set(hashes)) == 1000
    assert wins > 200


def test_replay_rejects_a_changed_decision() -> None:
    h = random_hand(RuleSet.preset("kaikoufan"), 3)
    log = parse_log(dump_log(h.log))
    i = next(i for i, e in enumerate(log) if e["type"] == "discard" and i > 60)
    bad = [dict(e) for e in log]
    bad[i]["tile"] = "9m" if bad[i]["tile"] != "9m" else "1m"
    from laizi.game import ReplayError

    with pytest.raises(ReplayError):
        replay(bad)
