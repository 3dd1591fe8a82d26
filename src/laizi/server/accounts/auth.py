"""Guest identities: no passwords, a signed token (itsdangerous) names the player across reconnects.

A token is ``{pid, g}`` signed (HMAC-SHA256) with the server's secret and a timestamp:

- it **expires** :data:`TOKEN_TTL_SECONDS` after it was issued (every ``hello`` and every
  ``POST /api/guest`` with a valid token hands out a fresh one, so a player who comes back
  within the period keeps the identity; a token that leaked stops working after it);
- it can be **rotated** (``POST /api/token/rotate``): the player's generation ``g`` goes up
  by one and every token of an older generation is refused from then on (no grace period;
  connections already identified keep their identity until they close). The generations
  live in the database (``laizi_meta`` rows ``tg:<player id>``) so a restart keeps them.

A registered player's token also names a **session** ``s`` (:mod:`laizi.server.accounts.accounts`):
such a token is only valid while its session is — a session ends when it expires
(:data:`SESSION_TTL_SECONDS` after the login), when its holder logs out, and for every
session of the player at once on "log out everywhere" or a password change. A token
without a session never names a registered player (a guest who registers keeps its
player id, and its old guest tokens stop working).
"""

from __future__ import annotations

import hashlib
import secrets
import time
import unicodedata
from collections.abc import Callable
from typing import Any

from itsdangerous import BadSignature, SignatureExpired, URLSafeTimedSerializer

__all__ = [
    "SESSION_TTL_SECONDS", "TOKEN_MAX_CHARS", "TOKEN_TTL_SECONDS", "GuestAuth", "clean_nickname",
    "new_player_id", "session_hash",
]

NICK_MAX = 16
TOKEN_TTL_SECONDS = 30 * 24 * 3600  # a guest token is valid for 30 days after it was issued
TOKEN_MAX_CHARS = 512
GEN_KEY_PREFIX = "tg:"  # laizi_meta key of a player's token generation
SESSION_TTL_SECONDS = 14 * 24 * 3600  # a login session ends 14 days after the login
SESSION_SWEEP_AT = 10_000  # live sessions in memory before the expired ones are dropped


def session_hash(session_id: str) -> str:
    """What the database keeps of a session id (the id itself is only in the token)."""
    return hashlib.sha256(session_id.encode()).hexdigest()


def new_player_id() -> str:
    return "p_" + secrets.token_hex(8)


def clean_nickname(raw: object) -> str:
    """A displayable nickname: trimmed, control characters removed, 1-16 characters.

    Raises ValueError with a message for the client when nothing usable remains.
    """
    if not isinstance(raw, str):
        raise ValueError("nickname must be text")
    text = "".join(ch for ch in raw if unicodedata.category(ch)[0] != "C").strip()
    text = " ".join(text.split())
    if not text:
        raise ValueError("nickname is empty")
    if len(text) > NICK_MAX:
        raise ValueError(f"nickname is longer than {NICK_MAX} characters")
    return text


