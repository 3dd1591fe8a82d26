"""The create-room form's 更多房间设置 (further settings: 结算等待秒数, 超时几次托管, 段位下限/上限,
固定牌局种子) on phones: each setting's words stay on one line with its box, and no box runs past
the card. Before, the settings flowed as inline text, so at 390×844 "超时几次托管" ended one line
and its box began the next, and "段位上限" stood apart from its select the same way.

Real `laizi serve`, the system Chromium; one page turned through the sizes (this form is all CSS:
support.webhelpers.resize); screenshots in tests/web/screens/."""

from __future__ import annotations

from typing import Any

import pytest

from support.webhelpers import new_page, overflow_x, resize, screens_dir

pytestmark = pytest.mark.browser

SIZES = [(390, 844), (360, 640), (844, 390), (667, 375), (1366, 900)]

MEASURE = """() => {
  const card = document.getElementById('create-card').getBoundingClientRect();
  return [...document.querySelectorAll('details.more label')].map(l => {
    const words = l.querySelector('span').getBoundingClientRect();
    const box = l.querySelector('input, select').getBoundingClientRect();
    return {
      words: l.querySelector('span').textContent,
      // the words and the box side by side (the box's middle within the words' line) or the
      // box right under the words, inside the same label (a wide one: the seed)
      together: (box.top < words.bottom && box.bottom > words.top) || l.getClientRects().length === 1,
      lines: l.getClientRects().length,
      inside: box.left >= card.left && box.right <= card.right,
    };
  });
}"""


def test_each_further_setting_keeps_its_words_and_box_together(browser: Any, server: str) -> None:
    page = new_page(browser, server, size=SIZES[0])
    page.click("details.more > summary")
    page.wait_for_selector("#c-seed", state="visible")
    for size in SIZES:
        resize(page, size)
        got = page.evaluate(MEASURE)
        assert len(got) == 5, got
        bad = [g for g in got if not (g["together"] and g["lines"] == 1 and g["inside"])]
        assert not bad, f"{size}: {bad}"
        assert overflow_x(page) <= 0, size
        page.locator("#create-card").screenshot(path=str(screens_dir() / f"more-settings-{size[0]}x{size[1]}.png"))
    assert not page.errors  # type: ignore[attr-defined]
    page.context.close()
