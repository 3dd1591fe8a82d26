"""Quick match's rule-set picker (one queue per 场次 × rule set): the picker lists every
preset, shows the chosen set's rule card (and changes it with the choice, in zh and en), the
waiting line names the set, and the table the player is seated at plays that rule set."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from support.webhelpers import live_server, new_page, poll

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with live_server(Path(tmp_path_factory.mktemp("quickpresets")), "--hand-pause", "2",
                     env={"LAIZI_QUICK_WAIT": "3", "LAIZI_RATE_EXEMPT": "127.0.0.1"}) as base:
        yield base


def test_pick_a_rule_set_and_be_seated_at_it(browser: Any, server: str) -> None:
    page = new_page(browser, server, size=(844, 390))
    page.wait_for_selector("#quick-rule-card:not(:empty)")
    ids = page.eval_on_selector_all("#quick-preset option", "os => os.map(o => o.value)")
    assert ids == ["kaikoufan", "kaikoufan_fa", "qipisilai", "koukoufan", "jiayu"]
    first = page.inner_text("#quick-rule-card")
    assert "起胡" in first and "16" in first
    page.select_option("#quick-preset", "jiayu")
    poll(page, "() => /20/.test(document.getElementById('quick-rule-card').textContent)")
    assert "封顶：160" in page.inner_text("#quick-rule-card")
    # every text the waiting line shows, kept (the line gives way to the table once the 3 s
    # wait is over: a busy machine's poll could look only after that)
    page.evaluate("""() => { const e = document.getElementById('quick-status'); window.__qs = [];
        new MutationObserver(() => window.__qs.push(e.textContent)).observe(e, { childList: true, characterData: true, subtree: true }); }""")
    page.click('button[data-level="novice"]')
    poll(page, "() => window.__qs.some(t => /嘉鱼/.test(t))")
    page.wait_for_selector("#game:not(.hidden)", timeout=20000)
    page.wait_for_selector("#hand .tile")
    code = page.evaluate("() => location.pathname.split('/').pop()")
    info = page.evaluate(f"() => fetch('/api/rooms/{code}', {{headers: "
                         "{Authorization: 'Bearer ' + localStorage.getItem('laizi.token')}})"
                         ".then(r => r.json())")
    assert info.get("settings", {}).get("preset") == "jiayu", info
    assert page.errors == []
    page.context.close()


def test_the_picker_in_english(browser: Any, server: str) -> None:
    page = new_page(browser, server, size=(390, 844))
    page.wait_for_selector("#quick-rule-card:not(:empty)")
    page.click("#langbtn")
    poll(page, "() => /Rules/.test(document.getElementById('quick-preset-l').textContent)")
    assert "Minimum to win" in page.inner_text("#quick-rule-card")
    assert page.errors == []
    page.context.close()
