"""HTTP routes of the clubs (亲友圈, ``docs/clubs.md``); the service: :mod:`laizi.server.clubs`.

Every call needs a registered player's token (``Authorization: Bearer``); a guest gets 403.
Errors are ``{"error", "request_id"}``: 400 bad input, 401 no valid token, 403 not allowed
(a guest, a stranger at a private club, a role too low), 404 unknown club / player /
template / request, 409 a state that forbids it (a limit reached, a member already), 429
too many attempts.

- ``GET /api/clubs``: my clubs, invitations, requests; ``POST /api/clubs`` ``{name, avatar?,
  description?, approval?, private?, bots?}``: create (the caller owns it);
- ``POST /api/clubs/join`` ``{code}``; ``POST /api/clubs/{id}/accept|decline`` (an
  invitation); ``POST /api/clubs/{id}/leave``;
- ``GET /api/clubs/{id}``: the club and its templates; ``POST /api/clubs/{id}``: the owner
  changes its settings;
- ``GET /api/clubs/{id}/members``; ``POST /api/clubs/{id}/members`` ``{action, player,
  role?}`` (approve, reject, invite, kick, role, transfer);
- ``POST /api/clubs/{id}/templates`` ``{name, settings}``; ``POST
  /api/clubs/{id}/templates/{tid}/delete``;
- ``GET /api/clubs/{id}/tables``: open tables with seats and rule cards; ``POST
  /api/clubs/{id}/tables`` ``{template, fill?}``: open a table from a template (the caller
  sits at seat 0 and hosts it; when the club sets ``bots`` and ``fill`` is not false, bots
  take the other seats and the match starts: ``Hub.open_table``, which takes the room's
  lease on a cluster); ``POST /api/clubs/{id}/quick``: a seat at an open club table (one
  another node holds: ``{code, seat, sit: true}``, the client sits through the socket);
- ``GET /api/clubs/{id}/ranking[?season=N]``; ``POST /api/clubs/{id}/season``: a new season
  (the owner);
- ``POST /api/clubs/{id}/picture`` (the image as the body) and ``…/picture/delete``: the
  owner's or an admin's club picture (:mod:`laizi.server.clubs.picture`: the avatars'
  pipeline and budget; 413 too big, 415 not an image type, 400 unreadable, 429); ``GET
  /clubs/{id}/picture/{version}``: the picture (the URL the club's ``picture`` gives);
- pages ``/clubs``, ``/clubs/{id}`` (``web/clubs.html``).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Route

from laizi.server.accounts.avatars import MAX_UPLOAD_BYTES
from laizi.server.clubs.picture import PICTURE_CACHE_SECONDS, ClubPictures
from laizi.server.clubs.service import ClubError, Clubs
from laizi.server.common import protocol as proto
from laizi.server.common.protocol import RoomStatus
from laizi.server.net.httpin import current_player, int_param, json_object
from laizi.server.tables.seating import Seating, bot_seat, player_seat

if TYPE_CHECKING:
    from laizi.server.tables.hub import Hub
    from laizi.server.tables.room import Room

__all__ = ["CLUB_ROUTES", "club_caller", "club_id", "open_table", "quick_seat"]

WEB_DIR = Path(__file__).resolve().parents[2] / "web"
Handler = Callable[[Request, Clubs, str, dict[str, Any]], Awaitable[Any]]


def _api(fn: Handler) -> Callable[[Request], Awaitable[Response]]:
    async def endpoint(request: Request) -> Response:
        data = await json_object(request, ClubError) if request.method == "POST" else {}
        pid = await club_caller(request, data)
        out = await fn(request, request.app.state.clubs, pid, data)
        return JSONResponse(out, headers={"Cache-Control": "no-store"})

    return endpoint  # an ApiError becomes the one JSON error answer (the app's handler)


async def club_caller(request: Request, data: dict[str, Any]) -> str:
    """The caller: a player of the server, made on any node (clubs are for accounts only:
    the service checks)."""
    return await current_player(request, data)


def club_id(request: Request, name: str = "cid") -> int:
    try:
        cid = int(request.path_params[name])
    except ValueError:
        raise ClubError(f"bad {'club' if name == 'cid' else 'template'} id") from None
    if not 1 <= cid <= 2**31 - 1:
        raise ClubError(f"bad {'club' if name == 'cid' else 'template'} id")
    return cid


async def clubs_root(request: Request, c: Clubs, pid: str, d: dict[str, Any]) -> Any:
    if request.method == "POST":
        return await c.create(pid, d)
    return await c.mine(pid)


async def join(request: Request, c: Clubs, pid: str, d: dict[str, Any]) -> Any:
    return await c.join(pid, d.get("code"))


async def club(request: Request, c: Clubs, pid: str, d: dict[str, Any]) -> Any:
    if request.method == "POST":
        return await c.configure(pid, club_id(request), d)
    return await c.show(pid, club_id(request))


def _answer(accept: bool) -> Handler:
    async def run(request: Request, c: Clubs, pid: str, d: dict[str, Any]) -> Any:
        return await c.answer_invite(pid, club_id(request), accept)

    return run


async def leave(request: Request, c: Clubs, pid: str, d: dict[str, Any]) -> Any:
    return await c.leave(pid, club_id(request))


async def members(request: Request, c: Clubs, pid: str, d: dict[str, Any]) -> Any:
    if request.method == "POST":
        return await c.manage(pid, club_id(request), d.get("action"), d.get("player"), d.get("role"))
    return await c.members(pid, club_id(request))


async def templates(request: Request, c: Clubs, pid: str, d: dict[str, Any]) -> Any:
    return await c.add_template(pid, club_id(request), d)


async def template_delete(request: Request, c: Clubs, pid: str, d: dict[str, Any]) -> Any:
    return await c.delete_template(pid, club_id(request), club_id(request, "tid"))


async def open_table(hub: Hub, c: Clubs, pid: str, cid: int, template: object, fill: object,
                     peer: str) -> dict[str, Any]:
    """Open a table of club ``cid`` from a template: a private room hosted by ``pid`` (seat
    0); the club's bots fill the rest and it starts when the club sets them and ``fill``."""
    if not isinstance(fill, bool):
        raise ClubError("fill must be true or false")
    info = await c.template_for_table(pid, cid, template)
    base = info["settings"]
    settings = proto.RoomSettings.model_validate({**base, "private": True, "bots_fill": info["bots"],
                                                  "club": cid,  # the club may require the warning
                                                  "ip_warning": info["ip_warning"] or bool(base.get("ip_warning"))})
    try:  # the host sits at seat 0: within the template's 段位 range, like anyone who sits
        await hub.check_rank(pid, settings)
    except proto.ProtocolError as exc:
        raise ClubError(exc.message, 403) from None
    try:
        await hub.limits.check("room", peer, pid)
    except proto.ProtocolError as exc:
        raise ClubError(str(exc), 429) from None
    bots = info["bots"] if fill else None  # else the club's bots fill the table at the host's start

    async def note(room: Room) -> None:
        await c.note_table(cid, room.code, info["template"], pid, info["season"])

    if bots:  # the match starts at once (Hub.open_table: the lease first)
        seats = (player_seat(pid, info["nickname"]), *(bot_seat(bots) for _ in range(3)))
        got = await hub.open_table(settings, Seating(seats, started_by=peer, absent_wait=True),
                                   owner_id=pid, before=note)
        if got is None:
            raise ClubError("the table could not be opened; try again", 409)
        room = got
    else:
        room = await hub.open_room(settings, owner_id=pid)
        await note(room)
        async with room.lock:
            await room.sit(pid, info["nickname"], 0)
    return {"code": room.code, "seat": 0, "status": str(room.status)}


