"""Fixtures for the web client tests: one live `laizi serve` and one system Chromium per module."""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any

import pytest

from support.webhelpers import ARGS, CHROMIUM, live_server  # noqa: E402


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with live_server(tmp_path_factory.mktemp("web"), "--hand-pause", "2") as base:
        yield base


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    if not os.path.exists(CHROMIUM):
        pytest.skip(f"system Chromium not found at {CHROMIUM} (apt-get install chromium)")
    sync_api = pytest.importorskip("playwright.sync_api", reason="playwright (Python package) not installed")
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        yield b
        b.close()
