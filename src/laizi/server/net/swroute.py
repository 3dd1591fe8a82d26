"""``GET /sw.js``: the web client's service worker, served at the root so that its scope is
``/`` and it controls the app's pages (a worker served from ``/static/`` could only control
``/static/``). The file is ``web/sw.js`` with two things filled in:

- ``VERSION``: a hash of every file the client is made of, so any change to the client makes a
  new worker (the browser compares the bytes of ``/sw.js``) with a fresh cache;
- ``ASSETS``: the files it precaches — every script, style sheet, icon and manifest under
  ``web/`` (as ``/static/…``) and the app's pages (:data:`PAGES`).

The response carries ``Service-Worker-Allowed: /`` and ``Cache-Control: no-cache`` (the
security headers, CSP included, are added by :mod:`laizi.server.net.middleware` as for any response).
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

__all__ = ["PAGES", "sw_route", "sw_source"]

PAGES = ("/", "/calc", "/account", "/leaderboard")
SUFFIXES = {".js", ".mjs", ".css", ".svg", ".png", ".webmanifest", ".html"}


def sw_source(web_dir: Path) -> str:
    """The worker's source with its version and precache list."""
    files = sorted(p for p in web_dir.rglob("*") if p.is_file() and p.suffix in SUFFIXES
                   and p.name != "sw.js" and "screens" not in p.parts)
    digest = hashlib.sha256()
    assets = list(PAGES)
    for p in files:
        rel = p.relative_to(web_dir).as_posix()
        digest.update(rel.encode() + b"\0" + p.read_bytes())
        if p.suffix != ".html":  # pages are precached by their routes (PAGES)
            assets.append("/static/" + rel)
    template = (web_dir / "sw.js").read_text(encoding="utf-8")
    digest.update(template.encode())
    return (template.replace('const VERSION = "dev";', f'const VERSION = "{digest.hexdigest()[:16]}";', 1)
            .replace("const ASSETS = [/*assets*/];", f"const ASSETS = {json.dumps(assets)};", 1))


def sw_route(web_dir: Path) -> Route:
    cached: dict[str, tuple[float, str]] = {}

    async def endpoint(request: Request) -> Response:
        # rebuilt when a file of the client changed (cheap: one stat per file)
        stamp = max((p.stat().st_mtime for p in web_dir.rglob("*") if p.is_file()), default=0.0)
        hit = cached.get("sw")
        if hit is None or hit[0] != stamp:
            hit = cached["sw"] = (stamp, sw_source(web_dir))
        return Response(hit[1], media_type="text/javascript",
                        headers={"Cache-Control": "no-cache", "Service-Worker-Allowed": "/"})

    return Route("/sw.js", endpoint)
