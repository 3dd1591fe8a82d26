"""What the whole suite shares: the tiers. Every test that needs more than this process is
marked (markers registered in pyproject.toml), so ``bash scripts/test.sh --fast`` can leave it out:

- ``browser``: the system Chromium (the ``browser`` fixture, or marked by hand);
- ``server``: a real ``laizi serve`` process — the web tests' ``server`` fixture, or its module
  starts one (``LiveServer``, ``live_server``, cluster nodes: found in the module's source);
- ``postgres``: the private PostgreSQL (``pg_url``, ``pg_cluster``, ``db_url`` on PostgreSQL);
- ``redis``: the private Redis (``redis_url``, ``redis_server``);
- ``slow``: marked by hand where a test takes long in this process alone."""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

import pytest

_SERVER_PROCESS = re.compile(r"\bLiveServer\(|\blive_server\(|\bmake_nodes\b|\"laizi\", \"serve\"")
_BY_FIXTURE = {"browser": "browser", "server": "server", "pg_url": "postgres", "pg_cluster": "postgres",
               "redis_url": "redis", "redis_server": "redis"}


@cache
def _starts_a_server(path: Path) -> bool:
    try:
        return bool(_SERVER_PROCESS.search(path.read_text(encoding="utf-8")))
    except OSError:
        return False


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        names = set(getattr(item, "fixturenames", ()))
        for fixture, marker in _BY_FIXTURE.items():
            if fixture in names:
                item.add_marker(marker)
        callspec = getattr(item, "callspec", None)
        if callspec is not None and "postgresql" in callspec.params.values():
            item.add_marker("postgres")  # db_url (or a module's own backend fixture) on PostgreSQL
        if _starts_a_server(Path(str(item.path))):
            item.add_marker("server")
