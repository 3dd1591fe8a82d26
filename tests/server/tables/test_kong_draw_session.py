"""A room's game with 补/不补 after kongs (``kong_draw_choice``): the server's journal holds the
new decisions and a room rebuilt from it (a restart) is the same game, event for event."""

from __future__ import annotations

import random

import orjson

from laizi.rules import RuleSet
from laizi.server.tables.engine import GameSession, seed_from_text


def test_journal_rebuilds_a_game_with_draw_and_nodraw() -> None:
    rules = RuleSet.preset("kaikoufan", kong_draw_choice=True, haidi_kongs=True)
    seed = seed_from_text("kong-journal")
    g = GameSession(rules, seed, max_hands=4)
    rng = random.Random(6)
    while not g.over:
        if g.hand_over:
            g.next_hand()
            continue
        seat = g.to_act()[0]
        legal = g.legal(seat)
        kongs = [a for a in legal if a.type.endswith("kong")]
        g.act(seat, rng.choice(kongs) if kongs and rng.random() < 0.7 else rng.choice(legal))
    choices = [op["action"]["type"] for op in g.journal
               if op.get("op") == "act" and op["action"]["type"] in ("draw", "nodraw")]
    assert {"draw", "nodraw"} <= set(choices)
    again = GameSession.rebuild(rules, seed, list(g.journal), max_hands=4)
    assert again.match.log == g.match.log and again.match.scores == g.match.scores


def test_every_frame_says_who_answers_the_replace_question() -> None:
    """In the ``replace`` phase the kong's seat alone acts, publicly (the kong was public):
    a spectator's and every other seat's frame name it, as on a turn."""
    rules = RuleSet.preset("kaikoufan", kong_draw_choice=True)
    g = GameSession(rules, seed_from_text("kong-acting"), max_hands=2)
    rng = random.Random(3)
    seen = 0
    while not g.over and seen < 5:
        if g.hand_over:
            g.next_hand()
            continue
        if g.phase == "replace":
            seen += 1
            turn = g.to_act()[0]
            for seat in (0, 1, 2, 3, None):
                view = orjson.loads(g.view_json(seat))
                assert view["acting"] == [turn], (seat, view["acting"])
        seat = g.to_act()[0]
        legal = g.legal(seat)
        kongs = [a for a in legal if a.type.endswith("kong")]
        g.act(seat, rng.choice(kongs) if kongs else rng.choice(legal))
    assert seen >= 1
