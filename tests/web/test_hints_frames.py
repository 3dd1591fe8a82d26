"""智能提示 must not flood the connection (issue 21): hints are a switch on the connection, asked
for once; the server then adds them to the frames where the seat has a decision. Before the fix
the client asked again after every frame it received (each answered by a full snapshot): tens of
frames per second each way while nobody acted, rate_limited errors, moves lost.

Frames are counted with Playwright's WebSocket events (framesent / framereceived) on a real
`laizi serve` and the system Chromium at 390×844."""

from __future__ import annotations

import json
import re
import time
from typing import Any

import pytest

from support.webhelpers import act_once, new_page, poll, start_table, viewed, winning_row

pytestmark = pytest.mark.browser

PHONE = (390, 844)


class Frames:
    """Every WebSocket frame the page sends and receives (parsed JSON), per socket."""

    def __init__(self) -> None:
        self.sent: list[dict[str, Any]] = []
        self.received: list[dict[str, Any]] = []
        self.sockets = 0

    def attach(self, page: Any) -> None:
        page.on("websocket", self._socket)

    def _socket(self, ws: Any) -> None:
        if not ws.url.endswith("/ws") and "/ws?" not in ws.url:
            return
        self.sockets += 1
        ws.on("framesent", lambda payload: self.sent.append(self._parse(payload)))
        ws.on("framereceived", lambda payload: self.received.append(viewed(ws, self._parse(payload))))

    @staticmethod
    def _parse(payload: Any) -> dict[str, Any]:
        try:
            m = json.loads(payload)
        except (TypeError, ValueError):
            return {"type": "?"}
        return m if isinstance(m, dict) else {"type": "?"}

    def hints_asked(self, since: int = 0) -> list[dict[str, Any]]:
        return [m for m in self.sent[since:] if m.get("type") == "hints" and m.get("on")]

    def errors(self, code: str) -> list[dict[str, Any]]:
        return [m for m in self.received if m.get("type") == "error" and m.get("code") == code]

    def turn_changes(self) -> int:
        """How often the turn (the view's turn seat or phase) changed, over the game frames."""
        n, last = 0, None
        for m in self.received:
            if m.get("type") in ("update", "snapshot") and isinstance(m.get("view"), dict):
                key = (m["view"].get("hand_no"), m["view"].get("turn"), m["view"].get("phase"))
                if key != last:
                    n += 1
                    last = key
        return n


def hints_on(page: Any) -> None:
    page.click("#btn-menu")
    page.check("#hints-toggle")
    page.click('[data-close="sheet-menu"]')


def test_hints_through_a_whole_hand_ask_once_per_turn_at_most(browser: Any, server: str) -> None:
    frames = Frames()
    page = new_page(browser, server, "提示一局", size=PHONE, setup=frames.attach)
    start_table(page, seat=0, level="greedy", hands=1)
    hints_on(page)
    started = time.time()
    shown = False
    deadline = time.time() + 240
    while not page.locator('[data-testid="settlement"]:not(.hidden)').count():
        assert time.time() < deadline, "the hand did not end"
        if not shown and page.locator("#hintbox:not(.hidden)").count():
            shown = "★" in page.inner_text("#hintbox")
        act_once(page)
        page.wait_for_timeout(50)
    took = time.time() - started
    asked = frames.hints_asked()
    turns = frames.turn_changes()
    game = [m for m in frames.received if m.get("type") in ("update", "snapshot")]
    print(f"hand: {took:.1f}s, sent {len(frames.sent)} frames ({len(asked)} hints), received "
          f"{len(frames.received)} ({len(game)} game frames), {turns} turn changes, {frames.sockets} socket(s)")
    assert shown, "the hint panel never showed a ★ recommendation"
    assert turns >= 4
    assert 1 <= len(asked) <= turns, (len(asked), turns)
    assert len(asked) <= frames.sockets, "hints asked for again on the same connection"
    assert not frames.errors("rate_limited")
    assert "rate_limited" not in page.evaluate("document.body.innerText")
    # Every frame the page sent was a move, 继续 or the one switch: nothing answers a frame.
    kinds = {m.get("type") for m in frames.sent}
    assert kinds <= {"hello", "join", "create", "sit", "bot", "start", "ready", "action", "hints",
                     "continue", "resync", "auto"}, kinds
    row = winning_row(page)  # the hand was won: the winner's row holds 14 tiles plus kongs
    assert row is None or len(row["tiles"]) == 14 + row["kongs"], row
    assert page.errors == []
    page.context.close()


