"""Client addresses behind the shipped HAProxy (deploy/haproxy.cfg, ``laizi serve
--forwarded-allow-ips``): the proxy sends ``X-Forwarded-For`` and the server believes it
only from the listed proxies, so two players through the proxy are two addresses to the
per-address limits, and no client reaching a node directly (or through the proxy with a
forged header) can choose its address.

The clients connect from their own loopback addresses (127.0.0.2, 127.0.0.3 …: Linux
routes all of 127/8 to lo); the proxy and the node are on 127.0.0.1. The per-address limit
observed is ``GUESTS_PER_IP`` (new guests from one address a minute)."""

from __future__ import annotations

import contextlib
import json
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from laizi.cli import main
from laizi.server.common.protocol import PROTOCOL
from laizi.server.guard.limits import GUESTS_PER_IP
from support.nodes import HAProxy
from support.srvhelpers import LiveServer

HAPROXY = shutil.which("haproxy") or "/usr/sbin/haproxy"


def guest(port: int, source: str, forged: str | None = None) -> dict[str, Any]:
    """A new guest's ``hello`` on ``/ws`` from ``source`` (optionally claiming ``forged`` in
    X-Forwarded-For): the ``welcome`` or the ``error``."""
    from websockets.sync.client import connect

    headers = {"X-Forwarded-For": forged} if forged else None
    with connect(f"ws://127.0.0.1:{port}/ws", additional_headers=headers,
                 source_address=(source, 0), open_timeout=20) as ws:
        ws.send(json.dumps({"type": "hello", "proto": PROTOCOL}))
        while True:
            m: dict[str, Any] = json.loads(ws.recv(timeout=20))
            if m["type"] in ("welcome", "error"):
                return m


def spend_guests(port: int, source: str, forged: str | None = None) -> None:
    """Use up ``source``'s guest budget: GUESTS_PER_IP welcomes, then a refusal."""
    for i in range(GUESTS_PER_IP.count):
        m = guest(port, source, forged)
        assert m["type"] == "welcome", (i, m)
    m = guest(port, source, forged)
    assert m["type"] == "error" and m["code"] == "too_many_guests", m


@contextlib.contextmanager
def server(tmp: Path, args: list[str]) -> Iterator[LiveServer]:
    srv = LiveServer.plain(tmp, args=args).start()  # rate-limited, loopback included
    try:
        yield srv
    finally:
        srv.stop()


@pytest.mark.timeout(180)
def test_two_clients_through_haproxy_are_two_addresses(tmp_path: Path) -> None:
    if not Path(HAPROXY).exists():
        pytest.skip("no haproxy")
    with server(tmp_path, ["--forwarded-allow-ips", "127.0.0.1"]) as srv:
        h = HAProxy(tmp_path, [("n1", srv.port)]).start()
        try:
            # 127.0.0.2 spends its budget through the proxy, claiming another address in
            # a forged header half the time: the proxy's own entry (the last) is believed
            for i in range(GUESTS_PER_IP.count):
                m = guest(h.port, "127.0.0.2", "203.0.113.7" if i % 2 else None)
                assert m["type"] == "welcome", (i, m)
            m = guest(h.port, "127.0.0.2", "203.0.113.8")
            assert m["type"] == "error" and m["code"] == "too_many_guests", m
            # another client through the same proxy has its own budget (without the
            # header both were the proxy's 127.0.0.1, one budget for everyone)
            assert guest(h.port, "127.0.0.3")["type"] == "welcome"
            # a client reaching the node directly cannot borrow a fresh address either
            spend_guests(srv.port, "127.0.0.4", "198.51.100.1")
            assert guest(srv.port, "127.0.0.4", "198.51.100.2")["type"] == "error"
        finally:
            h.stop()


@pytest.mark.timeout(120)
def test_no_proxy_listed_no_header_believed(tmp_path: Path) -> None:
    """As shipped (no --forwarded-allow-ips, no FORWARDED_ALLOW_IPS): X-Forwarded-For is
    believed from no one, not even from loopback (uvicorn's own default trusts 127.0.0.1)."""
    with server(tmp_path, []) as srv:
        spend_guests(srv.port, "127.0.0.1", "198.51.100.1")
        assert guest(srv.port, "127.0.0.1", "198.51.100.2")["type"] == "error"
        assert guest(srv.port, "127.0.0.5")["type"] == "welcome"


@pytest.mark.parametrize("value, message", [
    ("*", "not '*'"),
    ("127.0.0.1,proxy.example", "'proxy.example' is not an IP address or network"),
    ("10.0.0.0/33", "is not an IP address or network"),
])
def test_forwarded_allow_ips_checked(value: str, message: str,
                                     capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["serve", "--forwarded-allow-ips", value]) == 2
    out = capsys.readouterr().out
    assert message in out and out.count("\n") == 1 and "Traceback" not in out


def test_workers_are_given_the_proxies() -> None:
    """``--workers N`` passes ``--forwarded-allow-ips`` on to every worker."""
    import argparse

    from laizi.cli.serve import add_arguments
    from laizi.server.cluster.supervisor import worker_commands

    p = argparse.ArgumentParser()
    add_arguments(p)
    args = p.parse_args(["--workers", "2", "--redis", "redis://h", "--db", "postgresql://x/y",
                         "--forwarded-allow-ips", "10.0.0.5,10.1.0.0/16"])
    for cmd in worker_commands(args, "box"):
        i = cmd.index("--forwarded-allow-ips")
        assert cmd[i + 1] == "10.0.0.5,10.1.0.0/16"
    args = p.parse_args(["--workers", "2", "--redis", "redis://h", "--db", "postgresql://x/y"])
    assert all("--forwarded-allow-ips" not in c for c in worker_commands(args, "box"))
