"""What the JSON API handlers read from a request — a JSON object body (strict reader, size
bound), a bearer token, the player it names (:func:`current_player`), an integer query
parameter within its range — and the one error answer they give (:func:`error_response`:
``{"error", "request_id"}``, a status, ``Retry-After`` for a rate limit), also given for any
:class:`laizi.server.common.errors.ApiError` a route raises (:func:`api_error_handler`,
registered on the app).

The readers take the caller's error type (``error(message)`` is raised: a 400) so each
service refuses bad input with its own :class:`ApiError`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from laizi.server.common.errors import ApiError, coded
from laizi.server.common.inputs import MAX_BODY_BYTES, JSONInputError, loads_strict

__all__ = ["api_error_handler", "api_error_response", "bearer", "current_player", "error_response", "int_param",
           "json_object"]

TOKEN_REFUSED = "unknown, expired or ended token"


def error_response(request: Request, message: str, status: int = 400, *,
                   retry_after: float | None = None, **extra: Any) -> JSONResponse:
    """The API's one error answer: ``{"error": message, ...extra, "request_id"}``."""
    rid = request.scope.get("state", {}).get("request_id")
    resp = JSONResponse({"error": message, **extra, "request_id": rid}, status_code=status)
    if retry_after is not None:
        resp.headers["Retry-After"] = str(max(1, int(retry_after + 0.999)))
    return resp


async def api_error_handler(request: Request, exc: Exception) -> Response:
    """Starlette's handler for :class:`ApiError` (and each service's own)."""
    assert isinstance(exc, ApiError)
    return api_error_response(request, exc)


def api_error_response(request: Request, exc: ApiError) -> JSONResponse:
    """The error answer of a refusal: its message, status, ``Retry-After``, and its ``code``
    and ``params`` when it has them (what the web client words in the player's language)."""
    return error_response(request, exc.message, exc.status, retry_after=exc.retry_after, **coded(exc))


async def current_player(request: Request, data: dict[str, Any] | None = None, *,
                         message: str = TOKEN_REFUSED) -> str:
    """The player the request's token names (``Authorization: Bearer``, else the body's
    ``token``): a player of this server (on a cluster: of any node,
    :meth:`~laizi.server.tables.hub.Hub.known_player`), else :class:`ApiError` 401."""
    hub = request.app.state.hub
    token = bearer(request, data)
    pid = await hub.identify(token) if isinstance(token, str) else None
    if pid is None or not await hub.known_player(pid):
        raise ApiError(message, 401, code="token_refused")
    return str(pid)

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
