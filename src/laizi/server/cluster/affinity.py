"""Owner affinity: a room's clients talk to the room's owner; relaying stays the fallback.

Every node may advertise a **direct address** (``host:port``, ``laizi serve --advertise``, or
each worker's own port with ``--workers N --worker-ports FIRST``) in the Redis hash
``laizi:addrs``. When a ``join`` lands on a node that does not own the room, the node
relays it as before (:mod:`laizi.server.cluster.router`) *and* tells the client where the
owner is, before the relayed ``joined``::

    {"type": "owner", "room": "ABCD", "node": "box-w1", "addr": "127.0.0.1:8102"}

(``addr`` only when the owner advertises one; nothing else is ever in the hint). A client
that follows it reconnects there (``hello`` with its token, ``join`` again) and plays on the
owner without any relay; behind a proxy it connects to ``/ws?node=NAME`` instead, which
``deploy/haproxy.cfg`` routes to that node. A client that ignores the hint keeps being
relayed; a stale hint (the owner died, or the room moved meanwhile) lands on a node that
takes the room over or relays again: correctness never depends on affinity.
"""

from __future__ import annotations

import re
import socket
from typing import TYPE_CHECKING, Any

from laizi.server.cluster.lease import PREFIX
from laizi.server.common import protocol as proto

if TYPE_CHECKING:
    from laizi.server.common.connection import Conn

__all__ = ["KEY_ADDRS", "Affinity", "listen", "option_error", "valid_addr", "worker_args"]

KEY_ADDRS = PREFIX + "addrs"  # hash node → its direct address "host:port"
_HOST = r"(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*|\[[0-9A-Fa-f:.]{2,45}\])"
_ADDR = re.compile(rf"{_HOST}:([0-9]{{1,5}})")
_NODE = re.compile(r"[A-Za-z0-9._-]{1,40}")


def valid_addr(s: str) -> bool:
    """``host:port`` with a plain host name, IPv4 or [IPv6] address and a port 1-65535."""
    m = _ADDR.fullmatch(s)
    return m is not None and len(s) <= 300 and 0 < int(m.group(1)) < 65536


class Affinity:
    """This node's direct address in Redis, the other nodes' addresses, and the hints."""

    def __init__(self, redis: Any, node: str, addr: str | None = None) -> None:
        self.r = redis
        self.node = node
        self.addr = addr
        self.addrs: dict[str, str] = {}
        self.stats: dict[str, int] = {"owner_hints": 0}

    async def refresh(self) -> None:
        """Advertise this node's address (again: Redis may have restarted empty) and read
        every node's, in one round trip."""
        pipe = self.r.pipeline(transaction=False)
        if self.addr:
            pipe.hset(KEY_ADDRS, self.node, self.addr)
        pipe.hgetall(KEY_ADDRS)
        raw = (await pipe.execute())[-1]
        addrs = {}
        for k, v in raw.items():
            n = k.decode() if isinstance(k, bytes) else str(k)
            a = v.decode() if isinstance(v, bytes) else str(v)
            if _NODE.fullmatch(n) and valid_addr(a):
                addrs[n] = a
        self.addrs = addrs

    async def leave(self) -> None:
        if self.addr:
            await self.r.hdel(KEY_ADDRS, self.node)

    def hint(self, conn: Conn, code: str, owner: str, live: list[str]) -> None:
        """Tell ``conn`` (joining ``code`` here, relayed) that ``owner`` owns the room."""
        if conn.remote or not _NODE.fullmatch(owner):
            return
        addr = self.addrs.get(owner)
        conn.send(proto.owner(code, owner, addr if addr is not None and owner in live else None))
        self.stats["owner_hints"] += 1


# ----------------------------------------------------------------- serve's options
def option_error(args: Any) -> str | None:
    """Why ``--advertise`` / ``--worker-ports`` cannot run (None: they can)."""
    adv = getattr(args, "advertise", None)
    first = getattr(args, "worker_ports", None)
    if adv is not None and not valid_addr(adv):
        return "--advertise must be HOST:PORT (a host name, IPv4 or [IPv6] address)"
    if adv is not None and args.workers > 1:
        return "--advertise is one node's address; with --workers use --worker-ports"
    if first is not None:
        if args.workers < 2:
            return "--worker-ports needs --workers 2 or more"
        if not 1 <= first <= 65536 - args.workers:
            return f"--worker-ports must be from 1 to {65536 - args.workers}"
        if first <= args.port < first + args.workers:
            return "--worker-ports must not include --port"
    if (adv is not None or first is not None) and args.redis is None:
        return "--advertise and --worker-ports need --redis (a cluster)"
    return None


def worker_args(args: Any, i: int) -> list[str]:
    """Worker ``i``'s own listening port and advertised address (``--worker-ports``)."""
    first = getattr(args, "worker_ports", None)
    if first is None:
        return []
    port = first + i
    host = args.host
    if host in ("0.0.0.0", "::", ""):
        host = socket.getfqdn()
    shown = f"[{host}]" if ":" in host else host
    return ["--direct-port", str(port), "--advertise", f"{shown}:{port}"]


def listen(host: str, port: int) -> socket.socket:
    """A plain listening socket (a worker's own port, beside the shared one)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((host, port))
    sock.listen(2048)
    sock.set_inheritable(True)
    return sock
