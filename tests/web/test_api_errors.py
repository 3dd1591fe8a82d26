"""A refusal of the HTTP API reads in the page's language. A Chinese page (the default) opened
on a link to a replay, a player, a tournament or a club that does not exist, or a club page
opened as a guest, says so in Chinese — it showed the server's English ("unknown match",
"unknown player", "unknown tournament", "clubs are for registered players: …"). In English
the page shows the server's own message (a club's page for a guest: the club list's words). The words: web/js/i18n.js ``API_ERRORS``, kept in step
with the server's codes by tests/server/net/test_error_codes.py."""

from __future__ import annotations

import re
from typing import Any

import pytest

from support.webhelpers import new_page, poll, screens_dir

pytestmark = [pytest.mark.browser, pytest.mark.slow]

CJK = re.compile(r"[\u3400-\u9fff]")
MISSING = '[data-testid=\\"missing\\"] p'

# (path, the element that shows the refusal, its Chinese words, the server's English)
CASES = [
    ("/replay/99999", "#rp-label", "没有这场对局的记录", "unknown match"),
    # (the card in the page's place: test_missing_pages.py; a club's page for a guest says what
    # the club list says, in the page's own words)
    ("/players/p_nobody", MISSING, "没有这位玩家", "unknown player"),
    ("/tournaments/99999", MISSING, "没有这个比赛", "unknown tournament"),
    ("/clubs/99999", MISSING, "亲友圈只对注册账号开放", "Clubs are for registered accounts"),
]


def _shown(page: Any, sel: str) -> str:
    return str(poll(page, f"() => {{ const e = document.querySelector('{sel}');"
                          " return e && e.textContent.trim() ? e.textContent.trim() : null; }"))


def test_refusals_read_in_the_pages_language(browser: Any, server: str) -> None:
    page = new_page(browser, server, "错误提示", size=(390, 844))
    for path, sel, zh, en in CASES:
        page.goto(server + path)
        text = _shown(page, sel)
        assert zh in text and en not in text, (path, text)
        if path.startswith("/replay/"):  # no controls over an empty table: the words and the way back
            assert page.is_hidden("#rp-table") and page.is_hidden("#rp-play") and page.is_hidden("#rp-pos"), path
            assert page.is_visible(".rp-home") and page.is_visible("#rp-label"), path
            page.click("#rp-lang")  # its language button still works: the words follow
            poll(page, f"() => document.getElementById('rp-label').textContent.includes({en!r})")
            page.click("#rp-lang")
            poll(page, f"() => document.getElementById('rp-label').textContent.includes({zh!r})")
        page.screenshot(path=str(screens_dir() / f"api-error-zh-{path.strip('/').replace('/', '-')}.png"))
    page.evaluate("() => localStorage.setItem('laizi.lang', 'en')")
    for path, sel, _zh, en in CASES:
        page.goto(server + path)
        text = _shown(page, sel)
        assert en in text and not CJK.search(text), (path, text)
    assert not page.errors, page.errors  # type: ignore[attr-defined]
    page.context.close()
