"""A club's uploaded picture over a live server: the owner and an admin upload one (re-encoded
by the players' avatar pipeline: 128 x 128 WebP, no metadata), the club's JSON names it, it
is served with long caching and 304 on its ETag; a member, a stranger and a guest are
refused (403), so are a body too big (413), not an image type (415), bytes that are no image
(400), too many pixels (400) and too many uploads (429: the uploader's avatar budget); an
unknown version is 404; removing it brings back the drawn avatar."""

from __future__ import annotations

import io
import json
import os
from pathlib import Path

import pytest
from PIL import Image

from laizi.server.accounts import avatars
from laizi.server.accounts.avatars import MAX_PIXELS, MAX_UPLOAD_BYTES, SIZE
from support.avatarkit import raw_post, req
from support.socialkit import call, guest, register
from support.srvhelpers import LiveServer


def png(w: int = 300, h: int = 200, color: tuple[int, int, int] = (200, 30, 30)) -> bytes:
    out = io.BytesIO()
    im = Image.new("RGB", (w, h), color)
    im.save(out, "PNG", pnginfo=None)
    return out.getvalue()


def jpeg_with_exif() -> bytes:
    out = io.BytesIO()
    exif = Image.Exif()
    exif[0x010F] = "SecretCam"  # Make
    Image.new("RGB", (400, 400), (20, 120, 200)).save(out, "JPEG", exif=exif)
    return out.getvalue()


def upload(srv: LiveServer, cid: int, body: bytes, token: str | None,
           ctype: str = "image/png") -> tuple[int, dict[str, object]]:
    status, _h, raw = req(srv, f"/api/clubs/{cid}/picture", body, ctype, token)
    return status, json.loads(raw)


@pytest.fixture
def srv(tmp_path: Path):  # type: ignore[no-untyped-def]
    s = LiveServer(str(tmp_path / "pic.db"), tmp_path, bot_delay=0.0).start()
    yield s
    s.stop()


def test_club_picture_upload_serve_refusals(srv: LiveServer) -> None:
    ta, _ = register(srv, "owner1")
    tb, pb = register(srv, "admin1")
    tc, _ = register(srv, "member1")
    td, _ = register(srv, "stranger1")
    tg, _ = guest(srv)
    club = call(srv, "POST", "/api/clubs", ta, {"name": "有图的圈", "avatar": "crane"})[1]
    cid = club["id"]
    assert club["picture"] is None
    for t in (tb, tc):
        assert call(srv, "POST", "/api/clubs/join", t, {"code": club["code"]})[0] == 200
    assert call(srv, "POST", f"/api/clubs/{cid}/members", ta,
                {"action": "role", "player": pb, "role": "admin"})[0] == 200

    st, out = upload(srv, cid, jpeg_with_exif(), ta, "image/jpeg")
    assert st == 200, out
    url = str(out["picture"])
    assert url.startswith(f"/clubs/{cid}/picture/")
    shown = call(srv, "GET", f"/api/clubs/{cid}", tc)[1]
    assert shown["picture"] == url and shown["avatar"] == "crane"
    assert [c["picture"] for c in call(srv, "GET", "/api/clubs", tc)[1]["clubs"]] == [url]
    st, h, body = req(srv, url)
    assert st == 200 and h["Content-Type"] == "image/webp"
    assert "immutable" in h["Cache-Control"] and "max-age=" in h["Cache-Control"]
    assert h["X-Content-Type-Options"] == "nosniff"
    with Image.open(io.BytesIO(body)) as im:
        assert im.format == "WEBP" and im.size == (SIZE, SIZE)
        assert not im.getexif()  # the upload's metadata is gone
    assert b"SecretCam" not in body
    st, _h, again = req(srv, url, headers={"If-None-Match": h["ETag"]})
    assert st == 304 and again == b""
    assert req(srv, f"/clubs/{cid}/picture/0123456789abcdef")[0] == 404  # not its version
    assert req(srv, f"/clubs/{cid + 1}/picture/{url.rsplit('/', 1)[1]}")[0] == 404

    # an admin may too; the version (and the URL) changes with the picture
    st, out2 = upload(srv, cid, png(color=(10, 200, 10)), tb)
    assert st == 200 and out2["picture"] != url
    assert req(srv, url)[0] == 404  # the old version is gone

    # a body over the 64 KiB of other routes but under 2 MiB passes the HTTP guard
    noisy = io.BytesIO()
    Image.frombytes("RGB", (400, 400), os.urandom(400 * 400 * 3)).save(noisy, "PNG")
    assert 64 * 1024 < len(noisy.getvalue()) < MAX_UPLOAD_BYTES
    st, out3 = upload(srv, cid, noisy.getvalue(), ta)
    assert st == 200, out3
    st, out2 = upload(srv, cid, png(color=(10, 200, 10)), tb)
    assert st == 200

    # refusals, each with its status
    st, out = upload(srv, cid, png(), tc)
    assert st == 403 and "owner or an admin" in str(out["error"])
    assert upload(srv, cid, png(), td)[0] == 403
    st, out = upload(srv, cid, png(), tg)
    assert st == 403 and "register" in str(out["error"])
    assert upload(srv, cid, png(), None)[0] == 401
    assert upload(srv, 999, png(), ta)[0] == 404
    st, out = upload(srv, cid, b"hello", ta, "text/plain")
    assert st == 415 and set(out) == {"error", "code", "request_id"} and out["code"] == "image_type"
    st, out = upload(srv, cid, b"not a picture at all", ta)
    assert st == 400 and "not a readable image" in str(out["error"])
    side = int(MAX_PIXELS ** 0.5) + 16  # over the pixel limit: refused from its header
    st, out = upload(srv, cid, png(side, side), ta)
    assert st == 400 and "pixels" in str(out["error"]), out
    st, raw = raw_post(srv, f"/api/clubs/{cid}/picture", b"\0" * (MAX_UPLOAD_BYTES + 1), "image/png", ta)
    assert st == 413 and str(MAX_UPLOAD_BYTES) in raw.decode()
    st, raw = raw_post(srv, f"/api/clubs/{cid}/picture", b"\0" * (MAX_UPLOAD_BYTES + 1), "image/png", ta,
                       chunked=True)
    assert st == 413

    # back to the drawn avatar
    assert call(srv, "POST", f"/api/clubs/{cid}/picture/delete", tc)[0] == 403
    st, out = call(srv, "POST", f"/api/clubs/{cid}/picture/delete", ta)
    assert st == 200 and out["picture"] is None
    assert call(srv, "GET", f"/api/clubs/{cid}", tc)[1]["picture"] is None
    assert req(srv, str(out2["picture"]))[0] == 404


def test_club_picture_spends_the_upload_budget(srv: LiveServer) -> None:
    """The uploader's avatar budget (UPLOADS_PER_PLAYER) counts its club pictures too."""
    ta, _ = register(srv, "owner2")
    cid = call(srv, "POST", "/api/clubs", ta, {"name": "限速"})[1]["id"]
    for _ in range(avatars.UPLOADS_PER_PLAYER.count):
        assert upload(srv, cid, png(), ta)[0] == 200
    status, h, raw = req(srv, f"/api/clubs/{cid}/picture", png(), "image/png", ta)
    assert status == 429 and b"too many avatar uploads" in raw and int(h["Retry-After"]) > 0
    st, _h, raw = req(srv, "/api/avatar", png(), "image/png", ta)
    assert st == 429  # the same budget
