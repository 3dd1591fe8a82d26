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

from support.webhelpers import act_once, new_page, poll, start_table

pytestmark = pytest.mark.browser

# One entry per batch of mutation records (the observer's callback runs after the task that
# rendered a frame): the version on screen, the river lengths and meld tile counts per seat,
# the score table's text, and per region the records, the nodes added and the nodes removed.
OBSERVE = """() => {
  window.__batches = [];
  const region = n => {
    const e = n.nodeType === 1 ? n : n.parentElement;
    if (!e) return "other";
    const seat = e.closest(".seat, .river");
    const r = e.closest(".river");
    if (r) return "river-" + r.dataset.seat;
    if (e.closest(".melds")) return "melds-" + seat.dataset.seat;
    if (e.closest("#hand")) return "hand";
    if (e.closest(".concealed")) return "concealed-" + seat.dataset.seat;
    if (e.closest("#matchtable")) return "scores";
    if (e.closest("#log")) return "log";
    if (e.closest("#actions")) return "actions";
    if (seat) return "plate-" + seat.dataset.seat;
    return "other";
  };
  const seats = sel => [0, 1, 2, 3].map(s => {
    const e = document.querySelector(sel.replace("S", s));
    return e ? e.querySelectorAll(".tile").length : -1;
  });
  new MutationObserver(records => {
    const b = { v: document.getElementById("ver").textContent, regions: {},
                rivers: seats('.river[data-seat="S"]'), melds: seats('.seat[data-seat="S"] .melds'),
                scores: document.getElementById("matchtable").textContent };
    for (const m of records) {
      const k = region(m.target);
      const c = b.regions[k] || (b.regions[k] = { records: 0, added: 0, removed: 0 });
      c.records += 1; c.added += m.addedNodes.length; c.removed += m.removedNodes.length;
    }
    window.__batches.push(b);
  }).observe(document.body, { subtree: true, childList: true, attributes: true, characterData: true });
}"""


def watched_discards(page: Any, want: int, deadline: float) -> list[dict[str, Any]]:
    """Play (own discards, no claims) until ``want`` frames each show one discard and nothing
    else in the rivers; returns those frames' batches."""
    page.evaluate(OBSERVE)
    while True:
        batches = page.evaluate("() => window.__batches")
        found = []
        for before, after in zip(batches, batches[1:], strict=False):
            grew = [s for s in range(4) if after["rivers"][s] == before["rivers"][s] + 1]
            same = [s for s in range(4) if after["rivers"][s] == before["rivers"][s]]
            if len(grew) == 1 and len(same) == 3 and after["melds"] == before["melds"]:
                found.append({**after, "discarder": grew[0], "scores_changed": after["scores"] != before["scores"]})
        if len(found) >= want and any(b["discarder"] == 0 for b in found):
            return found
        assert time.time() < deadline, f"only {len(found)} discards seen"
        act_once(page, take_claims=False)
        page.wait_for_timeout(50)


def test_a_discard_redraws_only_the_discarders_river(browser: Any, server: str) -> None:
    page = new_page(browser, server, "只画变化", size=(1366, 900))
    page.fill("#c-turn", "90")
    start_table(page, seat=0, level="greedy", hands=1)
    poll(page, "() => document.querySelectorAll('#log > div').length > 0")
    frames = watched_discards(page, 8, time.time() + 120)
    for f in frames:
        d, regions = f["discarder"], f["regions"]
        mine = regions.get(f"river-{d}", {})
        assert mine.get("added") == 1 and mine.get("removed", 0) == 0, (d, regions)
        for s in range(4):
            if s != d:
                assert f"river-{s}" not in regions, (d, s, regions)
            assert f"melds-{s}" not in regions, (d, s, regions)
        if not f["scores_changed"]:
            assert "scores" not in regions, regions
        log = regions.get("log", {"added": 0, "removed": 0})
        assert log["removed"] <= log["added"] <= 3, regions  # new lines appended (the oldest may go)
    assert not page.errors
    page.context.close()
