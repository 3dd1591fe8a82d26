"""HTTP routes of coins, quick match, friends and invites (``docs/social.md``).

Every call but ``GET /api/levels`` needs the player's token (``Authorization: Bearer
<token>``, or ``token`` in a POST body): a guest's or a registered player's. Errors are
``{"error": message, "request_id": id}`` with 400 (bad input), 401 (no valid token), 403
(not allowed: a guest where an account is needed, too few coins, not friends), 404
(unknown player / invite), 409 (conflict: duplicate request, already claimed today, not
in a room), 410 (invite expired), 429 (a limit; ``Retry-After``). The endpoints are
module-level and read the services from ``request.app.state.social`` (:class:`Social`); a
refusal (:class:`ApiError`) becomes the one JSON error answer through the app's handler.

- ``GET /api/levels``: the levels (场次) and how many wait in each (``waiting``) and in each of its
  rule sets' queues (``queues`` ``{preset: n}``), the rule sets with their cards;
- ``GET /api/coins[?limit=N&before=ID]``: balance, today's top-up, ledger (newest first);
- ``POST /api/coins/daily``: the free daily top-up (once per UTC day);
- ``POST /api/quick`` ``{level, preset}``: join a level × rule set's queue; ``GET /api/quick``: waiting /
  seated / idle; ``POST /api/quick/leave``;
- ``GET /api/friends``: friends with presence, requests in and out;
- ``POST /api/friends/request|accept|decline|remove`` ``{player}`` (username or player id);
- ``POST /api/invites`` ``{player, room?}``; ``GET /api/invites``;
  ``POST /api/invites/{id}/accept|decline``.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from laizi.server.common.errors import ApiError
from laizi.server.competitions.quickmatch import DEFAULT_PRESET, QuickMatch
from laizi.server.ledger import coins
from laizi.server.net.httpin import current_player, int_param, json_object
from laizi.server.social.friends import Friends
from laizi.server.social.presence import LocalPresence, Presence

if TYPE_CHECKING:
    from laizi.server.tables.hub import Hub

__all__ = ["SOCIAL_ROUTES", "Social"]


class Social:
    """The social services of one server (``app.state.social``, read by :data:`SOCIAL_ROUTES`)."""

    def __init__(self, hub: Hub, presence: Presence | None = None) -> None:
        self.hub = hub
        self.presence: Presence = presence or LocalPresence(hub)
        self.friends = Friends(hub, self.presence)
        self.quick = QuickMatch(hub, self.presence)

    async def coins(self, pid: str, limit: int, before: int | None) -> dict[str, Any]:
        registered = pid in self.hub.auth.accounts
        if registered:
            await self.hub.store.writer.write(lambda s: coins.grant_welcome(s.connection(), pid))
        now = datetime.now(UTC)

        def read() -> dict[str, Any]:
            with self.hub.store.engine.connect() as conn:
                return {"balance": coins.balances(conn, [pid])[pid],
                        "ledger": coins.ledger(conn, pid, limit, before),
                        "daily_claimed": coins.claimed(conn, pid, now.date())}

        d = await asyncio.to_thread(read)
        levels = [{**coins.level_json(lv),
                   "open": (registered or lv.guests) and d["balance"] >= lv.min_balance}
                  for lv in coins.LEVELS.values()]
        return {"player_id": pid, "registered": registered, "balance": d["balance"],
                "daily": {"amount": coins.DAILY_COINS if registered else 0,
                          "claimed": d["daily_claimed"],
                          "next_in": coins.next_day_in(now)},
                "levels": levels, "ledger": d["ledger"]}

    async def daily(self, pid: str) -> dict[str, Any]:
        if pid not in self.hub.auth.accounts:
            raise ApiError("guests have no coins: register to get the daily top-up", 403, code="coins_guest")
        day = datetime.now(UTC).date()

        def write(s: Any) -> bool:
            coins.grant_welcome(s.connection(), pid)
            return coins.claim_daily(s.connection(), pid, day)

        if not await self.hub.store.writer.write(write):
            raise ApiError("today's top-up is claimed already; come back tomorrow (UTC)", 409, code="topup_claimed")

        def read() -> int:
            with self.hub.store.engine.connect() as conn:
                return coins.balances(conn, [pid])[pid]

        return {"ok": True, "granted": coins.DAILY_COINS, "balance": await asyncio.to_thread(read)}


async def _body(request: Request) -> dict[str, Any]:
    if request.method != "POST":
        return {}
    return await json_object(request, ApiError)


def _int(request: Request, name: str, default: int | None, lo: int, hi: int) -> int | None:
    return int_param(request, name, default, lo, hi, ApiError)


Handler = Callable[[Request, Social, str, dict[str, Any]], Awaitable[Any]]


def _api(fn: Handler, auth: bool = True) -> Callable[[Request], Awaitable[Response]]:
    async def endpoint(request: Request) -> Response:
        data = await _body(request)
        pid = await current_player(request, data) if auth else ""
        try:
            out = await fn(request, request.app.state.social, pid, data)
        except ApiError as exc:  # a social limit always says when to come back
            if exc.status == 429 and exc.retry_after is None:
                exc.retry_after = 60.0
            raise
        return JSONResponse(out, headers={"Cache-Control": "no-store"})

    return endpoint  # an ApiError becomes the one JSON error answer (the app's handler)


async def levels(request: Request, social: Social, pid: str, d: dict[str, Any]) -> Any:
    sizes = await social.quick.queue_sizes()
    return {"levels": [{**coins.level_json(lv), "waiting": sum(sizes[lv.name].values()),
                        "queues": sizes[lv.name]} for lv in coins.LEVELS.values()],
            "presets": social.quick.presets(), "default_preset": DEFAULT_PRESET,
            "wait": social.quick.wait, "welcome": coins.WELCOME_COINS, "daily": coins.DAILY_COINS}


async def coins_me(request: Request, social: Social, pid: str, d: dict[str, Any]) -> Any:
    limit = _int(request, "limit", 30, 1, coins.LEDGER_MAX) or 30
    before = _int(request, "before", None, 1, 2**62)
    return await social.coins(pid, limit, before)


async def daily(request: Request, social: Social, pid: str, d: dict[str, Any]) -> Any:
    return await social.daily(pid)


async def quick(request: Request, social: Social, pid: str, d: dict[str, Any]) -> Any:
    if request.method == "POST":
        return await social.quick.enqueue(pid, d.get("level"), d.get("preset", DEFAULT_PRESET))
    return await social.quick.status(pid)


async def quick_leave(request: Request, social: Social, pid: str, d: dict[str, Any]) -> Any:
    return await social.quick.leave(pid)


async def friends(request: Request, social: Social, pid: str, d: dict[str, Any]) -> Any:
    return await social.friends.listing(pid)


def _friend_op(op: str) -> Handler:
    async def run(request: Request, social: Social, pid: str, d: dict[str, Any]) -> Any:
        who = d.get("player")
        if op == "request":
            return await social.friends.request(pid, who)
        if op == "remove":
            return await social.friends.remove(pid, who)
        return await social.friends.answer(pid, who, op == "accept")

    return run


async def invites(request: Request, social: Social, pid: str, d: dict[str, Any]) -> Any:
    if request.method == "POST":
        return await social.friends.invite(pid, d.get("player"), d.get("room"))
    return await social.friends.invites(pid)


def _invite_reply(accept: bool) -> Handler:
    async def run(request: Request, social: Social, pid: str, d: dict[str, Any]) -> Any:
        try:
            iid = int(request.path_params["invite_id"])
        except ValueError:
            raise ApiError("bad invite id") from None
        if not 1 <= iid <= 2**31 - 1:
            raise ApiError("bad invite id")
        return await social.friends.reply(pid, iid, accept)

    return run


SOCIAL_ROUTES = [
    Route("/api/levels", _api(levels, auth=False)),
    Route("/api/coins", _api(coins_me)),
    Route("/api/coins/daily", _api(daily), methods=["POST"]),
    Route("/api/quick", _api(quick), methods=["GET", "POST"]),
    Route("/api/quick/leave", _api(quick_leave), methods=["POST"]),
    Route("/api/friends", _api(friends)),
    *(Route(f"/api/friends/{op}", _api(_friend_op(op)), methods=["POST"])
      for op in ("request", "accept", "decline", "remove")),
    Route("/api/invites", _api(invites), methods=["GET", "POST"]),
    Route("/api/invites/{invite_id}/accept", _api(_invite_reply(True)), methods=["POST"]),
    Route("/api/invites/{invite_id}/decline", _api(_invite_reply(False)), methods=["POST"]),
]
