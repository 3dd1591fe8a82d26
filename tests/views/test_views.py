"""The per-seat snapshot (:mod:`laizi.views`): one builder, one JSON writer, one reader.

Every seat's (and the spectator's) snapshot, at every step of matches with claims,
robbed kongs and finished hands, survives the JSON round trip unchanged; the JSON
view is exactly the snapshot's rendering; a finished hand reveals every hand, the
seed and the wall, a hand in play reveals nothing.
"""

from __future__ import annotations

import dataclasses
import json
import random
from collections.abc import Callable

import pytest

from laizi.bots import make_bot
from laizi.bots.base import SeatView as BotsSeatView
from laizi.game import Match
from laizi.rules import RuleSet
from laizi.views import (
    SeatView,
    from_json,
    meld_from_json,
    meld_to_json,
    seat_view,
    to_json,
    view,
)


def _drive(preset: str, seed: bytes, check: Callable[[Match, int | None], None]) -> int:
    rules = RuleSet.preset(preset)
    m = Match(rules, seed=seed, max_hands=2)
    bots = [make_bot("greedy", s) for s in range(4)]
    n = 0
    while not m.over:
        hand = m.hand
        assert hand is not None
        for seat in (0, 1, 2, 3, None):
            check(m, seat)
        for seat in m.to_act():
            if m.over or seat not in m.to_act():
                continue
            m.apply(seat, bots[seat].act(seat_view(hand, seat)))
            n += 1
    for seat in (0, 1, 2, 3, None):
        check(m, seat)
    return n


@pytest.mark.parametrize("preset", ["kaikoufan", "jiayu"])
def test_snapshot_round_trips_through_its_json(preset: str) -> None:
    rules = RuleSet.preset(preset)
    seen_over = []

    def check(m: Match, seat: int | None) -> None:
        hand = m.hand
        assert hand is not None
        sv = seat_view(hand, seat)
        js = to_json(sv)
        assert json.loads(json.dumps(js)) == js
        assert from_json(js, rules) == sv
        assert view(hand, seat) == js
        assert view(m, seat)["hand_view"] == js
        assert from_json(view(m, seat), rules) == sv
        if hand.over:
            seen_over.append(seat)
            assert sv.revealed is not None and sv.revealed.seed == hand.seed
            assert [sum(h) for h in sv.revealed.hands] == sv.hand_sizes
        else:
            assert sv.revealed is None
            assert not {"hands", "seed", "wall"} & set(js)

    assert _drive(preset, b"views-" + preset.encode(), check) > 50
    assert seen_over  # finished hands were checked too


def test_spectator_and_seat_snapshots_hold_only_what_they_may_know() -> None:
    rules = RuleSet.preset("kaikoufan")
    m = Match(rules, seed=b"views-private", max_hands=1)
    hand = m.hand
    assert hand is not None
    spec = seat_view(hand, None)
    assert spec.spectator and spec.legal == [] and spec.hand == [0] * 34
    assert "me" not in to_json(spec) and to_json(spec)["to_act"] is None
    for seat in range(4):
        sv = seat_view(hand, seat)
        assert sv.hand == hand.hands[seat] and not sv.spectator
        assert sv.legal == hand.legal_actions(seat)
    # Reveal is explicit (the replay of a finished hand) or automatic after the hand.
    rv = seat_view(hand, None, reveal=True)
    assert rv.revealed is not None and rv.revealed.hands == hand.hands
    assert rv.revealed.seed is None and rv.revealed.wall is None


def test_one_meld_json_helper_round_trips() -> None:
    from laizi.scoring import Meld

    for text in ("chi 345m from 1", "peng 9p from 3", "kong 8p from 2", "addkong 1s from 0",
                 "ankong 7z"):
        m = Meld.parse(text)
        for as_list in (False, True):
            d = meld_to_json(m, tiles_as_list=as_list)
            assert meld_from_json(d) == m
    with pytest.raises(ValueError):
        meld_from_json({"type": "pong", "tile": "1m"})


def test_reader_accepts_one_schema_only() -> None:
    flat = {"seat": 0, "hand": "123m", "players": [{}, {}, {}, {}], "legal": [],
            "indicator": "1m"}
    with pytest.raises(ValueError):
        from_json(flat)
    with pytest.raises(ValueError):
        SeatView.from_json({"match": {"preset": "kaikoufan"}, "hand_view": None})


def test_bots_see_the_same_class_and_fields() -> None:
    assert BotsSeatView is SeatView
    names = [f.name for f in dataclasses.fields(SeatView)]
    assert names[:19] == [
        "seat", "rules", "setup", "dealer", "phase", "turn", "hand", "melds", "rivers",
        "special_kongs", "special_discards", "hand_sizes", "wall_remaining", "legal",
        "pending", "last_draw", "after_claim", "indicator", "_visible",
    ]


