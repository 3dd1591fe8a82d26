"""The same-network warning (issue 26): before a table whose settings ask for it
(``ip_warning``; a club can require it for its tables) starts, the seated players'
client addresses are compared — the same address, or the same network (an IPv4 /24, an
IPv6 /64) — and the host is warned (which seats, never the addresses) and must start again
to play anyway.

A client's address is the connection's peer as the ASGI server gives it: behind a proxy,
uvicorn takes it from ``X-Forwarded-For`` only when the proxy is listed
(``laizi serve --forwarded-allow-ips`` or ``FORWARDED_ALLOW_IPS``; default none), which the
shipped deploy/haproxy.cfg sends (``option forwardfor``). An address listed in ``LAIZI_PROXY_ADDRS`` (comma-separated: the proxies' own
addresses) is a proxy's, not the player's: such a seat is reported as unknown and never
compared — otherwise every player behind the proxy would look alike.
"""

from __future__ import annotations

import ipaddress
import os
from itertools import combinations

__all__ = ["SUBNET_V4", "SUBNET_V6", "network_pairs", "proxy_addrs"]

SUBNET_V4 = 24   # two IPv4 addresses in one /24 are "the same network"
SUBNET_V6 = 64   # ... two IPv6 addresses in one /64


def proxy_addrs() -> frozenset[str]:
    return frozenset(a.strip() for a in os.environ.get("LAIZI_PROXY_ADDRS", "").split(",") if a.strip())


def _net(addr: str) -> tuple[str, str] | None:
    """(the address, its network) in normal form; None if it is no IP address."""
    try:
        ip = ipaddress.ip_address(addr.strip())
    except ValueError:
        return None
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    bits = SUBNET_V4 if ip.version == 4 else SUBNET_V6
    return str(ip), str(ipaddress.ip_network(f"{ip}/{bits}", strict=False))


def network_pairs(addrs: dict[int, list[str]], proxies: frozenset[str] = frozenset()
                  ) -> tuple[list[dict[str, object]], list[int]]:
    """The seat pairs sharing an address (``same: "address"``) or a network (``"network"``),
    and the seats whose address is unknown (no live connection, a proxy's, not an IP).
    ``addrs``: each seated human's connection addresses (a player may have several)."""
    known: dict[int, list[tuple[str, str]]] = {}
    unknown: list[int] = []
    for seat, peers in sorted(addrs.items()):
        nets = [n for a in peers if a not in proxies and (n := _net(a)) is not None]
        if nets:
            known[seat] = nets
        else:
            unknown.append(seat)
    pairs: list[dict[str, object]] = []
    for a, b in combinations(sorted(known), 2):
        if {x for x, _ in known[a]} & {x for x, _ in known[b]}:
            pairs.append({"seats": [a, b], "same": "address"})
        elif {n for _, n in known[a]} & {n for _, n in known[b]}:
            pairs.append({"seats": [a, b], "same": "network"})
    return pairs, unknown
