"""An address that does not exist. A browser opening it (a mistyped or stale link) gets a page
that says so in Chinese and English, with its way back to the lobby; programs — the JSON APIs,
the static files, a client that does not ask for HTML — keep the plain 404 they always had."""

from __future__ import annotations

from typing import Any

import pytest
from starlette.testclient import TestClient

BROWSER = {"accept": "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"}


@pytest.mark.parametrize("path", ["/nope", "/room/ABCDE/extra", "/players", "/leaderboard/nope"])
def test_a_browser_gets_the_not_found_page(client: TestClient, path: str) -> None:
    r = client.get(path, headers=BROWSER)
    assert r.status_code == 404
    assert r.headers["content-type"].startswith("text/html")
    assert 'data-testid="not-found"' in r.text and "找不到这个页面" in r.text and "Page not found" in r.text
    assert 'href="/"' in r.text  # the way back
    assert r.headers["content-security-policy"].startswith("default-src 'self'")  # the guard's headers too
    head = client.head(path, headers=BROWSER)
    assert head.status_code == 404 and head.headers["content-type"].startswith("text/html")


@pytest.mark.parametrize(("path", "headers"), [
    ("/nope", {}),                                   # a program: no Accept
    ("/nope", {"accept": "application/json"}),
    ("/api/nope", BROWSER),                          # the APIs
    ("/static/js/nope.js", BROWSER),                 # a static file
    ("/static/nope.html", BROWSER),
])
def test_programs_keep_the_plain_404(client: TestClient, path: str, headers: dict[str, Any]) -> None:
    r = client.get(path, headers=headers)
    assert r.status_code == 404
    assert r.headers["content-type"].startswith("text/plain")
    assert r.text == "Not Found"


def test_the_pages_that_exist_are_untouched(client: TestClient) -> None:
    for path in ("/", "/calc"):
        r = client.get(path, headers=BROWSER)
        assert r.status_code == 200 and "not-found" not in r.text
    assert client.post("/nope", headers=BROWSER).status_code in (404, 405)
