"""Friends and invites (好友, 邀请).

- Only registered players have friends (a guest's identity is too fleeting to befriend);
  a friend is named by username or player id.
- ``request`` → the other side ``accept``\\s or ``decline``\\s; either side may ``remove``
  (also withdraws a request). A request to someone who already asked you accepts theirs.
- The friend list shows each friend's presence (:mod:`laizi.server.social.presence`): online,
  and the room it is in.
- ``invite`` a friend to the room you are in: the invite is stored (``invites``), pushed to
  the friend's open connections (``{"type": "invite", "invite": …}``) and listed by
  ``GET /api/invites`` until it expires (:data:`INVITE_TTL`); accepting returns the room code.
- Limits: :data:`FRIEND_REQUESTS_PER_HOUR` (every attempt counts, found or not: no guessing
  usernames), :data:`INVITES_PER_MINUTE`, :data:`MAX_FRIENDS` (``LAIZI_MAX_FRIENDS`` and
  ``LAIZI_INVITE_TTL`` override the friend cap and the invite lifetime).
"""

from __future__ import annotations

import asyncio
import os
import unicodedata
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING, Any

from sqlalchemy import delete, func, or_, select
from sqlalchemy.orm import Session

from laizi.server.common import protocol as proto
from laizi.server.common.chat import RateLimiter
from laizi.server.common.errors import ApiError
from laizi.server.persistence import db
from laizi.server.persistence.socialdb import FriendRow, InviteRow
from laizi.server.social.presence import LocalPresence, Presence

if TYPE_CHECKING:
    from laizi.server.accounts.site import SocialSite

__all__ = ["FRIEND_REQUESTS_PER_HOUR", "INVITES_PER_MINUTE", "INVITE_TTL", "MAX_FRIENDS",
           "FriendError", "Friends"]

FRIEND_REQUESTS_PER_HOUR = 30   # friend requests one player may send per hour
INVITES_PER_MINUTE = 10         # invites one player may send per minute
MAX_FRIENDS = 200               # friends (and requests sent) per player
INVITE_TTL = 120.0              # seconds an invite stays open
TARGET_MAX = 40                 # characters of a username / player id


class FriendError(ApiError):
    """A refused friends or invite request."""


@dataclass(frozen=True)
class _Who:
    pid: str
    username: str


def _aware(t: datetime) -> datetime:
    return t if t.tzinfo is not None else t.replace(tzinfo=UTC)


def _env_int(name: str, default: int) -> int:
    raw = os.environ.get(name)
    try:
        return max(1, int(raw)) if raw else default
    except ValueError:
        return default


