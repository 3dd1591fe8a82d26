"""The Starlette application: web client, JSON API and the WebSocket endpoint.

Routes:

- ``GET /`` lobby and table (single page), ``GET /calc`` score calculator,
  ``GET /replay/{match_id}`` replay viewer, ``/static/*`` assets (``laizi/web``);
- ``POST /api/guest`` ``{nickname, token?}`` → ``{token, player_id, nickname, expires_in}``
  (a valid ``token`` keeps the identity and is exchanged for a fresh one);
- ``POST /api/token/rotate`` ``{token}`` → a new token; every older token of that player
  stops working (:mod:`laizi.server.accounts.auth`);
- ``GET /api/presets``, ``GET /api/rules`` (the rule catalogue), ``GET /api/rooms``, ``GET /api/rooms/{code}``;
- ``POST /api/score``: the SCORE_API.md calculator (same ``score_json`` as ``laizi score``);
- ``GET /api/matches/{id}/replay[?hand=N|?index=1]``: a match's finished hands, their
  public log (hands still in play are cut off at their start, nothing hidden is ever
  returned); built off the event loop, cached, rate-limited (:mod:`laizi.server.tables.replays`);
- ``GET /api/matches/{id}/review?seat=N`` (复盘) and ``/card`` (战绩) of a finished match
  (:mod:`laizi.server.tables.review`);
- accounts, profiles and the leaderboard: :mod:`laizi.server.net.playerapi`;
- coins, quick match, friends and invites: :mod:`laizi.server.net.socialapi`;
- avatars (``/api/avatars``, ``/api/avatar``, ``/avatars/{player_id}``): :mod:`laizi.server.accounts.avatars`;
- ``GET /healthz``: liveness, the node's name, rooms, connections and leases, plus counters
  (actions, errors, GC passes, database batches); ``GET /metrics``: Prometheus text
  (:mod:`laizi.server.guard.metrics`);
- ``GET /cluster``: this node's name, the live nodes, leases held, takeovers, routed
  messages (404 for a single process; :mod:`laizi.server.cluster`);
- ``WS /ws``: the game protocol (:mod:`laizi.server.common.protocol`).

Every HTTP response carries the security headers and an ``X-Request-ID``; bodies are
limited while they stream in (:mod:`laizi.server.net.middleware`). JSON errors are
``{"error": message, "request_id": id}``.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import (
    FileResponse,
    JSONResponse,
    PlainTextResponse,
    Response,
    StreamingResponse,
)
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket

from laizi.server.accounts.accounts import Accounts
from laizi.server.accounts.auth import GEN_KEY_PREFIX
from laizi.server.accounts.avatars import BODY_LIMITS, Avatars
from laizi.server.clubs.picture import ClubPictures
from laizi.server.clubs.service import Clubs  # clubs
from laizi.server.common.config import ServerConfig
from laizi.server.common.errors import ApiError, coded
from laizi.server.common.inputs import MAX_BODY_BYTES, JSONInputError, loads_strict
from laizi.server.common.protocol import ProtocolError, dumps
from laizi.server.common.shutdown import bounded
from laizi.server.competitions.tournaments.director import Director  # hook (tournaments)
from laizi.server.net.avatarapi import AVATAR_ROUTES
from laizi.server.net.clubapi import CLUB_ROUTES  # clubs
from laizi.server.net.etiquetteapi import ETIQUETTE_ROUTES  # clubs: reports, club chat
from laizi.server.net.handlers import dispatch, serve_ws
from laizi.server.net.httpin import api_error_handler, api_error_response, bearer, error_response
from laizi.server.net.middleware import HttpGuard
from laizi.server.net.playerapi import PLAYER_ROUTES
from laizi.server.net.socialapi import SOCIAL_ROUTES, Social
from laizi.server.net.swroute import sw_route  # polish: the service worker at /sw.js (scope "/")
from laizi.server.net.tournamentapi import TOURNAMENT_ROUTES  # hook (tournaments)
from laizi.server.persistence import db
from laizi.server.tables.hub import Hub
from laizi.server.tables.replays import ReplayError, ReplayService
from laizi.server.tables.replays import stream as replay_stream
from laizi.server.tables.review import ReviewService

__all__ = ["create_app"]

WEB_DIR = Path(__file__).resolve().parents[2] / "web"
MAX_BODY = MAX_BODY_BYTES


def _page(name: str):  # type: ignore[no-untyped-def]
    async def endpoint(request: Request) -> Response:
        return FileResponse(WEB_DIR / name, headers={"Cache-Control": "no-cache"})

    return endpoint


NOT_PAGES = ("/api/", "/static/", "/ws", "/metrics", "/healthz", "/cluster", "/sw.js")


async def not_found(request: Request, exc: Exception) -> Response:
    """No such address. A browser opening a page (a mistyped or stale link) gets the page
    that says so in both languages, with its way back to the lobby (``web/404.html``);
    programs, the APIs and the static files get Starlette's plain 404 as before."""
    accept = request.headers.get("accept", "")
    if request.method in ("GET", "HEAD") and "text/html" in accept \
            and not request.url.path.startswith(NOT_PAGES):
        return FileResponse(WEB_DIR / "404.html", status_code=404, headers={"Cache-Control": "no-cache"})
    detail = getattr(exc, "detail", "Not Found")
    return PlainTextResponse(str(detail), status_code=404, headers=getattr(exc, "headers", None))


