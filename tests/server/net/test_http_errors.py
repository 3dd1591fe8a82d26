"""A real internal error in an HTTP handler: logged once with its traceback and a request
id, and the client gets 500 with the same id (header and JSON body); client mistakes
(4xx) log nothing."""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

import pytest
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route
from starlette.testclient import TestClient


def test_internal_error_is_logged_once_with_the_request_id(
        make_app: Callable[..., Any], caplog: pytest.LogCaptureFixture) -> None:
    app = make_app()

    async def broken(request: Request) -> Response:
        raise KeyError("a bug")

    app.router.routes.insert(0, Route("/api/broken", broken))
    caplog.set_level(logging.INFO)
    with TestClient(app, raise_server_exceptions=False) as c:
        r = c.get("/api/broken")
        assert r.status_code == 500
        rid = r.headers["x-request-id"]
        assert r.json() == {"error": "internal server error", "request_id": rid}
        assert r.headers["content-security-policy"].startswith("default-src 'self'")
        errors = [rec for rec in caplog.records if rec.exc_info]
        assert len(errors) == 1
        assert rid in errors[0].getMessage() and "KeyError" in caplog.text
        caplog.clear()
        r = c.post("/api/score", content=b"[" * 5000)
        assert r.status_code == 400 and r.json()["request_id"] == r.headers["x-request-id"]
        r = c.post("/api/score", content=b"{}" * 40_000)
        assert r.status_code == 413
        assert not [rec for rec in caplog.records if rec.exc_info]


def test_ws_internal_error_frame_carries_the_logged_request_id(
        make_app: Callable[..., Any], caplog: pytest.LogCaptureFixture,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A bug in a command handler (injected: ping raises) is logged once with a request id
    that the client's error frame carries; the socket stays usable."""
    from laizi.server.net import handlers
    from support.srvhelpers import close_all, connect

    async def broken_ping(hub: Any, conn: Any, m: Any) -> None:
        raise ZeroDivisionError("a bug")

    caplog.set_level(logging.INFO)
    with TestClient(make_app()) as c:
        try:
            ws, _ = connect(c, "bug")
            monkeypatch.setitem(handlers.CONN_HANDLERS, "ping", broken_ping)
            ws.send(type="ping")
            err = ws.error()
            assert err["code"] == "internal" and len(err["request_id"]) == 12
            errors = [rec for rec in caplog.records if rec.exc_info]
            assert len(errors) == 1 and err["request_id"] in errors[0].getMessage()
            ws.send(type="create", settings={"claim_seconds": "x"})
            assert ws.error()["code"] == "bad_message"
            assert len([rec for rec in caplog.records if rec.exc_info]) == 1
        finally:
            close_all()
