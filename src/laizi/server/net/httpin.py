"""What the JSON API handlers read from a request: a JSON object body (strict reader, size
bound), a bearer token, an integer query parameter within its range.

Each function takes the caller's error type (``error(message)`` is raised, a 400 by the
caller's own handler) so the routes of accounts, coins/friends and tournaments share one
reading of their input and keep their own error shapes.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from starlette.requests import Request

from laizi.server.common.inputs import MAX_BODY_BYTES, JSONInputError, loads_strict

__all__ = ["bearer", "int_param", "json_object"]

ErrorType = Callable[[str], Exception]


async def json_object(request: Request, error: ErrorType, *, empty: bytes = b"{}") -> dict[str, Any]:
    """The body as a JSON object (an empty body reads as ``empty``)."""
    body = await request.body()
    if len(body) > MAX_BODY_BYTES:
        raise error(f"request body larger than {MAX_BODY_BYTES} bytes")
    try:
        data = loads_strict(body or empty)
    except JSONInputError as exc:
        raise error(f"input: {exc}") from None
    if not isinstance(data, dict):
        raise error("expected a JSON object")
    return data


def bearer(request: Request, data: dict[str, Any] | None = None) -> Any:
    """The ``Authorization: Bearer`` token, else the body's ``token`` field (or None)."""
    auth = request.headers.get("authorization", "")
    if auth.lower().startswith("bearer "):
        return auth[7:].strip()
    return (data or {}).get("token")


def int_param(request: Request, name: str, default: int | None, lo: int, hi: int,
              error: ErrorType) -> int | None:
    """The query parameter ``name`` as an integer from ``lo`` to ``hi`` (``default`` when absent)."""
    raw = request.query_params.get(name)
    if raw is None:
        return default
    try:
        v = int(raw)
    except ValueError:
        raise error(f"{name} must be an integer") from None
    if not lo <= v <= hi:
        raise error(f"{name} must be from {lo} to {hi}")
    return v