async def _json_body(request: Request) -> Any:
    """The request's JSON body (the middleware already stopped it at MAX_BODY bytes)."""
    body = await request.body()
    if len(body) > MAX_BODY:
        raise ValueError(f"request body larger than {MAX_BODY} bytes")
    try:
        return loads_strict(body or b"null")
    except JSONInputError as exc:
        raise ValueError(f"input: {exc}") from None


def _rules_answer(request: Request) -> Response:
    """GET /api/rules: the rule catalogue; with ``?rules=<JSON>`` also that rule set in words
    (``card``: the menu's rule card, 玩法说明, replays; a bad option named in ``option``)."""
    from laizi.errors import RuleError
    from laizi.rulecatalog import card_of, catalogue

    # the room form's own fields (rounds, claim window) are set by the room, not as options
    out = {**catalogue(), "room_fields": ["rounds", "claim_seconds"]}
    text = request.query_params.get("rules")
    if text is not None:
        try:
            out["card"] = card_of(text)
        except RuleError as exc:  # (code and params: the 玩法说明 page words it, the option named)
            return error_response(request, str(exc), 400, option=exc.option, code="bad_rules",
                                  params={"option": exc.option} if exc.option else {})
    return JSONResponse(out)


def _load_generations(engine: Any) -> list[tuple[str, str]]:
    with Session(engine) as s:
        rows = s.execute(select(db.Meta.key, db.Meta.value)
                         .where(db.Meta.key.like(GEN_KEY_PREFIX + "%"))).all()
    return [(k, v) for k, v in rows]


async def _replay(request: Request, replays: ReplayService) -> Response:
    """GET /api/matches/{id}/replay[?hand=N|?index=1] (laizi.server.tables.replays)."""
    try:
        mid = int(request.path_params["match_id"])
        if not 1 <= mid <= 2**31 - 1:
            raise ValueError
    except ValueError:
        return error_response(request, "bad match id")
    q = request.query_params
    try:
        hand = int(q["hand"]) if "hand" in q else None
        if hand is not None and not 0 <= hand <= 10_000:
            raise ValueError
    except ValueError:
        return error_response(request, "bad hand number")
    client = request.client.host if request.client else "?"
    try:
        data = await replays.get(mid, client, hand=hand, index=q.get("index") in ("1", "true"))
    except ReplayError as exc:
        return api_error_response(request, exc)
    if data is None:
        return error_response(request, "unknown match" if hand is None else "unknown hand", 404,
                              code="unknown_match" if hand is None else "unknown_hand")
    gzip_ok = "gzip" in request.headers.get("accept-encoding", "")
    headers = {"Vary": "Accept-Encoding", "Cache-Control": "no-cache"}
    if gzip_ok:
        headers.update({"Content-Encoding": "gzip", "Content-Length": str(len(data))})
    return StreamingResponse(replay_stream(data, gzip_ok), media_type="application/json",
                             headers=headers)