def _mutate(obj: object, rng: random.Random) -> object:
    """A copy of a JSON value with one random change somewhere inside."""
    junk = [None, 0, -1, 7, 99, 2.5, "", "9z", "xx", [], {}, [1, 2], {"a": 1}, True]
    if isinstance(obj, dict) and obj and rng.random() < 0.8:
        d = dict(obj)
        k = rng.choice(sorted(d))
        r = rng.random()
        if r < 0.3:
            del d[k]
        elif r < 0.6:
            d[k] = rng.choice(junk)
        else:
            d[k] = _mutate(d[k], rng)
        return d
    if isinstance(obj, list) and obj and rng.random() < 0.8:
        xs = list(obj)
        i = rng.randrange(len(xs))
        xs[i] = _mutate(xs[i], rng) if rng.random() < 0.6 else rng.choice(junk)
        return xs
    return rng.choice(junk)


def test_bad_views_raise_value_error_only() -> None:
    from laizi.server.tables.frames import frame_view, read_view
    from laizi.views import match_view

    rules = RuleSet.preset("kaikoufan")
    m = Match(rules, seed=b"views-fuzz", max_hands=1)
    bots = [make_bot("greedy", s) for s in range(4)]
    samples: list[tuple[object, object]] = []
    while not m.over and len(samples) < 40:
        seat = m.to_act()[0]
        samples.append((view(m, seat), frame_view(match_view(m, seat), {**rules.model_dump()})))
        hand = m.hand
        assert hand is not None
        m.apply(seat, bots[seat].act(seat_view(hand, seat)))
    rng = random.Random(5)
    ok = bad = 0
    for _ in range(3000):
        jv, fv = rng.choice(samples)
        for reader, value in ((from_json, jv), (read_view, fv)):
            try:
                reader(_mutate(value, rng), rules)
                ok += 1
            except ValueError:
                bad += 1
    assert ok > 100 and bad > 100


def test_table_fan_is_public_and_waits_go_only_to_their_seat() -> None:
    """番 on the table (issue 23): every seat's frame (and the spectator's) shows the same
    public fan of each seat — the scorer's table_fan — while a seat's scored waits are in its
    own frame only: another seat's frame never contains them. After its own draw a seat's
    frame keeps the waits of its hand before the draw (it holds none itself then)."""
    from laizi.hints import ready_waits
    from laizi.scoring import table_fan
    from laizi.server.tables.frames import frame_view
    from laizi.views import match_view

    rules = RuleSet.preset("kaikoufan")
    rj = rules.model_dump(mode="json")
    ready_seen = fan_seen = held_seen = 0
    for seed in (b"fan-a", b"fan-b", b"fan-c"):
        m = Match(rules, seed=seed, max_hands=1)
        bots = [make_bot("greedy", s) for s in range(4)]
        while not m.over:
            hand = m.hand
            assert hand is not None
            frames = {s: frame_view(match_view(m, s), rj) for s in (0, 1, 2, 3, None)}
            sv = {s: seat_view(hand, s) for s in range(4)}
            for s in range(4):
                fans = {json.dumps([p["fan"], p["fan_items"], p["standing"]]) for f in frames.values()
                        for p in [f["players"][s]]}
                assert len(fans) == 1  # the same in every frame: public
                want = table_fan(rules, sv[s].setup.laizi, sv[s].melds[s], sv[s].special_kongs[s],
                                 sv[s].special_discards[s])
                assert frames[None]["players"][s]["fan"] == want
                fan_seen += want > 0
            assert "waits" not in frames[None]
            for s in range(4):
                v = sv[s]
                if v.last_draw is not None and v.phase != "over" and sum(v.hand) % 3 == 2:
                    # after its own draw: the waits of its hand before the draw
                    before = list(v.hand)
                    before[v.last_draw] -= 1
                    v = dataclasses.replace(v, hand=before, last_draw=None, legal=[], _visible=None)
                    assert ready_waits(sv[s], scores=True) == []
                    held_seen += v is not sv[s] and bool(frames[s]["waits"])
                mine = ready_waits(v, scores=True)
                assert frames[s]["waits"] == mine
                if not mine:
                    continue
                ready_seen += 1
                for w in mine:  # what a win on it pays, from the scorer, for this seat only
                    assert set(w) >= {"tile", "unseen", "self_draw", "discard", "enough"}
                    assert w["enough"] == (w["self_draw"]["ok"] or w["discard"]["ok"])
                text = json.dumps(mine, ensure_ascii=False)
                for o in (0, 1, 2, 3, None):
                    if o != s:
                        assert text not in json.dumps(frames[o], ensure_ascii=False), (s, o)
            for seat in m.to_act():
                if m.over or seat not in m.to_act():
                    continue
                m.apply(seat, bots[seat].act(seat_view(hand, seat)))
    assert ready_seen > 10 and fan_seen > 10 and held_seen > 10
