"""``ScoreResult.total`` keeps the payments' type: an int when whole. The compiled build
(this file runs in its pass too) once turned it into a float through a ``float`` variable,
so a wait's score travelled as ``1200.0`` in the table's frames and hints, where the pure
build sent ``1200``."""

from __future__ import annotations

import json

from laizi.hints import ready_waits
from laizi.scoring.model import ScoreResult


def test_a_whole_total_is_an_int_and_a_half_stays_a_half() -> None:
    whole = ScoreResult(True, None, payments=[1200, -400, -400, -400])
    assert whole.total == 1200 and type(whole.total) is int
    assert json.dumps(whole.total) == "1200"
    half = ScoreResult(True, None, payments=[-1.5, 4.5, -1.5, -1.5])
    assert half.total == 4.5 and type(half.total) is float
    assert ScoreResult(False, "no_win").total == 0


def test_scored_waits_carry_whole_totals_as_ints() -> None:
    from laizi.rules import RuleSet
    from laizi.server.tables.engine import GameSession, seed_from_text
    from laizi.server.tables.seats import SeatBot

    # play greedy hands until some seat is ready (听牌) with a scored wait, then look at it
    for m in range(40):
        g = GameSession(RuleSet(), seed_from_text(f"totals-{m}"), max_hands=1)
        bots = [SeatBot("greedy", 7 * m + s) for s in range(4)]
        while not g.hand_over:
            seat = g.to_act()[0]
            g.act(seat, bots[seat].choose(g, seat))
            for s in range(4):
                view = g.seat_view(s)
                for w in ([] if view is None else ready_waits(view, scores=True)):
                    for how in ("self_draw", "discard"):
                        total = w[how]["total"]
                        if w[how]["ok"] and total == int(total):
                            assert type(total) is int, (how, total)
                            assert ".0" not in json.dumps(total)
                            return
    raise AssertionError("no scored wait in 40 greedy hands")
