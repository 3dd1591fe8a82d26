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


def raw_post(srv: LiveServer, path: str, body: bytes, ctype: str, token: str | None,
             chunked: bool = False) -> tuple[int, bytes]:
    """POST over a plain socket, so a server that answers 413 before reading the whole body
    (and closes) is seen as a browser sees it, not as a broken pipe."""
    import socket

    head = [f"POST {path} HTTP/1.1", f"Host: 127.0.0.1:{srv.port}", f"Content-Type: {ctype}",
            "Connection: close"]
    if token:
        head.append(f"Authorization: Bearer {token}")
    head.append("Transfer-Encoding: chunked" if chunked else f"Content-Length: {len(body)}")
    with socket.create_connection(("127.0.0.1", srv.port), timeout=20) as sock:
        sock.sendall(("\r\n".join(head) + "\r\n\r\n").encode())
        try:
            for i in range(0, len(body), 65536):
                piece = body[i:i + 65536]
                sock.sendall(b"%x\r\n%s\r\n" % (len(piece), piece) if chunked else piece)
            if chunked:
                sock.sendall(b"0\r\n\r\n")
        except (BrokenPipeError, ConnectionResetError):
            pass  # answered and closed early
        data = b""
        try:
            while chunk := sock.recv(65536):
                data += chunk
        except ConnectionResetError:
            pass
    status = int(data.split(b" ", 2)[1])
    return status, data.split(b"\r\n\r\n", 1)[1]
