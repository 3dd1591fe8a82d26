"""What a hub has of the operations side: its node name, the rate limits and connection
caps (the cluster's when there is a Redis), its metrics, and the /healthz and /metrics pages.

The Redis of the limits is ``ServerConfig.redis_url`` (``laizi serve --redis``), else the
``LAIZI_REDIS`` environment variable; the node's name is ``ServerConfig.node`` if the
configuration has one, else ``LAIZI_NODE``, else ``<host>-<pid>``.
"""

from __future__ import annotations

import contextlib
import os
import socket
from collections import Counter
from collections.abc import Mapping
from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from laizi.server.common.config import ServerConfig
from laizi.server.common.connection import Conn
from laizi.server.common.connset import ConnSet
from laizi.server.guard.conncaps import ConnCaps
from laizi.server.guard.limits import Limits, RateBudget, open_storage
from laizi.server.guard.metrics import CONTENT_TYPE, Metrics

__all__ = ["Ops", "cluster_status", "hub_state", "lease_figures", "node_name", "redis_url_of"]


def redis_url_of(cfg: ServerConfig) -> str | None:
    url = getattr(cfg, "redis_url", None) or os.environ.get("LAIZI_REDIS") or None
    return str(url) if url else None


def node_name(cfg: ServerConfig) -> str:
    name = getattr(cfg, "node", None) or os.environ.get("LAIZI_NODE")
    return str(name) if name else f"{socket.gethostname()}-{os.getpid()}"


class Ops:
    """One per hub (``hub``: a :class:`laizi.server.tables.hub.Hub`, read for its rooms,
    connections, stats and store at scrape time)."""

    def __init__(self, cfg: ServerConfig, hub: Any) -> None:
        self.hub = hub
        self._node = node_name(cfg)
        self.redis_url = redis_url_of(cfg)
        self.metrics = Metrics(self._node, self.state)
        exempt = {*cfg.rate_exempt,
                  *filter(None, os.environ.get("LAIZI_RATE_EXEMPT", "").split(","))}
        budget = RateBudget(open_storage(self.redis_url),
                            on_round_trip=self.metrics.round_trips("limits"),
                            on_error=self.metrics.redis_failed("limits"))
        self.limits = Limits(frozenset(a.strip() for a in exempt), budget)
        self.redis: Any = None
        if self.redis_url:
            from redis.asyncio import Redis

            from laizi.server.guard.redisconn import connect_kwargs

            self.redis = Redis.from_url(self.redis_url, socket_timeout=2.0,
                                        socket_connect_timeout=2.0, **connect_kwargs(self.redis_url))
        self.caps = ConnCaps(hub.conns, cfg.max_connections, cfg.max_conns_per_player,
                             redis=self.redis, node=self._node,
                             on_round_trip=self.metrics.round_trips("conncaps"),
                             on_error=self.metrics.redis_failed("conncaps"))

    @property
    def node(self) -> str:
        """This node's name: the cluster's name for it, else the configured one."""
        directory = getattr(self.hub, "directory", None)
        return str(directory.name or self._node) if directory is not None else self._node

    def state(self) -> dict[str, Any]:
        hub = self.hub
        store = getattr(hub, "_store", None)
        cl = cluster_status(hub)
        out = hub_state(hub.rooms, hub.conns, hub.stats,
                        store.writer if store is not None else None, lease_figures(cl))
        out["cluster"] = cl
        out["node"] = self.node
        return out

    async def start(self) -> None:
        """After the hub's store is open: meter its writer, start the caps' heartbeat."""
        store = getattr(self.hub, "_store", None)
        if store is not None:
            self.metrics.meter_writer(store.writer)
        self.caps.node = self.node  # the cluster part (if any) is attached by now
        self.caps.start()

    async def stop(self) -> None:
        await self.caps.stop()
        if self.redis is not None:
            with contextlib.suppress(Exception):
                await self.redis.aclose()

    async def metrics_endpoint(self, request: Request) -> Response:
        """``GET /metrics``: this node's figures, Prometheus text format."""
        return Response(self.metrics.render(), media_type=CONTENT_TYPE)

    async def health(self) -> dict[str, Any]:
        """For ``GET /healthz``: the node's name, rooms, connections, leases."""
        st = self.state()
        out: dict[str, Any] = {
            "node": self.node,
            "rooms": sum(st.get("rooms", {}).values()),
            "rooms_by_status": dict(st.get("rooms", {})),
            "connections": st.get("connections", 0),
            "leases": dict(st.get("leases", {})),
            "redis": bool(self.redis_url),
        }
        if self.redis is not None:
            out["cluster_connections"] = await self.caps.cluster_counts()
        return out


def cluster_status(hub: Any) -> dict[str, Any]:
    """The cluster part's figures (:meth:`laizi.server.cluster.node.Node.status`); {} alone."""
    directory = getattr(hub, "directory", None)
    if directory is None:
        return {}
    try:
        return dict(directory.status() or {})
    except Exception:  # noqa: BLE001 - not started yet, or stopping
        return {}


def lease_figures(status: Mapping[str, Any]) -> dict[str, int]:
    """Lease figures of a cluster status: held, acquired, lost, released, takeovers."""
    keys = {"held": "leases_held", "acquired": "leases_acquired", "lost": "leases_lost",
            "released": "leases_released", "takeovers": "takeovers",
            "handed_over": "rooms_handed_over"}
    return {k: int(status[v]) for k, v in keys.items() if v in status}


def hub_state(rooms: Mapping[str, Any], conns: ConnSet[Conn], stats: Mapping[str, float],
              writer: Any, leases: Mapping[str, int] | None = None) -> dict[str, Any]:
    """What the metrics read of a hub at scrape time."""
    by_status = Counter(str(getattr(r, "status", "?")) for r in rooms.values())
    frames = [c.queue.qsize() for c in conns]
    chars = [c.queued_bytes for c in conns]
    w: dict[str, float] = {}
    if writer is not None:
        q = getattr(writer, "_q", None)
        w = {"batches": writer.batches, "writes": writer.writes, "busy": writer.busy_seconds,
             "queue": q.qsize() if q is not None else 0}
    return {"rooms": dict(by_status), "connections": len(conns), "stats": stats,
            "queue_frames": (sum(frames), max(frames, default=0)),
            "queue_bytes": (sum(chars), max(chars, default=0)),
            "writer": w, "leases": dict(leases or {})}
