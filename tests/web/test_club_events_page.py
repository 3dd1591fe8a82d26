"""Club events on the club page (issue 26): the owner holds a club event from the page's
form (it opens the tournament's page), the club page lists it for a member (who has no
form), and a stranger of the private club sees no events. Real server, the system
Chromium, a phone sideways and upright (screenshots looked at)."""

from __future__ import annotations

import json
import urllib.request
from typing import Any

import pytest

from support.webhelpers import new_page, overflow_x, poll, register_here, screens_dir

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def post(base: str, path: str, token: str, body: Any) -> Any:
    req = urllib.request.Request(base + path, data=json.dumps(body).encode(), method="POST",
                                 headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=20) as r:
        return json.loads(r.read())


@pytest.mark.parametrize("size", [(844, 390), (390, 844)])
def test_club_event_from_the_club_page(browser: Any, server: str, size: tuple[int, int]) -> None:
    tag = str(size[0])
    owner, member, stranger = (new_page(browser, server, size=size) for _ in range(3))
    for p, name in ((owner, "evowner"), (member, "evmember"), (stranger, "evstranger")):
        register_here(p, server, name + tag)
    tok = {p: p.evaluate("() => localStorage.getItem('laizi.token')") for p in (owner, member, stranger)}
    club = post(server, "/api/clubs", tok[owner], {"name": "汉阳棋牌"})
    post(server, "/api/clubs/join", tok[member], {"code": club["code"]})
    url = f"{server}/clubs/{club['id']}"
    owner.goto(url)
    poll(owner, "() => document.body.dataset.ready === '1'")
    owner.click("#o-new-event summary")
    owner.fill("#e-name", "国庆圈赛")
    owner.check("#e-dup")  # a duplicate event (the same walls at every table)
    owner.locator("#o-new-event").scroll_into_view_if_needed()
    owner.screenshot(path=str(screens_dir() / f"club-event-form-{size[0]}x{size[1]}.png"))
    assert overflow_x(owner) <= 0
    owner.click("#btn-event")
    owner.wait_for_url(f"{server}/tournaments/*")
    tid = int(owner.url.rsplit("/", 1)[1])
    req = urllib.request.Request(f"{server}/api/tournaments/{tid}", headers={"Authorization": f"Bearer {tok[owner]}"})
    with urllib.request.urlopen(req, timeout=20) as r:
        made = json.loads(r.read())
    assert made["club"] == club["id"] and made["settings"]["duplicate"] is True
    # the event's page leads back to its club (it was a dead end) and says nobody entered yet
    back = owner.locator('[data-testid="club-event-back"]')
    back.wait_for(state="visible")
    assert back.get_attribute("href") == f"/clubs/{club['id']}" and "亲友圈" in back.inner_text()
    poll(owner, "() => document.getElementById('o-entrants').textContent === '还没有人报名'")
    for p in (member, stranger):
        p.goto(url)
        poll(p, "() => document.body.dataset.ready === '1'")
    member.wait_for_selector("#o-events li[data-event] >> text=国庆圈赛")
    assert member.is_hidden("#o-new-event")  # a member holds no event
    assert stranger.is_hidden("#o-events-card")  # a private club: no events for strangers
    member.locator("#o-events-card").scroll_into_view_if_needed()
    member.screenshot(path=str(screens_dir() / f"club-events-{size[0]}x{size[1]}.png"))
    assert overflow_x(member) <= 0
    for p in (owner, member, stranger):
        assert not p.errors, p.errors
        assert not p.evaluate("window.__csp"), p.evaluate("window.__csp")
