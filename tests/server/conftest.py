"""Shared fixtures for the server tests: an app on a temporary SQLite file, WebSocket helpers."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, os.path.dirname(__file__))  # srvhelpers (the suite runs with --import-mode=importlib)

pytest.importorskip("starlette")
pytest.importorskip("sqlalchemy")

from srvhelpers import FAST, close_all  # noqa: E402
from starlette.testclient import TestClient  # noqa: E402

from laizi.server.app import create_app  # noqa: E402


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "browser: Playwright tests with the system Chromium")


@pytest.fixture
def make_app(tmp_path: Path) -> Callable[..., Any]:
    def make(db_url: str | None = None, **cfg: Any) -> Any:
        return create_app(db_url=db_url or str(tmp_path / "laizi.db"), **{**FAST, **cfg})

    return make


@pytest.fixture
def client(make_app: Callable[..., Any]) -> Iterator[TestClient]:
    with TestClient(make_app()) as c:
        try:
            yield c
        finally:
            close_all()
