"""Issue 16: ``GET /metrics`` (Prometheus text, parsed here with prometheus_client's own
parser) and ``GET /healthz`` (node name, rooms, connections, leases) of a real server,
before and after a few moves."""

from __future__ import annotations

import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from prometheus_client.parser import text_string_to_metric_families

from laizi.server.guard.metrics import _version
from support.srvhelpers import Client, LiveServer, seated_room, step

pytestmark = pytest.mark.timeout(120)

Samples = dict[tuple[str, tuple[tuple[str, str], ...]], float]


def scrape(srv: LiveServer) -> Samples:
    with urllib.request.urlopen(srv.url + "/metrics", timeout=5) as r:
        assert r.status == 200
        assert r.headers["Content-Type"].startswith("text/plain")
        text = r.read().decode()
    out: Samples = {}
    for fam in text_string_to_metric_families(text):
        for s in fam.samples:
            out[(s.name, tuple(sorted(s.labels.items())))] = s.value
    return out


def value(samples: Samples, name: str, **labels: str) -> float:
    return samples.get((name, tuple(sorted(labels.items()))), 0.0)


@pytest.fixture
def server(tmp_path: Path) -> Iterator[LiveServer]:
    srv = LiveServer(str(tmp_path / "metrics.db"), tmp_path, bot_delay=0.0, hand_pause=0.0,
                     hello_timeout=30.0).start()
    yield srv
    srv.stop()


def test_metrics_move_with_the_game(server: LiveServer) -> None:
    before = scrape(server)
    assert value(before, "laizi_actions_total") == 0
    assert value(before, "laizi_connections") == 0
    node = next(dict(k[1])["node"] for k in before if k[0] == "laizi_node_info")
    clients, code = seated_room(server.port, n_players=2, bots="random")
    try:
        moves = 0
        deadline = time.monotonic() + 20
        while moves < 6 and time.monotonic() < deadline:
            step(clients)
            moves = sum(c.seq for c in clients)
        assert moves >= 6
        for c in clients:
            c.drain(0.2)
        after = scrape(server)
        status, health = server.get("/healthz")
    finally:
        for c in clients:
            c.close()
    acks = sum(1 for c in clients for f in c.frames if f["type"] == "ack")
    assert acks >= 6
    assert value(after, "laizi_actions_total") == acks
    assert value(after, "laizi_ws_message_seconds_count", type="action") == acks
    assert value(after, "laizi_ws_messages_total", type="action") == acks
    assert value(after, "laizi_ws_messages_total", type="hello") == 2
    assert 0 < value(after, "laizi_ws_message_seconds_sum", type="action") < acks * 1.0
    assert value(after, "laizi_ws_message_seconds_bucket", type="action", le="+Inf") == acks
    assert value(after, "laizi_bot_moves_total") > 0
    assert value(after, "laizi_rooms", status="playing") == 1
    assert value(after, "laizi_connections") == 2
    assert value(after, "laizi_send_queue_frames", stat="max") >= 0
    # the database: every write observed, none failed; the writer's own counters agree
    writes = value(after, "laizi_db_write_seconds_count")
    assert writes > value(before, "laizi_db_write_seconds_count")
    assert value(after, "laizi_db_writes_total") >= writes - value(after, "laizi_db_queue_depth")
    assert value(after, "laizi_db_write_failures_total") == 0
    assert value(after, "laizi_lease_takeovers_total") == 0  # one node alone takes nothing over
    # /healthz: this node, its rooms, connections and leases
    assert status == 200 and health["ok"]
    assert health["node"] == node and health["rooms"] == 1 and health["connections"] == 2
    assert health["rooms_by_status"] == {"playing": 1} and health["leases"] == {}
    assert health["stats"]["actions"] == acks and code


def test_a_cluster_nodes_metrics(tmp_path: Path, pg_url: str, redis_url: str) -> None:
    """A node of a cluster: its name, its leases, and its round trips to Redis by part."""
    srv = LiveServer(pg_url, tmp_path, rate_limited=True, redis_url=redis_url, node="m1",
                     hello_timeout=30.0).start()
    try:
        before = value(scrape(srv), "laizi_redis_round_trips_total", part="limits")
        c = Client(srv.port, "r1")
        assert c.request({"type": "create", "settings": {}}, "joined")["type"] == "joined"
        c.close()
        after = scrape(srv)
        # guest (1 budget) + create (2 budgets: address, player): a test and a hit each
        assert value(after, "laizi_redis_round_trips_total", part="limits") - before == 6
        assert value(after, "laizi_redis_round_trips_total", part="conncaps") >= 2
        assert value(after, "laizi_redis_round_trips_total", part="leases") >= 1  # the room's lease
        assert value(after, "laizi_leases") == 1
        assert value(after, "laizi_cluster_events_total", event="leases_acquired") >= 1
        assert value(after, "laizi_node_info", node="m1", version=_version()) == 1
        assert not any(k[0] == "laizi_redis_errors_total" and v for k, v in after.items())
        status, health = srv.get("/healthz")
        assert health["redis"] and health["node"] == "m1"
        assert health["leases"]["held"] == 1 and health["rooms"] == 1
        assert "m1" in health["cluster_connections"]  # the live nodes, counted
    finally:
        srv.stop()


@pytest.mark.slow
def test_workers_each_serve_their_own_metrics(tmp_path: Path, pg_url: str, redis_url: str) -> None:
    """``laizi serve --workers 2``: both workers bind the port; a scrape reaches one of them,
    whose figures and name it gives (docs/deploy.md: per-node metrics)."""
    import os
    import subprocess
    import sys

    from support.srvhelpers import free_port

    port = free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "laizi", "serve", "--host", "127.0.0.1", "--port", str(port),
         "--db", pg_url, "--redis", redis_url, "--workers", "2", "--node", "mw"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env={**os.environ})
    srv = LiveServer(pg_url, tmp_path, port=port)  # for its scrape helpers only
    try:
        seen: set[str] = set()
        deadline = time.monotonic() + 40
        while len(seen) < 2 and time.monotonic() < deadline:
            try:
                samples = scrape(srv)
                status, health = srv.get("/healthz")
            except OSError:
                time.sleep(0.2)
                continue
            names = {dict(k[1])["node"] for k in samples if k[0] == "laizi_node_info"}
            assert len(names) == 1  # one worker's figures per scrape
            seen |= names
            assert status == 200 and health["node"] in ("mw-w0", "mw-w1")
        assert seen == {"mw-w0", "mw-w1"}
    finally:
        proc.terminate()
        try:
            proc.wait(40)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(10)
