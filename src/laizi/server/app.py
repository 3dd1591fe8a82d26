"""The Starlette application: web client, JSON API and the WebSocket endpoint.

Routes:

- ``GET /`` lobby and table (single page), ``GET /calc`` score calculator,
  ``GET /replay/{match_id}`` replay viewer, ``/static/*`` assets (``laizi/web``);
- ``POST /api/guest`` ``{nickname}`` → ``{token, player_id, nickname}``;
- ``GET /api/presets``, ``GET /api/rooms``, ``GET /api/rooms/{code}``;
- ``POST /api/score``: the SCORE_API.md calculator (same ``score_json`` as ``laizi score``);
- ``GET /api/matches/{id}/replay``: a finished hand's public log (hands still in play
  are cut off at their start, nothing hidden is ever returned);
- ``GET /healthz``: liveness plus counters (actions, errors, GC passes, database batches);
- ``WS /ws``: the game protocol (:mod:`laizi.server.protocol`).
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket

from laizi.server.config import ServerConfig
from laizi.server.handlers import serve_ws
from laizi.server.hub import Hub
from laizi.server.protocol import ProtocolError

__all__ = ["create_app"]

WEB_DIR = Path(__file__).resolve().parent.parent / "web"
MAX_BODY = 64 * 1024


def _page(name: str):  # type: ignore[no-untyped-def]
    async def endpoint(request: Request) -> Response:
        return FileResponse(WEB_DIR / name, headers={"Cache-Control": "no-cache"})

    return endpoint


async def _json_body(request: Request) -> Any:
    body = await request.body()
    if len(body) > MAX_BODY:
        raise ValueError(f"request body larger than {MAX_BODY} bytes")
    try:
        return json.loads(body or b"null")
    except ValueError as exc:
        raise ValueError(f"input: bad JSON: {exc}") from None


def create_app(db_url: str = "laizi.db", **config: Any) -> Starlette:
    """Build the app. ``config`` fields: see :class:`laizi.server.config.ServerConfig`."""
    cfg = ServerConfig(db_url=db_url, **config)
    hub = Hub(cfg)

    async def api_score(request: Request) -> Response:
        from laizi.errors import LaiziError
        from laizi.scoring.request import score_json

        try:
            data = await _json_body(request)
            return JSONResponse(score_json(data))
        except LaiziError as exc:
            return JSONResponse({"error": str(exc)}, status_code=400)
        except ValueError as exc:
            return JSONResponse({"error": str(exc)}, status_code=400)

    async def api_guest(request: Request) -> Response:
        try:
            data = await _json_body(request)
            if not isinstance(data, dict):
                raise ValueError("expected a JSON object {nickname}")
            token = data.get("token")
            out = await hub.guest(token if isinstance(token, str) else None, data.get("nickname"),
                                  peer=request.client.host if request.client else "")
            return JSONResponse(out)
        except ProtocolError as exc:  # a rate limit
            return JSONResponse({"error": exc.message, "code": exc.code}, status_code=429)
        except ValueError as exc:
            return JSONResponse({"error": str(exc)}, status_code=400)

    async def api_presets(request: Request) -> Response:
        from laizi.rules import PRESETS, RuleSet

        return JSONResponse({
            "presets": list(PRESETS),
            "defaults": {name: RuleSet.preset(name).model_dump(mode="json") for name in PRESETS},
            "bot_levels": hub.bot_levels(),
        })

    async def api_rooms(request: Request) -> Response:
        return JSONResponse({"rooms": hub.list_rooms()})

    async def api_room(request: Request) -> Response:
        info = await hub.room_info(request.path_params["code"])
        if info is None:
            return JSONResponse({"error": "unknown room"}, status_code=404)
        return JSONResponse(info)

    async def api_replay(request: Request) -> Response:
        try:
            mid = int(request.path_params["match_id"])
        except ValueError:
            return JSONResponse({"error": "bad match id"}, status_code=400)
        data = await hub.replay(mid)
        if data is None:
            return JSONResponse({"error": "unknown match"}, status_code=404)
        return JSONResponse(data)

    async def healthz(request: Request) -> Response:
        return JSONResponse({"ok": True, "rooms": len(hub.rooms), "stats": hub.health_stats()})

    async def ws_endpoint(websocket: WebSocket) -> None:
        await serve_ws(hub, websocket)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        await hub.start()
        try:
            yield
        finally:
            await hub.stop()

    routes = [
        Route("/", _page("index.html")),
        Route("/calc", _page("calc.html")),
        Route("/replay/{match_id}", _page("index.html")),
        Route("/room/{code}", _page("index.html")),
        Route("/api/score", api_score, methods=["POST"]),
        Route("/api/guest", api_guest, methods=["POST"]),
        Route("/api/presets", api_presets),
        Route("/api/rooms", api_rooms),
        Route("/api/rooms/{code}", api_room),
        Route("/api/matches/{match_id}/replay", api_replay),
        Route("/healthz", healthz),
        WebSocketRoute("/ws", ws_endpoint),
        Mount("/static", StaticFiles(directory=WEB_DIR), name="static"),
    ]
    app = Starlette(routes=routes, lifespan=lifespan)
    app.state.hub = hub
    return app
