"""Two tabs of one browser: a login in one is not undone by the other's reconnect.

The lobby saves the token its socket's welcome carries. Before the fix it did so on every
welcome: a tab open on the lobby as a guest that reconnected (a phone's browser does, each time it
comes back from the background) wrote its guest's token over the account another tab had just
logged in to — the next page in that tab was the guest again, its coins "—". Now a welcome saves
its token only when the browser's token is still the one its hello carried (or none).

A real `laizi serve`, the system Chromium; one browser context (one localStorage) with two
pages; the lobby's socket goes through Playwright's WebSocket routing, so the test can drop it."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlparse

import pytest

from support.webhelpers import PW, new_page, poll, register_here

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def test_a_reconnecting_tab_keeps_the_other_tabs_login(browser: Any, server: str) -> None:
    first = new_page(browser, server, size=(390, 844))  # an account made elsewhere
    register_here(first, server, "twotabs")
    first.context.close()

    sockets: list[Any] = []

    def route(page: Any) -> None:
        def opened(ws: Any) -> None:
            to_server = ws.connect_to_server()
            ws.on_message(to_server.send)
            to_server.on_message(ws.send)
            sockets.append(ws)
        page.route_web_socket(lambda url: urlparse(url).path == "/ws", opened)

    lobby = new_page(browser, server, "访客", size=(390, 844), setup=route)  # a guest's lobby
    guest_token = lobby.evaluate("() => localStorage.getItem('laizi.token')")
    assert guest_token and len(sockets) == 1

    other = lobby.context.new_page()  # the second tab: logs in
    other.goto(server + "/account")
    poll(other, "() => document.body.dataset.ready === '1'")
    other.fill("#l-user", "twotabs")
    other.fill("#l-pass", PW)
    other.click("#btn-login")
    poll(other, "() => !document.getElementById('acc-in').classList.contains('hidden')")
    account_token = other.evaluate("() => localStorage.getItem('laizi.token')")
    assert account_token and account_token != guest_token

    # the lobby's socket drops; it reconnects (a hello with its guest's token) and is welcomed
    lobby.fill("#nick", "—")  # the welcome writes the nickname back: the sign it was handled
    sockets[0].close()
    poll(lobby, "() => document.getElementById('nick').value !== '—'", timeout=30)
    assert len(sockets) == 2
    assert lobby.evaluate("() => localStorage.getItem('laizi.token')") == account_token

    other.goto(server + "/")  # the logged-in tab's next page: still the account
    poll(other, "() => document.getElementById('coins-bal').textContent === '5000'")
    assert not lobby.errors  # type: ignore[attr-defined]
    lobby.context.close()
