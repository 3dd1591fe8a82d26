"""Accounts: register, log in, log out (here or everywhere), change the password.

- Passwords are hashed with ``pwdlib`` (argon2id, its recommended parameters) in a worker
  thread; a password is never stored, logged or returned. Limits: :data:`PASSWORD_MIN` to
  :data:`PASSWORD_MAX` characters, not one repeated character, not the username, not a
  commonly used password.
- Usernames: :data:`USERNAME_MIN` to :data:`USERNAME_MAX` letters, digits, ``_ - .``;
  unique regardless of case and width (NFKC + casefold).
- A login opens a session (:mod:`laizi.server.accounts.auth`): the token it returns is the same kind
  a guest has — the WebSocket ``hello`` takes it — and is valid until the session ends
  (expiry, log out, log out everywhere, password change).
- A guest who registers with its guest token keeps its player id, so its matches, hands and
  rating stay its own. Guests still play without registering.
- Login attempts are limited per client address and per username (:data:`LOGINS_PER_IP`,
  :data:`LOGINS_PER_USERNAME`), registrations per address (:data:`REGISTERS_PER_IP`);
  beyond them: HTTP 429 with ``Retry-After``.
"""

from __future__ import annotations

import asyncio
import unicodedata
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from pwdlib import PasswordHash
from sqlalchemy import delete, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from laizi.server.accounts.auth import clean_nickname, new_player_id, session_hash
from laizi.server.common.errors import ApiError
from laizi.server.guard.limits import Limit, Limits
from laizi.server.persistence import db

if TYPE_CHECKING:
    from laizi.server.accounts.site import Site

__all__ = [
    "LOGINS_PER_IP", "LOGINS_PER_USERNAME", "PASSWORD_MAX", "PASSWORD_MIN", "REGISTERS_PER_IP",
    "USERNAME_MAX", "USERNAME_MIN", "AccountError", "Accounts", "check_password", "clean_username",
]

USERNAME_MIN = 3
USERNAME_MAX = 20
PASSWORD_MIN = 8
PASSWORD_MAX = 128
LOGINS_PER_IP = Limit(20, 300.0)        # login attempts from one address per 5 minutes
LOGINS_PER_USERNAME = Limit(5, 300.0)   # ... at one username (right or wrong password)
REGISTERS_PER_IP = Limit(10, 3600.0)    # accounts created from one address per hour
PASSWORD_CHANGES_PER_PLAYER = Limit(5, 300.0)
HASHES_AT_ONCE = 2  # argon2 hashes computed at the same time (each takes its cores for a fraction of a second: argon2id, 64 MiB, t=3, p=4)

COMMON_PASSWORDS = frozenset({
    "password", "password1", "password123", "12345678", "123456789", "1234567890", "87654321",
    "qwertyui", "qwertyuiop", "asdfghjk", "iloveyou", "abcdefgh", "abcd1234", "1qaz2wsx",
    "11223344", "00000000", "letmein1", "welcome1", "sunshine", "football", "baseball",
    "woaini520", "woaini1314", "a1234567", "aa123456", "qq123456", "mahjong1", "majiang1",
})
_USERNAME_EXTRA = set("_-.")


class AccountError(ApiError):
    """A request refused: ``message`` for the client, an HTTP ``status``."""


def clean_username(raw: object) -> tuple[str, str]:
    """The username as shown and its uniqueness key; AccountError when it breaks a rule."""
    if not isinstance(raw, str):
        raise AccountError("username must be text")
    name = unicodedata.normalize("NFKC", raw).strip()
    if not USERNAME_MIN <= len(name) <= USERNAME_MAX:
        raise AccountError(f"username must be {USERNAME_MIN} to {USERNAME_MAX} characters", code="username_length", params={"min": USERNAME_MIN, "max": USERNAME_MAX})
    for ch in name:
        if ch not in _USERNAME_EXTRA and unicodedata.category(ch)[0] not in "LN":
            raise AccountError("username may only hold letters, digits and _ - .", code="username_chars")
    return name, name.casefold()


