"""Avatar decoding keeps the server's memory bounded (a real ``laizi serve``): the worst
uploads allowed — 4096 x 4096 RGBA PNGs and an 8192 x 2048 one (the pixel and side
limits), a progressive JPEG at the pixel limit — and refused ones (too many pixels, a
lying header) leave the server's resident memory (``VmRSS`` of /proc/PID/status) and its
peak (``VmHWM``) under :data:`laizi.server.accounts.avatars.RSS_BUDGET_MB` above what it was
before (issue 27: 437 MB)."""

from __future__ import annotations

import io
import os
import zlib
from pathlib import Path

import pytest
from PIL import Image

from laizi.server.accounts.avatars import MAX_PIXELS, MAX_SIDE, MAX_UPLOAD_BYTES, RSS_BUDGET_MB
from support.avatarkit import guest, jreq, png_header_only
from support.srvhelpers import LiveServer

pytestmark = [pytest.mark.timeout(300),
              pytest.mark.skipif(not os.path.exists("/proc/self/status"), reason="needs /proc")]


def status_kb(pid: int, field: str) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1])
    raise AssertionError(f"no {field} in /proc/{pid}/status")


def noisy_png(w: int, h: int) -> bytes:
    """An RGBA PNG of w x h pixels that compresses under the upload limit: stripes of
    colour and alpha (Pillow must still decode every pixel)."""
    im = Image.new("RGBA", (w, h), (200, 30, 30, 255))
    stripe = Image.new("RGBA", (w, 7), (30, 30, 200, 100))
    for y in range(0, h, 23):
        im.paste(stripe, (0, y))
    out = io.BytesIO()
    im.save(out, "PNG", optimize=False, compress_level=9)
    data = out.getvalue()
    assert len(data) <= MAX_UPLOAD_BYTES, len(data)
    return data


def big_jpeg(w: int, h: int) -> bytes:
    im = Image.new("RGB", (w, h), (10, 120, 60))
    out = io.BytesIO()
    im.save(out, "JPEG", quality=20, progressive=True)
    assert len(out.getvalue()) <= MAX_UPLOAD_BYTES
    return out.getvalue()


def test_the_worst_uploads_leave_the_servers_memory_bounded(tmp_path: Path) -> None:
    side = int(MAX_PIXELS ** 0.5)
    worst = [("image/png", noisy_png(side, side)), ("image/png", noisy_png(MAX_SIDE, MAX_PIXELS // MAX_SIDE)),
             ("image/jpeg", big_jpeg(side, side))]
    # refused: a header past the pixel limit; a PNG whose stream is bigger than its header says
    liar = png_header_only(side, side)[:-12]  # (truncated: no IEND)
    refused = [png_header_only(MAX_SIDE, MAX_SIDE), liar,
               zlib.compress(b"\0" * 1000)]
    srv = LiveServer(str(tmp_path / "mem.db"), tmp_path).start()
    try:
        pid = srv.proc.pid
        token, _ = guest(srv, "大图")
        jreq(srv, "/api/avatar", noisy_png(64, 64), "image/png", token)  # warm: Pillow loaded
        base_rss = status_kb(pid, "VmRSS")
        base_hwm = status_kb(pid, "VmHWM")
        for _ in range(2):
            for ctype, body in worst:
                token, _ = guest(srv, "大图")  # (a new player: the per-player limit)
                status, out = jreq(srv, "/api/avatar", body, ctype, token)
                assert status == 200 and out["avatar"]["kind"] == "upload", (status, out)
        for body in refused:
            token, _ = guest(srv, "坏图")
            status, out = jreq(srv, "/api/avatar", body, "image/png", token)
            assert status == 400, (status, out)
        rss = status_kb(pid, "VmRSS")
        hwm = status_kb(pid, "VmHWM")
        grew, peak = (rss - base_rss) / 1024, (hwm - base_hwm) / 1024
        print(f"\navatar decoding: RSS {base_rss / 1024:.0f} → {rss / 1024:.0f} MB "
              f"(+{grew:.0f}), peak +{peak:.0f} MB")
        assert grew < RSS_BUDGET_MB, f"RSS grew by {grew:.0f} MB"
        assert peak < RSS_BUDGET_MB, f"peak RSS grew by {peak:.0f} MB"
        assert "Traceback" not in srv.log.read_text()
    finally:
        srv.stop()
