"""The HTTP guard around every request (pure ASGI, so it sees the body as it streams in).

For each HTTP request it

- gives the request an id (``X-Request-ID`` on the response, ``request_id`` in JSON error
  bodies); a real internal error is logged once, with its traceback and that id, and the
  client gets ``500 {"error": ..., "request_id": ...}``;
- refuses a body larger than :data:`~laizi.server.common.inputs.MAX_BODY_BYTES` (or the limit
  ``path_limits`` gives its path, e.g. an avatar upload; ``*`` stands for one segment): at once from its
  ``Content-Length``, and otherwise (chunked) as soon as the bytes read pass the limit —
  the rest is never read;
- adds the security headers (:data:`SECURITY_HEADERS`: a Content-Security-Policy that
  forbids inline script, ``nosniff``, no referrer, no framing) to every response.

WebSocket connections pass through untouched (their frames are limited by uvicorn's
``ws_max_size`` and :func:`laizi.server.common.protocol.parse_client_message`).
"""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Awaitable, Callable, Mapping, MutableMapping
from typing import Any

from laizi.server.common.inputs import MAX_BODY_BYTES
from laizi.server.common.protocol import new_request_id

__all__ = ["CSP", "SECURITY_HEADERS", "HttpGuard", "new_request_id"]


log = logging.getLogger("laizi.server")

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

CSP = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; "
       "connect-src 'self' ws: wss:; object-src 'none'; base-uri 'none'; frame-ancestors 'none'")
SECURITY_HEADERS: tuple[tuple[str, str], ...] = (
    ("content-security-policy", CSP),
    ("x-content-type-options", "nosniff"),
    ("referrer-policy", "no-referrer"),
    ("x-frame-options", "DENY"),
)
_BODY_METHODS = {"POST", "PUT", "PATCH", "DELETE"}




class BodyTooLarge(Exception):
    """The request body passed the limit while it was being read."""


class HttpGuard:
    """ASGI middleware: request ids, body limit, security headers, one log line per crash."""

    def __init__(self, app: ASGIApp, max_body: int = MAX_BODY_BYTES,
                 path_limits: Mapping[str, int] | None = None) -> None:
        self.app = app
        self.max_body = max_body
        self.path_limits = {k: v for k, v in (path_limits or {}).items() if "*" not in k}
        # a path with ``*`` (one segment: "/api/clubs/*/picture")
        self.pattern_limits = [(re.compile(re.escape(k).replace(r"\*", "[^/]+")), v)
                               for k, v in (path_limits or {}).items() if "*" in k]

    def _limit(self, path: str) -> int:
        if path in self.path_limits:
            return self.path_limits[path]
        return next((v for rx, v in self.pattern_limits if rx.fullmatch(path)), self.max_body)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        rid = new_request_id()
        scope.setdefault("state", {})["request_id"] = rid
        started = False
        extra = [(k.encode(), v.encode()) for k, v in SECURITY_HEADERS]
        extra.append((b"x-request-id", rid.encode()))

        async def send_wrapped(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
                names = {k.lower() for k, _ in message.get("headers", [])}
                headers = list(message.get("headers", []))
                headers += [(k, v) for k, v in extra if k not in names]
                message["headers"] = headers
            await send(message)

        async def error(status: int, text: str) -> None:
            body = json.dumps({"error": text, "request_id": rid}).encode()
            await send_wrapped({"type": "http.response.start", "status": status, "headers": [
                (b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()),
                (b"connection", b"close")]})
            await send_wrapped({"type": "http.response.body", "body": body})

        method = scope.get("method", "GET")
        max_body = self._limit(scope.get("path", ""))
        too_large = f"request body larger than {max_body} bytes"
        if method in _BODY_METHODS:
            length = _content_length(scope)
            if length is None and _has_header(scope, b"content-length"):
                await error(400, "bad Content-Length")
                return
            if length is not None and length > max_body:
                await error(413, too_large)
                return
        seen = 0

        async def receive_limited() -> Message:
            nonlocal seen
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > max_body:
                    raise BodyTooLarge
            return message

        try:
            await self.app(scope, receive_limited, send_wrapped)
        except BodyTooLarge:
            if not started:
                await error(413, too_large)
        except Exception:
            log.exception("request %s: %s %s failed", rid, method, scope.get("path", ""))
            if not started:
                await error(500, "internal server error")


def _has_header(scope: Scope, name: bytes) -> bool:
    return any(k.lower() == name for k, _ in scope.get("headers", []))


def _content_length(scope: Scope) -> int | None:
    for k, v in scope.get("headers", []):
        if k.lower() == b"content-length":
            text = v.decode("latin-1").strip()
            if not text.isdigit() or len(text) > 18:
                return None
            return int(text)
    return None
