"""Steps of the avatar tests: a guest over HTTP, a request (raw or JSON), a PNG that is only
a header."""

from __future__ import annotations

import struct
import urllib.error
import urllib.request
import zlib
from typing import Any

from support.srvhelpers import LiveServer


def jreq(srv: LiveServer, path: str, body: bytes, ctype: str, token: str | None) -> tuple[int, Any]:
    import json

    status, _h, raw = req(srv, path, body, ctype, token)
    return status, json.loads(raw)


def guest(srv: LiveServer, nick: str = "av") -> tuple[str, str]:
    status, out = srv.post("/api/guest", {"nickname": nick})
    assert status == 200, out
    return out["token"], out["player_id"]


def png_header_only(w: int, h: int) -> bytes:
    """A PNG that claims w x h pixels (a decompression bomb's header; no real pixel data)."""
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    ihdr = struct.pack(">IIBBBBB", w, h, 8, 0, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", zlib.compress(b"\0" * 64)) + \
        chunk(b"IEND", b"")


def req(srv: LiveServer, path: str, data: bytes | None = None, ctype: str | None = None,
        token: str | None = None, headers: dict[str, str] | None = None) -> tuple[int, Any, bytes]:
    h = dict(headers or {})
    if ctype:
        h["Content-Type"] = ctype
    if token:
        h["Authorization"] = "Bearer " + token
    r = urllib.request.Request(srv.url + path, data=data, headers=h,
                               method="POST" if data is not None else "GET")
    try:
        with urllib.request.urlopen(r, timeout=20) as resp:
            return resp.status, resp.headers, resp.read()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.headers, exc.read()
