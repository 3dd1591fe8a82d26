"""The server's cached frame texts say exactly what the reference projections say.

:meth:`GameSession.view_json` (the public part built once per version plus a small
private part per seat) must equal :meth:`GameSession.view` (each seat's snapshot,
:func:`laizi.views.match_view`, rendered by :mod:`laizi.server.tables.frames`), a frame read
back is the seat's snapshot, and the seats' event streams (serialised once, shared
between seats) must equal :func:`laizi.views.events_for`, at every step of matches
with claims, 托管 changes, escapes and hand ends.
"""

from __future__ import annotations

import dataclasses
import json
import random
from typing import Any

from laizi.rules import RuleSet
from laizi.server.common.delta import expand_snapshot, unshape
from laizi.server.tables.engine import STREAM_KEEP, GameSession, SeatStream, seed_from_text
from laizi.server.tables.frames import EVENT_SHAPES, read_view
from laizi.views import events_for, seat_view

SEATS = (0, 1, 2, 3, None)
# What a frame does not carry: the after-claim flag, a seat's own claim answer, the wall.
NOT_IN_FRAMES = {"after_claim", "answered", "_visible", "revealed"}


def check_read_back(g: GameSession, seat: int | None) -> None:
    hand = g.match.hand
    if hand is None:
        return
    got = read_view(g.view(seat), g.rules)
    want = seat_view(hand, seat)
    if g.over:
        want.legal = []  # frames offer no action once the match is over
    for f in dataclasses.fields(want):
        if f.name not in NOT_IN_FRAMES:
            assert getattr(got, f.name) == getattr(want, f.name), (seat, f.name)
    if want.revealed is None:
        assert got.revealed is None
    else:
        assert got.revealed is not None and got.revealed.hands == want.revealed.hands
        assert got.revealed.seed == want.revealed.seed


def check(g: GameSession, read_back: bool = True) -> None:
    for seat in SEATS:
        assert json.loads(g.view_json(seat)) == g.view(seat), seat
        if read_back:
            check_read_back(g, seat)
        stream = g.stream(seat)
        ref = events_for(g.match, seat)
        assert stream.v == len(ref)
        # as a snapshot carries them (its ``e``), made whole by the client: the seat's own
        # version each (no global "v" travels: the applier numbers them), the start's rules
        # only in the view
        texts = stream.last(len(stream.items))
        whole = expand_snapshot({"v": stream.v, "e": [json.loads(t) for t in texts]}, EVENT_SHAPES)
        want = [{k: x for k, x in e.items() if not (e["type"] == "start_match" and k == "rules")}
                for e in ref[stream.base:]]
        assert whole["events"] == want
        for t in texts:
            assert '"v":' not in t and '"rules":' not in t, t
        for t, e in zip(stream.items, want, strict=True):
            short = {k: x for k, x in e.items() if k != "v" and (k, x) != ("vis", "public")}
            assert unshape(json.loads(t), EVENT_SHAPES) == short
            assert t.startswith("[") or not any(  # every event of a shape travels as one
                sh[0] == e["type"] and set(sh[1:]) == set(short) - {"type"} for sh in EVENT_SHAPES)


def test_cached_views_and_streams_equal_the_reference_projections() -> None:
    rng = random.Random(7)
    for game_no in range(3):
        g = GameSession(RuleSet.preset("kaikoufan", rounds=1), seed_from_text(f"frames{game_no}"),
                        max_hands=3)
        check(g)
        steps = 0
        while not g.over and steps < 2000:
            steps += 1
            if g.hand_over:
                g.next_hand()
            else:
                r = rng.random()
                seat = rng.choice(g.to_act())
                if r < 0.02:
                    g.set_auto(rng.randrange(4), rng.random() < 0.5)
                elif r < 0.025 and game_no == 2:
                    g.escape(seat)
                else:
                    g.act(seat, rng.choice(g.legal(seat)))
            # Views are cached per version: ask twice, and sometimes skip a version.
            if rng.random() < 0.7:
                check(g, read_back=rng.random() < 0.3)
        check(g)


def test_seat_stream_keeps_a_window_and_says_when_it_is_gone() -> None:
    s = SeatStream()
    for i in range(3 * STREAM_KEEP):
        s.append(f'{{"i":{i}}}')
    assert s.v == 3 * STREAM_KEEP
    assert len(s.items) <= 2 * STREAM_KEEP
    assert s.since(0) is None
    tail = s.since(s.v - 5)
    assert tail is not None and [json.loads(t)["i"] for t in tail] == list(range(s.v - 5, s.v))
    assert json.loads(s.last(1)[0]) == {"i": 3 * STREAM_KEEP - 1}


