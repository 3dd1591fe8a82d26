"""Guest identities: no passwords, a signed token (itsdangerous) names the player across reconnects."""

from __future__ import annotations

import secrets
import unicodedata

from itsdangerous import BadSignature, URLSafeSerializer

__all__ = ["GuestAuth", "clean_nickname", "new_player_id"]

NICK_MAX = 16


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

    def __init__(self, secret: str) -> None:
        self._s = URLSafeSerializer(secret, salt="laizi-guest")

    def issue(self, player_id: str) -> str:
        return self._s.dumps({"pid": player_id})

    def check(self, token: object) -> str | None:
        """The player id a token names, or None when it is missing, forged or malformed."""
        if not isinstance(token, str) or not token or len(token) > 512:
            return None
        try:
            data = self._s.loads(token)
        except BadSignature:
            return None
        pid = data.get("pid") if isinstance(data, dict) else None
        return pid if isinstance(pid, str) else None
