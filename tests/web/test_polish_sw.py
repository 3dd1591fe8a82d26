"""The service worker: served at ``/sw.js`` (``Service-Worker-Allowed: /``, the CSP as every
response), registered by the lobby with scope ``/``, it precaches every script and style sheet
of the client (js/quick.js, js/friends.js, social.css included) and the pages; after a first
visit the lobby, a room link, the calculator and the account page open with the server down.
Playwright with the system Chromium (service workers allowed) on a real ``laizi serve``."""

from __future__ import annotations

import contextlib
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from laizi.server.net.middleware import CSP
from support.webhelpers import live_server, poll, screens_dir

pytestmark = pytest.mark.browser

WEB = Path(__file__).resolve().parents[2] / "src" / "laizi" / "web"


def test_sw_route_serves_the_worker_with_every_asset(tmp_path: Path) -> None:
    with live_server(tmp_path) as base, urllib.request.urlopen(base + "/sw.js", timeout=10) as r:
        body = r.read().decode()
        assert r.headers["Service-Worker-Allowed"] == "/"
        assert r.headers["Content-Security-Policy"] == CSP
        assert "javascript" in r.headers["Content-Type"]
        assert "no-cache" in r.headers["Cache-Control"]
    assert 'const VERSION = "dev"' not in body and "/*assets*/" not in body
    for p in [*WEB.glob("js/*.js"), *WEB.glob("*.css")]:
        assert f'"/static/{p.relative_to(WEB).as_posix()}"' in body, p.name
    for page in ('"/"', '"/calc"', '"/account"', '"/leaderboard"'):
        assert page in body


@pytest.mark.slow
def test_worker_scope_and_offline_shell(browser: Any, tmp_path: Path) -> None:
    stack = contextlib.ExitStack()
    base = stack.enter_context(live_server(tmp_path))
    ctx = browser.new_context(viewport={"width": 390, "height": 844}, service_workers="allow")
    page = ctx.new_page()
    page.set_default_timeout(15000)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    try:
        page.goto(base + "/")
        poll(page, "() => document.getElementById('me').textContent.length > 0")
        scope = page.evaluate("() => navigator.serviceWorker.ready.then(r => r.scope)")
        assert scope == base + "/"
        poll(page, "() => navigator.serviceWorker.controller !== null")
        assert page.evaluate("() => navigator.serviceWorker.controller.scriptURL") == base + "/sw.js"
        cached = page.evaluate("""async () => { const out = {};
            for (const u of ['/', '/calc', '/account', '/static/js/quick.js', '/static/js/friends.js',
                             '/static/social.css', '/static/js/main.js', '/static/style.css'])
              out[u] = !!(await caches.match(u));
            return out; }""")
        assert all(cached.values()), cached
        # a second visit while the server runs: pages come from the network (network first)
        page.reload()
        poll(page, "() => document.getElementById('me').textContent.length > 0")
        stack.close()  # the server is gone
        with pytest.raises(OSError):
            urllib.request.urlopen(base + "/healthz", timeout=2)
        page.reload()
        poll(page, "() => getComputedStyle(document.getElementById('topbar')).backgroundColor === 'rgb(127, 29, 29)'")
        assert page.is_visible("#lobby") and page.is_visible("#langbtn")
        assert page.text_content("#topbar nav a") == "大厅"  # the scripts ran (i18n applied)
        page.screenshot(path=str(screens_dir() / "polish-offline-lobby-390x844.png"))
        page.goto(base + "/room/ABCD")  # a room link: the lobby shell
        poll(page, "() => document.getElementById('lobby') !== null")
        page.goto(base + "/calc")
        poll(page, "() => getComputedStyle(document.body).backgroundColor !== 'rgba(0, 0, 0, 0)'")
        assert page.title()
        page.goto(base + "/account")
        poll(page, "() => document.body.dataset.ready === '1'")
        assert page.is_visible("#f-login")
    finally:
        stack.close()
        ctx.close()
    assert not [e for e in errors if "Failed to fetch" not in e and "NetworkError" not in e], errors