def score_refusal(request: Request, exc: ValueError) -> Response:
    """The calculator's answer to a request it cannot score: the message, and for a table that
    cannot exist its ``code`` and ``params`` (the page words them: ``i18n.js`` ``API_ERRORS``)."""
    from laizi.errors import IllegalHandError

    return error_response(request, str(exc), **(coded(exc) if isinstance(exc, IllegalHandError) else {}))


def create_app(db_url: str = "laizi.db", *, redis_url: str | None = None,
               node: str | None = None, **config: Any) -> Starlette:
    """Build the app. ``config`` fields: see :class:`laizi.server.common.config.ServerConfig`.
    ``redis_url``: this server is node ``node`` of a cluster sharing that Redis and the
    database (:mod:`laizi.server.cluster`; needs the ``cluster`` extra)."""
    cfg = ServerConfig(db_url=db_url, redis_url=redis_url, **config)
    hub = Hub(cfg)
    if redis_url is not None:  # the room directory: one node of a cluster (else this process)
        from laizi.server.cluster.node import Node

        hub.directory = Node(hub, redis_url, node or "node", dispatch=dispatch)
    replays = ReplayService(cfg.db_url)
    accounts = Accounts(hub)
    social = Social(hub)  # social: coins, quick match, friends, invites (SOCIAL_ROUTES)
    director = Director(hub)  # hook (tournaments)
    replays.gates.append(director.replay_withheld)  # duplicate rounds: no replay until over
    hub.watch_gates.append(director.watch_withheld)  # ... and no watching their tables
    reviews = ReviewService(cfg.db_url, gates=replays.gates)  # 复盘: the replay's gates

    async def api_score(request: Request) -> Response:
        from laizi.errors import LaiziError
        from laizi.scoring.request import score_json

        try:
            await hub.limits.check("score", request.client.host if request.client else "")
        except ProtocolError as exc:
            return error_response(request, exc.message, 429)
        try:
            data = await _json_body(request)
            return JSONResponse(score_json(data))
        except (LaiziError, ValueError) as exc:
            return score_refusal(request, exc)

    async def api_guest(request: Request) -> Response:
        try:
            data = await _json_body(request)
            if not isinstance(data, dict):
                raise ValueError("expected a JSON object {nickname}")
            token = data.get("token")
            out = await hub.guest(token if isinstance(token, str) else None, data.get("nickname"),
                                  rename=True, peer=request.client.host if request.client else "")
            return JSONResponse({**out, "expires_in": int(hub.auth.ttl)})
        except ProtocolError as exc:  # a rate limit
            return error_response(request, exc.message, 429, code=exc.code)
        except ValueError as exc:
            return error_response(request, str(exc))

    async def api_rotate(request: Request) -> Response:
        try:
            data = await _json_body(request)
        except ValueError as exc:
            return error_response(request, str(exc))
        token = data.get("token") if isinstance(data, dict) else None
        pid = await hub.identify(token)
        if pid is None or not await hub.known_player(pid):
            return error_response(request, "unknown, expired or revoked token", 401)
        new_token, gen = hub.auth.rotate(pid, hub.auth.session_of(token))
        key = hub.auth.gen_key(pid)

        def write(s: Session) -> None:
            s.merge(db.Meta(key=key, value=str(gen)))

        await hub.store.writer.write(write)
        return JSONResponse({"token": new_token, "player_id": pid, "nickname": hub.players[pid],
                             "expires_in": int(hub.auth.ttl)})

    async def api_presets(request: Request) -> Response:
        from laizi.rules import PRESETS, RuleSet

        return JSONResponse({
            "presets": list(PRESETS),
            "defaults": {name: RuleSet.preset(name).model_dump(mode="json") for name in PRESETS},
            "bot_levels": hub.bot_levels(),
        })

    async def api_rules(request: Request) -> Response:
        return _rules_answer(request)

    async def api_rooms(request: Request) -> Response:
        # (a cluster: every node's, cluster.node; orjson: the page asks every 5 s)
        return Response(dumps({"rooms": hub.list_rooms()}), media_type="application/json")

    async def cluster_status(request: Request) -> Response:
        status = hub.directory.status()
        if status is None:
            return error_response(request, "not a cluster node", 404)
        return JSONResponse(status)

    async def api_room(request: Request) -> Response:
        """GET /api/rooms/{code}: counted like a join (per address: finding a private code
        by asking is as slow as by joining); a private room answers its members only
        (``Authorization: Bearer`` token), anyone else gets "unknown room"."""
        peer = request.client.host if request.client else ""
        try:
            await hub.limits.check("join", peer)
        except ProtocolError as exc:
            return error_response(request, exc.message, 429)
        token = bearer(request)
        viewer = await hub.identify(token) if token else None
        info = await hub.room_info(request.path_params["code"], viewer)
        if info is None:
            return error_response(request, "unknown room", 404)
        return JSONResponse(info)

    async def api_replay(request: Request) -> Response:
        return await _replay(request, replays)

    async def healthz(request: Request) -> Response:
        return JSONResponse({"ok": True, **(await hub.ops.health()),
                             "stats": {**hub.health_stats(),
                                       **{f"replay_{k}": v for k, v in replays.cache_info().items()}}})

    async def ws_endpoint(websocket: WebSocket) -> None:
        await serve_ws(hub, websocket)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        await hub.start()
        hub.auth.load_generations(await asyncio.to_thread(_load_generations, hub.store.engine))
        await asyncio.to_thread(accounts.load)
        await director.start()  # hook (tournaments): resumes running tournaments
        try:
            yield
        finally:  # each step bounded: a node told to stop always ends (common.shutdown)
            social.quick.stop()
            await bounded("the tournament director", director.stop())  # hook (tournaments)
            replays.close()
            reviews.close()
            await hub.stop()  # its steps bounded there; the database flushed last

    routes = [
        Route("/", _page("index.html")),
        Route("/calc", _page("calc.html")),
        sw_route(WEB_DIR),  # polish
        Route("/replay/{match_id}", _page("index.html")),
        Route("/room/{code}", _page("index.html")),
        Route("/api/score", api_score, methods=["POST"]),
        Route("/api/guest", api_guest, methods=["POST"]),
        Route("/api/token/rotate", api_rotate, methods=["POST"]),
        Route("/api/presets", api_presets),
        Route("/api/rules", api_rules),
        Route("/api/rooms", api_rooms),
        Route("/api/rooms/{code}", api_room),
        Route("/api/matches/{match_id}/replay", api_replay),
        *reviews.routes(),  # 复盘 and 战绩 (laizi.server.tables.review)
        Route("/healthz", healthz),
        Route("/metrics", hub.ops.metrics_endpoint),
        Route("/cluster", cluster_status),
        *PLAYER_ROUTES,
        *SOCIAL_ROUTES,
        *AVATAR_ROUTES,
        *TOURNAMENT_ROUTES,  # hook (tournaments)
        *CLUB_ROUTES,  # clubs (亲友圈)
        *ETIQUETTE_ROUTES,  # clubs: reports of players, club chat
        WebSocketRoute("/ws", ws_endpoint),
        Mount("/static", StaticFiles(directory=WEB_DIR), name="static"),
    ]
    app = Starlette(routes=routes, lifespan=lifespan,
                    middleware=[Middleware(HttpGuard, max_body=MAX_BODY, path_limits=BODY_LIMITS)],
                    exception_handlers={ApiError: api_error_handler,  # every service's refusals
                                        404: not_found})
    app.state.hub = hub
    app.state.avatars = Avatars(hub)
    app.state.replays = replays
    app.state.reviews = reviews
    app.state.accounts = accounts
    app.state.social = social
    app.state.director = director  # hook (tournaments)
    app.state.clubs = Clubs(hub)  # clubs (亲友圈)
    app.state.club_pictures = ClubPictures(app.state.clubs, app.state.avatars)
    return app
