"""Issue 24: a change whose events say by themselves all that changed in public (draws,
discards, claims, 暗杠, tiles laid aside; the seats' private answers to a claim window) but
the claim window's marks (the phase, the tile pending) and what the rules make of the
seats' tables (番, open) does not build the table's public part (``GameSession._refresh``,
docs/deploy.md): its public patch is those values, the view the base's with what the events
say. Whatever it skips, the frames must be the same, byte for byte, as those of a session that builds the
public part at every change — every audience's patch from the version before and from
older kept bases (across a run of skipped versions), and its snapshot — over whole matches
of bots that claim, kong and win, across hand boundaries."""

from __future__ import annotations

import pytest

from laizi.rules import RuleSet
from laizi.server.common.delta import last_drawer
from laizi.server.tables.engine import VIEW_KEEP, GameSession, seed_from_text
from laizi.server.tables.seats import SeatBot
from support.srvhelpers import bot_step

AUDIENCES = (0, 1, 2, 3, None)


@pytest.mark.parametrize("older_every", [1, 5])  # 5: runs of skipped versions stay unbuilt
@pytest.mark.parametrize(("level", "seed"), [("random", "lp-1"), ("greedy", "lp-2"), ("strong", "lp-3")])
def test_skipped_public_parts_give_the_same_frames(level: str, seed: str, older_every: int) -> None:
    sides = [GameSession(RuleSet(), seed_from_text(seed), max_hands=3) for _ in range(2)]
    sides[1].lazy_public = False
    bots = [[SeatBot(level, 5 + s) for s in range(4)] for _ in sides]
    lazy, full = sides
    skipped = steps = 0
    kinds: set[str] = set()  # the events of the skipped changes
    while not lazy.over:
        at = len(lazy.match.log)
        for g, b in zip(sides, bots, strict=True):
            bot_step(g, b)
        assert lazy.version == full.version
        steps += 1
        v = lazy.version
        for s in AUDIENCES:  # each audience's frame from the version before (a live table)
            for g in sides:
                g.stream(s)
            assert lazy.view_patch(s, v - 1) == full.view_patch(s, v - 1), (steps, s)
        if v in lazy._lazy:  # (built after all when an older base or a snapshot asks)
            skipped += 1
            kinds.update(e["type"] for e in lazy.match.log[at:])
        for s in AUDIENCES if steps % older_every == 0 else ():
            for back in range(2, VIEW_KEEP):  # from older bases (a connection behind)
                if v - back >= 1:
                    assert lazy.view_patch(s, v - back) == full.view_patch(s, v - back), (steps, s, back)
        spec = lazy._streams[None]  # its draws as the events' texts say (last_drawer)
        for ev in range(max(spec.base, spec.v - 12), spec.v + 1):
            assert spec.last_drawer(ev) == (True, last_drawer(lazy._events_since(ev) or [])), ev
        assert spec.base == 0 or spec.last_drawer(spec.base - 1) == (False, None)
        for s in AUDIENCES if steps % 7 == 0 else ():  # a snapshot now and then (a join, a resync)
            assert lazy.view_json(s) == full.view_json(s), (steps, s)
        for g in sides:
            g.trim()
    assert full.over and not full._lazy
    # nineteen changes in twenty skip the public part (draws and discards alone: 57-64 %;
    # with the claim window's marks and answers: 79-83 %; with claims, 暗杠 and tiles laid
    # aside: 96-98 % of these matches)
    assert skipped >= 19 * steps // 20, (skipped, steps)
    assert {"peng", "chi"} & kinds and {"special_kong", "laizi_kong"} <= kinds, kinds
