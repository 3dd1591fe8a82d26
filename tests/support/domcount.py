"""Counting what a frame's render changes on the table page, per region: a MutationObserver
over the page, one entry per batch of records (the observer's callback runs after the task
that rendered a frame). Used by tests/web/test_table_regions.py and
benchmarks/bench_table_dom.py."""

from __future__ import annotations

import time
from typing import Any

from support.webhelpers import act_once

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