async def quick_seat(hub: Hub, c: Clubs, pid: str, cid: int) -> dict[str, Any]:
    """A seat at the club's oldest table in its lobby with a free seat; the seat it has if it
    sits at one already. A table of this node: the seat is taken here. A table another node
    of a cluster holds: its code and a free seat as stored (``sit: true``) — the client
    joins it on ``/ws`` and sends ``sit`` (routed to the owner, which checks the seat again)."""
    codes, name = await c.lobby_tables(pid, cid)
    out_of_range: proto.ProtocolError | None = None  # a table with a free seat, not of its 段位
    for code in codes:
        room = hub.rooms.get(code)
        if room is None:  # a cluster: held by another node (or by none: taken over here)
            where = await hub.directory.locate(code)
            if isinstance(where, str):
                remote = await c.stored_seat(pid, code)
                if remote is None:
                    continue
                return {"code": code, "seat": remote, "sit": True}  # the client sits on /ws
            room = where
        if room is None or pid in room.banned:
            continue
        async with room.lock:
            if room.status != RoomStatus.LOBBY:
                continue
            seat = room.seat_of(pid)
            if seat is None:
                free = [i for i, s in enumerate(room.seats) if s.empty]
                if not free:
                    continue
                try:  # its 段位 range, as the socket's sit checks it
                    await hub.check_rank(pid, room.settings)
                except proto.ProtocolError as exc:
                    out_of_range = exc
                    continue
                try:
                    await hub.limits.seat_check(pid)  # the join/leave cool-down
                except proto.ProtocolError as exc:
                    raise ClubError(exc.message, 429) from None
                seat = free[0]
                await room.sit(pid, name, seat)
        return {"code": code, "seat": seat}
    if out_of_range is not None:
        raise ClubError(f"no open club table with a free seat takes your 段位: {out_of_range.message}", 403)
    raise ClubError("no open club table has a free seat: open one from a template", 404)