def check_password(password: object, username: str = "") -> str:
    """The password if it meets the rules; AccountError (saying which) if not."""
    if not isinstance(password, str):
        raise AccountError("password must be text")
    if len(password) < PASSWORD_MIN:
        raise AccountError(f"password too short: at least {PASSWORD_MIN} characters", code="password_short", params={"min": PASSWORD_MIN})
    if len(password) > PASSWORD_MAX:
        raise AccountError(f"password too long: at most {PASSWORD_MAX} characters", code="password_long", params={"max": PASSWORD_MAX})
    if len(set(password)) == 1:
        raise AccountError("password too weak: one character repeated", code="password_repeated")
    folded = password.casefold()
    if folded in COMMON_PASSWORDS:
        raise AccountError("password too weak: it is one of the most common passwords", code="password_common")
    if username and folded == username.casefold():
        raise AccountError("password too weak: it is the username", code="password_is_username")
    return password


async def _hit(limits: Limits, limit: Limit, scope: str, key: str, what: str) -> None:
    wait = await limits.hit(limit, scope, key)  # the cluster's budget when there is a Redis
    if wait is not None:
        raise AccountError(f"too many {what}; wait {wait:.0f} s", 429, retry_after=wait,
                           code="rate_limited", params={"wait": round(wait)})


