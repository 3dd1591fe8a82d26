"""Replay narration (issue 21): every step of a replayed hand says what happened in words
(谁 打出/摸到/碰 了 什么), naming the seat; the last step shows the hand's settlement; a
one-hand table counts 共 1 局, not 第 1/16 圈. Real server, a finished four-bot match,
the system Chromium at 844×390 and 390×844."""

from __future__ import annotations

from typing import Any

import pytest

from support.webhelpers import bot_match, new_page, poll, screens_dir

pytestmark = [pytest.mark.browser, pytest.mark.slow]


@pytest.mark.parametrize("size", [(844, 390), (390, 844)])
def test_each_step_is_told_and_the_end_settles(browser: Any, server: str, size: tuple[int, int]) -> None:
    _, mid = bot_match(server, hands=1, level="greedy")
    page = new_page(browser, server, size=size)
    page.goto(f"{server}/replay/{mid}")
    poll(page, "() => document.querySelectorAll('#rp-table .tile').length > 13")
    steps = int(page.get_attribute("#rp-pos", "max") or "0") + 1
    assert steps > 20
    said = []
    for i in range(steps):
        said.append(page.text_content('[data-testid="replay-say"]') or "")
        if i == 5:
            page.screenshot(path=str(screens_dir() / f"replay-say-{size[0]}x{size[1]}.png"))
        if i < steps - 1:
            page.click("#rp-next")
    told = [s for s in said if s.strip()]
    assert len(told) >= 0.95 * steps, [s for s in said if not s.strip()][:5]
    names = ("机器人甲", "机器人乙", "机器人丙", "机器人丁")
    assert sum(1 for s in told if any(n in s for n in names)) >= 0.7 * steps
    assert any("打出" in s for s in told) and any("摸" in s for s in told)
    assert "共 1 局" in page.text_content("#rp-table .round-no")
    settle = poll(page, """() => { const b = document.querySelector('[data-testid="replay-settle"]');
        return b && !b.classList.contains('hidden') ? b.querySelectorAll('table.pay tr').length : null; }""")
    assert settle == 5  # the header and four seats
    # the rule card the match was played under (issue 23): above the table and on the settlement
    poll(page, "() => document.getElementById('rp-rules').textContent === '开口番（按预设规则）'")
    assert page.text_content('[data-testid="replay-settle"] [data-testid="settle-rule-card"]') == "规则卡 开口番（按预设规则）"
    page.screenshot(path=str(screens_dir() / f"replay-end-{size[0]}x{size[1]}.png"))
    assert page.errors == []  # type: ignore[attr-defined]
    page.context.close()
