"""新手教程 (issue 23): from the lobby's first screen, a guided first hand on a fixed, announced deal
against three bots, finished by taps on a phone — each lesson (the laizi, 红中杠, discarding, 开口,
吃, the ready hand with its scored waits, the laizi kong, 过, 胡, the settlement) shown once, the
learner's moves made by tapping the marked tile twice or the marked button. The hand itself is the
engine's: its recorded moves replayed on the engine give exactly the file's frames.

Real ``laizi serve``, the system Chromium; screenshots in tests/web/screens/."""

from __future__ import annotations

import importlib.util
import json
import time
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from support.uiwords import raw_words
from support.webhelpers import new_page, screens_dir

ROOT = Path(__file__).resolve().parents[2]
LESSONS = ["intro", "laizi", "red", "discard", "open", "chi", "ready", "lzkong", "pass", "win", "settle"]


def _maker() -> Any:
    spec = importlib.util.spec_from_file_location("make_tutorial", ROOT / "scripts/make_tutorial.py")
    assert spec and spec.loader
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_the_tutorial_hand_is_the_engines() -> None:
    mk = _maker()
    data = json.loads((ROOT / "src/laizi/web/tutorial-hand.json").read_text(encoding="utf-8"))
    assert data["seed"] == "tutorial-95"
    assert mk.record(mk.actions_of(data)) == data  # every frame, replayed on the engine
    kinds = {s["action"]["type"] for s in data["steps"] if s["seat"] == 0}
    assert {"special_kong", "discard", "peng", "chi", "laizi_kong", "pass", "ron"} <= kinds
    assert any(s["view"].get("waits") for s in data["steps"])  # a ready hand, its waits scored
    last = data["steps"][-1]["view"]
    assert last["phase"] == "over" and last["result"]["winner"] == 0


@pytest.mark.browser
@pytest.mark.parametrize("size", [(390, 844), (844, 390)])
def test_the_tutorial_finished_by_taps(browser: Any, server: str, size: tuple[int, int]) -> None:
    page = new_page(browser, server, size=size)
    failed: list[str] = []
    page.on("response", lambda r: failed.append(r.url) if r.status >= 400 else None)
    page.click('[data-testid="tutorial-link"]')  # on the lobby's first screen
    page.wait_for_selector('[data-testid="coach"]:not(.hidden)')
    lessons: list[str] = []
    shots: set[str] = set()
    deadline = time.time() + 150
    while time.time() < deadline:
        if page.locator('[data-testid="coach"]:not(.hidden)').count():
            lesson = str(page.get_attribute('[data-testid="coach"]', "data-lesson"))
            if not lessons or lessons[-1] != lesson:
                lessons.append(lesson)
                assert raw_words(page.inner_text('[data-testid="coach"]'), "tutorial-95") == [], lesson  # the seed
            if lesson in ("laizi", "ready", "settle") and lesson not in shots:
                shots.add(lesson)
                page.screenshot(path=str(screens_dir() / f"tutorial-{lesson}-{size[0]}x{size[1]}.png"))
            if lesson == "settle":
                assert page.locator('[data-testid="coach"] [data-testid="settle-rule-card"]').count() == 1
                break
            page.click('[data-testid="coach-ok"]')
            continue
        mark = page.locator("#actions button.coach-mark")
        tile = page.locator("#hand .tile.hint")
        try:  # a lesson's card may come up over the table meanwhile: then it is answered first
            if mark.count():
                mark.first.click(timeout=2000)
            elif tile.count():
                if "ready-table" not in shots and page.locator('[data-testid="ready-line"]').count():
                    shots.add("ready-table")
                    page.screenshot(path=str(screens_dir() / f"tutorial-table-{size[0]}x{size[1]}.png"))
                tile.first.click(timeout=2000)
                page.locator("#hand .tile.raised").first.click(timeout=2000)
            else:
                page.wait_for_timeout(100)
        except PlaywrightTimeout:
            continue
    assert lessons == LESSONS, lessons
    # every seat showed its 番 all along; the end: back to the lobby or again
    assert page.locator('[data-testid^="fan-"]').count() == 4
    assert page.locator("#coach-lobby").is_visible()
    assert page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth")
    assert page.errors == [] and failed == []  # type: ignore[attr-defined]
    assert page.evaluate("() => window.__csp") == []
    page.context.close()
