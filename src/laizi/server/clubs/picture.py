"""A club's uploaded picture (issue 26: "avatar from the avatar set or an upload").

The owner or an admin uploads an image; it goes through the players' avatar pipeline
(:meth:`laizi.server.accounts.avatars.Avatars.decode`: the same limits — bytes, pixels,
types —, the same re-encoding to a 128 x 128 WebP without metadata, one decode at a time,
and the uploader's upload budget). Stored in ``club_pictures`` (one row per club),
``clubs.picture`` names its version; the club's JSON then carries ``picture``: its URL,
``/clubs/{id}/picture/{version}`` — the version is a hash of the picture, so the URL is
stable while the picture is and unguessable (a private club's picture is seen only by who
was shown the club), and it is served with a long cache. Removing it brings back the club's
drawn avatar.
"""

from __future__ import annotations

import hashlib
from datetime import UTC, datetime
from typing import Any

from sqlalchemy.orm import Session

from laizi.server.accounts.avatars import OUT_TYPE, AvatarError, Avatars, Picture
from laizi.server.clubs.service import STAFF, ClubError, Clubs
from laizi.server.persistence.clubdb import ClubPictureRow

__all__ = ["PICTURE_CACHE_SECONDS", "ClubPictures", "picture_url"]

PICTURE_CACHE_SECONDS = 86400 * 30  # the URL changes with the picture


def picture_url(cid: int, etag: str | None) -> str | None:
    return f"/clubs/{cid}/picture/{etag}" if etag else None


class ClubPictures:
    """Upload, remove and serve clubs' pictures (the clubs' service, the avatars' pipeline)."""

    def __init__(self, clubs: Clubs, avatars: Avatars) -> None:
        self.clubs = clubs
        self.avatars = avatars

    def _staff(self, s: Session, cid: int, pid: str) -> ClubError | None:
        got = self.clubs.need_role(s, cid, pid, STAFF)
        return got if isinstance(got, ClubError) else None

    async def upload(self, pid: str, cid: int, data: bytes, peer: str) -> dict[str, Any]:
        """The owner's or an admin's picture for club ``cid`` (403 before anything is decoded)."""
        self.clubs.registered(pid)
        await self.clubs.read_check(lambda s: self._staff(s, cid, pid))
        try:
            image = await self.avatars.decode(pid, data, peer)
        except AvatarError as exc:
            raise ClubError(exc.message, exc.status, retry_after=exc.retry_after, code=exc.code,
                            params=exc.params) from None
        etag = hashlib.sha256(image).hexdigest()[:16]

        def write(s: Session) -> ClubError | None:
            got = self.clubs.need_role(s, cid, pid, STAFF)
            if isinstance(got, ClubError):
                return got
            row = s.get(ClubPictureRow, cid)
            values = {"image": image, "media_type": OUT_TYPE, "etag": etag, "updated_by": pid,
                      "updated_at": datetime.now(UTC)}
            if row is None:
                s.add(ClubPictureRow(club_id=cid, **values))
            else:
                for k, v in values.items():
                    setattr(row, k, v)
            got[0].picture = etag
            return None

        await self.clubs.write(write)
        return {"club": cid, "picture": picture_url(cid, etag), "bytes": len(image)}

    async def remove(self, pid: str, cid: int) -> dict[str, Any]:
        """Back to the club's drawn avatar (the owner or an admin)."""
        self.clubs.registered(pid)

        def write(s: Session) -> ClubError | None:
            got = self.clubs.need_role(s, cid, pid, STAFF)
            if isinstance(got, ClubError):
                return got
            row = s.get(ClubPictureRow, cid)
            if row is not None:
                s.delete(row)
            got[0].picture = None
            return None

        await self.clubs.write(write)
        return {"club": cid, "picture": None}

    async def picture(self, cid: int, etag: str) -> Picture:
        """The stored picture of club ``cid`` if ``etag`` names it (404 otherwise)."""

        def read(s: Session) -> Picture | ClubError:
            row = s.get(ClubPictureRow, cid)
            if row is None or row.etag != etag:
                return ClubError("no such club picture", 404)
            return Picture(row.image, row.media_type, f'"{row.etag}"')

        out: Picture = await self.clubs.read(read)
        return out
