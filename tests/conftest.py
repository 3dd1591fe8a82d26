"""What the whole suite shares: the tiers. Every test that needs more than this process is
marked (markers registered in pyproject.toml), so ``bash scripts/test.sh --fast`` can leave it out:

- ``browser``: the system Chromium (the ``browser`` fixture, or marked by hand);
- ``server``: a real ``laizi serve`` process — the web tests' ``server`` fixture, or its module
  starts one (``LiveServer``, ``live_server``, cluster nodes: found in the module's source);
- ``postgres``: the private PostgreSQL (``pg_url``, ``pg_cluster``, ``db_url`` on PostgreSQL);
- ``redis``: the private Redis (``redis_url``, ``redis_server``);
- ``slow``: marked by hand where a test takes long in this process alone;
- ``heavy``: a unit test that takes seconds (:data:`support.tiers.HEAVY`)."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from support.tiers import HEAVY

_SERVER_PROCESS = re.compile(r"\bLiveServer(\.plain)?\(|\blive_server\(|\bmake_nodes\b|\bNodeProc\("
                             r"|\"laizi\", \"serve\"")
_BY_FIXTURE = {"browser": "browser", "server": "server", "serve": "server",
               "pg_url": "postgres", "pg_cluster": "postgres",
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
        if item.nodeid.split("[", 1)[0] in HEAVY:
            item.add_marker("heavy")
    _long_files_first(items)


_RANK = (("browser", 0), ("server", 1), ("postgres", 1), ("redis", 1), ("slow", 1), ("heavy", 1))


def _long_files_first(items: list[pytest.Item]) -> None:
    """The files of the browser tests first, then those of servers and services, then the
    rest (each file's tests in their order): pytest-xdist (``--dist loadfile``) hands out the
    files in this order, so the long ones are not left to the end, where one worker would
    play them while the others wait."""
    rank: dict[Path, int] = {}
    for item in items:
        r = min((r for m, r in _RANK if item.get_closest_marker(m) is not None), default=2)
        rank[item.path] = min(rank.get(item.path, 2), r)
    items.sort(key=lambda item: rank[item.path])  # (stable: each file's order kept)


@pytest.fixture
def serve(tmp_path: Path) -> Iterator[Callable[..., Any]]:
    """Start real ``laizi serve`` processes: ``serve(db_url=None, **options)`` is a started
    :class:`support.srvhelpers.LiveServer` (``plain=True``: :meth:`LiveServer.plain`, as
    shipped); every one is stopped at the end of the test."""
    from support.srvhelpers import LiveServer

    started: list[Any] = []

    def start(db_url: str | None = None, *, plain: bool = False, **options: Any) -> Any:
        if plain:
            srv = LiveServer.plain(tmp_path, db_url, **options)
        else:
            srv = LiveServer(db_url or str(tmp_path / "laizi.db"), tmp_path, **options)
        started.append(srv.start())
        return srv

    try:
        yield start
    finally:
        for srv in started:
            srv.stop()


# ``laizi check`` ran on the database of every server the tests stopped
# (support.srvhelpers.audit_database): any problem it found fails the session. Under
# pytest-xdist (scripts/test.sh runs three workers) each worker hands its problems to the
# controller (``workeroutput``), which reports them.
_AUDIT_KEY = "laizi_audit_problems"


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node: Any, error: Any) -> None:
    from support.srvhelpers import AUDIT_PROBLEMS

    AUDIT_PROBLEMS.extend(getattr(node, "workeroutput", {}).get(_AUDIT_KEY, []))


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    from support.srvhelpers import AUDIT_PROBLEMS

    out = getattr(session.config, "workeroutput", None)
    if out is not None:  # an xdist worker: the controller reports
        out[_AUDIT_KEY] = list(AUDIT_PROBLEMS)
        return
    if AUDIT_PROBLEMS:
        tr = session.config.pluginmanager.get_plugin("terminalreporter")
        lines = ["laizi check found problems in the test servers' databases:", *AUDIT_PROBLEMS[:50]]
        if tr is not None:
            tr.write_line("\n".join(lines), red=True)
        else:
            print("\n".join(lines))
        session.exitstatus = pytest.ExitCode.TESTS_FAILED
