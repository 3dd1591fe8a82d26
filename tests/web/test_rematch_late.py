"""再来一局 pressed after the finished room left the server's memory (FINISHED_LINGER, two minutes
after the match): the results say the table has closed and offer 回大厅, not 再来一局. Found by
playing it (stop 48): a player who read the results (or left the page open) for more than two
minutes pressed 再来一局 and nothing happened but "请先加入房间" — join a room first — at the top,
under a 再来一局 that still looked alive; the socket was in no room any more.

A real server (`laizi serve`'s app under uvicorn, with a finished room lingering 3 s instead of
120), the system Chromium, a seated player with three bots and 托管 to the end of a 1-hand
match; 再来一局 is pressed once the server says the room left memory (/healthz)."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest

from support.srvhelpers import LiveServer
from support.webhelpers import auto_on, new_page, poll, screens_dir, start_table

pytestmark = pytest.mark.browser

SIZE = (390, 844)


@pytest.fixture(scope="module")
def quick_evict(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    tmp = tmp_path_factory.mktemp("late")
    srv = LiveServer(str(tmp / "late.db"), tmp, bot_delay=0.02, hand_pause=0.0, finished_linger=3.0).start()
    try:
        yield srv
    finally:
        srv.stop()


def _finished_and_gone(page: Any, srv: LiveServer) -> None:
    """A 1-hand match with three bots played to its end under 托管, its results open; returns
    once the server says the room left memory."""
    evicted = srv.get("/healthz")[1]["stats"]["rooms_evicted"]
    start_table(page, seat=0, level="greedy", hands=1)
    auto_on(page)
    poll(page, """() => { const b = document.getElementById('btn-rematch');
        return document.querySelector('[data-testid="settlement"]:not(.hidden)') && b && !b.classList.contains('hidden'); }""",
         timeout=120)
    deadline = time.time() + 30
    while srv.get("/healthz")[1]["stats"]["rooms_evicted"] <= evicted:  # the room left memory
        assert time.time() < deadline, "the finished room never left memory"
        page.wait_for_timeout(100)


def test_rematch_after_the_room_left_says_the_table_closed(browser: Any, quick_evict: LiveServer) -> None:
    page = new_page(browser, quick_evict.url, "晚了一步", size=SIZE)
    try:
        _finished_and_gone(page, quick_evict)
        page.click("#btn-rematch")
        # said in the results, above their buttons (in sight: not #error, which the table hides)
        said = poll(page, """() => { const e = document.getElementById('settle-next');
            const r = e.getBoundingClientRect();
            if (!e.checkVisibility() || !r.height) return null;
            const seen = document.elementFromPoint((r.left + r.right) / 2, (r.top + r.bottom) / 2);
            return seen && e.contains(seen) && e.textContent; }""")
        page.screenshot(path=str(screens_dir() / f"rematch-late-{SIZE[0]}x{SIZE[1]}.png"))
        assert "回大厅" in said, said
        assert page.evaluate("() => document.getElementById('error').textContent") != "请先加入房间"
        poll(page, "() => document.getElementById('btn-rematch').classList.contains('hidden')")
        assert page.is_visible("#btn-lobby")
        page.click("#btn-lobby")
        page.wait_for_selector("#lobby:not(.hidden)")
        assert page.url.rstrip("/") == quick_evict.url
        assert page.errors == []  # type: ignore[attr-defined]
        assert page.evaluate("window.__csp") == []
    finally:
        page.context.close()


def test_back_to_the_lobby_after_the_room_left(browser: Any, quick_evict: LiveServer) -> None:
    """回大厅 pressed first: the lobby (it stayed on the finished table, the results closed,
    "请先加入房间" at the top)."""
    page = new_page(browser, quick_evict.url, "回大厅", size=SIZE)
    try:
        _finished_and_gone(page, quick_evict)
        page.click("#btn-lobby")
        page.wait_for_selector("#lobby:not(.hidden)")
        assert page.url.rstrip("/") == quick_evict.url
        assert page.is_hidden("#game")
        assert page.errors == []  # type: ignore[attr-defined]
    finally:
        page.context.close()
