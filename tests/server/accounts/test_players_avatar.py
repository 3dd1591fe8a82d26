"""``GET /api/players/{id}`` names the player's avatar (kind, choice, a versioned URL) on a real
server: the default drawn picture, then a chosen one, then an upload, each time the same as
``GET /api/avatar`` says and a URL that serves the picture; the field on SQLite directly."""

from __future__ import annotations

import io
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from PIL import Image
from sqlalchemy import create_engine, insert

from laizi.server.accounts.avatars import DRAWN, default_choice
from laizi.server.accounts.players import avatar_of, profile
from laizi.server.persistence import db
from support.srvhelpers import LiveServer


@pytest.fixture(scope="module")
def srv(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    tmp = tmp_path_factory.mktemp("pavatar")
    s = LiveServer(str(tmp / "pa.db"), tmp).start()
    try:
        yield s
    finally:
        s.stop()


def call(srv: LiveServer, path: str, token: str, data: bytes, ctype: str) -> tuple[int, bytes, str]:
    req = urllib.request.Request(srv.url + path, data=data if data else None,
                                 headers={"Authorization": "Bearer " + token, "Content-Type": ctype},
                                 method="POST" if data else "GET")
    with urllib.request.urlopen(req, timeout=20) as r:
        return r.status, r.read(), r.headers.get("Content-Type", "")


def mine(srv: LiveServer, token: str) -> dict[str, object]:
    import json

    _s, body, _t = call(srv, "/api/avatar", token, b"", "application/json")
    return dict(json.loads(body)["avatar"])


def shown(srv: LiveServer, pid: str) -> dict[str, object]:
    status, out = srv.get(f"/api/players/{pid}")
    assert status == 200, out
    return dict(out["avatar"])


def test_profile_names_the_avatar(srv: LiveServer) -> None:
    status, out = srv.post("/api/guest", {"nickname": "头像"})
    assert status == 200, out
    token, pid = out["token"], out["player_id"]
    # no choice yet: the default drawn picture, stable for the player id
    av = shown(srv, pid)
    assert av == {"kind": "default", "choice": default_choice(pid), "url": f"/avatars/{pid}?v=d-{default_choice(pid)}"}
    assert {k: mine(srv, token)[k] for k in av} == av
    status, body, ctype = call(srv, str(av["url"]), token, b"", "")
    assert status == 200 and ctype.startswith("image/svg+xml") and b"<svg" in body
    # a drawn choice
    choice = next(k for k in DRAWN if k != default_choice(pid))
    call(srv, "/api/avatar", token, f'{{"choice": "{choice}"}}'.encode(), "application/json")
    av = shown(srv, pid)
    assert av == {"kind": "drawn", "choice": choice, "url": f"/avatars/{pid}?v=d-{choice}"}
    assert {k: mine(srv, token)[k] for k in av} == av
    # an upload: a new URL (its version), serving the re-encoded picture
    png = io.BytesIO()
    Image.new("RGB", (200, 150), (10, 120, 200)).save(png, "PNG")
    call(srv, "/api/avatar", token, png.getvalue(), "image/png")
    av = shown(srv, pid)
    assert av["kind"] == "upload" and av["choice"] is None
    assert str(av["url"]).startswith(f"/avatars/{pid}?v=") and "d-" not in str(av["url"])
    assert {k: mine(srv, token)[k] for k in av} == av
    status, body, ctype = call(srv, str(av["url"]), token, b"", "")
    assert status == 200 and ctype == "image/webp" and Image.open(io.BytesIO(body)).size == (128, 128)
    # back to the default: the profile follows
    call(srv, "/api/avatar", token, b'{"choice": null}', "application/json")
    assert shown(srv, pid)["kind"] == "default"


def test_avatar_of_on_sqlite(tmp_path: Path) -> None:
    engine = create_engine(f"sqlite:///{tmp_path / 'a.db'}")
    db.Base.metadata.create_all(engine)
    with engine.begin() as conn:
        conn.execute(insert(db.Base.metadata.tables["players"]).values(id="p1", nickname="一"))
        assert avatar_of(conn, "p1")["kind"] == "default"
        conn.execute(insert(db.Base.metadata.tables["avatars"]).values(
            player_id="p1", choice="not-a-drawn-one", etag="x"))
        assert avatar_of(conn, "p1")["choice"] == default_choice("p1")  # an unknown id: the default
        out = profile(conn, "p1")
        assert out is not None and out["avatar"] == avatar_of(conn, "p1")
    engine.dispose()
