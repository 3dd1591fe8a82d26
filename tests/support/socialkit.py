"""Helpers for the social tests (coins, quick match, friends): accounts on a live server and
authenticated JSON calls."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from typing import Any

from support.srvhelpers import LiveServer

PASSWORD = "tile-wall-42"


def call(srv: LiveServer, method: str, path: str, token: str | None = None,
         body: Any = None) -> tuple[int, Any]:
    """(status, JSON) of an API call with ``Authorization: Bearer token``."""
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    data = None if body is None else json.dumps(body).encode()
    if method == "POST" and data is None:
        data = b"{}"
    req = urllib.request.Request(srv.url + path, data=data, method=method, headers=headers)
    try:
        with urllib.request.urlopen(req, timeout=15) as r:
            return r.status, json.loads(r.read() or b"null")
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read() or b"null")


def register(srv: LiveServer, username: str) -> tuple[str, str]:
    """(token, player id) of a new account."""
    st, out = srv.post("/api/account/register", {"username": username, "password": PASSWORD})
    assert st == 200, out
    return out["token"], out["player_id"]


def guest(srv: LiveServer, nickname: str = "游客") -> tuple[str, str]:
    st, out = srv.post("/api/guest", {"nickname": nickname})
    assert st == 200, out
    return out["token"], out["player_id"]
