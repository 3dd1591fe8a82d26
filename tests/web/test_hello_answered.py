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


def test_a_hello_refused_by_a_passing_error_is_said_again(browser: Any, server: str) -> None:
    """The server answers a hello with ``internal`` (its database busy a moment, say): the
    page does not sit there without a name for ever, it opens a new socket after the hello's
    wait and says hello again. A refusal asking again would not change (``bad_nickname``) is
    taken as the answer: no new socket."""
    sockets: list[str] = []

    def route(code: str) -> Any:
        def setup(page: Any) -> None:
            def opened(ws: Any) -> None:
                if sockets:  # the second socket and later: the real server
                    sockets.append("server")
                    to_server = ws.connect_to_server()
                    ws.on_message(to_server.send)
                    to_server.on_message(ws.send)
                    return
                sockets.append("refused")

                def refuse(message: Any) -> None:
                    if isinstance(message, str) and json.loads(message).get("type") == "hello":
                        ws.send(json.dumps({"type": "error", "code": code, "message": "not now"}))
                ws.on_message(refuse)
            page.route_web_socket(lambda url: urlparse(url).path == "/ws", opened)
        return setup

    page = new_page(browser, server, "再说一次", size=(844, 390), setup=route("internal"))  # (waits for a name)
    assert sockets == ["refused", "server"], sockets
    assert page.inner_text("#me") == "再说一次"
    poll(page, "() => document.getElementById('conn-lost').classList.contains('hidden')")
    assert not page.errors  # type: ignore[attr-defined]
    page.context.close()

    sockets.clear()
    ctx = browser.new_context(viewport={"width": 844, "height": 390}, service_workers="block")
    page = ctx.new_page()
    route("bad_nickname")(page)
    page.goto(server + "/")
    poll(page, "() => document.getElementById('error').dataset.code === 'bad_nickname'")
    started = time.monotonic()
    # a new socket would come at 6 s: wait past it, on the page's own clock (a busy machine's
    # timers fire late, never early)
    page.wait_for_function("() => performance.now() > 9000", timeout=60000)
    assert sockets == ["refused"], (sockets, time.monotonic() - started)
    ctx.close()
