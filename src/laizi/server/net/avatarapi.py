"""The avatar routes (the service: :mod:`laizi.server.accounts.avatars`):

- ``GET /api/avatars``: the drawn set and the upload limits;
- ``POST /api/avatar`` (``Authorization: Bearer <token>``): an image, or JSON ``{"choice"}``;
- ``GET /api/avatar``: the caller's own avatar;
- ``GET /avatars/{player_id}``: a player's picture (ETag, cached).

The app keeps the service in ``app.state.avatars``.
"""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from laizi.server.accounts.avatars import (
    AVATAR_PATH,
    CACHE_SECONDS,
    MAX_UPLOAD_BYTES,
    AvatarError,
    Avatars,
    catalogue,
)
from laizi.server.common.inputs import MAX_BODY_BYTES, JSONInputError, loads_strict
from laizi.server.net.httpin import api_error_response, error_response

__all__ = ["AVATAR_ROUTES"]


def _avatars(request: Request) -> Avatars:
    out: Avatars = request.app.state.avatars
    return out


def _bearer(request: Request) -> str | None:
    auth = request.headers.get("authorization", "")
    return auth[7:].strip() if auth.lower().startswith("bearer ") else None


async def api_list(request: Request) -> Response:
    return JSONResponse(catalogue(), headers={"Cache-Control": "public, max-age=3600"})

async def api_mine(request: Request) -> Response:
    pid: str | None = await request.app.state.hub.identify(_bearer(request))
    if pid is None:
        return error_response(request, "not signed in (send Authorization: Bearer <token>)", 401)
    return JSONResponse({"player_id": pid, "avatar": await _avatars(request).describe(pid)},
                        headers={"Cache-Control": "no-store"})

async def api_set(request: Request) -> Response:
    ctype = request.headers.get("content-type", "").split(";")[0].strip().lower()
    peer = request.client.host if request.client else ""
    try:
        body = await request.body()
        if len(body) > MAX_UPLOAD_BYTES:
            raise AvatarError(f"request body larger than {MAX_UPLOAD_BYTES} bytes", 413)
        if ctype == "application/json":  # a choice: read as every JSON body is (strict, capped)
            if len(body) > MAX_BODY_BYTES:
                raise AvatarError(f"request body larger than {MAX_BODY_BYTES} bytes", 413)
            try:
                data = loads_strict(body or b"null")
            except JSONInputError as exc:
                raise AvatarError(f"input: {exc}") from None
            if not isinstance(data, dict) or "choice" not in data:
                raise AvatarError('expected a JSON object {"choice": id or null}')
            out = await _avatars(request).choose(_bearer(request), data["choice"])
        elif ctype.startswith("image/") or ctype == "application/octet-stream":
            out = await _avatars(request).upload(_bearer(request), body, peer)
        else:
            raise AvatarError("send the image (Content-Type image/png, image/jpeg, "
                              "image/webp or image/gif) or JSON {\"choice\": id}", 415, code="image_type")
    except AvatarError as exc:
        return api_error_response(request, exc)
    return JSONResponse(out, headers={"Cache-Control": "no-store"})

async def picture(request: Request) -> Response:
    try:
        pic = await _avatars(request).picture(request.path_params["player_id"])
    except AvatarError as exc:
        return api_error_response(request, exc)
    headers = {"ETag": pic.etag, "Cache-Control": f"public, max-age={CACHE_SECONDS}",
               "Content-Security-Policy": "default-src 'none'; sandbox",
               "Content-Disposition": "inline"}
    seen = {t.strip() for t in request.headers.get("if-none-match", "").split(",")}
    if pic.etag in seen or "*" in seen:
        return Response(status_code=304, headers=headers)
    return Response(pic.body, media_type=pic.media_type, headers=headers)

AVATAR_ROUTES = [
    Route("/api/avatars", api_list),
    Route(AVATAR_PATH, api_set, methods=["POST"]),
    Route(AVATAR_PATH, api_mine, methods=["GET"]),
    Route("/avatars/{player_id}", picture),
]