def test_an_idle_table_with_hints_on_sends_nothing(browser: Any, server: str) -> None:
    """Our own turn, hints on, and we do not tap for a whole minute of the turn timer (a page
    left open): the page sends no frame and receives next to none (before: ~10–30 per second
    each way)."""
    frames = Frames()
    page = new_page(browser, server, "提示静候", size=PHONE, setup=frames.attach)
    page.fill("#c-turn", "150")
    start_table(page, seat=0, level="greedy", hands=1)
    deadline = time.time() + 120
    while not page.locator("#your-turn").count():  # pass on claims until it is our discard
        assert time.time() < deadline, "our turn never came"
        if page.locator('#actions button[data-act="pass"]').count():
            act_once(page, take_claims=False)
        page.wait_for_timeout(50)
    # Switched on while we have a decision: the hints come at once (a small `hints` frame).
    hints_on(page)
    page.wait_for_selector("#hintbox:not(.hidden)")
    assert "★" in page.inner_text("#hintbox")
    timer = re.compile(r"(\d+)")
    read = "() => (document.querySelector('.seat.me .b-timer') || {}).textContent || ''"
    first = int(timer.search(poll(page, read)).group(1))
    sent0, recv0 = len(frames.sent), len(frames.received)
    # Wait on the page's own countdown: sixty seconds of our turn pass with nobody acting.
    poll(page, "n => { const e = document.querySelector('.seat.me .b-timer');"
               " const m = /(\\d+)/.exec(e ? e.textContent : ''); return m && +m[1] <= n; }",
         first - 60, timeout=150)
    sent = frames.sent[sent0:]
    received = frames.received[recv0:]
    print(f"idle 60 s with hints on: sent {len(sent)} {[m.get('type') for m in sent]}, "
          f"received {len(received)} {[m.get('type') for m in received]}")
    assert len([m for m in sent if m.get("type") != "ping"]) == 0, sent
    assert len(received) <= 2, [m.get("type") for m in received]
    assert len(frames.hints_asked()) == 1
    assert page.locator("#your-turn").count() and page.locator("#hintbox:not(.hidden)").count()
    assert not frames.errors("rate_limited")
    assert page.errors == []
    page.context.close()


def test_the_one_tap_hints_button_switches_hints_on_and_off(browser: Any, server: str) -> None:
    """提示 on the table (not only the switch in the menu): one tap, hints show with one request;
    a second tap, they are gone and the server is told once."""
    frames = Frames()
    page = new_page(browser, server, "一键提示", size=PHONE, setup=frames.attach)
    page.fill("#c-turn", "90")
    start_table(page, seat=0, level="greedy", hands=1)
    deadline = time.time() + 120
    while not page.locator("#your-turn").count():  # our discard: a decision that waits for us
        assert time.time() < deadline, "our turn never came"
        if page.locator('#actions button[data-act="pass"]').count():
            act_once(page, take_claims=False)
        page.wait_for_timeout(50)
    button = page.locator('[data-testid="hints-button"]')
    assert button.get_attribute("aria-pressed") == "false"
    button.click()
    page.wait_for_selector("#hintbox:not(.hidden)")
    assert button.get_attribute("aria-pressed") == "true"
    assert "★" in page.inner_text("#hintbox")
    assert len(frames.hints_asked()) == 1
    page.click("#btn-menu")
    assert page.is_checked("#hints-toggle")  # one setting, two switches
    page.click('[data-close="sheet-menu"]')
    button.click()
    page.wait_for_selector("#hintbox", state="hidden")
    assert button.get_attribute("aria-pressed") == "false"
    def offs() -> list[dict[str, Any]]:
        return [m for m in frames.sent if m.get("type") == "hints" and m.get("on") is False]
    deadline = time.time() + 10
    while not offs():  # Playwright reports the frame on a later call
        assert time.time() < deadline, "hints off never sent"
        page.wait_for_timeout(50)
    assert len(offs()) == 1 and len(frames.hints_asked()) == 1
    assert page.errors == []
    page.context.close()


def test_after_a_reconnect_hints_are_asked_once_more(browser: Any, server: str) -> None:
    """The switch lives on the server's connection: a new socket asks once again (and only
    once), and the panel comes back."""
    frames = Frames()
    page = new_page(browser, server, "断线提示", size=PHONE, setup=frames.attach)
    page.fill("#c-turn", "90")
    start_table(page, seat=0, level="greedy", hands=1)
    deadline = time.time() + 120
    while not page.locator("#your-turn").count():
        assert time.time() < deadline, "our turn never came"
        if page.locator('#actions button[data-act="pass"]').count():
            act_once(page, take_claims=False)
        page.wait_for_timeout(50)
    page.click('[data-testid="hints-button"]')
    page.wait_for_selector("#hintbox:not(.hidden)")
    page.evaluate("async () => (await import('/static/js/net.js')).dropConnection()")
    deadline = time.time() + 30
    while frames.sockets < 2 or not page.locator("#hintbox:not(.hidden)").count() \
            or not page.locator("#conn-lost.hidden").count():
        assert time.time() < deadline, (frames.sockets, len(frames.hints_asked()))
        page.wait_for_timeout(50)
    v = int(page.inner_text("#ver"))
    # the seat still waits for us: nothing more is asked while we look at it
    poll(page, "v => +document.getElementById('ver').textContent === v && document.getElementById('your-turn')", v)
    assert frames.sockets == 2
    assert len(frames.hints_asked()) == 2, frames.hints_asked()
    assert "★" in page.inner_text("#hintbox")
    assert not frames.errors("rate_limited")
    page.context.close()
