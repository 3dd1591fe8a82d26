"""复盘 in the browser (issue 25) at 844×390: a person plays a one-hand match against three
bots (always discarding the tile just drawn, never claiming), the result screen offers 复盘,
which opens the replay viewer with the person's review: the accuracy, the costliest
decisions with their sentences, and marks on the timeline that lead to the step and show
why. Real server, real review (built in its worker process), the system Chromium."""

from __future__ import annotations

import re
import time
from typing import Any

import pytest

from support.webhelpers import (
    act_once,
    new_page,
    outside,
    overflow_x,
    poll,
    screens_dir,
    start_fixed_deal,
)

# A fixed deal and a long turn: the hand (the bots are seeded by the deal) and so the person's
# costly decisions are the same in every run, and a loaded machine's slow taps never run out a
# turn (a 托管 move is not the person's to review). A random deal could end before the person
# made a decision that costs anything, and then the review rightly lists none.
SEED = "review-journey-1"


pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.timeout(400)]


def test_finish_a_match_then_open_its_review(browser: Any, server: str) -> None:
    page = new_page(browser, server, nick="复盘者", size=(844, 390))
    start_fixed_deal(page, SEED, turn=120, seat=0, level="random", hands=1)
    deadline = time.time() + 240
    while not page.locator("#match-result").count():
        assert time.time() < deadline, "the match did not finish"
        if not act_once(page, take_claims=False):
            page.wait_for_timeout(60)
    link = page.locator('[data-testid="review-link"]')
    assert link.is_visible() and link.inner_text() == "复盘"
    assert re.search(r"/replay/\d+\?review=0$", link.get_attribute("href") or "")
    page.screenshot(path=str(screens_dir() / "review_result_844x390.png"))
    link.click()

    page.wait_for_selector('[data-testid="review-panel"]:not(.hidden)')
    try:  # a build in a fresh worker process: seconds alone, minutes on two loaded cores
        acc = poll(page, """() => { const t = document.querySelector('[data-testid="review-accuracy"]').textContent;
            return /^\\d+%$/.test(t) ? t : null; }""", timeout=240)
    except AssertionError as exc:
        raise AssertionError(f"no review shown; the panel says {page.inner_text('#rv-status')!r}") from exc
    assert 0 <= int(acc[:-1]) <= 100
    status = page.inner_text("#rv-status")
    assert "准确率" in status and "与专家一致" in status
    items = page.locator('[data-testid="review-item"]')
    assert 1 <= items.count() <= 5, page.inner_text("#rv-status")  # (at most five are listed)
    first = items.first.inner_text()
    assert "专家" in first and "期望少" in first
    marks = page.locator('[data-testid="review-mark"]')
    assert marks.count() >= 1  # one hand: every costly decision is on this timeline
    assert page.locator('[data-testid="review-note"]').is_hidden() or marks.count() > 0
    page.screenshot(path=str(screens_dir() / "review_panel_844x390.png"))

    items.first.click()  # to the decision: its step, its mark lit, the sentence over the table
    poll(page, "() => document.querySelector('.rp-mark.on') !== null")
    note = page.locator('[data-testid="review-note"]')
    assert note.is_visible() and "专家" in note.inner_text()
    for tid in ("review-note", "review-panel", "review-marks"):
        assert outside(page, tid) is None, outside(page, tid)
    assert overflow_x(page) <= 0
    page.screenshot(path=str(screens_dir() / "review_mark_844x390.png"))

    page.click("#rp-lang")  # the same in English
    poll(page, """() => document.getElementById('rv-status').textContent.startsWith('Accuracy')""")
    assert "expert" in page.locator('[data-testid="review-item"]').first.inner_text()
    assert "expert" in note.inner_text()
    page.click("#rp-lang")
    page.click("#rv-close")
    page.wait_for_selector('[data-testid="review-panel"]', state="hidden")

    # 战绩: the result card, drawn in the browser, downloaded as a PNG, with its share link
    page.click('[data-testid="card-button"]')
    page.wait_for_selector('[data-testid="card-sheet"]:not(.hidden)')
    size = poll(page, """() => { const c = document.querySelector('[data-testid="card-image"]');
        return c && c.dataset.drawn ? [c.width, c.height] : null; }""")
    assert size == [1200, 630]
    assert re.search(r"/replay/\d+\?card=1$", page.input_value("#card-link"))
    for tid in ("card-image", "card-download"):
        assert outside(page, tid) is None, outside(page, tid)
    page.screenshot(path=str(screens_dir() / "review_card_844x390.png"))
    with page.expect_download() as dl:
        page.click('[data-testid="card-download"]')
    path = dl.value.path()
    png = open(path, "rb").read()  # noqa: SIM115 - a small file
    assert png[:8] == b"\x89PNG\r\n\x1a\n" and len(png) > 10_000
    assert dl.value.suggested_filename.startswith("laizi-match-")
    # its QR code (segno on the server, drawn on the card) reads back as the share link
    import io

    import zxingcpp
    from PIL import Image

    codes = zxingcpp.read_barcodes(Image.open(io.BytesIO(png)).convert("L"))
    assert [c.text for c in codes] == [page.input_value("#card-link")], [c.text for c in codes]
    page.click("#card-close")
    assert page.locator('[data-testid="review-marks"]').is_hidden()
    assert page.errors == []  # type: ignore[attr-defined]
    assert page.evaluate("window.__csp") == []
    page.context.close()
