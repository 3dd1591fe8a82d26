"""Fixtures of the cluster tests: real ``laizi serve --node`` processes sharing a private
PostgreSQL and a private Redis (tests/server/conftest.py), and Debian's HAProxy in front
(tests/support/nodes.py)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from support.nodes import HAPROXY, HAProxy, NodeProc

pytest.importorskip("redis")


@pytest.fixture
def make_nodes(pg_url: str, redis_url: str, tmp_path: Path) -> Iterator[Callable[..., list[NodeProc]]]:
    """Start nodes ``names`` (extra ``laizi serve`` args: ``args``); all stopped at the end."""
    started: list[NodeProc] = []

    def make(names: list[str], args: list[str] | None = None) -> list[NodeProc]:
        nodes = [NodeProc(n, pg_url, redis_url, tmp_path, args or []) for n in names]
        for n in nodes:
            started.append(n.start())
        return nodes

    try:
        yield make
    finally:
        for n in started:
            n.stop()


@pytest.fixture
def haproxy(tmp_path: Path) -> Iterator[Callable[[list[NodeProc]], HAProxy]]:
    if not Path(HAPROXY).exists():
        pytest.skip("no haproxy binary (apt-get install haproxy)")
    started: list[HAProxy] = []

    def make(nodes: list[NodeProc]) -> HAProxy:
        h = HAProxy(tmp_path, [(n.name, n.port) for n in nodes]).start()
        started.append(h)
        return h

    try:
        yield make
    finally:
        for h in started:
            h.stop()
