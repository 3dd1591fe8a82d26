"""A hello the server never answers: the page opens a new socket instead of waiting forever.

The lobby knows who it is only from the welcome that answers its hello. If that answer never
comes (a frame lost on the way, a socket the server forgot), the page waited for ever: no name,
no coins, no table — a CI run once saw a registered player's page without its welcome for 15 s
(test_club_events_page). Now a hello unanswered for 6 s (then 12, … up to 30) gives the socket up
and opens another (net.js).

A real `laizi serve`, the system Chromium; the page's socket goes through Playwright's WebSocket
routing, which swallows the server's first welcome."""

from __future__ import annotations

import json
import time
from typing import Any
from urllib.parse import urlparse

import pytest

from support.webhelpers import new_page, poll

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def test_an_unanswered_hello_opens_a_new_socket(browser: Any, server: str) -> None:
    sockets: list[Any] = []
    swallowed: list[float] = []

    def route(page: Any) -> None:
        def opened(ws: Any) -> None:
            to_server = ws.connect_to_server()
            ws.on_message(to_server.send)

            def from_server(message: Any) -> None:
                if not swallowed and isinstance(message, str) and json.loads(message).get("type") == "welcome":
                    swallowed.append(time.monotonic())  # the first welcome: lost on the way
                    return
                ws.send(message)
            to_server.on_message(from_server)
            sockets.append(ws)
        page.route_web_socket(lambda url: urlparse(url).path == "/ws", opened)

    page = new_page(browser, server, "迟到的欢迎", size=(390, 844), setup=route)  # (waits for a name)
    answered = time.monotonic()
    assert swallowed and len(sockets) == 2, (swallowed, len(sockets))
    assert answered - swallowed[0] >= 5, "a new socket before the hello's 6 s were up"
    assert page.inner_text("#me") == "迟到的欢迎"
    poll(page, "() => document.getElementById('conn-lost').classList.contains('hidden')")
    assert not page.errors  # type: ignore[attr-defined]
    page.context.close()
