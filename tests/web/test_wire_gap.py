"""Issue 24, lean wire, in the browser: the page plays a hand on deltas (``update`` frames
carry a patch, not the view), then loses one frame — dropped between the server and the
page by Playwright's WebSocket route — sees that the next update does not follow the
version it holds, asks ``resync``, takes the snapshot and plays the hand to its end.
A real ``laizi serve``, the system Chromium at 390×844."""

from __future__ import annotations

import json
import time
from typing import Any

import pytest

from support.webhelpers import act_once, new_page, poll, start_table, winning_row

pytestmark = pytest.mark.browser

PHONE = (390, 844)


class Wire:
    """Every frame between the page and the server, passed on by a WebSocket route that can
    drop the next ``update`` the server sends."""

    def __init__(self) -> None:
        self.received: list[dict[str, Any]] = []
        self.sent: list[dict[str, Any]] = []
        self.bytes = 0
        self.drop_next = False
        self.dropped: list[dict[str, Any]] = []
        self.marks: list[tuple[int, int]] = []  # (len(received), len(sent)) at each drop

    def attach(self, page: Any) -> None:
        page.route_web_socket(lambda url: url.endswith("/ws") or "/ws?" in url, self._route)

    def healed_without_resync(self) -> bool:
        """The last drop was mended before the page saw the gap: the page moved on the view
        it held, the server answered ``stale_version`` with a snapshot (a CI run on a busy
        machine met it), and no ``resync`` was asked. Another frame must be dropped."""
        if not self.dropped or self.drop_next:
            return False
        at_received, at_sent = self.marks[-1]
        lost = self.dropped[-1]["v"]
        healed = any(m.get("type") == "snapshot" and m["v"] >= lost for m in self.received[at_received:])
        return healed and not any(m.get("type") == "resync" for m in self.sent[at_sent:])

    def _route(self, ws: Any) -> None:
        server = ws.connect_to_server()

        def down(msg: str | bytes) -> None:
            m = json.loads(msg)
            if self.drop_next and m.get("type") == "update":
                self.drop_next = False
                self.dropped.append(m)
                self.marks.append((len(self.received), len(self.sent)))
                return
            self.received.append(m)
            self.bytes += len(msg.encode() if isinstance(msg, str) else msg)
            ws.send(msg)

        def up(msg: str | bytes) -> None:
            self.sent.append(json.loads(msg))
            server.send(msg)

        server.on_message(down)
        ws.on_message(up)


def test_a_hand_on_deltas_survives_a_lost_frame(browser: Any, server: str) -> None:
    wire = Wire()
    page = new_page(browser, server, "差量一局", size=PHONE, setup=wire.attach)
    start_table(page, seat=0, level="greedy", hands=1)
    deadline = time.time() + 240
    while not page.locator('[data-testid="settlement"]:not(.hidden)').count():
        assert time.time() < deadline, "the hand did not end"
        updates = [m for m in wire.received if m.get("type") == "update"]
        # (early in the hand: a CI run dropped the 13th of 18 updates, and a bot won before the
        # page's next move)
        if len(updates) >= 5 and not wire.dropped and not wire.drop_next:
            wire.drop_next = True  # the next update never reaches the page
        elif wire.healed_without_resync() and len(wire.dropped) < 5:
            wire.drop_next = True  # (a stale_version snapshot mended that one: lose another)
        act_once(page)
        page.wait_for_timeout(50)
    updates = [m for m in wire.received if m.get("type") == "update"]
    snapshots = [m for m in wire.received if m.get("type") == "snapshot"]
    print(f"hand on deltas: {len(updates)} updates, {len(snapshots)} snapshots, {wire.bytes} bytes "
          f"received in all, {len(wire.dropped)} dropped")
    # Updates carried patches and events, never the view (protocol 3: `from` is `v` minus
    # the events, the seat and the match are the snapshot's).
    assert len(updates) >= 8 and all("view" not in m and m["e"] for m in updates) and any("p" in m for m in updates)
    assert not any("from" in m or "seat" in m or "match_id" in m for m in updates)
    # One frame was lost; the page noticed, asked once, and got a snapshot of the version after.
    # (A frame lost while the page was moving on the view before it is mended by the server's
    # stale_version snapshot, with no resync: then another was dropped.)
    assert wire.dropped and not wire.healed_without_resync(), f"{len(wire.dropped)} drops, all mended"
    lost = wire.dropped[-1]
    resyncs = [i for i, m in enumerate(wire.sent[wire.marks[-1][1]:]) if m.get("type") == "resync"]
    assert len(resyncs) >= 1
    assert poll(page, "() => document.body.dataset.resyncs") == "1"
    after = [m for m in snapshots if m["v"] > lost["v"]]
    assert after, "no snapshot after the lost frame"
    # ... and played on: moves after the resync were accepted (acks), the hand ended.
    at = next(i for i, m in enumerate(wire.received) if m.get("type") == "snapshot" and m["v"] > lost["v"])
    assert [m for m in wire.received[at:] if m.get("type") == "ack"], "no move accepted after the resync"
    assert [m for m in wire.received[at:] if m.get("type") == "update"]
    assert page.locator('[data-testid="settlement"]:not(.hidden)').count()
    row = winning_row(page)
    assert row is None or len(row["tiles"]) == 14 + row["kongs"], row
    assert not [m for m in wire.received if m.get("type") == "error" and m.get("code") != "stale_version"], \
        wire.received
    assert len([m for m in wire.received if m.get("code") == "stale_version"]) < len(wire.dropped)
    assert page.errors == []
    page.context.close()
