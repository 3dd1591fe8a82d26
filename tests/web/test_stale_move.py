"""A move that meets a table that moved on (``stale_version``: nothing applied, a snapshot
follows). The page says 请重试 only when the snapshot still leaves it something to do: a CI
run showed "牌局已更新，请重试" over the settlement — a tap as a bot won — and then over the
lobby after 回大厅. A real ``laizi serve`` and the system Chromium at 390×844; the stale
moves are made by a WebSocket route (one rewrites the version of the page's own move, one is
sent in the page's name while the settlement shows)."""

from __future__ import annotations

import json
import time
from typing import Any

import pytest

from support.webhelpers import act_once, new_page, poll, start_table

pytestmark = pytest.mark.browser

PHONE = (390, 844)
ERROR_SHOWN = "() => { const e = document.getElementById('error'); return !e.classList.contains('hidden') && e.dataset.code; }"


class Wire:
    def __init__(self) -> None:
        self.received: list[dict[str, Any]] = []
        self.stale_next = False  # the page's next action goes with the version before its own
        self.server: Any = None

    def attach(self, page: Any) -> None:
        page.route_web_socket(lambda url: url.endswith("/ws") or "/ws?" in url, self._route)

    def _route(self, ws: Any) -> None:
        server = self.server = ws.connect_to_server()

        def down(msg: str | bytes) -> None:
            self.received.append(json.loads(msg))
            ws.send(msg)

        def up(msg: str | bytes) -> None:
            m = json.loads(msg)
            if self.stale_next and m.get("type") == "action" and isinstance(m.get("version"), int):
                self.stale_next = False
                m["version"] -= 1
                msg = json.dumps(m)
            server.send(msg)

        server.on_message(down)
        ws.on_message(up)

    def stale_errors(self) -> int:
        return sum(1 for m in self.received if m.get("type") == "error" and m.get("code") == "stale_version")


def test_try_again_only_while_there_is_something_to_try(browser: Any, server: str) -> None:
    wire = Wire()
    page = new_page(browser, server, "旧版本", size=PHONE, setup=wire.attach)
    start_table(page, seat=0, level="greedy", hands=2)
    # 1. Mid-hand: the page's discard goes with an old version. Refused, a snapshot, and the
    #    turn is still the page's: 请重试 shows, and the next tap plays.
    wire.stale_next = True
    deadline = time.time() + 120
    while not wire.stale_errors():
        assert time.time() < deadline, "no move of the page's was refused"
        if page.locator('[data-testid="settlement"]:not(.hidden)').count():
            pytest.fail("the hand ended before the page moved")
        act_once(page)
        page.wait_for_timeout(50)
    assert poll(page, ERROR_SHOWN) == "stale_version"
    assert poll(page, "() => document.body.dataset.stale") == "shown"
    assert "请重试" in page.inner_text("#error")
    # 2. The hand to its end, the settlement up; then a move in the page's name with an old
    #    version: refused, a snapshot of a hand that is over — nothing to try again, no 请重试.
    while not page.locator('[data-testid="settlement"]:not(.hidden)').count():
        assert time.time() < deadline, "the hand did not end"
        act_once(page)
        page.wait_for_timeout(50)
    page.evaluate("() => document.getElementById('error').classList.add('hidden')")
    before = wire.stale_errors()
    snapshots = sum(1 for m in wire.received if m.get("type") == "snapshot")
    wire.server.send(json.dumps({"type": "action", "seq": 10**6, "action": {"type": "pass"}, "version": 1}))
    end = time.time() + 20
    while not (wire.stale_errors() > before
               and sum(1 for m in wire.received if m.get("type") == "snapshot") > snapshots):
        assert time.time() < end, "the stale move was not answered"
        page.wait_for_timeout(50)
    assert poll(page, "() => document.body.dataset.stale") == "quiet"  # the page took it
    assert page.locator('[data-testid="settlement"]:not(.hidden)').count()
    assert page.locator("#error.hidden").count() == 1, page.inner_text("#error")
    assert page.errors == []
    page.context.close()
