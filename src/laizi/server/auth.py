"""Guest identities: no passwords, a signed token (itsdangerous) names the player across reconnects.

A token is ``{pid, g}`` signed (HMAC-SHA256) with the server's secret and a timestamp:

- it **expires** :data:`TOKEN_TTL_SECONDS` after it was issued (every ``hello`` and every
  ``POST /api/guest`` with a valid token hands out a fresh one, so a player who comes back
  within the period keeps the identity; a token that leaked stops working after it);
- it can be **rotated** (``POST /api/token/rotate``): the player's generation ``g`` goes up
  by one and every token of an older generation is refused from then on (no grace period;
  connections already identified keep their identity until they close). The generations
  live in the database (``laizi_meta`` rows ``tg:<player id>``) so a restart keeps them.
"""

from __future__ import annotations

import hashlib
import secrets
import unicodedata
from typing import Any

from itsdangerous import BadSignature, SignatureExpired, URLSafeTimedSerializer

__all__ = [
    "TOKEN_MAX_CHARS", "TOKEN_TTL_SECONDS", "GuestAuth", "clean_nickname", "new_player_id",
]

NICK_MAX = 16
TOKEN_TTL_SECONDS = 30 * 24 * 3600  # a guest token is valid for 30 days after it was issued
TOKEN_MAX_CHARS = 512
GEN_KEY_PREFIX = "tg:"  # laizi_meta key of a player's token generation


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

    # ------------------------------------------------------------- tokens
    def issue(self, player_id: str) -> str:
        """A fresh token of the player's current generation."""
        return str(self._s.dumps({"pid": player_id, "g": self._gen.get(player_id, 0)}))

    def check(self, token: object) -> str | None:
        """The player id a token names, or None when it is missing, forged, malformed,
        expired or of a rotated-out generation."""
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
        pid, gen = data.get("pid"), data.get("g")
        if not isinstance(pid, str) or not isinstance(gen, int) or isinstance(gen, bool):
            return None
        if gen != self._gen.get(pid, 0):
            return None
        return pid

    def rotate(self, player_id: str) -> tuple[str, int]:
        """Revoke every token of ``player_id``; return a new token and the new generation
        (the caller stores the generation with :meth:`gen_row`)."""
        gen = self._gen.get(player_id, 0) + 1
        self._gen[player_id] = gen
        return self.issue(player_id), gen

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