class Accounts:
    """The account operations of one server (its hub: store, guest auth, players)."""

    def __init__(self, hub: Site) -> None:
        self.hub = hub
        self.hasher = PasswordHash.recommended()
        self._dummy: str | None = None  # hashed once: an unknown username costs a verify too
        self._slots = asyncio.Semaphore(HASHES_AT_ONCE)  # the game's threads keep a core

    # ------------------------------------------------------------- start-up
    def load(self) -> None:
        """Registered players and live sessions from the database (at start, in a thread)."""
        now = datetime.now(UTC)
        with Session(self.hub.store.engine) as s:
            # Sessions past their end are of no use to anyone: the table does not grow forever.
            s.execute(delete(db.SessionRow).where(db.SessionRow.expires_at < now))
            s.commit()
            self.hub.auth.accounts.update(s.scalars(select(db.AccountRow.player_id)))
            rows = s.execute(select(db.SessionRow.id_hash, db.SessionRow.player_id,
                                    db.SessionRow.expires_at)
                             .where(db.SessionRow.revoked_at.is_(None))).all()
        live = []
        for h, pid, ends in rows:
            if ends.tzinfo is None:  # SQLite gives naive datetimes back
                ends = ends.replace(tzinfo=UTC)
            if ends > now:
                live.append((h, pid, ends.timestamp()))
        self.hub.auth.load_sessions(live)

    # ------------------------------------------------------------- helpers
    def _exempt(self, peer: str) -> bool:
        return peer in self.hub.limits.exempt

    def _session_out(self, pid: str, username: str) -> tuple[dict[str, Any], db.SessionRow]:
        sid, ends = self.hub.auth.open_session(pid)
        row = db.SessionRow(id_hash=session_hash(sid), player_id=pid,
                            expires_at=datetime.fromtimestamp(ends, UTC))
        out = {"token": self.hub.auth.issue(pid, sid), "player_id": pid, "username": username,
               "nickname": self.hub.players.get(pid, username),
               "expires_in": int(ends - datetime.now(UTC).timestamp())}
        return out, row

    async def _hash(self, password: str) -> str:
        async with self._slots:
            return await asyncio.to_thread(self.hasher.hash, password)

    async def _check(self, password: str, hashed: str) -> bool:
        async with self._slots:
            return bool(await asyncio.to_thread(self.hasher.verify, password, hashed))

    async def _verify(self, password: str, hashed: str | None) -> bool:
        if hashed is None:
            if self._dummy is None:
                self._dummy = await self._hash("no such user: equal time")
            await self._check(password, self._dummy)
            return False
        try:
            return await self._check(password, hashed)
        except Exception:  # noqa: BLE001 - an unreadable stored hash never logs anyone in
            return False

    def _account(self, key: str | None = None, pid: str | None = None) -> tuple[str, str, str] | None:
        """(player id, username, hash) by username key or by player id."""
        with Session(self.hub.store.engine) as s:
            q = select(db.AccountRow.player_id, db.AccountRow.username, db.AccountRow.password_hash)
            q = q.where(db.AccountRow.username_key == key) if key is not None else \
                q.where(db.AccountRow.player_id == pid)
            row = s.execute(q).first()
        return None if row is None else (row[0], row[1], row[2])

    async def _holder(self, token: object) -> tuple[str, str]:
        """(player id, session id) of a registered player's valid token; else 401."""
        pid = await self.hub.identify(token)
        sid = self.hub.auth.session_of(token)
        if pid is None or sid is None:
            raise AccountError("not logged in (unknown, expired or ended session)", 401, code="not_logged_in")
        return pid, sid

    # ------------------------------------------------------------- operations
    async def register(self, username: object, password: object, *, token: object = None,
                       nickname: object = None, peer: str = "") -> dict[str, Any]:
        name, key = clean_username(username)
        pw = check_password(password, name)
        nick = clean_nickname(nickname) if nickname not in (None, "") else None
        pid: str | None = None
        if token not in (None, ""):
            pid = await self.hub.identify(token)
            if pid is None or not await self.hub.known_player(pid):  # (any node's guest)
                raise AccountError("the guest token is unknown or expired (register without it "
                                   "to start a new player)", 401, code="guest_token_stale")
            if pid in self.hub.auth.accounts:
                raise AccountError("this player is registered already; log in instead", 409, code="registered_already")
        if not self._exempt(peer):
            await _hit(self.hub.limits, REGISTERS_PER_IP, "register:ip", peer,
                       "registrations from this address")
        if await asyncio.to_thread(self._account, key) is not None:
            raise AccountError(f"username {name!r} is taken", 409, code="username_taken", params={"name": name})
        hashed = await self._hash(pw)
        new = pid is None
        pid = pid or new_player_id()
        nick = nick or (None if not new else name[:16])
        out, srow = self._session_out(pid, name)

        def write(s: Session) -> None:
            if new:
                s.add(db.PlayerRow(id=pid, nickname=nick or name[:16]))
            elif nick:
                p = s.get(db.PlayerRow, pid)
                if p is not None:
                    p.nickname = nick
            s.add(db.AccountRow(player_id=pid, username=name, username_key=key,
                                password_hash=hashed))
            s.flush()
            s.add(srow)

        try:
            await self.hub.store.writer.write(write)
        except IntegrityError:
            # Only this attempt's session ends: the same guest registering twice at once must
            # not end the session of the attempt that won (it got a token that has to work).
            self.hub.auth.end_session_hash(srow.id_hash)
            if await asyncio.to_thread(self._account, key) is None:
                raise AccountError("this player is registered already; log in instead", 409, code="registered_already") from None
            raise AccountError(f"username {name!r} is taken", 409, code="username_taken", params={"name": name}) from None
        if nick:
            self.hub.players[pid] = nick
        self.hub.auth.add_account(pid)
        if not new:
            await self._announced()  # the guest token is dead on every node before we answer
        out["nickname"] = self.hub.players.get(pid, name)
        return {**out, "converted": not new}

    async def _announced(self) -> None:
        """In a cluster: wait until every live node applied the identity changes announced
        so far (sessions ended, a guest become an account), at most a second."""
        await self.hub.directory.announced()

    async def login(self, username: object, password: object, *, peer: str = "") -> dict[str, Any]:
        if not isinstance(username, str) or not isinstance(password, str):
            raise AccountError("username and password must be text")
        if len(password) > PASSWORD_MAX:
            raise AccountError(f"password too long: at most {PASSWORD_MAX} characters", code="password_long", params={"max": PASSWORD_MAX})
        key = unicodedata.normalize("NFKC", username).strip().casefold()[:USERNAME_MAX + 8]
        if not self._exempt(peer):
            await _hit(self.hub.limits, LOGINS_PER_IP, "login:ip", peer,
                       "login attempts from this address")
        await _hit(self.hub.limits, LOGINS_PER_USERNAME, "login:name", key,
                   "login attempts for this username")
        acc = await asyncio.to_thread(self._account, key)
        ok = await self._verify(password, acc[2] if acc else None)
        if acc is None or not ok:
            raise AccountError("wrong username or password", 401, code="wrong_login")
        pid, name, _ = acc
        if pid not in self.hub.players:  # a player row always exists; be safe after a restore
            self.hub.players[pid] = name[:16]
        self.hub.auth.accounts.add(pid)
        out, srow = self._session_out(pid, name)

        def write(s: Session) -> None:
            s.add(srow)

        await self.hub.store.writer.write(write)
        return out

    async def _revoke(self, hashes: list[str]) -> None:
        if not hashes:
            return
        now = datetime.now(UTC)

        def write(s: Session) -> None:
            s.execute(update(db.SessionRow).where(db.SessionRow.id_hash.in_(hashes))
                      .values(revoked_at=now))

        await self.hub.store.writer.write(write)

    async def logout(self, token: object) -> dict[str, Any]:
        pid, sid = await self._holder(token)
        self.hub.auth.end_session(sid)
        await self._revoke([session_hash(sid)])
        await self._announced()
        return {"ok": True, "player_id": pid}

    async def logout_all(self, token: object) -> dict[str, Any]:
        pid, _sid = await self._holder(token)
        gone = self.hub.auth.end_sessions(pid)
        await self._revoke(gone)
        await self._announced()
        return {"ok": True, "player_id": pid, "sessions_ended": len(gone)}

    async def change_password(self, token: object, old: object, new: object) -> dict[str, Any]:
        """Check ``old``, store ``new``; every other session ends, this one gets a new token."""
        pid, sid = await self._holder(token)
        await _hit(self.hub.limits, PASSWORD_CHANGES_PER_PLAYER, "password:player", pid,
                   "password changes")
        if not isinstance(old, str) or len(old) > PASSWORD_MAX:
            raise AccountError("current password must be text")
        acc = await asyncio.to_thread(self._account, None, pid)
        if acc is None:
            raise AccountError("not logged in (no such account)", 401, code="not_logged_in")
        pw = check_password(new, acc[1])
        if not await self._verify(old, acc[2]):
            raise AccountError("wrong current password", 403, code="wrong_password")
        hashed = await self._hash(pw)
        gone = self.hub.auth.end_sessions(pid, keep=sid)
        now = datetime.now(UTC)

        def write(s: Session) -> None:
            s.execute(update(db.AccountRow).where(db.AccountRow.player_id == pid)
                      .values(password_hash=hashed, password_changed_at=now))
            if gone:
                s.execute(update(db.SessionRow).where(db.SessionRow.id_hash.in_(gone))
                          .values(revoked_at=now))

        await self.hub.store.writer.write(write)
        await self._announced()
        return {"ok": True, "player_id": pid, "token": self.hub.auth.issue(pid, sid),
                "sessions_ended": len(gone)}

    async def me(self, token: object) -> dict[str, Any]:
        """Who a token names: a registered player (username, sessions) or a guest."""
        pid = await self.hub.identify(token)
        if pid is None or not await self.hub.known_player(pid):
            raise AccountError("unknown, expired or ended token", 401, code="token_refused")
        acc = await asyncio.to_thread(self._account, None, pid)
        return {"player_id": pid, "nickname": self.hub.players.get(pid, ""),
                "registered": acc is not None, "username": acc[1] if acc else None,
                "sessions": self.hub.auth.sessions_of(pid) if acc else 0}
