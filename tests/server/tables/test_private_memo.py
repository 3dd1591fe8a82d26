"""Issue 24: a seat's private part is built again only when it may have changed
(:func:`laizi.server.tables.frames.seat_private`). Whatever it reuses, it must say exactly
what :func:`~laizi.server.tables.frames.private_part` says when built afresh from the seat's
snapshot — at every step of whole matches, for every seat, with bots that claim, kong and
wait (a ready hand's waits follow the whole table), and across hand boundaries."""

from __future__ import annotations

import json

import pytest

from laizi.hints import WaitsMemo
from laizi.rules import RuleSet
from laizi.server.tables.engine import GameSession, seed_from_text
from laizi.server.tables.frames import PrivateMemo, private_part, seat_private
from laizi.server.tables.seats import SeatBot
from laizi.views import own_key, seat_view
from support.srvhelpers import bot_step


@pytest.mark.parametrize(("level", "seed"), [("random", "pm-1"), ("greedy", "pm-2"), ("strong", "pm-3")])
def test_a_reused_private_part_is_the_one_built_afresh(level: str, seed: str) -> None:
    g = GameSession(RuleSet(), seed_from_text(seed), max_hands=4)
    bots = [SeatBot(level, 11 + s) for s in range(4)]
    memo, waits = PrivateMemo(), WaitsMemo()
    reused = steps = with_waits = 0
    while not g.over and steps < 2000:
        bot_step(g, bots)
        steps += 1
        hand = g.match.hand
        assert hand is not None
        for s in range(4):
            before = memo.last.get(s)
            pub = seat_view(hand, None)
            got = seat_private(s, lambda: seat_view(hand, s, copy=False), hand=hand,  # noqa: B023
                               key=own_key(hand, s), phase=pub.phase, turn=pub.turn,
                               match_over=g.over, memo=memo, waits=waits)
            fresh = private_part(s, seat_view(hand, s), match_over=g.over, memo=WaitsMemo())
            # (compared as text: types included, true is not 1)
            assert json.dumps(got, sort_keys=True) == json.dumps(fresh, sort_keys=True), (steps, s)
            if before is not None and memo.last[s] is before:
                reused += 1
                for k in ("hand", "legal", "waits"):  # the same lists: a diff finds them at once
                    assert got[k] is before[2][k]
            with_waits += bool(got.get("waits"))
    assert g.over
    assert reused > steps  # most seats' parts are reused at most changes
    if level != "random":
        assert with_waits > 0  # ready hands were met (and built afresh each time)