async def tables(request: Request, c: Clubs, pid: str, d: dict[str, Any]) -> Any:
    if request.method == "POST":
        peer = request.client.host if request.client else "?"
        return await open_table(request.app.state.hub, c, pid, club_id(request), d.get("template"),
                                d.get("fill", True), peer)
    return await c.tables(pid, club_id(request))


async def quick(request: Request, c: Clubs, pid: str, d: dict[str, Any]) -> Any:
    return await quick_seat(request.app.state.hub, c, pid, club_id(request))


async def ranking(request: Request, c: Clubs, pid: str, d: dict[str, Any]) -> Any:
    season = int_param(request, "season", None, 1, 10**6, ClubError)
    return await c.ranking(pid, club_id(request), season)


async def season(request: Request, c: Clubs, pid: str, d: dict[str, Any]) -> Any:
    return await c.new_season(pid, club_id(request))


async def picture_upload(request: Request) -> Response:
    """``POST /api/clubs/{id}/picture``: the image as the body (its ``image/*`` type), by the
    owner or an admin; ``POST /api/clubs/{id}/picture/delete``: back to the drawn avatar."""
    pid = await club_caller(request, {})
    pics: ClubPictures = request.app.state.club_pictures
    if request.url.path.endswith("/delete"):
        return JSONResponse(await pics.remove(pid, club_id(request)), headers={"Cache-Control": "no-store"})
    ctype = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if not (ctype.startswith("image/") or ctype == "application/octet-stream"):
        raise ClubError("send the image (Content-Type image/png, image/jpeg, image/webp or image/gif)", 415,
                        code="image_type")
    body = await request.body()
    if len(body) > MAX_UPLOAD_BYTES:
        raise ClubError(f"request body larger than {MAX_UPLOAD_BYTES} bytes", 413)
    peer = request.client.host if request.client else ""
    out = await pics.upload(pid, club_id(request), body, peer)
    return JSONResponse(out, headers={"Cache-Control": "no-store"})


async def picture(request: Request) -> Response:
    """``GET /clubs/{id}/picture/{version}``: the picture (the URL changes with it)."""
    version = request.path_params["v"]
    if not (0 < len(version) <= 64 and version.isalnum() and version.isascii()):
        raise ClubError("no such club picture", 404)
    pic = await request.app.state.club_pictures.picture(club_id(request), version)
    headers = {"ETag": pic.etag, "Cache-Control": f"public, max-age={PICTURE_CACHE_SECONDS}, immutable",
               "Content-Security-Policy": "default-src 'none'; sandbox", "Content-Disposition": "inline"}
    seen = {t.strip() for t in request.headers.get("if-none-match", "").split(",")}
    if pic.etag in seen or "*" in seen:
        return Response(status_code=304, headers=headers)
    return Response(pic.body, media_type=pic.media_type, headers=headers)


async def page(request: Request) -> Response:
    return FileResponse(WEB_DIR / "clubs.html", headers={"Cache-Control": "no-cache"})


CLUB_ROUTES = [
    Route("/clubs", page),
    Route("/clubs/{cid:int}", page),
    Route("/api/clubs", _api(clubs_root), methods=["GET", "POST"]),
    Route("/api/clubs/join", _api(join), methods=["POST"]),
    Route("/api/clubs/{cid}", _api(club), methods=["GET", "POST"]),
    Route("/api/clubs/{cid}/accept", _api(_answer(True)), methods=["POST"]),
    Route("/api/clubs/{cid}/decline", _api(_answer(False)), methods=["POST"]),
    Route("/api/clubs/{cid}/leave", _api(leave), methods=["POST"]),
    Route("/api/clubs/{cid}/members", _api(members), methods=["GET", "POST"]),
    Route("/api/clubs/{cid}/templates", _api(templates), methods=["POST"]),
    Route("/api/clubs/{cid}/templates/{tid}/delete", _api(template_delete), methods=["POST"]),
    Route("/api/clubs/{cid}/tables", _api(tables), methods=["GET", "POST"]),
    Route("/api/clubs/{cid}/quick", _api(quick), methods=["POST"]),
    Route("/api/clubs/{cid}/ranking", _api(ranking)),
    Route("/api/clubs/{cid}/season", _api(season), methods=["POST"]),
    Route("/api/clubs/{cid}/picture", picture_upload, methods=["POST"]),
    Route("/api/clubs/{cid}/picture/delete", picture_upload, methods=["POST"]),
    Route("/clubs/{cid}/picture/{v}", picture),
]
