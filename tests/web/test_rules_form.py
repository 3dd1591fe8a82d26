"""The create-room form built from GET /api/rules (issue 23): no JSON box; the preset first, then
grouped toggles, selects and steppers, each explanation behind ⓘ; only options that differ from
the preset are sent; a second player joining sees the rule card (规则卡) naming them in Chinese
before 准备; a refused value is named in words; the form's words are Chinese, never option ids.

Real `laizi serve`, the system Chromium, phone sizes; screenshots in tests/web/screens/."""

from __future__ import annotations

import json
from typing import Any

import pytest

from laizi.rulecatalog import PRESET_WORDS
from support.uiwords import raw_words
from support.webhelpers import new_page, poll, screens_dir

pytestmark = pytest.mark.browser

CARD = "开口番 · 起胡：32 分 · 反包：开 · 全求人包赔：总是包（下大雨）"


def _open_form(page: Any) -> None:
    page.click("#c-rules-box summary")
    page.wait_for_selector('#c-rules [data-opt="min_points"]')


@pytest.mark.parametrize("size", [(390, 844), (844, 390)])
def test_create_with_three_options_and_a_joiner_sees_the_card(browser: Any, server: str, size: tuple[int, int]) -> None:
    sent: list[dict[str, Any]] = []

    def listen(page: Any) -> None:
        page.on("websocket", lambda ws: ws.on("framesent", lambda p: sent.append(json.loads(p))))

    host = new_page(browser, server, "房主", size=size, setup=listen)
    assert host.locator("textarea, #c-options").count() == 0  # no raw JSON box anywhere
    assert "JSON" not in host.inner_text("body")
    _open_form(host)
    groups = host.eval_on_selector_all("#c-rules legend", "els => els.map(e => e.textContent)")
    assert groups[:2] == ["起胡 / 番数", "封顶"] and "包赔 / 对罚" in groups, groups
    host.fill('#c-rules [data-opt="min_points"]', "32")
    host.check('#c-rules [data-opt="fanbao"]')
    host.select_option('#c-rules [data-opt="quanqiuren_liability"]', "always")
    # a stepper: + then − leaves the cap as it was (not sent)
    host.click('#c-rules [data-step="cap+"]')
    assert host.input_value('#c-rules [data-opt="cap"]') == "310"
    host.click('#c-rules [data-step="cap-"]')
    changed = host.eval_on_selector_all("#c-rules .rule-opt.changed", "els => els.map(e => e.dataset.option)")
    assert changed == ["min_points", "fanbao", "quanqiuren_liability"], changed
    # the explanation is a tap away
    help_box = '#c-rules [data-option="fanbao"] .rule-help'
    assert host.locator(help_box).is_hidden()
    host.click('#c-rules [data-option="fanbao"] button.info')
    assert host.locator(help_box).is_visible() and "清一色" in host.inner_text(help_box)
    assert host.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth")  # no sideways scroll
    host.locator("#c-rules-box").screenshot(path=str(screens_dir() / f"rules-form-{size[0]}x{size[1]}.png"))
    host.click("#btn-create")
    host.wait_for_selector("#roomview:not(.hidden)")
    poll(host, "() => document.getElementById('room-code').textContent.length >= 4")
    code = host.inner_text("#room-code")
    create = next(m for m in sent if m.get("type") == "create")
    assert create["settings"]["options"] == {"min_points": 32, "fanbao": True, "quanqiuren_liability": "always"}
    assert host.inner_text("#room-card") == CARD

    guest = new_page(browser, server, "客人", size=size)
    guest.fill("#j-code", code)
    guest.click("#btn-join")
    guest.wait_for_selector("#roomview:not(.hidden)")
    guest.click('button[data-sit="1"]')
    guest.wait_for_selector('[data-testid="ready"]')  # seated, not yet 准备
    poll(guest, "c => document.getElementById('room-card').textContent === c", CARD)
    assert guest.locator("#room-card").is_visible()
    guest.screenshot(path=str(screens_dir() / f"rules-card-{size[0]}x{size[1]}.png"))
    assert raw_words(guest.inner_text("#roomview"), code) == []
    assert host.errors == [] and guest.errors == []
    assert host.evaluate("() => window.__csp") == [] and guest.evaluate("() => window.__csp") == []
    guest.context.close()
    host.context.close()


