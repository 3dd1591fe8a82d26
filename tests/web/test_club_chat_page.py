"""Club chat (圈聊) on the club page (issue 26): the owner and a member on the club's page;
the owner says something that looks like markup, the member's page shows it (read every
few seconds) as text; the member answers; a stranger's page shows no chat. Real server,
the system Chromium, a phone sideways and upright (screenshots looked at)."""

from __future__ import annotations

import json
import urllib.request
from typing import Any

import pytest

from support.webhelpers import new_page, overflow_x, poll, register_here, screens_dir

pytestmark = [pytest.mark.browser, pytest.mark.slow]

HOSTILE = "<b>周末</b>三缺一，来不来？"


def post(base: str, path: str, token: str, body: Any) -> Any:
    req = urllib.request.Request(base + path, data=json.dumps(body).encode(), method="POST",
                                 headers={"Authorization": f"Bearer {token}",
                                          "Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=20) as r:
        return json.loads(r.read())


def has(page: Any, text: str) -> bool:
    return bool(page.evaluate("t => [...document.querySelectorAll('#club-chatlog div')]"
                              ".some(d => d.textContent.includes(t))", text))


@pytest.mark.parametrize("size", [(844, 390), (390, 844)])
def test_club_chat_between_members(browser: Any, server: str, size: tuple[int, int]) -> None:
    tag = f"{size[0]}"
    owner = new_page(browser, server, size=size)
    register_here(owner, server, f"owner{tag}")
    member = new_page(browser, server, size=size)
    register_here(member, server, f"member{tag}")
    stranger = new_page(browser, server, size=size)
    register_here(stranger, server, f"stranger{tag}")
    tok = {p: p.evaluate("() => localStorage.getItem('laizi.token')") for p in (owner, member, stranger)}
    club = post(server, "/api/clubs", tok[owner], {"name": "江汉路牌友", "private": False})
    post(server, "/api/clubs/join", tok[member], {"code": club["code"]})
    for p in (owner, member, stranger):
        p.goto(f"{server}/clubs/{club['id']}")
        poll(p, "() => document.body.dataset.ready === '1'")
    assert stranger.is_hidden("#o-chat-card")  # a public club's stranger: no chat
    owner.wait_for_selector("#o-chat-card:not(.hidden)")
    owner.fill("#club-chat-input", HOSTILE)
    owner.click("#btn-club-chat")
    poll(member, "t => [...document.querySelectorAll('#club-chatlog div')].some(d => d.textContent.includes(t))",
         HOSTILE, timeout=20)
    assert member.evaluate("() => document.querySelector('#club-chatlog b b, #club-chatlog div > b + b')") is None
    assert member.inner_text("#club-chatlog").count("<b>周末</b>") == 1  # text, never HTML
    member.fill("#club-chat-input", "来！")
    member.keyboard.press("Enter")
    poll(owner, "t => [...document.querySelectorAll('#club-chatlog div')].some(d => d.textContent.includes(t))",
         "来！", timeout=20)
    member.locator("#o-chat-card").scroll_into_view_if_needed()
    member.screenshot(path=str(screens_dir() / f"club-chat-{size[0]}x{size[1]}.png"))
    assert overflow_x(member) <= 0
    assert has(member, "来！") and has(member, f"owner{tag}: ")  # the username, as in the members list
    for p in (owner, member, stranger):
        assert not p.errors, p.errors
        assert not p.evaluate("window.__csp"), p.evaluate("window.__csp")
