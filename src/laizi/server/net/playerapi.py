"""HTTP routes of accounts, profiles and the leaderboard (pages and JSON).

- ``POST /api/account/register`` ``{username, password, nickname?, token?}`` (``token``: a
  guest's token — the guest becomes the account and keeps its player id and history);
- ``POST /api/account/login`` ``{username, password}``;
- ``POST /api/account/logout``, ``POST /api/account/logout-all`` ``{token}``;
- ``POST /api/account/password`` ``{token, old_password, new_password}``;
- ``GET /api/account/me`` (``Authorization: Bearer <token>``);
- ``GET /api/players/{id}[?limit=N&before=M&preset=P&result=win|loss|escaped&since=D&until=D]``:
  profile (with ``avatar``: kind, choice, url), figures, recent matches (filtered: a rule set,
  a result, finished from ``since`` to ``until`` inclusive, dates ``YYYY-MM-DD`` UTC);
- ``GET /api/leaderboard[?limit=N&offset=M]``: rated players by rating;
- pages ``/account``, ``/players/{id}``, ``/leaderboard`` (``web/players.html``).

The account calls answer ``{token, player_id, username, nickname, expires_in}``; errors are
``{"error": message, "request_id": id}`` (an :class:`AccountError` raised by an endpoint
becomes it through the app's ``ApiError`` handler) with 400 (bad input), 401 (wrong
credentials or an ended session), 403 (wrong current password), 409 (taken / registered
already) or 429 (too many attempts, with ``Retry-After``). The endpoints are module-level
and read the services from ``request.app.state`` (``hub``, ``accounts``, ``reviews``).
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Any

from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Route

from laizi.rules import PRESETS
from laizi.server.accounts.accounts import AccountError, Accounts
from laizi.server.accounts.players import MATCH_LIST_MAX, RESULTS, MatchFilter, profile
from laizi.server.accounts.ratings import LEADERBOARD_MAX, leaderboard
from laizi.server.ledger.coins import balances
from laizi.server.net.httpin import bearer, error_response, int_param, json_object

if TYPE_CHECKING:
    from laizi.server.tables.hub import Hub

__all__ = ["PLAYER_ROUTES"]

WEB_DIR = Path(__file__).resolve().parents[2] / "web"
PLAYER_ID_MAX = 32


async def _body(request: Request) -> dict[str, Any]:
    return await json_object(request, AccountError, empty=b"null")



def _int_param(request: Request, name: str, default: int | None, lo: int, hi: int) -> int | None:
    return int_param(request, name, default, lo, hi, AccountError)


def _day(request: Request, name: str) -> datetime | None:
    raw = request.query_params.get(name)
    if not raw:
        return None
    try:
        return datetime.strptime(raw[:10], "%Y-%m-%d").replace(tzinfo=UTC) if len(raw) == 10 else _bad(name)
    except ValueError:
        return _bad(name)


def _bad(name: str) -> datetime:
    raise AccountError(f"{name} must be a date, YYYY-MM-DD")


def _match_filter(request: Request) -> MatchFilter | None:
    """``?preset=&result=&since=&until=`` of the profile's match list (``until`` inclusive)."""
    q = request.query_params
    preset, result = q.get("preset") or None, q.get("result") or None
    if preset is not None and preset not in PRESETS:
        raise AccountError(f"unknown rule set; one of {', '.join(PRESETS)}")
    if result is not None and result not in RESULTS:
        raise AccountError(f"result is one of {', '.join(RESULTS)}")
    since, until = _day(request, "since"), _day(request, "until")
    if preset is None and result is None and since is None and until is None:
        return None
    return MatchFilter(preset, result, since, None if until is None else until + timedelta(days=1))


Handler = Callable[[Request], Awaitable[Any]]


def _api(fn: Handler) -> Callable[[Request], Awaitable[Response]]:
    async def endpoint(request: Request) -> Response:
        try:
            out = await fn(request)
        except ValueError as exc:  # a bad nickname
            return error_response(request, str(exc))
        if isinstance(out, Response):
            return out
        return JSONResponse(out, headers={"Cache-Control": "no-store"})

    return endpoint  # an AccountError becomes the one JSON error answer (the app's handler)


def _accounts(request: Request) -> Accounts:
    accounts: Accounts = request.app.state.accounts
    return accounts


def _hub(request: Request) -> Hub:
    hub: Hub = request.app.state.hub
    return hub


def _peer(request: Request) -> str:
    return request.client.host if request.client else ""


async def register(request: Request) -> Any:
    d = await _body(request)
    return await _accounts(request).register(d.get("username"), d.get("password"), token=d.get("token"),
                                             nickname=d.get("nickname"), peer=_peer(request))


async def login(request: Request) -> Any:
    d = await _body(request)
    return await _accounts(request).login(d.get("username"), d.get("password"), peer=_peer(request))


async def logout(request: Request) -> Any:
    d = await _body(request)
    return await _accounts(request).logout(bearer(request, d))


async def logout_all(request: Request) -> Any:
    d = await _body(request)
    return await _accounts(request).logout_all(bearer(request, d))


async def password(request: Request) -> Any:
    d = await _body(request)
    return await _accounts(request).change_password(bearer(request, d), d.get("old_password"),
                                                    d.get("new_password"))


async def me(request: Request) -> Any:
    return await _accounts(request).me(bearer(request))


async def player(request: Request) -> Any:
    pid = request.path_params["player_id"]
    if not 1 <= len(pid) <= PLAYER_ID_MAX:
        raise AccountError("bad player id")
    limit = _int_param(request, "limit", 20, 1, MATCH_LIST_MAX) or 20
    before = _int_param(request, "before", None, 1, 2**31 - 1)
    only = _match_filter(request)
    hub = _hub(request)

    def load() -> dict[str, Any] | None:
        with hub.store.engine.connect() as conn:
            out = profile(conn, pid, limit, before, only)
            if out is not None:  # social: the balance of game coins (laizi.server.ledger.coins)
                out["coins"] = {"balance": balances(conn, [pid])[pid]}
            return out

    out = await asyncio.to_thread(load)
    if out is None:
        raise AccountError("unknown player", 404, code="unknown_player")
    reviews = getattr(request.app.state, "reviews", None)  # 复盘 accuracy: reviews built so far
    out["review"] = None if reviews is None else await reviews.accuracy_of(
        [(m["match_id"], m["seat"]) for m in out["recent"]])
    return out


async def board(request: Request) -> Any:
    limit = _int_param(request, "limit", 50, 1, LEADERBOARD_MAX) or 50
    offset = _int_param(request, "offset", 0, 0, 10**7) or 0
    hub = _hub(request)

    def load() -> list[dict[str, Any]]:
        with hub.store.engine.connect() as conn:
            return leaderboard(conn, limit, offset)

    return {"players": await asyncio.to_thread(load), "limit": limit, "offset": offset}


async def page(request: Request) -> Response:
    return FileResponse(WEB_DIR / "players.html", headers={"Cache-Control": "no-cache"})


PLAYER_ROUTES = [
    Route("/account", page),
    Route("/leaderboard", page),
    Route("/players/{player_id}", page),
    Route("/api/account/register", _api(register), methods=["POST"]),
    Route("/api/account/login", _api(login), methods=["POST"]),
    Route("/api/account/logout", _api(logout), methods=["POST"]),
    Route("/api/account/logout-all", _api(logout_all), methods=["POST"]),
    Route("/api/account/password", _api(password), methods=["POST"]),
    Route("/api/account/me", _api(me)),
    Route("/api/players/{player_id}", _api(player)),
    Route("/api/leaderboard", _api(board)),
]