def test_the_form_is_in_words_and_a_refused_value_is_named(browser: Any, server: str) -> None:
    page = new_page(browser, server, "词语", size=(390, 844))
    _open_form(page)
    presets = page.eval_on_selector_all("#c-preset option", "els => els.map(e => e.value)")
    assert len(presets) == 5
    for preset in presets:
        page.select_option("#c-preset", preset)
        for b in page.query_selector_all("#c-rules button.info"):
            b.click()  # every explanation shown: scanned too
        text = page.inner_text("#c-rules-box")
        assert "起胡" in text and raw_words(text) == [], (preset, raw_words(text))
        assert page.locator("#c-rules .rule-opt.changed").count() == 0  # the preset's own values
    # the preset list's words are the catalogue's, and the older presetName() table agrees with them
    words = page.eval_on_selector_all("#c-preset option", "els => els.map(e => e.textContent)")
    assert words == [PRESET_WORDS[p][0] for p in presets]
    assert page.evaluate("""async ids => { const m = await import("/static/js/i18n.js");
        return ids.map(m.presetName); }""", presets) == words
    # a named template: its preset and its options, in words
    page.select_option("#c-template", "s2_koukoufan_caps")
    assert page.input_value("#c-preset") == "koukoufan"
    changed = page.eval_on_selector_all("#c-rules .rule-opt.changed", "els => els.map(e => e.dataset.option)")
    assert changed == ["cap", "golden", "sunshine", "ha"], changed
    assert page.input_value('#c-rules [data-opt="cap"]') == "1000"
    text = page.inner_text("#c-rules-box")
    assert "口口番·千分封顶" in text and raw_words(text) == [], raw_words(text)
    page.select_option("#c-template", "s0_strict")
    assert page.input_value("#c-preset") == "koukoufan"  # a template of any preset keeps it
    changed = page.eval_on_selector_all("#c-rules .rule-opt.changed", "els => els.map(e => e.dataset.option)")
    assert sorted(changed) == ["guoshou", "luan_feng_jiang", "sunshine_double", "win_priority"], changed
    page.select_option("#c-preset", "kaikoufan")
    assert page.input_value("#c-template") == ""
    assert page.locator("#c-rules .rule-opt.changed").count() == 0
    # a value the model refuses: the server's error names the option in words
    golden = page.input_value('#c-rules [data-opt="golden"]')
    page.fill('#c-rules [data-opt="golden"]', "100001")
    page.click("#btn-create")
    poll(page, "() => !document.getElementById('error').classList.contains('hidden')")
    assert page.inner_text("#error") == "房间设置有误：金顶"
    page.fill('#c-rules [data-opt="golden"]', "")
    page.click("#btn-create")
    poll(page, "() => document.getElementById('error').textContent.startsWith('数值不对')")
    assert page.inner_text("#error") == "数值不对：金顶"
    # English: the same form in English words
    page.click("#langbtn")
    poll(page, "() => document.documentElement.lang === 'en'")
    poll(page, "() => document.querySelector('#c-rules legend').textContent === 'Minimum and fan'")
    # the room's own numbers too: 0 rounds is refused by name (it was sent as 1)
    page.fill('#c-rules [data-opt="golden"]', golden)
    page.fill("#c-rounds", "0")
    page.click("#btn-create")
    poll(page, "() => document.getElementById('error').textContent === 'Not a valid number: Rounds'")
    assert page.is_visible("#lobby")  # nothing sent
    # the next try opens the room: the last refusal goes with it (it stayed over the room 5 s)
    page.fill("#c-rounds", "2")
    page.fill("#c-hands", "3")
    page.click("#btn-create")
    page.wait_for_selector("#roomview:not(.hidden)")
    assert page.evaluate("document.getElementById('error').classList.contains('hidden')")
    # the room's line names the hands' limit as the table does (共 3 局): it said the rounds alone
    poll(page, "() => document.getElementById('room-rules').textContent.includes('2 round(s) · at most 3 hands')")
    assert page.errors == []
    page.context.close()
