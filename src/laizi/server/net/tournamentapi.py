"""HTTP routes of the tournaments (pages and JSON).

- ``GET /api/tournaments[?status=S]``: the latest tournaments (not the clubs' events: those
  are listed by ``GET /api/clubs/{id}/events``);
- ``POST /api/tournaments`` ``{name, preset?, options?, rounds?, hands_per_round?, seats?,
  bots_fill?, bot_level?, duplicate?, start_at?, turn_seconds?, continue_seconds?,
  bot_delay?, no_show_seconds?, club?}``: create one (a logged-in account: the organiser;
  with ``club``, the club's owner or an admin: a club event, only its members register,
  a private club's shown to its members only);
- ``GET /api/tournaments/{id}``: settings, entrants, rounds and tables, standings, ``me``;
- ``GET /api/tournaments/{id}/verify``: the deal checks of every round;
- ``POST /api/tournaments/{id}/register`` | ``unregister`` | ``check-in`` (an account),
  ``start`` | ``cancel`` (the organiser);
- pages ``/tournaments``, ``/tournaments/{id}`` (``web/tournaments.html``).

The caller is named by ``Authorization: Bearer <token>`` (or ``{token}`` in the body).
Errors are ``{"error", "request_id"}``: 400 bad input, 401 not logged in, 403 not the
organiser / not an account, 404 unknown tournament, 409 a state that forbids it (full,
started, registered twice…).
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sqlalchemy.orm import Session
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Route

from laizi.server.competitions.tournaments import records, views
from laizi.server.competitions.tournaments.director import Director, TournamentError
from laizi.server.competitions.tournaments.settings import SettingsError, parse_settings
from laizi.server.net.httpin import api_error_response, bearer, error_response, json_object

if TYPE_CHECKING:
    from laizi.server.tables.hub import Hub

__all__ = ["TOURNAMENT_ROUTES"]

WEB_DIR = Path(__file__).resolve().parents[2] / "web"
STATUSES = ("registration", "running", "finished", "cancelled")


async def _body(request: Request) -> dict[str, Any]:
    return await json_object(request, TournamentError)


_token = bearer


def _tid(request: Request) -> int:
    try:
        tid = int(request.path_params["tid"])
    except ValueError:
        raise TournamentError("bad tournament id") from None
    if not 1 <= tid <= 2**31 - 1:
        raise TournamentError("bad tournament id")
    return tid


Handler = Callable[[Request], Awaitable[Any]]


def _api(fn: Handler) -> Callable[[Request], Awaitable[Response]]:
    async def endpoint(request: Request) -> Response:
        try:
            out = await fn(request)
        except TournamentError as exc:
            return api_error_response(request, exc)
        except SettingsError as exc:
            return error_response(request, str(exc))
        return JSONResponse(out, headers={"Cache-Control": "no-store"})

    return endpoint


def _hub(request: Request) -> Hub:
    hub: Hub = request.app.state.hub
    return hub


def _director(request: Request) -> Director:
    director: Director = request.app.state.director
    return director


async def account(hub: Hub, token: Any) -> str:
    """The player id of a logged-in account (guests cannot organise or enter)."""
    pid = await hub.identify(token) if isinstance(token, str) and token else None
    if pid is None:
        raise TournamentError("not logged in (unknown, expired or ended session)", 401, code="not_logged_in")
    if hub.auth.session_of(token) is None:
        raise TournamentError("tournaments are for accounts: register or log in first", 403)
    return pid


async def viewer(request: Request) -> str | None:
    token = _token(request)
    return await _hub(request).identify(token) if isinstance(token, str) and token else None


async def read(hub: Hub, fn: Callable[[Session], Any]) -> Any:
    def run() -> Any:
        with Session(hub.store.engine) as s:
            return fn(s)
    return await asyncio.to_thread(run)


async def listing(request: Request) -> Any:
    hub = _hub(request)
    status = request.query_params.get("status")
    if status is not None and status not in STATUSES:
        raise TournamentError(f"status must be one of {', '.join(STATUSES)}")
    rows = await asyncio.to_thread(records.tournaments, hub.store.engine, status)
    for r in rows:
        r["organiser"] = hub.players.get(r["organiser_id"], "")
    return {"tournaments": rows}


async def create(request: Request) -> Any:
    data = await _body(request)
    pid = await account(_hub(request), _token(request, data))
    data.pop("token", None)
    settings = parse_settings(data)
    if settings.club is not None:  # a club's event: its owner or an admin organises it
        await request.app.state.clubs.staff(pid, settings.club)
    return await _director(request).create(pid, settings)


async def one(request: Request) -> Any:
    hub = _hub(request)
    tid = _tid(request)
    who = await viewer(request)
    out = await read(hub, lambda s: views.detail(s, tid, hub.players, who))
    if out is None:
        raise TournamentError("unknown tournament", 404, code="unknown_tournament")
    if out.get("club") is not None:  # a private club's event: its members only
        await request.app.state.clubs.sees(who, out["club"])
    for rnd in out["rounds"][-1:]:  # live scores of the tables in play (read in the loop)
        for tab in rnd["tables"]:
            room = hub.rooms.get(tab["room"])
            g = room.game if room is not None and room.match_id == tab["match_id"] else None
            if tab["status"] == "playing" and g is not None:
                tab["live"] = {"scores": g.match.score_values(), "hand": g.hand_no}
    return out


async def check(request: Request) -> Any:
    tid = _tid(request)
    out = await read(_hub(request), lambda s: views.verify(s, tid))
    if out is None:
        raise TournamentError("unknown tournament", 404, code="unknown_tournament")
    if out.get("club") is not None:  # a private club's event: its members only, as ``one``
        await request.app.state.clubs.sees(await viewer(request), out["club"])
    return out


def action(name: str) -> Handler:
    async def run(request: Request) -> Any:
        hub, director = _hub(request), _director(request)
        tid = _tid(request)
        data = await _body(request)
        pid = await account(hub, _token(request, data))
        await hub.known_player(pid)  # an account made on another node: its nickname
        if name == "register":
            club = await read(hub, lambda s: (lambda t: None if t is None else t.club_id)(
                records.tournament(s, tid)))
            if club is not None:  # a club's event: its members only
                await request.app.state.clubs.member(pid, club, "this event")
            return await director.register(tid, pid, hub.players.get(pid, pid))
        if name == "unregister":
            return await director.unregister(tid, pid)
        if name == "check-in":
            return await director.check_in(tid, pid)
        if name == "start":
            return await director.start_tournament(tid, pid)
        return await director.cancel(tid, pid)
    return run


async def page(request: Request) -> Response:
    return FileResponse(WEB_DIR / "tournaments.html", headers={"Cache-Control": "no-cache"})


TOURNAMENT_ROUTES = [
    Route("/tournaments", page),
    Route("/tournaments/{tid:int}", page),
    Route("/api/tournaments", _api(listing)),
    Route("/api/tournaments", _api(create), methods=["POST"]),
    Route("/api/tournaments/{tid}", _api(one)),
    Route("/api/tournaments/{tid}/verify", _api(check)),
    *[Route(f"/api/tournaments/{{tid}}/{name}", _api(action(name)), methods=["POST"])
      for name in ("register", "unregister", "check-in", "start", "cancel")],
]
