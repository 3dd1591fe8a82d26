"""Avatars against a real server: the drawn set, uploads re-encoded by Pillow (size, format,
no metadata, upright), refused uploads (bogus, wrong type, too large, too many pixels,
truncated), caching headers, the per-player upload limit, persistence across a restart."""

from __future__ import annotations

import io
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from laizi.server.accounts import avatars
from laizi.server.accounts.avatars import DRAWN, MAX_UPLOAD_BYTES, SIZE, AvatarError, reencode
from support.avatarkit import guest, jreq, png_header_only, raw_post, req
from support.srvhelpers import LiveServer


def image_bytes(fmt: str, size: tuple[int, int] = (300, 200), mode: str = "RGB", **save: Any) -> bytes:
    im = Image.new(mode, size, (200, 30, 30) if mode == "RGB" else (200, 30, 30, 255))
    for x in range(size[0] // 2, size[0]):  # right half blue
        for y in range(size[1]):
            im.putpixel((x, y), (30, 30, 200) if mode == "RGB" else (30, 30, 200, 128))
    out = io.BytesIO()
    im.save(out, fmt, **save)
    return out.getvalue()


@pytest.fixture(scope="module")
def srv(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    tmp = tmp_path_factory.mktemp("avatars")
    s = LiveServer(str(tmp / "av.db"), tmp).start()
    try:
        yield s
    finally:
        s.stop()


def stored(srv: LiveServer, pid: str) -> tuple[Any, bytes]:
    status, headers, body = req(srv, f"/avatars/{pid}")
    assert status == 200, body
    return headers, body


# ------------------------------------------------------------------ unit: the re-encoder
def test_reencode_png_with_alpha_to_a_small_webp() -> None:
    out = reencode(image_bytes("PNG", mode="RGBA"))
    im = Image.open(io.BytesIO(out))
    assert im.format == "WEBP" and im.size == (SIZE, SIZE) and im.mode == "RGBA"
    assert len(out) < 20_000


def test_reencode_strips_exif_and_turns_the_picture_upright() -> None:
    exif = Image.Exif()
    exif[0x0112] = 6  # orientation: rotate 90° clockwise to show
    exif[0x010F] = "SecretCam"
    exif[0x9286] = "a comment"
    src = image_bytes("JPEG", exif=exif.tobytes(), quality=95)
    assert b"SecretCam" in src
    out = reencode(src)
    assert b"SecretCam" not in out and b"Exif" not in out
    im = Image.open(io.BytesIO(out)).convert("RGB")
    assert im.size == (SIZE, SIZE) and not im.getexif()
    top, bottom = im.getpixel((16, 16)), im.getpixel((16, SIZE - 16))
    assert isinstance(top, tuple) and isinstance(bottom, tuple)
    # upright: the left (red) half of the stored pixels is now on top, the blue half below
    assert top[0] > 150 and top[2] < 80, top
    assert bottom[2] > 150 and bottom[0] < 80, bottom


@pytest.mark.parametrize("fmt", ["GIF", "WEBP", "JPEG"])
def test_reencode_every_accepted_type(fmt: str) -> None:
    out = reencode(image_bytes(fmt, size=(90, 140)))
    im = Image.open(io.BytesIO(out))
    assert (im.format, im.size) == ("WEBP", (SIZE, SIZE))


@pytest.mark.parametrize(("data", "status", "words"), [
    (b"", 400, "empty"),
    (b"this is not an image at all", 400, "not a readable image"),
    (image_bytes("BMP", size=(20, 20)), 415, "unsupported image type BMP"),
    (png_header_only(5000, 5000), 400, "5000x5000 pixels"),
    (png_header_only(9000, 10), 400, "9000x10 pixels"),
    (png_header_only(20000, 20000), 400, "pixels"),  # Pillow's own bomb check fires first
    (image_bytes("PNG")[:300], 400, "not a readable image"),  # truncated
    (b"\0" * (MAX_UPLOAD_BYTES + 1), 413, "larger than"),
])
def test_reencode_refuses(data: bytes, status: int, words: str) -> None:
    with pytest.raises(AvatarError) as err:
        reencode(data)
    assert err.value.status == status and words in err.value.message, err.value.message


def test_every_drawn_avatar_is_an_svg_file() -> None:
    assert len(DRAWN) >= 12
    for key in [*DRAWN, avatars.BOT]:
        svg = (avatars.AVATAR_DIR / f"{key}.svg").read_text()
        assert svg.startswith("<svg") and "<script" not in svg and "href" not in svg, key
    assert {avatars.default_choice(f"p{i}") for i in range(200)} == set(DRAWN)


# ------------------------------------------------------------------ a real server
def test_the_drawn_set_is_listed_and_served(srv: LiveServer) -> None:
    status, cat = srv.get("/api/avatars")
    assert status == 200 and [a["id"] for a in cat["avatars"]] == list(DRAWN)
    assert cat["upload"]["max_bytes"] == MAX_UPLOAD_BYTES and cat["upload"]["size"] == SIZE
    for a in [*cat["avatars"], {"url": cat["bot"]}]:
        st, h, body = req(srv, a["url"])
        assert st == 200 and h["Content-Type"].startswith("image/svg+xml") and body.startswith(b"<svg")


def test_choose_a_drawn_avatar_and_back_to_the_default(srv: LiveServer) -> None:
    token, pid = guest(srv)
    h, body = stored(srv, pid)  # the default: one of the set, picked by the player id
    default = avatars.default_choice(pid)
    assert h["Content-Type"].startswith("image/svg+xml")
    assert body == (avatars.AVATAR_DIR / f"{default}.svg").read_bytes()
    st, _h, raw = req(srv, "/api/avatar", token=token)
    assert st == 200 and b'"default"' in raw
    status, out = jreq(srv, "/api/avatar", b'{"choice": "panda"}', "application/json", token)
    assert status == 200 and out["avatar"]["kind"] == "drawn" and out["avatar"]["choice"] == "panda"
    assert stored(srv, pid)[1] == (avatars.AVATAR_DIR / "panda.svg").read_bytes()
    status, out = jreq(srv, "/api/avatar", b'{"choice": "dragon-of-doom"}', "application/json", token)
    assert status == 400 and "unknown avatar" in out["error"]
    status, out = jreq(srv, "/api/avatar", b'{"choice": null}', "application/json", token)
    assert status == 200 and out["avatar"] == {**out["avatar"], "kind": "default", "choice": default}


def test_upload_png_and_jpeg_are_stored_as_small_webp(srv: LiveServer) -> None:
    token, pid = guest(srv)
    for fmt, ctype in (("PNG", "image/png"), ("JPEG", "image/jpeg")):
        src = image_bytes(fmt, size=(640, 480))
        status, out = jreq(srv, "/api/avatar", src, ctype, token)
        assert status == 200, out
        assert out["avatar"]["kind"] == "upload" and out["avatar"]["type"] == "image/webp"
        h, body = stored(srv, pid)
        assert h["Content-Type"] == "image/webp" and len(body) == out["avatar"]["bytes"]
        assert h["X-Content-Type-Options"] == "nosniff"
        assert h["Content-Security-Policy"].startswith("default-src 'none'")
        assert "max-age=" in h["Cache-Control"] and h["ETag"]
        im = Image.open(io.BytesIO(body))
        assert (im.format, im.size) == ("WEBP", (SIZE, SIZE)) and len(body) < 20_000
        st, h2, again = req(srv, f"/avatars/{pid}", headers={"If-None-Match": h["ETag"]})
        assert st == 304 and again == b""
    status, out = jreq(srv, "/api/avatar", b"[1]", "application/json", token)
    assert status == 400 and "choice" in out["error"]
    st, _h, raw = req(srv, "/api/avatar", token=token)
    assert st == 200 and b'"upload"' in raw


def test_bad_uploads_get_clear_errors(srv: LiveServer) -> None:
    token, pid = guest(srv)
    cases = [
        (b"GIF89a but not really", "image/gif", 400, "not a readable image"),
        (image_bytes("BMP", size=(16, 16)), "image/png", 415, "unsupported image type BMP"),
        (b"<svg xmlns='http://www.w3.org/2000/svg'/>", "image/svg+xml", 400, "not a readable image"),
        (png_header_only(6000, 6000), "image/png", 400, "6000x6000 pixels"),
        (b"hello", "text/plain", 415, "Content-Type image/png"),
    ]
    for body, ctype, want, words in cases:
        status, out = jreq(srv, "/api/avatar", body, ctype, token)
        assert status == want and words in out["error"], (ctype, status, out)
        assert out["request_id"]
    status, out = jreq(srv, "/api/avatar", image_bytes("PNG"), "image/png", None)
    assert status == 401 and "Bearer" in out["error"]
    status, out = jreq(srv, "/api/avatar", image_bytes("PNG"), "image/png", "forged.token")
    assert status == 401
    big = b"\x89PNG\r\n\x1a\n" + b"\0" * MAX_UPLOAD_BYTES
    for chunked in (False, True):  # refused from Content-Length, or while it streams in
        status, raw = raw_post(srv, "/api/avatar", big, "image/png", token, chunked=chunked)
        assert status == 413 and str(MAX_UPLOAD_BYTES).encode() in raw, (chunked, status, raw)
    # a JSON choice is read as every JSON body is: nesting capped (it was a 500 and a
    # RecursionError in the log), no bigger than the other JSON bodies
    status, out = jreq(srv, "/api/avatar", b"[" * 50_000, "application/json", token)
    assert status == 400 and "deep" in out["error"], (status, out)
    status, out = jreq(srv, "/api/avatar", b'{"choice": "' + b"x" * 70_000 + b'"}', "application/json", token)
    assert status == 413 and "larger than" in out["error"], (status, out)
    assert "Traceback" not in srv.log_text() and "RecursionError" not in srv.log_text()
    # the limit is per path: other bodies still stop at 64 KiB
    status, raw = raw_post(srv, "/api/guest", b"{" + b" " * 70_000 + b"}", "application/json", None)
    assert status == 413
    # nothing refused was stored: still the default
    assert stored(srv, pid)[0]["Content-Type"].startswith("image/svg+xml")
    assert req(srv, "/avatars/p_nobody_here")[0] == 404
    assert req(srv, "/avatars/" + "x" * 40)[0] == 404


def test_uploads_are_rate_limited_per_player(srv: LiveServer) -> None:
    token, _pid = guest(srv)
    small = image_bytes("PNG", size=(8, 8))
    for _ in range(avatars.UPLOADS_PER_PLAYER.count):
        assert jreq(srv, "/api/avatar", small, "image/png", token)[0] == 200
    status, headers, raw = req(srv, "/api/avatar", small, "image/png", token)
    assert status == 429 and b"too many avatar uploads" in raw
    assert int(headers["Retry-After"]) > 0
    other, _ = guest(srv)  # another player is not affected
    assert jreq(srv, "/api/avatar", small, "image/png", other)[0] == 200


def test_uploads_are_rate_limited_per_address(tmp_path: Path) -> None:
    s = LiveServer(str(tmp_path / "ip.db"), tmp_path, rate_limited=True).start()
    try:
        small = image_bytes("PNG", size=(8, 8))
        codes = []
        for i in range(avatars.UPLOADS_PER_IP.count // avatars.UPLOADS_PER_PLAYER.count + 1):
            token, _ = guest(s, f"ip{i}")
            codes += [jreq(s, "/api/avatar", small, "image/png", token)[0]
                      for _ in range(avatars.UPLOADS_PER_PLAYER.count)]
        assert codes.count(200) == avatars.UPLOADS_PER_IP.count and codes[-1] == 429
    finally:
        s.stop()


def test_an_avatar_survives_a_restart(tmp_path: Path) -> None:
    s = LiveServer(str(tmp_path / "keep.db"), tmp_path).start()
    try:
        token, pid = guest(s)
        assert jreq(s, "/api/avatar", image_bytes("WEBP"), "image/webp", token)[0] == 200
        before = stored(s, pid)[1]
        s.stop()
        s.start()
        h, after = stored(s, pid)
        assert after == before and h["Content-Type"] == "image/webp"
    finally:
        s.stop()


@pytest.mark.slow
def test_avatars_on_postgres(pg_url: str, tmp_path: Path) -> None:
    s = LiveServer(pg_url, tmp_path).start()
    try:
        token, pid = guest(s)
        status, out = jreq(s, "/api/avatar", image_bytes("GIF"), "image/gif", token)
        assert status == 200, out
        h, body = stored(s, pid)
        assert Image.open(io.BytesIO(body)).size == (SIZE, SIZE) and h["Content-Type"] == "image/webp"
        assert jreq(s, "/api/avatar", b'{"choice": "fox"}', "application/json", token)[0] == 200
        assert stored(s, pid)[1] == (avatars.AVATAR_DIR / "fox.svg").read_bytes()
    finally:
        s.stop()
