"""The 玩法说明 page's glossary (术语 / Words, ``#glossary``; shared/design/TABLE.md "Words": one
English glossary, the Chinese term shown once on a help page): every game term the table uses, in
English the table's own English word (i18n.js, as the buttons and lines say it) with the Chinese
term beside it, in Chinese the term alone, each with a line of meaning in the page's language; no
tile codes, no English in the Chinese page, no Chinese in the English rows but the terms beside;
nothing wider than a phone. Real ``laizi serve``, the system Chromium; screenshots in
tests/web/screens/."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from support.uiwords import RAW, raw_words
from support.webhelpers import SIZES, new_page, overflow_x, poll, screens_dir

pytestmark = [pytest.mark.browser, pytest.mark.slow]

# TABLE.md's terms (and those the table shows besides): the row's id, the Chinese term, and the
# i18n.js reader of the table's word for it — (function, key), or None where the table has no word
# of its own for the term (明杠's button says 杠; 开口) and the page words it.
TERMS: dict[str, tuple[str, tuple[str, str] | None]] = {
    "dealer": ("庄", ("t", "dealer")), "indicator": ("翻牌", ("t", "indicator")),
    "laizi": ("赖子", ("t", "laizi")), "pizi": ("皮子", ("t", "pizi")),
    "chi": ("吃", ("t", "chi")), "peng": ("碰", ("t", "peng")), "kong": ("杠", ("t", "kong")),
    "minggang": ("明杠", None), "ankong": ("暗杠", ("t", "ankong")), "addkong": ("蓄杠", ("t", "addkong")),
    "special_kong": ("红中杠", ("t", "special_kong")), "fa_kong": ("发财杠", ("t", "fa_kong")),
    "laizi_kong": ("赖子杠", ("t", "laizi_kong")), "pizi_kong": ("皮子杠", ("t", "pizi_kong")),
    "pass": ("过", ("t", "pass")),
    "ting": ("听牌", ("t", "ting")), "ron": ("胡", ("t", "ron")), "tsumo": ("自摸", ("t", "tsumo")),
    "discard": ("放冲（点炮）", ("winBy", "discard")), "rob": ("抢杠", ("winBy", "rob_kong")),
    "gangkai": ("杠上开花", ("t", "gangkai")), "haidi": ("海底捞月", ("t", "haidi")),
    "small_hand": ("屁胡", ("t", "small_hand")), "big_hands": ("大胡", ("t", "big_hands")),
    "hard": ("硬胡", ("t", "hard")), "soft": ("软胡", ("t", "soft")),
    "fan": ("番", ("t", "fan")), "kaikou": ("开口", None), "cap": ("封顶", ("t", "cap_cap")),
    "golden": ("金顶", ("t", "cap_golden")), "sunshine": ("阳光顶", ("t", "cap_sunshine")),
    "ha": ("哈顶", ("t", "cap_ha")), "liable": ("承包", ("t", "liable")),
    "ready": ("准备", ("t", "ready")), "auto": ("托管", ("t", "auto")),
}
# the glossary the design asks for (TABLE.md "Words", 皮子杠/皮子/翻牌/阳光顶/庄/听牌 added)
REQUIRED = ["吃", "碰", "杠", "明杠", "暗杠", "蓄杠", "红中杠", "赖子杠", "皮子杠", "赖子", "皮子", "翻牌", "胡",
            "自摸", "放冲", "点炮", "抢杠", "杠上开花", "海底捞月", "屁胡", "大胡", "硬胡", "软胡", "开口", "封顶",
            "金顶", "阳光顶", "承包", "托管", "准备", "庄", "听牌"]
# the table's English for the terms TABLE.md names in English ("chow, pung, kong, win, self-draw, deal-in")
ENGLISH = {"chi": "Chow", "peng": "Pung", "kong": "Kong", "ron": "Win", "tsumo": "Self-draw", "discard": "deal-in"}
CJK = re.compile(r"[\u3400-\u9fff]")

ROWS = """() => [...document.querySelectorAll('#glossary dt')].map(dt => ({
  id: dt.dataset.term,
  word: dt.firstChild ? dt.firstChild.textContent : '', text: dt.textContent,
  zh: [...dt.querySelectorAll('.hx-zh')].map(s => s.textContent + '|' + s.lang),
  meaning: dt.nextElementSibling && dt.nextElementSibling.tagName === 'DD' ? dt.nextElementSibling.textContent : null,
}))"""
# the table's words in the page's language, read from the module the page itself imports
I18N = """async specs => { const m = await import('/static/js/i18n.js');
  return Object.fromEntries(specs.map(([id, fn, key]) => [id, m[fn](key)])); }"""
# the English rows' text but the Chinese terms beside the words
OUTSIDE_ZH = """() => { const c = document.getElementById('glossary').cloneNode(true);
  c.querySelectorAll('.hx-zh').forEach(s => s.remove()); return c.textContent; }"""


def _i18n(page: Any) -> dict[str, str]:
    specs = [[i, *spec] for i, (_, spec) in TERMS.items() if spec]
    words = page.evaluate(I18N, specs)
    return {i: re.sub(r"[:：]\s*$", "", w) for i, w in words.items()}  # 听's "Ready:" is a label


def _rows(page: Any) -> list[dict[str, Any]]:
    rows = page.evaluate(ROWS)
    assert [r["id"] for r in rows] == list(TERMS), [r["id"] for r in rows]
    assert all(r["meaning"] and r["meaning"].strip() for r in rows), rows
    return rows


def test_howto_writes_no_markup() -> None:
    src = (Path(__file__).resolve().parents[2] / "src/laizi/web/js/howto.js").read_text(encoding="utf-8")
    assert "innerHTML" not in src and "insertAdjacentHTML" not in src


@pytest.mark.parametrize("size", SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
def test_glossary_in_both_languages(server: str, browser: Any, size: tuple[int, int]) -> None:
    page = new_page(browser, server, size=size)
    tag = f"{size[0]}x{size[1]}"
    page.goto(server + "/static/howto.html#glossary")
    page.wait_for_selector("#glossary dt")
    page.wait_for_selector(".hx-big")

    # Chinese (the default): every term, in Chinese alone, the table's Chinese word
    assert page.evaluate("document.documentElement.lang") == "zh-CN"
    rows = _rows(page)
    words = [r["word"] for r in rows]
    for term in REQUIRED:
        assert any(term in w for w in words), term
    zh_i18n = _i18n(page)
    for r in rows:
        term, spec = TERMS[r["id"]]
        assert r["text"] == r["word"] == term and r["zh"] == [], r  # no English beside: the page's language only
        if spec:  # the term is the table's word (放冲 adds 点炮, 听's line says 听)
            assert term == zh_i18n[r["id"]] or term.startswith(zh_i18n[r["id"]]), (term, zh_i18n[r["id"]])
            assert CJK.search(zh_i18n[r["id"]]), zh_i18n[r["id"]]
        assert CJK.search(r["meaning"]), r
    text = page.inner_text("#glossary")
    assert text.startswith("术语")
    assert raw_words(text) == [], raw_words(text)
    assert raw_words(page.inner_text("body")) == []
    # the link came to the glossary (the section is drawn after the rules arrive)
    top = page.evaluate("document.getElementById('glossary').getBoundingClientRect().top")
    assert page.evaluate("scrollY") > 0 and -2 <= top < size[1] / 2, top
    assert overflow_x(page) == 0
    page.screenshot(path=str(screens_dir() / f"glossary-zh-{tag}.png"))

    # English: the table's English word, the Chinese term beside it, an English meaning
    page.click("#langbtn")
    poll(page, "() => document.documentElement.lang === 'en' && "
               "document.querySelector('#glossary dt .hx-zh') !== null")
    rows = _rows(page)
    en_i18n = _i18n(page)
    for r in rows:
        term, spec = TERMS[r["id"]]
        assert r["zh"] == [f"{term}|zh-CN"], r  # the Chinese term, once, marked as Chinese
        word = r["word"]
        assert r["text"] == f"{word} · {term}", r
        if spec:
            assert word == en_i18n[r["id"]], (r["id"], word, en_i18n[r["id"]])
        assert word and not CJK.search(word) and not CJK.search(r["meaning"]), r
        assert re.search(r"[A-Za-z]{2}", r["meaning"]), r
    by_id = {r["id"]: r["word"] for r in rows}
    assert {i: by_id[i] for i in ENGLISH} == ENGLISH
    rest = page.evaluate(OUTSIDE_ZH)
    assert not CJK.search(rest), CJK.findall(rest)
    assert not RAW.findall(page.inner_text("#glossary")), RAW.findall(page.inner_text("#glossary"))
    assert page.inner_text("#glossary h2") == "Words"
    # the whole English page: every sentence begins with a capital (a card's value dropped in
    # at a sentence's start, "red dragons must be laid aside too", was not)
    body = page.inner_text("#hx-body")
    lower = re.findall(r"(?<!e\.g)[.!?] [a-z][a-z]+ [a-z]+", body)  # ("e.g. indicator …" is not a sentence)
    assert not lower, lower
    assert page.inner_text('[data-testid="glossary-link"]') == "Words ↓"
    page.evaluate("document.getElementById('glossary').scrollIntoView()")
    assert overflow_x(page) == 0
    page.screenshot(path=str(screens_dir() / f"glossary-en-{tag}.png"))

    # the link on the rule card goes to it
    page.evaluate("scrollTo(0, 0)")
    page.screenshot(path=str(screens_dir() / f"glossary-link-en-{tag}.png"))
    page.click('[data-testid="glossary-link"]')
    poll(page, "() => Math.abs(document.getElementById('glossary').getBoundingClientRect().top) < 4")
    assert page.errors == [] and page.evaluate("window.__csp") == []  # type: ignore[attr-defined]
    page.context.close()


def test_a_bad_link_says_so_and_shows_the_default_rules(server: str, browser: Any) -> None:
    """A 玩法说明 link whose rules the server refuses (edited, cut short, an old option): the
    refusal in the page's language, the option by its own name, then the default preset's
    page below it — not the server's English sentence over an empty page."""
    from urllib.parse import quote

    page = new_page(browser, server, size=(390, 844))
    page.goto(server + "/static/howto.html?rules=" + quote('{"preset_name": "qipisilai", "cap": -1}'))
    page.wait_for_selector(".hx-big")
    said = page.inner_text("#hx-error")
    assert "这个链接里的规则有一项不对（封顶" in said and "cap" not in said and "Input" not in said, said
    assert page.inner_text('[data-testid="howto-card"]').startswith("开口番"), page.inner_text('[data-testid="howto-card"]')
    box = page.eval_on_selector("#hx-error", "e => e.getBoundingClientRect().top")
    title = page.eval_on_selector("#hx-title", "e => e.getBoundingClientRect().bottom")
    assert box >= title - 1, (box, title)  # below the title, not over it
    assert overflow_x(page) == 0
    page.screenshot(path=str(screens_dir() / "howto-bad-link-390x844.png"))
    page.click("#langbtn")
    poll(page, "() => /One of the rules in this link is wrong \\(/.test(document.getElementById('hx-error').textContent)")
    page.select_option("#hx-preset", "jiayu")  # another preset chosen: the refusal goes
    poll(page, "() => document.getElementById('hx-error').classList.contains('hidden')")
    page.goto(server + "/static/howto.html?rules=" + quote("[1, 2]"))  # not rules at all
    page.wait_for_selector(".hx-big")
    poll(page, "() => /^The rules in this link cannot be read/.test(document.getElementById('hx-error').textContent)")
    assert page.errors == []  # type: ignore[attr-defined]
    page.context.close()
