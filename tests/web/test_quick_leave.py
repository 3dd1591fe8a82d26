"""Back in the lobby after leaving a quick-match table, the quick-match line no longer says
"已入座 … 房间 X" (issue 21 item 7), and leaving shows no error."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from support.webhelpers import live_server, new_page, poll, register_here

pytestmark = pytest.mark.browser

PW = "plum blossom 7"


@pytest.fixture(scope="module")
def quick_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with live_server(Path(tmp_path_factory.mktemp("quickleave")), "--hand-pause", "2", env={"LAIZI_QUICK_WAIT": "0.5", "LAIZI_RATE_EXEMPT": "127.0.0.1"}) as base:
        yield base


def test_leaving_a_quick_table_clears_the_seated_line(browser: Any, quick_server: str) -> None:
    page = new_page(browser, quick_server, size=(390, 844))
    register_here(page, quick_server, "quickleaver")
    page.click('button[data-level="junior"]')
    page.wait_for_selector("#game:not(.hidden)", timeout=20000)
    page.wait_for_selector("#hand .tile")
    page.on("dialog", lambda d: d.accept())  # 离开 during a match asks first (the escape penalty)
    page.click("#btn-menu")
    page.click("#btn-leave2")
    page.wait_for_selector("#lobby:not(.hidden)")
    poll(page, "() => !/已入座/.test(document.getElementById('quick-status').textContent)")
    assert page.locator("#error:not(.hidden)").count() == 0, page.inner_text("#error")
    assert page.errors == []
    page.context.close()
