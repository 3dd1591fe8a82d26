"""The table's log after a resync (issue 21: "the log once repeated a block of ~19 lines").

A snapshot — on a join, a reconnect or a resync — carries the seat's last events again; the
client must take each event once, by its version. Here a real `laizi serve`, the system
Chromium at 390×844 and Playwright's WebSocket routing: one server frame is dropped in the
middle of a hand, the client sees the gap in the versions, asks for a resync and gets a
snapshot; every event stays in the log once."""

from __future__ import annotations

import contextlib
import json
import re
import time
from typing import Any

import pytest

from support.webhelpers import act_once, new_page, poll, start_table

pytestmark = pytest.mark.browser


class Dropper:
    """Relays the page's socket to the server; drops the next `update` frame when armed."""

    def __init__(self) -> None:
        self.armed = False
        self.dropped = 0
        self.sent: list[str] = []
        self.received: list[str] = []

    def route(self, page: Any) -> None:
        page.route_web_socket(re.compile(r".*/ws(\?.*)?$"), self._socket)

    def _socket(self, ws: Any) -> None:
        server = ws.connect_to_server()

        def from_page(msg: Any) -> None:
            self.sent.append(json.loads(msg).get("type", "?") if isinstance(msg, str) else "?")
            server.send(msg)

        def from_server(msg: Any) -> None:
            kind = json.loads(msg).get("type", "?") if isinstance(msg, str) else "?"
            if self.armed and kind == "update":
                self.armed = False
                self.dropped += 1
                return
            self.received.append(kind)
            ws.send(msg)

        ws.on_message(from_page)
        server.on_message(from_server)


def log_versions(page: Any) -> list[int]:
    return [int(v) for v in page.evaluate(
        "() => [...document.querySelectorAll('#log > div')].map(d => d.dataset.v || '0')")]


def test_a_resync_repeats_nothing_in_the_log(browser: Any, server: str) -> None:
    drop = Dropper()
    page = new_page(browser, server, "日志续传", size=(390, 844), setup=drop.route)
    page.fill("#c-turn", "90")
    page.click("details.more > summary")  # the fixed deal is among the further options
    page.fill("#c-seed", "r22")  # a long hand, the same every run (a random one may end early)
    start_table(page, seat=0, level="greedy", hands=1)
    deadline = time.time() + 180
    # Play (passing on claims) until the log holds a dozen events and it is our discard. Our
    # discard is made only after the check has seen our turn: a move made in passing (as
    # act_once makes it) could take every turn of ours unseen on a slow machine, to the
    # hand's end.
    while True:
        assert time.time() < deadline, "the hand did not get going"
        if page.locator("#your-turn").count():
            if len(log_versions(page)) >= 12:
                break
            act_once(page, take_claims=False)  # our discard, too early yet
        else:
            passing = page.locator('#actions button[data-act="pass"]')
            if passing.count():
                with contextlib.suppress(Exception):  # the table moved on meanwhile
                    passing.first.click(timeout=1000)
        page.wait_for_timeout(50)
    before = log_versions(page)
    assert 0 not in before, "every log line carries its event's version"
    resyncs = drop.sent.count("resync")
    drop.armed = True
    act_once(page, take_claims=False)  # our discard: its update is dropped, the next shows a gap
    while drop.armed or drop.sent.count("resync") == resyncs:
        assert time.time() < deadline, f"no resync (dropped {drop.dropped})"
        act_once(page, take_claims=False)
        page.wait_for_timeout(50)
    # the log shows its last 40 lines: wait for a line newer than any before (not for more lines)
    poll(page, """n => { const d = document.querySelectorAll('#log > div');
        return d.length && Number(d[d.length - 1].dataset.v) > n; }""", max(before))
    after = log_versions(page)
    print(f"log: {len(before)} lines before, {len(after)} after; resyncs {drop.sent.count('resync')}")
    assert "snapshot" in drop.received
    assert len(after) == len(set(after)), f"an event logged twice: {after}"
    assert after == sorted(after), after
    assert page.errors == []
    page.context.close()
