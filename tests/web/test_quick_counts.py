"""The lobby's quick-match levels show how many wait in each 场次's queue of the chosen rule set
(GET /api/levels ``queues``, refreshed every 5 s): a second player waiting at 新手场 in 嘉鱼 is
counted on the first player's 新手场 button while 嘉鱼 is chosen, not under another rule set, and
no more once it leaves the queue. The system Chromium, a real server, 390×844."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from support.webhelpers import live_server, new_page, poll, screens_dir

pytestmark = [pytest.mark.browser, pytest.mark.timeout(200)]

COUNT = "() => document.querySelector('#levels .level-btn[data-level=\"novice\"] [data-testid=\"queue-count\"]').textContent"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with live_server(Path(tmp_path_factory.mktemp("quickcounts")),
                     env={"LAIZI_QUICK_WAIT": "300", "LAIZI_RATE_EXEMPT": "127.0.0.1"}) as base:
        yield base


def test_the_levels_count_the_chosen_queue(browser: Any, server: str) -> None:
    a = new_page(browser, server, size=(390, 844))
    b = new_page(browser, server, size=(844, 390))
    try:
        a.wait_for_selector('#levels [data-testid="queue-count"]')
        assert a.evaluate(COUNT) == "0 人等待"
        b.wait_for_selector("#quick-rule-card:not(:empty)")
        b.select_option("#quick-preset", "jiayu")
        b.click('button[data-level="novice"]')
        poll(b, "() => /嘉鱼/.test(document.getElementById('quick-status').textContent)")
        # its own, counted by the page itself (on a busy machine the count may be drawn a
        # moment after the status line: CI once read it in between)
        poll(b, f"() => ({COUNT})() === '1 人等待'", timeout=15)
        a.select_option("#quick-preset", "jiayu")
        poll(a, f"() => ({COUNT})() === '1 人等待'", timeout=15)
        counts = a.eval_on_selector_all('#levels [data-testid="queue-count"]', "es => es.map(e => e.textContent)")
        assert counts == ["1 人等待", "0 人等待", "0 人等待"]
        a.screenshot(path=str(screens_dir() / "quick_counts_390x844.png"))
        a.select_option("#quick-preset", "kaikoufan")  # another rule set's queue: nobody
        assert a.evaluate(COUNT) == "0 人等待"
        a.select_option("#quick-preset", "jiayu")
        b.click("#btn-quick-leave")
        poll(a, f"() => ({COUNT})() === '0 人等待'", timeout=15)
        assert a.errors == [] and b.errors == []  # type: ignore[attr-defined]
        assert a.evaluate("window.__csp") == []
    finally:
        a.context.close()
        b.context.close()
