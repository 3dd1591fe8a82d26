"""HTTP routes of the reports of players (table etiquette, ``docs/clubs.md``); the service:
:class:`laizi.server.clubs.etiquette.Reports`.

- ``POST /api/reports`` ``{player_id, room, reason, text?}``: report a player met at that
  table (any identity that was at it: seated or speaking); 400 bad input, 403 not at that
  table, 404 no such room / player not at it, 409 reported already, 429 too many.
- ``GET /api/reports``: every report, newest first (the server's admins: ``LAIZI_ADMINS``).
- ``GET /api/clubs/{id}/reports``: the reports filed at the club's tables (its owner and
  admins).
"""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from laizi.server.clubs.etiquette import Reports
from laizi.server.clubs.fields import ClubError
from laizi.server.net.clubapi import club_caller, club_id
from laizi.server.net.httpin import current_player, json_object

__all__ = ["REPORT_ROUTES"]

NO_STORE = {"Cache-Control": "no-store"}


def _reports(request: Request) -> Reports:
    rep = getattr(request.app.state, "reports", None)
    if rep is None:
        rep = request.app.state.reports = Reports(request.app.state.hub)
    return rep


async def reports(request: Request) -> Response:
    if request.method == "POST":
        d = await json_object(request, ClubError)
        pid = current_player(request, d)
        return JSONResponse(await _reports(request).file(pid, d), headers=NO_STORE)
    pid = current_player(request, {})
    return JSONResponse({"reports": await _reports(request).for_admin(pid)}, headers=NO_STORE)


async def club_reports(request: Request) -> Response:
    pid = club_caller(request, {})
    cid = club_id(request)
    await request.app.state.clubs.staff(pid, cid)
    return JSONResponse({"reports": await _reports(request).listed(cid)}, headers=NO_STORE)


REPORT_ROUTES = [
    Route("/api/reports", reports, methods=["GET", "POST"]),
    Route("/api/clubs/{cid}/reports", club_reports),
]