class Friends:
    def __init__(self, hub: SocialSite, presence: Presence | None = None) -> None:
        self.hub = hub
        self.presence: Presence = presence or LocalPresence(hub)
        self.requests = RateLimiter(FRIEND_REQUESTS_PER_HOUR, 3600.0)
        self.invite_rate = RateLimiter(INVITES_PER_MINUTE, 60.0)
        self.max_friends = _env_int("LAIZI_MAX_FRIENDS", MAX_FRIENDS)
        self.invite_ttl = float(_env_int("LAIZI_INVITE_TTL", int(INVITE_TTL)))

    # ------------------------------------------------------------- helpers
    def _registered(self, pid: str) -> None:
        if pid not in self.hub.auth.accounts:
            raise FriendError("only registered players have friends: register first", 403, code="friends_guest")

    def _find(self, target: object) -> _Who:
        if not isinstance(target, str) or not 0 < len(target.strip()) <= TARGET_MAX:
            raise FriendError(f"name a player: a username or player id (1-{TARGET_MAX} characters)")
        raw = target.strip()
        key = unicodedata.normalize("NFKC", raw).casefold()
        with Session(self.hub.store.engine) as s:
            row = s.execute(select(db.AccountRow.player_id, db.AccountRow.username)
                            .where(or_(db.AccountRow.username_key == key,
                                       db.AccountRow.player_id == raw))).first()
        if row is None:
            raise FriendError(f"no registered player {raw[:TARGET_MAX]!r}", 404, code="no_registered_player", params={"name": raw[:TARGET_MAX]})
        return _Who(row[0], row[1])

    def _nick(self, pid: str) -> str:
        return self.hub.players.get(pid, "?")

    async def _write(self, fn: Any) -> Any:
        return await self.hub.store.writer.write(fn)

    # ------------------------------------------------------------- friends
    async def request(self, pid: str, target: object) -> dict[str, Any]:
        self._registered(pid)
        if not self.requests.allow(pid):
            wait = self.requests.retry_after(pid)
            raise FriendError(f"at most {FRIEND_REQUESTS_PER_HOUR} friend requests per hour; "
                              f"wait {wait:.0f} s", 429, wait, code="friend_requests_rate",
                              params={"max": FRIEND_REQUESTS_PER_HOUR, "wait": round(wait)})
        who = await asyncio.to_thread(self._find, target)
        if who.pid == pid:
            raise FriendError("you cannot befriend yourself", code="befriend_self")
        cap = self.max_friends

        def write(s: Session) -> tuple[str, int] | str:
            rows = s.scalars(select(FriendRow).where(or_(
                (FriendRow.from_id == pid) & (FriendRow.to_id == who.pid),
                (FriendRow.from_id == who.pid) & (FriendRow.to_id == pid)))).all()
            for r in rows:
                if r.status == "accepted":
                    return "already friends"
                if r.from_id == pid:
                    return "friend request already sent"
            for p in (pid, who.pid):
                n = s.scalar(select(func.count()).select_from(FriendRow).where(
                    or_(FriendRow.from_id == p, FriendRow.to_id == p),
                    or_(FriendRow.status == "accepted", FriendRow.from_id == p)))
                if (n or 0) >= cap:
                    return f"friend list full ({'yours' if p == pid else 'theirs'}: at most {cap})"
            if rows:  # they asked first: this accepts their request
                rows[0].status = "accepted"
                rows[0].accepted_at = datetime.now(UTC)
                return ("accepted", rows[0].id)
            r = FriendRow(from_id=pid, to_id=who.pid, status="pending")
            s.add(r)
            s.flush()
            return ("pending", r.id)

        out = await self._write(write)
        if isinstance(out, str):
            raise FriendError(out, 409)
        status = out[0]
        me = {"player_id": pid, "nickname": self._nick(pid)}
        self.presence.push(who.pid, proto.friends("request" if status == "pending" else "accepted", me))
        return {"ok": True, "status": status, "player_id": who.pid, "username": who.username,
                "nickname": self._nick(who.pid)}

    async def answer(self, pid: str, target: object, accept: bool) -> dict[str, Any]:
        """Accept or decline the request ``target`` sent to ``pid``."""
        self._registered(pid)
        who = await asyncio.to_thread(self._find, target)
        cap = self.max_friends

        def write(s: Session) -> str | None:
            r = s.scalars(select(FriendRow).where(FriendRow.from_id == who.pid,
                                                  FriendRow.to_id == pid,
                                                  FriendRow.status == "pending")).first()
            if r is None:
                return "no friend request from that player"
            if not accept:
                s.delete(r)
                return None
            n = s.scalar(select(func.count()).select_from(FriendRow).where(
                or_(FriendRow.from_id == pid, FriendRow.to_id == pid), FriendRow.status == "accepted"))
            if (n or 0) >= cap:
                return f"friend list full (at most {cap})"
            r.status = "accepted"
            r.accepted_at = datetime.now(UTC)
            return None

        err = await self._write(write)
        if err:
            raise FriendError(err, 404 if err.startswith("no ") else 409)
        if accept:
            self.presence.push(who.pid, proto.friends("accepted", {"player_id": pid,
                                                               "nickname": self._nick(pid)}))
        return {"ok": True, "player_id": who.pid, "status": "accepted" if accept else "declined"}

    async def remove(self, pid: str, target: object) -> dict[str, Any]:
        """End a friendship, or withdraw a request (either direction)."""
        self._registered(pid)
        who = await asyncio.to_thread(self._find, target)

        def write(s: Session) -> int:
            res = s.execute(delete(FriendRow).where(or_(
                (FriendRow.from_id == pid) & (FriendRow.to_id == who.pid),
                (FriendRow.from_id == who.pid) & (FriendRow.to_id == pid))))
            return int(res.rowcount or 0)  # type: ignore[attr-defined]

        if not await self._write(write):
            raise FriendError("not friends with that player", 404, code="not_friends")
        self.presence.push(who.pid, proto.friends("removed", {"player_id": pid,
                                                          "nickname": self._nick(pid)}))
        return {"ok": True, "player_id": who.pid}

    def _rows(self, pid: str) -> list[tuple[str, str, str, str | None]]:
        """(other, status, direction, username) of every row of ``pid``."""
        with Session(self.hub.store.engine) as s:
            rows = s.execute(select(FriendRow.from_id, FriendRow.to_id, FriendRow.status)
                             .where(or_(FriendRow.from_id == pid, FriendRow.to_id == pid))).all()
            others = [b if a == pid else a for a, b, _ in rows]
            names = dict(s.execute(select(db.AccountRow.player_id, db.AccountRow.username)
                                   .where(db.AccountRow.player_id.in_(others))).all()) if others else {}
        return [(b if a == pid else a, st, "out" if a == pid else "in", names.get(b if a == pid else a))
                for a, b, st in rows]

    async def listing(self, pid: str) -> dict[str, Any]:
        self._registered(pid)
        rows = await asyncio.to_thread(self._rows, pid)
        where = self.presence.where(o for o, st, _, _ in rows if st == "accepted")
        friends, incoming, outgoing = [], [], []
        for other, st, direction, username in rows:
            d = {"player_id": other, "nickname": self._nick(other), "username": username}
            if st == "accepted":
                friends.append({**d, **where[other]})
            elif direction == "in":
                incoming.append(d)
            else:
                outgoing.append(d)
        friends.sort(key=lambda f: (not f["online"], f["nickname"]))
        return {"friends": friends, "incoming": incoming, "outgoing": outgoing,
                "max_friends": self.max_friends}

    # ------------------------------------------------------------- invites
    def _are_friends(self, a: str, b: str) -> bool:
        with Session(self.hub.store.engine) as s:
            return s.execute(select(FriendRow.id).where(FriendRow.status == "accepted", or_(
                (FriendRow.from_id == a) & (FriendRow.to_id == b),
                (FriendRow.from_id == b) & (FriendRow.to_id == a)))).first() is not None

    async def invite(self, pid: str, target: object, room: object = None) -> dict[str, Any]:
        """Invite friend ``target`` to ``room`` (default: the room ``pid`` is in)."""
        self._registered(pid)
        who = await asyncio.to_thread(self._find, target)
        if who.pid == pid:
            raise FriendError("you cannot invite yourself")
        if not await asyncio.to_thread(self._are_friends, pid, who.pid):
            raise FriendError("you can only invite friends", 403, code="invite_friends_only")
        here = self.presence.where([pid], fresh=True)[pid]["room"]
        code = room.strip().upper() if isinstance(room, str) and room.strip() else here
        if code is None:
            raise FriendError("join or create a room first: invites are to the room you are in", 409)
        if here != code[:8]:  # before anything about that room: no oracle for codes
            raise FriendError("you are not in that room: invites are to the room you are in", 409)
        r = self.hub.rooms.get(code[:8])
        if r is None or r.status not in ("lobby", "playing"):
            raise FriendError(f"no open room {code[:8]!r}", 404)
        if not self.invite_rate.allow(pid):
            wait = self.invite_rate.retry_after(pid)
            raise FriendError(f"at most {INVITES_PER_MINUTE} invites per minute; wait {wait:.0f} s", 429, wait,
                              code="invites_rate", params={"max": INVITES_PER_MINUTE, "wait": round(wait)})
        now = datetime.now(UTC)
        ends = now + timedelta(seconds=self.invite_ttl)

        def write(s: Session) -> int:
            old = s.scalars(select(InviteRow).where(InviteRow.from_id == pid, InviteRow.to_id == who.pid,
                                                    InviteRow.room_code == r.code,
                                                    InviteRow.status == "open")).first()
            if old is not None:  # invited again: the same invite, open longer
                old.expires_at = ends
                return old.id
            row = InviteRow(from_id=pid, to_id=who.pid, room_code=r.code, status="open",
                            created_at=now, expires_at=ends)
            s.add(row)
            s.flush()
            return row.id

        iid = await self._write(write)
        inv = {"id": iid, "from": {"player_id": pid, "nickname": self._nick(pid)}, "room": r.code,
               "status": r.status, "expires_in": int(self.invite_ttl)}
        pushed = self.presence.push(who.pid, proto.invite(inv))
        return {"ok": True, "invite": inv, "delivered": pushed > 0}

    def _open_invites(self, pid: str) -> list[dict[str, Any]]:
        now = datetime.now(UTC)
        with Session(self.hub.store.engine) as s:
            rows = s.scalars(select(InviteRow).where(InviteRow.to_id == pid, InviteRow.status == "open")
                             .order_by(InviteRow.id.desc()).limit(50)).all()
            out = []
            for r in rows:
                left = (_aware(r.expires_at) - now).total_seconds()
                if left > 0:
                    out.append({"id": r.id, "from": {"player_id": r.from_id, "nickname": self._nick(r.from_id)},
                                "room": r.room_code, "expires_in": int(left)})
        return out

    async def invites(self, pid: str) -> dict[str, Any]:
        return {"invites": await asyncio.to_thread(self._open_invites, pid)}

    async def reply(self, pid: str, invite_id: int, accept: bool) -> dict[str, Any]:
        now = datetime.now(UTC)

        def write(s: Session) -> tuple[int, str] | dict[str, Any]:
            r = s.get(InviteRow, invite_id)
            if r is None or r.to_id != pid:
                return (404, "no such invite")
            if r.status != "open":
                return (409, f"invite already {r.status}")
            if _aware(r.expires_at) <= now:
                return (410, "the invite has expired")
            r.status = "accepted" if accept else "declined"
            return {"room": r.room_code, "from": r.from_id}

        out = await self._write(write)
        if isinstance(out, tuple):
            raise FriendError(out[1], out[0])
        self.presence.push(out["from"], proto.invite_reply(invite_id, {"player_id": pid,
                                                                   "nickname": self._nick(pid)}, accept))
        return {"ok": True, "room": out["room"] if accept else None,
                "status": "accepted" if accept else "declined"}
