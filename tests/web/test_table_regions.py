"""Each region of the table is re-rendered only when its data changed (issue 22, item 6).

The server's frames are deltas; the client used to rebuild every river, meld row, hand, log and
score table on every frame anyway. Here a real `laizi serve`, the system Chromium and a
MutationObserver over the page: every batch of DOM changes (one frame's render) is
counted per region. A discard must append one tile to the discarder's river and leave the other
three rivers, the four meld rows and the score table untouched; the log only appends."""

from __future__ import annotations

import time
from typing import Any

import pytest

from support.domcount import watched_discards
from support.webhelpers import new_page, poll, start_table

pytestmark = pytest.mark.browser


def test_a_discard_redraws_only_the_discarders_river(browser: Any, server: str) -> None:
    page = new_page(browser, server, "只画变化", size=(1366, 900))
    page.fill("#c-turn", "90")
    start_table(page, seat=0, level="greedy", hands=1)
    poll(page, "() => document.querySelectorAll('#log > div').length > 0")
    frames = watched_discards(page, 8, time.time() + 120)
    for f in frames:
        d, regions = f["discarder"], f["regions"]
        mine = regions.get(f"river-{d}", {})
        # one tile more; the special discards (红中, laizi) shown after the river move behind it
        assert mine.get("added") == mine.get("removed", 0) + 1 and mine.get("removed", 0) <= 4, (d, regions)
        for s in range(4):
            if s != d:  # untouched, but for the latest discard's mark leaving the tile it lit
                other = regions.get(f"river-{s}")  # (a class: no tile added or taken)
                assert other is None or (other["added"] == other["removed"] == 0 and other["records"] <= 1), (d, s, regions)
            assert f"melds-{s}" not in regions, (d, s, regions)
        if not f["scores_changed"]:
            assert "scores" not in regions, regions
        log = regions.get("log", {"added": 0, "removed": 0})
        assert log["removed"] <= log["added"] <= 3, regions  # new lines appended (the oldest may go)
    assert not page.errors
    page.context.close()
