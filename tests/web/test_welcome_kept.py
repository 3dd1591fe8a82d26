"""A page keeps the welcome's frame tables and quick phrases (localStorage "laizi.kept"): its next
hello names them (``have``) and the welcome leaves them out — about 1.9 KB less on every reconnect
and page load. The table must still read its frames with the kept tables, and the chat sheet still
show the phrases.

A real `laizi serve`, the system Chromium: a table of bots, the page reloaded in the middle of it."""

from __future__ import annotations

import json
from typing import Any

import pytest

from support.webhelpers import act_once, new_page, poll, start_table

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def test_a_reloaded_page_reads_its_table_with_the_kept_tables(browser: Any, server: str) -> None:
    hellos: list[dict[str, Any]] = []
    welcomes: list[dict[str, Any]] = []

    def watch(page: Any) -> None:
        def opened(ws: Any) -> None:
            def sent(d: Any) -> None:
                if '"hello"' in str(d):
                    hellos.append(json.loads(d))

            def got(d: Any) -> None:
                if str(d).startswith('{"type":"welcome"'):
                    welcomes.append(json.loads(d))
            ws.on("framesent", sent)
            ws.on("framereceived", got)
        page.on("websocket", opened)

    page = new_page(browser, server, "留着", size=(844, 390), setup=watch)
    assert "have" not in hellos[0] and "keys" in welcomes[0] and "phrases" in welcomes[0]
    start_table(page, level="random", hands=2)
    page.reload()
    page.wait_for_selector("#game:not(.hidden)")
    poll(page, "() => document.querySelectorAll('#hand .tile').length >= 13")
    last_hello, last_welcome = hellos[-1], welcomes[-1]
    assert sorted(last_hello["have"]) == sorted([welcomes[0]["tables_id"], welcomes[0]["phrases_id"]])
    assert not {"keys", "shapes", "phrases"} & last_welcome.keys(), last_welcome.keys()
    # the table goes on reading its frames (updates after the reload), and the phrases are there
    seen = page.evaluate("() => document.getElementById('wall-count').textContent")
    act_once(page)  # (our turn: a discard; else the bots play on)
    poll(page, "w => document.getElementById('wall-count').textContent !== w", seen, timeout=60)
    # (the chat sheet's phrase buttons, drawn at the welcome from what the page kept)
    poll(page, "() => [...document.querySelectorAll('#phrases button')].some(b => b.textContent.includes('热干面'))")
    assert page.errors == []  # type: ignore[attr-defined]
    page.context.close()
