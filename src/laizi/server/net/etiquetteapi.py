"""HTTP routes of table etiquette and club chat (``docs/clubs.md``); the services:
:class:`laizi.server.clubs.etiquette.Reports`, :class:`laizi.server.clubs.clubchat.ClubChat`.

- ``POST /api/reports`` ``{player_id, room, reason, text?}``: report a player met at that
  table (any identity that was at it: seated or speaking); 400 bad input, 403 not at that
  table, 404 no such room / player not at it, 409 reported already, 429 too many.
- ``GET /api/reports``: every report, newest first (the server's admins: ``LAIZI_ADMINS``).
- ``GET /api/clubs/{id}/reports``: the reports filed at the club's tables (its owner and
  admins).
- ``GET /api/clubs/{id}/events``: the club's tournaments (its members; anyone for a club
  that is not private).
- ``GET /api/clubs/{id}/chat[?after=N]``, ``POST /api/clubs/{id}/chat`` ``{text}``: the
  club's chat (its members).
"""

from __future__ import annotations

import asyncio

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from laizi.server.clubs.clubchat import ClubChat
from laizi.server.clubs.etiquette import Reports
from laizi.server.clubs.fields import ClubError
from laizi.server.competitions.tournaments import records
from laizi.server.net.clubapi import club_caller, club_id
from laizi.server.net.httpin import current_player, int_param, json_object

__all__ = ["ETIQUETTE_ROUTES"]

NO_STORE = {"Cache-Control": "no-store"}


def _reports(request: Request) -> Reports:
    rep = getattr(request.app.state, "reports", None)
    if rep is None:
        rep = request.app.state.reports = Reports(request.app.state.hub)
    return rep


async def reports(request: Request) -> Response:
    if request.method == "POST":
        d = await json_object(request, ClubError)
        pid = await current_player(request, d)
        return JSONResponse(await _reports(request).file(pid, d), headers=NO_STORE)
    pid = await current_player(request, {})
    return JSONResponse({"reports": await _reports(request).for_admin(pid)}, headers=NO_STORE)


async def club_reports(request: Request) -> Response:
    pid = await club_caller(request, {})
    cid = club_id(request)
    await request.app.state.clubs.staff(pid, cid)
    return JSONResponse({"reports": await _reports(request).listed(cid)}, headers=NO_STORE)


async def club_chat(request: Request) -> Response:
    chat = getattr(request.app.state, "club_chat", None)
    if chat is None:
        chat = request.app.state.club_chat = ClubChat(request.app.state.clubs)
    if request.method == "POST":
        d = await json_object(request, ClubError)
        out = await chat.say(await club_caller(request, d), club_id(request), d.get("text"))
    else:
        after = int_param(request, "after", 0, 0, 2**62, ClubError) or 0
        out = await chat.read(await club_caller(request, {}), club_id(request), after)
    return JSONResponse(out, headers=NO_STORE)


async def club_events(request: Request) -> Response:
    pid = await club_caller(request, {})
    cid = club_id(request)
    await request.app.state.clubs.sees(pid, cid)
    rows = await asyncio.to_thread(records.tournaments, request.app.state.hub.store.engine, None, cid)
    return JSONResponse({"events": rows}, headers=NO_STORE)


ETIQUETTE_ROUTES = [
    Route("/api/clubs/{cid}/events", club_events),
    Route("/api/reports", reports, methods=["GET", "POST"]),
    Route("/api/clubs/{cid}/reports", club_reports),
    Route("/api/clubs/{cid}/chat", club_chat, methods=["GET", "POST"]),
]
