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
    page.reload()  # (its seat was given up: no way back is offered)
    poll(page, "() => document.getElementById('coins-bal').textContent !== '—'")
    page.wait_for_timeout(300)
    assert not page.is_visible('[data-testid="quick-back"]')
    assert page.errors == []
    page.context.close()


def test_a_match_still_on_is_offered_from_another_device(browser: Any, quick_server: str) -> None:
    """A player whose quick-match table plays on (托管) while it is away — the phone closed, the
    same account opened on another device — is offered the way back in the lobby: 回到牌桌. It
    had none (the room is private, not in the list; 初级场 only said "你正在房间 X 对局")."""
    import json

    page = new_page(browser, quick_server, size=(390, 844))
    register_here(page, quick_server, "quickback")
    page.click('button[data-level="junior"]')
    page.wait_for_selector("#game:not(.hidden)", timeout=20000)
    page.wait_for_selector("#hand .tile")
    code = page.evaluate("() => JSON.parse(JSON.stringify(window.location.pathname)).split('/').pop()")
    token = page.evaluate("() => localStorage.getItem('laizi.token')")
    page.context.close()  # the phone closed mid-match

    other = new_page(browser, quick_server, size=(844, 390), setup=lambda p: p.add_init_script(
        f"try {{ localStorage.setItem('laizi.token', {json.dumps(token)}); }} catch (e) {{}}"))
    back = other.locator('[data-testid="quick-back"]')
    back.wait_for(state="visible", timeout=20000)
    said = other.inner_text("#quick-status")
    assert code in said, (code, said)
    back.click()
    other.wait_for_selector("#game:not(.hidden)")
    other.wait_for_selector("#hand .tile")
    assert other.evaluate("() => window.location.pathname").endswith(code)
    assert other.errors == []
    other.context.close()
