"""Rate limits on what costs the server memory or lets a stranger guess: new guests, new
rooms and joins, per client address and per identity (sliding windows, :class:`RateLimiter`).

Addresses listed in ``ServerConfig.rate_exempt`` or ``LAIZI_RATE_EXEMPT`` (comma-separated;
e.g. a load test on loopback) are not limited by address.
"""

from __future__ import annotations

from dataclasses import dataclass

from laizi.server.chat import RateLimiter
from laizi.server.protocol import ProtocolError

__all__ = ["GUESTS_PER_IP", "JOINS_PER_IP", "JOINS_PER_PLAYER", "ROOMS_PER_IP", "ROOMS_PER_PLAYER",
           "Limit", "Limits"]


@dataclass(frozen=True)
class Limit:
    count: int
    window: float  # seconds


GUESTS_PER_IP = Limit(30, 60.0)      # new guest identities from one address
ROOMS_PER_IP = Limit(20, 60.0)       # rooms created from one address
ROOMS_PER_PLAYER = Limit(5, 60.0)    # ... by one player
JOINS_PER_IP = Limit(120, 60.0)      # join attempts (right or wrong codes) from one address
JOINS_PER_PLAYER = Limit(30, 60.0)   # ... by one player

# action -> (error code, noun, limit per address, limit per player)
_RULES: dict[str, tuple[str, str, Limit, Limit | None]] = {
    "guest": ("too_many_guests", "new guests", GUESTS_PER_IP, None),
    "room": ("too_many_rooms", "new rooms", ROOMS_PER_IP, ROOMS_PER_PLAYER),
    "join": ("too_many_joins", "joins", JOINS_PER_IP, JOINS_PER_PLAYER),
}


class Limits:
    def __init__(self, exempt: frozenset[str] = frozenset()) -> None:
        self.exempt = exempt
        self._by_ip = {a: RateLimiter(r[2].count, r[2].window) for a, r in _RULES.items()}
        self._by_player = {a: RateLimiter(r[3].count, r[3].window)
                           for a, r in _RULES.items() if r[3] is not None}

    def check(self, action: str, ip: str, player: str | None = None) -> None:
        """Count one ``action``; raise :class:`ProtocolError` (nothing counted) when the
        address or the player is over its limit."""
        code, noun, ip_limit, player_limit = _RULES[action]
        checks: list[tuple[RateLimiter, str, str]] = []
        if ip not in self.exempt:
            checks.append((self._by_ip[action], ip, f"{ip_limit.count} {noun} per "
                                                    f"{ip_limit.window:g} s from one address"))
        if player is not None and player_limit is not None:
            checks.append((self._by_player[action], player, f"{player_limit.count} {noun} per "
                                                            f"{player_limit.window:g} s per player"))
        for limiter, key, what in checks:
            if not limiter.allow_all((key,)):
                # Undo the ones already counted: a refused attempt counts nowhere.
                for prev, pkey, _ in checks:
                    if prev is limiter:
                        break
                    prev.forget_last(pkey)
                wait = limiter.retry_after(key)
                raise ProtocolError(code, f"at most {what}; wait {wait:.1f} s")
