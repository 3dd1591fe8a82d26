"""Avatars (头像): one of the set drawn for laizi, or a picture the player uploads.

- The drawn set is ``laizi/web/avatars/<id>.svg`` (:data:`DRAWN`, plus ``bot.svg`` for bot
  seats). A player who chose nothing gets one of the set picked by its player id.
- An upload (PNG, JPEG, WebP or GIF, at most :data:`MAX_UPLOAD_BYTES`) is decoded with
  Pillow — its type taken from its bytes, never from the request — after its header passed
  the pixel limit (:data:`MAX_PIXELS`, :data:`MAX_SIDE`: a decompression bomb is refused
  before it is decoded) and ``verify()``; turned upright by its EXIF orientation, cropped to
  a centred square, resized to :data:`SIZE` × :data:`SIZE` and re-encoded as WebP into a new
  image, so no metadata (EXIF, GPS, ICC, comments) of the upload survives. Only the first
  frame of an animation is kept.
- Stored in the ``avatars`` table (one row per player), served at ``/avatars/{player_id}``
  with ``ETag``, ``Cache-Control`` and a Content-Type of laizi's choosing (``image/webp`` or
  ``image/svg+xml``), ``nosniff`` and a CSP that allows nothing.

Routes (:mod:`laizi.server.net.avatarapi`):

- ``GET /api/avatars``: the drawn set and the upload limits;
- ``POST /api/avatar`` (``Authorization: Bearer <token>``, a guest's or an account's):
  ``application/json`` ``{"choice": id}`` (``null``: back to the default), or the image
  itself as the body with its ``image/*`` Content-Type. Answers ``{player_id, avatar}``;
  errors ``{"error", "request_id"}`` with 400 (bad input, unreadable image, too many
  pixels), 401 (no valid token), 413 (body too large), 415 (not an accepted type), 429
  (:data:`UPLOADS_PER_PLAYER`, :data:`UPLOADS_PER_IP`, :data:`CHOICES_PER_PLAYER`; with
  ``Retry-After``);
- ``GET /api/avatar`` (``Authorization: Bearer <token>``): the caller's own ``{player_id,
  avatar}`` (``kind``: ``upload``, ``drawn`` or ``default``; ``choice``; ``url``);
- ``GET /avatars/{player_id}``: the picture (304 on a matching ``If-None-Match``).
"""

from __future__ import annotations

import asyncio
import hashlib
import io
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from PIL import Image, ImageOps, UnidentifiedImageError
from sqlalchemy import select
from sqlalchemy.orm import Session

from laizi.server.common.chat import RateLimiter
from laizi.server.common.errors import ApiError
from laizi.server.guard.limits import Limit
from laizi.server.persistence import db

if TYPE_CHECKING:
    from laizi.server.accounts.site import Site

__all__ = [
    "AVATAR_PATH", "BODY_LIMITS", "DRAWN", "MAX_PIXELS", "MAX_SIDE", "MAX_UPLOAD_BYTES",
    "RSS_BUDGET_MB", "SIZE", "AvatarError", "Avatars", "Picture", "catalogue", "default_choice",
    "reencode",
]

AVATAR_DIR = Path(__file__).resolve().parents[2] / "web" / "avatars"
AVATAR_PATH = "/api/avatar"
SIZE = 128                           # stored pictures are SIZE x SIZE
MAX_UPLOAD_BYTES = 2 * 1024 * 1024   # a request body to /api/avatar
CLUB_PICTURE_PATH = "/api/clubs/*/picture"  # a club's picture (laizi.server.clubs.picture)
BODY_LIMITS = {AVATAR_PATH: MAX_UPLOAD_BYTES,  # for the HTTP guard (other bodies: 64 KiB)
               CLUB_PICTURE_PATH: MAX_UPLOAD_BYTES}
MAX_SIDE = 8192                      # pixels, either side of an upload
MAX_PIXELS = 4096 * 4096             # width x height of an upload (decoded: up to 64 MiB RGBA)
ACCEPTED = {"PNG": "image/png", "JPEG": "image/jpeg", "WEBP": "image/webp", "GIF": "image/gif"}
OUT_FORMAT, OUT_TYPE = "WEBP", "image/webp"
DECODES_AT_ONCE = 1                  # the game's threads keep a core
MMAP_AT = 4 * 1024 * 1024            # allocations this big are mapped apart (freed: unmapped)
STRIP_ROWS = 256                     # rows of a big upload reduced at a time (bounded copies)
RSS_BUDGET_MB = 100                  # a decode's peak above the server's resident memory:
                                     # the decoded upload (64 MiB at MAX_PIXELS) and a strip
