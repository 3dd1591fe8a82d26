"""``GET /metrics``: the node's figures in the Prometheus text format (``prometheus_client``).

One registry per hub (a test may run several servers in one process). Each node — each
worker of ``--workers N`` too — serves its own figures, labelled by nothing but what it
is: scrape every node (the ``node`` is in ``laizi_node_info`` and in /healthz) and sum in
Prometheus (``sum by (...)``). Hot paths only observe two histograms (WebSocket messages
and database writes); everything else is read from the hub when the page is scraped.

=====================================  =========  ===============================================
metric                                 type       what
=====================================  =========  ===============================================
laizi_node_info{node,version}          gauge      1, with the node's name
laizi_ws_messages_total{type}          counter    client WebSocket messages handled, by type
laizi_ws_message_seconds{type}         histogram  time to handle one (``type="action"``: a move,
                                                  up to its ack and the frames queued), on the
                                                  node the client is connected to (a relaying
                                                  node: the hand-off to the owner)
laizi_actions_total                    counter    game actions by players
laizi_bot_moves_total                  counter    moves by bots and 托管
laizi_errors_total                     counter    messages refused or failed
laizi_rooms{status}                    gauge      rooms in memory (lobby, playing, finished)
laizi_connections                      gauge      open WebSockets on this node
laizi_connections_refused_total        counter    refused by the connection caps
laizi_connections_dropped_total        counter    cut for not reading their frames
laizi_connections_direct_total         counter    whose frames are written to the socket at
                                                  once when it takes them (server.net.wsdirect)
laizi_send_queue_frames{stat}          gauge      frames waiting in the send queues: sum, max
laizi_send_queue_bytes{stat}           gauge      ... their characters: sum, max
laizi_db_write_seconds                 histogram  one database write, queued to committed
laizi_db_write_failures_total          counter    writes that failed (the caller got the error)
laizi_db_queue_depth                   gauge      writes waiting for the writer thread
laizi_db_batches_total, _writes_total  counter    group commits and the writes in them
laizi_db_busy_seconds_total            counter    time the writer thread spent committing
laizi_redis_round_trips_total{part}    counter    round trips to Redis: limits, conncaps (the
                                                  connection caps), leases, bus (publishes)
laizi_redis_errors_total{part}         counter    Redis calls that failed (the node fell back)
laizi_lease_takeovers_total            counter    rooms this node took over from another
laizi_leases                           gauge      room leases held by this node
laizi_cluster_events_total{event}      counter    leases acquired/lost/released, rooms given
                                                  up/handed over, fenced writes, routed msgs
laizi_relayed_connections{direction}   gauge      connections relayed out to / in from owners
laizi_bus_bytes_total{direction}       counter    bytes published / received on Redis pub/sub
laizi_live_nodes                       gauge      nodes this node sees alive
=====================================  =========  ===============================================
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Mapping
from importlib.metadata import PackageNotFoundError, version
from typing import Any

from prometheus_client import CollectorRegistry, Counter, Histogram, generate_latest
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, Metric
from prometheus_client.registry import Collector

__all__ = ["CONTENT_TYPE", "Metrics"]

CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8"

LATENCY_BUCKETS = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5)

# hub.stats key -> (metric name, help)
_HUB_COUNTERS = {
    "actions": ("laizi_actions", "Game actions by players"),
    "bot_moves": ("laizi_bot_moves", "Moves by bots and 托管"),
    "errors": ("laizi_errors", "Client messages refused or failed"),
    "conns_refused": ("laizi_connections_refused", "Connections refused by the caps"),
    "conns_dropped": ("laizi_connections_dropped", "Connections cut for not reading"),
    "conns_direct": ("laizi_connections_direct", "Connections whose frames are written directly"),
    "frames_direct": ("laizi_frames_direct", "Frames written directly"),
    "writes_direct": ("laizi_writes_direct", "Socket writes of the frames written directly"),
    "rooms_evicted": ("laizi_rooms_evicted", "Rooms that left memory"),
}
# counters of the cluster part (laizi.server.cluster, Node.status()), 0 for a single process
_CLUSTER_EVENTS = ("leases_acquired", "leases_lost", "leases_released", "rooms_given_up",
                   "rooms_handed_over", "fenced_writes", "routed_out", "routed_in")


def _version() -> str:
    try:
        return version("laizi")
    except PackageNotFoundError:  # pragma: no cover - running from a source tree
        return "0"


class Metrics:
    """The node's metrics. ``state`` is called at each scrape and returns what is read
    then (see :meth:`State`): rooms by status, connections, the writer, hub stats."""

    def __init__(self, node: str, state: Callable[[], Mapping[str, Any]]) -> None:
        self.node = node
        self.registry = CollectorRegistry(auto_describe=True)
        self.messages = Counter("laizi_ws_messages", "Client WebSocket messages handled",
                                ["type"], registry=self.registry)
        self.message_seconds = Histogram("laizi_ws_message_seconds",
                                         "Time to handle one client WebSocket message", ["type"],
                                         buckets=LATENCY_BUCKETS, registry=self.registry)
        self.db_write_seconds = Histogram("laizi_db_write_seconds",
                                          "One database write, queued to committed",
                                          buckets=LATENCY_BUCKETS, registry=self.registry)
        self.db_write_failures = Counter("laizi_db_write_failures",
                                         "Database writes that failed", registry=self.registry)
        self.redis_trips: dict[str, int] = {}  # part -> round trips (limits, conncaps)
        self.redis_errors: dict[str, int] = {}
        self._by_type: dict[str, tuple[Any, Any]] = {}
        self.registry.register(_StateCollector(self, state))

    # ------------------------------------------------------------- hot paths
    def message(self, kind: str, seconds: float) -> None:
        pair = self._by_type.get(kind)
        if pair is None:
            pair = self._by_type[kind] = (self.messages.labels(kind),
                                          self.message_seconds.labels(kind))
        pair[0].inc()
        pair[1].observe(seconds)

    def round_trips(self, part: str) -> Callable[[int], None]:
        trips = self.redis_trips
        trips.setdefault(part, 0)

        def count(n: int) -> None:
            trips[part] += n

        return count

    def redis_failed(self, part: str) -> Callable[[BaseException], None]:
        errors = self.redis_errors
        errors.setdefault(part, 0)

        def count(exc: BaseException) -> None:
            errors[part] += 1

        return count

    def meter_writer(self, writer: Any) -> None:
        """Observe every write of ``writer`` (a :class:`laizi.server.persistence.db.Writer`): its time
        from queued to committed and its failures. Wraps its ``write`` on the instance."""
        inner = writer.write
        if getattr(inner, "_metered", False):
            return
        hist, failures = self.db_write_seconds, self.db_write_failures

        def write(fn: Any, **kw: Any) -> Any:
            t0 = time.perf_counter()
            fut = inner(fn, **kw)

            def done(f: Any) -> None:
                hist.observe(time.perf_counter() - t0)
                if f.cancelled() or f.exception() is not None:
                    failures.inc()

            fut.add_done_callback(done)
            return fut

        write._metered = True  # type: ignore[attr-defined]
        setattr(writer, "write", write)  # noqa: B010 - on the instance, not the class

    def render(self) -> bytes:
        return generate_latest(self.registry)


class _StateCollector(Collector):
    """Figures read from the hub at scrape time (no cost on the hot paths)."""

    def __init__(self, metrics: Metrics, state: Callable[[], Mapping[str, Any]]) -> None:
        self.metrics = metrics
        self.state = state

    def describe(self) -> list[Metric]:
        return []  # read at scrape time: nothing to check at registration

    def collect(self) -> Iterator[Metric]:
        st = self.state()
        info = GaugeMetricFamily("laizi_node_info", "This node", labels=["node", "version"])
        info.add_metric([str(st.get("node", self.metrics.node)), _version()], 1)
        yield info
        stats: Mapping[str, float] = st.get("stats", {})
        for key, (name, text) in _HUB_COUNTERS.items():
            yield CounterMetricFamily(name, text, value=float(stats.get(key, 0)))
        yield from self._cluster(st.get("cluster", {}))
        rooms = GaugeMetricFamily("laizi_rooms", "Rooms in memory", labels=["status"])
        for status, n in st.get("rooms", {}).items():
            rooms.add_metric([status], float(n))
        yield rooms
        yield GaugeMetricFamily("laizi_connections", "Open WebSockets on this node",
                                value=float(st.get("connections", 0)))
        for what in ("frames", "bytes"):
            g = GaugeMetricFamily(f"laizi_send_queue_{what}", f"Send queues: {what} waiting",
                                  labels=["stat"])
            q = st.get(f"queue_{what}", (0, 0))
            g.add_metric(["sum"], float(q[0]))
            g.add_metric(["max"], float(q[1]))
            yield g
        w = st.get("writer", {})
        yield GaugeMetricFamily("laizi_db_queue_depth", "Writes waiting for the writer thread",
                                value=float(w.get("queue", 0)))
        for key, name, text in (("batches", "laizi_db_batches", "Group commits"),
                                ("writes", "laizi_db_writes", "Writes committed in batches"),
                                ("busy", "laizi_db_busy_seconds", "Writer thread time committing")):
            yield CounterMetricFamily(name, text, value=float(w.get(key, 0)))

    def _cluster(self, cl: Mapping[str, Any]) -> Iterator[Metric]:
        """The cluster part's figures (``Node.status()``; zeros for a single process)."""
        m = self.metrics
        trips = CounterMetricFamily("laizi_redis_round_trips", "Round trips to Redis",
                                    labels=["part"])
        for part, n in {**m.redis_trips, "leases": cl.get("redis_round_trips", 0),
                        "bus": cl.get("bus_publishes", 0)}.items():
            trips.add_metric([part], float(n))
        yield trips
        errors = CounterMetricFamily("laizi_redis_errors", "Redis calls that failed (fell back)",
                                     labels=["part"])
        for part, n in m.redis_errors.items():
            errors.add_metric([part], float(n))
        yield errors
        yield CounterMetricFamily("laizi_lease_takeovers", "Rooms taken over from another node",
                                  value=float(cl.get("takeovers", 0)))
        yield GaugeMetricFamily("laizi_leases", "Room leases held by this node",
                                value=float(cl.get("leases_held", 0)))
        events = CounterMetricFamily("laizi_cluster_events", "Cluster events on this node",
                                     labels=["event"])
        for key in _CLUSTER_EVENTS:
            events.add_metric([key], float(cl.get(key, 0)))
        yield events
        relayed = GaugeMetricFamily("laizi_relayed_connections",
                                    "Connections relayed to (out) or from (in) another node",
                                    labels=["direction"])
        relayed.add_metric(["out"], float(cl.get("relayed_out", 0)))
        relayed.add_metric(["in"], float(cl.get("relayed_in", 0)))
        yield relayed
        bus = CounterMetricFamily("laizi_bus_bytes", "Bytes through Redis pub/sub",
                                  labels=["direction"])
        bus.add_metric(["out"], float(cl.get("bus_bytes_out", 0)))
        bus.add_metric(["in"], float(cl.get("bus_bytes_in", 0)))
        yield bus
        yield GaugeMetricFamily("laizi_live_nodes", "Nodes this node sees alive",
                                value=float(len(cl.get("live_nodes", ()) or ())))