def test_a_seat_with_hints_on_gets_hints_for_its_own_decision(client: Any) -> None:
    """Hints come from the seat's own snapshot (:meth:`GameSession.seat_view`), over a real
    socket: one entry per legal action, exactly one recommended."""
    from support.srvhelpers import connect, game_frame, new_room, room_state

    ws, _ = connect(client, "hinted")
    new_room(ws, max_hands=1, seed="hints")
    ws.send(type="sit", seat=0)
    for s in (1, 2, 3):
        ws.send(type="bot", seat=s, level="greedy")
    room_state(ws, lambda r: all(x["bot"] for x in r["seats"][1:]))
    ws.send(type="hints", on=True)
    ws.send(type="start")
    frame = game_frame(ws, lambda m: bool(m["view"].get("legal")) and "hints" in m)
    hints = frame["hints"]
    legal = frame["view"]["legal"]
    assert isinstance(hints, list) and len(hints) == len(legal)
    assert sorted(json.dumps(h["action"], sort_keys=True) for h in hints) == sorted(
        json.dumps(a, sort_keys=True) for a in legal)
    assert sum(1 for h in hints if h["recommended"]) == 1


def test_expert_bots_are_offered_and_hints_recommend_the_experts_choice(client: Any) -> None:
    """``expert`` (no search by default: cheap) is a bot level rooms offer; a seat's hint
    marks as recommended what the expert would play from that seat's own view."""
    from laizi.bots.expert import ExpertBot
    from laizi.rules import RuleSet
    from laizi.server.tables.frames import read_view
    from laizi.server.tables.seats import bot_levels
    from support.srvhelpers import connect, game_frame, new_room, room_state

    assert "expert" in bot_levels()
    ws, _ = connect(client, "vs-expert")
    new_room(ws, max_hands=1, seed="expert-hints")
    ws.send(type="sit", seat=0)
    for s in (1, 2, 3):
        ws.send(type="bot", seat=s, level="expert")
    room = room_state(ws, lambda r: all(x["bot"] for x in r["seats"][1:]))
    assert [x["bot"] for x in room["seats"][1:]] == ["expert"] * 3
    ws.send(type="hints", on=True)
    ws.send(type="start")
    frame = game_frame(ws, lambda m: bool(m["view"].get("legal")) and "hints" in m)
    view = read_view(frame["view"], RuleSet.preset(room["settings"]["preset"]))
    choice = ExpertBot(seed=0).act(view)
    recommended = [h for h in frame["hints"] if h["recommended"]]
    assert len(recommended) == 1 and recommended[0]["action"] == choice.to_json()


def test_switching_hints_on_is_answered_by_a_hints_frame_not_a_snapshot(client: Any) -> None:
    """Issue 21: the answer to ``hints`` is a small ``{type: hints, v, hints}`` frame for the
    decision on hand (not a snapshot, which a client would take for news and answer again); no
    answer at all without a decision; later frames carry the hints themselves."""
    from support.srvhelpers import connect, game_frame, new_room, room_state

    ws, _ = connect(client, "hints-reply")
    new_room(ws, max_hands=1, seed="hints-reply")
    ws.send(type="sit", seat=0)
    for s in (1, 2, 3):
        ws.send(type="bot", seat=s, level="greedy")
    room_state(ws, lambda r: all(x["bot"] for x in r["seats"][1:]))
    ws.send(type="start")
    # Our discard: nothing moves until we act.
    frame = game_frame(ws, lambda m: any(a["type"] == "discard" for a in m["view"].get("legal", [])))
    assert "hints" not in frame
    ws.send(type="hints", on=True)
    reply = ws.recv()
    assert reply["type"] == "hints" and reply["v"] == frame["v"], reply
    assert sorted(json.dumps(h["action"], sort_keys=True) for h in reply["hints"]) == sorted(
        json.dumps(a, sort_keys=True) for a in frame["view"]["legal"])
    assert len(reply) == 3 and len(ws.raw[-1]) < len(json.dumps(frame)) + len(json.dumps(reply["hints"]))
    # Off: no answer (a ping's pong comes next); on again: the same small frame.
    ws.send(type="hints", on=False)
    ws.send(type="ping")
    assert ws.recv()["type"] == "pong"
    ws.send(type="hints", on=True)
    assert ws.recv()["type"] == "hints"
    # We discard; the frames that follow carry hints wherever we have a decision.
    ws.act(next(a for a in frame["view"]["legal"] if a["type"] == "discard"), version=frame["v"])
    nxt = game_frame(ws, lambda m: m["v"] > frame["v"] and (bool(m["view"].get("legal"))
                                                            or m["view"].get("phase") == "over"))
    if nxt["view"].get("legal"):  # (unless the hand ended on a bot's win first)
        assert "hints" in nxt and len(nxt["hints"]) == len(nxt["view"]["legal"])


def test_a_capped_match_tells_its_cap_and_an_open_one_none(client: Any) -> None:
    """A match capped at N hands says so in every frame (``max_hands``: the table counts
    第 n/N 局, not the 圈 it will never reach); an uncapped one says None."""
    from support.srvhelpers import connect, game_frame, new_room, room_state

    for cap in (1, None):
        ws, _ = connect(client, f"cap{cap}")
        new_room(ws, **({"max_hands": cap} if cap else {}))
        for s in range(4):
            ws.send(type="bot", seat=s, level="random")
        room_state(ws, lambda r: all(x["bot"] for x in r["seats"]))
        ws.send(type="start")
        frame = game_frame(ws)
        assert frame["view"]["max_hands"] == cap and frame["view"]["hand_no"] == 1
        ws.send(type="leave")