UPLOADS_PER_PLAYER = Limit(5, 600.0)
UPLOADS_PER_IP = Limit(20, 600.0)
CHOICES_PER_PLAYER = Limit(30, 600.0)
CACHE_SECONDS = 60                   # then revalidated by ETag
PLAYER_ID_MAX = 32

# id -> (中文, English): the drawn set, in the order it is offered
DRAWN: dict[str, tuple[str, str]] = {
    "zhong": ("红中", "Red dragon"), "bai": ("白板", "White dragon"), "tong": ("一筒", "One dot"),
    "tiao": ("三条", "Three bamboo"), "dice": ("骰子", "Die"), "tower": ("黄鹤楼", "Yellow Crane Tower"),
    "bridge": ("长江大桥", "Yangtze bridge"), "noodles": ("热干面", "Hot dry noodles"),
    "lotus": ("荷花", "Lotus"), "plum": ("梅花", "Plum blossom"), "crane": ("仙鹤", "Crane"),
    "lantern": ("灯笼", "Lantern"), "fan": ("折扇", "Fan"), "cat": ("猫", "Cat"),
    "panda": ("熊猫", "Panda"), "fox": ("狐狸", "Fox"),
}
BOT = "bot"


class AvatarError(ApiError):
    """A request refused: ``message`` for the client, an HTTP ``status``."""


def default_choice(player_id: str) -> str:
    """The drawn avatar of a player who chose none (stable: from the player id)."""
    keys = list(DRAWN)
    return keys[int.from_bytes(hashlib.sha256(player_id.encode()).digest()[:4], "big") % len(keys)]


# ---------------------------------------------------------------------- images
def _check_header(im: Image.Image) -> None:
    if im.format not in ACCEPTED:
        raise AvatarError(f"unsupported image type {im.format}: send PNG, JPEG, WebP or GIF", 415,
                          code="image_type")
    w, h = im.size
    if w < 1 or h < 1 or w > MAX_SIDE or h > MAX_SIDE or w * h > MAX_PIXELS:
        raise AvatarError(f"image is {w}x{h} pixels: at most {MAX_SIDE} a side and "
                          f"{MAX_PIXELS:,} in all", code="image_size", params={"max": MAX_SIDE})


def _give_back() -> None:
    """Hand the freed pixel memory back to the system (glibc's ``malloc_trim``: a freed
    decode's blocks otherwise stay in the process's heap, issue 27: RSS at 437 MB)."""
    if _TRIM is not None:
        _TRIM(0)


def _trimmer() -> Any:
    """glibc's ``malloc_trim``, after fixing its mmap threshold at :data:`MMAP_AT`: blocks
    that big (a decoded picture's, Pillow allocates up to 16 MiB at a time) are mapped
    apart and unmapped when freed, whatever thread freed them — glibc otherwise raises
    the threshold after the first such free and keeps later ones in its heaps."""
    try:
        import ctypes
        import ctypes.util

        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
        libc.mallopt(-3, MMAP_AT)  # M_MMAP_THRESHOLD
        return libc.malloc_trim
    except (OSError, AttributeError):  # not glibc: nothing to do
        return None


_TRIM = _trimmer()