class GuestAuth:
    """Signs and checks guest tokens. The secret is stored in the database so tokens survive restarts."""

    def __init__(self, secret: str, ttl: int = TOKEN_TTL_SECONDS) -> None:
        self._s = URLSafeTimedSerializer(secret, salt="laizi-guest-v2",
                                         signer_kwargs={"digest_method": hashlib.sha256})
        self.ttl = ttl
        self._gen: dict[str, int] = {}  # player id -> current token generation (absent: 0)
        self._sessions: dict[str, tuple[str, float]] = {}  # session hash -> (player id, ends at)
        self._sweep_at = SESSION_SWEEP_AT
        self.accounts: set[str] = set()  # player ids with an account (their tokens need a session)
        # Told of each session opened / ended and generation raised (a cluster node passes
        # them on to the other nodes: laizi.server.cluster.authsync).
        self.on_change: Callable[[str, Any], None] | None = None

    # ------------------------------------------------------------- tokens
    def issue(self, player_id: str, session: str | None = None) -> str:
        """A fresh token of the player's current generation (of ``session``, if given)."""
        data: dict[str, Any] = {"pid": player_id, "g": self._gen.get(player_id, 0)}
        if session is not None:
            data["s"] = session
        return str(self._s.dumps(data))

    def reissue(self, token: object, player_id: str) -> str:
        """A fresh token for the holder of ``token`` (same player, same session)."""
        return self.issue(player_id, self.session_of(token))

    def _signed(self, token: object) -> tuple[str, int, str | None] | None:
        """``(player id, generation, session id)`` of a token this server signed, unexpired
        and well-formed — whatever this node knows of sessions and generations."""
        if not isinstance(token, str) or not token or len(token) > TOKEN_MAX_CHARS:
            return None
        try:
            data: Any = self._s.loads(token, max_age=self.ttl)
        except (BadSignature, SignatureExpired):
            return None
        except Exception:  # noqa: BLE001 - a malformed payload is just a bad token
            return None
        if not isinstance(data, dict):
            return None
        pid, gen, sid = data.get("pid"), data.get("g"), data.get("s")
        if not isinstance(pid, str) or not isinstance(gen, int) or isinstance(gen, bool):
            return None
        if sid is not None and not isinstance(sid, str):
            return None
        return pid, gen, sid

    def _live(self, pid: str, gen: int, sid: str | None) -> bool:
        """Whether a signed token's generation is current and its session (if any) open."""
        if gen != self._gen.get(pid, 0):
            return False
        if sid is not None or pid in self.accounts:
            live = self._sessions.get(session_hash(sid)) if sid else None
            if live is None or live[0] != pid or live[1] <= time.time():
                return False
        return True

    def _payload(self, token: object) -> tuple[str, str | None] | None:
        signed = self._signed(token)
        if signed is None or not self._live(*signed):
            return None
        return signed[0], signed[2]

    def stale(self, token: object) -> bool:
        """A token this server signed, unexpired and well-formed, that :meth:`check` refuses
        only for what this node knows of sessions and generations — what a cluster node may
        not have heard yet (a login or a rotation on another node just now): worth a sync.
        A forged, expired or malformed token is not (it never triggers a database read)."""
        signed = self._signed(token)
        return signed is not None and not self._live(*signed)

    def check(self, token: object) -> str | None:
        """The player id a token names, or None when it is missing, forged, malformed,
        expired, of a rotated-out generation, or of a session that ended."""
        p = self._payload(token)
        return None if p is None else p[0]

    def credential(self, token: object) -> tuple[str, int, str | None] | None:
        """What a connection identified by ``token`` holds on to: ``(player id, generation,
        session hash)`` — checked again by :meth:`still_valid` (cheaply, while it is open)."""
        p = self._payload(token)
        if p is None:
            return None
        pid, sid = p
        return pid, self._gen.get(pid, 0), (session_hash(sid) if sid else None)

    def still_valid(self, cred: tuple[str, int, str | None]) -> bool:
        """False once the token behind ``cred`` no longer would be: its session ended (log
        out, log out everywhere, a password change — on any node), its generation was
        rotated out, or a guest's token after the guest became an account."""
        pid, gen, h = cred
        if gen != self._gen.get(pid, 0):
            return False
        if h is None:
            return pid not in self.accounts
        live = self._sessions.get(h)
        return live is not None and live[0] == pid and live[1] > time.time()

    def session_of(self, token: object) -> str | None:
        """The session id of a valid token (None: a guest's token, or not valid)."""
        p = self._payload(token)
        return None if p is None else p[1]

    # ------------------------------------------------------------- sessions
    def open_session(self, player_id: str, ttl: float = SESSION_TTL_SECONDS) -> tuple[str, float]:
        """A new session of ``player_id``: its id and when it ends (epoch seconds)."""
        sid = secrets.token_urlsafe(18)
        now = time.time()
        if len(self._sessions) >= self._sweep_at:  # forget expired sessions (bounded memory)
            self._sessions = {h: v for h, v in self._sessions.items() if v[1] > now}
            self._sweep_at = max(SESSION_SWEEP_AT, 2 * len(self._sessions))
        ends = now + ttl
        self._sessions[session_hash(sid)] = (player_id, ends)
        if self.on_change is not None:
            self.on_change("session", [session_hash(sid), player_id, ends])
        return sid, ends

    def end_session(self, session_id: str) -> None:
        self._sessions.pop(session_hash(session_id), None)
        if self.on_change is not None:
            self.on_change("ended", [session_hash(session_id)])

    def end_session_hash(self, h: str) -> None:
        """End the session of hash ``h`` (told to the other nodes like :meth:`end_session`)."""
        self._sessions.pop(h, None)
        if self.on_change is not None:
            self.on_change("ended", [h])

    def add_account(self, player_id: str) -> None:
        """``player_id`` became an account (its guest tokens are dead: they carry no
        session); told to the other nodes like a session."""
        self.accounts.add(player_id)
        if self.on_change is not None:
            self.on_change("account", [player_id])

    def end_sessions(self, player_id: str, keep: str | None = None) -> list[str]:
        """End every session of ``player_id`` (but ``keep``); the hashes ended."""
        keep_h = session_hash(keep) if keep else None
        gone = [h for h, (pid, _) in self._sessions.items() if pid == player_id and h != keep_h]
        for h in gone:
            del self._sessions[h]
        if self.on_change is not None and gone:
            self.on_change("ended", gone)
        return gone

    def sessions_of(self, player_id: str) -> int:
        now = time.time()
        return sum(1 for pid, ends in self._sessions.values() if pid == player_id and ends > now)

    def forget_sessions(self, hashes: list[str]) -> None:
        """End the sessions of these hashes (revoked elsewhere: another node of a cluster)."""
        for h in hashes:
            self._sessions.pop(h, None)

    def load_sessions(self, rows: list[tuple[str, str, float]]) -> None:
        """Restore live sessions from ``(hash, player id, ends at)`` rows."""
        now = time.time()
        for h, pid, ends in rows:
            if ends > now:
                self._sessions[h] = (pid, ends)

    def rotate(self, player_id: str, session: str | None = None) -> tuple[str, int]:
        """Revoke every token of ``player_id``; return a new token (of ``session``, for a
        registered player) and the new generation (the caller stores it)."""
        gen = self._gen.get(player_id, 0) + 1
        self._gen[player_id] = gen
        if self.on_change is not None:
            self.on_change("generation", [player_id, gen])
        return self.issue(player_id, session), gen

    # ------------------------------------------------------------- persistence
    @staticmethod
    def gen_key(player_id: str) -> str:
        return GEN_KEY_PREFIX + player_id

    def load_generations(self, rows: list[tuple[str, str]]) -> None:
        """Restore generations from ``(key, value)`` meta rows (other keys are ignored)."""
        for key, value in rows:
            if key.startswith(GEN_KEY_PREFIX) and value.isdigit():
                pid = key[len(GEN_KEY_PREFIX):]
                self._gen[pid] = max(self._gen.get(pid, 0), int(value))
