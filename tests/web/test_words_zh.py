"""Every word a player reads in the Chinese UI comes from the word tables (issue 21, items 5/7):
no raw tile codes, preset ids, bot level ids, server error codes or English words on the lobby,
the room, the table, the settlement and the calculator; three bots are three names (机器人甲/乙/丙);
a server error is shown by its code's words in either language; English says "1 Character".

Real `laizi serve`, the system Chromium, the visible text (innerText) of each page."""

from __future__ import annotations

import time
from typing import Any

import pytest

from support.uiwords import raw_words
from support.webhelpers import act_once, create_room, new_page, poll, sit

pytestmark = pytest.mark.browser


def test_the_chinese_ui_shows_words_not_codes(browser: Any, server: str) -> None:
    page = new_page(browser, server, "中文玩家", size=(390, 844))
    assert raw_words(page.inner_text("body")) == []
    code = create_room(page, 1)
    sit(page, 0)
    for level, seat in (("strong", 1), ("strong", 2), ("greedy", 3)):
        page.select_option("#botlevel", level)
        page.click(f'button[data-bot="{seat}"]')
        page.wait_for_selector(f'button[data-unbot="{seat}"]')
    levels = page.eval_on_selector_all("#botlevel option", "els => els.map(e => e.textContent)")
    assert "高手" in levels and not set(levels) & {"random", "greedy", "strong", "expert"}, levels
    rows = page.eval_on_selector_all("li.seat-row .who", "els => els.map(e => e.textContent)")
    assert rows[1:] == ["机器人甲 · 高手", "机器人乙 · 高手", "机器人丙 · 普通"], rows
    assert raw_words(page.inner_text("body"), code) == []
    page.click("#btn-start")
    page.wait_for_selector("#hand .tile")
    names = page.eval_on_selector_all("#table .pname", "els => els.map(e => e.textContent)")
    assert len(set(names)) == 4 and {"机器人甲", "机器人乙", "机器人丙"} <= set(names), names
    assert raw_words(page.inner_text("body"), code) == []
    deadline = time.time() + 240
    while not page.locator('[data-testid="settlement"]:not(.hidden)').count():
        assert time.time() < deadline, "the hand did not end"
        act_once(page)
        page.wait_for_timeout(50)
    settle = page.inner_text("#settlement")
    assert raw_words(settle, code) == [], settle
    assert "机器人·" not in settle
    log = page.evaluate("() => document.getElementById('log').innerText + document.getElementById('matchtable').innerText")
    assert raw_words(log, code) == [], log   # the 菜单 sheet's log and score table
    assert page.errors == []
    page.context.close()


def test_server_errors_are_shown_in_words(browser: Any, server: str) -> None:
    page = new_page(browser, server, "报错", size=(390, 844))
    page.fill("#j-code", "ZZZZZZ")
    page.click("#btn-join")
    poll(page, "() => !document.getElementById('error').classList.contains('hidden')")
    assert page.inner_text("#error") == "没有这个房间"
    assert page.get_attribute("#error", "data-code") == "unknown_room"
    page.click("#langbtn")
    poll(page, "() => document.documentElement.lang === 'en'")
    page.click("#btn-join")
    poll(page, "() => document.getElementById('error').textContent === 'No such room'")
    named = page.evaluate("""async () => { const m = await import("/static/js/i18n.js");
        return [m.tileName("1m"), m.tileName("2m"), m.tileName("1p"), m.errorText("rate_limited"),
                m.errorText("some_new_code")]; }""")
    assert named == ["1 Character", "2 Characters", "1 Dot", "Too many messages, slow down", "That did not work"]
    page.click("#langbtn")
    poll(page, "() => document.documentElement.lang === 'zh-CN'")
    page.context.close()


def test_the_calculator_breakdown_in_one_language(browser: Any, server: str) -> None:
    page = new_page(browser, server, None, size=(390, 844))
    page.goto(server + "/calc")
    page.wait_for_selector("#picker [data-pick='9s']")
    page.click("#submit")
    page.wait_for_selector("#result .breakdown li")
    lines = page.eval_on_selector_all("#result .breakdown li", "els => els.map(e => e.textContent)")
    assert raw_words("\n".join(lines)) == [], lines
    assert any(line.startswith("东:") for line in lines), lines   # "seat 0:" as its wind
    assert raw_words(page.inner_text("body")) == []
    page.click("#langbtn")
    poll(page, "() => document.documentElement.lang === 'en'")
    page.click("#submit")
    poll(page, "() => document.querySelector('#result .breakdown li') && !/[\\u3400-\\u9fff]/.test(document.querySelector('#result .breakdown').textContent)")
    lines = page.eval_on_selector_all("#result .breakdown li", "els => els.map(e => e.textContent)")
    assert any(line.startswith("East:") for line in lines), lines
    page.click("#langbtn")
    page.context.close()