def _square(pic: Image.Image) -> Image.Image:
    """The centred square of ``pic`` at SIZE x SIZE. A big picture is first reduced by a
    whole factor (box filter) strip by strip — :data:`STRIP_ROWS` rows at a time, so the
    copies Pillow makes (premultiplied alpha) are of a strip, never of the whole picture
    — then resized with Lanczos (as Pillow's own ``reducing_gap`` does)."""
    w, h = pic.size
    side = min(w, h)
    f = side // (SIZE * 2)
    if f < 2:
        box = ((w - side) / 2, (h - side) / 2, (w + side) / 2, (h + side) / 2)
        return pic.resize((SIZE, SIZE), Image.Resampling.LANCZOS, box=box)
    side = side // f * f
    x0, y0 = (w - side) // 2, (h - side) // 2
    mid = Image.new(pic.mode, (side // f, side // f))
    step = max(1, STRIP_ROWS // f) * f
    for y in range(0, side, step):
        part = pic.crop((x0, y0 + y, x0 + side, y0 + min(y + step, side)))
        mid.paste(part.reduce(f), (0, y // f))
    return mid.resize((SIZE, SIZE), Image.Resampling.LANCZOS)


def reencode(data: bytes) -> bytes:
    """An upload as a SIZE x SIZE WebP with no metadata; AvatarError if it is refused."""
    if not data:
        raise AvatarError("empty image", code="image_empty")
    if len(data) > MAX_UPLOAD_BYTES:
        raise AvatarError(f"image larger than {MAX_UPLOAD_BYTES} bytes", 413, code="image_too_large",
                          params={"max_kb": MAX_UPLOAD_BYTES // 1024})
    try:
        with Image.open(io.BytesIO(data)) as probe:  # the header only: nothing decoded yet
            _check_header(probe)
            probe.verify()  # structure and checksums (PNG), without decoding the pixels
        with Image.open(io.BytesIO(data)) as im:
            _check_header(im)
            if im.format == "JPEG":
                im.draft("RGB", (SIZE * 2, SIZE * 2))  # decode at a reduced scale
            im.seek(0)
            im.load()
            # One full-size image in memory, never a copy of it: the centred square is
            # resized straight from the decoded pixels, then turned upright (small by then)
            alpha = im.mode in ("RGBA", "LA", "PA") or "transparency" in im.info
            want = "RGBA" if alpha else "RGB"
            pic = im if im.mode == want else im.convert(want)
            small = _square(pic)
            del pic
            small.info = dict(im.info)  # its EXIF orientation, for the turn
            square = ImageOps.exif_transpose(small) or small
    except AvatarError:
        raise
    except Image.DecompressionBombError:
        raise AvatarError(f"image has too many pixels: at most {MAX_PIXELS:,}", code="image_pixels") from None
    except (UnidentifiedImageError, OSError, SyntaxError, ValueError, EOFError, IndexError):
        raise AvatarError("not a readable image (PNG, JPEG, WebP or GIF)", code="image_unreadable") from None
    finally:
        _give_back()
    clean = Image.new(square.mode, square.size)  # a new image: none of the upload's metadata
    clean.paste(square)
    out = io.BytesIO()
    clean.save(out, OUT_FORMAT, quality=85, method=4)
    return out.getvalue()


# ---------------------------------------------------------------------- storage
@dataclass(frozen=True)
class Picture:
    body: bytes
    media_type: str
    etag: str


_SVG_CACHE: dict[str, bytes] = {}


def drawn_svg(choice: str) -> bytes:
    if choice not in _SVG_CACHE:
        _SVG_CACHE[choice] = (AVATAR_DIR / f"{choice}.svg").read_bytes()
    return _SVG_CACHE[choice]


def _drawn_picture(choice: str) -> Picture:
    body = drawn_svg(choice)
    return Picture(body, "image/svg+xml", f'"d-{choice}-{hashlib.sha256(body).hexdigest()[:8]}"')


def _describe(pid: str, row: db.AvatarRow | None) -> dict[str, Any]:
    if row is not None and row.image is not None:
        return {"kind": "upload", "choice": None, "url": f"/avatars/{pid}?v={row.etag}",
                "type": row.media_type, "size": SIZE, "bytes": len(row.image)}
    choice = row.choice if row is not None and row.choice in DRAWN else None
    shown = choice or default_choice(pid)
    return {"kind": "drawn" if choice else "default", "choice": shown,
            "url": f"/avatars/{pid}?v=d-{shown}", "type": "image/svg+xml"}


class Avatars:
    """The avatar operations of one server (its hub: store, auth, players)."""

    def __init__(self, hub: Site) -> None:
        self.hub = hub
        self._decodes = asyncio.Semaphore(DECODES_AT_ONCE)
        self.uploads_player = RateLimiter(UPLOADS_PER_PLAYER.count, UPLOADS_PER_PLAYER.window)
        self.uploads_ip = RateLimiter(UPLOADS_PER_IP.count, UPLOADS_PER_IP.window)
        self.choices = RateLimiter(CHOICES_PER_PLAYER.count, CHOICES_PER_PLAYER.window)

    async def _holder(self, token: object) -> str:
        pid = await self.hub.identify(token)
        if pid is None:
            raise AvatarError("not signed in (send Authorization: Bearer <token>)", 401, code="not_logged_in")
        return pid

    @staticmethod
    def _hit(limiter: RateLimiter, key: str, what: str) -> None:
        if not limiter.allow(key):
            wait = limiter.retry_after(key)
            raise AvatarError(f"too many {what}; wait {wait:.0f} s", 429, retry_after=wait,
                              code="rate_limited", params={"wait": round(wait)})

    def _load(self, pid: str) -> tuple[bool, db.AvatarRow | None]:
        with Session(self.hub.store.engine) as s:
            known = pid in self.hub.players or s.get(db.PlayerRow, pid) is not None
            row = s.scalars(select(db.AvatarRow).where(db.AvatarRow.player_id == pid)).first()
            if row is not None:
                s.expunge(row)
            return known, row

    async def _save(self, pid: str, choice: str | None, image: bytes | None) -> dict[str, Any]:
        etag = hashlib.sha256(image).hexdigest()[:16] if image is not None else f"d-{choice}"
        values = {"choice": choice, "image": image, "media_type": OUT_TYPE if image else None,
                  "etag": etag, "updated_at": datetime.now(UTC)}

        def write(s: Session) -> None:
            row = s.get(db.AvatarRow, pid)
            if row is None:
                s.add(db.AvatarRow(player_id=pid, **values))
            else:
                for k, v in values.items():
                    setattr(row, k, v)

        await self.hub.store.writer.write(write)
        return _describe(pid, db.AvatarRow(player_id=pid, **values))

    async def choose(self, token: object, choice: object) -> dict[str, Any]:
        pid = await self._holder(token)
        if choice is not None and (not isinstance(choice, str) or choice not in DRAWN):
            raise AvatarError("unknown avatar: choose an id from GET /api/avatars (or null)")
        self._hit(self.choices, pid, "avatar changes")
        return {"player_id": pid, "avatar": await self._save(pid, choice, None)}

    async def decode(self, pid: str, data: bytes, peer: str) -> bytes:
        """An upload by ``pid`` from ``peer`` re-encoded (:func:`reencode`), one decode at a
        time, after its budget (:data:`UPLOADS_PER_IP`, :data:`UPLOADS_PER_PLAYER`: shared by
        a player's avatar and the pictures of the clubs it runs, laizi.server.clubs.picture)."""
        if peer not in self.hub.limits.exempt:
            self._hit(self.uploads_ip, peer, "avatar uploads from this address")
        self._hit(self.uploads_player, pid, "avatar uploads")
        async with self._decodes:
            return await asyncio.to_thread(reencode, data)

    async def upload(self, token: object, data: bytes, peer: str) -> dict[str, Any]:
        pid = await self._holder(token)
        image = await self.decode(pid, data, peer)
        return {"player_id": pid, "avatar": await self._save(pid, None, image)}

    async def picture(self, pid: str) -> Picture:
        if not 1 <= len(pid) <= PLAYER_ID_MAX or not pid.isascii():
            raise AvatarError("unknown player", 404, code="unknown_player")
        known, row = await asyncio.to_thread(self._load, pid)
        if not known:
            raise AvatarError("unknown player", 404, code="unknown_player")
        if row is not None and row.image is not None:
            return Picture(row.image, row.media_type or OUT_TYPE, f'"{row.etag}"')
        choice = row.choice if row is not None and row.choice in DRAWN else default_choice(pid)
        return _drawn_picture(choice)

    async def describe(self, pid: str) -> dict[str, Any]:
        _known, row = await asyncio.to_thread(self._load, pid)
        return _describe(pid, row)


def catalogue() -> dict[str, Any]:
    return {
        "avatars": [{"id": k, "url": f"/static/avatars/{k}.svg", "zh": zh, "en": en}
                    for k, (zh, en) in DRAWN.items()],
        "bot": f"/static/avatars/{BOT}.svg",
        "upload": {"max_bytes": MAX_UPLOAD_BYTES, "types": sorted(ACCEPTED.values()),
                   "max_pixels": MAX_PIXELS, "max_side": MAX_SIDE, "size": SIZE,
                   "stored_as": OUT_TYPE,
                   "per_player": {"count": UPLOADS_PER_PLAYER.count,
                                  "window_s": UPLOADS_PER_PLAYER.window}},
    }
